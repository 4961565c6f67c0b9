/**
 * Resource interfaces and their implementations on the server: `implement(iface, handlers)` gives the
 * definition `collection({...})` would (registered, routed and answered the same way, over a real socket),
 * and registration refuses an implementation that does not match its interface, naming resource and method.
 */
import {
  INT,
  LONG,
  LONG_KEY,
  STRING,
  STRING_KEY,
  BatchFinderResult,
  action,
  actionSpec,
  associationInterface,
  assocKey,
  batchFinderSpec,
  collection,
  collectionInterface,
  criteriaOf,
  entityAction,
  finder,
  finderSpec,
  implement,
  interfaceOf,
  isResourceInterface,
  isSvcError,
  optional,
  registerResources,
  simpleInterface,
  type ResourceDefinition,
} from '../../src';
import { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import { AlbumEntry } from '../../examples/src/main/generated/com/example/photos/AlbumEntry';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { type TestServer, startServer } from './support/http';

const photosApi = collectionInterface({
  name: 'photos',
  namespace: 'com.example.photos',
  doc: 'Photos.',
  key: LONG_KEY,
  value: Photo,
  methods: { get: { doc: 'One photo.' }, create: {}, getAll: {} },
  finders: {
    byTitle: finderSpec({ params: { title: STRING }, doc: 'By title.' }),
    recent: finderSpec({ params: { days: optional(INT, 7) }, paging: true }),
  },
  batchFinders: {
    search: batchFinderSpec({ batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } }),
    searchEach: batchFinderSpec({ batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } }),
  },
  actions: { count: actionSpec({ returns: INT }), ping: actionSpec() },
  entityActions: { rename: actionSpec({ params: { title: STRING }, returns: STRING }) },
  alternativeKeys: { urn: STRING_KEY },
});

const commentsApi = collectionInterface({
  name: 'comments',
  key: STRING_KEY,
  value: Album,
  methods: ['get'],
});
const albumsApi = collectionInterface({
  name: 'albums',
  key: LONG_KEY,
  value: Album,
  methods: ['get'],
  subresources: [commentsApi],
});
const entriesApi = associationInterface({
  name: 'entries',
  assocKeys: { albumId: LONG, photoId: LONG },
  value: AlbumEntry,
  methods: ['get'],
  finders: { byAlbum: finderSpec({ params: { albumId: assocKey(LONG) } }) },
});
const settingsApi = simpleInterface({
  name: 'settings',
  value: Album,
  methods: ['get', 'update'],
  actions: { reset: actionSpec({ returns: STRING }) },
});

const photo = (id: number, title: string) =>
  new Photo().setId(id).setTitle(title).setFormat(PhotoFormat.JPEG);
const store = [photo(1, 'Dawn'), photo(2, 'Dusk'), photo(3, 'Dawn')];

const photos = implement(photosApi, {
  get: (id) => store.find((p) => p.getId() === Number(id)),
  create: (p) => ({ id: 9, entity: p }),
  getAll: () => store,
  finders: {
    byTitle: ({ title }) => store.filter((p) => p.getTitle() === title),
    recent: ({ days }, ctx) => ({ elements: store.slice(0, ctx.paging.count), total: days }),
  },
  batchFinders: {
    search: (criteria) => {
      const out = new BatchFinderResult<PhotoCriteria, Photo>();
      for (const c of criteria)
        out.putResult(
          c,
          store.filter((p) => p.getTitle() === c.getTitle()),
        );
      return out;
    },
    searchEach: {
      perCriterion: (c) => store.filter((p) => p.getTitle() === c.getTitle()),
      concurrency: 1,
    },
  },
  actions: { count: () => store.length, ping: () => undefined },
  entityActions: { rename: (id, { title }) => `${String(id)}:${title}` },
  alternativeKeys: {
    urn: { toKey: (urn) => Number(urn.slice('urn:photo:'.length)), fromKey: (id) => `urn:photo:${id}` },
  },
});
const comments = implement(commentsApi, {
  get: (id, ctx) => new Album().setName(`${id} of album ${String(ctx.pathKeys.get('albumsId'))}`),
});
const albums = implement(albumsApi, {
  get: (id) => new Album().setId(id).setName('Trip'),
  subresources: [comments],
});
const entries = implement(entriesApi, {
  get: (key) => new AlbumEntry().setAlbumId(key.albumId).setPhotoId(key.photoId),
  finders: {
    byAlbum: ({ albumId }) => [new AlbumEntry().setAlbumId(albumId).setPhotoId(1)],
  },
});
let settingsName = 'Defaults';
const settings = implement(
  settingsApi,
  {
    get: () => new Album().setName(settingsName),
    update: (album) => {
      settingsName = album.getName();
    },
    actions: { reset: () => 'done' },
  },
  { timeout: 5_000 },
);

