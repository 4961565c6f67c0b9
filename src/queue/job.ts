/**
 * What a queued job is, whichever driver runs it: the records the queue, the drivers and the `jobs`
 * resource exchange. Payloads and results are JSON objects, so that a job can cross to a worker process
 * through Redis as it is.
 */

/** A JSON value (what a payload or a result may hold). */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [k: string]: JsonValue };
/** A JSON object: a job's payload or result. */
export type JsonObject = { readonly [k: string]: JsonValue };

/**
 * Where a job is in its life. `DELAYED` waits for a retry's backoff; `FAILED` is final (the dead-letter
 * state: every attempt failed, or the processor threw {@link UnrecoverableJobError}); `CANCELLED` is final.
 */
export type JobState = 'WAITING' | 'ACTIVE' | 'DELAYED' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** Every job state, in lifecycle order. */
export const JOB_STATES: readonly JobState[] = [
  'WAITING',
  'ACTIVE',
  'DELAYED',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
];

/** How a failed attempt is retried: the delay before attempt n+1 is `delayMs` (fixed) or `delayMs·2^(n-1)`. */
export interface Backoff {
  readonly type: 'fixed' | 'exponential';
  readonly delayMs: number;
}

/** Options of one job. */
export interface JobOptions {
  /** Attempts in all, the first included. Default 3. */
  readonly attempts?: number;
  /** Default exponential from 1 s. */
  readonly backoff?: Backoff;
  /**
   * The job's id, for idempotent enqueueing: enqueueing again with an id that names a job returns that job
   * (its attachments are not stored twice). Default: a new UUID.
   */
  readonly jobId?: string;
}

/** An attachment of a job, as stored in the blob store. */
export interface JobBlob {
  readonly blobId: string;
  /** The attachment's id as it came (Content-ID), or the blob id for blobs enqueued by id. */
  readonly attachmentId: string;
  readonly size: number;
}

/** What a job carries to its processor. */
export interface JobData {
  readonly payload: JsonObject;
  readonly blobs: readonly JobBlob[];
  /**
   * Context carried from the enqueuer to the worker (the W3C `traceparent` and `tracestate` of the request
   * that added the job), as job observers give it (observer.ts); absent when none did.
   */
  readonly headers?: { readonly [name: string]: string };
}

/** Why a job failed (its last attempt's error). */
export interface JobFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** A job as it stands. */
export interface JobSnapshot {
  readonly id: string;
  readonly name: string;
  readonly state: JobState;
  /** 0 to 100, as the processor last reported it. */
  readonly progress: number;
  /** Attempts started so far. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly data: JobData;
  readonly result?: JsonObject;
  readonly error?: JobFailure;
  /** ms since the epoch. */
  readonly createdAt: number;
  readonly finishedAt?: number;
}

/** True for the states a job never leaves. */
export function isFinalState(state: JobState): boolean {
  return state === 'COMPLETED' || state === 'FAILED' || state === 'CANCELLED';
}

/** The delay before the attempt after `attemptsMade` failed ones. */
export function backoffDelay(backoff: Backoff, attemptsMade: number): number {
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** Math.max(0, attemptsMade - 1);
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF: Backoff = { type: 'exponential', delayMs: 1000 };
