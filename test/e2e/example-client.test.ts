/**
 * The typed resource client against the example service over real HTTP on loopback: every method of
 * `photos`, `albums` and `albumEntries` called as a user would (`api.photos.batchGet([1, 2, 3])`), the
 * answers decoded into the generated classes, errors surfaced as `ServiceResponseError`s.
 */
import * as fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import {
  CompoundKey,
  Data,
  type DataMap,
  ServiceResponseError,
  StringArray,
  createResourceClient,
  diffPatch,
} from '../../src';
import { createExampleApp } from '../../examples/app';
import { SAMPLE_IMAGE, main as runExampleClient } from '../../examples/client';
import { tempDirs } from '../support/temp-dirs';
import { exampleResources } from '../../examples/resources';
import { ImageStore } from '../../examples/images';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { AlbumEntry } from '../../examples/src/main/generated/com/example/photos/AlbumEntry';
import { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';

// the client needs the definitions' shapes only: handlers over an empty library are never called
const [photos, albums, albumEntries] = exampleResources(new PhotoLibrary());

const libraryImages = tempDirs('svc-example-client-images-');
let app: FastifyInstance;
let baseUrl: string;
let lib: PhotoLibrary;

beforeEach(async () => {
  // the images the example client uploads go to a directory of this file's, removed after it
  lib = seededLibrary(new ImageStore(libraryImages()));
  app = await createExampleApp({ library: lib });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterEach(async () => {
  await app.close();
});

const client = (options: { contentType?: string; accept?: readonly string[] } = {}) =>
  createResourceClient({ baseUrl, ...options }, { photos, albums, albumEntries });

async function failure(p: Promise<unknown>): Promise<ServiceResponseError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceResponseError) return err;
    throw err;
  }
  throw new Error('expected a ServiceResponseError');
}

