import fc from 'fast-check';
import {
  ByteString,
  Data,
  DataList,
  DataMap,
  JsonCodec,
  isSvcError,
  type DataDecodingException,
} from '../../../src';
import { parseJsonExact } from '../../../src/data/codecs/json-exact-parser';
import {
  bytesMayHoldUnsafeInteger,
  textMayHoldUnsafeInteger,
} from '../../../src/data/codecs/unsafe-integer-scan';
import { dataMapArb, deepList } from '../../support/data-arbitraries';

const codec = new JsonCodec();
const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

function decodeError(fn: () => unknown): DataDecodingException {
  try {
    fn();
  } catch (err) {
    if (isSvcError(err, 'DataDecodingException', 'SVC_ERR_DATA_JSON_DECODE'))
      return err as DataDecodingException;
    throw err;
  }
  throw new Error('expected a DataDecodingException');
}

describe('JsonCodec', () => {
  describe('keeps 64-bit longs exact', () => {
    const cases: Array<[string, number | bigint]> = [
      ['9007199254740991', Number.MAX_SAFE_INTEGER],
      ['-9007199254740991', -Number.MAX_SAFE_INTEGER],
      ['9007199254740992', 2n ** 53n],
      ['9007199254740993', 2n ** 53n + 1n],
      ['-9007199254740993', -(2n ** 53n) - 1n],
      ['9223372036854775807', 2n ** 63n - 1n],
      ['-9223372036854775808', -(2n ** 63n)],
      ['1234567890123456', 1234567890123456],
    ];
    it.each(cases)('reads %s exactly and writes it back digit for digit', (text, value) => {
      const doc = `{"v":${text},"list":[${text}]}`;
      for (const map of [codec.stringToMap(doc), codec.bytesToMap(utf8(doc))]) {
        expect(map.get('v')).toBe(value);
        expect(map.getDataList('list')!.get(0)).toBe(value);
        expect(codec.mapToString(map)).toBe(doc);
        expect(Buffer.from(codec.mapToBytes(map)).toString('utf8')).toBe(doc);
      }
    });

    it('keeps a long exact inside a list document too', () => {
      const list = codec.stringToList('[9223372036854775807, 1.5, 2]');
      expect(list.toArray()).toEqual([2n ** 63n - 1n, 1.5, 2]);
      expect(codec.listToString(list)).toBe('[9223372036854775807,1.5,2]');
    });

    it.each(['9223372036854775809', '-9223372036854775809', '123456789012345678901234567890'])(
      'refuses the integer %s outside the long range that no double holds exactly, naming its offset',
      (text) => {
        const err = decodeError(() => codec.stringToMap(`{"v": ${text}}`));
        expect(err.message).toMatch(/outside the 64-bit long range and is not exactly a double/);
        expect(err.offset).toBe(6);
      },
    );

    it.each([1e20, -1e20, 2 ** 64, 2 ** 70])(
      'reads back an integral double %d beyond the long range that JSON.stringify wrote',
      (d) => {
        const m = new DataMap({ d });
        const text = codec.mapToString(m);
        expect(codec.stringToMap(text).get('d')).toBe(d);
      },
    );

    it.each([2 ** 60, -21975908152573470, 2 ** 63 - 2048])(
      'reads an integral double %d between 2^53 and 2^63 back as a long that converts back to exactly that double',
      (d) => {
        const back = codec.stringToMap(codec.mapToString(new DataMap({ d })));
        const v = back.get('d');
        expect(typeof v).toBe('bigint');
        expect(Number(v)).toBe(d);
      },
    );

    it('reads non-integers with many digits as doubles, exactly as JSON.parse does', () => {
      for (const text of [
        '0.12345678901234567890',
        '12345678901234567890.5',
        '1.2345678901234567e300',
        '-0.0',
      ]) {
        const m = codec.stringToMap(`{"v":${text}}`);
        expect(m.get('v')).toBe(JSON.parse(text));
      }
    });

    it('refuses a double beyond the double range on the exact path', () => {
      const err = decodeError(() => codec.stringToMap('{"a":12345678901234567,"b":1e999}'));
      expect(err.message).toMatch(/outside the double range/);
    });
  });

  describe('reports malformed input with the byte offset', () => {
    const cases: Array<[string, string, number, RegExp]> = [
      ['a trailing comma in a list', '{"a": [1, 2,]}', 12, /Unexpected character "]"/],
      ['a trailing comma in an object', '{"a": 1,}', 8, /Expected a string key/],
      ['a missing colon', '{"a" 1}', 5, /Expected ':'/],
      ['an unquoted key', '{a: 1}', 1, /Expected a string key/],
      ['an unterminated string', '{"a": "xy', 6, /Unterminated string/],
      ['an unterminated object', '{"a": 1', 7, /Unexpected end of input|Expected ','/],
      ['empty input', '', 0, /Unexpected end of input/],
      ['only whitespace', '  \n ', 4, /Unexpected end of input/],
      ['a bare word', '{"a": nul}', 6, /Unexpected character "n"/],
      ['a leading zero', '{"a": 01}', 6, /leading zero/],
      ['a lone minus', '{"a": -}', 7, /expected a digit/],
      ['a dot without digits', '{"a": 1.}', 8, /after the decimal point/],
      ['an exponent without digits', '{"a": 1e}', 8, /in the exponent/],
      ['a control character in a string', '{"a": "x\u0001"}', 8, /Unescaped control character U\+0001/],
      ['a bad escape', '{"a": "\\x"}', 6, /Invalid escape sequence/],
      ['text after the value', '{"a": 1} x', 9, /after the JSON value/],
      ['a second value', '{} {}', 3, /after the JSON value/],
      ['a multi-byte char before the error (offset counts bytes)', '{"é": ]}', 7, /Unexpected character "]"/],
      ['a list where an object is expected', '[1]', 0, /Expected an object at the top level/],
      ['a string where an object is expected', ' "x"', 1, /Expected an object at the top level/],
      ['null where an object is expected', 'null', 0, /Expected an object at the top level/],
    ];
    it.each(cases)('rejects %s', (_label, text, offset, message) => {
      for (const decode of [() => codec.stringToMap(text), () => codec.bytesToMap(utf8(text))]) {
        const err = decodeError(decode);
        expect(err.offset).toBe(offset);
        expect(err.message).toMatch(message);
        expect(err.message).toContain(`(at byte offset ${offset})`);
        expect(err.statusCode).toBe(400);
      }
    });

    it('names line and column for multi-line text', () => {
      const err = decodeError(() => codec.stringToMap('{\n  "a": 1,\n  "b": ]\n}'));
      expect(err.message).toMatch(/at line 3, column 8/);
    });

    it('rejects an object where a list is expected', () => {
      expect(decodeError(() => codec.stringToList('{}')).message).toMatch(
        /Expected an array at the top level/,
      );
    });

    it('rejects invalid UTF-8 bytes at their offset', () => {
      const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
      const err = decodeError(() => codec.bytesToMap(bytes));
      expect(err.offset).toBe(6);
      expect(err.message).toMatch(/Invalid UTF-8/);
    });

    it('accepts a UTF-8 byte order mark and counts it in offsets', () => {
      const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":1}')]);
      expect(codec.bytesToMap(withBom).get('a')).toBe(1);
      const bad = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":}')]);
      expect(decodeError(() => codec.bytesToMap(bad)).offset).toBe(8);
    });
  });

  describe('decoding', () => {
    it('turns null into Data.NULL and keeps the other JSON types', () => {
      const m = codec.stringToMap('{"n":null,"t":true,"f":false,"s":"x","i":-3,"d":2.5,"o":{},"l":[]}');
      expect(m.get('n')).toBe(Data.NULL);
      expect(Data.toJS(m)).toEqual({ n: null, t: true, f: false, s: 'x', i: -3, d: 2.5, o: {}, l: [] });
      expect(m.get('o')).toBeInstanceOf(DataMap);
      expect(m.get('l')).toBeInstanceOf(DataList);
    });

    it('keeps the last of duplicate keys, on both paths', () => {
      expect(codec.stringToMap('{"a":1,"a":2}').get('a')).toBe(2);
      expect(codec.stringToMap('{"a":12345678901234567,"a":2}').get('a')).toBe(2);
    });

    it('reads escapes, unicode and surrogate pairs on both paths', () => {
      const doc = '{"s":"a\\"b\\\\c\\n\\u00e9\\ud83d\\ude00 ☺","x":12345678901234567}';
      const fast = codec.stringToMap(doc.replace(',"x":12345678901234567', ''));
      const exact = codec.stringToMap(doc);
      expect(fast.get('s')).toBe('a"b\\c\né😀 ☺');
      expect(exact.get('s')).toBe('a"b\\c\né😀 ☺');
    });

    it('reads __proto__ as an ordinary key and never touches prototypes', () => {
      for (const doc of [
        '{"__proto__":{"polluted":1}}',
        '{"__proto__":{"polluted":1},"x":12345678901234567}',
      ]) {
        const m = codec.stringToMap(doc);
        expect(m.getDataMap('__proto__')!.get('polluted')).toBe(1);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        expect(m.getDataMap('__proto__')).toBeInstanceOf(DataMap);
      }
    });

    it('decodes and re-encodes documents nested 200,000 deep', () => {
      const depth = 200_000;
      const text = '['.repeat(depth) + ']'.repeat(depth);
      const list = codec.stringToList(text);
      expect(codec.listToString(list)).toBe(text);
      const exact = codec.stringToList('[12345678901234567,' + text + ']');
      expect(codec.listToString(exact)).toBe('[12345678901234567,' + text + ']');
    });
  });

  describe('encoding', () => {
    it('writes bytes as Avro strings, Data.NULL as null and longs exactly', () => {
      const m = new DataMap()
        .set('b', ByteString.copy([0, 0x41, 0xff]))
        .set('n', Data.NULL)
        .set('l', -(2n ** 63n))
        .set('nested', new DataList([new DataMap({ x: 2n ** 60n })]));
      expect(codec.mapToString(m)).toBe(
        '{"b":"\\u0000Aÿ","n":null,"l":-9223372036854775808,"nested":[{"x":1152921504606846976}]}',
      );
    });

    it('writes a deep built graph', () => {
      expect(codec.listToString(deepList(100_000))).toBe('['.repeat(100_001) + ']'.repeat(100_001));
    });

    it('writes bytes as UTF-8', () => {
      expect([...codec.mapToBytes(new DataMap({ s: 'é' }))]).toEqual([...utf8('{"s":"é"}')]);
    });
  });

  describe('properties', () => {
    it('round-trips any DataMap without bytes through string and bytes', () => {
      fc.assert(
        fc.property(dataMapArb({ bytes: false, ambiguousDoubles: false }), (map) => {
          expect(codec.stringToMap(codec.mapToString(map)).equals(map)).toBe(true);
          expect(codec.bytesToMap(codec.mapToBytes(map)).equals(map)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });

    it('reads any JSON exactly as JSON.parse does, wherever that is exact', () => {
      fc.assert(
        fc.property(fc.json({ maxDepth: 4 }), (text) => {
          const expected: unknown = JSON.parse(text);
          // JSON.parse rounds unsafe integers; the exact parser keeps them as bigint of the exact value
          const rounded = JSON.parse(
            JSON.stringify(parseJsonExact(text), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
          );
          expect(rounded).toEqual(expected);
          if (
            typeof expected === 'object' &&
            expected !== null &&
            !Array.isArray(expected) &&
            !/\d{16}/.test(text)
          ) {
            expect(Data.toJS(codec.stringToMap(text))).toEqual(expected);
          }
        }),
        { numRuns: 500 },
      );
    });

    const noDigits = fc.string({ maxLength: 40 }).map((x) => x.replace(/[0-9]/g, 'x'));

    it('finds every integer token of 16 or more digits, wherever it stands', () => {
      fc.assert(
        fc.property(
          noDigits,
          fc.constantFrom('', ' ', '\n', ':', ',', '[', '-', ': -'),
          fc.integer({ min: 1, max: 30 }),
          fc.constantFrom('', ' ', '\r', ',', ']', '}'),
          noDigits,
          (before, lead, len, trail, after) => {
            const text =
              (lead === '' ? '' : before + lead) + '7'.repeat(len) + (trail === '' ? '' : trail + after);
            expect(textMayHoldUnsafeInteger(text)).toBe(len >= 16);
            expect(bytesMayHoldUnsafeInteger(utf8(text))).toBe(len >= 16);
          },
        ),
        { numRuns: 1000 },
      );
    });

    it.each([
      ['a fraction', '[0.12345678901234567]'],
      ['a mantissa before a decimal point', '[12345678901234567.5]'],
      ['a mantissa before an exponent', '[12345678901234567e3, 12345678901234567E3]'],
      ['an exponent', '[1e+12345678901234567]'],
      ['digits inside a string', '["id-12345678901234567", "12345678901234567x"]'],
    ])('does not take %s for an integer token', (_label, text) => {
      expect(textMayHoldUnsafeInteger(text)).toBe(false);
      expect(bytesMayHoldUnsafeInteger(utf8(text))).toBe(false);
      expect(Data.toJS(codec.stringToList(text))).toEqual(JSON.parse(text));
    });

    it('rejects garbage only with DataDecodingException', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fc.json().map((j) => j.slice(0, -1)),
          ),
          (text) => {
            try {
              codec.stringToMap(text);
            } catch (err) {
              expect(isSvcError(err, 'DataDecodingException')).toBe(true);
            }
          },
        ),
        { numRuns: 500 },
      );
    });

    it('rejects random bytes only with DataDecodingException', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
          try {
            codec.bytesToMap(bytes);
          } catch (err) {
            expect(isSvcError(err, 'DataDecodingException')).toBe(true);
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
