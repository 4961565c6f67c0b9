/**
 * The typed client's batch finders (`api.photos.batchFinders.searchPhotos(criteria, params, options)` and its
 * one-at-a-time builder) against the example service over real HTTP on loopback: results in criteria order,
 * duplicates, 404 entries, paging per criterion, parameters, errors, JSON and PSON, the `X-RestLi-*` header
 * prefix, and abort signals.
 */
import type { FastifyInstance } from 'fastify';
import { firstValueFrom } from 'rxjs';
import {
  BatchFinderResult,
  INT,
  LONG,
  RequestBuildError,
  ServiceResponseError,
  assocKey,
  association,
  batchFinder,
  createResourceClient,
  criteriaOf,
  type ClientOptions,
} from '../../src';
import { startServer } from '../resources/support/http';
import { createExampleApp } from '../../examples/app';
import { exampleResources } from '../../examples/resources';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { Exif } from '../../examples/src/main/generated/com/example/photos/Exif';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';

const [photos, albums, albumEntries] = exampleResources(new PhotoLibrary());

let app: FastifyInstance;
let baseUrl: string;
let lib: PhotoLibrary;
const seen: string[] = [];

async function start(svc: { headerPrefix?: string } = {}): Promise<void> {
  lib = seededLibrary();
  app = await createExampleApp({ library: lib, svc });
  app.addHook('onRequest', (req, _reply, done) => {
    seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

beforeEach(async () => {
  seen.length = 0;
  await start();
});

afterEach(async () => {
  await app.close();
});

const client = (options: Partial<ClientOptions> = {}) =>
  createResourceClient({ baseUrl, ...options }, { photos, albums, albumEntries });

const criterion = (title: string, format: PhotoFormat): PhotoCriteria =>
  new PhotoCriteria().setTitle(title).setFormat(format);
const sunrise = criterion('Sunrise over the bay', PhotoFormat.JPEG);
const harbour = criterion('Harbour lights', PhotoFormat.PNG);
const nowhere = criterion('Nowhere', PhotoFormat.PNG);
const titles = (elements: readonly Photo[]): string[] => elements.map((p) => p.getTitle());

describe.each([
  ['JSON', {}],
  ['PSON', { contentType: 'application/x-pson', accept: ['application/x-pson'] }],
])('typed batch finders over %s', (_codec, options) => {
  it('answers each criterion in the order sent, duplicates and unmatched ones included', async () => {
    const api = client(options);
    const { status, results } = await api.photos.batchFinders.searchPhotos([
      harbour,
      nowhere,
      sunrise,
      harbour,
    ]);
    expect(status).toBe(200);
    expect(results.map((r) => r.isError)).toEqual([false, true, false, false]);
    expect(titles(results[0]!.elements)).toEqual(['Harbour lights']);
    expect(results[0]!.elements[0]).toBeInstanceOf(Photo);
    expect(results[1]!.elements).toEqual([]);
    expect(results[1]!.error?.status).toBe(404);
    expect(titles(results[2]!.elements)).toEqual(['Sunrise over the bay']);
    expect(titles(results[3]!.elements)).toEqual(['Harbour lights']);
    expect(results[0]!.error).toBeUndefined();
  });

  it('pages each criterion with start and count', async () => {
    for (let i = 0; i < 4; i++)
      lib.addPhoto(new Photo().setTitle('Harbour lights').setFormat(PhotoFormat.PNG));
    const api = client(options);
    const { results } = await api.photos.batchFinders.searchPhotos([harbour, sunrise], undefined, {
      start: 1,
      count: 2,
    });
    expect(results[0]!.elements).toHaveLength(2);
    expect(results[0]!.paging).toMatchObject({ start: 1, count: 2 });
    expect(results[1]!.elements).toEqual([]);
    expect(seen.some((s) => s.includes('start=1') && s.includes('count=2'))).toBe(true);
  });

  it('sends the other parameters next to the criteria', async () => {
    const api = client(options);
    const matching = new Exif().setCamera('X100V');
    const other = new Exif().setCamera('Pinhole');
    const a = await api.photos.batchFinders.searchPhotos([sunrise], { exif: matching });
    const b = await api.photos.batchFinders.searchPhotos([sunrise], { exif: other });
    expect(titles(a.results[0]!.elements)).toEqual(['Sunrise over the bay']);
    expect(b.results[0]!.isError).toBe(true);
    expect(b.results[0]!.error?.status).toBe(404);
  });

  it('builds the criteria one at a time, immutably', async () => {
    const api = client(options);
    const base = api.photos.batchFinders.searchPhotos.builder().add(sunrise);
    const both = base.add(nowhere, harbour);
    expect(base.criteria).toEqual([sunrise]);
    const one = await base.send();
    const three = await both.send({ exif: undefined }, { count: 5 });
    expect(one.results).toHaveLength(1);
    expect(three.results.map((r) => r.isError)).toEqual([false, true, false]);
    expect(titles(three.results[2]!.elements)).toEqual(['Harbour lights']);
    const rxCall = api.photos.rx.batchFinders.searchPhotos([nowhere, sunrise], {}, { count: 1 });
    expect((await firstValueFrom(rxCall)).results.map((r) => r.isError)).toEqual([true, false]);
    const viaRx = await firstValueFrom(both.rx());
    expect(viaRx.results.map((r) => titles(r.elements))).toEqual([
      ['Sunrise over the bay'],
      [],
      ['Harbour lights'],
    ]);
  });
});

describe('typed batch finder errors', () => {
  it('rejects a criterion the server refuses with its 400', async () => {
    const api = client();
    const bad = new PhotoCriteria().setTitle('no format');
    const err = await api.photos.batchFinders.searchPhotos([bad]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceResponseError);
    expect((err as ServiceResponseError).status).toBe(400);
  });

  it.each([
    ['criteria that are not iterable', () => client().photos.batchFinders.searchPhotos(42 as never)],
    [
      'a parameter of the wrong type',
      () => client().photos.batchFinders.searchPhotos([sunrise], { exif: 3 as never }),
    ],
    [
      'parameters that are not an object',
      () => client().photos.batchFinders.searchPhotos([sunrise], 'x' as never),
    ],
    [
      'a query parameter that clashes with a declared one',
      () =>
        client().photos.batchFinders.searchPhotos(
          [sunrise],
          { exif: new Exif() },
          { query: { exif: '(camera:x)' } },
        ),
    ],
  ])('rejects %s with a RequestBuildError before sending', async (_what, call) => {
    await expect(call()).rejects.toBeInstanceOf(RequestBuildError);
    expect(seen).toEqual([]);
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(
      client().photos.batchFinders.searchPhotos([sunrise], {}, { signal: controller.signal }),
    ).rejects.toBe(reason);
    await expect(
      client()
        .photos.batchFinders.searchPhotos.builder()
        .add(sunrise)
        .send({}, { signal: controller.signal }),
    ).rejects.toBe(reason);
  });
});

describe('typed batch finders on an association', () => {
  // the shelf part of the key is an assocKey parameter: it goes into the path, as for finders
  const shelves = association({
    name: 'shelves',
    assocKeys: { shelf: LONG, slot: LONG },
    value: Photo,
    methods: {
      batchFinders: {
        near: batchFinder(
          {
            batchParam: 'around',
            params: { around: criteriaOf(PhotoCriteria), shelf: assocKey(LONG), limit: INT },
          },
          (criteria, { shelf, limit }) => {
            const result = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria)
              result.putResult(c, [new Photo().setTitle(`${c.getTitle()} on ${shelf} (${limit})`)]);
            return result;
          },
        ),
      },
    },
  });

  it('puts the assocKey parameter in the path and the others in the query', async () => {
    const urls: string[] = [];
    const server = await startServer({ resources: [shelves] }, '', (app) => {
      app.addHook('onRequest', (req, _reply, done) => {
        urls.push(req.url);
        done();
      });
    });
    try {
      const api = createResourceClient({ baseUrl: server.base }, { shelves });
      const { results } = await api.shelves.batchFinders.near([sunrise, harbour], { shelf: 3, limit: 2 });
      expect(results.map((r) => titles(r.elements))).toEqual([
        ['Sunrise over the bay on 3 (2)'],
        ['Harbour lights on 3 (2)'],
      ]);
      expect(urls).toHaveLength(1);
      expect(urls[0]).toMatch(/^\/shelves\/\(shelf:3\)\?/);
      expect(urls[0]).toContain('bq=near');
      expect(urls[0]).toContain('limit=2');
      expect(urls[0]).not.toContain('shelf=');
    } finally {
      await server.close();
    }
  });
});

describe('typed batch finders with the X-RestLi header prefix', () => {
  it('sends and reads X-RestLi-* headers', async () => {
    await app.close();
    await start({ headerPrefix: 'X-RestLi' });
    const { results } = await client({ headerPrefix: 'X-RestLi' }).photos.batchFinders.searchPhotos([
      sunrise,
      nowhere,
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, true]);
    expect(seen.some((s) => s.includes('"x-restli-protocol-version":"2.0.0"'))).toBe(true);
  });
});
