/**
 * The BullMQ driver against the suite's real redis-server: what only Redis has (the shared behaviour table
 * runs in bullmq-behaviour.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AttachmentQueue,
  BullMqDriver,
  type BullMqDriverOptions,
  FileBlobStore,
  JobNotFoundError,
  QueueUnavailableError,
  UnrecoverableJobError,
} from '../../src/queue';
import type { SvcError } from '../../src/errors';
import { RedisServer } from '../support/redis-server';
import { readerOf, waitForState } from './support/driver-behaviour';

function redisUrl(): string {
  const url = process.env.SVC_TEST_REDIS_URL;
  if (url === undefined) throw new Error('SVC_TEST_REDIS_URL is not set: the jest global setup starts Redis');
  return url;
}

/** A driver on a queue of its own, with short lock and stall timings. */
function driver(options: BullMqDriverOptions = {}): BullMqDriver {
  return new BullMqDriver({
    connection: redisUrl(),
    queueName: `t-${randomUUID()}`,
    lockDurationMs: 2000,
    stalledIntervalMs: 1000,
    ...options,
  });
}

describe('BullMQ driver: what Redis adds', () => {
  let dir: string;
  const queues: AttachmentQueue[] = [];

  async function queueOn(d: BullMqDriver): Promise<AttachmentQueue> {
    const q = new AttachmentQueue({ blobs: await FileBlobStore.open({ dir }), driver: d });
    queues.push(q);
    return q;
  }

  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-bullmq-'));
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.close({ timeoutMs: 2000 });
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('carries an error name and code through Redis to the failed job', async () => {
    const q = await queueOn(driver());
    q.process('coded', () => {
      throw new UnrecoverableJobError('bad header');
    });
    q.start();
    const job = await q.enqueue('coded', null, {}, { attempts: 4 });
    const failed = await waitForState(q, job.id, ['FAILED']);
    expect(failed).toMatchObject({
      attempts: 1,
      maxAttempts: 4,
      error: { name: 'UnrecoverableJobError', message: 'bad header', code: 'SVC_ERR_QUEUE_UNRECOVERABLE' },
    });
    expect(failed.finishedAt).toBeGreaterThanOrEqual(failed.createdAt);
  });

  it('shows a job waiting out its backoff as DELAYED, with the last error', async () => {
    const q = await queueOn(driver());
    q.process('later', (job) => {
      if (job.attempt === 1) throw new Error('first try');
      return { ok: true };
    });
    q.start();
    const job = await q.enqueue(
      'later',
      null,
      {},
      { attempts: 2, backoff: { type: 'fixed', delayMs: 60_000 } },
    );
    const delayed = await waitForState(q, job.id, ['DELAYED']);
    expect(delayed).toMatchObject({ attempts: 1, error: { message: 'first try' } });
    expect((await q.list('DELAYED', 0, 10)).jobs.map((j) => j.id)).toEqual([job.id]);
    const cancelled = await q.cancel(job.id);
    expect(cancelled.state).toBe('CANCELLED');
    expect(await q.get(job.id)).toMatchObject({ state: 'CANCELLED', attempts: 1 });
    expect(await q.list('CANCELLED', 0, 10)).toMatchObject({ total: 1, jobs: [{ id: job.id }] });
    expect((await q.list('DELAYED', 0, 10)).total).toBe(0);
  });

  it('lists a cancelled running job as CANCELLED, not FAILED', async () => {
    const q = await queueOn(driver());
    q.process(
      'long',
      (job) =>
        new Promise((_, reject) => {
          job.signal.addEventListener('abort', () => reject(job.signal.reason as Error));
        }),
    );
    q.process('next', () => ({}));
    q.start({ concurrency: 1 });
    const job = await q.enqueue('long', null);
    await waitForState(q, job.id, ['ACTIVE']);
    await q.cancel(job.id);
    await waitForState(q, job.id, ['CANCELLED']);
    // the one worker takes the next job only once it is done with the cancelled one (its processor rejected)
    const next = await q.enqueue('next', null);
    await waitForState(q, next.id, ['COMPLETED']);
    expect((await q.list('FAILED', 0, 10)).total).toBe(0);
    expect((await q.list('CANCELLED', 0, 10)).jobs.map((j) => j.id)).toEqual([job.id]);
  });

  it('cancels a running job from another process’s driver (a cancel crosses Redis)', async () => {
    const queueName = `t-${randomUUID()}`;
    const workerSide = await queueOn(driver({ queueName }));
    const serviceSide = await queueOn(driver({ queueName }));
    workerSide.process(
      'long',
      (job) =>
        new Promise((_, reject) => {
          job.signal.addEventListener('abort', () => reject(job.signal.reason as Error));
        }),
    );
    workerSide.start();
    const job = await serviceSide.enqueue('long', null, {}, { attempts: 3 });
    await waitForState(serviceSide, job.id, ['ACTIVE']);
    await serviceSide.cancel(job.id);
    expect(await waitForState(serviceSide, job.id, ['CANCELLED', 'FAILED', 'COMPLETED'])).toMatchObject({
      state: 'CANCELLED',
      attempts: 1,
      error: { name: 'JobCancelledError' },
    });
  });

  it('keeps the newest keepFinished jobs of each final state, completed, failed and cancelled apart', async () => {
    const q = await queueOn(driver({ keepFinished: 2 }));
    const stateOf = (id: string): Promise<string> =>
      q.get(id).then(
        (j) => j.state,
        (err: unknown) => {
          if (err instanceof JobNotFoundError) return 'forgotten';
          throw err;
        },
      );
    const statesOf = (ids: readonly string[]): Promise<string[]> => Promise.all(ids.map(stateOf));
    // Redis orders finished jobs by their finishing millisecond: the next job finishes in a later one
    let last = 0;
    const laterMillisecond = async (finishedAt: number | undefined): Promise<void> => {
      last = Math.max(last, finishedAt ?? 0);
      while (Date.now() <= last) await new Promise((r) => setImmediate(r));
    };

    // cancelled while waiting (no worker yet): each cancel records the job, the oldest record is dropped
    const cancelled: string[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await q.enqueue('ok', null);
      await laterMillisecond((await q.cancel(job.id)).finishedAt);
      cancelled.push(job.id);
    }
    expect(await statesOf(cancelled)).toEqual(['forgotten', 'CANCELLED', 'CANCELLED']);

    q.process('ok', () => ({}));
    q.process('bad', () => {
      throw new UnrecoverableJobError('no');
    });
    q.start();
    const run = async (name: string, state: 'COMPLETED' | 'FAILED'): Promise<string> => {
      const job = await q.enqueue(name, null);
      await laterMillisecond((await waitForState(q, job.id, [state])).finishedAt);
      return job.id;
    };
    const completed = [await run('ok', 'COMPLETED'), await run('ok', 'COMPLETED')];
    const failed = [await run('bad', 'FAILED'), await run('bad', 'FAILED'), await run('bad', 'FAILED')];
    // three failures drop the oldest failure, not a completed or a cancelled job
    expect(await statesOf([...cancelled, ...completed, ...failed])).toEqual([
      'forgotten',
      'CANCELLED',
      'CANCELLED',
      'COMPLETED',
      'COMPLETED',
      'forgotten',
      'FAILED',
      'FAILED',
    ]);
    completed.push(await run('ok', 'COMPLETED'));
    expect(await statesOf(completed)).toEqual(['forgotten', 'COMPLETED', 'COMPLETED']);
    expect((await q.list('COMPLETED', 0, 10)).jobs.map((j) => j.id).sort()).toEqual(
      completed.slice(1).sort(),
    );
    expect((await q.list('FAILED', 0, 10)).jobs.map((j) => j.id).sort()).toEqual(failed.slice(1).sort());
    expect((await q.list('CANCELLED', 0, 10)).jobs.map((j) => j.id).sort()).toEqual(
      cancelled.slice(1).sort(),
    );
  });

  it('keeps ids with colons as given', async () => {
    const q = await queueOn(driver());
    const job = await q.enqueue('x', null, {}, { jobId: 'photo:42:v2' });
    expect(job.id).toBe('photo:42:v2');
    expect((await q.get('photo:42:v2')).state).toBe('WAITING');
    expect((await q.list('WAITING', 0, 1)).jobs[0]?.id).toBe('photo:42:v2');
  });

  it('refuses to start without a Redis URL', () => {
    const saved = process.env.REDIS_URL;
    delete process.env.REDIS_URL;
    try {
      expect(() => new BullMqDriver()).toThrow(/REDIS_URL/);
    } finally {
      if (saved !== undefined) process.env.REDIS_URL = saved;
    }
  });

  describe('with its own redis-server, stopped and restarted', () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await RedisServer.start();
    });
    afterAll(async () => {
      await server.dispose();
    });

    it('rejects an add with QueueUnavailableError while Redis is down, and takes the next one once it is back', async () => {
      const d = driver({ connection: server.url, unavailableAfterMs: 1500 });
      const q = await queueOn(d);
      const before = await q.enqueue('x', null, { n: 1 });
      await server.stop();
      const err: unknown = await q.enqueue('x', readerOf([['a', Buffer.alloc(50_000, 1)]]), { n: 2 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(QueueUnavailableError);
      expect((err as SvcError).code).toBe('SVC_ERR_QUEUE_UNAVAILABLE');
      // the attachment stored for the refused job is gone again
      expect(await fsp.readdir(path.join(dir, 'blobs'))).toEqual([]);
      await server.restart();
      // the data went with the old server (no persistence); the driver's connection is the point
      const after = await q.enqueue('x', null, { n: 3 });
      expect(after.id).not.toBe(before.id);
      expect((await q.get(after.id)).state).toBe('WAITING');
    });

    it('rejects at once after the bound, not later, when Redis never comes back', async () => {
      const d = driver({ connection: server.url, unavailableAfterMs: 300 });
      const q = await queueOn(d);
      await q.enqueue('x', null);
      await server.stop();
      try {
        await expect(q.enqueue('x', null)).rejects.toBeInstanceOf(QueueUnavailableError);
        await expect(q.get('nope-1')).rejects.toBeInstanceOf(QueueUnavailableError);
      } finally {
        await server.restart();
      }
    });
  });
});

