import type { JobData, JobOptions, JobSnapshot, JobState, JsonObject } from './job';

/**
 * The engine under an {@link AttachmentQueue}: where jobs wait, which worker runs them, retries, progress
 * and states. Two implementations behave the same (one behavioural test suite runs against both):
 * {@link InProcessDriver} (the embedded default, single process) and {@link BullMqDriver} (Redis, workers
 * in any process on any machine).
 */
export interface QueueDriver {
  /** `in-process` or `bullmq`: for logs and the jobs resource. */
  readonly kind: string;
  /**
   * Adds a job, or returns the job that already has `options.jobId`.
   * @throws QueueUnavailableError when the engine cannot take it (Redis down)
   */
  add(name: string, data: JobData, options: JobOptions): Promise<{ job: JobSnapshot; added: boolean }>;
  get(id: string): Promise<JobSnapshot | undefined>;
  /** Jobs in `state`, newest first, with the total in that state. */
  list(state: JobState, start: number, count: number): Promise<{ jobs: JobSnapshot[]; total: number }>;
  /**
   * Cancels a job that has not finished: a waiting or delayed one never runs; a running one has its
   * processor's signal aborted. Resolves with the job as it then stands; undefined when there is no such job.
   */
  cancel(id: string): Promise<JobSnapshot | undefined>;
  /** Starts running jobs (every name) with `handler`, at most `concurrency` at once. */
  work(handler: JobHandler, options: { readonly concurrency: number }): JobWorker;
  /** Stops taking jobs, waits for running ones (or releases them, per driver), and closes connections. */
  close(): Promise<void>;
}

/** One attempt of a job, as a worker runs it. */
export interface RunningJob {
  readonly id: string;
  readonly name: string;
  readonly data: JobData;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Aborted when the job is cancelled or the worker shuts down. */
  readonly signal: AbortSignal;
  /** Reports progress, 0 to 100. */
  updateProgress(progress: number): Promise<void>;
}

/** What a worker does with an attempt: its result, or a thrown error (retried, unless unrecoverable). */
export type JobHandler = (job: RunningJob) => Promise<JsonObject>;

/** What happened to a job when an attempt ended (drivers call it, the queue cleans blobs on final ones). */
export interface JobWorker {
  /** Stops taking jobs; running ones finish (or are released at `timeoutMs`). */
  close(options?: { readonly timeoutMs?: number }): Promise<void>;
}
