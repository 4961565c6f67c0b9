/**
 * Routing and argument binding: subresources, simple resources, path keys, trailing slashes, and the
 * context handlers get. (These would be `inject()` tests, but fastify 5's `inject()` loads `cookie@2`, an
 * ES module that jest on Node 20 cannot require; so they go over the loopback socket like the rest.)
 */
import {
  LONG_KEY,
  STRING,
  STRING_KEY,
  action,
  collection,
  finder,
  simple,
  type ResourceContext,
} from '../../src';
import { startServer, type TestServer } from './support/http';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { makePhoto } from './support/photos';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';

const seen: Array<{ what: string; ctx: ResourceContext; args: unknown[] }> = [];

const comments = collection({
  name: 'comments',
  key: STRING_KEY,
  value: Locale,
  methods: {
    get: (id, ctx) => {
      seen.push({ what: 'comments.get', ctx, args: [id] });
      return new Locale().setLanguage(`${String(ctx.pathKeys.get('photosId'))}:${id}`);
    },
    getAll: (ctx) => {
      seen.push({ what: 'comments.getAll', ctx, args: [] });
      return [new Locale().setLanguage(String(ctx.pathKeys.get('photosId')))];
    },
    finders: { byText: finder({ params: { text: STRING } }, ({ text }) => [new Locale().setLanguage(text)]) },
  },
});

const settings = simple({
  name: 'settings',
  value: Album,
  methods: {
    get: (ctx) => {
      seen.push({ what: 'settings.get', ctx, args: [] });
      return new Album().setName(
        `settings of ${String((ctx.pathKeys.get('photosId') as number | undefined) ?? 'the service')}`,
      );
    },
    update: (album) => {
      seen.push({ what: 'settings.update', ctx: undefined as never, args: [album.getName()] });
    },
    delete: () => ({ status: 202 }),
    actions: { reset: action({}, () => undefined) },
  },
});

const photos = collection({
  name: 'photos',
  key: LONG_KEY,
  value: Photo,
  methods: { get: (id) => makePhoto(id, 'p'), getAll: () => [] },
  subresources: [comments, settings],
});

let server: TestServer;

beforeAll(async () => {
  // routing only: bodies leave the fixtures' required fields out
  server = await startServer({ resources: [photos, settings], validation: false }, '/v1');
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  seen.length = 0;
});

async function get(url: string, method: 'GET' | 'PUT' | 'DELETE' | 'POST' = 'GET', payload?: object) {
  const r = await server.request(method, url.replace(/^\/v1/, ''), {
    headers: { 'x-svc-protocol-version': '' },
    ...(payload === undefined ? {} : { json: payload }),
  });
  return {
    status: r.status,
    json: r.json as Record<string, unknown> | undefined,
    headers: Object.fromEntries(r.headers),
  };
}

describe('subresources', () => {
  it('routes /photos/{id}/comments/{id} with the parent key in ctx.pathKeys', async () => {
    const r = await get('/v1/photos/7/comments/a%20b');
    expect(r).toMatchObject({ status: 200, json: { language: '7:a b' } });
    expect(seen[0]!.ctx.resource).toBe('photos/comments');
    expect([...seen[0]!.ctx.pathKeys]).toEqual([
      ['photosId', 7],
      ['commentsId', 'a b'],
    ]);
  });

  it('routes get_all and finders of a subresource', async () => {
    expect((await get('/v1/photos/7/comments')).json).toMatchObject({ elements: [{ language: '7' }] });
    expect((await get('/v1/photos/7/comments?q=byText&text=hi')).json).toMatchObject({
      elements: [{ language: 'hi' }],
    });
  });

  it('routes a simple subresource and a simple root resource', async () => {
    expect((await get('/v1/photos/3/settings')).json).toEqual({ name: 'settings of 3' });
    expect((await get('/v1/settings')).json).toEqual({ name: 'settings of the service' });
  });

  it('answers 404 for an unknown subresource and for a key under a simple resource', async () => {
    expect(await get('/v1/photos/3/albums')).toMatchObject({
      status: 404,
      json: { message: "No resource defined for path '/photos/3/albums'" },
    });
    expect((await get('/v1/settings/3')).status).toBe(404);
  });
});

describe('simple resources', () => {
  it('take update, delete and actions at their path', async () => {
    expect((await get('/v1/settings', 'PUT', { name: 'n' })).status).toBe(204);
    expect(seen[0]!.args).toEqual(['n']);
    expect((await get('/v1/settings', 'DELETE')).status).toBe(202);
    expect((await get('/v1/settings?action=reset', 'POST')).status).toBe(200);
  });

  it('do not take collection methods', async () => {
    const r = await get('/v1/settings', 'POST', { name: 'x' });
    expect(r.status).toBe(400);
    expect(r.json!.message).toBe(
      "POST operation not supported for URI: '/v1/settings' with X-Svc-Method: ''",
    );
  });
});

describe('paths', () => {
  it('ignores a trailing slash', async () => {
    expect((await get('/v1/photos/1/')).json).toMatchObject({ id: 1 });
    expect((await get('/v1/photos/')).json).toMatchObject({ elements: [] });
  });

  it('percent-decodes resource names', async () => {
    expect((await get('/v1/ph%6Ftos/1')).status).toBe(200);
  });

  it('answers the protocol 404 for paths outside any resource, below the prefix', async () => {
    const r = await get('/v1/');
    expect(r.status).toBe(404);
    expect(r.headers['x-svc-error-response']).toBe('true');
  });

  it('passes the request context explicitly: headers, paging, response type, query', async () => {
    await server.request('GET', '/photos/1/comments?start=5&count=1&x=List(1)', {
      headers: { accept: 'application/x-pson', 'x-trace': 't1', 'x-svc-protocol-version': '' },
    });
    const ctx = seen[0]!.ctx;
    expect(ctx.paging).toEqual({ start: 5, count: 1 });
    expect(ctx.responseType).toBe('application/x-pson');
    expect(ctx.headers['x-trace']).toBe('t1');
    expect(ctx.method).toBe('get_all');
    expect(ctx.methodName).toBeUndefined();
    expect(ctx.query.get('x')!.toString()).toBe('["1"]');
    expect(ctx.protocolVersion.toString()).toBe('1.0.0');
  });
});