function registrationError(defs: readonly unknown[]): { name: string; code: string; message: string } {
  try {
    registerResources(defs);
  } catch (err) {
    if (!isSvcError(err)) throw err;
    return { name: err.name, code: err.code, message: err.message };
  }
  throw new Error('registration did not fail');
}

describe('implement', () => {
  it('gives definitions that register like inline ones, docs and namespace kept', () => {
    const models = registerResources([photos, albums, entries, settings]);
    const p = models.get('photos')!;
    expect([...p.methods.keys()].sort()).toEqual(['create', 'get', 'get_all']);
    expect([...p.finders.keys()]).toEqual(['byTitle', 'recent']);
    expect(p.finders.get('recent')!.selfPaging).toBe(true);
    expect(p.batchFinders.get('search')!.batch!.form).toBe('batch');
    expect(p.batchFinders.get('searchEach')!.batch).toMatchObject({ form: 'perCriterion', concurrency: 1 });
    expect([...p.actions.keys()]).toEqual(['count', 'ping']);
    expect([...p.entityActions.keys()]).toEqual(['rename']);
    expect([...p.alternativeKeys.keys()]).toEqual(['urn']);
    expect(photos).toMatchObject({ name: 'photos', namespace: 'com.example.photos', doc: 'Photos.' });
    expect(photos.methods.finders.byTitle.doc).toBe('By title.');
    expect(models.get('albums')!.subresources.has('comments')).toBe(true);
    expect(models.get('settings')!.timeout).toBe(5_000);
    expect(models.get('entries')!.keyName).toBe('albumId,photoId');
  });

  it('keeps the interface and its declarations without handlers', () => {
    expect(isResourceInterface(photosApi)).toBe(true);
    expect(isResourceInterface(photos)).toBe(false);
    expect(interfaceOf(photos)).toBe(photosApi);
    expect(photosApi.methods.get).toEqual({ doc: 'One photo.' });
    expect(photosApi.methods.finders.byTitle).toEqual({
      kind: 'finder',
      params: { title: STRING },
      paging: false,
      metadata: undefined,
      doc: 'By title.',
    });
    expect(photosApi.keyName).toBe('photosId');
    expect(photosApi.alternativeKeys).toEqual({ urn: { key: STRING_KEY } });
    expect(Object.isFrozen(photosApi) && Object.isFrozen(photos)).toBe(true);
  });

  it('derives the interface of an inline definition, handlers left out', () => {
    const inline = collection({
      name: 'photos',
      namespace: 'ns',
      key: LONG_KEY,
      value: Photo,
      methods: {
        get: () => undefined,
        finders: { byTitle: finder({ params: { title: STRING }, doc: 'd' }, () => []) },
        actions: { count: action({ returns: INT }, () => 1) },
        entityActions: { touch: entityAction({ key: LONG_KEY }, () => undefined) },
      },
      subresources: [comments],
    });
    const derived = interfaceOf(inline);
    expect(isResourceInterface(derived)).toBe(true);
    expect(derived).toMatchObject({
      kind: 'collection',
      name: 'photos',
      namespace: 'ns',
      keyName: 'photosId',
    });
    expect(derived.methods).toEqual({
      get: {},
      finders: {
        byTitle: { kind: 'finder', params: { title: STRING }, paging: false, metadata: undefined, doc: 'd' },
      },
      actions: { count: { kind: 'action', params: {}, returns: INT } },
      entityActions: { touch: { kind: 'action', params: {}, returns: undefined } },
    });
    expect(derived.subresources).toEqual([commentsApi]);
  });
});

