import fc from 'fast-check';
import {
  ByteString,
  Data,
  DataList,
  DataMap,
  PsonCodec,
  isSvcError,
  type PsonCodecOptions,
} from '../../../src';
import { STORE } from '../../../src/data/internal';
import { dataMapArb, deepList, sharedNodeMapArb } from '../../support/data-arbitraries';
import { fuzzRuns } from '../fuzz-runs';

const HEADER = new Uint8Array([0x23, 0x21, 0x50, 0x53, 0x4f, 0x4e, 0x31, 0x0a]);

const OPTIONS: Array<[string, PsonCodecOptions]> = [
  ['default options', {}],
  ['encodeCollectionCount', { encodeCollectionCount: true }],
  ['encodeStringLength=false', { encodeStringLength: false }],
  [
    'encodeCollectionCount and encodeStringLength=false',
    { encodeCollectionCount: true, encodeStringLength: false },
  ],
];

const codec = new PsonCodec();

/** Runs `fn`; a thrown error must be a PSON DataDecodingException. */
function decodesOrRejects(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!isSvcError(err, 'DataDecodingException', 'SVC_ERR_DATA_PSON_DECODE')) throw err;
  }
}

function withHeader(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER.length + body.length);
  out.set(HEADER);
  out.set(body, HEADER.length);
  return out;
}

