import type { Readable } from 'node:stream';
import { concatMap, from, lastValueFrom, toArray } from 'rxjs';
import {
  AttachmentReader,
  type AttachmentDataSourceWriter,
  SingleAttachmentReader,
  attachmentChunks$,
  attachments$,
  channelFromWriter,
  dataSourceIterator,
  partsFromIterator,
  toAsyncIterable,
  writerChunks$,
  writerFromAsyncIterable,
} from '../streams';
import type { BlobStore } from './blob-store';
import type { JobWorker, QueueDriver, RunningJob } from './driver';
import { type JobObserver, type JobProbe, composeJobObservers } from './observer';
import {
  JobInputError,
  JobNotFoundError,
  UnrecoverableJobError,
  isUnrecoverable,
  isWorkerShutdown,
} from './errors';
import {
  type JobBlob,
  type JobOptions,
  type JobSnapshot,
  type JobState,
  type JsonObject,
  isFinalState,
} from './job';

/** Attachments as a request (or any writer) brings them, streamed into the blob store. */
export type AttachmentSource =
  AttachmentReader | AttachmentDataSourceWriter | readonly AttachmentDataSourceWriter[];

/**
 * Attachments already in the blob store ({@link AttachmentQueue.store}), waiting for their job: the job
 * that is enqueued with them owns them from then on.
 */
export interface StoredAttachments {
  readonly stored: readonly JobBlob[];
}

/**
 * The attachments a job is enqueued with: streamed in now, stored ahead by {@link AttachmentQueue.store},
 * or blobs of the store named by id (which stay the caller's if the job is not added).
 */
export type JobAttachments =
  AttachmentSource | StoredAttachments | { readonly blobIds: readonly string[] } | null | undefined;

/** A job as its processor sees it. */
export interface QueuedJob {
  readonly id: string;
  readonly name: string;
  readonly payload: JsonObject;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** The stored attachments (ids and sizes), in the order they came. */
  readonly blobs: readonly JobBlob[];
  /** Aborted when the job is cancelled or the worker shuts down: stop, and let the error propagate. */
  readonly signal: AbortSignal;
  /** Reports progress, 0 to 100 (visible through the jobs resource). */
  progress(percent: number): Promise<void>;
  /** All the attachments again as one {@link AttachmentReader} (for `attachments$(job.reader())`). */
  reader(): AttachmentReader;
}

/**
 * What a processor does with a job: reads its attachments (streamed back from the blob store, with demand,
 * as {@link SingleAttachmentReader}s: callbacks, `attachmentChunks$`, or forwarded as writers) and returns
 * a result record (a JSON object). A thrown error fails the attempt: it is retried per the job's policy,
 * unless it is an {@link UnrecoverableJobError}. Runs may repeat (a crashed worker's job runs again), so a
 * processor must be idempotent: writing the same result twice must be harmless.
 */
export type Processor = (
  job: QueuedJob,
  attachments: readonly SingleAttachmentReader[],
) => Promise<JsonObject | void> | JsonObject | void;

/** Options of {@link AttachmentQueue}. */
export interface AttachmentQueueOptions {
  readonly blobs: BlobStore;
  readonly driver: QueueDriver;
  /**
   * How long a finished job's blobs are kept (ms) before they are removed: after success, and after the
   * final failure or a cancel. Default 0 (removed at once). Removal is a timer of the process that saw the
   * job finish: a process that stops first leaves them for {@link AttachmentQueue.removeBlobsOf}.
   */
  readonly blobRetention?: { readonly afterSuccessMs?: number; readonly afterFailureMs?: number };
  /** Watchers of enqueues and attempts (traces, metrics: `src/runtime/`; observer.ts). Default none. */
  readonly observers?: readonly JobObserver[];
}

const JOB_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/;

/**
 * Background processing of attachments: `enqueue` streams a request's attachments into the blob store
 * (with demand: nothing is held in memory) and adds a job that references them; workers run the
 * processor registered for the job's name, which reads the attachments back as the same reader types a
 * request gives. Which engine holds the jobs is the driver's business ({@link InProcessDriver} in one
 * process, {@link BullMqDriver} on Redis for any number of worker processes); the behaviour is the same.
 */
export class AttachmentQueue {
  readonly blobs: BlobStore;
  readonly driver: QueueDriver;
  readonly #processors = new Map<string, Processor>();
  readonly #afterSuccessMs: number;
  readonly #afterFailureMs: number;
  readonly #timers = new Set<NodeJS.Timeout>();
  #worker: JobWorker | undefined;
  readonly #observer: JobObserver | undefined;

