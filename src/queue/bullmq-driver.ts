import { randomUUID } from 'node:crypto';
import type * as BullMq from 'bullmq';
import type { ConnectionOptions, Job, Queue } from 'bullmq';
import type * as IoRedis from 'ioredis';
import type { Redis, RedisOptions } from 'ioredis';
import type { JobHandler, JobWorker, QueueDriver, RunningJob } from './driver';
import {
  JobCancelledError,
  QueueUnavailableError,
  WorkerShutdownError,
  isUnrecoverable,
  isWorkerShutdown,
} from './errors';
import { clampProgress, failureOf } from './in-process-driver';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  type JobData,
  type JobFailure,
  type JobOptions,
  type JobSnapshot,
  type JobState,
  type JsonObject,
} from './job';

/** Options of {@link BullMqDriver}. */
/**
 * bullmq and ioredis, loaded when the first BullMQ driver is made, not when the package is imported: a
 * service on the in-process driver never pays for them, and loading bullmq measurably slows unrelated hot
 * paths of the process (PSON encoding ran at 0.65× instead of 0.95× of JSON with it merely loaded,
 * `bench/pson-codec.bench.ts`).
 */
interface Engines {
  readonly bullmq: typeof BullMq;
  readonly ioredis: typeof IoRedis;
}
let engines: Engines | undefined;
function load(): Engines {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, see above */
  engines ??= {
    bullmq: require('bullmq') as typeof BullMq,
    ioredis: require('ioredis') as typeof IoRedis,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return engines;
}

/** Options of the BullMQ driver (`BullMqDriver`): the Redis connection, the queue name, locks. */
export interface BullMqDriverOptions {
  /** A Redis URL (`redis://[:password@]host:port[/db]`) or ioredis options. Default `process.env.REDIS_URL`. */
  readonly connection?: string | RedisOptions;
  /** The BullMQ queue: services and their workers must agree on it. Default `svc-jobs`. */
  readonly queueName?: string;
  /** Prefix of every Redis key of the queue. Default `svc`. */
  readonly prefix?: string;
  /** Completed, failed and cancelled jobs kept (each) for `GET /jobs/{id}`, oldest dropped first. Default 10,000. */
  readonly keepFinished?: number;
  /**
   * How long a worker's lock on a running job lasts (ms; renewed at half of it while the job runs). A worker
   * that dies holds a job this long at most before it counts as stalled. Default 30,000.
   *
   * The trade-off: a killed worker's job waits up to `lockDurationMs` plus one `stalledIntervalMs` (about
   * 35 s with the defaults, as measured) before another worker takes it. A shorter lock brings that in, but
   * a worker whose event loop is held longer than the lock (a CPU-bound processor, a long GC pause, Redis
   * out of reach) loses a job it is still running, and the job runs twice at once. Shorten it only for
   * processors that never block the loop for long; keep both figures well above the longest such pause.
   */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs (their worker died) and put them back to wait (ms). Default 30,000. */
  readonly stalledIntervalMs?: number;
  /**
   * How long `add` waits for a Redis connection that is down before it throws {@link QueueUnavailableError}
   * (ms). Also bounds every Redis command of the producer. Default 2,000.
   */
  readonly unavailableAfterMs?: number;
}

/** A job's data in Redis: the queue's data plus a nonce that tells a new job from one that existed. */
interface StoredData extends JobData {
  readonly nonce: string;
}

type BullJob = Job<StoredData, JsonObject, string>;

/** A job's carried headers (observer.ts), as a part to spread: none when it has none. */
function withHeaders(data: JobData): { readonly headers?: { readonly [name: string]: string } } {
  return data.headers === undefined ? {} : { headers: data.headers };
}

/** Failures cross Redis as BullMQ's `failedReason` (a string): name and code ride along in this form. */
const FAILURE_MARK = 'svc-failure:';

function encodeFailure(f: JobFailure): string {
  return FAILURE_MARK + JSON.stringify(f);
}

function decodeFailure(reason: string | undefined): JobFailure | undefined {
  if (reason === undefined || reason === '') return undefined;
  if (reason.startsWith(FAILURE_MARK)) {
    try {
      const f = JSON.parse(reason.slice(FAILURE_MARK.length)) as Partial<JobFailure>;
      if (typeof f.name === 'string' && typeof f.message === 'string')
        return { name: f.name, message: f.message, ...(typeof f.code === 'string' ? { code: f.code } : {}) };
    } catch {
      // not ours after all: shown as it is
    }
  }
  // BullMQ's own reasons (a stalled job over its limit, a lost lock)
  return { name: 'Error', message: reason.slice(0, 2000) };
}

/** BullMQ refuses `:` in custom ids; queue ids never hold `~`, so it stands in. */
const toBullId = (id: string): string => id.replace(/:/g, '~');
const fromBullId = (id: string): string => id.replace(/~/g, ':');

const STATE_OF: Readonly<Record<string, JobState>> = {
  waiting: 'WAITING',
  wait: 'WAITING',
  prioritized: 'WAITING',
  'waiting-children': 'WAITING',
  active: 'ACTIVE',
  delayed: 'DELAYED',
  completed: 'COMPLETED',
  failed: 'FAILED',
};

const BULL_TYPES: Readonly<Record<Exclude<JobState, 'CANCELLED'>, readonly BullType[]>> = {
  WAITING: ['wait', 'prioritized', 'waiting-children'],
  ACTIVE: ['active'],
  DELAYED: ['delayed'],
  COMPLETED: ['completed'],
  FAILED: ['failed'],
};
type BullType = 'wait' | 'prioritized' | 'waiting-children' | 'active' | 'delayed' | 'completed' | 'failed';

/** Connection options from a URL or options, with fast reconnects (BullMQ's default waits up to 20 s). */
function redisOptions(connection: string | RedisOptions | undefined): RedisOptions {
  const given = connection ?? process.env.REDIS_URL;
  if (given === undefined || given === '')
    throw new QueueUnavailableError(
      'The BullMQ driver needs Redis: set REDIS_URL (redis://host:port) or give the connection option',
    );
  const base: RedisOptions = typeof given === 'string' ? { ...parseRedisUrl(given) } : { ...given };
  return {
    retryStrategy: (times: number) => Math.min(50 * times, 500),
    ...base,
  };
}

function parseRedisUrl(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueUnavailableError(`'${url.slice(0, 200)}' is not a Redis URL (redis://host:port)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new QueueUnavailableError(`'${u.protocol}' is not a Redis URL scheme (redis: or rediss:)`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port === '' ? 6379 : Number(u.port),
    ...(u.username !== '' ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== '' ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

interface Running {
  readonly abort: AbortController;
}

/**
 * The distributed driver: jobs live in Redis (BullMQ), and any number of processes on any machine run
 * them (`svc worker`, or `queue.start()` in the service itself). Jobs survive restarts of the service
 * and the workers; a worker that dies mid-job loses its lock, and another worker runs the job again
 * after `lockDurationMs` (so processors must be idempotent). Cancelling a running job reaches the worker
 * running it, in whatever process, through a Redis channel.
 */
export class BullMqDriver implements QueueDriver {
  readonly kind = 'bullmq';
  readonly queueName: string;
  readonly #options: RedisOptions;
  readonly #prefix: string;
  readonly #keepFinished: number;
  readonly #lockDurationMs: number;
  readonly #stalledIntervalMs: number;
  readonly #unavailableAfterMs: number;
  /** The producer's connection: no offline queue, so commands fail at once while Redis is down. */
  readonly #redis: Redis;
  readonly #queue: Queue<StoredData, JsonObject, string>;
  readonly #workers = new Set<{ close(o?: { readonly timeoutMs?: number }): Promise<void> }>();
  #closing: Promise<void> | undefined;

  constructor(options: BullMqDriverOptions = {}) {
    this.#options = redisOptions(options.connection);
    this.queueName = options.queueName ?? 'svc-jobs';
    this.#prefix = options.prefix ?? 'svc';
    this.#keepFinished = options.keepFinished ?? 10_000;
    this.#lockDurationMs = options.lockDurationMs ?? 30_000;
    this.#stalledIntervalMs = options.stalledIntervalMs ?? 30_000;
    this.#unavailableAfterMs = options.unavailableAfterMs ?? 2000;
    const { bullmq, ioredis } = load();
    this.#redis = new ioredis.Redis({
      ...this.#options,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: this.#unavailableAfterMs,
    });
    // connection errors surface as QueueUnavailableError on the calls that need Redis
    this.#redis.on('error', () => undefined);
    this.#queue = new bullmq.Queue<StoredData, JsonObject, string>(this.queueName, {
      connection: this.#redis,
      prefix: this.#prefix,
    });
    this.#queue.on('error', () => undefined);
  }

  async add(name: string, data: JobData, options: JobOptions): Promise<{ job: JobSnapshot; added: boolean }> {
    const id = options.jobId ?? randomUUID();
    const nonce = randomUUID();
    return this.#guard('add the job', async () => {
      if (options.jobId !== undefined) {
        const cancelled = await this.#cancelledSnapshot(id);
        if (cancelled !== undefined) return { job: cancelled, added: false };
      }
      const backoff = options.backoff ?? DEFAULT_BACKOFF;
      const job = await this.#queue.add(
        name,
        { payload: data.payload, blobs: data.blobs, nonce, ...withHeaders(data) },
        {
          jobId: toBullId(id),
          attempts: options.attempts ?? DEFAULT_ATTEMPTS,
          backoff: { type: backoff.type, delay: backoff.delayMs },
          removeOnComplete: { count: this.#keepFinished },
          removeOnFail: { count: this.#keepFinished },
        },
      );
      if (options.jobId === undefined) return { job: this.#snapshot(job, 'WAITING'), added: true };
      // BullMQ answers a duplicate id with the job it was given, not the one it kept: the nonce tells them apart
      const stored = await this.#read(id);
      if (stored === undefined || stored.nonce === nonce)
        return { job: stored?.snapshot ?? this.#snapshot(job, 'WAITING'), added: true };
      return { job: stored.snapshot, added: false };
    });
  }

  async get(id: string): Promise<JobSnapshot | undefined> {
    return this.#guard('read the job', async () => {
      const cancelled = await this.#cancelledSnapshot(id);
      if (cancelled !== undefined) return cancelled;
      return (await this.#read(id))?.snapshot;
    });
  }

  async list(state: JobState, start: number, count: number): Promise<{ jobs: JobSnapshot[]; total: number }> {
    return this.#guard('list jobs', async () => {
      const first = Math.max(0, Math.floor(start));
      const n = Math.max(0, Math.floor(count));
      if (state === 'CANCELLED') {
        const [ids, total] = await Promise.all([
          n === 0 ? [] : this.#redis.zrevrange(this.#key('cancelled-order'), first, first + n - 1),
          this.#redis.zcard(this.#key('cancelled-order')),
        ]);
        const texts = ids.length === 0 ? [] : await this.#redis.hmget(this.#key('cancelled'), ...ids);
        const jobs = texts.filter((t): t is string => t !== null).map((t) => JSON.parse(t) as JobSnapshot);
        return { jobs, total };
      }
      const types = BULL_TYPES[state];
      const counts = await this.#queue.getJobCounts(...types);
      const total = types.reduce((sum, t) => sum + (counts[t] ?? 0), 0);
      if (n === 0 || first >= total) return { jobs: [], total };
      // each type newest first; merged by creation time (a stable sort keeps each type's order on ties)
      const perType = await Promise.all(
        types.map((t) =>
          this.#queue.getJobs([t], t === types[0] && types.length === 1 ? first : 0, first + n - 1, false),
        ),
      );
      let jobs = perType.flat().filter((j): j is BullJob => j !== undefined && j !== null);
      if (types.length > 1) jobs = jobs.sort((a, b) => b.timestamp - a.timestamp).slice(first, first + n);
      return { jobs: jobs.map((j) => this.#snapshot(j, state)), total };
    });
  }

  async cancel(id: string): Promise<JobSnapshot | undefined> {
    return this.#guard('cancel the job', async () => {
      const cancelled = await this.#cancelledSnapshot(id);
      if (cancelled !== undefined) return cancelled;
      const read = await this.#read(id);
      if (read === undefined) return undefined;
      const { job, snapshot: before } = read;
      if (before.state === 'CANCELLED' || job === undefined) return before;
      if (before.state === 'WAITING' || before.state === 'DELAYED') {
        const removed = await job.remove().then(
          () => true,
          // a worker took it meanwhile (it is locked): cancelled as a running job below
          () => false,
        );
        if (removed) {
          const snap: JobSnapshot = {
            ...before,
            state: 'CANCELLED',
            error: failureOf(new JobCancelledError(id)),
            finishedAt: Date.now(),
          };
          await this.#recordCancelled(snap);
          return snap;
        }
      } else if (before.state !== 'ACTIVE') return before;
      // running (here or in another process): the flag covers a worker that has not yet subscribed
      await this.#redis
        .multi()
        .set(this.#key(`cancel:${toBullId(id)}`), '1', 'PX', this.#retentionMs())
        .publish(this.#key('cancel'), id)
        .exec();
      return (await this.#read(id))?.snapshot ?? before;
    });
  }

  work(handler: JobHandler, options: { readonly concurrency: number }): JobWorker {
    if (this.#closing !== undefined) throw new TypeError('this driver is closed');
    const running = new Map<string, Running>();
    let shuttingDown = false;
    const { bullmq, ioredis } = load();
    const subscriber = new ioredis.Redis({ ...this.#options, maxRetriesPerRequest: null });
    subscriber.on('error', () => undefined);
    const channel = this.#key('cancel');
    // cancels heard for jobs not (yet) running here: one picked up just as it was cancelled is known
    // without a Redis round trip per job start (kept a minute, at most 10,000)
    const heard = new Map<string, number>();
    subscriber.on('message', (ch: string, id: string) => {
      if (ch !== channel) return;
      const r = running.get(id);
      if (r !== undefined) {
        r.abort.abort(new JobCancelledError(id));
        return;
      }
      const now = Date.now();
      heard.set(id, now);
      for (const [k, t] of heard) {
        if (heard.size <= 10_000 && now - t < 60_000) break;
        heard.delete(k);
      }
    });
    void subscriber.subscribe(channel).catch(() => undefined);

    const worker = new bullmq.Worker<StoredData, JsonObject, string>(
      this.queueName,
      (job, token) => this.#process(handler, job, token, running, () => shuttingDown, heard),
      {
        // BullMQ's RedisOptions type is narrower than ioredis's own; the options are ioredis's
        connection: { ...this.#options, maxRetriesPerRequest: null } as ConnectionOptions,
        prefix: this.#prefix,
        concurrency: Math.max(1, options.concurrency),
        lockDuration: this.#lockDurationMs,
        stalledInterval: this.#stalledIntervalMs,
        removeOnComplete: { count: this.#keepFinished },
        removeOnFail: { count: this.#keepFinished },
      },
    );
    // Redis errors are retried by BullMQ itself; a crash of the process over one would lose every job
    worker.on('error', () => undefined);
    worker.on('failed', (job, err) => {
      // a cancelled job's record lives with the cancelled ones: out of the failed set
      if (job !== undefined && decodeFailure(err.message)?.name === 'JobCancelledError')
        void job.remove().catch(() => undefined);
    });

    let closing: Promise<void> | undefined;
    const handle = {
      close: (closeOptions: { readonly timeoutMs?: number } = {}): Promise<void> => {
        closing ??= (async () => {
          shuttingDown = true;
          const closed = worker.close();
          let timer: NodeJS.Timeout | undefined;
          if (closeOptions.timeoutMs !== undefined) {
            const timeoutMs = closeOptions.timeoutMs;
            await Promise.race([
              closed,
              new Promise<void>((resolve) => {
                timer = setTimeout(() => {
                  // jobs still running are released: back to wait, for this or another worker
                  for (const r of running.values()) r.abort.abort(new WorkerShutdownError());
                  resolve();
                }, timeoutMs);
              }),
            ]);
            clearTimeout(timer);
            // a processor that ignores its signal is left behind: its lock expires, the job is stalled
            await Promise.race([
              closed,
              new Promise<void>((resolve) => {
                timer = setTimeout(() => {
                  void worker.close(true);
                  resolve();
                }, timeoutMs);
              }),
            ]);
            clearTimeout(timer);
          }
          await closed.catch(() => undefined);
          await subscriber.quit().catch(() => subscriber.disconnect());
          this.#workers.delete(handle);
        })();
        return closing;
      },
    };
    this.#workers.add(handle);
    return handle;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#workers].map((w) => w.close({ timeoutMs: 10_000 })));
      await this.#queue.close().catch(() => undefined);
      await this.#redis.quit().catch(() => this.#redis.disconnect());
    })();
    return this.#closing;
  }

  async #process(
    handler: JobHandler,
    job: BullJob,
    token: string | undefined,
    running: Map<string, Running>,
    shuttingDown: () => boolean,
    heard: ReadonlyMap<string, number>,
  ): Promise<JsonObject> {
    const id = fromBullId(job.id!);
    const abort = new AbortController();
    running.set(id, { abort });
    const cancelKey = this.#key(`cancel:${job.id!}`);
    const cancelRequested = async (): Promise<boolean> =>
      (abort.signal.aborted && abort.signal.reason instanceof JobCancelledError) ||
      (await this.#redis.exists(cancelKey).catch(() => 0)) === 1;
    try {
      // a first run learns of a cancel from the channel (this worker listened before taking the job); a
      // re-run (retry, stalled) may have been cancelled while no worker listened: the flag in Redis says so
      const rerun = job.attemptsMade > 0 || job.stalledCounter > 0;
      if (heard.has(id) || (rerun && (await cancelRequested()))) abort.abort(new JobCancelledError(id));
      abort.signal.throwIfAborted();
      const maxAttempts = job.opts.attempts ?? 1;
      const run: RunningJob = {
        id,
        name: job.name,
        data: { payload: job.data.payload, blobs: job.data.blobs, ...withHeaders(job.data) },
        attempt: job.attemptsMade + 1,
        maxAttempts,
        signal: abort.signal,
        updateProgress: (p) => job.updateProgress(clampProgress(p)),
      };
      return await handler(run);
    } catch (err) {
      if (await cancelRequested()) {
        const failure = failureOf(new JobCancelledError(id));
        const snap = this.#snapshot(job, 'CANCELLED');
        await this.#recordCancelled({
          ...snap,
          attempts: job.attemptsMade + 1,
          error: failure,
          finishedAt: Date.now(),
        }).catch(() => undefined);
        await this.#redis.del(cancelKey).catch(() => undefined);
        throw new (load().bullmq.UnrecoverableError)(encodeFailure(failure));
      }
      if (shuttingDown() && isWorkerShutdown(abort.signal.reason) && token !== undefined) {
        // released, not failed: the attempt does not count
        await job.moveToWait(token);
        throw new (load().bullmq.WaitingError)();
      }
      const failure = failureOf(err);
      if (isUnrecoverable(err)) throw new (load().bullmq.UnrecoverableError)(encodeFailure(failure));
      throw new Error(encodeFailure(failure));
    } finally {
      running.delete(id);
    }
  }

  /** Runs a Redis operation, turning an unreachable Redis into {@link QueueUnavailableError}, bounded in time. */
  async #guard<T>(what: string, op: () => Promise<T>): Promise<T> {
    if (this.#closing !== undefined) throw new QueueUnavailableError(`cannot ${what}: the queue is closed`);
    await this.#ready(what);
    try {
      return await op();
    } catch (err) {
      if (isConnectionError(err))
        throw new QueueUnavailableError(`cannot ${what}: Redis is unreachable (${(err as Error).message})`, {
          cause: err,
        });
      throw err;
    }
  }

  /** Waits (at most `unavailableAfterMs`) for the producer connection; nothing is sent before it is up. */
  async #ready(what: string): Promise<void> {
    const r = this.#redis;
    if (r.status === 'ready') return;
    if (r.status === 'wait') void r.connect().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    const ready = await new Promise<boolean>((resolve) => {
      onReady = () => resolve(true);
      r.once('ready', onReady);
      timer = setTimeout(() => resolve(false), this.#unavailableAfterMs);
    });
    clearTimeout(timer);
    r.removeListener('ready', onReady!);
    if (!ready)
      throw new QueueUnavailableError(
        `cannot ${what}: Redis is unreachable (no connection within ${this.#unavailableAfterMs} ms)`,
      );
  }

  #key(suffix: string): string {
    // '/' never occurs in a job id, so these keys cannot meet BullMQ's per-job keys
    return `${this.#prefix}:${this.queueName}:svc/${suffix}`;
  }

  #retentionMs(): number {
    return 7 * 24 * 3600 * 1000;
  }

  async #cancelledSnapshot(id: string): Promise<JobSnapshot | undefined> {
    const text = await this.#redis.hget(this.#key('cancelled'), id);
    return text === null ? undefined : (JSON.parse(text) as JobSnapshot);
  }

  /** Keeps a cancelled job's last snapshot (BullMQ no longer has the job), trimmed like the finished ones. */
  async #recordCancelled(snap: JobSnapshot): Promise<void> {
    const hash = this.#key('cancelled');
    const order = this.#key('cancelled-order');
    await this.#redis
      .multi()
      .hset(hash, snap.id, JSON.stringify(snap))
      .zadd(order, String(snap.finishedAt ?? Date.now()), snap.id)
      .exec();
    const overflow = await this.#redis.zrange(order, '0', String(-(this.#keepFinished + 1)));
    if (overflow.length > 0)
      await this.#redis
        .multi()
        .hdel(hash, ...overflow)
        .zrem(order, ...overflow)
        .exec();
  }

  /**
   * A job as it stands. Its state and its hash are separate reads: the state is read on both sides of the
   * hash and the read repeats until they agree, so a job finishing meanwhile never shows a mix of both.
   * A job that is gone may have been cancelled: then its cancelled record answers.
   */
  async #read(id: string): Promise<{ job?: BullJob; snapshot: JobSnapshot; nonce: string } | undefined> {
    const bullId = toBullId(id);
    for (let tries = 0; ; tries++) {
      const before = await this.#queue.getJobState(bullId);
      const job = before === 'unknown' ? undefined : await this.#queue.getJob(bullId);
      const after = job === undefined ? 'unknown' : await this.#queue.getJobState(bullId);
      const state = STATE_OF[after];
      if (job === undefined || state === undefined) {
        const cancelled = await this.#cancelledSnapshot(id);
        return cancelled === undefined ? undefined : { snapshot: cancelled, nonce: '' };
      }
      if (before === after || tries >= 4)
        return { job, snapshot: this.#snapshot(job, state), nonce: job.data.nonce };
    }
  }

  #snapshot(job: BullJob, state: JobState): JobSnapshot {
    const error = decodeFailure(job.failedReason);
    const progress =
      state === 'COMPLETED' ? 100 : typeof job.progress === 'number' ? clampProgress(job.progress) : 0;
    const finished = state === 'COMPLETED' || state === 'FAILED';
    return {
      id: fromBullId(job.id!),
      name: job.name,
      state,
      progress,
      attempts: job.attemptsMade + (state === 'ACTIVE' ? 1 : 0),
      maxAttempts: job.opts.attempts ?? 1,
      data: { payload: job.data.payload, blobs: job.data.blobs, ...withHeaders(job.data) },
      ...(state === 'COMPLETED' && job.returnvalue !== undefined && job.returnvalue !== null
        ? { result: job.returnvalue }
        : {}),
      ...(error !== undefined && state !== 'COMPLETED' ? { error } : {}),
      createdAt: job.timestamp,
      ...(finished && job.finishedOn !== undefined ? { finishedAt: job.finishedOn } : {}),
    };
  }
}

/** Errors that mean "Redis is not there" rather than "Redis said no". */
function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return (
    err.name === 'ConnectionClosedError' ||
    err.name === 'MaxRetriesPerRequestError' ||
    (typeof code === 'string' &&
      /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NOTFOUND)$/.test(code)) ||
    /Stream isn't writeable|enableOfflineQueue|Connection is closed|Command timed out|ECONNREFUSED/.test(
      err.message,
    )
  );
}
