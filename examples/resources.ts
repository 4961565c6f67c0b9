/**
 * The example service's resources: a photo library.
 *
 * | resource | kind | path |
 * |---|---|---|
 * | `photos` | collection, long keys | `/photos`, `/photos/1` |
 * | `albums` | collection, long keys | `/albums`, `/albums/1` |
 * | `albumEntries` | association of album and photo ids | `/albumEntries/(albumId:1,photoId:2)` |
 *
 * Each implements its interface (`interfaces.ts`, which clients use): handlers take typed keys and generated
 * classes, and return entities, promises or observables; they throw `ServiceError` for a chosen status.
 */
import {
  type AttachmentQueue,
  type AttachmentReader,
  type JobSnapshot,
  type PatchRequest,
  type StoredAttachments,
  GetMode,
  ResponseAttachments,
  SetMode,
  attachments$,
  type SvcClient,
  createClient,
  withAttachments,
  withContentType,
  LONG_KEY,
  ServiceError,
  implement,
  jobsResource,
  tracingClientFilter,
} from 'svc-framework';
import { EMPTY, concatMap, from, ignoreElements, lastValueFrom, map } from 'rxjs';
import { albumEntriesInterface, albumsInterface, photosInterface } from './interfaces';
import { PHOTO_PROCESS } from './processing';
import type { Photo } from './src/main/generated/com/example/photos/Photo';
import { PhotoStatus } from './src/main/generated/com/example/photos/PhotoStatus';
import { PurgeResult } from './src/main/generated/com/example/photos/PurgeResult';
import type { Awaitable, PhotoStore } from './store';

function notFound(what: string): ServiceError {
  return new ServiceError(404, `${what} not found`);
}

/** The `photos` collection. */
/** Options of the example's resources. */
export interface ExampleResourceOptions {
  /**
   * Base URL of another instance of this service, for `photos?action=relay` (from `UPSTREAM_URL` in
   * `server.ts`). Default: none (relay answers 501).
   */
  readonly upstream?: string;
  /**
   * The queue an uploaded image goes to (a `photo.process` job, see `processing.ts`). Default: none, and
   * a create that carries an image answers 503.
   */
  readonly queue?: AttachmentQueue;
}

