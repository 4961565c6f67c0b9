/* eslint-disable @typescript-eslint/no-unused-vars -- type tests read values and parameters through typeof */
/**
 * Compile-time checks of the typed client built from resource interfaces: `createResourceClient(opts,
 * { photos: photosInterface })` has exactly the signatures the client of an inline `collection({...})`
 * definition has (keys, value classes, the methods declared and no other, finder, batch finder and action
 * parameters and returns, alternative keys, subresources), and so does the client of the implementation.
 * `tsc --noEmit` runs over this file; the test body only keeps jest content.
 */
import {
  INT,
  LONG,
  LONG_KEY,
  STRING,
  STRING_KEY,
  type ResourceClient,
  type ResourceClientOf,
  action,
  actionSpec,
  alternativeKey,
  association,
  associationInterface,
  assocKey,
  attachmentsParam,
  batchFinder,
  collection,
  collectionInterface,
  createResourceClient,
  criteriaOf,
  entityAction,
  enumOf,
  finder,
  finderSpec,
  batchFinderSpec,
  optional,
  recordOf,
  simple,
  simpleInterface,
} from '../../src';
import { exampleInterfaces } from '../../examples/interfaces';
import type { exampleResources } from '../../examples/resources';
import { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import { AlbumEntry } from '../../examples/src/main/generated/com/example/photos/AlbumEntry';
import { Exif } from '../../examples/src/main/generated/com/example/photos/Exif';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;

// the example's photos as the inline definition it was before interfaces (handlers are stubs: types only)
const inlinePhotos = collection({
  name: 'photos',
  key: LONG_KEY,
  value: Photo,
  methods: {
    get: () => undefined as Photo | undefined,
    batchGet: () => new Map<number | bigint, Photo>(),
    create: (p: Photo) => ({ id: 1, entity: p }),
    batchCreate: () => [],
    update: () => undefined,
    partialUpdate: () => undefined,
    delete: () => undefined,
    batchDelete: () => new Map(),
    getAll: () => [] as Photo[],
    finders: {
      titleAndOrFormat: finder(
        { params: { title: optional(STRING), format: optional(enumOf(PhotoFormat)) } },
        () => [] as Photo[],
      ),
      byTag: finder({ params: { tag: STRING }, paging: true }, () => [] as Photo[]),
      export: finder({ params: {}, paging: true }, () => [] as Photo[]),
    },
    batchFinders: {
      searchPhotos: batchFinder(
        {
          batchParam: 'criteria',
          params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) },
        },
        () => {
          throw new Error('types only');
        },
      ),
    },
    actions: {
      relay: action(
        { params: { photo: recordOf(Photo), image: attachmentsParam() }, returns: LONG },
        () => 1,
      ),
      purge: action(
        { params: { takenBefore: optional(LONG, 0) }, returns: recordOf(PurgeResult) },
        () => new PurgeResult(),
      ),
    },
    entityActions: {
      addTag: entityAction({ key: LONG_KEY, params: { tag: STRING }, returns: INT }, () => 1),
    },
  },
});
const inlineAlbums = collection({
  name: 'albums',
  key: LONG_KEY,
  value: Album,
  methods: {
    get: () => undefined,
    batchGet: () => new Map(),
    create: () => ({ id: 1 }),
    update: () => undefined,
    partialUpdate: () => undefined,
    delete: () => undefined,
    getAll: () => [],
  },
});
const inlineEntries = association({
  name: 'albumEntries',
  assocKeys: { albumId: LONG, photoId: LONG },
  value: AlbumEntry,
  methods: {
    get: () => undefined,
    batchGet: () => new Map(),
    update: () => undefined,
    delete: () => undefined,
    batchDelete: () => new Map(),
    getAll: () => [],
    finders: {
      byAlbum: finder({ params: { albumId: assocKey(LONG) } }, () => []),
      byPhoto: finder({ params: { photoId: assocKey(LONG) } }, () => []),
    },
  },
});

type FromInterfaces = ResourceClient<typeof exampleInterfaces>;
type FromInline = ResourceClient<{
  photos: typeof inlinePhotos;
  albums: typeof inlineAlbums;
  albumEntries: typeof inlineEntries;
}>;
type Defs = ReturnType<typeof exampleResources>;
type FromImplementations = ResourceClient<{ photos: Defs[0]; albums: Defs[1]; albumEntries: Defs[2] }>;

// the whole client, resource by resource: the interface's is the inline definition's, and the implementation's
check<Equal<FromInterfaces['photos'], FromInline['photos']>>();
check<Equal<FromInterfaces['albums'], FromInline['albums']>>();
check<Equal<FromInterfaces['albumEntries'], FromInline['albumEntries']>>();
check<Equal<FromImplementations['photos'], FromInterfaces['photos']>>();
check<Equal<FromImplementations['albums'], FromInterfaces['albums']>>();
check<Equal<FromImplementations['albumEntries'], FromInterfaces['albumEntries']>>();

