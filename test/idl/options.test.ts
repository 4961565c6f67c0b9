/**
 * `OPTIONS /<resource>` over a real socket: the resource's interface description and the schemas it uses,
 * as Rest.li servers answer it.
 */
import type { AddressInfo } from 'node:net';
import fastify, { type FastifyInstance } from 'fastify';
import {
  INT,
  LONG_KEY,
  STRING,
  type OptionsResponse,
  action,
  collection,
  exportResource,
  finder,
  optional,
  simple,
  svcPlugin,
  validateRestSpec,
} from '../../src';
import { Caption } from '../generated/fixtures/com/example/photos/Caption';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';

const likes = simple({ name: 'likes', value: Caption, methods: { get: () => undefined } });
const photos = collection({
  name: 'photos',
  namespace: 'com.example.photos',
  key: LONG_KEY,
  value: Photo,
  methods: {
    get: () => undefined,
    finders: { byTitle: finder({ params: { title: optional(STRING) } }, () => []) },
    actions: { purge: action({ returns: INT }, () => 0) },
  },
  subresources: [likes],
});
const notes = simple({ name: 'notes', value: Caption, methods: { get: () => undefined } });

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = fastify();
  await app.register(svcPlugin, { resources: [photos, notes] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
});

async function options(path: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(`${base}${path}`, { method: 'OPTIONS' });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('OPTIONS /<resource>', () => {
  it('answers the resource and its subresources by full name, and every schema they use by full name', async () => {
    const res = await options('/photos');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as OptionsResponse;
    expect(Object.keys(body)).toEqual(['resources', 'models']);
    expect(Object.keys(body.resources)).toEqual(['com.example.photos.photos', 'com.example.photos.likes']);
    const expected = exportResource(photos).schema;
    expect(body.resources['com.example.photos.photos']).toEqual(expected);
    expect(body.resources['com.example.photos.likes']).toEqual(expected.collection!.entity.subresources![0]);
    for (const r of Object.values(body.resources))
      expect(validateRestSpec(r, 'OPTIONS /photos').warnings).toEqual([]);
    expect(Object.keys(body.models)).toEqual(
      expect.arrayContaining(['com.example.photos.Photo', 'com.example.photos.Caption']),
    );
    // each model written whole: Photo's nested named schemas inline, by full name as key
    for (const [name, model] of Object.entries(body.models)) {
      expect(`${model.namespace as string}.${model.name as string}`).toBe(name);
    }
  });

  it('answers the same below the resource (an entity, a subresource path)', async () => {
    const top = await options('/photos');
    for (const path of ['/photos/1', '/photos/1/likes']) {
      const res = await options(path);
      expect([res.status, res.body]).toEqual([200, top.body]);
    }
  });

  it('answers a resource without namespace by its name', async () => {
    const body = JSON.parse((await options('/notes')).body) as OptionsResponse;
    expect(Object.keys(body.resources)).toEqual(['notes']);
  });

  it('answers 404 with an ErrorResponse for a resource the server does not have', async () => {
    const res = await fetch(`${base}/nothing`, { method: 'OPTIONS' });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-svc-error-response')).toBe('true');
  });

  it('leaves the other methods as they were', async () => {
    const res = await fetch(`${base}/photos/1`);
    expect(res.status).toBe(404);
    expect((await fetch(`${base}/photos?q=byTitle`)).status).toBe(200);
  });
});
