/**
 * Compression over real HTTP, as the reference's compression filters do it: responses compressed as the
 * request's Accept-Encoding negotiates (gzip, deflate, br) above the threshold, a refused identity answered
 * 406; compressed request bodies inflated, an unsupported encoding 415, a corrupt body 400 and a
 * decompression bomb 413 (inflating stops at maxBodyBytes); the typed client asks for and inflates them.
 */
import * as zlib from 'node:zlib';
import {
  InflatedResponseTooLargeError,
  LONG_KEY,
  collection,
  compressedFetch,
  createResourceClient,
} from '../../src';
import { LatLong } from '../generated/fixtures/com/example/photos/LatLong';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { AuditStamp } from '../generated/fixtures/com/example/common/AuditStamp';
import { ChangeTimeStamps } from '../generated/fixtures/com/example/common/ChangeTimeStamps';
import { startServer, type TestServer } from './support/http';
import {
  decodeSnappy,
  decodeSnappyFramed,
  encodeSnappy,
  encodeSnappyFramed,
} from '../../src/protocol/snappy';

const LONG_NAME = 'a photo album with a long name '.repeat(200); // ~6 KB: over the default threshold
let created: Album | undefined;
const STAMP = new AuditStamp().setTime(1).setActor('urn:li:member:1');

const albums = collection({
  name: 'albums',
  key: LONG_KEY,
  value: Album,
  validation: false,
  methods: {
    get: (id) =>
      new Album()
        .setId(id)
        .setName(id === 1 ? 'short' : LONG_NAME)
        .setOwner('urn:li:member:1')
        .setStamps(new ChangeTimeStamps().setCreated(STAMP).setLastModified(STAMP)),
    create: (album) => {
      created = album;
      return { id: 5 };
    },
  },
});
const places = collection({
  name: 'places',
  key: LONG_KEY,
  value: LatLong,
  methods: { get: () => undefined },
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ resources: [albums, places], maxBodyBytes: 64 * 1024 });
});
afterAll(() => server.close());

const inflate = {
  snappy: (b: Uint8Array) => Buffer.from(decodeSnappy(b, 1 << 20)),
  'x-snappy-framed': (b: Uint8Array) => Buffer.from(decodeSnappyFramed(b, 1 << 20)),
  gzip: (b: Uint8Array) => zlib.gunzipSync(b),
  deflate: (b: Uint8Array) => zlib.inflateSync(b),
  br: (b: Uint8Array) => zlib.brotliDecompressSync(b),
};

