import { randomUUID } from 'node:crypto';
import { types } from 'node:util';
import type { JobHandler, JobWorker, QueueDriver, RunningJob } from './driver';
import { BlobWriteError, JobCancelledError, WorkerShutdownError, isUnrecoverable } from './errors';
import { describeFault, isSystemError } from './file-faults';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  type Backoff,
  type JobData,
  type JobFailure,
  type JobOptions,
  type JobSnapshot,
  type JobState,
  type JsonObject,
  backoffDelay,
  isFinalState,
} from './job';

/** Options of {@link InProcessDriver}. */
export interface InProcessDriverOptions {
  /** Finished jobs kept for `GET /jobs/{id}`, the oldest forgotten first. Default 10,000. */
  readonly keepFinished?: number;
}

interface Entry {
  id: string;
  name: string;
  data: JobData;
  state: JobState;
  progress: number;
  attempts: number;
  maxAttempts: number;
  backoff: Backoff;
  result?: JsonObject;
  error?: JobFailure;
  createdAt: number;
  finishedAt?: number;
  timer?: NodeJS.Timeout;
  abort?: AbortController;
  cancelRequested: boolean;
}

/**
 * The embedded driver: jobs live in this process's memory and run on its event loop, at most `concurrency`
 * at once, with the same retries, backoff, progress and states as the BullMQ driver. **Single process
 * only**: jobs do not survive a restart and no other process sees them; use {@link BullMqDriver} to scale
 * out or to survive crashes.
 */
export class InProcessDriver implements QueueDriver {
  readonly kind = 'in-process';
  readonly #jobs = new Map<string, Entry>();
  readonly #waiting: Entry[] = [];
  readonly #finished: string[] = [];
  readonly #keepFinished: number;
  #worker:
    { handler: JobHandler; concurrency: number; running: Set<Promise<void>>; closed: boolean } | undefined;
  #closed = false;

  constructor(options: InProcessDriverOptions = {}) {
    this.#keepFinished = options.keepFinished ?? 10_000;
  }

  add(name: string, data: JobData, options: JobOptions): Promise<{ job: JobSnapshot; added: boolean }> {
    const id = options.jobId ?? randomUUID();
    const existing = this.#jobs.get(id);
    if (existing !== undefined) return Promise.resolve({ job: snapshot(existing), added: false });
    const entry: Entry = {
      id,
      name,
      data,
      state: 'WAITING',
      progress: 0,
      attempts: 0,
      maxAttempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      createdAt: Date.now(),
      cancelRequested: false,
    };
    this.#jobs.set(id, entry);
    this.#waiting.push(entry);
    this.#pump();
    return Promise.resolve({ job: snapshot(entry), added: true });
  }

  get(id: string): Promise<JobSnapshot | undefined> {
    const e = this.#jobs.get(id);
    return Promise.resolve(e === undefined ? undefined : snapshot(e));
  }

