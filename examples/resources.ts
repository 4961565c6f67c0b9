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
  BatchFinderResult,
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
  StringArray,
  implement,
  jobsResource,
  tracingClientFilter,
} from 'svc-framework';
import { EMPTY, concatMap, from, ignoreElements, lastValueFrom, of } from 'rxjs';
import { albumEntriesInterface, albumsInterface, photosInterface } from './interfaces';
import { PHOTO_PROCESS } from './processing';
import type { Photo } from './src/main/generated/com/example/photos/Photo';
import { PhotoStatus } from './src/main/generated/com/example/photos/PhotoStatus';
import type { PhotoCriteria } from './src/main/generated/com/example/photos/PhotoCriteria';
import { PurgeResult } from './src/main/generated/com/example/photos/PurgeResult';
import type { PhotoLibrary } from './store';

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

export function photosResource(lib: PhotoLibrary, options: ExampleResourceOptions = {}) {
  // the upstream's client, made on first relay
  let upstream: SvcClient | undefined;
  /** Replaces photo `id`; when it went meanwhile (deleted while its image was stored), its new job goes too. */
  const replaceOrCancel = async (id: number | bigint, photo: Photo, job: JobSnapshot | undefined) => {
    if (lib.replacePhoto(id, photo)) return;
    if (job !== undefined) await options.queue?.cancel(job.id);
    throw notFound(`photo ${id}`);
  };
  return implement(photosInterface, {
    // with `Accept: multipart/related`, a photo that has an image comes with it as a response attachment
    // (its `image` field points at it); other clients get the photo alone
    get: (id, ctx) => {
      const photo = lib.getPhoto(id);
      if (photo === undefined || !ctx.responseAttachmentsSupported()) return photo;
      return lib.images.writer(id).then((stored) => {
        if (stored === undefined) return photo;
        // the media type the processing job sniffed, so the part says what it holds (image/png, ...)
        const mediaType = photo.getImageInfo()?.getMediaType();
        const image = mediaType === undefined ? stored : withContentType(stored, mediaType);
        ctx.setResponseAttachments(ResponseAttachments.builder().appendSingleAttachment(image).build());
        return photo.copy().setImage(`cid:${image.getAttachmentID()}`);
      });
    },
    batchGet: (ids) => {
      const found = new Map<number | bigint, Photo>();
      for (const id of ids) {
        const p = lib.getPhoto(id);
        if (p !== undefined) found.set(id, p);
      }
      return found;
    },
    // the created photo is returned too, unless the request says $returnEntity=false. Its image, if any,
    // comes as an attachment of a multipart/related request that `image: "cid:<id>"` points at: it is
    // streamed into the queue's blob store as it arrives and a `photo.process` job is queued, so the answer
    // comes as soon as the upload is stored, with the photo PENDING and its job id (`GET /jobs/{id}`).
    // The photo and its job appear together or not at all: the image is stored first (a request that
    // breaks off leaves nothing), then the job is added under an id the photo will have, then the photo
    // becomes visible with its job
    create: withAttachments(async (attachments, photo: Photo) => {
      const image = await storeImage(options.queue, photo, attachments);
      const id = lib.reservePhotoId();
      const job = await enqueueImage(image, id);
      return { id, entity: lib.addPhoto(withImageJob(photo, job, false), id) };
    }),
    batchCreate: (photos) =>
      photos.map((p) => {
        // the schema makes a title required (validation answers 422 before this runs); a blank one is the
        // service's own rule, refused per item
        if (p.getTitle().trim() === '') return new ServiceError(400, 'a photo needs a title');
        const stored = lib.addPhoto(p);
        return { id: stored.getId()! };
      }),
    // an update may bring a new image the same way (an attachment its `image` points at): it is queued
    // for processing as on create, and the photo is PENDING again with the new job
    update: withAttachments(async (attachments, id: number | bigint, photo: Photo) => {
      // (attachments a handler leaves unread are drained by the framework)
      if (lib.getPhoto(id) === undefined) throw notFound(`photo ${id}`);
      const job = await enqueueImage(await storeImage(options.queue, photo, attachments), id);
      await replaceOrCancel(id, withImageJob(photo, job, true), job);
    }),
    partialUpdate: withAttachments(async (attachments, id: number | bigint, patch: PatchRequest<Photo>) => {
      const current = lib.getPhoto(id);
      if (current === undefined) throw notFound(`photo ${id}`);
      const patched = patch.applyTo(current);
      const job = await enqueueImage(await storeImage(options.queue, patched, attachments), id);
      await replaceOrCancel(id, withImageJob(patched, job, true), job);
      return { entity: lib.getPhoto(id)! };
    }),
    delete: (id) => {
      if (!lib.removePhoto(id)) throw notFound(`photo ${id}`);
    },
    batchDelete: (ids) =>
      new Map(ids.map((id) => [id, lib.removePhoto(id) ? {} : notFound(`photo ${id}`)] as const)),
    // every photo; the framework cuts the page (start, count) and reports the total
    getAll: () => lib.listPhotos(),
    finders: {
      titleAndOrFormat: ({ title, format }) => lib.findPhotos(title, format),
      byTag: ({ tag }) => lib.photosTagged(tag),
    },
    batchFinders: {
      // GET /photos?bq=searchPhotos&criteria=List((title:Sunrise,format:JPEG),(...)): one page per criterion,
      // in the order sent; criteria nothing matches are left out, and the framework answers them 404
      searchPhotos: (criteria, { exif }) => {
        const result = new BatchFinderResult<PhotoCriteria, Photo>();
        for (const c of criteria) {
          const found = lib.searchPhotos(c.getTitle(), c.getFormat(), exif);
          if (found.length > 0) result.putResult(c, found);
        }
        return result;
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
      purge: ({ takenBefore }) => {
        const r = lib.purgePhotos(Number(takenBefore));
        return of(new PurgeResult().setPhotosRemoved(r.photos).setEntriesRemoved(r.entries));
      },
    },
    entityActions: {
      // POST /photos/1?action=addTag {"tag":"favourite"} → {"value": <number of tags>}; a Promise works too
      addTag: (id, { tag }) => {
        const p = lib.getPhoto(id);
        if (p === undefined) return Promise.reject(notFound(`photo ${id}`));
        const tags = p.getTags().toArray();
        if (!tags.includes(tag)) p.setTags(new StringArray([...tags, tag]));
        return Promise.resolve(p.getTags().length);
      },
    },
  });
}

/** The `albums` collection. */
export function albumsResource(lib: PhotoLibrary) {
  return implement(albumsInterface, {
    get: (id) => lib.getAlbum(id),
    batchGet: (ids) =>
      new Map(
        ids.flatMap((id) => {
          const a = lib.getAlbum(id);
          return a === undefined ? [] : [[id, a] as const];
        }),
      ),
    create: (album) => {
      if (album.getName().trim() === '') throw new ServiceError(400, 'an album needs a name');
      return { id: lib.addAlbum(album).getId()! };
    },
    update: (id, album) => {
      if (!lib.replaceAlbum(id, album)) throw notFound(`album ${id}`);
    },
    partialUpdate: (id, patch) => {
      const current = lib.getAlbum(id);
      if (current === undefined) throw notFound(`album ${id}`);
      lib.replaceAlbum(id, patch.applyTo(current));
    },
    delete: (id) => {
      if (!lib.removeAlbum(id)) throw notFound(`album ${id}`);
    },
    getAll: () => lib.listAlbums(),
  });
}

/** The `albumEntries` association: which photo is in which album. */
export function albumEntriesResource(lib: PhotoLibrary) {
  return implement(albumEntriesInterface, {
    get: (key) => lib.getEntry(key),
    batchGet: (keys) =>
      new Map(
        keys.flatMap((k) => {
          const e = lib.getEntry(k);
          return e === undefined ? [] : [[k, e] as const];
        }),
      ),
    // PUT /albumEntries/(albumId:1,photoId:5) puts photo 5 into album 1
    update: (key, entry) => {
      if (!lib.putEntry(key, entry)) throw notFound(`album ${key.albumId} or photo ${key.photoId}`);
      return { status: 201 };
    },
    delete: (key) => {
      if (!lib.removeEntry(key)) throw notFound(`entry ${key.albumId}/${key.photoId}`);
    },
    batchDelete: (keys) =>
      new Map(
        keys.map((k) => [k, lib.removeEntry(k) ? {} : notFound(`entry ${k.albumId}/${k.photoId}`)] as const),
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
export function exampleResources(lib: PhotoLibrary, options: ExampleResourceOptions = {}) {
  return [photosResource(lib, options), albumsResource(lib), albumEntriesResource(lib)] as const;
}

/** The example's resources and, with a queue, the `jobs` resource over it (`GET /jobs/{id}`). */
export function exampleService(lib: PhotoLibrary, options: ExampleResourceOptions = {}) {
  const resources = exampleResources(lib, options);
  return options.queue === undefined ? [...resources] : [...resources, jobsResource(options.queue)];
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
function withImageJob(photo: Photo, job: JobSnapshot | undefined, updating: boolean): Photo {
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
