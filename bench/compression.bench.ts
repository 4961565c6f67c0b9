/**
 * Compression (src/server/compression.ts): the CPU a response or request body costs per megabyte in each
 * encoding the server offers, on a realistic body: a finder page of photo records as JSON (~1 MiB), the
 * kind of response that crosses the default 1024-byte threshold by far.
 *
 * Anchor: encoding the same body to JSON bytes (JsonCodec), the work every response pays already; each
 * candidate's ratio says how many times that work compression adds. Facts: ms of CPU per MiB and the
 * compressed size. zlib's synchronous calls do the same work as the server's asynchronous ones (which run
 * on libuv's thread pool, off the event loop, but on the same 2 cores).
 *
 * No goal: the figures are for choosing `threshold`, `level` and the offered encodings.
 */
import * as zlib from 'node:zlib';
import { Data, type DataMap, type JsValue, JsonCodec } from '../src';
import { decodeSnappy, decodeSnappyFramed, encodeSnappy, encodeSnappyFramed } from '../src/protocol/snappy';
import { type BenchFile, keep, type Suite } from './harness';

const json = new JsonCodec();

/** A page of photos as a finder answers it, about `bytes` of JSON. */
function page(bytes: number): DataMap {
  const elements: JsValue[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const photo = {
      id: 1000 + i,
      title: `Photo ${i}: the harbour at dusk, from the east pier`,
      format: i % 3 === 0 ? 'PNG' : 'JPEG',
      takenAt: 1732262400000 + i * 60000,
      location: { latitude: 51.5 + i / 1e4, longitude: -0.12 - i / 1e4 },
      exif: { iso: 100 + (i % 8) * 100, focalLength: 35, camera: `Camera model ${i % 5}` },
      tags: ['harbour', 'dusk', `roll-${i % 12}`],
      status: 'READY',
    };
    size += JSON.stringify(photo).length + 1;
    elements.push(photo);
  }
  return Data.fromJS({ elements, paging: { start: 0, count: elements.length, links: [] } }) as DataMap;
}

function suites(): Suite[] {
  const body = page(1024 * 1024);
  const bytes = json.mapToBytes(body);
  const mib = bytes.length / (1024 * 1024);
  const gzip = zlib.gzipSync(bytes, { level: 6 });
  const deflate = zlib.deflateSync(bytes, { level: 6 });
  const br = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const snappy = encodeSnappy(bytes);
  const framed = encodeSnappyFramed(bytes);
  const pct = (b: Uint8Array): number => Math.round((1000 * b.length) / bytes.length) / 10;
  return [
    {
      title: `Compressing a ${mib.toFixed(2)} MiB JSON response (a finder page of photos)`,
      short: 'compress 1 MiB',
      notes: [
        'anchor: JsonCodec.mapToBytes of the same page (what the response costs without compression)',
        'ms per MiB = mean ms / body MiB; the server uses level 6 for gzip and deflate, quality 4 for br',
        'snappy runs in JavaScript on the event loop (snappyjs blocks, src/protocol/snappy.ts framings); zlib in C',
      ],
      facts: [
        { label: 'body', value: bytes.length, unit: 'bytes' },
        { label: 'gzip size', value: pct(gzip), unit: '% of the body' },
        { label: 'deflate size', value: pct(deflate), unit: '% of the body' },
        { label: 'br size', value: pct(br), unit: '% of the body' },
        { label: 'snappy size', value: pct(snappy), unit: '% of the body' },
        { label: 'x-snappy-framed size', value: pct(framed), unit: '% of the body' },
      ],
      anchor: { name: 'JSON encode', fn: () => keep(json.mapToBytes(body).length) },
      candidates: [
        { name: 'gzip level 6', fn: () => keep(zlib.gzipSync(bytes, { level: 6 }).length) },
        { name: 'gzip level 1', fn: () => keep(zlib.gzipSync(bytes, { level: 1 }).length) },
        { name: 'deflate level 6', fn: () => keep(zlib.deflateSync(bytes, { level: 6 }).length) },
        { name: 'snappy (xerial stream)', fn: () => keep(encodeSnappy(bytes).length) },
        { name: 'x-snappy-framed', fn: () => keep(encodeSnappyFramed(bytes).length) },
        {
          name: 'br quality 4',
          fn: () =>
            keep(
              zlib.brotliCompressSync(bytes, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }).length,
            ),
        },
      ],
    },
    {
      title: `Inflating the same body sent compressed (a request body with Content-Encoding)`,
      short: 'inflate 1 MiB',
      notes: ['anchor: JsonCodec.bytesToMap of the uncompressed body (the decode every request pays)'],
      anchor: { name: 'JSON decode', fn: () => keep(json.bytesToMap(bytes).size) },
      candidates: [
        { name: 'gunzip', fn: () => keep(zlib.gunzipSync(gzip).length) },
        { name: 'inflate', fn: () => keep(zlib.inflateSync(deflate).length) },
        { name: 'brotli decompress', fn: () => keep(zlib.brotliDecompressSync(br).length) },
        { name: 'snappy decode', fn: () => keep(decodeSnappy(snappy, 1 << 30).length) },
        {
          name: 'x-snappy-framed decode (CRC-32C checked)',
          fn: () => keep(decodeSnappyFramed(framed, 1 << 30).length),
        },
      ],
    },
  ];
}

export const benchmark: BenchFile = {
  title:
    'Compression: CPU per MiB of gzip, deflate, snappy, x-snappy-framed and br on a JSON response, against JSON encode/decode',
  suites,
};
