/**
 * CORS on the standalone server (`createSvcServer({ cors })`, src/server/cors.ts), over real HTTP: a
 * preflight is answered 204 before any resource, an allowed origin's requests (errors included) carry the
 * CORS headers, a refused origin gets none. The fastify side is @fastify/cors (test/client/browser-client).
 */
import type http from 'node:http';
import {
  LONG_KEY,
  SvcPluginOptionsError,
  type SvcCorsOptions,
  collection,
  createSvcServer,
  listenOn,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { rawRequest } from './support/http';
import { makePhoto } from './support/photos';

const PAGE = 'http://app.example.test';
let served = 0;
const items = collection({
  name: 'items',
  key: LONG_KEY,
  value: Photo,
  methods: {
    get: () => {
      served++;
      return makePhoto(1, 'Sunrise', PhotoFormat.JPEG);
    },
    create: () => ({ id: 2 }),
  },
});

const servers: http.Server[] = [];
let listed: number; // origins listed, with credentials
let any: number; // origin '*'

beforeAll(async () => {
  const start = async (cors: SvcCorsOptions): Promise<number> => {
    const server = createSvcServer({ resources: [items], cors, compression: { threshold: 1 } });
    servers.push(server);
    return (await listenOn(server)).port;
  };
  listed = await start({ origin: [PAGE, 'http://other.example.test'], credentials: true });
  any = await start({ origin: '*', maxAge: 0, exposedHeaders: ['X-Svc-Id'] });
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const preflight = (origin: string): Record<string, string> => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type, x-svc-protocol-version, x-svc-method',
});

describe('CORS on the standalone server', () => {
  it('answers a preflight from an allowed origin with 204 before any resource', async () => {
    const before = served;
    const r = await rawRequest(listed, 'OPTIONS', '/items/1', { headers: preflight(PAGE) });
    expect(served).toBe(before);
    expect({
      status: r.status,
      body: r.text,
      origin: r.headers.get('access-control-allow-origin'),
      credentials: r.headers.get('access-control-allow-credentials'),
      methods: r.headers.get('access-control-allow-methods'),
      headers: r.headers.get('access-control-allow-headers'),
      maxAge: r.headers.get('access-control-max-age'),
      vary: r.headers.get('vary'),
    }).toEqual({
      status: 204,
      body: '',
      origin: PAGE,
      credentials: 'true',
      methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
      headers: 'content-type, x-svc-protocol-version, x-svc-method',
      maxAge: '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });
  });

  it("still answers a resource's OPTIONS (no Access-Control-Request-Method) with its description", async () => {
    const r = await rawRequest(listed, 'OPTIONS', '/items', { headers: { origin: PAGE } });
    expect([r.status, r.headers.get('access-control-allow-origin')]).toEqual([200, PAGE]);
    expect(JSON.stringify(r.json)).toContain('items');
  });

  it.each([
    ['a get', 'GET', '/items/1', 200],
    ['a create (Location, X-Svc-Id)', 'POST', '/items', 201],
    ['an error (404 ErrorResponse)', 'GET', '/nothing/1', 404],
  ])('puts the CORS headers on %s of an allowed origin', async (_what, method, target, status) => {
    const r = await rawRequest(listed, method, target, {
      headers: { origin: PAGE },
      ...(method === 'POST'
        ? {
            json: {
              id: 2,
              title: 't',
              format: 'JPEG',
              time: 1,
              actor: 'urn:li:member:1',
              urn: 'urn:li:photo:2',
            },
          }
        : {}),
    });
    expect({
      status: r.status,
      origin: r.headers.get('access-control-allow-origin'),
      credentials: r.headers.get('access-control-allow-credentials'),
      exposed: r.headers.get('access-control-expose-headers'),
      vary: r.headers.get('vary'),
    }).toEqual({
      status,
      origin: PAGE,
      credentials: 'true',
      exposed:
        'X-Svc-Protocol-Version, X-Svc-Id, X-Svc-Error-Response, X-Svc-Method, Location, Content-Encoding',
      vary: 'Origin',
    });
  });

  it("keeps Vary: Origin beside compression's Vary: Accept-Encoding", async () => {
    const r = await rawRequest(listed, 'GET', '/items/1', {
      headers: { origin: PAGE, 'accept-encoding': 'gzip' },
    });
    expect([r.headers.get('content-encoding'), r.headers.get('vary')]).toEqual([
      'gzip',
      'Origin, Accept-Encoding',
    ]);
  });

  it('refuses the preflight of an origin not allowed (403, no CORS header) and serves its requests without CORS headers', async () => {
    const before = served;
    const pre = await rawRequest(listed, 'OPTIONS', '/items/1', { headers: preflight('http://evil.test') });
    expect([pre.status, pre.headers.get('access-control-allow-origin'), served]).toEqual([403, null, before]);
    const get = await rawRequest(listed, 'GET', '/items/1', { headers: { origin: 'http://evil.test' } });
    expect([get.status, get.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    const plain = await rawRequest(listed, 'GET', '/items/1');
    expect([plain.status, plain.headers.get('access-control-allow-origin')]).toEqual([200, null]);
  });

  it("answers any origin with '*' (no Vary, no Max-Age at 0, the exposed headers given)", async () => {
    const pre = await rawRequest(any, 'OPTIONS', '/items/1', { headers: preflight('http://x.test') });
    expect([
      pre.status,
      pre.headers.get('access-control-allow-origin'),
      pre.headers.get('access-control-max-age'),
      pre.headers.get('vary'),
    ]).toEqual([204, '*', null, null]);
    const get = await rawRequest(any, 'GET', '/items/1', { headers: { origin: 'http://y.test' } });
    expect([
      get.headers.get('access-control-allow-origin'),
      get.headers.get('access-control-expose-headers'),
    ]).toEqual(['*', 'X-Svc-Id']);
  });

  it.each<[string, unknown]>([
    ['an empty origin list', { origin: [] }],
    ['an origin that is not a string', { origin: [42] }],
    ['a negative maxAge', { origin: '*', maxAge: -1 }],
    ['a header name with a space', { origin: '*', exposedHeaders: ['X Bad'] }],
    ['credentials that are not a boolean', { origin: '*', credentials: 'yes' }],
  ])('refuses %s', (_what, cors) => {
    expect(() => createSvcServer({ resources: [items], cors: cors as SvcCorsOptions })).toThrow(
      SvcPluginOptionsError,
    );
  });
});