describe.each([
  ['JSON', {}],
  ['PSON', { contentType: 'application/x-pson', accept: ['application/x-pson'] }],
])('the typed client over %s', (_codec, options) => {
  it('gets one photo as a Photo, and a projection of it', async () => {
    const api = client(options);
    const { entity, status } = await api.photos.get(1);
    expect(status).toBe(200);
    expect(entity).toBeInstanceOf(Photo);
    expect(entity.getTitle()).toBe('Sunrise over the bay');
    expect(entity.getExif()?.getIso()).toBe(200);
    const projected = await api.photos.get(1, { fields: 'title' });
    expect(projected.entity.data().toString()).toBe('{"title":"Sunrise over the bay"}');
  });

  it('batch-gets photos keyed by the caller’s keys; missing ones are absent', async () => {
    const api = client(options);
    const r = await api.photos.batchGet([1, 2, 99, 2]);
    expect([...r.results.keys()].sort()).toEqual([1, 2]);
    expect(r.results.get(2)?.getTitle()).toBe('Harbour lights');
    expect(r.results.get(2)).toBeInstanceOf(Photo);
    expect(r.results.has(99)).toBe(false);
    expect(r.errors.size).toBe(0);
  });

  it('creates (201, typed id, the entity returned), and not when asked not to', async () => {
    const api = client(options);
    const made = await api.photos.create(new Photo().setTitle('New').setFormat(PhotoFormat.PNG));
    expect(made.status).toBe(201);
    expect(made.id).toBe(7);
    expect(made.location).toMatch(/\/photos\/7$/);
    expect(made.entity?.getTitle()).toBe('New');
    const bare = await api.photos.create(new Photo().setTitle('Bare').setFormat(PhotoFormat.GIF), {
      returnEntity: false,
    });
    expect(bare.id).toBe(8);
    expect(bare.entity).toBeUndefined();
  });

  it('batch-creates with a per-item error', async () => {
    const api = client(options);
    const r = await api.photos.batchCreate([
      new Photo().setTitle('a').setFormat(PhotoFormat.PNG),
      new Photo().setTitle(' ').setFormat(PhotoFormat.PNG),
    ]);
    expect(r.elements.map((e) => [e.status, e.id, e.isError])).toEqual([
      [201, 7, false],
      [400, undefined, true],
    ]);
    expect(r.elements[1]?.error?.message).toBe('a photo needs a title');
  });

  it('updates, patches (with a computed diff), deletes', async () => {
    const api = client(options);
    const current = (await api.photos.get(3)).entity;
    expect((await api.photos.update(3, current.copy().setTitle('Dunes'))).status).toBe(204);
    expect(lib.getPhoto(3)?.getTitle()).toBe('Dunes');

    const before = (await api.photos.get(3)).entity;
    const after = before
      .copy()
      .setTitle('Dunes at dusk')
      .setTags(new StringArray(['desert', 'dusk']));
    after.data().remove('takenAt');
    const patched = await api.photos.partialUpdate(3, diffPatch(before, after));
    expect(patched.entity?.getTitle()).toBe('Dunes at dusk');
    expect(patched.entity?.getTags().toArray()).toEqual(['desert', 'dusk']);
    expect(lib.getPhoto(3)?.hasTakenAt()).toBe(false);

    const plain = await api.photos.partialUpdate(1, { exif: { $set: { iso: 400 } } });
    expect(plain.entity?.getExif()?.getIso()).toBe(400);
    expect(plain.entity?.getExif()?.getCamera()).toBe('X100V');

    expect((await api.photos.delete(3)).status).toBe(204);
    expect(lib.getPhoto(3)).toBeUndefined();
  });

  it('batch-deletes: every key in results or errors', async () => {
    const api = client(options);
    const r = await api.photos.batchDelete([5, 6, 70]);
    expect([...r.results.keys()].sort()).toEqual([5, 6]);
    expect(r.results.get(5)?.status).toBe(204);
    expect(r.errors.get(70)?.status).toBe(404);
  });

  it('pages through get_all with paging links, and finds by typed parameters', async () => {
    const api = client(options);
    const first = await api.photos.getAll({ count: 4 });
    expect(first.elements.map((p) => p.getId())).toEqual([1, 2, 3, 4]);
    expect(first.paging).toMatchObject({ start: 0, count: 4, total: 6 });
    expect(first.paging?.links.map((l) => l.rel)).toEqual(['next']);
    const second = await api.photos.getAll({ start: 4, count: 4 });
    expect(second.elements.map((p) => p.getId())).toEqual([5, 6]);

    const night = await api.photos.finders.byTag({ tag: 'night' });
    expect(night.elements.map((p) => p.getTitle())).toEqual(['Harbour lights', 'Fireworks']);
    const jpeg = await api.photos.finders.titleAndOrFormat({ format: PhotoFormat.JPEG });
    expect(jpeg.elements.map((p) => p.getId())).toEqual([1, 3]);
    const unicode = await api.photos.finders.titleAndOrFormat({ title: 'été' });
    expect(unicode.elements.map((p) => p.getTitle())).toEqual(['Été à Paris ☀']);
    const all = await api.photos.finders.titleAndOrFormat();
    expect(all.elements).toHaveLength(6);
    const titles = await api.photos.finders.byTag({ tag: 'bay' }, { fields: 'title' });
    expect(titles.elements.map((p) => p.data().toString())).toEqual([
      '{"title":"Sunrise over the bay"}',
      '{"title":"Harbour lights"}',
    ]);
  });

  it('runs collection and entity actions with typed returns', async () => {
    const api = client(options);
    const tags = await api.photos.entityActions.addTag(2, { tag: 'favourite' });
    expect(tags.value).toBe(3);
    expect(lib.getPhoto(2)?.getTags().toArray()).toContain('favourite');
    const purge = await api.photos.actions.purge({ takenBefore: 1_700_000_000_001 });
    expect(purge.value).toBeInstanceOf(PurgeResult);
    expect(purge.value.getPhotosRemoved()).toBe(2);
    expect(purge.value.getEntriesRemoved()).toBe(1);
    const none = await api.photos.actions.purge();
    expect(none.value.getPhotosRemoved()).toBe(0);
  });

  it('speaks association keys: get, batch get, update, delete, finders on a partial key', async () => {
    const api = client(options);
    const entry = await api.albumEntries.get({ albumId: 1, photoId: 2 });
    expect(entry.entity).toBeInstanceOf(AlbumEntry);
    expect(entry.entity.getPhotoId()).toBe(2);

    const key = { albumId: 2, photoId: 6 };
    const batch = await api.albumEntries.batchGet([
      key,
      { albumId: 1, photoId: 1 },
      { albumId: 9, photoId: 9 },
    ]);
    expect(batch.results.size).toBe(2);
    expect(batch.results.get(key)?.getCaption()).toBe('★');
    expect(batch.results.get({ photoId: 6, albumId: 2 })?.getCaption()).toBe('★');
    expect(batch.results.get(new CompoundKey({ albumId: 2, photoId: 6 }))?.getCaption()).toBe('★');
    // the caller's own key objects come back
    expect([...batch.results.keys()]).toContain(key);

    expect((await api.albumEntries.update({ albumId: 2, photoId: 3 }, new AlbumEntry())).status).toBe(201);
    const inAlbum2 = await api.albumEntries.finders.byAlbum({ albumId: 2 });
    expect(inAlbum2.elements.map((e) => e.getPhotoId())).toEqual([1, 3, 6]);
    const ofPhoto1 = await api.albumEntries.finders.byPhoto({ photoId: 1 });
    expect(ofPhoto1.elements.map((e) => e.getAlbumId())).toEqual([1, 2]);

    expect((await api.albumEntries.delete({ albumId: 2, photoId: 3 })).status).toBe(204);
    const gone = await api.albumEntries.batchDelete([
      { albumId: 1, photoId: 1 },
      { albumId: 7, photoId: 7 },
    ]);
    expect(gone.results.get({ albumId: 1, photoId: 1 })?.status).toBe(204);
    expect(gone.errors.get({ albumId: 7, photoId: 7 })?.status).toBe(404);
    expect((await api.albumEntries.getAll()).elements).toHaveLength(5);
  });

  it('albums: create with the id only, get, patch without a body, get_all', async () => {
    const api = client(options);
    const made = await api.albums.create(new Album().setName('Winter'));
    expect(made.id).toBe(3);
    expect(made.entity).toBeUndefined();
    const patched = await api.albums.partialUpdate(3, { $set: { description: 'Snow' } });
    expect(patched.status).toBe(204);
    expect(patched.entity).toBeUndefined();
    expect((await api.albums.get(3)).entity.getDescription()).toBe('Snow');
    const page = await api.albums.getAll();
    expect(page.elements.map((a) => a.getName())).toEqual(['Trips', 'Favourites', 'Winter']);
    expect((await api.albums.batchGet([1, 3])).results.get(3)?.getName()).toBe('Winter');
  });
});