export function photosResource(lib: PhotoStore, options: ExampleResourceOptions = {}) {
  // the upstream's client, made on first relay
  let upstream: SvcClient | undefined;
  /** Replaces photo `id`; when it went meanwhile (deleted while its image was stored), its new job goes too. */
  const replaceOrCancel = async (id: number | bigint, photo: Photo, job: JobSnapshot | undefined) => {
    if (await lib.replacePhoto(id, photo)) return;
    if (job !== undefined) await options.queue?.cancel(job.id);
    throw notFound(`photo ${id}`);
  };
  return implement(photosInterface, {
    // with `Accept: multipart/related`, a photo that has an image comes with it as a response attachment
    // (its `image` field points at it); other clients get the photo alone
    get: (id, ctx) =>
      then(lib.getPhoto(id), (photo) => {
        if (photo === undefined || !ctx.responseAttachmentsSupported()) return photo;
        return lib.images.writer(id).then((stored) => {
          if (stored === undefined) return photo;
          // the media type the processing job sniffed, so the part says what it holds (image/png, ...)
          const mediaType = photo.getImageInfo()?.getMediaType();
          const image = mediaType === undefined ? stored : withContentType(stored, mediaType);
          ctx.setResponseAttachments(ResponseAttachments.builder().appendSingleAttachment(image).build());
          return photo.copy().setImage(`cid:${image.getAttachmentID()}`);
        });
      }),
    // the photos in the order of the ids, undefined for an id with none (left out of the answer)
    batchGet: (ids) => all(ids.map((id) => lib.getPhoto(id))),
    // the created photo is returned too, unless the request says $returnEntity=false. Its image, if any,
    // comes as an attachment of a multipart/related request that `image: "cid:<id>"` points at: it is
    // streamed into the queue's blob store as it arrives and a `photo.process` job is queued, so the answer
    // comes as soon as the upload is stored, with the photo PENDING and its job id (`GET /jobs/{id}`).
    // The photo and its job appear together or not at all: the image is stored first (a request that
    // breaks off leaves nothing), then the job is added under an id the photo will have, then the photo
    // becomes visible with its job
    create: withAttachments(async (attachments, photo: Photo) => {
      const image = await storeImage(options.queue, photo, attachments);
      if (image !== undefined && lib.addPhotoWithJob !== undefined) {
        // the store's outbox: the photo and its job in one transaction, the job sent on after the commit
        try {
          const stored = await lib.addPhotoWithJob(photo, {
            name: PHOTO_PROCESS,
            blobIds: image.stored.stored.map((b) => b.blobId),
          });
          return { id: stored.getId()!, entity: stored };
        } catch (err) {
          await image.queue.discard(image.stored);
          throw err;
        }
      }
      const id = await lib.reservePhotoId();
      const job = await enqueueImage(image, id);
      return { id, entity: await lib.addPhoto(withImageJob(photo, job, false), id) };
    }),
    batchCreate: (photos) =>
      all(
        photos.map((p) => {
          // the schema makes a title required (validation answers 422 before this runs); a blank one is the
          // service's own rule, refused per item
          if (p.getTitle().trim() === '') return new ServiceError(400, 'a photo needs a title');
          return then(lib.addPhoto(p), (stored) => ({ id: stored.getId()! }));
        }),
      ),
    // an update may bring a new image the same way (an attachment its `image` points at): it is queued
    // for processing as on create, and the photo is PENDING again with the new job
    update: withAttachments(async (attachments, id: number | bigint, photo: Photo) => {
      // (attachments a handler leaves unread are drained by the framework)
      if ((await lib.getPhoto(id)) === undefined) throw notFound(`photo ${id}`);
      const job = await enqueueImage(await storeImage(options.queue, photo, attachments), id);
      await replaceOrCancel(id, withImageJob(photo, job, true), job);
    }),
    partialUpdate: withAttachments(async (attachments, id: number | bigint, patch: PatchRequest<Photo>) => {
      const current = await lib.getPhoto(id);
      if (current === undefined) throw notFound(`photo ${id}`);
      const patched = patch.applyTo(current);
      const job = await enqueueImage(await storeImage(options.queue, patched, attachments), id);
      await replaceOrCancel(id, withImageJob(patched, job, true), job);
      return { entity: (await lib.getPhoto(id))! };
    }),
    delete: (id) =>
      then(lib.removePhoto(id), (removed) => {
        if (!removed) throw notFound(`photo ${id}`);
      }),
    batchDelete: (ids) =>
      then(
        all(ids.map((id) => lib.removePhoto(id))),
        (removed) => new Map(ids.map((id, i) => [id, removed[i] ? {} : notFound(`photo ${id}`)] as const)),
      ),
    // every photo; the framework cuts the page (start, count) and reports the total
    getAll: () => lib.listPhotos(),
    finders: {
      titleAndOrFormat: ({ title, format }) => lib.findPhotos(title, format),
      // pages itself (`paging: true` in interfaces.ts): on PostgreSQL a page is streamed from a cursor
      byTag: ({ tag }, ctx) => lib.photosTaggedPage(tag, checkedPaging(ctx.paging, FINDER_COUNT_LIMIT)),
      // GET /photos?q=export&start=0&count=1000000: every photo in id order, streamed with demand on
      // PostgreSQL (rows are read as the response is written; a client hanging up cancels the query)
      export: (_params, ctx) => lib.exportPhotos(checkedPaging(ctx.paging, EXPORT_COUNT_LIMIT)),
    },
    batchFinders: {
      // GET /photos?bq=searchPhotos&criteria=List((title:Sunrise,format:JPEG),(...)): one page per criterion,
      // in the order sent. The criteria run as parallel queries (on PostgreSQL, each on a connection of the
      // pool), at most SEARCH_CONCURRENCY at once so that one request never takes the whole pool, merged
      // back in request order by the framework; criteria nothing matches are left out (the framework
      // answers them 404), and a criterion whose query fails is answered as its own error entry
      searchPhotos: {
        perCriterion: (c, { exif }) =>
          then(lib.searchPhotos(c.getTitle(), c.getFormat(), exif), (found) =>
            found.length === 0 ? undefined : found,
          ),
        concurrency: SEARCH_CONCURRENCY,
      },
    },
    actions: {
      // creates the photo on the upstream instance, its image attachment forwarded hop to hop as it
      // arrives (never held here); answers the upstream's new id
      relay: async ({ photo, image }, ctx) => {
        if (options.upstream === undefined)
          throw new ServiceError(501, 'This instance has no upstream to relay to (set UPSTREAM_URL)');
        // a relayed upload takes as long as the client sends it; the caller hanging up (ctx.signal) ends it
        // tracingClientFilter: a client span per call, its `traceparent` sent on (a no-op without an SDK)
        upstream ??= createClient({
          baseUrl: options.upstream,
          timeoutMs: 10 * 60_000,
          filters: [tracingClientFilter()],
        });
        const created = await upstream.send({
          method: 'create',
          resource: 'photos',
          body: photo,
          keySpec: LONG_KEY.spec,
          attachments: image === null ? [] : [image],
          signal: ctx.signal,
        });
        return created.id as number | bigint;
      },
      // removes photos taken before a time (and their album entries); an Observable works as well
      purge: ({ takenBefore }) =>
        from(Promise.resolve(lib.purgePhotos(Number(takenBefore)))).pipe(
          map((r) => new PurgeResult().setPhotosRemoved(r.photos).setEntriesRemoved(r.entries)),
        ),
    },
    entityActions: {
      // POST /photos/1?action=addTag {"tag":"favourite"} → {"value": <number of tags>}; a Promise works too
      addTag: (id, { tag }) =>
        Promise.resolve(lib.addTag(id, tag)).then((n) => {
          if (n === undefined) throw notFound(`photo ${id}`);
          return n;
        }),
    },
  });
}

