import fc from 'fast-check';
import {
  ByteString,
  Data,
  DataList,
  DataMap,
  JsonCodec,
  MAX_NESTING_DEPTH,
  isSvcError,
  type DataDecodingException,
} from '../../../src';
import { parseJsonExact } from '../../../src/data/codecs/json-exact-parser';
import { writeJson } from '../../../src/data/codecs/json-writer';
import { NEEDS_EXACT, parseFast } from '../../../src/data/codecs/json-fast-path';
import { STORE } from '../../../src/data/internal';
import { dataMapArb, deepList } from '../../support/data-arbitraries';
import { fuzzRuns } from '../fuzz-runs';

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

    it.each([
      '9223372036854775808',
      '9223372036854775809',
      '-9223372036854775809',
      '123456789012345678901234567890',
    ])('reads the integer %s beyond the long range as the double JSON.parse reads, on both paths', (text) => {
      for (const doc of [`{"v": ${text}}`, `{"v": ${text}, "unsafe": 12345678901234567}`]) {
        expect(codec.stringToMap(doc).get('v')).toBe(JSON.parse(text));
      }
    });

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

    it('decodes and re-encodes documents nested 200,000 deep with a maxDepth that allows them', () => {
      const deep = new JsonCodec({ maxDepth: 300_000 });
      const depth = 200_000;
      const text = '['.repeat(depth) + ']'.repeat(depth);
      const list = deep.stringToList(text);
      expect(codec.listToString(list)).toBe(text);
      const exact = deep.stringToList('[12345678901234567,' + text + ']');
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

    it('writes a large document with few longs in pieces, into the text the iterative writer gives', () => {
      // ≥ 256 entries per long: written container by container along the paths to the longs, the rest by
      // JSON.stringify (json-long-encode.ts writeSparse); keys in JSON's order, escapes, bytes, nulls
      const rows = Array.from(
        { length: 600 },
        (_, i) => new DataMap({ id: i, name: `row "${i}"\n`, tags: new DataList(['a', 'b']) }),
      );
      rows[17]!.set('big', 2n ** 60n + 1n);
      rows[599]!.set('nested', new DataList([new DataMap({ x: -(2n ** 63n) }), new DataList([2n ** 62n])]));
      const m = new DataMap()
        .set('z', 1)
        .set('10', 'ten')
        .set('2', 'two')
        .set('__proto__', new DataMap({ k: 2n ** 55n }))
        .set('k"\\ey\u0001', ByteString.copy([0, 0x41, 0xff]))
        .set('n', Data.NULL)
        .set('empty', new DataMap())
        .set('rows', new DataList(rows))
        .set('top', 9007199254740993n);
      const text = codec.mapToString(m);
      expect(text).toBe(writeJson(m));
      expect(text.startsWith('{"2":"two","10":"ten","z":1,"__proto__":{"k":36028797018963968},')).toBe(true);
      expect(text).toContain('"big":1152921504606846977');
      expect(text.endsWith(',"top":9007199254740993}')).toBe(true);
    });

    it('writes any document with a long in pieces as the iterative writer does', () => {
      fc.assert(
        fc.property(
          dataMapArb({ ambiguousDoubles: false }),
          fc.bigInt(2n ** 53n + 1n, 2n ** 63n - 1n),
          (map, long) => {
            const padded = new DataMap()
              .set('doc', map)
              .set('pad', new DataList(Array.from({ length: 300 }, (_, i) => i)))
              .set('long', long);
            expect(codec.mapToString(padded)).toBe(writeJson(padded));
          },
        ),
        { numRuns: fuzzRuns(100) },
      );
    });

    it('writes a deep built graph', () => {
      expect(codec.listToString(deepList(100_000))).toBe('['.repeat(100_001) + ']'.repeat(100_001));
    });

    it.each([
      ['ASCII with longs', new DataMap({ a: 2n ** 60n, s: 'x', l: new DataList([1, -(2n ** 63n), 2]) })],
      ['a long first and last', new DataMap({ first: 2n ** 62n, mid: 'm', last: -(2n ** 62n) })],
      ['adjacent longs', new DataMap({ l: new DataList([2n ** 55n, 2n ** 56n, 2n ** 57n]) })],
      ['non-ASCII text beside longs', new DataMap({ clé: 'é€😀', big: 2n ** 61n })],
      ['a string that looks like a marker', new DataMap({ s: '\u0000123', t: '\u0000', big: 2n ** 61n })],
      ['a backslash-u text in a key', new DataMap({ '\\u0000': 2n ** 61n })],
    ])('writes %s as bytes: the UTF-8 of its text, on every encode', (_what, map) => {
      const text = writeJson(map);
      for (let i = 0; i < 3; i++) {
        expect(Buffer.from(codec.mapToBytes(map)).toString('utf8')).toBe(text);
        expect(codec.mapToString(map)).toBe(text);
      }
      const decoded = codec.stringToMap(text);
      expect(Buffer.from(codec.mapToBytes(decoded)).toString('utf8')).toBe(text);
      const list = new DataList([map, 2n ** 59n]);
      expect(Buffer.from(codec.listToBytes(list)).toString('utf8')).toBe(writeJson(list));
      expect(Buffer.from(codec.listToBytes(list)).toString('utf8')).toBe(writeJson(list));
    });

    it('writes any document with longs as the bytes of the iterative writer', () => {
      fc.assert(
        fc.property(
          dataMapArb({ ambiguousDoubles: false }),
          fc.array(fc.bigInt(2n ** 53n + 1n, 2n ** 63n - 1n), { minLength: 1, maxLength: 4 }),
          (map, longs) => {
            const doc = new DataMap().set('doc', map).set('longs', new DataList(longs));
            const text = writeJson(doc);
            codec.mapToString(doc);
            expect(Buffer.from(codec.mapToBytes(doc)).toString('utf8')).toBe(text);
            expect(Buffer.from(codec.mapToBytes(codec.stringToMap(text))).toString('utf8')).toBe(text);
          },
        ),
        { numRuns: fuzzRuns(100) },
      );
    });

    it('writes bytes as UTF-8', () => {
      expect([...codec.mapToBytes(new DataMap({ s: 'é' }))]).toEqual([...utf8('{"s":"é"}')]);
    });
  });

  describe('numbers beyond the double range, NaN and Infinity', () => {
    const beyond: Array<[string, number]> = [
      ['1e400', Infinity],
      ['-1e400', -Infinity],
      ['1E+999', Infinity],
      ['123456789e305', Infinity],
      [`1${'0'.repeat(400)}`, Infinity],
      [`-1${'0'.repeat(400)}.5`, -Infinity],
      ['1e-400', 0],
    ];
    it.each(beyond)('decodes %s as %s on both paths', (token, value) => {
      for (const doc of [
        `{"v":${token}}`,
        `{"v":${token},"x":12345678901234567}`,
        `{"v":${token},"e":"\ud800\u0000"}`,
      ]) {
        // the last document takes the exact path for its escape
        const text = doc.replace('\ud800\u0000', '\\u0000');
        expect(codec.stringToMap(text).get('v')).toBe(value);
        expect(codec.bytesToMap(utf8(text)).get('v')).toBe(value);
      }
      expect(parseJsonExact(`[${token}]`)).toEqual([value]);
    });

    it('writes NaN, Infinity and -Infinity as the strings Jackson writes', () => {
      const map = new DataMap()
        .set('nan', NaN)
        .set('inf', Infinity)
        .set('ninf', -Infinity)
        .set('list', new DataList([1, NaN, Data.NULL]))
        .set('n', Data.NULL);
      const expected = '{"nan":"NaN","inf":"Infinity","ninf":"-Infinity","list":[1,"NaN",null],"n":null}';
      expect(codec.mapToString(map)).toBe(expected);
      expect(Buffer.from(codec.mapToBytes(map)).toString('utf8')).toBe(expected);
      expect(map.toString()).toBe(expected);
    });

    it('writes 1e400 read from a JSON body back as "Infinity", on both paths', () => {
      for (const text of ['{"a":[1e400],"n":null}', '{"a":[1e400],"n":null,"x":12345678901234567}']) {
        expect(codec.mapToString(codec.stringToMap(text))).toMatch(/^\{"a":\["Infinity"\],"n":null/);
      }
    });

    it('writes a non-finite number found inside a raw store, and null for Data.NULL beside it', () => {
      const map = new DataMap({ n: Data.NULL });
      (map[STORE] as Record<string, unknown>).raw = [{ d: -Infinity }];
      expect(codec.mapToString(map)).toBe('{"n":null,"raw":[{"d":"-Infinity"}]}');
    });

    it('writes nulls and "null" strings as they are when the graph holds no non-finite number', () => {
      new DataList([NaN]); // the process has seen one: the encoder now looks whenever it writes a null
      const map = codec.stringToMap('{"a":null,"b":"null","c":[null,1.5]}');
      expect(codec.mapToString(map)).toBe('{"a":null,"b":"null","c":[null,1.5]}');
    });
  });

  describe('nesting limit', () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    const nestedMaps = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    const entryPoints: Array<[string, (c: JsonCodec, text: string) => unknown]> = [
      ['stringToList', (c, text) => c.stringToList(text)],
      ['bytesToList', (c, text) => c.bytesToList(utf8(text))],
    ];

    it('accepts exactly MAX_NESTING_DEPTH levels by default', () => {
      expect(MAX_NESTING_DEPTH).toBe(1000);
      for (const [, decode] of entryPoints) {
        expect(() => decode(codec, nested(MAX_NESTING_DEPTH))).not.toThrow();
        expect(() => decode(codec, `[12345678901234567,${nested(MAX_NESTING_DEPTH - 1)}]`)).not.toThrow();
      }
      expect(codec.stringToMap(nestedMaps(MAX_NESTING_DEPTH)).size).toBe(1);
    });

    it.each(entryPoints)(
      'refuses one level more through %s on both paths, naming the limit and the byte offset',
      (_name, decode) => {
        for (const [text, offset] of [
          [nested(MAX_NESTING_DEPTH + 1), MAX_NESTING_DEPTH],
          [`[12345678901234567,${nested(MAX_NESTING_DEPTH)}]`, 19 + MAX_NESTING_DEPTH - 1],
          [` [[${nested(MAX_NESTING_DEPTH - 1)}]]`, 1 + MAX_NESTING_DEPTH],
        ] as const) {
          const err = decodeError(() => decode(codec, text));
          expect(err.message).toMatch(/^Nesting deeper than the maximum depth of 1000 at line 1, column \d+/);
          expect(err.offset).toBe(offset);
        }
      },
    );

    it('refuses maps nested one level too deep', () => {
      const err = decodeError(() => codec.stringToMap(nestedMaps(MAX_NESTING_DEPTH + 1)));
      expect(err.message).toMatch(/maximum depth of 1000/);
      expect(err.offset).toBe(5 * MAX_NESTING_DEPTH);
    });

    it.each(entryPoints)('refuses 1 MB of nested arrays through %s with the typed error', (_name, decode) => {
      const closed = nested(512 * 1024);
      const unclosed = '['.repeat(1024 * 1024);
      const padded = `[${'"xxxxxxxxxxxxxxxxxxxxxxxxx",['.repeat(40_000)}`;
      for (const text of [closed, unclosed, padded, `{"tags":${closed}}`]) {
        const err = decodeError(() => decode(codec, text));
        expect(err.message).toMatch(/maximum depth of 1000/);
      }
    });

    it('applies its maxDepth option to both paths', () => {
      const shallow = new JsonCodec({ maxDepth: 2 });
      expect(shallow.stringToList('[[1]]').size).toBe(1);
      expect(shallow.stringToMap('{"a":[12345678901234567]}').size).toBe(1);
      for (const text of ['[[[1]]]', '[[[]]]', '[[12345678901234567,[]]]', '{"a":{"b":{}}}']) {
        const decode = text.startsWith('[')
          ? () => shallow.stringToList(text)
          : () => shallow.stringToMap(text);
        expect(decodeError(decode).message).toMatch(/maximum depth of 2 /);
      }
      expect(decodeError(() => new JsonCodec({ maxDepth: 1 }).stringToMap('{"a":[]}')).offset).toBe(5);
    });

    it.each([0, -1, 1.5, Number.NaN, Infinity])(
      'refuses maxDepth %p with InvalidOptionException',
      (maxDepth) => {
        let caught: unknown;
        try {
          new JsonCodec({ maxDepth });
        } catch (err) {
          caught = err;
        }
        expect(isSvcError(caught, 'InvalidOptionException', 'SVC_ERR_DATA_INVALID_OPTION')).toBe(true);
        expect((caught as Error).message).toContain('maxDepth must be a positive integer');
      },
    );
  });

  describe('strings Svc data cannot hold', () => {
    const refused: Array<[string, string, string, RegExp]> = [
      [
        'a lone high surrogate escape in a value',
        '{"a":"x\\ud800"}',
        '\\ud800',
        /lone surrogate in a string/,
      ],
      ['a lone low surrogate escape in a value', '{"a":"\\uDC00x"}', '\\uDC00', /lone surrogate in a string/],
      ['surrogate escapes in the wrong order', '{"a":"\\udc00\\ud800"}', '\\udc00', /lone surrogate/],
      ['a high surrogate escape before another high one', '{"a":"\\ud83d\\ud83d\\ude00"}', '\\ud83d', /lone/],
      ['a lone surrogate escape in a key', '{"ok":1,"k\\udbff":1}', '\\udbff', /lone surrogate in a key/],
      ['an escaped NUL in a key', '{"a\\u0000b":1}', '\\u0000', /key holds U\+0000/],
      ['an escaped NUL in a nested key', '{"a":[{"\\u0000":1}]}', '\\u0000', /key holds U\+0000/],
    ];
    it.each(refused)(
      'refuses %s on both paths, naming the escape and its offset',
      (_label, text, escape, message) => {
        for (const doc of [text, text.replace('{', '{"x":12345678901234567,')]) {
          for (const decode of [() => codec.stringToMap(doc), () => codec.bytesToMap(utf8(doc))]) {
            const err = decodeError(decode);
            expect(err.message).toMatch(message);
            expect(err.offset).toBe(doc.indexOf(escape));
          }
        }
      },
    );

    it('refuses a raw lone surrogate in text given as a string, naming its byte offset', () => {
      const err = decodeError(() => codec.stringToMap('{"é":"ab\ud800"}'));
      expect(err.message).toMatch(/Lone surrogate U\+D800/);
      expect(err.offset).toBe(9);
      expect(decodeError(() => codec.stringToList('["\udfff"]')).offset).toBe(2);
    });

    it('refuses a surrogate encoded in UTF-8 as invalid UTF-8', () => {
      const bytes = new Uint8Array([...utf8('{"a":"'), 0xed, 0xa0, 0x80, ...utf8('"}')]);
      const err = decodeError(() => codec.bytesToMap(bytes));
      expect(err.message).toMatch(/Invalid UTF-8/);
      expect(err.offset).toBe(6);
    });

    it('reads escaped and raw surrogate pairs, and U+0000 in values, on both paths', () => {
      for (const doc of [
        '{"\\ud83d\\ude00":"\\uD83D\\uDE00😀","v":"a\\u0000b"}',
        '{"😀":"😀😀","v":"a\\u0000b"}',
      ]) {
        for (const text of [doc, doc.replace('{', '{"x":12345678901234567,')]) {
          for (const map of [codec.stringToMap(text), codec.bytesToMap(utf8(text))]) {
            expect(map.get('😀')).toBe('😀😀');
            expect(map.get('v')).toBe('a\u0000b');
          }
        }
      }
    });

    it('writes U+0000 in a value as \\u0000 and reads it back', () => {
      const map = new DataMap({ v: 'a\u0000b' });
      expect(codec.mapToString(map)).toBe('{"v":"a\\u0000b"}');
      expect(codec.stringToMap(codec.mapToString(map)).equals(map)).toBe(true);
    });
  });

  describe('the fast path', () => {
    const exact: Array<[string, string]> = [
      ['a surrogate escape', '["\\ud83d\\ude00"]'],
      ['an escaped NUL', '["\\u0000"]'],
      ['nesting one level too deep', `[${'['.repeat(1000)}${']'.repeat(1000)}]`],
      ['a long text with more than 65,536 brackets', `[${'[],'.repeat(70_000)}[]]`],
      ['text JSON.parse refuses', '[1,]'],
    ];
    it.each(exact)('leaves %s to the exact parser', (_label, text) => {
      expect(parseFast(text, MAX_NESTING_DEPTH)).toBe(NEEDS_EXACT);
    });

    const fast: Array<[string, string]> = [
      [
        'safe integers and doubles with 17 digits',
        '[9007199254740991, -9007199254740991, 0.12345678901234567]',
      ],
      ['doubles beyond the long range', '[1e19, 9223372036854777856, -1e300]'],
      ['numbers beyond the double range', '[1e400, -1e400]'],
      ['other escapes', '["\\u00e9\\n\\"", "\\u1234"]'],
      ['digits in strings', '["12345678901234567890"]'],
      ['exactly MAX_NESTING_DEPTH levels', '['.repeat(1000) + ']'.repeat(1000)],
    ];
    it.each(fast)('takes JSON.parse for %s', (_label, text) => {
      expect(parseFast(text, MAX_NESTING_DEPTH)).toEqual(JSON.parse(text));
    });

    const patched: Array<[string, string]> = [
      ['an integer beyond ±2^53', '[9007199254740992]'],
      ['LONG_MAX, which JSON.parse rounds to 2^63', '[9223372036854775807]'],
      ['LONG_MIN', '[-9223372036854775808]'],
      ['an integral double between 2^53 and 2^63 (it could have been a long)', '[1e18, 9007199254740993.0]'],
      ['2^63 and beyond the long range', '[9223372036854775808, -9223372036854775809]'],
      [
        'longs beside digits in strings',
        '{"s":"9007199254740993","n":9007199254740993,"t":"x\\"9007199254740995"}',
      ],
      ['longs under escaped keys', '{"a\\"b":{"\\u00e9":[1,9007199254740993]},"\\\\":-9007199254740995}'],
      ['a long under __proto__', '{"__proto__":{"x":9007199254740993},"y":[[],{},9223372036854775807]}'],
      ['whitespace everywhere', ' { "a" : [ 1 , 9007199254740993 , { "b" : -9007199254740993 } ] } '],
      ['a duplicate key whose last value is a long', '{"a":9007199254740993,"a":9007199254740992}'],
      ['a duplicate key whose last value is a double', '{"a":9007199254740993,"a":9007199254740992.5}'],
      ['a duplicate key whose last value is small', '{"a":9007199254740993,"a":1}'],
      [
        'a duplicate key whose last value is a container',
        '{"a":{"b":9007199254740993},"a":{"b":1},"c":{"d":9007199254740993},"c":[]}',
      ],
    ];
    it.each(patched)('writes the exact values into what JSON.parse gave for %s', (_label, text) => {
      const viaParse = parseFast(text, MAX_NESTING_DEPTH);
      expect(viaParse).not.toBe(NEEDS_EXACT);
      expect(viaParse).toEqual(parseJsonExact(text));
    });
  });

  describe('properties', () => {
    it('round-trips any DataMap without bytes through string and bytes', () => {
      fc.assert(
        fc.property(dataMapArb({ bytes: false, ambiguousDoubles: false }), (map) => {
          expect(codec.stringToMap(codec.mapToString(map)).equals(map)).toBe(true);
          expect(codec.bytesToMap(codec.mapToBytes(map)).equals(map)).toBe(true);
        }),
        { numRuns: fuzzRuns(300) },
      );
    });

    it('reads any JSON exactly as JSON.parse does, wherever that is exact, on both paths', () => {
      fc.assert(
        fc.property(fc.json({ maxDepth: 4 }), (text) => {
          const expected: unknown = JSON.parse(text);
          // JSON.parse rounds unsafe integers; the exact parser keeps them as bigint of the exact value
          const rounded = JSON.parse(
            JSON.stringify(parseJsonExact(text), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
          );
          expect(rounded).toEqual(expected);
          if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
            const fastPath = parseFast(text, MAX_NESTING_DEPTH);
            const decoded = codec.stringToMap(text);
            if (fastPath !== NEEDS_EXACT) expect(fastPath).toEqual(parseJsonExact(text));
            expect(decoded.equals(codec.bytesToMap(utf8(text)))).toBe(true);
          }
        }),
        { numRuns: fuzzRuns(500) },
      );
    });

    it('reads every integer token of 16 or more digits exactly, wherever it stands', () => {
      fc.assert(
        fc.property(
          fc.constantFrom('[', '[ ', '[1,', '[\n', '[-', '{"a":', '{"a": -'),
          fc.stringMatching(/^[1-9][0-9]{0,29}$/),
          fc.constantFrom('', ' ', '\r', ','),
          (lead, digits, trail) => {
            const inList = lead.startsWith('[');
            const more = trail === ',' ? (inList ? '2' : '"b":2') : '';
            const root = codec.stringToMap(`{"k":${lead}${digits}${trail}${more}${inList ? ']' : '}'}}`);
            const holder = inList ? root.getDataList('k')!.toArray() : Data.toJS(root.getDataMap('k')!);
            const got = inList ? (holder as unknown[])[lead === '[1,' ? 1 : 0] : (holder as { a: unknown }).a;
            const exact = BigInt(lead.endsWith('-') ? `-${digits}` : digits);
            const safe = exact >= -(2n ** 53n) + 1n && exact <= 2n ** 53n - 1n;
            const inLong = exact >= -(2n ** 63n) && exact < 2n ** 63n;
            expect(got).toBe(safe ? Number(exact) : inLong ? exact : Number(exact));
          },
        ),
        { numRuns: fuzzRuns(1000) },
      );
    });

    it.each([
      ['a fraction', '[0.12345678901234567]'],
      ['a mantissa before a decimal point', '[12345678901234567.5]'],
      ['a mantissa before an exponent', '[12345678901234567e3, 12345678901234567E3]'],
      ['an exponent', '[1e+12345678901234567]'],
      ['digits inside a string', '["id-12345678901234567", "12345678901234567x"]'],
    ])('reads %s as JSON.parse does', (_label, text) => {
      expect(Data.toJS(codec.stringToList(text))).toEqual(JSON.parse(text));
    });

    /** Runs `decode`; the error it must throw, or a failure naming the input when it throws none. */
    function rejection(decode: () => unknown, input: unknown): unknown {
      try {
        decode();
      } catch (err) {
        return err;
      }
      throw new Error(`accepted ${JSON.stringify(input)}, which is not a JSON object`);
    }

    const objectText = fc.object().map((o) => JSON.stringify(o));
    /** Texts that are certainly not the JSON of an object. */
    const garbage = fc.oneof(
      // a proper prefix of an object's text: the closing brace is its last character
      objectText.chain((t) => fc.nat(t.length - 1).map((n) => t.slice(0, n))),
      // an object's text followed by something other than whitespace
      fc
        .tuple(objectText, fc.string({ minLength: 1 }))
        .filter(([, tail]) => !/^[ \t\n\r]/.test(tail))
        .map(([t, tail]) => t + tail),
      // a first character that cannot start an object (after any whitespace)
      fc
        .tuple(fc.constantFrom('', ' ', '\n\t'), fc.string({ minLength: 1 }), fc.string())
        .filter(([, first]) => !/^[ \t\n\r{]/.test(first))
        .map(([ws, first, rest]) => ws + first + rest),
      // JSON, but not an object
      fc
        .jsonValue()
        .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
        .map((v) => JSON.stringify(v)),
      // an object holding a lone surrogate, escaped (Svc data holds well-formed Unicode only)
      fc.constantFrom('\\ud800', '\\udfff', '\\ud83d x').map((e) => `{"a":"${e}"}`),
    );

    it('rejects garbage, with DataDecodingException', () => {
      fc.assert(
        fc.property(garbage, (text) => {
          expect(
            isSvcError(
              rejection(() => codec.stringToMap(text), text),
              'DataDecodingException',
            ),
          ).toBe(true);
          const bytes = utf8(text);
          expect(
            isSvcError(
              rejection(() => codec.bytesToMap(bytes), text),
              'DataDecodingException',
            ),
          ).toBe(true);
        }),
        { numRuns: fuzzRuns(500) },
      );
    });

    /** What the codec must accept: text JSON.parse reads as an object, whose strings are well-formed. */
    function isObjectText(text: string): boolean {
      const lone = /[\uD800-\uDFFF]/u; // with the u flag, only a surrogate outside a pair matches
      const wellFormed = (v: unknown): boolean =>
        typeof v === 'string'
          ? !lone.test(v)
          : Array.isArray(v)
            ? v.every(wellFormed)
            : v !== null && typeof v === 'object'
              ? Object.entries(v).every(([k, x]) => !lone.test(k) && wellFormed(x))
              : true;
      try {
        const v: unknown = JSON.parse(text);
        return v !== null && typeof v === 'object' && !Array.isArray(v) && wellFormed(v);
      } catch {
        return false;
      }
    }

    /** Decodes with `decode`: true when it reads a map, false when it throws a DataDecodingException. */
    function accepts(decode: () => unknown): boolean {
      try {
        decode();
        return true;
      } catch (err) {
        if (!isSvcError(err, 'DataDecodingException')) throw err;
        return false;
      }
    }

    const spliced = fc
      .json()
      .chain((j) =>
        fc
          .tuple(fc.nat(j.length), fc.nat(3), fc.string({ maxLength: 3 }))
          .map(([at, cut, piece]) => j.slice(0, at) + piece + j.slice(at + cut)),
      );

    it('reads random text as a map exactly when JSON.parse reads an object from it, and rejects the rest with DataDecodingException', () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json(), spliced, garbage),
          (text) => {
            expect({ text, accepted: accepts(() => codec.stringToMap(text)) }).toEqual({
              text,
              accepted: isObjectText(text),
            });
          },
        ),
        { numRuns: fuzzRuns(500) },
      );
    });

    it('reads random bytes as a map exactly when they are the UTF-8 of a JSON object, and rejects the rest with DataDecodingException', () => {
      const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
      const isObjectBytes = (bytes: Uint8Array): boolean => {
        let text: string;
        try {
          text = strictUtf8.decode(bytes);
        } catch {
          return false;
        }
        return isObjectText(text);
      };
      const splicedBytes = fc
        .tuple(fc.json().map(utf8), fc.nat(), fc.uint8Array({ maxLength: 3 }))
        .map(([b, at, piece]) => {
          const i = at % (b.length + 1);
          return new Uint8Array([...b.subarray(0, i), ...piece, ...b.subarray(i)]);
        });
      fc.assert(
        fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), splicedBytes), (bytes) => {
          const hex = Buffer.from(bytes).toString('hex');
          expect({ hex, accepted: accepts(() => codec.bytesToMap(bytes)) }).toEqual({
            hex,
            accepted: isObjectBytes(bytes),
          });
        }),
        { numRuns: fuzzRuns(500) },
      );
    });

    /** Pieces that make mutations interesting: structure, escapes, long digit runs, huge exponents. */
    const piece = fc.constantFrom(
      '[',
      ']',
      '{',
      '}',
      '"',
      ':',
      ',',
      '\\',
      '\\u',
      '\\ud800',
      '\\udc00',
      '\\u0000',
      'e999',
      '-',
      '0',
      '12345678901234567890',
      '9223372036854775808',
      'null',
      'NaN',
      '\u0000',
      '\ud800',
      '[[[[[[[[',
      '😀',
    );

    it('turns any mutation of a valid document into data or a DataDecodingException, through both entry points', () => {
      const shallow = new JsonCodec({ maxDepth: 6 });
      fc.assert(
        fc.property(
          dataMapArb({ bytes: false, maxDepth: 4 }),
          fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.oneof(piece, fc.string({ maxLength: 3 }))), {
            minLength: 1,
            maxLength: 4,
          }),
          (map, edits) => {
            let text = codec.mapToString(map);
            for (const [at, removed, inserted] of edits) {
              const i = at % (text.length + 1);
              text = text.slice(0, i) + inserted + text.slice(i + removed);
            }
            for (const decode of [
              () => codec.stringToMap(text),
              () => codec.bytesToMap(utf8(text)),
              () => shallow.stringToMap(text),
            ]) {
              try {
                decode();
              } catch (err) {
                if (!isSvcError(err, 'DataDecodingException', 'SVC_ERR_DATA_JSON_DECODE')) throw err;
              }
            }
          },
        ),
        { numRuns: fuzzRuns(500) },
      );
    });
  });
});