describe('errors through the typed client', () => {
  it('a missing entity is a 404 ServiceResponseError carrying the ErrorResponse', async () => {
    const err = await failure(client().photos.get(404));
    expect(err.status).toBe(404);
    expect(err.isErrorResponse).toBe(true);
    expect(err.errorResponse?.message).toBe('Requested entity not found: get');
  });

  it('a handler’s ServiceError keeps its status and message', async () => {
    const err = await failure(client().albums.create(new Album().setName(' ')));
    expect(err.status).toBe(400);
    expect(err.errorResponse?.message).toBe('an album needs a name');
  });

  it('a patch the server cannot apply is a 400, and the entity is unchanged', async () => {
    const err = await failure(client().photos.partialUpdate(1, { title: { $set: { x: 1 } } }));
    expect(err.status).toBe(400);
    expect(lib.getPhoto(1)?.getTitle()).toBe('Sunrise over the bay');
  });

  it('a bad parameter value the types let through (a wrong enum at run time) is the server’s 400', async () => {
    const api = client();
    const err = await failure(
      api.photos.finders.titleAndOrFormat({ format: 'TIFF' as unknown as PhotoFormat }),
    );
    expect(err.status).toBe(400);
    expect(err.errorResponse?.message).toContain("'format'");
  });

  it('an aborted call rejects with the signal’s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(client().photos.get(1, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('extra query parameters go next to the declared ones, and may not shadow them', async () => {
    const api = client();
    const r = await api.photos.finders.byTag({ tag: 'bay' }, { query: { ignored: 'x' } });
    expect(r.elements).toHaveLength(2);
    await expect(api.photos.finders.byTag({ tag: 'bay' }, { query: { tag: 'night' } })).rejects.toThrow(
      "query parameter 'tag' is also a declared parameter",
    );
  });

  it('the server stays healthy after every error', async () => {
    expect((await client().photos.get(1)).status).toBe(200);
  });
});

