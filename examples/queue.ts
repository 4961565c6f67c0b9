/**
 * The example's job queue: the in-process driver by default (`npm start`: no Redis, jobs run in the
 * service), BullMQ when `REDIS_URL` is set (jobs run in `svc worker` processes, which must share the data
 * directory: `SVC_DATA_DIR`). Blobs and images live under the data directory.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AttachmentQueue,
  type BlobStore,
  BullMqDriver,
  FileBlobStore,
  InProcessDriver,
  type JobObserver,
} from 'svc-framework';

/** Options of {@link openExampleQueue}. */
export interface ExampleQueueOptions {
  /**
   * The blob store. Default: files under `<dataDir>/blobs` (one machine, or a shared volume); the
   * PostgreSQL store's large objects when the app is told so (`BLOB_STORE=postgres`, app.ts).
   */
  readonly blobs?: BlobStore;
  /** Blobs go to `<dataDir>/blobs`. Default {@link exampleDataDir}. */
  readonly dataDir?: string;
  /** Redis for the BullMQ driver. Default `REDIS_URL`; none: the in-process driver. */
  readonly redisUrl?: string;
  /** The BullMQ queue name. Default `svc-jobs`. */
  readonly queueName?: string;
  /** Job observers (metrics, traces: `createMetrics().jobObserver`, `tracingJobObserver()`). Default none. */
  readonly observers?: readonly JobObserver[];
}

/**
 * The data directory: `SVC_DATA_DIR`; else, with `REDIS_URL` set, `./.svc-data` (where `npm run worker`
 * looks too, so that a service and its workers started from one checkout share it); else a directory of
 * new directory under the OS temp dir.
 */
export function exampleDataDir(dataDir?: string): string {
  if (dataDir !== undefined) return dataDir;
  const env = process.env.SVC_DATA_DIR;
  if (env !== undefined && env !== '') return env;
  if (process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== '') return path.resolve('.svc-data');
  // a directory of its own for every app (several may run in one process: tests, a relay and its upstream)
  return mkdtempSync(path.join(os.tmpdir(), 'svc-example-'));
}

/** True when {@link exampleDataDir} would make a temporary directory (the app removes it when it closes). */
export function dataDirIsTemporary(dataDir?: string): boolean {
  return (
    dataDir === undefined && (process.env.SVC_DATA_DIR ?? '') === '' && (process.env.REDIS_URL ?? '') === ''
  );
}

/** Opens the queue (blob store and driver); workers are started by the caller. */
export async function openExampleQueue(options: ExampleQueueOptions = {}): Promise<AttachmentQueue> {
  const blobs =
    options.blobs ?? (await FileBlobStore.open({ dir: path.join(exampleDataDir(options.dataDir), 'blobs') }));
  const redisUrl = options.redisUrl ?? (process.env.REDIS_URL === '' ? undefined : process.env.REDIS_URL);
  const driver =
    redisUrl === undefined
      ? new InProcessDriver()
      : new BullMqDriver({
          connection: redisUrl,
          ...(options.queueName !== undefined ? { queueName: options.queueName } : {}),
        });
  return new AttachmentQueue({ blobs, driver, observers: options.observers ?? [] });
}