describe('implementations over a real socket', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ resources: [photos, albums, entries, settings] });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['a get', 'GET', '/photos/2', undefined, 200, { id: 2, title: 'Dusk' }],
    ['a get by alternative key', 'GET', '/photos/urn:photo:1?altkey=urn', undefined, 200, { id: 1 }],
    ['a finder', 'GET', '/photos?q=byTitle&title=Dawn', undefined, 200, { paging: { total: 2 } }],
    ['a self-paging finder', 'GET', '/photos?q=recent&count=1', undefined, 200, { paging: { total: 7 } }],
    ['an action', 'POST', '/photos?action=count', {}, 200, { value: 3 }],
    ['an entity action', 'POST', '/photos/5?action=rename', { title: 'x' }, 200, { value: '5:x' }],
    [
      'a whole-batch batch finder',
      'GET',
      '/photos?bq=search&criteria=List((title:Dawn,format:JPEG))',
      undefined,
      200,
      { elements: [{ elements: [{ id: 1 }, { id: 3 }] }] },
    ],
    [
      'a per-criterion batch finder',
      'GET',
      '/photos?bq=searchEach&criteria=List((title:Dusk,format:JPEG))',
      undefined,
      200,
      { elements: [{ elements: [{ id: 2 }] }] },
    ],
    ['a subresource', 'GET', '/albums/4/comments/c1', undefined, 200, { name: 'c1 of album 4' }],
    [
      'an association finder',
      'GET',
      '/entries/(albumId:3)?q=byAlbum',
      undefined,
      200,
      { elements: [{ albumId: 3, photoId: 1 }] },
    ],
    ["a simple resource's action", 'POST', '/settings?action=reset', {}, 200, { value: 'done' }],
  ])('answers %s', async (_what, method, path, json, status, body) => {
    const res = await server.request(method, path, json === undefined ? {} : { json });
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject(body);
  });

  it('answers a method the interface does not declare as one no handler serves (400)', async () => {
    const res = await server.request('DELETE', '/photos/1');
    expect(res.status).toBe(400);
  });
});

