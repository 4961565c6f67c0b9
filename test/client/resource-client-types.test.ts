import {
  type BatchEntityResponse,
  type CollectionPageResponse,
  type DataMap,
  type ErrorResponse,
  type KeyMap,
  type ResourceClient,
  type TypedActionResponse,
  type UpdateResponse,
  type CreateResponse,
  type CallOptions,
} from '../../src';
import type { exampleResources } from '../../examples/resources';
import type { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import type { AlbumEntry } from '../../examples/src/main/generated/com/example/photos/AlbumEntry';
import type { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import type { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import type { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';

/**
 * Compile-time checks of the typed resource client: its signatures follow the definitions (key types, value
 * classes, the methods a resource has, finder and action parameters and returns). `tsc --noEmit` runs over
 * this file; the test body only keeps jest content.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;
type Awaited2<T> = T extends Promise<infer R> ? R : never;

type Defs = ReturnType<typeof exampleResources>;
type Api = ResourceClient<{ photos: Defs[0]; albums: Defs[1]; albumEntries: Defs[2] }>;
declare const api: Api;
type Id = number | bigint;
type EntryKey = { readonly albumId: Id; readonly photoId: Id };

// keys and entities follow the definition
check<Equal<Awaited2<ReturnType<Api['photos']['batchGet']>>, BatchEntityResponse<Id, Photo>>>();
check<Equal<Awaited2<ReturnType<Api['photos']['batchGet']>>['errors'], KeyMap<Id, ErrorResponse>>>();
check<Equal<Parameters<Api['photos']['get']>[0], Id>>();
check<Equal<Awaited2<ReturnType<Api['photos']['create']>>, CreateResponse<Photo, Id>>>();
check<Equal<Parameters<Api['albumEntries']['get']>[0], EntryKey>>();
check<
  Equal<Awaited2<ReturnType<Api['albumEntries']['batchGet']>>['results'], KeyMap<EntryKey, AlbumEntry>>
>();
check<Equal<Awaited2<ReturnType<Api['albums']['get']>>['entity'], Album>>();
check<Equal<Awaited2<ReturnType<Api['photos']['delete']>>, UpdateResponse<never>>>();

// finders: required and optional parameters, typed values, metadata without a class is a DataMap
check<Equal<Parameters<Api['photos']['finders']['byTag']>[0], { readonly tag: string }>>();
check<
  Equal<
    Awaited2<ReturnType<Api['photos']['finders']['titleAndOrFormat']>>,
    CollectionPageResponse<Photo, DataMap>
  >
>();
type TitleParams = NonNullable<Parameters<Api['photos']['finders']['titleAndOrFormat']>[0]>;
check<Equal<TitleParams['format'], PhotoFormat | undefined>>();
check<Equal<Parameters<Api['albumEntries']['finders']['byAlbum']>[0], { readonly albumId: Id }>>();

// actions: parameters and return types
check<Equal<Awaited2<ReturnType<Api['photos']['actions']['purge']>>, TypedActionResponse<PurgeResult>>>();
check<Equal<Awaited2<ReturnType<Api['photos']['entityActions']['addTag']>>['value'], number>>();
check<
  Equal<
    Parameters<Api['photos']['entityActions']['addTag']>,
    [key: Id, params: { readonly tag: string }, options?: CallOptions]
  >
>();

// what a definition lacks, the client lacks
export function misuse(p: Photo): void {
  // @ts-expect-error albums have no batch_create
  void api.albums.batchCreate([]);
  // @ts-expect-error associations have no create
  void api.albumEntries.create(p);
  // @ts-expect-error albums have no finders
  void api.albums.finders;
  // @ts-expect-error a photo key is a number, not a string
  void api.photos.get('1');
  // @ts-expect-error an association key needs both parts
  void api.albumEntries.get({ albumId: 1 });
  // @ts-expect-error byTag needs its tag
  void api.photos.finders.byTag({});
  // @ts-expect-error format is an enum, not any string
  void api.photos.finders.titleAndOrFormat({ format: 'TIFF' });
  // @ts-expect-error the entity must be a Photo
  void api.photos.update(1, new Map());
  // @ts-expect-error an unknown finder
  void api.photos.finders.byColour;
  // @ts-expect-error photos declare no alternative keys
  void api.photos.alt;
  // @ts-expect-error addTag's tag is a string
  void api.photos.entityActions.addTag(1, { tag: 3 });
}

it('keeps its checks in the type checker', () => {
  expect(check()).toBeUndefined();
});
