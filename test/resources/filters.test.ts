/**
 * The filter hook points of the request path: request filters rewrite the raw request before routing (as
 * tunneling will), invocation filters see the bound call (as validation does), response filters see every
 * response, errors included. Filters may be asynchronous and fail a request by throwing.
 */
import { delay, map, of } from 'rxjs';
import {
  LONG_KEY,
  ServiceError,
  collection,
  getHeader,
  type RequestFilter,
  type ResourceRequest,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { makePhoto } from './support/photos';
import { startServer } from './support/http';

const USER = Symbol('user');

/** A toy version of query tunneling: POST + X-HTTP-Method-Override with the query in a form body. */
const tunnel: RequestFilter = {
  name: 'tunnel',
  request: (req: ResourceRequest): ResourceRequest => {
    const override = getHeader(req.headers, 'x-http-method-override');
    if (override === undefined || req.method !== 'POST') return req;
    const query = Buffer.from(req.body ?? new Uint8Array()).toString('latin1');
    return { ...req, method: override, query, url: `${req.path}?${query}`, body: undefined };
  },
};

/** Authenticates from a header, asynchronously, and attaches the user for handlers. */
const auth: RequestFilter = {
  name: 'auth',
  request: (req) =>
    Promise.resolve().then(() => {
      const user = getHeader(req.headers, 'x-user');
      if (user === 'mallory') throw new ServiceError(401, 'who are you?');
      return { ...req, attributes: new Map([...req.attributes, [USER, user ?? 'anonymous']]) };
    }),
};

const order: string[] = [];
const stamp = (name: string): RequestFilter => ({
  name,
  response: (res) => {
    order.push(name);
    return { ...res, headers: { ...res.headers, [`x-${name}`]: String(res.status) } };
  },
});

/** Refuses deletes of photo 1, as an Observable. */
const guard: RequestFilter = {
  name: 'guard',
  invocation: (inv) =>
    of(inv).pipe(
      delay(1),
      map((i) => {
        if (i.method === 'get' && i.input.key === 1 && i.ctx.attributes.get(USER) !== 'alice')
          throw new ServiceError(403, 'alice only');
        return i;
      }),
    ),
};

const photos = collection({
  name: 'photos',
  key: LONG_KEY,
  value: Photo,
  filters: [guard, stamp('resource')],
  methods: {
    get: (id, ctx) => makePhoto(id, String(ctx.attributes.get(USER))),
    batchGet: (ids) => new Map(ids.map((id) => [id, makePhoto(id, 'b')] as const)),
  },
});

const others = collection({
  name: 'others',
  key: LONG_KEY,
  value: Photo,
  methods: { get: (id) => makePhoto(id, 'o') },
});

describe('filters', () => {
  it('run request, invocation and response stages, resource filters after the server’s', async () => {
    const s = await startServer({ resources: [photos, others], filters: [tunnel, auth, stamp('server')] });
    try {
      order.length = 0;
      const r = await s.request('GET', '/photos/2', { headers: { 'x-user': 'bob' } });
      expect(r.json.title).toBe('bob');
      expect(r.headers.get('x-server')).toBe('200');
      expect(r.headers.get('x-resource')).toBe('200');
      expect(order).toEqual(['resource', 'server']);

      const tunneled = await s.request('POST', '/photos', {
        raw: 'ids=List(1,2)',
        headers: { 'x-http-method-override': 'GET', 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(tunneled.status).toBe(200);
      expect(Object.keys(tunneled.json.results)).toEqual(['1', '2']);

      const forbidden = await s.request('GET', '/photos/1', { headers: { 'x-user': 'bob' } });
      expect(forbidden.status).toBe(403);
      expect(forbidden.json.message).toBe('alice only');
      expect(forbidden.headers.get('x-resource')).toBe('403');
      expect((await s.request('GET', '/photos/1', { headers: { 'x-user': 'alice' } })).status).toBe(200);

      const unauthenticated = await s.request('GET', '/others/1', { headers: { 'x-user': 'mallory' } });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('x-server')).toBe('401');
      expect(unauthenticated.headers.get('x-resource')).toBeNull();

      const other = await s.request('GET', '/others/1');
      expect(other.headers.get('x-resource')).toBeNull();
      expect(other.headers.get('x-server')).toBe('200');
    } finally {
      await s.close();
    }
  });

  it('runs a request stage with requestOnlyWith only for requests carrying that header', async () => {
    const seen: string[] = [];
    const marker = (name: string, only?: string): RequestFilter => ({
      name,
      requestOnlyWith: only,
      request: (req) => {
        seen.push(`${name} ${req.path}`);
        return req;
      },
    });
    const s = await startServer({
      resources: [others],
      filters: [marker('gated', 'x-trace-me'), marker('always'), marker('gated-too', 'x-other')],
    });
    try {
      const cases: ReadonlyArray<[Record<string, string>, string[]]> = [
        [{}, ['always /others/1']],
        [{ 'x-trace-me': '1' }, ['gated /others/1', 'always /others/1']],
        [{ 'X-Other': 'y' }, ['always /others/1', 'gated-too /others/1']],
        [
          { 'x-trace-me': '', 'x-other': 'y' },
          ['gated /others/1', 'always /others/1', 'gated-too /others/1'],
        ],
      ];
      for (const [headers, expected] of cases) {
        seen.length = 0;
        const r = await s.request('GET', '/others/1', { headers });
        expect(r.status).toBe(200);
        expect(seen).toEqual(expected);
      }
    } finally {
      await s.close();
    }
  });

  it('answers a bare 500 when a response filter itself fails', async () => {
    const broken: RequestFilter = { name: 'broken', response: () => Promise.reject(new Error('filter bug')) };
    const s = await startServer({ resources: [others], filters: [broken] });
    try {
      const r = await s.request('GET', '/others/1');
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ status: 500, message: 'INTERNAL SERVER ERROR' });
      expect((await s.request('GET', '/others/1')).status).toBe(500);
    } finally {
      await s.close();
    }
  });

  it.each<[string, Record<string, unknown>, number, string | undefined]>([
    [
      'writes a value beyond Latin-1 as UTF-8 bytes',
      { 'x-note': '東京' },
      200,
      '\u00e6\u009d\u00b1\u00e4\u00ba\u00ac',
    ],
    [
      'escapes line breaks rather than split the header',
      { 'x-note': 'a\r\nx-evil: 1' },
      200,
      'a%0D%0Ax-evil: 1',
    ],
    ['fails a header name that is not a token with a 500 ErrorResponse', { 'x bad': 'v' }, 500, undefined],
    ['fails a value that is not a string with a 500 ErrorResponse', { 'x-note': 42 }, 500, undefined],
  ])('a response filter’s headers: %s', async (_name, extra, status, note) => {
    const add: RequestFilter = {
      name: 'add',
      response: (res) => ({ ...res, headers: { ...res.headers, ...(extra as Record<string, string>) } }),
    };
    const s = await startServer({ resources: [others], filters: [add] });
    try {
      const r = await s.request('GET', '/others/1');
      expect(r.status).toBe(status);
      if (note !== undefined) expect(r.headers.get('x-note')).toBe(note);
      expect(r.headers.get('x-evil')).toBeNull();
      if (status === 500) expect(r.json).toEqual({ status: 500, message: 'INTERNAL SERVER ERROR' });
    } finally {
      await s.close();
    }
  });
});
