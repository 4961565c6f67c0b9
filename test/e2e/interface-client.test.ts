/**
 * The typed client built from resource interfaces alone, over real HTTP on loopback: the example service's
 * interfaces (`examples/interfaces.ts`) against the running example, every kind of call a user makes; and
 * an interface with a subresource and an alternative key against its implementation. The client side of
 * each test imports no handler and no store.
 */
import type { FastifyInstance } from 'fastify';
import {
  LONG_KEY,
  STRING,
  STRING_KEY,
  ServiceResponseError,
  collectionInterface,
  actionSpec,
  createResourceClient,
  diffPatch,
  implement,
  simpleInterface,
  svcPlugin,
} from '../../src';
import fastify from 'fastify';
import { createExampleApp } from '../../examples/app';
import { exampleInterfaces } from '../../examples/interfaces';
import { seededLibrary, type PhotoLibrary } from '../../examples/store';
import { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import { AlbumEntry } from '../../examples/src/main/generated/com/example/photos/AlbumEntry';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';

function baseUrlOf(app: FastifyInstance): string {
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

async function failure(p: Promise<unknown>): Promise<ServiceResponseError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceResponseError) return err;
    throw err;
  }
  throw new Error('expected a ServiceResponseError');
}

describe('the client of the example interfaces', () => {
  let app: FastifyInstance;
  let lib: PhotoLibrary;
  let api: ReturnType<typeof createResourceClient<typeof exampleInterfaces>>;

  beforeEach(async () => {
    lib = seededLibrary();
    app = await createExampleApp({ library: lib });
    await app.listen({ port: 0, host: '127.0.0.1' });
    api = createResourceClient({ baseUrl: baseUrlOf(app) }, exampleInterfaces);
  });
  afterEach(async () => {
    await app.close();
  });

  it('gets, batch-gets and creates photos as Photo instances with typed keys', async () => {
    const { entity } = await api.photos.get(1);
    expect(entity).toBeInstanceOf(Photo);
    expect(entity.getTitle()).toBe('Sunrise over the bay');
    const batch = await api.photos.batchGet([1, 2, 99]);
    expect([...batch.results.keys()].sort()).toEqual([1, 2]);
    const made = await api.photos.create(new Photo().setTitle('New').setFormat(PhotoFormat.PNG));
    expect(made.status).toBe(201);
    expect(made.id).toBe(7);
    expect(lib.getPhoto(7)?.getTitle()).toBe('New');
  });

  it('patches with a computed diff and deletes', async () => {
    const before = (await api.photos.get(2)).entity;
    const patched = await api.photos.partialUpdate(2, diffPatch(before, before.copy().setTitle('Night')));
    expect(patched.entity?.getTitle()).toBe('Night');
    expect((await api.photos.delete(2)).status).toBe(204);
    expect(lib.getPhoto(2)).toBeUndefined();
  });

  it('calls finders, get_all and the batch finder with typed parameters', async () => {
    const jpegs = await api.photos.finders.titleAndOrFormat({ format: PhotoFormat.JPEG }, { count: 2 });
    expect(jpegs.elements.length).toBeLessThanOrEqual(2);
    expect(jpegs.elements.every((p) => p.getFormat() === PhotoFormat.JPEG)).toBe(true);
    const all = await api.photos.getAll({ count: 100 });
    expect(all.elements.length).toBe(lib.listPhotos().length);
    const first = lib.getPhoto(1)!;
    const found = await api.photos.batchFinders.searchPhotos([
      new PhotoCriteria().setTitle(first.getTitle()).setFormat(first.getFormat()),
      new PhotoCriteria().setTitle('nothing').setFormat(PhotoFormat.GIF),
    ]);
    expect(found.results[0]?.elements.map((p) => p.getId())).toEqual([1]);
    expect(found.results[1]?.isError).toBe(true);
  });

  it('calls actions and entity actions with typed returns', async () => {
    const tags = await api.photos.entityActions.addTag(1, { tag: 'favourite' });
    expect(tags.value).toBe(lib.getPhoto(1)!.getTags().length);
    const purged = await api.photos.actions.purge({ takenBefore: 0 });
    expect(purged.value).toBeInstanceOf(PurgeResult);
    expect(purged.value.getPhotosRemoved()).toBe(0);
  });

  it('addresses association entries by their typed compound key', async () => {
    const trips = await api.albumEntries.finders.byAlbum({ albumId: 1 });
    expect(trips.elements.length).toBeGreaterThan(0);
    expect(trips.elements[0]).toBeInstanceOf(AlbumEntry);
    const key = { albumId: 2, photoId: 2 };
    expect((await api.albumEntries.update(key, new AlbumEntry().setCaption('lights'))).status).toBe(201);
    expect((await api.albumEntries.get(key)).entity.getCaption()).toBe('lights');
  });

  it('surfaces errors as ServiceResponseErrors', async () => {
    const err = await failure(api.albums.get(404));
    expect(err.status).toBe(404);
  });
});

describe('the client of an interface with a subresource and an alternative key', () => {
  const notesApi = collectionInterface({
    name: 'notes',
    key: STRING_KEY,
    value: Album,
    methods: ['get'],
  });
  const shelvesApi = collectionInterface({
    name: 'shelves',
    key: LONG_KEY,
    value: Album,
    methods: ['get'],
    entityActions: { label: actionSpec({ params: { prefix: STRING }, returns: STRING }) },
    alternativeKeys: { code: STRING_KEY },
    subresources: [notesApi],
  });
  const configApi = simpleInterface({ name: 'config', value: Album, methods: ['get'] });

  let app: FastifyInstance;
  beforeAll(async () => {
    const notes = implement(notesApi, {
      get: (id, ctx) => new Album().setName(`${id} on shelf ${String(ctx.pathKeys.get('shelvesId'))}`),
    });
    const shelves = implement(shelvesApi, {
      get: (id) => new Album().setId(id).setName(`shelf ${String(id)}`),
      entityActions: { label: (id, { prefix }) => `${prefix}-${String(id)}` },
      alternativeKeys: {
        code: { toKey: (code) => Number(code.slice(1)), fromKey: (id) => `S${String(id)}` },
      },
      subresources: [notes],
    });
    const config = implement(configApi, { get: () => new Album().setName('config') });
    app = fastify();
    await app.register(svcPlugin, { resources: [shelves, config] });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('reaches the subresource, the alternative key and entity actions', async () => {
    const api = createResourceClient({ baseUrl: baseUrlOf(app) }, { shelves: shelvesApi, config: configApi });
    expect((await api.shelves.get(3)).entity.getName()).toBe('shelf 3');
    expect((await api.shelves.alt('code').get('S4')).entity.getId()).toBe(4);
    expect((await api.shelves.sub(5, notesApi).get('n1')).entity.getName()).toBe('n1 on shelf 5');
    expect((await api.shelves.entityActions.label(6, { prefix: 'x' })).value).toBe('x-6');
    expect((await api.config.get()).entity.getName()).toBe('config');
  });
});
