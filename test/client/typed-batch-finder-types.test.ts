import type { Observable } from 'rxjs';
import {
  type BatchFinderResponse,
  type CollectionOptions,
  type CollectionPageResponse,
  type CriteriaResult,
  type DataMap,
  type EntityResponse,
  type ResourceClient,
  type TypedActionResponse,
  INT,
  LONG,
  STRING,
  assocKey,
  association,
  batchFinder,
  BatchFinderResult,
  criteriaOf,
  optional,
} from '../../src';
import type { exampleResources } from '../../examples/resources';
import type { Album } from '../../examples/src/main/generated/com/example/photos/Album';
import type { Exif } from '../../examples/src/main/generated/com/example/photos/Exif';
import type { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../../examples/src/main/generated/com/example/photos/PhotoCriteria';
import type { PurgeResult } from '../../examples/src/main/generated/com/example/photos/PurgeResult';
import { Locale } from '../generated/fixtures/com/example/common/Locale';

/**
 * Compile-time checks of the typed client's batch finders and rx forms: criteria typed by `criteriaOf`,
 * the other parameters required or optional as declared (the batch parameter excluded), responses typed
 * by the value and metadata classes, and every rx call the promise call's parameters with an Observable of
 * its response. `tsc --noEmit` runs over this file; the test body only keeps jest content.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;
type Awaited2<T> = T extends Promise<infer R> ? R : never;
type Emits<T> = T extends Observable<infer R> ? R : never;

type Defs = ReturnType<typeof exampleResources>;
type Api = ResourceClient<{ photos: Defs[0]; albums: Defs[1]; albumEntries: Defs[2] }>;
declare const api: Api;
type Id = number | bigint;

// a batch finder with a required parameter, on an association (its assocKey goes into the path)
const shelves = association({
  name: 'shelves',
  assocKeys: { shelf: INT, slot: LONG },
  value: Locale,
  methods: {
    batchFinders: {
      near: batchFinder(
        {
          batchParam: 'around',
          params: {
            around: criteriaOf(PhotoCriteria),
            shelf: assocKey(INT),
            limit: INT,
            note: optional(STRING),
          },
        },
        () => new BatchFinderResult<PhotoCriteria, Locale>(),
      ),
    },
  },
});
declare const shelvesApi: ResourceClient<{ shelves: typeof shelves }>;
void shelves;

// batch finders: criteria, parameters, responses in criteria order
type Search = Api['photos']['batchFinders']['searchPhotos'];
check<Equal<Parameters<Search>[0], Iterable<PhotoCriteria>>>();
check<Equal<NonNullable<Parameters<Search>[1]>, { readonly exif?: Exif | undefined }>>();
check<Equal<Parameters<Search>[2], CollectionOptions | undefined>>();
check<Equal<Awaited2<ReturnType<Search>>, BatchFinderResponse<Photo, DataMap>>>();
check<Equal<Awaited2<ReturnType<Search>>['results'][number], CriteriaResult<Photo, DataMap>>>();
check<Equal<ReturnType<Search['builder']>['criteria'], readonly PhotoCriteria[]>>();
check<
  Equal<Awaited2<ReturnType<ReturnType<Search['builder']>['send']>>, BatchFinderResponse<Photo, DataMap>>
>();
type Near = (typeof shelvesApi)['shelves']['batchFinders']['near'];
check<
  Equal<
    Parameters<Near>[1],
    { readonly shelf: number; readonly limit: number; readonly note?: string | undefined }
  >
>();

// rx forms: the same parameters, an Observable of the same response
check<Equal<Parameters<Api['photos']['rx']['get']>, Parameters<Api['photos']['get']>>>();
check<Equal<Emits<ReturnType<Api['photos']['rx']['get']>>, EntityResponse<Photo>>>();
check<
  Equal<Emits<ReturnType<Api['photos']['rx']['finders']['byTag']>>, CollectionPageResponse<Photo, DataMap>>
>();
check<Equal<Parameters<Api['photos']['rx']['batchFinders']['searchPhotos']>, Parameters<Search>>>();
check<
  Equal<
    Emits<ReturnType<Api['photos']['rx']['batchFinders']['searchPhotos']>>,
    BatchFinderResponse<Photo, DataMap>
  >
>();
check<Equal<Emits<ReturnType<Api['photos']['rx']['actions']['purge']>>, TypedActionResponse<PurgeResult>>>();
check<Equal<Parameters<Api['photos']['rx']['entityActions']['addTag']>[0], Id>>();
check<Equal<Emits<ReturnType<Api['albums']['rx']['get']>>, EntityResponse<Album>>>();

export function misuse(e: Exif, c: PhotoCriteria): void {
  // @ts-expect-error criteria must be PhotoCriteria records
  void api.photos.batchFinders.searchPhotos([e]);
  // @ts-expect-error the batch parameter is the criteria argument, not a parameter
  void api.photos.batchFinders.searchPhotos([c], { criteria: [c] });
  // @ts-expect-error exif is an Exif record
  void api.photos.batchFinders.searchPhotos([c], { exif: 'x' });
  // @ts-expect-error near needs its limit and shelf
  void shelvesApi.shelves.batchFinders.near([c], { note: 'n' });
  // @ts-expect-error near's parameters are required
  void shelvesApi.shelves.batchFinders.near([c]);
  // @ts-expect-error the builder's send needs them too
  void shelvesApi.shelves.batchFinders.near.builder().add(c).send();
  // @ts-expect-error the builder takes criteria records
  void api.photos.batchFinders.searchPhotos.builder().add(e);
  // @ts-expect-error albums have no batch finders
  void api.albums.batchFinders;
  // @ts-expect-error nor their rx forms
  void api.albums.rx.batchFinders;
  // @ts-expect-error an unknown batch finder
  void api.photos.batchFinders.searchAlbums;
  // @ts-expect-error rx forms take the same keys
  void api.photos.rx.get('1');
  // @ts-expect-error rx has no sub or alt
  void api.photos.rx.sub;
}

it('keeps its checks in the type checker', () => {
  expect(check()).toBeUndefined();
});
