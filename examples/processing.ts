/**
 * The example's background work: the `photo.process` job that runs over a photo's uploaded image. The
 * upload (`create` with the image as an attachment) streams the image into the queue's blob store and
 * answers at once with the photo PENDING; this processor then reads the image back, computes its SHA-256
 * and size, sniffs its media type from its first bytes, keeps the image for downloads, and writes the
 * findings back to the photo (READY), or marks the photo FAILED when the job fails for good.
 *
 * The same processor runs in the service (the in-process driver, `npm start`) or in worker processes
 * (`svc worker --processors examples/worker.ts`, with `REDIS_URL`): only how findings reach the photo
 * differs (the store directly, or a partial update over HTTP), hence {@link PhotoUpdates}.
 */
import { createHash } from 'node:crypto';
import {
  type AttachmentQueue,
  type JsonObject,
  UnrecoverableJobError,
  isUnrecoverableJobError,
} from 'svc-framework';
import type { ImageStore } from './images';

/** The job name. */
export const PHOTO_PROCESS = 'photo.process';

/** What processing found: the photo's `imageInfo`. */
export interface ImageFindings extends JsonObject {
  readonly sha256: string;
  readonly bytes: number;
  readonly mediaType: string;
}

/** How findings reach the photo. Both must be idempotent: a job may run again after a worker crash. */
export interface PhotoUpdates {
  ready(photoId: string, findings: ImageFindings, jobId: string): Promise<void>;
  failed(photoId: string, reason: string, jobId: string): Promise<void>;
}

/** Media types by their files' first bytes. */
const SIGNATURES: ReadonlyArray<readonly [type: string, test: (h: Uint8Array) => boolean]> = [
  ['image/jpeg', (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ['image/png', (h) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => h[i] === b)],
  ['image/gif', (h) => ascii(h, 0, 6) === 'GIF87a' || ascii(h, 0, 6) === 'GIF89a'],
  ['image/webp', (h) => ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 12) === 'WEBP'],
  ['image/heic', (h) => ascii(h, 4, 8) === 'ftyp' && /^(heic|heix|mif1|msf1)$/.test(ascii(h, 8, 12))],
];

function ascii(h: Uint8Array, from: number, to: number): string {
  return Buffer.from(h.subarray(from, to)).toString('latin1');
}

/** The media type an image's first bytes show, or undefined when they show no image format we know. */
export function sniffImageType(header: Uint8Array): string | undefined {
  return SIGNATURES.find(([, test]) => test(header))?.[0];
}

/** Registers the `photo.process` processor on a queue. */
export function registerPhotoProcessing(
  queue: AttachmentQueue,
  deps: { readonly images: ImageStore; readonly updates: PhotoUpdates },
): void {
  queue.process(PHOTO_PROCESS, async (job, attachments) => {
    const photoId = job.payload.photoId;
    if (typeof photoId !== 'string' || !/^\d+$/.test(photoId))
      throw new UnrecoverableJobError(
        `payload.photoId must be the photo id as digits, got ${JSON.stringify(photoId)}`,
      );
    try {
      const image = attachments[0];
      if (image === undefined) throw new UnrecoverableJobError('the job carries no image');
      const hash = createHash('sha256');
      let header = new Uint8Array(0);
      // the image is kept for downloads as it is read (one pass over the blob), hashed on the way
      const bytes = await deps.images.save(BigInt(photoId), image, (chunk) => {
        hash.update(chunk);
        if (header.length < 16) header = Buffer.concat([header, chunk.subarray(0, 16 - header.length)]);
      });
      await job.progress(80);
      const mediaType = sniffImageType(header);
      if (mediaType === undefined) {
        await deps.images.remove(BigInt(photoId));
        throw new UnrecoverableJobError(
          `the upload is not an image this service knows (first bytes ${Buffer.from(header.subarray(0, 8)).toString('hex')})`,
        );
      }
      const findings: ImageFindings = { sha256: hash.digest('hex'), bytes, mediaType };
      await deps.updates.ready(photoId, findings, job.id);
      return findings;
    } catch (err) {
      if (isUnrecoverableJobError(err) || job.attempt >= job.maxAttempts)
        await deps.updates.failed(photoId, (err as Error).message, job.id);
      throw err;
    }
  });
}
