/**
 * Rest.li 2.0 URI encoding and decoding (src/protocol/): keys in the path, `ids=List(...)`, and a finder
 * query string with a record-valued parameter, each encoded and parsed.
 *
 * Anchor: the platform's own URL primitives (`encodeURIComponent` / `decodeURIComponent` and
 * `URLSearchParams`, native code) on an equivalent *flat* string: the same names and values written the
 * 1.0.0 way (`a=1&b=2`, `ids=..&ids=..`, `filter.name=..&filter.tags[0]=..`). They do less than the 2.0
 * codec (no nesting, no grammar, no sorting, no typed keys), so the ratios say what the structure costs over
 * plain URL escaping. No goal is set (the issue gives none); ratios are reported.
 *
 * Why the codec is written the way it is (one pass per string over precomputed tables, unchanged runs copied
 * with `slice`, tokens in parallel arrays, stores built raw and adopted like decoded JSON): see
 * src/protocol/uri-element-encoder.ts and uri-element-parser.ts.
 */
import {
  ComplexKey,
  CompoundKey,
  Data,
  type DataMap,
  type KeySpec,
  decodeBatchIds,
  decodeKeyFromPath,
  encodeBatchIds,
  encodeKeyForPath,
  encodeQueryParams,
  parseElement,
  parseQueryParams,
} from '../src';
import { type BenchFile, keep, keepLength, type Suite } from './harness';

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(`uri bench: ${what}`);
}