/** The `albums` collection. */
export function albumsResource(lib: PhotoStore) {
  return implement(albumsInterface, {
    get: (id) => lib.getAlbum(id),
    batchGet: (ids) =>
      then(
        all(ids.map((id) => lib.getAlbum(id))),
        (albums) =>
          new Map(ids.flatMap((id, i) => (albums[i] === undefined ? [] : [[id, albums[i]] as const]))),
      ),
    create: (album) => {
      if (album.getName().trim() === '') throw new ServiceError(400, 'an album needs a name');
      return then(lib.addAlbum(album), (a) => ({ id: a.getId()! }));
    },
    update: (id, album) =>
      then(lib.replaceAlbum(id, album), (ok) => {
        if (!ok) throw notFound(`album ${id}`);
      }),
    partialUpdate: async (id, patch) => {
      const current = await lib.getAlbum(id);
      if (current === undefined) throw notFound(`album ${id}`);
      await lib.replaceAlbum(id, patch.applyTo(current));
    },
    delete: (id) =>
      then(lib.removeAlbum(id), (ok) => {
        if (!ok) throw notFound(`album ${id}`);
      }),
    getAll: () => lib.listAlbums(),
  });
}

/** The `albumEntries` association: which photo is in which album. */
export function albumEntriesResource(lib: PhotoStore) {
  return implement(albumEntriesInterface, {
    get: (key) => lib.getEntry(key),
    batchGet: (keys) =>
      then(
        all(keys.map((k) => lib.getEntry(k))),
        (entries) =>
          new Map(keys.flatMap((k, i) => (entries[i] === undefined ? [] : [[k, entries[i]] as const]))),
      ),
    // PUT /albumEntries/(albumId:1,photoId:5) puts photo 5 into album 1
    update: (key, entry) =>
      then(lib.putEntry(key, entry), (ok) => {
        if (!ok) throw notFound(`album ${key.albumId} or photo ${key.photoId}`);
        return { status: 201 };
      }),
    delete: (key) =>
      then(lib.removeEntry(key), (ok) => {
        if (!ok) throw notFound(`entry ${key.albumId}/${key.photoId}`);
      }),
    batchDelete: (keys) =>
      then(
        all(keys.map((k) => lib.removeEntry(k))),
        (removed) =>
          new Map(
            keys.map((k, i) => [k, removed[i] ? {} : notFound(`entry ${k.albumId}/${k.photoId}`)] as const),
          ),
      ),
    getAll: () => lib.listEntries(),
    finders: {
      // GET /albumEntries/(albumId:1)?q=byAlbum: the album id is the partial key in the path
      byAlbum: ({ albumId }) => lib.listEntries({ albumId }),
      byPhoto: ({ photoId }) => lib.listEntries({ photoId }),
    },
  });
}

/** Every resource of the example service over one library. */
export function exampleResources(lib: PhotoStore, options: ExampleResourceOptions = {}) {
  return [photosResource(lib, options), albumsResource(lib), albumEntriesResource(lib)] as const;
}

/** The example's resources and, with a queue, the `jobs` resource over it (`GET /jobs/{id}`). */
export function exampleService(lib: PhotoStore, options: ExampleResourceOptions = {}) {
  const resources = exampleResources(lib, options);
  return options.queue === undefined ? [...resources] : [...resources, jobsResource(options.queue)];
}

/** Criteria of one batch search queried at once (below the PostgreSQL store's pool of 10). */
export const SEARCH_CONCURRENCY = 4;

/** The most a finder's page may hold (`count`); more is a 400. */
export const FINDER_COUNT_LIMIT = 1000;
/** The most one page of `photos?q=export` may hold: a million photos in one streamed response. */
export const EXPORT_COUNT_LIMIT = 1_000_000;