describe('what it sends', () => {
  it('writes the URIs of the wire facts for every call', async () => {
    const seen: string[] = [];
    const api = createResourceClient(
      {
        baseUrl,
        filters: [
          (req, next) => {
            seen.push(`${req.method} ${decodeURIComponent(req.uri)}`);
            return next(req);
          },
        ],
      },
      { photos, albumEntries },
    );
    await api.photos.batchGet([3, 1], { fields: [Photo.fields().title()] });
    await api.albumEntries.finders.byAlbum({ albumId: 1 }, { start: 1, count: 2 });
    await api.albumEntries.batchGet([{ photoId: 2, albumId: 1 }]);
    await api.photos.entityActions.addTag(1, { tag: 'x' });
    expect(seen).toEqual([
      'GET photos?fields=title&ids=List(3,1)',
      'GET albumEntries/(albumId:1)?count=2&q=byAlbum&start=1',
      'GET albumEntries?ids=List((albumId:1,photoId:2))',
      'POST photos/1?action=addTag',
    ]);
  });

  it('takes a DataMap patch as it is', async () => {
    const patch = Data.fromJS({ $set: { title: 'From data' } }) as DataMap;
    const r = await client().photos.partialUpdate(2, patch);
    expect(r.entity?.getTitle()).toBe('From data');
  });
});

describe('examples/client.ts', () => {
  const downloads = tempDirs('svc-example-client-');

  it('runs against the service and prints what it did', async () => {
    const lines: string[] = [];
    const dir = downloads();
    await runExampleClient(baseUrl, (l) => lines.push(l), dir);
    // the upload, its job and the download name ids made by this run
    const upload = /^uploaded photo (\d+): PENDING, job [0-9a-f-]{36}$/.exec(lines[8] ?? '');
    expect(upload).not.toBeNull();
    const id = upload![1]!;
    expect(lines[9]).toBe(`photo ${id} is READY`);
    expect(lines[10]).toMatch(new RegExp(`^downloaded cid:\\S+ \\(attachment \\S+\\) to ${dir}/photo-${id}\\.png$`));
    expect(fs.readFileSync(`${dir}/photo-${id}.png`)).toEqual(fs.readFileSync(SAMPLE_IMAGE));
    expect(lines.slice(0, 8)).toEqual([
      'photo 1: Sunrise over the bay (JPEG)',
      'photo 2: Harbour lights (PNG)',
      'photo 3: Dunes at noon (JPEG)',
      'JPEG photos: Sunrise over the bay, Dunes at noon (total 2)',
      'album 1 holds photos 1, 2, 3, 4',
      "renamed photo 2 to 'Harbour at night'",
      'photo 2 has 3 tags',
      'album 404: 404 Requested entity not found: get',
    ]);
  });
});
