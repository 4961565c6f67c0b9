/**
 * Issue 26, "a Rest.li client works against a default Svc server": a server as it comes reads both header
 * families (`X-Svc-*` and Rest.li's `X-RestLi-*`) and answers each request in the family it used, for every
 * method; a request in neither family gets the configured one. Requests are written from the wire facts
 * (a Rest.li client sends `X-RestLi-Protocol-Version: 2.0.0` and, on POST, `X-RestLi-Method`).
 */
import { type TestServer, startServer } from './support/http';
import { photoService } from './support/photos';

type Family = 'x-svc' | 'x-restli';

interface Call {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** The resource method, sent in the method header (POST overloads need it). */
  readonly restMethod?: string;
  readonly json?: unknown;
  readonly status: number;
  /** The response carries an id header. */
  readonly id?: string;
  /** The response is an error response. */
  readonly error?: boolean;
}

const CALLS: readonly Call[] = [
  { name: 'get', method: 'GET', path: '/photos/1', status: 200 },
  { name: 'get of a missing entity', method: 'GET', path: '/photos/404', status: 404, error: true },
  { name: 'batch_get', method: 'GET', path: '/photos?ids=List(1,2)', status: 200 },
  { name: 'finder', method: 'GET', path: '/photos?q=search&title=x', status: 200 },
  { name: 'get_all', method: 'GET', path: '/photos', status: 200 },
  {
    name: 'create',
    method: 'POST',
    path: '/photos',
    restMethod: 'create',
    json: { title: 'new', format: 'PNG' },
    status: 201,
    id: '100',
  },
  {
    name: 'batch_create (its method header is what makes it one)',
    method: 'POST',
    path: '/photos',
    restMethod: 'BATCH_CREATE',
    json: { elements: [{ title: 'a', format: 'PNG' }] },
    status: 200,
  },
  {
    name: 'update',
    method: 'PUT',
    path: '/photos/1',
    json: { title: 'changed', format: 'PNG' },
    status: 204,
  },
  {
    name: 'partial_update',
    method: 'POST',
    path: '/photos/2',
    restMethod: 'partial_update',
    json: { patch: { $set: { title: 'patched' } } },
    status: 200,
  },
  { name: 'delete', method: 'DELETE', path: '/photos/2', status: 204 },
  {
    name: 'action',
    method: 'POST',
    path: '/photos?action=count',
    restMethod: 'action',
    json: {},
    status: 200,
  },
  {
    name: 'a malformed key',
    method: 'GET',
    path: '/photos/notanumber',
    status: 400,
    error: true,
  },
];

function headersOf(family: Family | 'neither', restMethod: string | undefined): Record<string, string> {
  // the test client adds X-Svc-Protocol-Version unless told to leave it out with ''
  if (family === 'neither') return { 'x-svc-protocol-version': '' };
  const h: Record<string, string> = { [`${family}-protocol-version`]: '2.0.0' };
  if (family === 'x-restli') h['x-svc-protocol-version'] = '';
  if (restMethod !== undefined) h[`${family}-method`] = restMethod;
  return h;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a default server', () => {
  for (const family of ['x-restli', 'x-svc'] as const) {
    const other = family === 'x-svc' ? 'x-restli' : 'x-svc';
    for (const call of CALLS) {
      it(`answers a ${call.name} sent with ${family}-* headers in that family`, async () => {
        server = await startServer({ resources: [photoService().resource], validation: false });
        const r = await server.request(call.method, call.path, {
          headers: headersOf(family, call.restMethod),
          ...(call.json === undefined ? {} : { json: call.json }),
        });
        expect(r.status).toBe(call.status);
        expect(r.headers.get(`${family}-protocol-version`)).toBe('2.0.0');
        expect(r.headers.get(`${other}-protocol-version`)).toBeNull();
        if (call.id !== undefined) {
          expect(r.headers.get(`${family}-id`)).toBe(call.id);
          expect(r.headers.get(`${other}-id`)).toBeNull();
        }
        if (call.error === true) {
          expect(r.headers.get(`${family}-error-response`)).toBe('true');
          expect(r.headers.get(`${other}-error-response`)).toBeNull();
        }
      });
    }
  }

  it('answers a request in neither family in the configured one (protocol 1.0.0, as no version was sent)', async () => {
    server = await startServer({ resources: [photoService().resource], validation: false });
    const r = await server.request('POST', '/photos', {
      headers: headersOf('neither', undefined),
      json: { title: 'new', format: 'PNG' },
    });
    expect([r.status, r.headers.get('x-svc-protocol-version'), r.headers.get('x-svc-id')]).toEqual([
      201,
      '1.0.0',
      '100',
    ]);
  });

  it('reads one family only when acceptLegacyHeaderPrefix is false: a Rest.li batch_create is then a create', async () => {
    server = await startServer({
      resources: [photoService().resource],
      acceptLegacyHeaderPrefix: false,
      validation: false,
    });
    const r = await server.request('POST', '/photos', {
      headers: headersOf('x-restli', 'BATCH_CREATE'),
      json: { elements: [{ title: 'a', format: 'PNG' }] },
    });
    expect(r.headers.get('x-svc-protocol-version')).toBe('1.0.0');
    expect(r.headers.get('x-restli-protocol-version')).toBeNull();
  });
});