/** `k=v&...` with encodeURIComponent, names sorted: the flat 1.0.0-style form of the same pairs. */
function flatEncode(pairs: ReadonlyArray<readonly [string, string]>): string {
  const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let out = '';
  for (const [k, v] of sorted) {
    if (out !== '') out += '&';
    out += `${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
  }
  return out;
}

/** Reads a flat string back into an object with URLSearchParams (which decodes names and values). */
function flatDecode(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures

const compound = new CompoundKey({
  memberId: 123456789,
  groupUrn: 'urn:li:group:4242',
  role: 'MANAGER',
  since: 1700000000000,
  label: 'Jo Ann (admin), EMEA',
});
const compoundSpec: KeySpec = {
  kind: 'compound',
  parts: { memberId: 'long', groupUrn: 'string', role: 'string', since: 'long', label: 'string' },
};
const compoundFlatPairs: Array<[string, string]> = compound
  .partNames()
  .map((n) => [n, String(compound.get(n))]);

const complex = new ComplexKey(
  Data.fromJS({
    major: 'KEY 1',
    minor: 42,
    tags: ['red', 'green', 'blue'],
    owner: { id: 7, name: 'Ann' },
  }) as DataMap,
  Data.fromJS({ version: '2024-01-01', locale: 'en_US', trace: 'x:y' }) as DataMap,
);
const complexFlatPairs: Array<[string, string]> = [
  ['major', 'KEY 1'],
  ['minor', '42'],
  ['tags[0]', 'red'],
  ['tags[1]', 'green'],
  ['tags[2]', 'blue'],
  ['owner.id', '7'],
  ['owner.name', 'Ann'],
  ['$params.version', '2024-01-01'],
  ['$params.locale', 'en_US'],
  ['$params.trace', 'x:y'],
];

const batchKeys = Array.from(
  { length: 10 },
  (_, i) =>
    new CompoundKey({
      followerID: 1000 + i,
      followeeID: 5000 + 7 * i,
      context: i % 2 === 0 ? 'feed' : 'search page',
    }),
);
const batchSpec: KeySpec = {
  kind: 'compound',
  parts: { followerID: 'long', followeeID: 'long', context: 'string' },
};
/** The v1 way: each key a URL-encoded `a=1&b=2`, repeated `ids=`. */
function flatIds(): string {
  let out = '';
  for (const k of batchKeys) {
    if (out !== '') out += '&';
    out += `ids=${encodeURIComponent(flatEncode(k.partNames().map((n) => [n, String(k.get(n))])))}`;
  }
  return out;
}
function flatIdsDecode(text: string): number {
  let n = 0;
  for (const id of new URLSearchParams(text).getAll('ids')) n += Object.keys(flatDecode(id)).length;
  return n;
}

const finderParams = {
  q: 'search',
  start: 20,
  count: 10,
  fields: 'id,message,sender:(name,avatar),tags',
  $returnEntity: true,
  filter: Data.fromJS({
    name: 'Jo Ann',
    tone: 'FRIENDLY',
    tags: ['news', 'sports & games', 'a,b'],
    range: { min: 1700000000000, max: 1700086400000 },
    exact: false,
  }),
};
const finderFlatPairs: Array<[string, string]> = [
  ['q', 'search'],
  ['start', '20'],
  ['count', '10'],
  ['fields', 'id,message,sender:(name,avatar),tags'],
  ['$returnEntity', 'true'],
  ['filter.name', 'Jo Ann'],
  ['filter.tone', 'FRIENDLY'],
  ['filter.tags[0]', 'news'],
  ['filter.tags[1]', 'sports & games'],
  ['filter.tags[2]', 'a,b'],
  ['filter.range.min', '1700000000000'],
  ['filter.range.max', '1700086400000'],
  ['filter.exact', 'false'],
];

// ---------------------------------------------------------------------------------------------------------
// Suites

function pair(
  what: string,
  short: string,
  encoded: string,
  flat: string,
  encode: () => string,
  flatEncodeFn: () => string,
  parse: Array<{ name: string; fn: () => void }>,
  flatParse: () => void,
): Suite[] {
  check(`${what}: encoder output differs`, encode() === encoded);
  return [
    {
      title: `${what} · encode (${encoded.length} chars; flat ${flat.length})`,
      short: `${short} encode`,
      anchor: { name: 'encodeURIComponent (flat)', fn: () => keepLength(flatEncodeFn()) },
      candidates: [{ name: 'svc encode', fn: () => keepLength(encode()) }],
      facts: [
        { label: '2.0 text', value: encoded.length, unit: 'chars' },
        { label: 'flat text', value: flat.length, unit: 'chars' },
      ],
    },
    {
      title: `${what} · parse`,
      short: `${short} parse`,
      anchor: { name: 'URLSearchParams (flat)', fn: flatParse },
      candidates: parse,
    },
  ];
}

function suites(): Suite[] {
  const out: Suite[] = [];

  // compound key in the path
  const compoundText = encodeKeyForPath(compound);
  const compoundFlat = flatEncode(compoundFlatPairs);
  check(
    'compound key round trip',
    String(decodeKeyFromPath(compoundText, compoundSpec)) === String(compound),
  );
  out.push(
    ...pair(
      'compound key, 5 parts, in the path',
      'compound key',
      compoundText,
      compoundFlat,
      () => encodeKeyForPath(compound),
      () => flatEncode(compoundFlatPairs),
      [
        { name: 'parseElement', fn: () => keep((parseElement(compoundText) as DataMap).size) },
        {
          name: 'decodeKeyFromPath (typed)',
          fn: () => keep((decodeKeyFromPath(compoundText, compoundSpec) as CompoundKey).size),
        },
      ],
      () => keep(Object.keys(flatDecode(compoundFlat)).length),
    ),
  );

  // complex key with $params
  const complexText = encodeKeyForPath(complex);
  const complexFlat = flatEncode(complexFlatPairs);
  const complexSpec: KeySpec = { kind: 'complex' };
  check('complex key round trip', String(decodeKeyFromPath(complexText, complexSpec)) === String(complex));
  out.push(
    ...pair(
      'complex key with $params, in the path',
      'complex key',
      complexText,
      complexFlat,
      () => encodeKeyForPath(complex),
      () => flatEncode(complexFlatPairs),
      [
        { name: 'parseElement', fn: () => keep((parseElement(complexText) as DataMap).size) },
        {
          name: 'decodeKeyFromPath',
          fn: () => keep((decodeKeyFromPath(complexText, complexSpec) as ComplexKey).key.size),
        },
      ],
      () => keep(Object.keys(flatDecode(complexFlat)).length),
    ),
  );

  // ids=List(...) of 10 compound keys
  const idsText = `ids=${encodeBatchIds(batchKeys)}`;
  const idsFlat = flatIds();
  check(
    'ids round trip',
    decodeBatchIds(parseQueryParams(idsText).get('ids'), batchSpec)?.keys.length === 10,
  );
  check('flat ids', flatIdsDecode(idsFlat) === 30);
  out.push(
    ...pair(
      'ids=List(...) of 10 compound keys',
      'ids x10',
      idsText,
      idsFlat,
      () => `ids=${encodeBatchIds(batchKeys)}`,
      flatIds,
      [
        { name: 'parseQueryParams', fn: () => keepLength(parseQueryParams(idsText).get('q')) },
        {
          name: 'parseQueryParams + decodeBatchIds',
          fn: () => keep(decodeBatchIds(parseQueryParams(idsText).get('ids'), batchSpec)!.keys.length),
        },
      ],
      () => keep(flatIdsDecode(idsFlat)),
    ),
  );

  // finder query string with a record param
  const finderText = encodeQueryParams(finderParams);
  const finderFlat = flatEncode(finderFlatPairs);
  check(
    'finder query round trip',
    parseQueryParams(finderText).getDataMap('filter')?.getString('name') === 'Jo Ann',
  );
  out.push(
    ...pair(
      'finder query string with a record param',
      'finder query',
      finderText,
      finderFlat,
      () => encodeQueryParams(finderParams),
      () => flatEncode(finderFlatPairs),
      [{ name: 'parseQueryParams', fn: () => keepLength(parseQueryParams(finderText).get('q')) }],
      () => keepLength(flatDecode(finderFlat).q),
    ),
  );
  return out;
}

export const benchmark: BenchFile = {
  title:
    'Rest.li 2.0 URI codec: keys and query strings, encode and parse, vs the platform URL primitives on the flat equivalent',
  suites,
};
