/**
 * The JSON codec's long handling against its reference, the exact parser and the exact writer: documents
 * full of longs near ±2^53 and ±2^63, doubles that round into the long range, digit runs in strings, escaped
 * keys, duplicate keys and `__proto__` read the same through `JSON.parse` + json-long-patch.ts as through the
 * exact parser, and write back the same bytes as the iterative writer.
 */
import fc from 'fast-check';
import type { DataMap } from '../../../src';
import { Data, JsonCodec, type JsValue } from '../../../src';
import { parseJsonExact } from '../../../src/data/codecs/json-exact-parser';
import { NEEDS_EXACT, parseFast } from '../../../src/data/codecs/json-fast-path';
import { patchLocated } from '../../../src/data/codecs/json-long-patch';
import { writeJson } from '../../../src/data/codecs/json-writer';
import { MAX_NESTING_DEPTH } from '../../../src/data/limits';
import { fuzzRuns } from '../fuzz-runs';

const codec = new JsonCodec();
const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);

/** Integer tokens around the places where a double stops holding an integer and a long ends. */
const integerToken = fc
  .oneof(
    fc.bigInt({ min: -(2n ** 53n) - 50n, max: -(2n ** 53n) + 50n }),
    fc.bigInt({ min: 2n ** 53n - 50n, max: 2n ** 53n + 50n }),
    fc.bigInt({ min: LONG_MAX - 50n, max: LONG_MAX + 50n }),
    fc.bigInt({ min: LONG_MIN - 50n, max: LONG_MIN + 50n }),
    fc.bigInt({ min: LONG_MIN, max: LONG_MAX }),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
    fc.integer({ min: -1000, max: 1000 }).map(BigInt),
  )
  .map((b) => b.toString());

/** Other number tokens, some of which JSON.parse reads into the suspect range. */
const otherNumberToken = fc.oneof(
  fc.constantFrom('-0', '0', '-0.0', '1.5', '1e18', '-1E18', '9.2e18', '9.3e18', '1e400', '-1e400'),
  fc.constantFrom('9007199254740993.0', '9007199254740992.5', '12345678901234567e1', '0.12345678901234567'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  integerToken.map((t) => `${t}.0`),
  integerToken.map((t) => `${t}e0`),
);

const numberToken = fc.oneof(
  { weight: 3, arbitrary: integerToken },
  { weight: 1, arbitrary: otherNumberToken },
);

/** String tokens as they stand in the text (quotes and escapes included). */
const stringToken = fc.oneof(
  fc.constantFrom(
    '""',
    '"9007199254740993"',
    '"-9223372036854775808"',
    '"a\\"9007199254740993"',
    '"\\\\"',
    '"\\\\\\"12345678901234567\\\\"',
    '"{\\"k\\":12345678901234567}"',
    '"[1,2,12345678901234567]"',
    '"\\u00e9\\ud83d\\ude00 \\n\\t"',
    '"é😀 ☺"',
    '"\\u0041"',
  ),
  fc.string().map((s) => JSON.stringify(s)),
);

/** Keys, few of them, so that documents hold duplicates. */
const keyToken = fc.constantFrom(
  '"a"',
  '"b"',
  '"a"',
  '"__proto__"',
  '"constructor"',
  '"0"',
  '"12"',
  '"a\\"b"',
  '"\\u0061"',
  '"\\\\"',
  '"é"',
);

const ws = fc.constantFrom('', '', '', ' ', '\n  ', '\t', '\r\n');

const { value: valueText } = fc.letrec<{ value: string; object: string; list: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberToken,
    numberToken,
    stringToken,
    fc.constantFrom('true', 'false', 'null'),
    tie('object'),
    tie('list'),
  ),
  object: fc
    .array(fc.tuple(ws, keyToken, ws, ws, tie('value'), ws), { maxLength: 5 })
    .chain((entries) =>
      ws.map((w) => `{${w}${entries.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`),
    ),
  list: fc
    .array(fc.tuple(ws, tie('value'), ws), { maxLength: 5 })
    .chain((items) => ws.map((w) => `[${w}${items.map(([a, v, b]) => `${a}${v}${b}`).join(',')}]`)),
}));

const documentText = fc
  .tuple(ws, fc.oneof(valueText.filter((t) => t.startsWith('{'))), ws)
  .map(([a, doc, b]) => `${a}${doc}${b}`);