// the same with a get_all finder, metadata, alternative keys, a simple resource with actions
const pagedApi = collectionInterface({
  name: 'docs',
  key: STRING_KEY,
  value: Album,
  methods: { get: {}, getAll: finderSpec({ params: { owner: optional(STRING) }, metadata: PurgeResult }) },
  finders: {
    recent: finderSpec({ params: { days: optional(INT, 7) }, paging: true, metadata: PurgeResult }),
  },
  batchFinders: {
    search: batchFinderSpec({
      batchParam: 'c',
      params: { c: criteriaOf(PhotoCriteria), n: INT },
      metadata: PurgeResult,
    }),
  },
  alternativeKeys: { urn: STRING_KEY, num: LONG_KEY },
});
const pagedInline = collection({
  name: 'docs',
  key: STRING_KEY,
  value: Album,
  methods: {
    get: () => undefined,
    getAll: finder({ params: { owner: optional(STRING) }, metadata: PurgeResult }, () => []),
    finders: {
      recent: finder({ params: { days: optional(INT, 7) }, paging: true, metadata: PurgeResult }, () => []),
    },
    batchFinders: {
      search: batchFinder(
        { batchParam: 'c', params: { c: criteriaOf(PhotoCriteria), n: INT }, metadata: PurgeResult },
        () => {
          throw new Error('types only');
        },
      ),
    },
  },
  alternativeKeys: {
    urn: alternativeKey({ key: STRING_KEY, toKey: (s: string) => s, fromKey: (s: string) => s }),
    num: alternativeKey({
      key: LONG_KEY,
      toKey: (n: number | bigint) => String(n),
      fromKey: (s: string) => Number(s),
    }),
  },
});
type PagedFromInterface = ResourceClientOf<typeof pagedApi>;
type PagedFromInline = ResourceClientOf<typeof pagedInline>;
// every member but `alt`, whose generic signature names the declarations' own alternative key types
check<Equal<Omit<PagedFromInterface, 'alt'>, Omit<PagedFromInline, 'alt'>>>();
declare const pagedFromInterface: PagedFromInterface;
declare const pagedFromInline: PagedFromInline;
check<
  Equal<ReturnType<typeof pagedFromInterface.alt<'urn'>>, ReturnType<typeof pagedFromInline.alt<'urn'>>>
>();
check<
  Equal<ReturnType<typeof pagedFromInterface.alt<'num'>>, ReturnType<typeof pagedFromInline.alt<'num'>>>
>();
check<Equal<Parameters<PagedFromInterface['alt']>[0], 'urn' | 'num'>>();

const settingsApi = simpleInterface({
  name: 'settings',
  value: Album,
  methods: ['get', 'partialUpdate'],
  actions: { reset: actionSpec({ params: { hard: optional(STRING) }, returns: INT }) },
});
const settingsInline = simple({
  name: 'settings',
  value: Album,
  methods: {
    get: () => undefined,
    partialUpdate: () => undefined,
    actions: { reset: action({ params: { hard: optional(STRING) }, returns: INT }, () => 1) },
  },
});
check<Equal<ResourceClientOf<typeof settingsApi>, ResourceClientOf<typeof settingsInline>>>();

const entriesApi = associationInterface({
  name: 'entries',
  assocKeys: { albumId: LONG, photoId: LONG },
  value: AlbumEntry,
  methods: ['get'],
  entityActions: { touch: actionSpec() },
});
type EntryKey = { readonly albumId: number | bigint; readonly photoId: number | bigint };
check<Equal<Parameters<ResourceClientOf<typeof entriesApi>['entityActions']['touch']>[0], EntryKey>>();
check<
  Equal<Awaited<ReturnType<ResourceClientOf<typeof entriesApi>['entityActions']['touch']>>['value'], void>
>();

// what an interface lacks, its client lacks
export function misuse(): void {
  const api = createResourceClient({ baseUrl: 'http://127.0.0.1:1' }, exampleInterfaces);
  // @ts-expect-error albums declare no batch_create
  void api.albums.batchCreate([]);
  // @ts-expect-error albums declare no finders
  void api.albums.finders;
  // @ts-expect-error a photo key is a number, not a string
  void api.photos.get('1');
  // @ts-expect-error byTag needs its tag
  void api.photos.finders.byTag({});
  // @ts-expect-error photos declare no alternative keys
  void api.photos.alt;
  const settings = createResourceClient(
    { baseUrl: 'http://127.0.0.1:1' },
    { settings: settingsApi },
  ).settings;
  // @ts-expect-error settings declare no delete
  void settings.delete();
}

it('keeps its checks in the type checker', () => {
  expect(check()).toBeUndefined();
});
