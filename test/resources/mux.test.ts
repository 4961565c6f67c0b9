/**
 * Multiplexed requests (`POST /mux`, the reference's multiplexer) over real HTTP: individual requests run
 * through the whole pipeline and are answered each with its own status, headers and body; dependent
 * requests after their parent; the reference's limits and errors; Svc's refusals (nested mux, attachments,
 * an individual body over its limit); the envelope compressed as a whole; a client hanging up stops what
 * is queued and aborts what runs.
 */
import http from 'node:http';
import * as zlib from 'node:zlib';
import {
  LONG_KEY,
  RequestBuildError,
  ServiceResponseError,
  type RequestFilter,
  ServiceError,
  collection,
  getHeader,
  createResourceClient,
  mux as muxCalls,
  muxDescriptions,
  nodeHttpFetch,
} from '../../src';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { startServer, type TestServer } from './support/http';

const LONG_NAME = 'a photo album with a long name '.repeat(200); // ~6 KB
const store = new Map<number, Album>();
const album = (id: number, name: string): Album =>
  new Album().setId(id).setName(name).setOwner('urn:li:member:1');

const albums = collection({
  name: 'albums',
  key: LONG_KEY,
  value: Album,
  validation: false,
  methods: {
    get: (id) => store.get(Number(id)),
    // answers a few turns of the event loop later, so that a dependent request racing it would miss it
    create: async (a) => {
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      store.set(Number(a.getId()), a);
      return { id: a.getId() };
    },
    batchCreate: (list) =>
      list.map((a) => {
        store.set(Number(a.getId()), a);
        return { id: a.getId() };
      }),
    batchGet: (ids) =>
      new Map(ids.filter((id) => store.has(Number(id))).map((id) => [id, store.get(Number(id))!])),
  },
});

/** Handlers that wait until their request is cancelled, noting starts and aborts. */
const slow = { started: 0, aborted: 0, onStart: [] as Array<() => void>, onAbort: [] as Array<() => void> };
const hanging = collection({
  name: 'hanging',
  key: LONG_KEY,
  value: Album,
  methods: {
    get: (_id, ctx) =>
      new Promise<Album>((_resolve, reject) => {
        slow.started++;
        for (const f of slow.onStart.splice(0)) f();
        ctx.signal.addEventListener('abort', () => {
          slow.aborted++;
          for (const f of slow.onAbort.splice(0)) f();
          reject(ctx.signal.reason as Error);
        });
      }),
  },
});

/** A server filter standing for a guard: it sees every request and refuses one that asks it to. */
const filtered: string[] = [];
const guard: RequestFilter = {
  name: 'test-guard',
  request: (r) => {
    filtered.push(`${r.method} ${r.path}`);
    const cookie = getHeader(r.headers, 'cookie');
    if (cookie !== undefined) filtered.push(`cookie ${cookie}`);
    if (getHeader(r.headers, 'x-test-deny') !== undefined) throw new ServiceError(401, 'denied by the guard');
    return r;
  },
  // a cookie set by an individual response goes on the envelope
  response: (res, req) =>
    req.path === '/albums/1' ? { ...res, headers: { ...res.headers, 'set-cookie': 'seen=1; Path=/' } } : res,
};

let server: TestServer;
beforeAll(async () => {
  store.set(1, album(1, 'one'));
  store.set(2, album(2, LONG_NAME));
  server = await startServer({
    resources: [albums, hanging],
    maxBodyBytes: 64 * 1024,
    mux: { concurrency: 2, maxIndividualBodyBytes: 4096, allowedHeaders: ['X-Test-Deny'] },
    filters: [guard],
  });
});
afterAll(() => server.close());

const RESTLI = { 'x-restli-protocol-version': '2.0.0', 'x-svc-protocol-version': '' };
const mux = (requests: unknown, headers: Record<string, string> = {}) =>
  server.request('POST', '/mux', { json: { requests }, headers: { ...RESTLI, ...headers } });
/** An individual response header, by name in any case (the reference's maps compare names so). */
const header = (r: { headers: Record<string, string> }, name: string): string | undefined =>
  Object.entries(r.headers).find(([k]) => k.toLowerCase() === name)?.[1];
const get = (relativeUrl: string, extra: object = {}) => ({ method: 'GET', relativeUrl, ...extra });