describe('JSON longs', () => {
  it('reads every document through JSON.parse exactly as the exact parser reads it', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const fast = parseFast(text, MAX_NESTING_DEPTH);
        // only a surrogate or NUL escape needs the exact parser: the patch must vouch for every other document
        if (!/\\u(?:[dD][89a-fA-F]|0000)/.test(text)) expect(fast).not.toBe(NEEDS_EXACT);
        if (fast !== NEEDS_EXACT) expect(fast).toEqual(parseJsonExact(text));
      }),
      { numRuns: fuzzRuns(2000) },
    );
  });

  it('writes what it read byte for byte as the exact writer does, and what it wrote reads back to the same bytes', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const expected = writeJson(parseJsonExact(text) as object);
        for (const map of [codec.stringToMap(text), codec.bytesToMap(utf8(text))]) {
          const out = codec.mapToString(map);
          expect(out).toBe(expected);
          expect(Buffer.from(codec.mapToBytes(map)).toString('utf8')).toBe(expected);
          // what was written reads back to the same bytes (not always to equal data: an integral double of the
          // long range is written as digits, which read as a long; ±Infinity as a string)
          expect(codec.mapToString(codec.stringToMap(out))).toBe(out);
        }
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });

  it.each([
    ['a value that looks like a marker', { v: 2n ** 60n + 1n, s: '\u0000123' }],
    [
      'values holding U+0000 and escapes',
      { s: ['a\u0000', '\\u0000', '\\\u00001', '"\u00002'], v: -(2n ** 63n) },
    ],
    ['a long only inside a list', { l: [[1, [2n ** 62n]]] }],
    ['a long under __proto__', JSON.parse('{"__proto__":{"x":1}}') as object],
  ])('writes a built map holding %s as the exact writer does', (_label, plain) => {
    const map = Data.fromJS(plain as JsValue) as DataMap;
    if (JSON.stringify(Object.keys(plain)) === '["__proto__"]') {
      (map.getDataMap('__proto__') as DataMap).put('x', 2n ** 60n + 3n);
    }
    const expected = writeJson(map);
    expect(codec.mapToString(map)).toBe(expected);
    // a second time: the map is then known to hold longs
    expect(codec.mapToString(map)).toBe(expected);
    expect(codec.stringToMap(expected).equals(map)).toBe(true);
  });

  it('round-trips any long of the 64-bit range digit for digit, wherever it stands', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: LONG_MIN, max: LONG_MAX }),
        fc.constantFrom('{"v":%}', '{"l":[1,%,"%"]}', '{"m":{"x\\"%":%}}', '{"s":"%","v":%}'),
        (long, shape) => {
          const text = shape.replaceAll('%', long.toString());
          const map = codec.stringToMap(text);
          expect(codec.mapToString(map)).toBe(text);
          const safe = long >= -(2n ** 53n) + 1n && long <= 2n ** 53n - 1n;
          const first = text.startsWith('{"v"') ? map.get('v') : undefined;
          if (first !== undefined) expect(first).toBe(safe ? Number(long) : long);
        },
      ),
      { numRuns: fuzzRuns(1000) },
    );
  });
});

/** What the walk of json-fast-path.ts locates: (container, key or index, number) per suspect, in walk order. */
function locate(node: unknown, out: unknown[] = []): unknown[] {
  if (typeof node !== 'object' || node === null) return out;
  for (const k in node) {
    const v = (node as Record<string, unknown>)[k];
    const slot = Array.isArray(node) ? Number(k) : k;
    if (typeof v === 'object') locate(v, out);
    else if (typeof v === 'number' && Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) <= 2 ** 63)
      out.push(node, slot, v);
  }
  return out;
}

const X = '9007199254740993'; // rounds to 2^53
const Y = '9007199254740992'; // 2^53 itself: the same double as X
const Z = '-9223372036854775808';

