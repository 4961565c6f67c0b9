import { ByteString, IllegalDataValueException, IndexOutOfBoundsException, isSvcError } from '../../src';

describe('ByteString', () => {
  it('copies bytes on the way in, so later changes to the array do not show', () => {
    const raw = new Uint8Array([1, 2, 3]);
    const bs = ByteString.copy(raw);
    raw[0] = 9;
    expect(bs.byteAt(0)).toBe(1);
    const out = bs.copyBytes();
    out[1] = 9;
    expect(bs.byteAt(1)).toBe(2);
  });

  it('slices without copying and concatenates without copying', () => {
    const raw = new Uint8Array([0, 1, 2, 3, 4, 5]);
    const bs = ByteString.unsafeWrap(raw);
    const mid = bs.slice(2, 3);
    expect([...mid.copyBytes()]).toEqual([2, 3, 4]);
    raw[3] = 42; // unsafeWrap shares memory: the slice sees it, which proves no copy was made
    expect(mid.byteAt(1)).toBe(42);
    const joined = bs.slice(0, 2).concat(bs.slice(4), ByteString.copy([7]));
    expect([...joined.copyBytes()]).toEqual([0, 1, 4, 5, 7]);
    expect(joined.length).toBe(5);
    expect(joined.byteAt(4)).toBe(7);
    expect([...joined.slice(1, 3).copyBytes()]).toEqual([1, 4, 5]);
  });

  it('converts to and from the Avro string form (one char per byte)', () => {
    const bs = ByteString.copy([0x41, 0xe9, 0x00, 0xff]);
    expect(bs.asAvroString()).toBe('A\u00e9\u0000\u00ff');
    expect(ByteString.fromAvroString('A\u00e9\u0000\u00ff').equals(bs)).toBe(true);
    expect(JSON.stringify({ b: bs })).toBe('{"b":"A\u00e9\\u0000\u00ff"}');
  });

  it('refuses an Avro string with a char above U+00FF, naming the char', () => {
    let caught: unknown;
    try {
      ByteString.fromAvroString('ab\u0100');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(IllegalDataValueException);
    expect(isSvcError(caught, 'IllegalDataValueException', 'SVC_ERR_DATA_INVALID_BYTES_STRING')).toBe(true);
    expect((caught as Error).message).toMatch(
      /is not a valid string representation of bytes: char U\+0100 at index 2/,
    );
  });

  it('round-trips UTF-8', () => {
    expect(ByteString.fromUtf8('é☺😀').asUtf8String()).toBe('é☺😀');
    expect(ByteString.fromUtf8('é').length).toBe(2);
  });

  it.each([
    ['byteAt(-1)', (b: ByteString) => b.byteAt(-1)],
    ['byteAt(length)', (b: ByteString) => b.byteAt(3)],
    ['slice past the end', (b: ByteString) => b.slice(2, 2)],
    ['slice with a negative offset', (b: ByteString) => b.slice(-1, 1)],
    ['copyTo a target too small', (b: ByteString) => b.copyTo(new Uint8Array(2), 0)],
  ])('throws IndexOutOfBoundsException for %s', (_label, op) => {
    expect(() => op(ByteString.copy([1, 2, 3]))).toThrow(IndexOutOfBoundsException);
  });

  it('compares by content across part layouts', () => {
    const a = ByteString.copy([1, 2, 3, 4]);
    const b = ByteString.copy([1, 2]).concat(ByteString.copy([3, 4]));
    expect(a.equals(b)).toBe(true);
    expect(a.equals(ByteString.copy([1, 2, 3]))).toBe(false);
    expect(ByteString.EMPTY.equals(ByteString.copy([]))).toBe(true);
  });

  it('describes itself in hex', () => {
    expect(String(ByteString.copy([0xca, 0xfe]))).toBe('ByteString(length=2, bytes=cafe)');
  });
});
