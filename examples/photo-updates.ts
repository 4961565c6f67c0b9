/**
 * How the `photo.process` job's findings reach the photo: straight into the library when the job runs in
 * the service (the in-process driver), or as a partial update over HTTP when it runs in a worker process
 * (BullMQ). Both are idempotent: a job that runs again writes the same values.
 */
import { Data, type DataMap, LONG_KEY, type SvcClient } from 'svc-framework';
import type { ImageFindings, PhotoUpdates } from './processing';
import { ImageInfo } from './src/main/generated/com/example/photos/ImageInfo';
import { PhotoStatus } from './src/main/generated/com/example/photos/PhotoStatus';
import type { PhotoStore } from './store';

/** Findings written into the store of this process (the in-memory library, or PostgreSQL). */
export function photoUpdatesFor(lib: PhotoStore): PhotoUpdates {
  return {
    ready: async (photoId, f, jobId) => {
      await lib.markPhoto(BigInt(photoId), {
        status: PhotoStatus.READY,
        imageInfo: imageInfo(f),
        processingJob: jobId,
      });
    },
    failed: async (photoId, _reason, jobId) => {
      await lib.markPhoto(BigInt(photoId), { status: PhotoStatus.FAILED, processingJob: jobId });
    },
  };
}

/** Findings sent to the service as partial updates (`POST /photos/{id}` with a `$set` patch). */
export function httpUpdates(service: SvcClient): PhotoUpdates {
  const patch = (photoId: string, set: Record<string, unknown>): Promise<void> =>
    service
      .send({
        method: 'partial_update',
        resource: 'photos',
        key: BigInt(photoId),
        keySpec: LONG_KEY.spec,
        patch: Data.fromJS({ $set: set } as Parameters<typeof Data.fromJS>[0]) as DataMap,
      })
      .then(() => undefined);
  return {
    ready: (photoId, f, jobId) =>
      patch(photoId, { status: PhotoStatus.READY, imageInfo: imageInfo(f).data(), processingJob: jobId }),
    failed: (photoId, _reason, jobId) => patch(photoId, { status: PhotoStatus.FAILED, processingJob: jobId }),
  };
}

function imageInfo(f: ImageFindings): ImageInfo {
  return new ImageInfo().setSha256(f.sha256).setBytes(f.bytes).setMediaType(f.mediaType);
}
