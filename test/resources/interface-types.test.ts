/* eslint-disable @typescript-eslint/no-unused-vars -- type tests read values and parameters through typeof */
/**
 * Compile-time checks of `implement(iface, handlers)`: handlers are typed by the interface exactly as inline
 * definitions type them (keys, entities, finder and action parameters, returns, criteria), entity actions
 * get the resource's key without naming it, and a handler missing or one the interface lacks does not
 * compile. `tsc --noEmit` runs over this file; the test body only keeps jest content.
 */
import {
  INT,
  LONG,
  LONG_KEY,
  STRING,
  STRING_KEY,
  BatchFinderResult,
  type ResourceContext,
  type ResourceDefinition,
  actionSpec,
  associationInterface,
  assocKey,
  batchFinderSpec,
  collectionInterface,
  criteriaOf,
  enumOf,
  finderSpec,
  implement,
  optional,
  collection,
  simpleInterface,
  withMaxBatchSize,
} from '../../src';
import { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import { AlbumEntry } from '../../examples/src/main/generated/com/example/photos/AlbumEntry';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const check = <T extends true>(): T | undefined => undefined;
type Id = number | bigint;

const photosApi = collectionInterface({
  name: 'photos',
  key: LONG_KEY,
  value: Photo,
  methods: ['get', 'create', 'batchGet', 'partialUpdate'],
  finders: {
    byFormat: finderSpec({
      params: { format: enumOf(PhotoFormat), title: optional(STRING) },
      metadata: PurgeResult,
    }),
  },
  batchFinders: {
    search: batchFinderSpec({
      batchParam: 'criteria',
      params: { criteria: criteriaOf(PhotoCriteria), n: optional(INT, 3) },
    }),
  },
  actions: { purge: actionSpec({ params: { before: LONG }, returns: INT }), ping: actionSpec() },
  entityActions: { tag: actionSpec({ params: { tag: STRING }, returns: STRING }) },
  alternativeKeys: { urn: STRING_KEY },
});

export const photos = implement(photosApi, {
  get: (id, ctx) => {
    check<Equal<typeof id, Id>>();
    check<Equal<typeof ctx, ResourceContext>>();
    return undefined;
  },
  create: (photo) => {
    check<Equal<typeof photo, Photo>>();
    return { id: 1 };
  },
  batchGet: (ids) => {
    check<Equal<typeof ids, readonly Id[]>>();
    return new Map<Id, Photo>();
  },
  partialUpdate: (id, patch) => ({ entity: patch.applyTo(new Photo().setId(id)) }),
  finders: {
    byFormat: ({ format, title }) => {
      check<Same<typeof format, PhotoFormat>>(); // the enum's members: mutually assignable
      check<Equal<typeof title, string | undefined>>();
      return { elements: [], metadata: new PurgeResult() };
    },
  },
  batchFinders: {
    search: (criteria, { n }) => {
      check<Equal<typeof criteria, readonly PhotoCriteria[]>>();
      check<Equal<typeof n, number>>();
      return new BatchFinderResult<PhotoCriteria, Photo>();
    },
  },
  actions: {
    purge: ({ before }) => {
      check<Equal<typeof before, Id>>();
      return 1;
    },
    ping: () => undefined,
  },
  entityActions: {
    tag: (id, { tag }) => {
      check<Equal<typeof id, Id>>();
      return `${String(id)}:${tag}`;
    },
  },
  alternativeKeys: { urn: { toKey: (urn) => Number(urn), fromKey: (id) => `urn:${String(id)}` } },
});

// an implementation is a definition the server registers
export const registered: readonly ResourceDefinition[] = [photos];

// the per-criterion form of a batch finder
export const perCriterion = implement(photosApi, {
  get: () => undefined,
  create: () => ({ id: 1 }),
  batchGet: () => new Map(),
  partialUpdate: () => undefined,
  finders: { byFormat: () => [] },
  batchFinders: {
    search: {
      perCriterion: (criterion, { n }) => {
        check<Equal<typeof criterion, PhotoCriteria>>();
        check<Equal<typeof n, number>>();
        return [];
      },
      concurrency: 4,
    },
  },
  actions: { purge: () => 0, ping: () => undefined },
  entityActions: { tag: () => '' },
  alternativeKeys: { urn: { toKey: Number, fromKey: String } },
});

const entriesApi = associationInterface({
  name: 'entries',
  assocKeys: { albumId: LONG, photoId: LONG },
  value: AlbumEntry,
  methods: ['get', 'delete'],
  finders: { byAlbum: finderSpec({ params: { albumId: assocKey(LONG) } }) },
});

export const entries = implement(entriesApi, {
  get: (key) => {
    check<Equal<typeof key, { readonly albumId: Id; readonly photoId: Id }>>();
    return undefined;
  },
  delete: () => undefined,
  finders: { byAlbum: ({ albumId }) => [new AlbumEntry().setAlbumId(albumId)] },
});

const settingsApi = simpleInterface({
  name: 'settings',
  value: Album,
  methods: { get: { doc: 'The settings.' } },
  actions: { reset: actionSpec({ returns: INT }) },
});

export const settings = implement(settingsApi, {
  get: (ctx) => {
    check<Equal<typeof ctx, ResourceContext>>();
    return new Album();
  },
  actions: { reset: () => 0 },
});

// what does not compile
export function misuse(): void {
  // @ts-expect-error the interface declares delete: its handler is missing
  implement(entriesApi, {
    get: () => undefined,
    finders: { byAlbum: () => [] },
  });
  implement(entriesApi, {
    get: () => undefined,
    delete: () => undefined,
    // @ts-expect-error the interface declares no update
    update: () => undefined,
    finders: { byAlbum: () => [] },
  });
  implement(entriesApi, {
    get: () => undefined,
    delete: () => undefined,
    // @ts-expect-error byPhoto is not declared
    finders: { byAlbum: () => [], byPhoto: () => [] },
  });
  implement(settingsApi, {
    get: () => new Album(),
    // @ts-expect-error reset returns an int
    actions: { reset: () => 'done' },
  });
  implement(settingsApi, {
    // @ts-expect-error get returns an Album
    get: () => new Photo(),
    actions: { reset: () => 0 },
  });
  implement(entriesApi, {
    get: () => undefined,
    delete: () => undefined,
    // @ts-expect-error an association has no entity key that is a string
    finders: { byAlbum: ({ albumId }: { albumId: string }) => [] },
  });
  // @ts-expect-error the interface declares alternative key urn: its conversion is missing
  implement(photosApi, {
    get: () => undefined,
    create: () => ({ id: 1 }),
    batchGet: () => new Map(),
    partialUpdate: () => undefined,
    finders: { byFormat: () => [] },
    batchFinders: { search: { perCriterion: () => [] } },
    actions: { purge: () => 0, ping: () => undefined },
    entityActions: { tag: () => '' },
  });
}

// a batch method's own limit: on batch methods only; withMaxBatchSize keeps the handler's type
export function batchLimits(): void {
  const limited = collectionInterface({
    name: 'limited',
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: {},
      batchGet: { maxBatchSize: 50, doc: 'At most 50.' },
      batchDelete: { maxBatchSize: 10 },
    },
  });
  implement(limited, {
    get: () => undefined,
    batchGet: () => new Map<Id, Photo>(),
    batchDelete: (ids) => new Map(ids.map((id) => [id, {}] as const)),
  });
  collection({
    name: 'inline',
    key: LONG_KEY,
    value: Photo,
    methods: {
      batchGet: withMaxBatchSize(20, (ids) => {
        check<Equal<typeof ids, readonly Id[]>>();
        return new Map<Id, Photo>();
      }),
    },
  });
  collectionInterface({
    name: 'wrong',
    key: LONG_KEY,
    value: Photo,
    // @ts-expect-error get is not a batch method: it has no maxBatchSize
    methods: { get: { maxBatchSize: 5 } },
  });
}

it('keeps its checks in the type checker', () => {
  expect(check()).toBeUndefined();
});
