import {
  ByteString,
  Data,
  DataList,
  DataMap,
  InvalidOptionException,
  JsonCodec,
  PSON_CONTENT_TYPE,
  PsonCodec,
  isSvcError,
  type DataValue,
  type PsonCodecOptions,
} from '../../../src';
import { STORE, KIND } from '../../../src/data/internal';
import { varUintBytes, zigzagDecode, zigzagEncode } from '../../../src/data/codecs/varint';

/** `#!PSON1\n` */
const HEADER = '23 21 50 53 4f 4e 31 0a';

/** Bytes as lower-case hex pairs separated by spaces. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes)
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ');
}

/** Bytes from hex pairs; spaces and line breaks are ignored. */
function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
}

/** A document's bytes: the header, then `body`. */
function doc(body: string): Uint8Array {
  return fromHex(`${HEADER} ${body}`);
}

/** The body of an encoded document (everything after the header), as hex. */
function body(bytes: Uint8Array): string {
  expect(hex(bytes.subarray(0, 8))).toBe(HEADER);
  return hex(bytes.subarray(8));
}

/** A map with the entries in this order. */
function mapOf(...entries: Array<[string, DataValue]>): DataMap {
  const map = new DataMap();
  for (const [k, v] of entries) map.put(k, v);
  return map;
}

const DEFAULT = new PsonCodec();
const ALL_OPTIONS: Array<[string, PsonCodecOptions]> = [
  ['default options', {}],
  ['encodeCollectionCount', { encodeCollectionCount: true }],
  ['encodeStringLength=false', { encodeStringLength: false }],
  [
    'encodeCollectionCount and encodeStringLength=false',
    { encodeCollectionCount: true, encodeStringLength: false },
  ],
];

