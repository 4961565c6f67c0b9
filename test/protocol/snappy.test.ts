/**
 * The reference's Snappy content encodings (src/protocol/snappy.ts): `snappy` as xerial's stream, and
 * `x-snappy-framed` as Google's framing format, checked against bytes made by an independent
 * implementation: python-snappy 0.5.3 (Debian's python3-snappy, over the C++ libsnappy), whose framer was
 * run with a bitwise CRC-32C checked against the standard check value (its C crc32c helper does not load on
 * Python 3.11), and the xerial header written from its published layout around python-snappy's raw block.
 */
import {
  SnappyFormatError,
  crc32c,
  decodeSnappy,
  decodeSnappyFramed,
  encodeSnappy,
  encodeSnappyFramed,
} from '../../src/protocol/snappy';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const DATA = Buffer.from('{"name": "a photo album with a long name", "id": 1}'.repeat(40));
/** python: snappy.compress(DATA) */
const RAW =
  'f80f907b226e616d65223a2022612070686f746f20616c62756d20776974682061206c6f6e67206e0122242c20226964223a20317d' +
  'fe3300'.repeat(31) +
  '0533';
/** python: snappy.StreamCompressor().compress(DATA) */
const FRAMED = `ff060000734e61507059009800004c6cc4e1${RAW}`;
/** python: snappy.StreamCompressor().compress(b"abc") (stored: compressing would not make it smaller) */
const FRAMED_SHORT = 'ff060000734e61507059010700006e57f121616263';
/** xerial's header: magic, version 1, compatible version 1; then one block with its big-endian length */
const XERIAL = `82534e41505059000000000100000001${(RAW.length / 2).toString(16).padStart(8, '0')}${RAW}`;

describe('CRC-32C', () => {
  it('gives the standard check value', () => {
    expect(crc32c(Buffer.from('123456789')).toString(16)).toBe('e3069283');
  });
});

describe('decoding bytes made by python-snappy', () => {
  it.each([
    ['x-snappy-framed, a compressed chunk', () => decodeSnappyFramed(hex(FRAMED), 1 << 20), DATA],
    [
      'x-snappy-framed, a stored chunk',
      () => decodeSnappyFramed(hex(FRAMED_SHORT), 1 << 20),
      Buffer.from('abc'),
    ],
    ['snappy, xerial stream', () => decodeSnappy(hex(XERIAL), 1 << 20), DATA],
    [
      'snappy, a bare block (as xerial reads a stream without its header)',
      () => decodeSnappy(hex(RAW), 1 << 20),
      DATA,
    ],
  ])('%s', (_name, decode, expected) => {
    expect(Buffer.from(decode()).equals(expected)).toBe(true);
  });
});

describe('encoding', () => {
  const sizes = [0, 1, 100, 64 * 1024, 64 * 1024 + 1, 200_000];
  it.each(sizes)('round-trips %i bytes both ways, in blocks of the formats’ sizes', (n) => {
    const input = Buffer.alloc(n);
    for (let i = 0; i < n; i++) input[i] = (i * 7919) % 251 < 200 ? 97 + (i % 5) : (i * 31) & 0xff;
    expect(Buffer.from(decodeSnappyFramed(encodeSnappyFramed(input), n)).equals(input)).toBe(true);
    expect(Buffer.from(decodeSnappy(encodeSnappy(input), n)).equals(input)).toBe(true);
  });

  it('writes the framing stream identifier, then chunks whose masked CRC-32C matches the input', () => {
    const framed = encodeSnappyFramed(DATA);
    expect(Buffer.from(framed.subarray(0, 10)).toString('hex')).toBe('ff060000734e61507059');
    // the checksum python-snappy wrote for the same input
    expect(Buffer.from(framed.subarray(14, 18)).toString('hex')).toBe('4c6cc4e1');
  });

  it("writes xerial's header and big-endian block lengths", () => {
    const s = encodeSnappy(DATA);
    expect(Buffer.from(s.subarray(0, 16)).toString('hex')).toBe('82534e41505059000000000100000001');
    expect(new DataView(s.buffer, s.byteOffset).getInt32(16)).toBe(s.length - 20);
  });
});

describe('refusals', () => {
  it.each([
    ['a bomb: a block declaring more than the limit', () => decodeSnappy(hex(RAW), 1000), true],
    ['a framed bomb', () => decodeSnappyFramed(hex(FRAMED), 1000), true],
    ['a stored chunk past the limit', () => decodeSnappyFramed(hex(FRAMED_SHORT), 2), true],
    [
      'a wrong checksum',
      () => decodeSnappyFramed(hex(FRAMED.replace('4c6cc4e1', '4c6cc4e2')), 1 << 20),
      false,
    ],
    ['a missing stream identifier', () => decodeSnappyFramed(hex(RAW), 1 << 20), false],
    [
      'a reserved unskippable chunk',
      () => decodeSnappyFramed(hex('ff060000734e615070590201000000'), 1 << 20),
      false,
    ],
    ['a truncated frame', () => decodeSnappyFramed(hex(FRAMED.slice(0, 60)), 1 << 20), false],
    ['a truncated xerial stream', () => decodeSnappy(hex(XERIAL.slice(0, 60)), 1 << 20), false],
    ['bytes that are no block', () => decodeSnappy(hex('ffffffff0f00'), 1 << 20), false],
  ])('refuses %s', (_name, decode, tooLarge) => {
    let error: unknown;
    try {
      decode();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SnappyFormatError);
    expect((error as SnappyFormatError).code === 'ERR_BUFFER_TOO_LARGE').toBe(tooLarge);
  });

  it('skips padding and skippable chunks', () => {
    const padded = `${FRAMED}fe020000abcd800100007f`;
    expect(Buffer.from(decodeSnappyFramed(hex(padded), 1 << 20)).equals(DATA)).toBe(true);
  });
});