describe('POST /mux', () => {
  it('answers each individual request with its own status, headers and body, a failing one beside the others', async () => {
    const r = await mux({
      a: get('/albums/1'),
      b: get('albums/404'), // relative without a slash, as the reference's client writes it
      c: get('/albums?ids=List(1,2,3)'),
      d: get('/nowhere/1'),
      h: { method: 'HEAD', relativeUrl: '/albums/1' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    const { a, b, c, d, h } = r.json.responses;
    // HEAD: the status and headers of the GET, no body
    expect({ status: h.status, body: h.body }).toEqual({ status: 200, body: undefined });
    expect(a).toEqual({
      status: 200,
      headers: expect.objectContaining({
        'content-type': 'application/json',
        'x-restli-protocol-version': '2.0.0',
      }),
      body: { id: 1, name: 'one', owner: 'urn:li:member:1' },
    });
    expect(b.status).toBe(404);
    expect(header(b, 'x-restli-error-response')).toBe('true');
    expect(b.body.status).toBe(404);
    expect(c.status).toBe(200);
    expect(Object.keys(c.body.results).sort()).toEqual(['1', '2']);
    expect(d.status).toBe(404);
    // framing headers stay on the envelope
    for (const x of [a, b, c, d])
      expect(Object.keys(x.headers).map((h) => h.toLowerCase())).not.toContain('content-length');
  });

  it('runs dependent requests after their parent, with bodies carried as data', async () => {
    const r = await mux({
      create: {
        method: 'POST',
        relativeUrl: '/albums',
        body: { id: 7, name: 'seven', owner: 'urn:li:member:7' },
        dependentRequests: { read: get('/albums/7') },
      },
    });
    expect(r.json.responses.create.status).toBe(201);
    expect(header(r.json.responses.create, 'x-restli-id')).toBe('7');
    expect(r.json.responses.read).toEqual(
      expect.objectContaining({ status: 200, body: expect.objectContaining({ name: 'seven' }) }),
    );
  });

  it('lets the method header through (batch methods) and refuses other individual headers', async () => {
    const r = await mux({
      batch: {
        method: 'POST',
        relativeUrl: '/albums',
        headers: { 'X-RestLi-Method': 'BATCH_CREATE' },
        body: { elements: [{ id: 8, name: 'eight', owner: 'urn:li:member:8' }] },
      },
      refused: get('/albums/1', { headers: { 'X-Forwarded-For': '10.0.0.1' } }),
    });
    expect(r.json.responses.batch).toEqual(
      expect.objectContaining({
        status: 200,
        body: { elements: [expect.objectContaining({ id: '8', status: 201 })] },
      }),
    );
    expect(r.json.responses.refused.status).toBe(400);
    expect(r.json.responses.refused.body.message).toBe(
      'Request header X-Forwarded-For is not allowed in the individual request.',
    );
  });

  it('runs every individual request through the server filters (a guard refusing one), not the envelope', async () => {
    filtered.length = 0;
    const r = await mux(
      {
        ok: get('/albums/1'),
        denied: get('/albums/2', { headers: { 'x-test-deny': '1' } }), // an allowed header (mux.allowedHeaders)
      },
      { cookie: 'session=abc' },
    );
    // the envelope's cookies reach each individual request; the cookies they set come back on the envelope
    expect(filtered.sort()).toEqual([
      'GET /albums/1',
      'GET /albums/2',
      'cookie session=abc',
      'cookie session=abc',
    ]);
    expect(r.headers.get('set-cookie')).toBe('seen=1; Path=/');
    expect(Object.keys(r.json.responses.ok.headers).map((h) => h.toLowerCase())).not.toContain('set-cookie');
    expect(r.json.responses.ok.status).toBe(200);
    expect({ status: r.json.responses.denied.status, message: r.json.responses.denied.body.message }).toEqual(
      {
        status: 401,
        message: 'denied by the guard',
      },
    );
  });

  it.each([
    [
      'a nested /mux',
      { method: 'POST', relativeUrl: '/mux', body: { requests: {} } },
      400,
      'Nested multiplexed requests are not allowed (request id=x)',
    ],
    [
      'an individual body over its limit',
      { method: 'POST', relativeUrl: '/albums', body: { id: 9, name: LONG_NAME, owner: 'o' } },
      413,
      'Request body is too large',
    ],
    [
      'a multipart individual request',
      {
        method: 'POST',
        relativeUrl: '/albums',
        headers: { 'Content-Type': 'multipart/related; boundary=x' },
        body: {},
      },
      400,
      'Request header Content-Type is not allowed in the individual request.',
    ],
    [
      'a method that is not a token',
      { method: 'GE T', relativeUrl: '/albums/1' },
      400,
      'Invalid method for request id=x: GE T',
    ],
    [
      'an absolute URL',
      { method: 'GET', relativeUrl: 'http://elsewhere/albums/1' },
      400,
      'Invalid relativeUrl for request id=x: an individual request names a path, not a URL',
    ],
  ])('answers %s in its individual response, the others still served', async (_name, x, status, message) => {
    const r = await mux({ x, ok: get('/albums/1') });
    expect(r.status).toBe(200);
    expect(r.json.responses.ok.status).toBe(200);
    expect({ status: r.json.responses.x.status, message: r.json.responses.x.body?.message }).toEqual({
      status,
      message,
    });
  });

  it('answers an unknown method as the pipeline answers it on its own', async () => {
    const alone = await server.request('BREW', '/albums/1', { headers: RESTLI }).catch(() => undefined);
    const r = await mux({ x: { method: 'BREW', relativeUrl: '/albums/1' } });
    expect(r.json.responses.x.status).toBeGreaterThanOrEqual(400);
    expect(r.json.responses.x.status).toBeLessThan(500);
    if (alone !== undefined && alone.status >= 400) expect(r.json.responses.x.status).toBe(alone.status);
  });

  it.each([
    ['no requests', { requests: {} }, 400, 'No individual requests to process'],
    [
      'more requests than maxRequests (dependent ones counted)',
      {
        requests: Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [
            String(i),
            get('/albums/1', i === 0 ? { dependentRequests: { d: get('/albums/1') } } : {}),
          ]),
        ),
      },
      400,
      'The server is configured to serve up to 20 requests, but received 21',
    ],
    [
      'an envelope without requests',
      { calls: {} },
      400,
      "Invalid multiplexed request: 'requests' is required",
    ],
    [
      'requests that are not a map',
      { requests: [1] },
      400,
      "Invalid multiplexed request: 'requests' is not a map",
    ],
    [
      'a request without relativeUrl',
      { requests: { a: { method: 'GET' } } },
      400,
      "Invalid multiplexed request: 'requests/a/relativeUrl' is required",
    ],
    [
      'an id used twice',
      { requests: { a: get('/albums/1', { dependentRequests: { a: get('/albums/1') } }) } },
      400,
      "Invalid multiplexed request: the id 'a' is used twice",
    ],
  ])('refuses %s as a whole', async (_name, json, status, message) => {
    const r = await server.request('POST', '/mux', { json, headers: RESTLI });
    expect({ status: r.status, message: r.json?.message }).toEqual({ status, message });
    expect(r.headers.get('x-restli-error-response')).toBe('true');
  });

  it.each([
    ['a GET', 'GET', undefined, {}, 405, 'Invalid method'],
    [
      'malformed JSON',
      'POST',
      '{"requests": {',
      { 'content-type': 'application/json' },
      400,
      'Invalid multiplexed request: the body is not a MultiplexedRequestContent',
    ],
    [
      'a multipart/related envelope',
      'POST',
      '--x\r\n\r\n{}\r\n--x--',
      { 'content-type': 'multipart/related; boundary=x' },
      400,
      'Invalid multiplexed request: a MultiplexedRequestContent carries no attachments',
    ],
    [
      'a content type no codec reads',
      'POST',
      'a=b',
      { 'content-type': 'text/plain' },
      415,
      'Unsupported content type for a multiplexed request: text/plain',
    ],
  ])('refuses %s', async (_name, method, raw, headers, status, message) => {
    const r = await server.request(method, '/mux', {
      ...(raw === undefined ? {} : { raw }),
      headers: { ...RESTLI, ...headers },
    });
    expect({ status: r.status, message: r.json?.message }).toEqual({ status, message });
  });

  it('compresses the envelope as a whole, never the parts', async () => {
    const r = await mux({ big: get('/albums/2'), small: get('/albums/1') }, { 'accept-encoding': 'gzip' });
    expect(r.headers.get('content-encoding')).toBe('gzip');
    const json = JSON.parse(zlib.gunzipSync(r.bytes).toString());
    expect(json.responses.big.body.name).toBe(LONG_NAME);
    expect(Object.keys(json.responses.big.headers).map((h) => h.toLowerCase())).not.toContain(
      'content-encoding',
    );
  });

  it('stops when the client hangs up: queued requests never start, running ones are cancelled', async () => {
    slow.started = 0;
    slow.aborted = 0;
    const twoStarted = new Promise<void>((resolve) => {
      slow.onStart.push(() => slow.onStart.push(resolve));
    });
    const twoAborted = new Promise<void>((resolve) => {
      slow.onAbort.push(() => slow.onAbort.push(resolve));
    });
    const body = JSON.stringify({
      requests: { a: get('/hanging/1'), b: get('/hanging/2'), c: get('/hanging/3') },
    });
    const port = Number(new URL(server.base).port);
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/mux',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    });
    req.on('error', () => undefined);
    req.end(body);
    await twoStarted; // concurrency 2: the third waits for a slot
    // a reset, not a FIN: a FIN after a whole POST body is a half-close, which the server answers (issue 22)
    req.socket?.resetAndDestroy();
    await twoAborted;
    // a full exchange afterwards: the third would have started by now if the envelope had gone on
    expect((await server.request('GET', '/albums/1')).status).toBe(200);
    expect({ started: slow.started, aborted: slow.aborted }).toEqual({ started: 2, aborted: 2 });
  });

  it('is off with mux: false (an unknown resource)', async () => {
    const off = await startServer({ resources: [albums], mux: false });
    try {
      const r = await off.request('POST', '/mux', { json: { requests: { a: get('/albums/1') } } });
      expect(r.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('the typed mux builder', () => {
  const exchanges: string[] = [];
  const client = () =>
    createResourceClient(
      {
        baseUrl: server.base,
        fetch: async (url, init) => {
          exchanges.push(`${init.method} ${new URL(url).pathname}`);
          return nodeHttpFetch(url, init);
        },
      },
      { albums },
    );

  it('sends typed calls as one HTTP request and gives each its typed answer or typed error', async () => {
    exchanges.length = 0;
    const api = client();
    const [one, missing, batch, created] = await muxCalls(api, { albums }, (m) => [
      m.albums.get(1),
      m.albums.get(404),
      m.albums.batchGet([1, 2]),
      m.albums.batchCreate([album(20, 'twenty')]),
    ]);
    expect(exchanges).toEqual(['POST /mux']);
    // typed: EntityResponse<Album>, BatchEntityResponse<..., Album>, BatchCreateResponse<...>
    expect(one.ok && one.value.entity.getName()).toBe('one');
    expect(missing.ok ? undefined : (missing.error as ServiceResponseError).status).toBe(404);
    expect(missing.ok ? undefined : missing.error).toBeInstanceOf(ServiceResponseError);
    expect(batch.ok && batch.value.results.get(2)?.getName()).toBe(LONG_NAME);
    expect(created.ok && created.value.elements.map((e) => e.status)).toEqual([201]);
  });

  it('runs calls one after the other when asked (dependent requests)', async () => {
    const api = client();
    const [made, read] = await muxCalls(
      api,
      { albums },
      (m) => [m.albums.create(album(21, 'twenty-one')), m.albums.get(21)],
      { sequential: true },
    );
    expect(made.ok && made.value.id).toBe(21);
    expect(read.ok && read.value.entity.getName()).toBe('twenty-one');
  });

  it('takes request descriptions too, and refuses an empty list', async () => {
    const api = client();
    const [r] = await muxDescriptions(api, [{ method: 'get', resource: 'albums', key: 1, template: Album }]);
    expect(r.ok && r.value.entity.getName()).toBe('one');
    await expect(muxDescriptions(api, [])).rejects.toBeInstanceOf(RequestBuildError);
  });

  it("gives every call the envelope's error when the envelope is refused", async () => {
    const api = client();
    const outcomes = await muxCalls(api, { albums }, (m) =>
      Array.from({ length: 21 }, () => m.albums.get(1)),
    );
    expect(outcomes.every((o) => !o.ok && (o.error as ServiceResponseError).status === 400)).toBe(true);
  });
});