  list(state: JobState, start: number, count: number): Promise<{ jobs: JobSnapshot[]; total: number }> {
    const all = [...this.#jobs.values()].filter((e) => e.state === state).reverse();
    return Promise.resolve({ jobs: all.slice(start, start + count).map(snapshot), total: all.length });
  }

  cancel(id: string): Promise<JobSnapshot | undefined> {
    const e = this.#jobs.get(id);
    if (e === undefined) return Promise.resolve(undefined);
    if (e.state === 'WAITING' || e.state === 'DELAYED') {
      if (e.timer !== undefined) clearTimeout(e.timer);
      const i = this.#waiting.indexOf(e);
      if (i >= 0) this.#waiting.splice(i, 1);
      this.#finish(e, 'CANCELLED', { error: failureOf(new JobCancelledError(e.id)) });
    } else if (e.state === 'ACTIVE') {
      e.cancelRequested = true;
      e.abort?.abort(new JobCancelledError(e.id));
    }
    return Promise.resolve(snapshot(e));
  }

  work(handler: JobHandler, options: { readonly concurrency: number }): JobWorker {
    if (this.#worker !== undefined && !this.#worker.closed)
      throw new TypeError('the in-process driver runs one worker (give it the concurrency you need)');
    const worker = {
      handler,
      concurrency: Math.max(1, options.concurrency),
      running: new Set<Promise<void>>(),
      closed: false,
    };
    this.#worker = worker;
    this.#pump();
    return {
      close: async (closeOptions = {}) => {
        worker.closed = true;
        await this.#drain(worker.running, closeOptions.timeoutMs);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const e of this.#jobs.values()) if (e.timer !== undefined) clearTimeout(e.timer);
    if (this.#worker !== undefined) {
      this.#worker.closed = true;
      await this.#drain(this.#worker.running, 10_000);
    }
  }

  async #drain(running: Set<Promise<void>>, timeoutMs: number | undefined): Promise<void> {
    if (running.size === 0) return;
    const all = Promise.all([...running]);
    if (timeoutMs === undefined) {
      await all;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        // the jobs still running are aborted: they fail this attempt and are retried per policy
        for (const e of this.#jobs.values()) e.abort?.abort(new WorkerShutdownError());
        resolve();
      }, timeoutMs);
    });
    await Promise.race([all, timedOut]);
    clearTimeout(timer);
    await all;
  }

  #pump(): void {
    const w = this.#worker;
    if (w === undefined || w.closed || this.#closed) return;
    while (w.running.size < w.concurrency && this.#waiting.length > 0) {
      const e = this.#waiting.shift()!;
      const run: Promise<void> = this.#run(w.handler, e).finally(() => {
        w.running.delete(run);
        this.#pump();
      });
      w.running.add(run);
    }
  }

  async #run(handler: JobHandler, e: Entry): Promise<void> {
    e.state = 'ACTIVE';
    e.attempts++;
    e.abort = new AbortController();
    const job: RunningJob = {
      id: e.id,
      name: e.name,
      data: e.data,
      attempt: e.attempts,
      maxAttempts: e.maxAttempts,
      signal: e.abort.signal,
      updateProgress: (p) => {
        if (e.state === 'ACTIVE') e.progress = clampProgress(p);
        return Promise.resolve();
      },
    };
    try {
      // a macrotask boundary: a processor that throws synchronously is still an attempt that failed
      const result = await Promise.resolve().then(() => handler(job));
      this.#finish(e, 'COMPLETED', { result });
    } catch (err) {
      const failure = failureOf(err);
      if (e.cancelRequested) this.#finish(e, 'CANCELLED', { error: failure });
      else if (isUnrecoverable(err) || e.attempts >= e.maxAttempts || this.#closed) {
        if (this.#closed && e.attempts < e.maxAttempts) {
          // shutting down: the attempt is released, not counted as the last (nothing restarts it here)
          e.state = 'WAITING';
          e.error = failure;
        } else this.#finish(e, 'FAILED', { error: failure });
      } else {
        e.state = 'DELAYED';
        e.error = failure;
        e.timer = setTimeout(
          () => {
            e.timer = undefined;
            if (e.state !== 'DELAYED') return;
            e.state = 'WAITING';
            this.#waiting.push(e);
            this.#pump();
          },
          backoffDelay(e.backoff, e.attempts),
        );
        e.timer.unref();
      }
    } finally {
      e.abort = undefined;
    }
  }

  #finish(e: Entry, state: JobState, outcome: { result?: JsonObject; error?: JobFailure }): void {
    e.state = state;
    if (outcome.result !== undefined) e.result = outcome.result;
    if (outcome.error !== undefined) e.error = outcome.error;
    if (state === 'COMPLETED') e.progress = 100;
    e.finishedAt = Date.now();
    if (isFinalState(state)) {
      this.#finished.push(e.id);
      while (this.#finished.length > this.#keepFinished) this.#jobs.delete(this.#finished.shift()!);
    }
  }
}

function snapshot(e: Entry): JobSnapshot {
  return {
    id: e.id,
    name: e.name,
    state: e.state,
    progress: e.progress,
    attempts: e.attempts,
    maxAttempts: e.maxAttempts,
    data: e.data,
    ...(e.result !== undefined ? { result: e.result } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
    createdAt: e.createdAt,
    ...(e.finishedAt !== undefined ? { finishedAt: e.finishedAt } : {}),
  };
}

/**
 * What a failure shows through the jobs resource: name, message, and the Svc code when there is one. A
 * file-system fault of the processor's (a full disk) is recorded as the typed error the upload path
 * answers with (507 `SVC_ERR_QUEUE_BLOB_WRITE`), naming the fault, not the file.
 */
export function failureOf(err: unknown): JobFailure {
  if (isSystemError(err))
    return failureOf(new BlobWriteError(`The job could not write its output: ${describeFault(err)}`));
  if (err instanceof Error || types.isNativeError(err)) {
    const code = (err as { code?: unknown }).code;
    return {
      name: err.name,
      message: err.message.slice(0, 2000),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'Error', message: String(err).slice(0, 2000) };
}

export function clampProgress(p: number): number {
  return Number.isFinite(p) ? Math.min(100, Math.max(0, p)) : 0;
}
