/**
 * svcPlugin writes a plain response straight to Node's response when fastify's `reply.send` would add
 * nothing (src/server/fastify-direct-send.ts): the same resources served once as they come (`/direct`),
 * and once below an onSend hook that passes every payload through (`/hooked`), which keeps them on
 * `reply.send`, must answer byte for byte alike (status, header names in order, values, body); a header a
 * hook sets on the reply, and an onSend hook's rewrite, still reach the client. Alike with observers that
 * add headers of their own (a request id's echo, a name in capitals with a Latin-1 value). One server for
 * the file.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import fastify, { type FastifyInstance } from 'fastify';
import {
  LONG_KEY,
  type RequestObserver,
  STRING_KEY,
  ServiceError,
  collection,
  requestIds,
  svcPlugin,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { makePhoto } from './support/photos';

const PHOTO = makePhoto(1, 'Sunrise', PhotoFormat.JPEG);

const resources = [
  collection({
    name: 'items',
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: (id) => {
        if (Number(id) === 7) throw new ServiceError(403, 'not yours');
        return Number(id) === 1 ? PHOTO : undefined;
      },
      batchGet: (ids) => new Map(ids.map((id) => [id, PHOTO] as const)),
      create: () => ({ id: 2 }),
      delete: () => undefined,
    },
  }),
  // an id with a Latin-1 character: its header is sent in Latin-1, so the body goes out as bytes
  collection({
    name: 'names',
    key: STRING_KEY,
    value: Photo,
    methods: { create: () => ({ id: 'café' }) },
  }),
];

/** Observers that add headers: the request id's echo, and one named in capitals with a Latin-1 value. */
const observers: RequestObserver[] = [
  requestIds(),
  {
    start(request) {
      if (request.responseHeaders !== undefined) request.responseHeaders['X-Served-By'] = 'café';
      return undefined;
    },
  },
];

interface Raw {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: Buffer;
}

let app: FastifyInstance;
let port: number;

function request(method: string, path: string, body?: string, id?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          'x-svc-protocol-version': '2.0.0',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(id === undefined ? {} : { 'x-request-id': id }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // names and values in wire order; the Date differs between two requests
          const headers: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            if (res.rawHeaders[i] !== 'Date') headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  app = fastify();
  await app.register(svcPlugin, { prefix: '/direct', resources });
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, _reply, payload) => payload);
    await scope.register(svcPlugin, { prefix: '/hooked', resources });
  });
  await app.register(svcPlugin, { prefix: '/observed', resources, observers });
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, _reply, payload) => payload);
    await scope.register(svcPlugin, { prefix: '/observed-hooked', resources, observers });
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.header('x-hook', 'set before the handler');
    });
    await scope.register(svcPlugin, { prefix: '/header', resources });
  });
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('x-rewritten', 'yes');
      return payload;
    });
    await scope.register(svcPlugin, { prefix: '/rewrite', resources });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

afterAll(() => app.close());

describe('a response written without reply.send', () => {
  it.each([
    ['a get', 'GET', '/items/1', undefined],
    ['a get of a missing entity (404)', 'GET', '/items/3', undefined],
    ['a handler error (403)', 'GET', '/items/7', undefined],
    ['a bad key (400)', 'GET', '/items/x', undefined],
    ['a batch get', 'GET', '/items?ids=List(1,2)', undefined],
    ['a head', 'HEAD', '/items/1', undefined],
    ['a create (201 and an id header)', 'POST', '/items', '{"title":"t","format":"PNG","time":1}'],
    ['an id header in Latin-1', 'POST', '/names', '{"title":"t","format":"PNG","time":1}'],
    ['a delete without a body', 'DELETE', '/items/1', undefined],
    ['an unknown resource (404)', 'GET', '/nothing/1', undefined],
    ['an unknown method (405)', 'PUT', '/names/a', '{}'],
  ])('is byte for byte what reply.send writes: %s', async (_what, method, path, body) => {
    const direct = await request(method, `/direct${path}`, body);
    const hooked = await request(method, `/hooked${path}`, body);
    expect(direct.status).toBe(hooked.status);
    expect(direct.headers).toEqual(hooked.headers);
    // a message may name the path, whose prefix differs
    expect(direct.body.toString('latin1')).toBe(hooked.body.toString('latin1').replace('/hooked', '/direct'));
  });

  it.each([
    ['a get', 'GET', '/items/1', undefined],
    ['a batch get', 'GET', '/items?ids=List(1,2)', undefined],
    ['a create (201 and an id header)', 'POST', '/items', '{"title":"t","format":"PNG","time":1}'],
    ['an id header in Latin-1', 'POST', '/names', '{"title":"t","format":"PNG","time":1}'],
  ])(
    "is byte for byte what reply.send writes with the observers' headers: %s",
    async (_what, method, path, body) => {
      const direct = await request(method, `/observed${path}`, body, 'id-1');
      const hooked = await request(method, `/observed-hooked${path}`, body, 'id-1');
      expect(direct.status).toBe(hooked.status);
      expect(direct.headers).toEqual(hooked.headers);
      expect(direct.headers).toEqual(expect.arrayContaining(['x-request-id: id-1', 'x-served-by: café']));
      expect(direct.body.equals(hooked.body)).toBe(true);
    },
  );

  it('is taken where fastify would add nothing, and only there', async () => {
    // fastify's own Reply (every instance's replies inherit from it)
    const { prototype } = createRequire(__filename)('fastify/lib/reply') as {
      prototype: { send: () => unknown };
    };
    const spy = jest.spyOn(prototype, 'send');
    try {
      await request('GET', '/direct/items/1');
      await request('GET', '/observed/items/1', undefined, 'id-2');
      expect(spy).not.toHaveBeenCalled();
      await request('GET', '/hooked/items/1');
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps a header a hook set on the reply before the handler', async () => {
    const r = await request('GET', '/header/items/1');
    const direct = await request('GET', '/direct/items/1');
    expect(r.headers).toContain('x-hook: set before the handler');
    expect(r.body.equals(direct.body)).toBe(true);
  });

  it("runs the route's onSend hooks", async () => {
    const r = await request('GET', '/rewrite/items/1');
    expect(r.headers).toContain('x-rewritten: yes');
    expect(r.status).toBe(200);
  });
});