describe('PsonCodec', () => {
  it('serves application/x-pson', () => {
    expect(PSON_CONTENT_TYPE).toBe('application/x-pson');
    expect(DEFAULT.contentType).toBe('application/x-pson');
  });

  describe('reproduces the reference test vectors (facts §1.6) byte for byte', () => {
    const vectors: Array<{ name: string; value: () => DataMap | DataList; bytes: Record<string, string> }> = [
      {
        name: '{"a":1}',
        value: () => mapOf(['a', 1]),
        bytes: {
          'default options': '21 81 61 00 02 01 00 00 00 80',
          encodeCollectionCount: '22 81 81 61 00 02 01 00 00 00 80',
          'encodeStringLength=false': '21 81 61 00 02 01 00 00 00 80',
          'encodeCollectionCount and encodeStringLength=false': '22 81 81 61 00 02 01 00 00 00 80',
        },
      },
      {
        name: '[true,"x"]',
        value: () => new DataList([true, 'x']),
        bytes: {
          'default options': '11 01 01 0a 02 00 00 00 78 00 ff',
          encodeCollectionCount: '12 82 01 01 0a 02 00 00 00 78 00 ff',
          'encodeStringLength=false': '11 01 01 09 78 00 ff',
          'encodeCollectionCount and encodeStringLength=false': '12 82 01 01 09 78 00 ff',
        },
      },
      {
        // Java's HashMap order puts "b" first; we write insertion order, so "b" is inserted first.
        name: '{"b":<bytes 01 02>,"k":1.5}',
        value: () => mapOf(['b', ByteString.copy([1, 2])], ['k', 1.5]),
        bytes: {
          'default options': '21 81 62 00 06 02 00 00 00 01 02 83 6b 00 05 00 00 00 00 00 00 f8 3f 80',
          encodeCollectionCount: '22 82 81 62 00 06 02 00 00 00 01 02 83 6b 00 05 00 00 00 00 00 00 f8 3f 80',
          'encodeStringLength=false':
            '21 81 62 00 06 02 00 00 00 01 02 83 6b 00 05 00 00 00 00 00 00 f8 3f 80',
          'encodeCollectionCount and encodeStringLength=false':
            '22 82 81 62 00 06 02 00 00 00 01 02 83 6b 00 05 00 00 00 00 00 00 f8 3f 80',
        },
      },
    ];
    for (const vector of vectors) {
      it.each(ALL_OPTIONS)(`writes ${vector.name} with %s and reads it back`, (label, options) => {
        const codec = new PsonCodec(options);
        const value = vector.value();
        const bytes = value instanceof DataMap ? codec.mapToBytes(value) : codec.listToBytes(value);
        expect(body(bytes)).toBe(vector.bytes[label]);
        const back = value instanceof DataMap ? codec.bytesToMap(bytes) : codec.bytesToList(bytes);
        expect(back.equals(value)).toBe(true);
        // any codec reads any form
        const other = value instanceof DataMap ? DEFAULT.bytesToMap(bytes) : DEFAULT.bytesToList(bytes);
        expect(other.equals(value)).toBe(true);
      });
    }

    const mixed =
      '11 21 81 61 00 02 01 00 00 00 80 21 82 03 02 00 00 00 00 00 00 00 80 ' +
      '08 20 10 00 04 00 00 20 40 0a 03 00 00 00 c3 a9 00 ff';

    it('reads [{"a":1},{"a":2L},"",{},[],null,2.5f,"é"] with key reuse, a long and a float', () => {
      const list = DEFAULT.bytesToList(doc(mixed));
      expect(Data.toJS(list)).toEqual([{ a: 1 }, { a: 2 }, '', {}, [], null, 2.5, 'é']);
    });

    it('writes that list alike, except that 2 is an int and 2.5 a double (numbers carry no Java type)', () => {
      const list = Data.fromJS([{ a: 1 }, { a: 2 }, '', {}, [], null, 2.5, 'é']) as DataList;
      expect(body(DEFAULT.listToBytes(list))).toBe(
        '11 21 81 61 00 02 01 00 00 00 80 21 82 02 02 00 00 00 80 ' +
          '08 20 10 00 05 00 00 00 00 00 00 04 40 0a 03 00 00 00 c3 a9 00 ff',
      );
    });
  });

  describe('varints: 7 bits a byte, least significant first, high bit set on the LAST byte (facts §1.2)', () => {
    const table: Array<[number, string]> = [
      [0, '80'],
      [1, '81'],
      [127, 'ff'],
      [128, '00 81'],
      [129, '01 81'],
      [16383, '7f ff'],
      [16384, '00 00 81'],
      [2 ** 31, '00 00 00 00 88'],
      [2 ** 32 - 1, '7f 7f 7f 7f 8f'],
    ];
    it.each(table)('writes %d as %s', (value, bytes) => {
      expect(hex(varUintBytes(value))).toBe(bytes);
    });

    it('writes the item count of a 129-item list as 01 81', () => {
      const list = new DataList(Array.from({ length: 129 }, () => true));
      const bytes = new PsonCodec({ encodeCollectionCount: true }).listToBytes(list);
      expect(body(bytes).slice(0, 8)).toBe('12 01 81');
      expect(DEFAULT.bytesToList(bytes).size).toBe(129);
    });

    it.each([
      [0, 0],
      [-1, 1],
      [1, 2],
      [-2, 3],
      [-64, 127],
      [-65, 129],
      [2 ** 31 - 1, 2 ** 32 - 2],
      [-(2 ** 31), 2 ** 32 - 1],
    ])('zigzags %d to %d and back', (signed, unsigned) => {
      expect(zigzagEncode(signed)).toBe(unsigned);
      expect(zigzagDecode(unsigned)).toBe(signed);
    });
  });

  describe('map keys: one dictionary per document (facts §1.3)', () => {
    /** A map with keys k1..kn, each holding null. */
    const manyKeys = (n: number): DataMap => {
      const map = new DataMap();
      for (let i = 1; i <= n; i++) map.put(`k${i}`, Data.NULL);
      return map;
    };

    it.each([
      [1, '81'],
      [2, '83'],
      [64, 'ff'],
      [65, '01 81'],
    ])('introduces new key #%d with index bytes %s', (index, bytes) => {
      const encoded = body(DEFAULT.mapToBytes(manyKeys(65)));
      const text = Buffer.from(`k${index}`)
        .toString('hex')
        .replace(/(..)(?!$)/g, '$1 ');
      // each entry is: index bytes, key text, NUL, null value (00)
      expect(encoded).toContain(`${bytes} ${text} 00 00`);
    });

    it('refers to a known key by +index: 82 for key #1, 84 for #2, 02 81 for #65', () => {
      const inner = manyKeys(64);
      const outer = mapOf(['k1', Data.NULL], ['m', inner]);
      // outer defines k1 (#1) and m (#2); inner then reuses k1 and numbers k2..k64 from #3 on; k64 gets #65
      const encoded = body(DEFAULT.mapToBytes(outer));
      expect(encoded.startsWith('21 81 6b 31 00 00 83 6d 00 21 82 00 85 6b 32 00 00')).toBe(true);
      const again = mapOf(['a', inner], ['b', inner]);
      const twice = body(DEFAULT.mapToBytes(again));
      // in the second copy of inner every key is reused: k1 is #2 (84), k64 is #65 (zigzag 130 = 02 81)
      expect(twice).toContain('21 84 00');
      expect(twice).toContain('02 81 00 80');
      expect(DEFAULT.bytesToMap(DEFAULT.mapToBytes(again)).equals(again)).toBe(true);
    });

    it('shares the dictionary across nested maps and lists, and restarts it with every document', () => {
      const value = Data.fromJS({ x: [{ x: 1 }, { y: { x: 2 } }] }) as DataMap;
      const expected = '21 81 78 00 11 21 82 02 01 00 00 00 80 21 83 79 00 21 82 02 02 00 00 00 80 80 ff 80';
      expect(body(DEFAULT.mapToBytes(value))).toBe(expected);
      expect(body(DEFAULT.mapToBytes(value))).toBe(expected);
    });

    it('writes a key as a NUL-terminated string even in length mode, in UTF-8', () => {
      expect(body(DEFAULT.mapToBytes(mapOf(['é😀', 1])))).toBe(
        '21 81 c3 a9 f0 9f 98 80 00 02 01 00 00 00 80',
      );
    });

    it.each(['', '__proto__', 'constructor', 'toString', '0', '42'])('round-trips the key %j', (key) => {
      const map = mapOf([key, 'v'], ['other', mapOf([key, 1])]);
      const back = DEFAULT.bytesToMap(DEFAULT.mapToBytes(map));
      expect(back.equals(map)).toBe(true);
      expect(back.get(key)).toBe('v');
      expect(back.getDataMap('other')!.get(key)).toBe(1);
    });

    it('reads keys right when a key number holds other text than in the previous document', () => {
      const long = 'k'.repeat(100);
      const docs: Array<Record<string, unknown>> = [
        { ab: 1, cd: 2 },
        { a: 1, cd: 2 },
        { abc: 1, c: 2 },
        { ab: 1, cé: 2 },
        { [long]: 1, [`${long}x`]: 2 },
        { [long]: 1, [long.slice(1)]: 2 },
        { '': 1, ab: { '': 2 } },
      ];
      for (let round = 0; round < 2; round++) {
        for (const value of docs) {
          const map = Data.fromJS(value as never) as DataMap;
          expect(Data.toJS(DEFAULT.bytesToMap(DEFAULT.mapToBytes(map)))).toEqual(value);
        }
      }
    });

    it('keeps numbering keys right across documents with more distinct keys than its key table holds', () => {
      const big = new DataMap();
      for (let i = 0; i < 12_000; i++) big.put(`key${i}`, i);
      for (let round = 0; round < 3; round++) {
        expect(DEFAULT.bytesToMap(DEFAULT.mapToBytes(big)).equals(big)).toBe(true);
        expect(body(DEFAULT.mapToBytes(mapOf(['key11999', 1], ['a', 2])))).toBe(
          '21 81 6b 65 79 31 31 39 39 39 00 02 01 00 00 00 83 61 00 02 02 00 00 00 80',
        );
      }
    });

    it('writes map entries in insertion order', () => {
      const encoded = body(DEFAULT.mapToBytes(mapOf(['z', 1], ['a', 2])));
      expect(encoded).toBe('21 81 7a 00 02 01 00 00 00 83 61 00 02 02 00 00 00 80');
    });
  });

  describe('numbers', () => {
    const table: Array<[string, number | bigint, string]> = [
      ['0', 0, '02 00 00 00 00'],
      ['-1', -1, '02 ff ff ff ff'],
      ['2^31-1', 2 ** 31 - 1, '02 ff ff ff 7f'],
      ['-2^31', -(2 ** 31), '02 00 00 00 80'],
      ['2^31', 2 ** 31, '03 00 00 00 80 00 00 00 00'],
      ['-2^31-1', -(2 ** 31) - 1, '03 ff ff ff 7f ff ff ff ff'],
      ['13-digit epoch millis', 1_717_171_717_171, '03 33 04 69 cf 8f 01 00 00'],
      ['2^53-1', Number.MAX_SAFE_INTEGER, '03 ff ff ff ff ff ff 1f 00'],
      ['-(2^53-1)', -Number.MAX_SAFE_INTEGER, '03 01 00 00 00 00 00 e0 ff'],
      ['2^53 (bigint)', 2n ** 53n, '03 00 00 00 00 00 00 20 00'],
      ['-(2^53)-1 (bigint)', -(2n ** 53n) - 1n, '03 ff ff ff ff ff ff df ff'],
      ['2^63-1 (bigint)', 2n ** 63n - 1n, '03 ff ff ff ff ff ff ff 7f'],
      ['-2^63 (bigint)', -(2n ** 63n), '03 00 00 00 00 00 00 00 80'],
      ['1.5', 1.5, '05 00 00 00 00 00 00 f8 3f'],
      ['-0 (a double, so the sign survives)', -0, '05 00 00 00 00 00 00 00 80'],
      ['2^63 (beyond the long range: a double)', 2 ** 63, '05 00 00 00 00 00 00 e0 43'],
      ['1e300', 1e300, '05 9c 75 00 88 3c e4 37 7e'],
      ['Number.MIN_VALUE', Number.MIN_VALUE, '05 01 00 00 00 00 00 00 00'],
      ['NaN', NaN, '05 00 00 00 00 00 00 f8 7f'],
      ['Infinity', Infinity, '05 00 00 00 00 00 00 f0 7f'],
      ['-Infinity', -Infinity, '05 00 00 00 00 00 00 f0 ff'],
    ];
    it.each(table)('writes %s as %s and reads it back unchanged', (_name, value, bytes) => {
      const encoded = DEFAULT.listToBytes(new DataList([value]));
      expect(body(encoded)).toBe(`11 ${bytes} ff`);
      const back = DEFAULT.bytesToList(encoded).get(0);
      expect(typeof back).toBe(typeof value);
      expect(Object.is(back, value)).toBe(true);
    });

    // JSON writes these without a fraction and reads them back as longs, so PSON writes them as longs too
    const integralBeyondSafe: Array<[string, number, string, bigint]> = [
      ['2^53', 2 ** 53, '03 00 00 00 00 00 00 20 00', 2n ** 53n],
      ['-(2^53)', -(2 ** 53), '03 00 00 00 00 00 00 e0 ff', -(2n ** 53n)],
      ['2^60', 2 ** 60, '03 00 00 00 00 00 00 00 10', 2n ** 60n],
      [
        '2^63 - 1024, the largest double below 2^63',
        2 ** 63 - 1024,
        '03 00 fc ff ff ff ff ff 7f',
        2n ** 63n - 1024n,
      ],
      ['-2^63', -(2 ** 63), '03 00 00 00 00 00 00 00 80', -(2n ** 63n)],
      ['1e18', 1e18, '03 00 00 64 a7 b3 b6 e0 0d', 10n ** 18n],
    ];
    it.each(integralBeyondSafe)(
      'writes the number %s as a long, as JSON writes it, and reads it back as that long',
      (_name, value, bytes, long) => {
        const encoded = DEFAULT.listToBytes(new DataList([value]));
        expect(body(encoded)).toBe(`11 ${bytes} ff`);
        expect(DEFAULT.bytesToList(encoded).get(0)).toBe(long);
        expect(body(DEFAULT.listToBytes(new DataList([long])))).toBe(`11 ${bytes} ff`);
      },
    );

    it('writes {"v":9007199254740992} read from JSON as a long, and the same bytes from the number 2^53', () => {
      const fromJson = new JsonCodec().stringToMap('{"v":9007199254740992}');
      const expected = '21 81 76 00 03 00 00 00 00 00 00 20 00 80';
      expect(body(DEFAULT.mapToBytes(fromJson))).toBe(expected);
      expect(body(DEFAULT.mapToBytes(mapOf(['v', 2 ** 53])))).toBe(expected);
    });

    it('writes a bigint as a long even inside int32, 0n included (found in a raw store: insertion stores it as a number)', () => {
      const list = new DataList();
      list[STORE].push(0n, -1n, 5n);
      expect(body(DEFAULT.listToBytes(list))).toBe(
        '11 03 00 00 00 00 00 00 00 00 03 ff ff ff ff ff ff ff ff 03 05 00 00 00 00 00 00 00 ff',
      );
    });

    it('reads a long inside ±(2^53-1) as a number and one outside as a bigint', () => {
      const list = DEFAULT.bytesToList(
        doc(
          '11 03 02 00 00 00 00 00 00 00 03 01 00 00 00 00 00 e0 ff ' +
            '03 00 00 00 00 00 00 e0 ff 03 01 00 00 00 00 00 20 00 ff',
        ),
      );
      expect(list.toArray()).toEqual([2, -(2 ** 53 - 1), -(2n ** 53n), 2n ** 53n + 1n]);
    });

    it('reads a float as the number it holds', () => {
      expect(DEFAULT.bytesToList(doc('11 04 00 00 c0 3f 04 cd cc cc 3d ff')).toArray()).toEqual([
        1.5,
        Math.fround(0.1),
      ]);
    });
  });

  describe('other leaves', () => {
    it.each(ALL_OPTIONS)('writes the empty string as 0x08 whatever the options (%s)', (_label, options) => {
      expect(body(new PsonCodec(options).listToBytes(new DataList(['', 'x', ''])))).toMatch(
        /^1[12] (83 )?08 .* 08 ff$/,
      );
      expect(body(new PsonCodec(options).mapToBytes(mapOf(['', ''])))).toMatch(/^2[12] (81 )?81 00 08 80$/);
    });

    it.each(ALL_OPTIONS)(
      'writes empty maps and lists as 0x20 and 0x10 whatever the options (%s)',
      (_l, options) => {
        const codec = new PsonCodec(options);
        expect(body(codec.mapToBytes(new DataMap()))).toBe('20');
        expect(body(codec.listToBytes(new DataList()))).toBe('10');
        expect(body(codec.mapToBytes(mapOf(['m', new DataMap()], ['l', new DataList()])))).toMatch(
          / 20 83 6c 00 10 80$/,
        );
      },
    );

    it('writes booleans as 01 01 and 01 00, and reads any non-zero byte as true', () => {
      expect(body(DEFAULT.listToBytes(new DataList([true, false])))).toBe('11 01 01 01 00 ff');
      expect(DEFAULT.bytesToList(doc('11 01 02 01 ff 01 00 ff')).toArray()).toEqual([true, true, false]);
    });

    it('writes Data.NULL as 00', () => {
      expect(body(DEFAULT.listToBytes(new DataList([Data.NULL])))).toBe('11 00 ff');
      expect(DEFAULT.bytesToList(doc('11 00 ff')).get(0)).toBe(Data.NULL);
    });

    it('writes bytes as 06, an int32 count and the raw bytes, several parts in one piece', () => {
      const parts = ByteString.copy([1, 2]).concat(
        ByteString.copy([3]),
        ByteString.EMPTY,
        ByteString.copy([255]),
      );
      expect(body(DEFAULT.listToBytes(new DataList([parts, ByteString.EMPTY])))).toBe(
        '11 06 04 00 00 00 01 02 03 ff 06 00 00 00 00 ff',
      );
    });

    it('reads bytes into a copy that does not share memory with the input', () => {
      const input = doc('11 06 02 00 00 00 01 02 ff');
      const bytes = DEFAULT.bytesToList(input).get(0) as ByteString;
      input.fill(0);
      expect([...bytes.copyBytes()]).toEqual([1, 2]);
    });

    it.each([
      ['é', '0a 03 00 00 00 c3 a9 00', '09 c3 a9 00'],
      ['☺', '0a 04 00 00 00 e2 98 ba 00', '09 e2 98 ba 00'],
      ['😀 (a surrogate pair)', '0a 05 00 00 00 f0 9f 98 80 00', '09 f0 9f 98 80 00'],
      ['x'.repeat(30), `0a 1f 00 00 00 ${'78 '.repeat(30)}00`, `09 ${'78 '.repeat(30)}00`],
    ])('writes %s in UTF-8 with its length, or NUL-terminated', (text, withLength, cString) => {
      const value = text.replace(' (a surrogate pair)', '');
      const list = new DataList([value]);
      expect(body(DEFAULT.listToBytes(list))).toBe(`11 ${withLength} ff`);
      expect(body(new PsonCodec({ encodeStringLength: false }).listToBytes(list))).toBe(`11 ${cString} ff`);
      expect(Data.toJS(DEFAULT.bytesToList(doc(`11 ${withLength} 11 ${cString} ff ff`)))).toEqual([
        value,
        [value],
      ]);
    });

    it('reads 0x0B strings with a 2-byte length, which the reference reads but never writes', () => {
      expect(DEFAULT.bytesToList(doc('11 0b 03 00 c3 a9 00 0b 01 00 00 ff')).toArray()).toEqual(['é', '']);
    });

    it('reads an empty NUL-terminated string and an empty key', () => {
      expect(Data.toJS(DEFAULT.bytesToList(doc('11 09 00 21 81 00 09 00 80 ff')))).toEqual(['', { '': '' }]);
    });

    it('reads a one-byte string size as the empty string', () => {
      expect(DEFAULT.bytesToList(doc('11 0a 01 00 00 00 00 ff')).toArray()).toEqual(['']);
    });

    it('skips the byte after a sized string without checking it is a NUL, as the reference does', () => {
      expect(DEFAULT.bytesToList(doc('11 0a 02 00 00 00 78 41 ff')).toArray()).toEqual(['x']);
    });

    it.each([
      ['a sized string', '11 0a 04 00 00 00 61 ff 62 00 ff', 15],
      ['a NUL-terminated string', '11 09 61 62 c3 00 ff', 12],
      ['a short key', '21 81 80 00 00 80', 10],
      ['two keys that would both read as a\ufffd', '21 81 61 fe 00 00 83 61 ff 00 00 80', 11],
      ['a long key', `21 81 ${'61 '.repeat(70)}c0 af 00 00 80`, 80],
      ['a surrogate encoded in UTF-8', '11 0a 04 00 00 00 ed a0 80 00 ff', 14],
      ['a code point beyond U+10FFFF', '11 09 f4 90 80 80 00 ff', 10],
      ['an overlong encoding', '11 0a 03 00 00 00 c0 af 00 ff', 14],
    ])(
      'refuses invalid UTF-8 in %s, which the reference would read as U+FFFD, naming the offset',
      (_label, bodyHex, offset) => {
        const input = doc(bodyHex);
        const err = thrown(() =>
          bodyHex.startsWith('21') ? DEFAULT.bytesToMap(input) : DEFAULT.bytesToList(input),
        );
        expect(isSvcError(err, 'DataDecodingException', 'SVC_ERR_DATA_PSON_DECODE')).toBe(true);
        expect((err as Error).message).toMatch(/^Invalid UTF-8 in a string/);
        expect((err as { offset: number }).offset).toBe(offset);
      },
    );

    it('reads a real U+FFFD, and the same key again from its cache', () => {
      const input = doc('11 0a 04 00 00 00 ef bf bd 00 21 81 ef bf bd 00 00 80 ff');
      for (let i = 0; i < 2; i++)
        expect(Data.toJS(DEFAULT.bytesToList(input))).toEqual(['\ufffd', { '\ufffd': null }]);
    });
  });

  describe('edge behaviour (facts §1.5)', () => {
    it('keeps a NUL inside a string value in length mode', () => {
      const list = new DataList(['a\u0000b']);
      const bytes = DEFAULT.listToBytes(list);
      expect(body(bytes)).toBe('11 0a 04 00 00 00 61 00 62 00 ff');
      expect(DEFAULT.bytesToList(bytes).get(0)).toBe('a\u0000b');
    });

    it('writes a NUL inside a string value with its length even in C-string mode, where a C-string would end at it', () => {
      const codec = new PsonCodec({ encodeStringLength: false });
      const bytes = codec.listToBytes(new DataList(['ok', 'a\u0000b', '\u0000']));
      expect(body(bytes)).toBe('11 09 6f 6b 00 0a 04 00 00 00 61 00 62 00 0a 02 00 00 00 00 00 ff');
      expect(codec.bytesToList(bytes).toArray()).toEqual(['ok', 'a\u0000b', '\u0000']);
    });

    /** A map whose store holds `key`, which insertion refuses: what code building raw stores could make. */
    function rawMap(key: string): DataMap {
      const map = mapOf(['ok', 1]);
      (map[STORE] as Record<string, unknown>)[key] = 2;
      return map;
    }

    it.each(ALL_OPTIONS)(
      'refuses a NUL inside a map key of a raw store, which the reference would corrupt (%s)',
      (_l, options) => {
        const err = thrown(() => new PsonCodec(options).mapToBytes(rawMap('a\u0000b')));
        expect(isSvcError(err, 'DataEncodingException', 'SVC_ERR_DATA_ENCODE')).toBe(true);
        expect((err as Error).message).toContain('"a\\u0000b"');
      },
    );

    it.each(['a\ud800b', '\udc00'])(
      'refuses a lone surrogate in a map key of a raw store (%j), which the reference would write as ? and so merge keys',
      (key) => {
        const err = thrown(() => DEFAULT.mapToBytes(rawMap(key)));
        expect(isSvcError(err, 'DataEncodingException', 'SVC_ERR_DATA_ENCODE')).toBe(true);
        expect((err as Error).message).toMatch(/lone UTF-16 surrogate/);
      },
    );

    it('still encodes after a refused document', () => {
      thrown(() => DEFAULT.mapToBytes(rawMap('b\u0000')));
      expect(body(DEFAULT.mapToBytes(mapOf(['b', 1])))).toBe('21 81 62 00 02 01 00 00 00 80');
    });

    it.each([
      ['a lone high surrogate', 'a\ud800b', '61 3f 62'],
      ['a lone low surrogate', 'a\udc00b', '61 3f 62'],
      ['a high surrogate at the end', 'ab\ud83d', '61 62 3f'],
      ['two high surrogates before a low one', '\ud83d\ud83d\ude00', '3f f0 9f 98 80'],
    ])(
      'writes %s in a string value of a raw store as ? (0x3F), as the reference does',
      (_name, text, utf8) => {
        for (const value of [text, text.repeat(20)]) {
          const list = new DataList();
          list[STORE].push(value);
          const bytes = DEFAULT.listToBytes(list);
          const expectedText = Buffer.from(utf8.replace(/ /g, ''), 'hex').toString('utf8');
          expect(DEFAULT.bytesToList(bytes).get(0)).toBe(
            value === text ? expectedText : expectedText.repeat(20),
          );
        }
      },
    );
  });

  describe('graphs', () => {
    it('writes raw decoded nodes and wrapped containers alike', () => {
      const original = Data.fromJS({ a: [1, { b: 'x' }], c: { d: [] } }) as DataMap;
      const bytes = DEFAULT.mapToBytes(original);
      const decoded = DEFAULT.bytesToMap(bytes);
      expect(hex(DEFAULT.mapToBytes(decoded))).toBe(hex(bytes));
      decoded.getDataList('a')!.add(new DataMap({ e: true }));
      decoded.getDataMap('c')!.put('f', new DataList([Data.NULL]));
      expect(Data.toJS(DEFAULT.bytesToMap(DEFAULT.mapToBytes(decoded)))).toEqual({
        a: [1, { b: 'x' }, { e: true }],
        c: { d: [], f: [null] },
      });
    });

    it('writes wrapped containers, Data.NULL and raw null found inside stores', () => {
      const map = new DataMap();
      const store = map[STORE] as Record<string, unknown>;
      store.wrapped = new DataList([1]);
      store.raw = [null, { m: new DataMap({ n: Data.NULL }) }];
      expect(Data.toJS(DEFAULT.bytesToMap(DEFAULT.mapToBytes(map)))).toEqual({
        wrapped: [1],
        raw: [null, { m: { n: null } }],
      });
    });

    it('writes wrapped containers and Data.NULL found inside stores below the recursion limit too', () => {
      const innermost = new DataMap();
      const store = innermost[STORE] as Record<string, unknown>;
      store.list = new DataList([Data.NULL]);
      store.nul = Data.NULL;
      let list = new DataList([innermost]);
      for (let i = 0; i < 300; i++) list = new DataList([list]);
      const back = new PsonCodec({ maxDepth: 400 }).bytesToList(DEFAULT.listToBytes(list));
      let node: DataValue = back;
      for (let i = 0; i <= 300; i++) node = (node as DataList).get(0);
      expect(Data.toJS(node)).toEqual({ list: [null], nul: null });
    });

    it.each([
      ['undefined', undefined, /type undefined/],
      ['a function', () => 1, /type function/],
      ['a bigint past 64 bits', 2n ** 64n, /outside the 64-bit long range/],
      ['an object of unknown kind', { [KIND]: 99 }, /unknown kind 99/],
    ])('refuses %s smuggled into a store with a DataEncodingException', (_what, value, message) => {
      const map = new DataMap();
      (map[STORE] as Record<string, unknown>).bad = value;
      const err = thrown(() => DEFAULT.mapToBytes(map));
      expect(isSvcError(err, 'DataEncodingException', 'SVC_ERR_DATA_ENCODE')).toBe(true);
      expect((err as Error).message).toMatch(message);
    });

    it('decodes into plain objects and arrays that the containers adopt when reached', () => {
      const map = DEFAULT.bytesToMap(DEFAULT.mapToBytes(Data.fromJS({ m: { k: [1] } }) as DataMap));
      const store = map[STORE];
      const inner = store.m as Record<string, unknown>;
      expect(Object.getPrototypeOf(store)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
      expect(inner.constructor).toBe(Object);
      expect((inner as { [KIND]?: number })[KIND]).toBeUndefined();
      expect(Array.isArray(inner.k)).toBe(true);
      expect(Object.keys(inner)).toEqual(['k']);
    });

    it('reads a map with a repeated key with the last value winning, as the reference does', () => {
      expect(Data.toJS(DEFAULT.bytesToMap(doc('21 81 61 00 02 01 00 00 00 82 02 02 00 00 00 80')))).toEqual({
        a: 2,
      });
    });

    it('writes a node shared in two places twice, and reads back two equal copies', () => {
      const shared = new DataMap({ v: 1 });
      const root = new DataMap({ first: shared, second: new DataList([shared]) });
      const back = DEFAULT.bytesToMap(DEFAULT.mapToBytes(root));
      expect(back.equals(root)).toBe(true);
      const first = back.getDataMap('first')!;
      const second = back.getDataList('second')!.get(0) as DataMap;
      expect(first.equals(second)).toBe(true);
      first.put('v', 2);
      expect(second.get('v')).toBe(1);
    });

    it('writes a list nested 200,000 deep without overflowing the stack', () => {
      let list = new DataList();
      for (let i = 0; i < 200_000; i++) list = new DataList([list]);
      const bytes = DEFAULT.listToBytes(list);
      expect(bytes.length).toBe(8 + 200_000 * 2 + 1);
      expect(body(bytes.subarray(0, 12))).toBe('11 11 11 11');
    });

    it('writes a map nested 200,000 deep with the same bytes as the recursive writer would', () => {
      let map = new DataMap();
      for (let i = 0; i < 200_000; i++) map = new DataMap({ k: map });
      const bytes = DEFAULT.mapToBytes(map);
      // 21 81 6b 00 | (21 82)* ... 20 | 80*
      expect(bytes.length).toBe(8 + 4 + (200_000 - 1) * 2 + 1 + 200_000);
      const back = new PsonCodec({ maxDepth: 300_000 }).bytesToMap(bytes);
      expect(back.equals(map)).toBe(true);
    });
  });

  describe('options', () => {
    it.each([0, -1, 1.5, Number.NaN])('refuses maxDepth %p', (maxDepth) => {
      expect(() => new PsonCodec({ maxDepth })).toThrow(InvalidOptionException);
    });

    it('keeps the defaults for options given as undefined', () => {
      const codec = new PsonCodec({ encodeStringLength: undefined, encodeCollectionCount: undefined });
      expect(body(codec.listToBytes(new DataList(['x'])))).toBe('11 0a 02 00 00 00 78 00 ff');
    });
  });
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an exception');
}