describe('implementations that do not match their interface', () => {
  const untyped = (iface: unknown, handlers: object): unknown =>
    (implement as unknown as (i: unknown, h: object) => unknown)(iface, handlers);
  const full = {
    get: () => undefined,
    create: () => ({ id: 1 }),
    getAll: () => [],
    finders: { byTitle: () => [], recent: () => [] },
    batchFinders: { search: () => new BatchFinderResult(), searchEach: { perCriterion: () => [] } },
    actions: { count: () => 0, ping: () => undefined },
    entityActions: { rename: () => '' },
    alternativeKeys: { urn: { toKey: () => 1, fromKey: () => '' } },
  };
  const without = (key: keyof typeof full) => {
    const copy: Record<string, unknown> = { ...full };
    delete copy[key];
    return copy;
  };
  const within = (group: 'finders' | 'actions' | 'batchFinders' | 'entityActions', changes: object) => ({
    ...full,
    [group]: { ...full[group], ...changes },
  });

  it('accepts the full implementation', () => {
    expect(() => registerResources([untyped(photosApi, full)])).not.toThrow();
  });

  it.each([
    [
      'a missing method handler',
      without('get'),
      "resource 'photos', get: the interface declares it, but the implementation has no handler for it",
    ],
    [
      'a handler for a method the interface lacks',
      { ...full, delete: () => undefined },
      "resource 'photos', delete: not in the interface of 'photos'",
    ],
    [
      'a handler that is not a function',
      { ...full, create: 1 },
      "resource 'photos', create: a method handler must be a function",
    ],
    [
      'a missing finder',
      within('finders', { recent: undefined }),
      "resource 'photos', finder 'recent': the interface declares it",
    ],
    [
      'an undeclared finder',
      within('finders', { byTag: () => [] }),
      "resource 'photos', finder 'byTag': not in the interface",
    ],
    [
      'a missing batch finder',
      within('batchFinders', { search: undefined }),
      "resource 'photos', batch finder 'search': the interface declares it",
    ],
    [
      'a batch finder that is neither form',
      within('batchFinders', { search: {} }),
      "resource 'photos', batch finder 'search': must be a handler function or { perCriterion: handler, concurrency? }",
    ],
    [
      'an undeclared action',
      within('actions', { purge: () => 0 }),
      "resource 'photos', action 'purge': not in the interface",
    ],
    [
      'a missing entity action',
      within('entityActions', { rename: undefined }),
      "resource 'photos', entity action 'rename': the interface declares it",
    ],
    [
      'a missing alternative key conversion',
      without('alternativeKeys'),
      "resource 'photos', parameter 'urn': the interface declares alternative key 'urn'",
    ],
    [
      'an undeclared alternative key',
      { ...full, alternativeKeys: { ...full.alternativeKeys, id: full.alternativeKeys.urn } },
      "resource 'photos', parameter 'id': alternative key 'id' is not in the interface",
    ],
    [
      'finders that are not an object',
      { ...full, finders: [] },
      "resource 'photos', finders: 'finders' must be an object of name to handler",
    ],
  ])('rejects %s', (_what, handlers, message) => {
    const err = registrationError([untyped(photosApi, handlers)]);
    expect(err.name).toBe('ResourceDefinitionError');
    expect(err.code).toBe('SVC_ERR_ROUTE_BAD_DEFINITION');
    expect(err.message).toContain(message);
  });

  it.each([
    ['a missing subresource', {}, "resource 'albums': the interface declares subresource 'comments'"],
    [
      'an undeclared subresource',
      { subresources: [comments, photos] },
      "resource 'albums': subresource 'photos' is not in the interface",
    ],
    [
      "another interface's implementation",
      {
        subresources: [
          implement(
            collectionInterface({ name: 'comments', key: STRING_KEY, value: Album, methods: ['get'] }),
            { get: () => undefined },
          ),
        ],
      },
      "the interface declares subresource 'comments'",
    ],
  ])('rejects %s', (_what, extra, message) => {
    const err = registrationError([untyped(albumsApi, { get: () => undefined, ...extra })]);
    expect(err.message).toContain(message);
  });

  it('rejects an interface registered in place of an implementation', () => {
    const err = registrationError([photosApi]);
    expect(err.message).toBe(
      "resource 'photos': an interface has no handlers: register its implementation (implement(iface, handlers))",
    );
  });

  it('rejects a bad subresource implementation with its path', () => {
    const badComments = untyped(commentsApi, {});
    const err = registrationError([
      untyped(albumsApi, { get: () => undefined, subresources: [badComments] }),
    ]);
    expect(err.message).toContain("resource 'albums/comments', get: the interface declares it");
  });

  it('refuses what is not an interface', () => {
    expect(() => untyped(collection({ name: 'x', key: LONG_KEY, value: Photo, methods: {} }), {})).toThrow(
      TypeError,
    );
  });

  it('keeps a spread implementation a plain definition', () => {
    const copy: ResourceDefinition = { ...photos, timeout: 10 };
    expect(interfaceOf(copy)).not.toBe(photosApi);
    expect(() => registerResources([copy])).not.toThrow();
  });
});