  constructor(options: AttachmentQueueOptions) {
    this.#observer = composeJobObservers(options.observers);
    this.blobs = options.blobs;
    this.driver = options.driver;
    this.#afterSuccessMs = options.blobRetention?.afterSuccessMs ?? 0;
    this.#afterFailureMs = options.blobRetention?.afterFailureMs ?? 0;
  }

  /**
   * Stores the attachments and adds the job; resolves with the job once it is queued. With `options.jobId`
   * naming a job that exists, that job is returned and the attachments are drained, not stored again.
   *
   * @throws JobInputError for a bad name, payload, option or blob id
   * @throws BlobWriteError (507) when an attachment cannot be stored; nothing of it is left
   * @throws QueueUnavailableError (503) when the engine cannot take the job; the stored blobs are removed
   */
  async enqueue(
    name: string,
    attachments: JobAttachments,
    payload: JsonObject = {},
    options: JobOptions = {},
  ): Promise<JobSnapshot> {
    checkJobInput(name, payload, options);
    if (options.jobId !== undefined) {
      const existing = await this.driver.get(options.jobId);
      if (existing !== undefined) {
        if (attachments !== null && attachments !== undefined && 'stored' in attachments)
          await this.discard(attachments);
        else discard(attachments);
        return existing;
      }
    }
    const { blobs, owned } = await this.#store(attachments);
    try {
      const headers = this.#observer === undefined ? undefined : this.#observer.enqueuing(name);
      const data = headers === undefined ? { payload, blobs } : { payload, blobs, headers };
      const { job, added } = await this.driver.add(name, data, options);
      if (!added) await this.#removeBlobs(owned);
      return job;
    } catch (err) {
      await this.#removeBlobs(owned);
      throw err;
    }
  }

  /**
   * Stores attachments ahead of their job, for work whose job may exist only once something else has
   * succeeded (the example's upload: the image is stored as the request streams in, and its job added only
   * once the whole request was read): `enqueue(name, stored)` then adds the job, which takes the blobs
   * over, and {@link discard} removes them if no job is added. A store that fails (the upload broke off)
   * leaves nothing.
   *
   * @throws BlobWriteError (507) when an attachment cannot be stored
   */
  async store(attachments: AttachmentSource): Promise<StoredAttachments> {
    const { blobs } = await this.#store(attachments);
    return { stored: blobs };
  }

  /** Removes attachments stored by {@link store} that no job took over. */
  async discard(stored: StoredAttachments): Promise<void> {
    await this.#removeBlobs(stored.stored.map((b) => b.blobId));
  }

