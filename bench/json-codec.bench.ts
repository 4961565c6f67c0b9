/**
 * JsonCodec vs the built-in JSON it wraps, on a ~1 KB record and a ~1 MB document.
 *
 * The codec's promise (src/data/codecs/json-codec.ts): without unsafe longs, decoding costs about what
 * JSON.parse costs (lazy adoption: one wrapper for the root) and encoding about what JSON.stringify costs.
 * Goal: ≥ 0.9× the raw JSON anchor. With unsafe longs the codec takes its exact path; the anchor then is
 * JSON.parse / JSON.stringify on the same text, which silently loses precision, and the JavaScript libraries
 * for exact longs (lossless-json, json-bigint, json-with-bigint) run beside it. Goals (issue 23): ≥ 1.5× each
 * library and ≥ 0.5× the lossy anchor, both directions, 1 KB and 1 MB.
 */
import { createRequire } from 'node:module';
import * as jsonWithBigint from 'json-with-bigint';
import * as losslessJson from 'lossless-json';
import { Data, DataMap, JsonCodec, type JsValue } from '../src';
import { type DataDocument, dataDocuments } from './fixtures/data-documents';
import { type BenchFile, fmtInt, type Goal, keep, keepLength, type Suite } from './harness';

const GOAL = 0.9;

function built(d: DataDocument): DataMap {
  const m = Data.fromJS(d.plain);
  if (!(m instanceof DataMap)) throw new Error('Data.fromJS did not give a DataMap');
  return m;
}

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(`json-codec bench: ${what}`);
}

function title(what: string, d: DataDocument): string {
  return `${what} · ${d.label} (${fmtInt(d.bytes.length)} B)`;
}

