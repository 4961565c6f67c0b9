/**
 * PsonCodec vs our JsonCodec (the anchor) and vs msgpackr, on a ~1 KB record and a ~1 MB document.
 *
 * Goals (informational): PSON decode / encode ≥ 1.0× the JSON codec, and ≥ 1/1.5 = 0.67× msgpackr.
 *
 * msgpackr: `new Packr({ useRecords: false, mapsAsObjects: true })` (plain MessagePack maps, objects out).
 * Its optional native addon (msgpackr-extract: a C++ string extractor used when unpacking) is installed as
 * a prebuilt binary here, so msgpackr is loaded twice: as installed (`native strings`) and with
 * MSGPACKR_NATIVE_ACCELERATION_DISABLED=true (`pure JS`, the like-for-like reference for a JS decoder).
 * Packing never uses the addon, so encode compares against one msgpackr.
 */
import { createRequire } from 'node:module';
import type * as MsgpackrModule from 'msgpackr';
import { Data, DataList, DataMap, JsonCodec, PsonCodec } from '../src';
import { type DataDocument, dataDocuments } from './fixtures/data-documents';
import { type BenchFile, fmtInt, keep, keepLength, type Suite } from './harness';

type Msgpackr = typeof MsgpackrModule;

const PSON_VS_JSON = 1.0;
const PSON_VS_MSGPACK = 1 / 1.5;

/** msgpackr as installed, and a second instance loaded with its native addon disabled. */
function loadMsgpackr(): { native: Msgpackr; pureJs: Msgpackr } {
  const load = createRequire(__filename);
  const id = load.resolve('msgpackr');
  const native = load('msgpackr') as Msgpackr;
  const saved = load.cache[id];
  const env = process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED;
  delete load.cache[id];
  process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED = 'true';
  try {
    const pureJs = load('msgpackr') as Msgpackr;
    return { native, pureJs };
  } finally {
    if (env === undefined) delete process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED;
    else process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED = env;
    if (saved !== undefined) load.cache[id] = saved;
  }
}

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(`pson-codec bench: ${what}`);
}

function size(d: DataDocument): string {
  return d.bytes.length > 100_000 ? '1MB' : '1KB';
}

function suitesFor(
  d: DataDocument,
  field: string,
  msgpackr: { native: Msgpackr; pureJs: Msgpackr },
): Suite[] {
  const json = new JsonCodec();
  const pson = new PsonCodec();
  const options = { useRecords: false, mapsAsObjects: true };
  const packr = new msgpackr.native.Packr(options);
  const packrJs = new msgpackr.pureJs.Packr(options);

  const built = Data.fromJS(d.plain);
  if (!(built instanceof DataMap)) throw new Error('Data.fromJS did not give a DataMap');
  const jsonBytes = d.bytes;
  const psonBytes = pson.mapToBytes(built);
  const msgBytes = packr.pack(d.plain);
  const decoded = json.bytesToMap(jsonBytes); // raw nodes under a root wrapper, as a proxied response would be

  // same content everywhere, or the ratios mean nothing
  check(`${d.label}: PSON round trip differs`, pson.bytesToMap(psonBytes).equals(built));
  check(
    `${d.label}: PSON of the decoded map differs`,
    Buffer.from(pson.mapToBytes(decoded)).equals(psonBytes),
  );
  check(`${d.label}: msgpackr round trip differs`, JSON.stringify(packr.unpack(msgBytes)) === d.text);
  check(
    `${d.label}: pure-JS msgpackr differs`,
    JSON.stringify(packrJs.unpack(msgBytes)) === d.text &&
      Buffer.from(packrJs.pack(d.plain)).equals(msgBytes),
  );
  check(
    `${d.label}: msgpackr instances are not native + pure JS`,
    msgpackr.native.isNativeAccelerationEnabled && !msgpackr.pureJs.isNativeAccelerationEnabled,
  );

  const title = (what: string): string => `${what} · ${d.label} (${fmtInt(jsonBytes.length)} B as JSON)`;
  const goals = (task: string): Array<{ task: string; min: number; vs?: string }> => [
    { task, min: PSON_VS_JSON },
    { task, min: PSON_VS_MSGPACK, vs: 'msgpackr pack(plain)' },
  ];
  return [
    {
      title: title('sizes'),
      short: `size ${size(d)}`,
      facts: [
        { label: 'JSON', value: jsonBytes.length, unit: 'B' },
        { label: 'PSON', value: psonBytes.length, unit: 'B' },
        { label: 'msgpack', value: msgBytes.length, unit: 'B' },
      ],
      ratios: [
        { name: 'PSON / JSON bytes', of: 'PSON', to: 'JSON' },
        { name: 'msgpack / JSON bytes', of: 'msgpack', to: 'JSON' },
        { name: 'PSON / msgpack bytes', of: 'PSON', to: 'msgpack' },
      ],
    },
    {
      title: title('decode bytes'),
      short: `decode ${size(d)}`,
      notes: [
        'msgpack bytes are packed once, outside the timed function; every decoder reads one field of the result',
      ],
      anchor: { name: 'json.bytesToMap', fn: () => keepLength(json.bytesToMap(jsonBytes).get(field)) },
      candidates: [
        { name: 'pson.bytesToMap', fn: () => keepLength(pson.bytesToMap(psonBytes).get(field)) },
        {
          name: 'msgpackr unpack (pure JS)',
          fn: () => keepLength((packrJs.unpack(msgBytes) as Record<string, unknown>)[field]),
        },
        {
          name: 'msgpackr unpack (native strings)',
          fn: () => keepLength((packr.unpack(msgBytes) as Record<string, unknown>)[field]),
        },
      ],
      comparisons: [{ task: 'pson.bytesToMap', vs: 'msgpackr unpack (native strings)' }],
      goals: [
        { task: 'pson.bytesToMap', min: PSON_VS_JSON },
        { task: 'pson.bytesToMap', min: PSON_VS_MSGPACK, vs: 'msgpackr unpack (pure JS)' },
      ],
    },
    {
      title: title('encode · built map (Data.fromJS: every node a container)'),
      short: `encode ${size(d)} built map`,
      notes: ['msgpackr packs the plain object (it has no DataMap)'],
      anchor: { name: 'json.mapToBytes(built)', fn: () => keep(json.mapToBytes(built).length) },
      candidates: [
        { name: 'pson.mapToBytes(built)', fn: () => keep(pson.mapToBytes(built).length) },
        { name: 'msgpackr pack(plain)', fn: () => keep(packr.pack(d.plain).length) },
      ],
      goals: goals('pson.mapToBytes(built)'),
    },
    {
      title: title('encode · decoded map (json.bytesToMap: raw nodes, e.g. a proxied response)'),
      short: `encode ${size(d)} decoded map`,
      anchor: { name: 'json.mapToBytes(decoded)', fn: () => keep(json.mapToBytes(decoded).length) },
      candidates: [
        { name: 'pson.mapToBytes(decoded)', fn: () => keep(pson.mapToBytes(decoded).length) },
        { name: 'msgpackr pack(plain)', fn: () => keep(packr.pack(d.plain).length) },
      ],
      goals: goals('pson.mapToBytes(decoded)'),
    },
  ];
}