describe('response compression', () => {
  it.each([
    ['gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['br', 'br'],
    ['snappy', 'snappy'],
    ['x-snappy-framed', 'x-snappy-framed'],
    ['gzip, deflate, br', 'gzip'],
    ['br;q=1, gzip;q=0.5', 'br'],
    ['*', 'gzip'],
  ] as const)('Accept-Encoding: %s gives %s, smaller and the same data', async (accept, encoding) => {
    const plain = await server.request('GET', '/albums/2');
    const r = await server.request('GET', '/albums/2', { headers: { 'accept-encoding': accept } });
    expect({ status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({ status: 200, text: '' });
    expect(r.headers.get('content-encoding')).toBe(encoding);
    expect(r.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(JSON.parse(inflate[encoding](r.bytes).toString())).toEqual(plain.json);
  });

  it.each([
    ['a body under the threshold', '/albums/1', {}],
    ['no Accept-Encoding', '/albums/2', { 'accept-encoding': '' }],
    ['only identity accepted', '/albums/2', { 'accept-encoding': 'identity' }],
    ['an encoding the server lacks', '/albums/2', { 'accept-encoding': 'bzip2' }],
  ] as const)('leaves %s uncompressed', async (_name, url, headers) => {
    const r = await server.request('GET', url, { headers: { 'accept-encoding': 'gzip', ...headers } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBe(null);
    expect(r.json.id).toBeDefined();
  });

  it('compresses a small body when the request lowers the threshold (X-Response-Compression-Threshold)', async () => {
    const r = await server.request('GET', '/albums/1', {
      headers: { 'accept-encoding': 'gzip', 'x-response-compression-threshold': '0' },
    });
    // 58 bytes of JSON gzip to about as many: sent compressed only when smaller
    expect(['gzip', null]).toContain(r.headers.get('content-encoding'));
    const big = await server.request('GET', '/albums/2', {
      headers: { 'accept-encoding': 'gzip', 'x-response-compression-threshold': '100000' },
    });
    expect(big.headers.get('content-encoding')).toBe(null);
  });

  it('answers 406 when every encoding and identity are refused', async () => {
    const r = await server.request('GET', '/albums/2', {
      headers: { 'accept-encoding': 'identity;q=0, *;q=0' },
    });
    expect(r.status).toBe(406);
    expect(r.bytes.length).toBe(0);
  });
});

describe('compressed request bodies', () => {
  const album = { id: 0, name: LONG_NAME, owner: 'urn:li:member:7', stamps: {} };

  it.each([
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
    ['snappy', encodeSnappy],
    ['x-snappy-framed', encodeSnappyFramed],
  ] as const)('reads a %s body', async (encoding, compress) => {
    created = undefined;
    const r = await server.request('POST', '/albums', {
      raw: compress(Buffer.from(JSON.stringify(album))),
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expect(r.status).toBe(201);
    expect((created as Album | undefined)?.getName()).toBe(LONG_NAME);
  });

  it.each([
    [
      'an encoding the server lacks: 415',
      'bzip2',
      Buffer.from('{}'),
      415,
      'Unsupported encoding referenced: bzip2',
    ],
    [
      'a snappy body that does not inflate: 400',
      'x-snappy-framed',
      Buffer.from('not snappy'),
      400,
      'Cannot properly decode stream: x-snappy-framed',
    ],
    [
      'a snappy bomb (a block declaring 1 MiB, past the 64 KiB limit): 413 before decoding',
      'snappy',
      encodeSnappy(Buffer.alloc(1024 * 1024, 0x20)),
      413,
      'Request body is too large',
    ],
    [
      'a framed snappy bomb: 413',
      'x-snappy-framed',
      encodeSnappyFramed(Buffer.alloc(1024 * 1024, 0x20)),
      413,
      'Request body is too large',
    ],
    [
      'a body that does not inflate: 400',
      'gzip',
      Buffer.from('not gzip'),
      400,
      'Cannot properly decode stream: gzip',
    ],
    [
      'a decompression bomb (64 KiB limit, 16 MiB inflated): 413, not 16 MiB of memory',
      'gzip',
      zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20)),
      413,
      'Request body is too large',
    ],
  ] as const)('refuses %s', async (_name, encoding, raw, status, message) => {
    const r = await server.request('POST', '/albums', {
      raw,
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expect({ status: r.status, message: r.json?.message }).toEqual({ status, message });
  });
});

describe('the typed client with compressedFetch', () => {
  it('asks for compressed responses, inflates them, and gzips large request bodies', async () => {
    const seen: string[] = [];
    const client = createResourceClient(
      {
        baseUrl: server.base,
        fetch: compressedFetch(async (url, init) => {
          const r = await server.fetch(url, init);
          r.headers.forEach((v, n) => {
            if (n === 'content-encoding') seen.push(v);
          });
          seen.push(`sent ${init.headers['content-encoding'] ?? 'identity'}`);
          return r;
        }),
      },
      { albums },
    );
    const got = await client.albums.get(2);
    expect(got.entity.getName()).toBe(LONG_NAME);
    created = undefined;
    await client.albums.create(
      new Album().setId(0).setName(LONG_NAME).setOwner('urn:li:member:7').setStamps(new ChangeTimeStamps()),
    );
    expect((created as Album | undefined)?.getName()).toBe(LONG_NAME);
    expect(seen).toEqual(['gzip', 'sent identity', 'sent gzip']);
  });
});

describe('compressedFetch with the snappy encodings and an inflated-size cap', () => {
  it.each(['snappy', 'x-snappy-framed'] as const)(
    'asks for and inflates %s, and sends large bodies in it',
    async (encoding) => {
      const seen: string[] = [];
      const client = createResourceClient(
        {
          baseUrl: server.base,
          fetch: compressedFetch(
            async (url, init) => {
              const r = await server.fetch(url, init);
              r.headers.forEach((v, n) => {
                if (n === 'content-encoding') seen.push(v);
              });
              seen.push(`sent ${init.headers['content-encoding'] ?? 'identity'}`);
              return r;
            },
            { accept: [encoding], requestEncoding: encoding },
          ),
        },
        { albums },
      );
      expect((await client.albums.get(2)).entity.getName()).toBe(LONG_NAME);
      created = undefined;
      await client.albums.create(
        new Album().setId(0).setName(LONG_NAME).setOwner('urn:li:member:7').setStamps(new ChangeTimeStamps()),
      );
      expect((created as Album | undefined)?.getName()).toBe(LONG_NAME);
      expect(seen).toEqual([encoding, 'sent identity', `sent ${encoding}`]);
    },
  );

  it.each(['gzip', 'deflate', 'snappy', 'x-snappy-framed'] as const)(
    'refuses a %s response that inflates past maxInflatedBytes with a typed error',
    async (encoding) => {
      const client = createResourceClient(
        {
          baseUrl: server.base,
          fetch: compressedFetch(server.fetch, { accept: [encoding], maxInflatedBytes: 2048 }),
        },
        { albums },
      );
      const error = await client.albums.get(2).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(InflatedResponseTooLargeError);
      expect((error as InflatedResponseTooLargeError).code).toBe('SVC_ERR_CLIENT_INFLATED_TOO_LARGE');
      // a body under the cap still inflates
      expect((await client.albums.get(1)).entity.getName()).toBe('short');
    },
  );
});