  /** Registers the processor of a job name (one per name). Returns this queue. */
  process(name: string, processor: Processor): this {
    if (!JOB_NAME.test(name)) throw new JobInputError(`job name '${name.slice(0, 100)}': ${JOB_NAME_RULE}`);
    if (this.#processors.has(name)) throw new TypeError(`a processor for '${name}' is registered already`);
    this.#processors.set(name, processor);
    return this;
  }

  /**
   * Starts running jobs in this process with the registered processors, at most `concurrency` (default 4)
   * at once. A job whose name has no processor here fails without retries.
   */
  start(options: { readonly concurrency?: number } = {}): JobWorker {
    if (this.#worker !== undefined) throw new TypeError('this queue runs its workers already');
    const worker = this.driver.work((job) => this.#run(job), { concurrency: options.concurrency ?? 4 });
    this.#worker = worker;
    return worker;
  }

  /** @throws JobNotFoundError */
  async get(id: string): Promise<JobSnapshot> {
    const job = await this.driver.get(id);
    if (job === undefined) throw new JobNotFoundError(id);
    return job;
  }

  list(state: JobState, start = 0, count = 10): Promise<{ jobs: JobSnapshot[]; total: number }> {
    return this.driver.list(state, start, count);
  }

  /**
   * Cancels a job that has not finished (a finished one is returned as it is).
   * @throws JobNotFoundError
   */
  async cancel(id: string): Promise<JobSnapshot> {
    const before = await this.driver.get(id);
    if (before === undefined) throw new JobNotFoundError(id);
    if (isFinalState(before.state)) return before;
    const after = await this.driver.cancel(id);
    if (after === undefined) throw new JobNotFoundError(id);
    // a job cancelled before it ran: nobody else will remove its blobs (a running one's worker does)
    if (after.state === 'CANCELLED' && before.state !== 'ACTIVE')
      this.#scheduleRemoval(after, this.#afterFailureMs);
    return after;
  }

  /** Removes a job's blobs now (e.g. after a restart cut the retention timer short). */
  async removeBlobsOf(job: JobSnapshot): Promise<void> {
    await this.#removeBlobs(job.data.blobs.map((b) => b.blobId));
  }

  /**
   * Stops the workers of this process (running jobs finish, or are released after `timeoutMs`), then the
   * driver, then the blob store.
   */
  async close(options: { readonly timeoutMs?: number } = {}): Promise<void> {
    await this.#worker?.close(options);
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await this.driver.close();
    await this.blobs.close?.();
  }

  async #store(attachments: JobAttachments): Promise<{ blobs: JobBlob[]; owned: string[] }> {
    if (attachments === null || attachments === undefined) return { blobs: [], owned: [] };
    if ('stored' in attachments) {
      const blobs = [...attachments.stored];
      return { blobs, owned: blobs.map((b) => b.blobId) };
    }
    if ('blobIds' in attachments) {
      const blobs: JobBlob[] = [];
      for (const [i, id] of attachments.blobIds.entries()) {
        const stat = await this.blobs.stat(id);
        if (stat === undefined)
          throw new JobInputError(`blobIds[${i}]: no blob '${String(id).slice(0, 100)}'`);
        blobs.push({ blobId: id, attachmentId: id, size: stat.size });
      }
      return { blobs, owned: [] };
    }
    const stored: JobBlob[] = [];
    // the blob being written: when the request breaks off, it is waited for (it fails with the request, or
    // completes in the same instant) so that nothing it wrote is left behind
    let writing: Promise<JobBlob> | undefined;
    const put = (id: string, chunks: AsyncIterable<Uint8Array>): Promise<JobBlob> => {
      writing = this.blobs.put(chunks).then((s) => {
        const blob = { blobId: s.id, attachmentId: id, size: s.size };
        stored.push(blob);
        return blob;
      });
      return writing;
    };
    try {
      if (attachments instanceof AttachmentReader) {
        await lastValueFrom(
          attachments$(attachments).pipe(
            concatMap((a) =>
              from(
                put(
                  a.id,
                  toAsyncIterable((d$) => attachmentChunks$(a.reader, d$)),
                ),
              ),
            ),
            toArray(),
          ),
        );
      } else {
        const writers = isWriterList(attachments) ? attachments : [attachments];
        for (const w of writers)
          await put(
            w.getAttachmentID(),
            toAsyncIterable((d$) => writerChunks$(w, d$)),
          );
      }
    } catch (err) {
      await writing?.catch(() => undefined);
      await this.#removeBlobs(stored.map((b) => b.blobId));
      throw err;
    }
    return { blobs: stored, owned: stored.map((b) => b.blobId) };
  }

  async #run(running: RunningJob): Promise<JsonObject> {
    const processor = this.#processors.get(running.name);
    const probe = this.#observer === undefined ? undefined : this.#observer.attempt(running);
    if (processor === undefined) {
      const err = new UnrecoverableJobError(`no processor for job name '${running.name}' in this worker`);
      this.#afterAttempt(running, err, probe);
      throw err;
    }
    const opened = new Set<Readable>();
    const open = (blob: JobBlob): SingleAttachmentReader =>
      new SingleAttachmentReader(blob.attachmentId, channelFromWriter(this.#blobWriter(blob, opened)));
    const job: QueuedJob = {
      id: running.id,
      name: running.name,
      payload: running.data.payload,
      attempt: running.attempt,
      maxAttempts: running.maxAttempts,
      blobs: running.data.blobs,
      signal: running.signal,
      progress: (p) => running.updateProgress(p),
      reader: () =>
        new AttachmentReader(
          partsFromIterator(dataSourceIterator(running.data.blobs.map((b) => this.#blobWriter(b, opened)))),
        ),
    };
    try {
      const readers = running.data.blobs.map(open);
      const out = await (probe === undefined
        ? processor(job, readers)
        : probe.run(() => processor(job, readers)));
      const result = out ?? {};
      checkResult(result, running.name);
      this.#afterAttempt(running, undefined, probe);
      return result;
    } catch (err) {
      this.#afterAttempt(running, err, probe);
      throw err;
    } finally {
      // attachments the processor did not read to the end: their files are closed now
      for (const s of opened) s.destroy();
    }
  }

  /** A blob read back lazily: the file is opened when the first chunk is asked for. */
  #blobWriter(blob: JobBlob, opened: Set<Readable>): AttachmentDataSourceWriter {
    const blobs = this.blobs;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      const stream = await blobs.get(blob.blobId);
      opened.add(stream);
      try {
        for await (const c of stream) yield c as Uint8Array;
      } finally {
        stream.destroy();
        opened.delete(stream);
      }
    }
    return writerFromAsyncIterable(blob.attachmentId, chunks());
  }

  /** After an attempt: blobs of a job that has ended for good are removed (after the retention). */
  #afterAttempt(job: RunningJob, error: unknown, probe: JobProbe | undefined): void {
    // a worker shutting down releases the job to another worker: it has not ended, its blobs stay
    const released = error !== undefined && job.signal.aborted && isWorkerShutdown(job.signal.reason);
    if (probe !== undefined) {
      const final =
        !released && (error === undefined || isUnrecoverable(error) || job.attempt >= job.maxAttempts);
      try {
        probe.finished(error, final);
      } catch {
        // an observer's bug must not change the job's outcome
      }
    }
    if (released) return;
    if (error === undefined) this.#scheduleRemoval(job, this.#afterSuccessMs);
    else if (isUnrecoverable(error) || job.attempt >= job.maxAttempts)
      this.#scheduleRemoval(job, this.#afterFailureMs);
  }

  #scheduleRemoval(job: { readonly data: { readonly blobs: readonly JobBlob[] } }, afterMs: number): void {
    const ids = job.data.blobs.map((b) => b.blobId);
    if (ids.length === 0) return;
    if (afterMs <= 0) {
      void this.#removeBlobs(ids);
      return;
    }
    const t = setTimeout(() => {
      this.#timers.delete(t);
      void this.#removeBlobs(ids);
    }, afterMs);
    t.unref();
    this.#timers.add(t);
  }

  async #removeBlobs(ids: readonly string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.blobs.delete(id).catch(() => false)));
  }
}

const JOB_NAME_RULE =
  'a job name is 1 to 100 characters of letters, digits and _ . : -, starting with a letter';

function isWriterList(
  a: AttachmentDataSourceWriter | readonly AttachmentDataSourceWriter[],
): a is readonly AttachmentDataSourceWriter[] {
  return Array.isArray(a);
}

/** Attachments that will not be stored are still read to their end, so the request is not held up. */
function discard(attachments: JobAttachments): void {
  if (attachments instanceof AttachmentReader) attachments.drainAllAttachments();
  else if (attachments instanceof SingleAttachmentReader) attachments.drainAttachment();
  else if (Array.isArray(attachments))
    for (const a of attachments as readonly AttachmentDataSourceWriter[])
      if (a instanceof SingleAttachmentReader) a.drainAttachment();
}

function checkJobInput(name: string, payload: JsonObject, options: JobOptions): void {
  if (typeof name !== 'string' || !JOB_NAME.test(name))
    throw new JobInputError(`job name '${String(name).slice(0, 100)}': ${JOB_NAME_RULE}`);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new JobInputError('payload: give a JSON object');
  checkJson(payload, 'payload');
  const { attempts, backoff, jobId } = options;
  if (attempts !== undefined && (!Number.isInteger(attempts) || attempts < 1 || attempts > 1000))
    throw new JobInputError(`options.attempts: ${String(attempts)} is not an integer from 1 to 1000`);
  if (
    backoff !== undefined &&
    ((backoff.type !== 'fixed' && backoff.type !== 'exponential') ||
      !Number.isFinite(backoff.delayMs) ||
      backoff.delayMs < 0)
  )
    throw new JobInputError(`options.backoff: give { type: 'fixed' | 'exponential', delayMs: ≥ 0 }`);
  if (
    jobId !== undefined &&
    (typeof jobId !== 'string' || !/^[A-Za-z0-9_.:-]{1,200}$/.test(jobId) || /^\d+$/.test(jobId))
  )
    throw new JobInputError(
      `options.jobId '${String(jobId).slice(0, 100)}': 1 to 200 characters of letters, digits and _ . : -, not all digits`,
    );
}

function checkResult(result: unknown, name: string): void {
  try {
    if (typeof result !== 'object' || result === null || Array.isArray(result))
      throw new JobInputError('a result that is not a JSON object');
    checkJson(result, 'result');
  } catch (err) {
    throw new UnrecoverableJobError(`the processor of '${name}' returned ${(err as Error).message}`);
  }
}

/** Payloads and results cross processes as JSON: anything JSON would change or lose is refused. */
function checkJson(value: unknown, path: string, depth = 0): void {
  if (depth > 64) throw new JobInputError(`${path}: nested deeper than 64 levels`);
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new JobInputError(`${path}: ${value} has no JSON form`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => checkJson(v, `${path}[${i}]`, depth + 1));
    return;
  }
  const proto: unknown = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    for (const [k, v] of Object.entries(value as object)) checkJson(v, `${path}.${k}`, depth + 1);
    return;
  }
  throw new JobInputError(
    `${path}: a ${typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value} is not JSON`,
  );
}