/**
 * A hostile input: a list holding a string that declares 2 GB in a 20-byte input. The decoder checks the size
 * against the bytes left before reading (test/data/codecs/pson-properties.test.ts asserts where it stops);
 * this measures that the refusal costs about what decoding a valid input of the same size does, not a
 * 2 GB allocation or a scan. The anchor decodes a valid list of one 6-byte string (22 bytes).
 */
function rejectSuite(): Suite {
  const pson = new PsonCodec();
  const header = [0x23, 0x21, 0x50, 0x53, 0x4f, 0x4e, 0x31, 0x0a];
  const valid = pson.listToBytes(new DataList(['abcdef']));
  const hostile = new Uint8Array([...header, 0x11, 0x0a, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6]);
  check(
    'the valid list is not 22 bytes or does not decode',
    valid.length === 22 && pson.bytesToList(valid).get(0) === 'abcdef',
  );
  const rejects = (): number => {
    try {
      pson.bytesToList(hostile);
      return 0;
    } catch (err) {
      return (err as { offset: number }).offset;
    }
  };
  check('the hostile list is not refused at byte 14', rejects() === 14);
  return {
    title: 'refuse a string declaring 2 GB in a 20-byte input, vs decoding a valid 22-byte list',
    short: 'reject 2 GB string',
    notes: ['the refusal builds a DataDecodingException (an Error with its stack): that is most of its cost'],
    anchor: { name: 'pson.bytesToList(valid 22 B)', fn: () => keepLength(pson.bytesToList(valid).get(0)) },
    candidates: [{ name: 'pson.bytesToList(declares 2 GB) → rejected', fn: () => keep(rejects()) }],
    // informational, as every goal: refusing should stay within 1/20 of a tiny valid decode (a stack trace)
    goals: [{ task: 'pson.bytesToList(declares 2 GB) → rejected', min: 1 / 20 }],
  };
}

export const benchmark: BenchFile = {
  title: 'PsonCodec (src/data/codecs/pson-codec.ts) vs JsonCodec (anchor) and msgpackr',
  suites: () => {
    const docs = dataDocuments();
    const msgpackr = loadMsgpackr();
    return [
      ...suitesFor(docs.record1k, 'id', msgpackr),
      ...suitesFor(docs.document1m, 'kind', msgpackr),
      rejectSuite(),
    ];
  },
};
