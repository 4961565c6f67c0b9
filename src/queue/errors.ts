import { SvcError } from '../errors';
import { registerErrorCodes } from '../errors/svc-error';
import { QUEUE_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(QUEUE_ERRORS_CODES);

/** A blob id that names no blob (never stored, deleted, or not an id at all). */
export class BlobNotFoundError extends SvcError {
  readonly blobId: string;
  constructor(blobId: string) {
    super('SVC_ERR_QUEUE_BLOB_NOT_FOUND', `No blob '${blobId.slice(0, 100)}' in the blob store`);
    this.blobId = blobId;
  }
}

/**
 * A blob could not be written (disk full, directory unwritable, the source failed): nothing of it is
 * visible, and the error says why.
 */
export class BlobWriteError extends SvcError {
  // messages name the fault and its errno code, never a path
  override readonly publicMessage = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_QUEUE_BLOB_WRITE', message, options);
  }
}

/** The job queue cannot take a job now (Redis unreachable): a 503; the request may be retried later. */
export class QueueUnavailableError extends SvcError {
  override readonly publicMessage = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_QUEUE_UNAVAILABLE', message, options);
  }
}

/** No job has this id. */
export class JobNotFoundError extends SvcError {
  readonly jobId: string;
  constructor(jobId: string) {
    super('SVC_ERR_QUEUE_JOB_NOT_FOUND', `No job '${jobId.slice(0, 100)}'`);
    this.jobId = jobId;
  }
}

/** What a cancelled job's processor sees as its signal's reason. */
export class JobCancelledError extends SvcError {
  readonly jobId: string;
  constructor(jobId: string) {
    super('SVC_ERR_QUEUE_JOB_CANCELLED', `Job '${jobId.slice(0, 100)}' was cancelled`);
    this.jobId = jobId;
  }
}

/** Thrown by a processor for a failure retrying cannot fix: the job fails at once (dead-lettered). */
export class UnrecoverableJobError extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_QUEUE_UNRECOVERABLE', message, options);
  }
}

/** A bad enqueue: names the field and the reason. */
export class JobInputError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_QUEUE_BAD_JOB', message);
  }
}

/**
 * The reason a running job's signal is aborted when its worker shuts down: the attempt is released (the
 * job waits again for another worker), not failed, and its blobs stay.
 */
export class WorkerShutdownError extends SvcError {
  constructor() {
    super(
      'SVC_ERR_QUEUE_WORKER_SHUTDOWN',
      'The worker is shutting down; the job is released to another worker',
    );
  }
}

/** True when a job's attempt ended because its worker shut down (see {@link WorkerShutdownError}). */
export function isWorkerShutdown(reason: unknown): boolean {
  return (
    typeof reason === 'object' &&
    reason !== null &&
    (reason as { name?: unknown }).name === 'WorkerShutdownError'
  );
}

/** True for errors that must not be retried (also across package copies and worker processes). */
export function isUnrecoverable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const name = (err as { name?: unknown }).name;
  return name === 'UnrecoverableJobError' || name === 'JobCancelledError' || name === 'UnrecoverableError';
}