describe('PsonCodec properties', () => {
  describe.each(OPTIONS)('with %s', (_label, options) => {
    const pson = new PsonCodec(options);

    it('round-trips any DataMap unchanged, U+0000 in strings included', () => {
      fc.assert(
        fc.property(dataMapArb(), (map) => {
          const bytes = pson.mapToBytes(map);
          expect(pson.bytesToMap(bytes).equals(map)).toBe(true);
          // any reader reads any writer's form
          expect(codec.bytesToMap(bytes).equals(map)).toBe(true);
        }),
        { numRuns: fuzzRuns(300) },
      );
    });

    it('writes what it decoded byte for byte (from raw nodes)', () => {
      fc.assert(
        fc.property(dataMapArb(), (map) => {
          const bytes = pson.mapToBytes(map);
          expect(Buffer.from(pson.mapToBytes(pson.bytesToMap(bytes))).equals(bytes)).toBe(true);
        }),
        { numRuns: fuzzRuns(200) },
      );
    });

    it('round-trips a shared node as two equal copies', () => {
      fc.assert(
        fc.property(sharedNodeMapArb(), (map) => {
          const back = pson.bytesToMap(pson.mapToBytes(map));
          expect(back.equals(map)).toBe(true);
          expect(back.getDataMap('first')!.equals(back.getDataList('second')!.get(0))).toBe(true);
        }),
        { numRuns: fuzzRuns(100) },
      );
    });
  });

  it('round-trips longs across the whole 64-bit range as longs, as bigint outside ±(2^53-1)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        const list = new DataList([n]);
        const bytes = codec.listToBytes(list);
        const safe = n >= -(2n ** 53n - 1n) && n <= 2n ** 53n - 1n;
        expect(bytes[9]).toBe(0x03); // a bigint is a long whatever its size (src/data/long-marks.ts)
        const decoded = codec.bytesToList(bytes);
        expect(decoded.get(0)).toBe(safe ? Number(n) : n);
        expect(codec.listToBytes(decoded)).toEqual(bytes); // and stays one through PSON → PSON
      }),
      { numRuns: fuzzRuns(500) },
    );
  });

  it('round-trips any double: as a double, or as the long JSON would read when integral inside the long range', () => {
    fc.assert(
      fc.property(fc.double(), (d) => {
        const bytes = codec.listToBytes(new DataList([d]));
        const back = codec.bytesToList(bytes).get(0);
        const asLong = Number.isInteger(d) && d >= -(2 ** 63) && d < 2 ** 63 && !Object.is(d, -0);
        if (asLong && !Number.isSafeInteger(d)) {
          expect(bytes[9]).toBe(0x03);
          expect(back).toBe(BigInt(d));
        } else {
          expect(bytes[9]).toBe(asLong ? (d === (d | 0) ? 0x02 : 0x03) : 0x05);
          expect(Object.is(back, d)).toBe(true);
        }
      }),
      { numRuns: fuzzRuns(500) },
    );
  });

  it('round-trips any well-formed unicode in keys and values, short and long', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    fc.assert(
      fc.property(text, text, (key, value) => {
        const k = key.split('\u0000').join('');
        for (const pson of [codec, new PsonCodec({ encodeStringLength: false })]) {
          const map = new DataMap();
          map.put(k, value);
          map.put('list', new DataList([value, k]));
          expect(pson.bytesToMap(pson.mapToBytes(map)).equals(map)).toBe(true);
        }
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('refuses every string with a lone surrogate at insertion, and writes one found in a raw store as ?', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.integer({ min: 0x80, max: 0xffff }),
    );
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (units) => {
        const s = String.fromCharCode(...units);
        const wellFormed = !loneSurrogate.test(s);
        loneSurrogate.lastIndex = 0;
        const insert = (): unknown => new DataList([s]);
        if (wellFormed) {
          expect(codec.bytesToList(codec.listToBytes(new DataList([s]))).get(0)).toBe(s);
          return;
        }
        expect(insert).toThrow(expect.objectContaining({ name: 'IllegalDataValueException' }));
        expect(() => new DataMap().put(s, 1)).toThrow(
          expect.objectContaining({ name: 'IllegalDataValueException' }),
        );
        const raw = new DataList();
        raw[STORE].push(s);
        expect(codec.bytesToList(codec.listToBytes(raw)).get(0)).toBe(s.replace(loneSurrogate, '?'));
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('round-trips ByteStrings made of several parts', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 5 }), (parts) => {
        const bytes = ByteString.concatAll(parts.map((p) => ByteString.copy(p)));
        const back = codec.bytesToList(codec.listToBytes(new DataList([bytes]))).get(0);
        expect(bytes.equals(back)).toBe(true);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  describe('deep nesting', () => {
    const deep = deepList(200_000);
    const bytes = codec.listToBytes(deep);

    it('round-trips a list nested 200,000 deep with a high maxDepth', () => {
      expect(new PsonCodec({ maxDepth: 300_000 }).bytesToList(bytes).equals(deep)).toBe(true);
    });

    it('fails it with a typed error under the default maxDepth', () => {
      let error: unknown;
      try {
        codec.bytesToList(bytes);
      } catch (err) {
        error = err;
      }
      expect(isSvcError(error, 'DataDecodingException', 'SVC_ERR_DATA_PSON_DECODE')).toBe(true);
      expect((error as { offset: number }).offset).toBe(8 + 1000);
    });
  });

  describe('hostile input', () => {
    it('turns random bytes into data or a DataDecodingException, nothing else', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (body, asList) => {
          decodesOrRejects(() => (asList ? codec.bytesToList(body) : codec.bytesToMap(body)));
          const input = withHeader(body);
          decodesOrRejects(() => (asList ? codec.bytesToList(input) : codec.bytesToMap(input)));
        }),
        { numRuns: fuzzRuns(3000) },
      );
    });

    it('turns random bytes after a map or list start into data or a DataDecodingException', () => {
      const start = fc.constantFrom(0x11, 0x12, 0x21, 0x22);
      const byte = fc.oneof(
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom(0x00, 0x01, 0x02, 0x0a, 0x11, 0x21, 0x80, 0x81, 0x82, 0xff),
      );
      fc.assert(
        fc.property(start, fc.array(byte, { maxLength: 48 }), (first, rest) => {
          const input = withHeader(new Uint8Array([first, ...rest]));
          decodesOrRejects(() => (first < 0x20 ? codec.bytesToList(input) : codec.bytesToMap(input)));
        }),
        { numRuns: fuzzRuns(3000) },
      );
    });

    it('rejects every truncation of a valid encoding with a DataDecodingException', () => {
      fc.assert(
        fc.property(dataMapArb({ maxDepth: 4 }), (map) => {
          const bytes = codec.mapToBytes(map);
          for (let n = 0; n < bytes.length; n++) {
            let error: unknown = null;
            try {
              codec.bytesToMap(bytes.subarray(0, n));
            } catch (err) {
              error = err;
            }
            // checked by hand: expect(...).toThrow per prefix made this test take seconds
            if (!isSvcError(error, 'DataDecodingException', 'SVC_ERR_DATA_PSON_DECODE')) {
              throw new Error(`prefix of ${n} of ${bytes.length} bytes gave ${String(error)}`);
            }
          }
        }),
        { numRuns: fuzzRuns(100) },
      );
    });

    it('turns any one-byte change of a valid encoding into data or a DataDecodingException', () => {
      fc.assert(
        fc.property(dataMapArb({ maxDepth: 4 }), fc.nat(), fc.integer({ min: 0, max: 255 }), (map, at, b) => {
          const bytes = new Uint8Array(codec.mapToBytes(map));
          bytes[8 + (at % (bytes.length - 8))] = b;
          decodesOrRejects(() => codec.bytesToMap(bytes));
        }),
        { numRuns: fuzzRuns(1000) },
      );
    });

    it('turns any splice of bytes into a valid encoding into data or a DataDecodingException', () => {
      const interesting = fc.constantFrom(
        0x00,
        0x03,
        0x05,
        0x0a,
        0x11,
        0x12,
        0x21,
        0x22,
        0x80,
        0x81,
        0xc3,
        0xed,
        0xff,
      );
      fc.assert(
        fc.property(
          dataMapArb({ maxDepth: 4 }),
          fc.nat(),
          fc.nat(4),
          fc.array(fc.oneof(interesting, fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
          (map, at, removed, inserted) => {
            const bytes = codec.mapToBytes(map);
            const i = 8 + (at % (bytes.length - 7));
            const input = new Uint8Array([
              ...bytes.subarray(0, i),
              ...inserted,
              ...bytes.subarray(i + removed),
            ]);
            decodesOrRejects(() => codec.bytesToMap(input));
            decodesOrRejects(() => new PsonCodec({ maxDepth: 3 }).bytesToMap(input));
          },
        ),
        { numRuns: fuzzRuns(1000) },
      );
    });

    // "At once": the declared size is checked against the bytes left before a byte of the string is read or
    // a buffer of that size is made, so the error is at the offset right after the size field (14 = header 8,
    // list start, string marker, 4-byte size). How fast that is: `npm run bench -- pson` (reject suite).
    it('rejects a declared string longer than the input, up to 2 GB, before reading it', () => {
      fc.assert(
        fc.property(fc.integer({ min: 7, max: 0x7fffffff }), (declared) => {
          const size = Buffer.alloc(4);
          size.writeInt32LE(declared);
          const input = withHeader(new Uint8Array([0x11, 0x0a, ...size, 1, 2, 3, 4, 5, 6]));
          let error: unknown;
          try {
            codec.bytesToList(input);
          } catch (err) {
            error = err;
          }
          expect(isSvcError(error, 'DataDecodingException', 'SVC_ERR_DATA_PSON_DECODE')).toBe(true);
          expect((error as { offset: number }).offset).toBe(14);
          expect((error as Error).message).toContain(
            `6 byte(s) left where a string of ${declared - 1} byte(s) and its NUL was expected`,
          );
        }),
        { numRuns: fuzzRuns(200), examples: [[0x7fffffff], [7]] },
      );
    });
  });

  it('gives Data.toJS views equal to the input', () => {
    const value = { a: [1, 2.5, 'x', null, true, { b: [] }], c: {} };
    expect(Data.toJS(codec.bytesToMap(codec.mapToBytes(Data.fromJS(value) as DataMap)))).toEqual(value);
  });
});