/** A no-copy Buffer view of the bytes (Buffer.from(uint8array) would copy them first). */
function bufferView(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `1KB` / `1MB` for the summary table. */
function size(d: DataDocument): string {
  return d.bytes.length > 100_000 ? '1MB' : '1KB';
}

function fastPathSuites(codec: JsonCodec, d: DataDocument, field: string): Suite[] {
  const { text, bytes, plain } = d;
  const decoded = codec.stringToMap(text); // lazily adopted: nested nodes stay raw (encoding does not adopt them)
  const full = built(d);
  const expected = JSON.stringify(plain);
  check(`${d.label}: text is not JSON.stringify(plain)`, expected === text);
  check(`${d.label}: mapToString(decoded) differs`, codec.mapToString(decoded) === expected);
  check(`${d.label}: mapToString(built) differs`, codec.mapToString(full) === expected);
  check(`${d.label}: bytesToMap differs`, codec.bytesToMap(bytes).equals(decoded));
  check(`${d.label}: sink field '${field}' is not a string`, typeof decoded.get(field) === 'string');

  const goals = (names: readonly string[]): Array<{ task: string; min: number }> =>
    names.map((task) => ({ task, min: GOAL }));
  return [
    {
      title: title('decode string', d),
      short: `decode string ${size(d)}`,
      anchor: {
        name: 'JSON.parse(text)',
        fn: () => keepLength((JSON.parse(text) as Record<string, unknown>)[field]),
      },
      candidates: [
        { name: 'codec.stringToMap(text)', fn: () => keepLength(codec.stringToMap(text).get(field)) },
      ],
      goals: goals(['codec.stringToMap(text)']),
    },
    {
      title: title('decode bytes', d),
      short: `decode bytes ${size(d)}`,
      notes: ['anchor decodes the UTF-8 through a no-copy Buffer view: same UTF-8 work on both sides'],
      anchor: {
        name: 'JSON.parse(utf8(bytes))',
        fn: () =>
          keepLength((JSON.parse(bufferView(bytes).toString('utf8')) as Record<string, unknown>)[field]),
      },
      candidates: [
        { name: 'codec.bytesToMap(bytes)', fn: () => keepLength(codec.bytesToMap(bytes).get(field)) },
      ],
      goals: goals(['codec.bytesToMap(bytes)']),
    },
    {
      title: title('encode string', d),
      short: `encode string ${size(d)}`,
      notes: [
        'decoded = stringToMap(text), lazily adopted (nested nodes raw); built = Data.fromJS(plain), every node a container',
      ],
      anchor: { name: 'JSON.stringify(plain)', fn: () => keep(JSON.stringify(plain).length) },
      candidates: [
        { name: 'codec.mapToString(decoded)', fn: () => keep(codec.mapToString(decoded).length) },
        { name: 'codec.mapToString(built)', fn: () => keep(codec.mapToString(full).length) },
      ],
      goals: goals(['codec.mapToString(decoded)', 'codec.mapToString(built)']),
    },
    {
      title: title('encode bytes', d),
      short: `encode bytes ${size(d)}`,
      anchor: {
        name: 'Buffer.from(JSON.stringify(plain))',
        fn: () => keep(Buffer.from(JSON.stringify(plain)).length),
      },
      candidates: [
        { name: 'codec.mapToBytes(decoded)', fn: () => keep(codec.mapToBytes(decoded).length) },
        { name: 'codec.mapToBytes(built)', fn: () => keep(codec.mapToBytes(full).length) },
      ],
      goals: goals(['codec.mapToBytes(decoded)', 'codec.mapToBytes(built)']),
    },
  ];
}

/** The JavaScript libraries a user would pick for exact longs: the anchors of the exact path (issue 23). */
interface LongLibrary {
  readonly name: string;
  readonly parse: (text: string) => unknown;
  readonly stringify: (value: unknown) => string;
}

function longLibraries(): LongLibrary[] {
  const load = createRequire(__filename);
  const jsonBigint = (
    load('json-bigint') as (options: { useNativeBigInt: boolean }) => {
      parse(text: string): unknown;
      stringify(value: unknown): string;
    }
  )({ useNativeBigInt: true });
  return [
    {
      // parseNumberAndBigInt: integers as bigint, others as number (its default, LosslessNumber for every
      // number, gives no plain data)
      name: 'lossless-json',
      parse: (text) => losslessJson.parse(text, null, losslessJson.parseNumberAndBigInt),
      stringify: (value) => losslessJson.stringify(value) ?? '',
    },
    {
      name: 'json-bigint',
      parse: (text) => jsonBigint.parse(text),
      stringify: (v) => jsonBigint.stringify(v),
    },
    {
      name: 'json-with-bigint',
      parse: (text) => jsonWithBigint.JSONParse(text) as unknown,
      stringify: (v) => jsonWithBigint.JSONStringify(v),
    },
  ];
}

/** Issue 23's goals for the exact path: ≥ 1.5× each library, ≥ 0.5× V8's lossy JSON on the same text. */
const EXACT_VS_LIBRARIES = 1.5;
const EXACT_VS_LOSSY = 0.5;

function exactPathSuites(codec: JsonCodec, d: DataDocument, field: string): Suite[] {
  const { text } = d;
  const decoded = codec.stringToMap(text);
  const lossy = JSON.parse(text) as Record<string, unknown>;
  check(`${d.label}: exact round trip differs`, codec.mapToString(decoded) === text);
  check(`${d.label}: JSON.parse is expected to lose precision here`, JSON.stringify(lossy) !== text);
  check(`${d.label}: decoded differs from Data.fromJS(plain)`, decoded.equals(built(d)));
  const libraries = longLibraries();
  for (const lib of libraries) {
    const parsed = Data.fromJS(lib.parse(text) as JsValue);
    check(`${d.label}: ${lib.name} reads other data`, parsed instanceof DataMap && parsed.equals(decoded));
    check(`${d.label}: ${lib.name} writes other text`, lib.stringify(d.plain) === text);
  }
  const longs = `${d.unsafeLongs.length} longs outside ±2^53`;
  const lossNote =
    'the anchor (JSON.parse / JSON.stringify) loses precision on those longs: the goal against it says how close to native the exact path is';
  const libraryNote =
    'lossless-json with parseNumberAndBigInt, json-bigint with useNativeBigInt, json-with-bigint: each reads and writes plain objects with bigints (checked: same data, same text)';
  const libraryGoals = (task: string, prefix: string): Goal[] => [
    { task, min: EXACT_VS_LOSSY },
    ...libraries.map((lib) => ({ task, min: EXACT_VS_LIBRARIES, vs: `${prefix}${lib.name}` })),
  ];
  return [
    {
      title: `${title('decode string, exact path', d)} — anchor loses precision`,
      short: `exact decode ${size(d)} (anchor lossy)`,
      notes: [longs, lossNote, libraryNote],
      anchor: {
        name: 'JSON.parse(text) [lossy]',
        fn: () => keepLength((JSON.parse(text) as Record<string, unknown>)[field]),
      },
      candidates: [
        { name: 'codec.stringToMap(text)', fn: () => keepLength(codec.stringToMap(text).get(field)) },
        ...libraries.map((lib) => ({
          name: `parse: ${lib.name}`,
          fn: () => keepLength((lib.parse(text) as Record<string, unknown>)[field]),
        })),
      ],
      goals: libraryGoals('codec.stringToMap(text)', 'parse: '),
    },
    {
      title: `${title('encode string, exact path', d)} — anchor loses precision`,
      short: `exact encode ${size(d)} (anchor lossy)`,
      notes: [
        longs,
        'decoded = codec.stringToMap(text) (bigints for the unsafe longs); the libraries write the plain object with bigints',
        lossNote,
        libraryNote,
      ],
      anchor: {
        name: 'JSON.stringify(JSON.parse(text)) [lossy]',
        fn: () => keep(JSON.stringify(lossy).length),
      },
      candidates: [
        { name: 'codec.mapToString(decoded)', fn: () => keep(codec.mapToString(decoded).length) },
        ...libraries.map((lib) => ({
          name: `stringify: ${lib.name}`,
          fn: () => keep(lib.stringify(d.plain).length),
        })),
      ],
      goals: libraryGoals('codec.mapToString(decoded)', 'stringify: '),
    },
    {
      title: `${title('encode bytes, exact path', d)} — anchor loses precision`,
      short: `exact encode bytes ${size(d)} (anchor lossy)`,
      notes: [
        longs,
        'bytes, so that both sides finish their string: JSON.stringify returns a 1 MB text unflattened (a rope), and the first look into it (a search, Buffer.from) flattens it, ~1-2x the time of the stringify itself; ' +
          'the codec looks into it for its markers (src/data/codecs/json-long-encode.ts), so the string suite above charges it that and the anchor not',
        lossNote,
        libraryNote,
      ],
      anchor: {
        name: 'Buffer.from(JSON.stringify(JSON.parse(text))) [lossy]',
        fn: () => keep(Buffer.from(JSON.stringify(lossy)).length),
      },
      candidates: [
        { name: 'codec.mapToBytes(decoded)', fn: () => keep(codec.mapToBytes(decoded).length) },
        ...libraries.map((lib) => ({
          name: `bytes: ${lib.name}`,
          fn: () => keep(Buffer.from(lib.stringify(d.plain)).length),
        })),
      ],
      goals: libraryGoals('codec.mapToBytes(decoded)', 'bytes: '),
    },
  ];
}

/**
 * Doubles printed with 16-17 significant digits: no unsafe long, and the fast path (which checks the parsed
 * numbers, not digit runs) takes JSON.parse. Both sides are exact here (doubles); informational, no goal.
 */
function fullDoubleSuite(codec: JsonCodec, d: DataDocument, field: string): Suite {
  const { text } = d;
  check(`${d.label}: decode differs from JSON.parse`, codec.stringToMap(text).equals(built(d)));
  return {
    title: `${title('decode string', d)} — scan false positive`,
    short: `decode string ${size(d)}, full-precision doubles`,
    notes: [
      "each record's score is a full-precision double in [0, 1) (16–17 digits), which JSON.parse reads exactly",
    ],
    anchor: {
      name: 'JSON.parse(text)',
      fn: () => keepLength((JSON.parse(text) as Record<string, unknown>)[field]),
    },
    candidates: [
      { name: 'codec.stringToMap(text)', fn: () => keepLength(codec.stringToMap(text).get(field)) },
    ],
  };
}

/**
 * A hostile body: 1 MB of nested arrays. `JSON.parse` alone spends ~0.3 µs a level on it; the codec refuses it
 * at MAX_NESTING_DEPTH without parsing the rest (json-fast-path.ts). Informational, no goal.
 */
function nestingSuite(codec: JsonCodec): Suite {
  const half = 512 * 1024;
  const text = '['.repeat(half) + ']'.repeat(half);
  const bytes = new Uint8Array(Buffer.from(text, 'latin1'));
  const refused = (decode: () => unknown): void => {
    try {
      decode();
    } catch (err) {
      keep((err as { offset: number }).offset);
      return;
    }
    throw new Error('json-codec bench: 1 MB of nested arrays was not refused');
  };
  return {
    title: `decode 1 MB of arrays nested ${fmtInt(half)} deep (refused at depth 1,000)`,
    short: 'refuse 1MB nested arrays',
    notes: ['the anchor parses it all; the codec throws a DataDecodingException at the 1,001st level'],
    anchor: { name: 'JSON.parse(text)', fn: () => keepLength(JSON.parse(text) as unknown[]) },
    candidates: [
      { name: 'codec.stringToList(text)', fn: () => refused(() => codec.stringToList(text)) },
      { name: 'codec.bytesToList(bytes)', fn: () => refused(() => codec.bytesToList(bytes)) },
    ],
  };
}

export const benchmark: BenchFile = {
  title: 'JsonCodec (src/data/codecs/json-codec.ts) vs JSON.parse / JSON.stringify',
  suites: () => {
    const codec = new JsonCodec();
    const docs = dataDocuments();
    return [
      ...fastPathSuites(codec, docs.record1k, 'id'),
      ...fastPathSuites(codec, docs.document1m, 'kind'),
      ...exactPathSuites(codec, docs.record1kUnsafe, 'id'),
      ...exactPathSuites(codec, docs.document1mUnsafe, 'kind'),
      fullDoubleSuite(codec, docs.record1kFullDoubles, 'id'),
      fullDoubleSuite(codec, docs.document1mFullDoubles, 'kind'),
      nestingSuite(codec),
    ];
  },
};