/** The request's paging, refused (400) when it asks for more than `limit` elements at once. */
function checkedPaging(paging: { start: number; count: number }, limit: number) {
  if (paging.count > limit)
    throw new ServiceError(400, `count ${paging.count} is above this method's limit of ${limit}`);
  return paging;
}

/**
 * `f(v)`, now when `v` is a value (the in-memory store: the handler answers synchronously, as before), or
 * once `v` resolves (the PostgreSQL store).
 */
function then<T, R>(v: Awaitable<T>, f: (v: T) => R): R | Promise<Awaited<R>> {
  return v instanceof Promise ? (v.then(f) as Promise<Awaited<R>>) : f(v);
}

/** Values now when all are values, else a promise of them all. */
function all<T>(vs: readonly Awaitable<T>[]): Awaitable<T[]> {
  return vs.some((v) => v instanceof Promise) ? Promise.all(vs) : (vs as T[]);
}

/** The attachment id an `image` pointer (`cid:<id>`) names; a pointer of another form is a 400. */
function attachmentWanted(pointer: string | undefined): string | undefined {
  if (pointer === undefined) return undefined;
  if (!pointer.startsWith('cid:') || pointer.length === 4)
    throw new ServiceError(400, `image must point at an attachment (cid:<id>), not '${pointer}'`);
  return pointer.slice(4);
}

/**
 * Stores the attachment a photo's `image` points at (`cid:<id>`) in the queue's blob store, reading the
 * request's attachments to their end (the others are drained), so that a request that breaks off fails
 * here, before anything becomes visible. An image that points at an attachment the request does not carry
 * is the client's error (400), on every method; a request with an image and no queue to take it is a 503.
 */
async function storeImage(
  queue: AttachmentQueue | undefined,
  photo: Photo,
  attachments: AttachmentReader | null,
): Promise<{ queue: AttachmentQueue; stored: StoredAttachments } | undefined> {
  const wanted = attachmentWanted(photo.getImage(GetMode.NULL));
  let image: Promise<StoredAttachments> | undefined;
  if (attachments !== null) {
    try {
      await lastValueFrom(
        attachments$(attachments).pipe(
          concatMap((a) => {
            if (a.id !== wanted || image !== undefined) {
              a.reader.drainAttachment();
              return EMPTY;
            }
            if (queue === undefined)
              throw new ServiceError(503, 'This instance has no queue for images (see createExampleApp)');
            image = queue.store(a.reader);
            return from(image).pipe(ignoreElements());
          }),
        ),
        { defaultValue: undefined },
      );
    } catch (err) {
      const stored = await image?.catch(() => undefined);
      if (stored !== undefined) await queue!.discard(stored);
      throw err;
    }
  }
  if (wanted !== undefined && image === undefined)
    throw new ServiceError(400, `image points at attachment '${wanted}', which the request does not carry`);
  return image === undefined ? undefined : { queue: queue!, stored: await image };
}

/**
 * Adds the `photo.process` job of a stored image for photo `id`, which takes the blob over; if the job
 * cannot be added (Redis down: 503), the blob is removed and nothing else has changed.
 */
async function enqueueImage(
  image: { queue: AttachmentQueue; stored: StoredAttachments } | undefined,
  id: number | bigint,
): Promise<JobSnapshot | undefined> {
  if (image === undefined) return undefined;
  try {
    return await image.queue.enqueue(PHOTO_PROCESS, image.stored, { photoId: String(id) });
  } catch (err) {
    await image.queue.discard(image.stored);
    throw err;
  }
}

/**
 * The photo as stored: without the request's image pointer, and PENDING on the job of a new image. On
 * create, what processing finds is the service's to say (a client's status, findings or job are dropped);
 * updates keep what they set, since that is how workers in other processes report their findings
 * (`httpUpdates`, a partial update).
 */
export function withImageJob(
  photo: Photo,
  job: { readonly id: string } | undefined,
  updating: boolean,
): Photo {
  const out = photo.copy().setImage(null, SetMode.REMOVE_IF_NULL);
  if (job !== undefined)
    return out
      .setStatus(PhotoStatus.PENDING)
      .setImageInfo(null, SetMode.REMOVE_IF_NULL)
      .setProcessingJob(job.id);
  if (updating) return out;
  return out
    .setStatus(null, SetMode.REMOVE_IF_NULL)
    .setImageInfo(null, SetMode.REMOVE_IF_NULL)
    .setProcessingJob(null, SetMode.REMOVE_IF_NULL);
}