describe('BullMQ driver: closing', () => {
  /** Sockets and timers this process holds (what would keep jest from exiting). */
  const handles = (): string[] =>
    process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'Timeout');

  it('leaves no open sockets or timers once closed, with a worker that ran jobs', async () => {
    const before = handles().length;
    const d = driver();
    const w = d.work(() => Promise.resolve({ ok: true }), { concurrency: 2 });
    const { job } = await d.add('x', { payload: {}, blobs: [] }, {});
    const until = Date.now() + 10_000;
    while ((await d.get(job.id))?.state !== 'COMPLETED' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect((await d.get(job.id))?.state).toBe('COMPLETED');
    await w.close();
    await d.close();
    // sockets end asynchronously after QUIT: wait (bounded) for them to be gone
    const end = Date.now() + 5000;
    while (handles().length > before && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(handles().slice(before)).toEqual([]);
  });

  it('waits for a running job on close, then refuses new work', async () => {
    const d = driver();
    let finish!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let finished = false;
    d.work(
      () =>
        new Promise((resolve) => {
          started();
          finish = () => {
            finished = true;
            resolve({});
          };
        }),
      { concurrency: 1 },
    );
    const { job } = await d.add('x', { payload: {}, blobs: [] }, {});
    await running;
    const closing = d.close();
    finish();
    await closing;
    expect(finished).toBe(true);
    await expect(d.get(job.id)).rejects.toThrow(/closed/);
  });

  it('releases a job still running at the close timeout back to wait, without counting the attempt', async () => {
    const d = driver();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const w = d.work(
      (job) =>
        new Promise((_, reject) => {
          started();
          job.signal.addEventListener('abort', () => reject(job.signal.reason as Error));
        }),
      { concurrency: 1 },
    );
    const { job } = await d.add('x', { payload: {}, blobs: [] }, { attempts: 2 });
    await running;
    await w.close({ timeoutMs: 50 });
    expect(await d.get(job.id)).toMatchObject({ state: 'WAITING', attempts: 0 });
    await d.close();
  });
});