describe('JSON longs written where the walk found them (patchLocated)', () => {
  it.each([
    ['longs in objects and lists', `{"a":${X},"l":[1,${Z}],"m":{"b":[[${LONG_MAX}]]}}`, true],
    ['whitespace around the tokens', `{"a" :\n\t${X} ,"l":[ ${Z}\r\n]}`, true],
    ['exponents and fractions in the suspect range', `{"a":1e18,"b":-9.2E+18,"c":${X}.5,"d":${Z}}`, true],
    ['integers beyond the long range next to a long', `{"a":9223372036854775808,"b":${X}}`, true],
    ['16-digit safe numbers and small exponents beside', `{"a":1000000000000000,"b":1.5e3,"c":${X}}`, true],
    ['keys needing escapes and non-ASCII text', `{"k\\"é\\\\":${X},"😀":"\\u00e9","l":[${Z}]}`, true],
    ['integer-like keys, walked before the others: another order', `{"b":[${Z}],"1":[${X}]}`, false],
    ['integer-like keys first in the text too', `{"1":[${X}],"b":[${Z}]}`, true],
    ['two tokens reading as one double', `{"a":${X},"b":${Y}}`, false],
    ['reordered by integer-like keys, one double', `{"b":[${X}],"1":[${Y}]}`, false],
    ['a duplicate key whose first long was lost', `{"a":${X},"b":1,"a":${Z}}`, false],
    ['a duplicate key keeping its first place: another order', `{"a":[1],"b":[${Z}],"a":[${X}]}`, false],
    ['a look-alike token inside a string', `{"s":"{\\"k\\":12345678901234567}","a":${X}}`, false],
    ['a look-alike token inside a string, after the long', `{"a":${X},"s":"[1,${Z}]"}`, false],
  ])('%s: located %s, and reads as the exact parser reads', (_label, text, viaLocated) => {
    const tree = JSON.parse(text) as object;
    const located = locate(tree);
    const untouched = JSON.stringify(tree);
    expect(patchLocated(text, tree, located)).toBe(viaLocated);
    if (!viaLocated) expect(JSON.stringify(tree)).toBe(untouched); // nothing written before giving up
    expect(parseFast(text, MAX_NESTING_DEPTH)).toEqual(parseJsonExact(text));
  });

  it('takes the pass for more suspects than the walk locates, and reads them all exactly', () => {
    const items = Array.from({ length: 100 }, (_, i) => (2n ** 60n + BigInt(i)).toString());
    const text = `{"l":[${items.join(',')}],"a":${X}}`;
    expect(parseFast(text, MAX_NESTING_DEPTH)).toEqual(parseJsonExact(text));
  });
});

describe('JSON longs written again after the graph changed (the slots known from the last write)', () => {
  const L1 = 2n ** 60n + 1n;
  const L2 = -(2n ** 62n) - 3n;
  const doc = `{"k\\"é":${L1},"m":{"n":[1,[${L2},"ü"]],"s":"☺"},"l":[${LONG_MAX},2]}`;
  it.each<[string, (m: DataMap) => void]>([
    ['nothing changed', () => undefined],
    ['a long set to a number', (m) => m.put('k"é', 5)],
    ['a long set to another long', (m) => m.put('k"é', LONG_MIN)],
    ['a long removed', (m) => m.remove('k"é')],
    ['a new long elsewhere', (m) => m.put('z', L2)],
    ['a new long in a nested list', (m) => m.getDataMap('m')!.getDataList('n')!.add(L1)],
    ['an item inserted before a long of a list', (m) => m.getDataList('l')!.addAt(0, 'x')],
    ['an item inserted before a long, and a long put there', (m) => m.getDataList('l')!.addAt(0, L1)],
    ['the container of a long replaced', (m) => m.put('m', Data.fromJS({ n: [L1] }))],
    ['the container of a long removed', (m) => m.remove('m')],
    ['a marker look-alike put in', (m) => m.put('s', `\u0000${L1}`)],
    ['all longs removed', (m) => ['k"é', 'm', 'l'].forEach((k) => m.remove(k))],
  ])('after %s, writes what the exact writer writes', (_label, change) => {
    for (const decode of [
      (t: string) => codec.stringToMap(t),
      (t: string) => Data.fromJS(parseJsonExact(t) as JsValue) as DataMap,
    ]) {
      const map = decode(doc);
      expect(codec.mapToString(map)).toBe(writeJson(map)); // the first write notes where the longs stand
      change(map);
      const expected = writeJson(map);
      expect(codec.mapToString(map)).toBe(expected);
      expect(Buffer.from(codec.mapToBytes(map)).toString('utf8')).toBe(expected);
      // and once more, from what the write after the change noted
      expect(codec.mapToString(map)).toBe(expected);
    }
  });
});
