/**
 * The example's processors for `svc worker` (BullMQ): `photo.process` in a process of its own, reading
 * the blobs the service stored and writing the image next to the service's (`<data dir>/images`: the same
 * disk or a shared file system), then telling the service what it found with a partial update over HTTP.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npm start            # the service, jobs queued on BullMQ
 *   REDIS_URL=redis://127.0.0.1:6379 npm run worker       # as many of these as the load needs
 *
 * `SERVICE_URL` (default http://127.0.0.1:8080, or the port in `PORT`) is where the service listens;
 * `SVC_DATA_DIR` (default ./.svc-data) must be the service's.
 */
import path from 'node:path';
import { type AttachmentQueue, createClient } from 'svc-framework';
import { ImageStore } from './images';
import { httpUpdates } from './photo-updates';
import { registerPhotoProcessing } from './processing';
import { exampleDataDir } from './queue';

export default function register(queue: AttachmentQueue): void {
  const service =
    process.env.SERVICE_URL ?? `http://127.0.0.1:${process.env.PORT === undefined ? 8080 : process.env.PORT}`;
  registerPhotoProcessing(queue, {
    images: new ImageStore(path.join(exampleDataDir(), 'images')),
    updates: httpUpdates(createClient({ baseUrl: service })),
  });
}
