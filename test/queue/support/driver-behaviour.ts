/**
 * The behaviour every queue driver shares, as one table of tests: `describeDriverBehaviour(name, make)` runs
 * it against a driver (`test/queue/in-process.test.ts` for the embedded one, the BullMQ tests against a
 * real redis-server). Each test gets a fresh driver, blob directory and queue.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AttachmentQueue,
  FileBlobStore,
  JobInputError,
  type JobSnapshot,
  type JobState,
  type QueueDriver,
  type QueuedJob,
  UnrecoverableJobError,
} from '../../../src/queue';
import {
  AttachmentReader,
  type SingleAttachmentReader,
  attachmentChunks$,
  dataSourceIterator,
  partsFromIterator,
  toAsyncIterable,
  writerFromAsyncIterable,
  writerFromBytes,
} from '../../../src/streams';

export interface DriverFactory {
  /** A fresh driver on its own queue. */
  make(): Promise<QueueDriver>;
}

/** Bytes of an attachment read to its end. */
export async function readAttachment(a: SingleAttachmentReader): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of toAsyncIterable((d$) => attachmentChunks$(a, d$))) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** An incoming message's attachments, as a request would give them. */
export function readerOf(
  attachments: ReadonlyArray<readonly [id: string, bytes: Uint8Array]>,
): AttachmentReader {
  return new AttachmentReader(
    partsFromIterator(dataSourceIterator(attachments.map(([id, b]) => writerFromBytes(id, b, 16 * 1024)))),
  );
}

export function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Waits (bounded) until the job reaches one of `states`. */
export async function waitForState(
  queue: AttachmentQueue,
  id: string,
  states: readonly JobState[],
  limitMs = 20_000,
): Promise<JobSnapshot> {
  const until = Date.now() + limitMs;
  for (;;) {
    const job = await queue.get(id);
    if (states.includes(job.state)) return job;
    if (Date.now() > until)
      throw new Error(`job ${id} is ${job.state} after ${limitMs} ms, expected ${states.join(' or ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function blobFiles(dir: string): Promise<string[]> {
  return (await fsp.readdir(path.join(dir, 'blobs'))).sort();
}

/** Waits (bounded) until the blob directory holds `n` blobs (removal after a job ends is asynchronous). */
async function waitForBlobCount(dir: string, n: number): Promise<void> {
  const until = Date.now() + 10_000;
  while ((await blobFiles(dir)).length !== n) {
    if (Date.now() > until) throw new Error(`expected ${n} blobs, found ${(await blobFiles(dir)).length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function describeDriverBehaviour(name: string, factory: DriverFactory): void {
  describe(`${name}: the attachment job queue`, () => {
    let dir: string;
    let queue: AttachmentQueue;

    beforeEach(async () => {
      dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-queue-'));
      queue = new AttachmentQueue({ blobs: await FileBlobStore.open({ dir }), driver: await factory.make() });
    });
    afterEach(async () => {
      await queue.close({ timeoutMs: 2000 });
      await fsp.rm(dir, { recursive: true, force: true });
    });

    it('streams attachments into blobs, runs the processor over them, and removes them after success', async () => {
      const a = Buffer.alloc(300_000, 7);
      const b = Buffer.from('second attachment');
      const seen: { ids: string[]; sums: string[]; payload?: unknown; attempt?: number } = {
        ids: [],
        sums: [],
      };
      queue.process('photo.process', async (job: QueuedJob, attachments) => {
        seen.payload = job.payload;
        seen.attempt = job.attempt;
        for (const att of attachments) {
          seen.ids.push(att.getAttachmentID());
          seen.sums.push(sha256(await readAttachment(att)));
        }
        await job.progress(50);
        return { bytes: job.blobs.reduce((n, x) => n + x.size, 0) };
      });
      const enqueued = await queue.enqueue(
        'photo.process',
        readerOf([
          ['img', a],
          ['txt', b],
        ]),
        { photoId: 7 },
      );
      expect(enqueued.data.blobs.map((x) => [x.attachmentId, x.size])).toEqual([
        ['img', a.length],
        ['txt', b.length],
      ]);
      expect(await blobFiles(dir)).toHaveLength(2);
      queue.start({ concurrency: 2 });
      const done = await waitForState(queue, enqueued.id, ['COMPLETED', 'FAILED']);
      expect(done).toMatchObject({
        state: 'COMPLETED',
        progress: 100,
        attempts: 1,
        result: { bytes: a.length + b.length },
      });
      expect(seen).toEqual({
        ids: ['img', 'txt'],
        sums: [sha256(a), sha256(b)],
        payload: { photoId: 7 },
        attempt: 1,
      });
      await waitForBlobCount(dir, 0);
    });

    it('retries a failing processor with backoff, then fails it for good with its error visible', async () => {
      const attempts: number[] = [];
      queue.process('flaky', (job) => {
        attempts.push(job.attempt);
        throw new Error(`attempt ${job.attempt} broke`);
      });
      queue.start();
      const job = await queue.enqueue(
        'flaky',
        readerOf([['x', Buffer.from('abc')]]),
        {},
        {
          attempts: 3,
          backoff: { type: 'fixed', delayMs: 30 },
        },
      );
      const failed = await waitForState(queue, job.id, ['FAILED']);
      expect(attempts).toEqual([1, 2, 3]);
      expect(failed).toMatchObject({ state: 'FAILED', attempts: 3, maxAttempts: 3 });
      expect(failed.error).toMatchObject({ message: 'attempt 3 broke' });
      await waitForBlobCount(dir, 0);
    });

    it('succeeds on a retry after failed attempts', async () => {
      queue.process('second-time', (job) => {
        if (job.attempt < 2) throw new Error('not yet');
        return { attempt: job.attempt };
      });
      queue.start();
      const job = await queue.enqueue(
        'second-time',
        null,
        {},
        { backoff: { type: 'exponential', delayMs: 10 } },
      );
      expect(await waitForState(queue, job.id, ['COMPLETED'])).toMatchObject({
        attempts: 2,
        result: { attempt: 2 },
      });
    });

    it('fails an unrecoverable error at once, without retries', async () => {
      let runs = 0;
      queue.process('doomed', () => {
        runs++;
        throw new UnrecoverableJobError('the image is not an image');
      });
      queue.start();
      const job = await queue.enqueue(
        'doomed',
        null,
        {},
        { attempts: 5, backoff: { type: 'fixed', delayMs: 10 } },
      );
      const failed = await waitForState(queue, job.id, ['FAILED']);
      expect(runs).toBe(1);
      expect(failed.error).toMatchObject({
        name: 'UnrecoverableJobError',
        message: 'the image is not an image',
      });
    });

    it('records a processor failing on a full disk as the typed write error, naming the fault and no file', async () => {
      // /dev/full answers every write with a real ENOSPC
      queue.process('disk-full', () => fsp.writeFile('/dev/full', 'the image, processed').then(() => ({})));
      queue.start();
      const job = await queue.enqueue('disk-full', null, {}, { attempts: 1 });
      const failed = await waitForState(queue, job.id, ['FAILED']);
      expect(failed.error).toEqual({
        name: 'BlobWriteError',
        code: 'SVC_ERR_QUEUE_BLOB_WRITE',
        message: 'The job could not write its output: the disk is full (ENOSPC)',
      });
    });

    it('fails a job whose name has no processor in the worker', async () => {
      queue.process('known', () => ({}));
      queue.start();
      const job = await queue.enqueue('unknown.name', null, {}, { attempts: 3 });
      const failed = await waitForState(queue, job.id, ['FAILED']);
      expect(failed.attempts).toBe(1);
      expect(failed.error?.message).toMatch(/no processor for job name 'unknown.name'/);
    });

    it('returns the existing job for a repeated job id, without storing its attachments again', async () => {
      const first = await queue.enqueue(
        'once',
        readerOf([['a', Buffer.from('1')]]),
        { n: 1 },
        { jobId: 'upload-42' },
      );
      const again = await queue.enqueue(
        'once',
        readerOf([['a', Buffer.from('1')]]),
        { n: 2 },
        { jobId: 'upload-42' },
      );
      expect(again.id).toBe(first.id);
      expect(again.data.payload).toEqual({ n: 1 });
      expect(await blobFiles(dir)).toHaveLength(1);
    });

    it('cancels a waiting job: it never runs and its blobs are removed', async () => {
      const job = await queue.enqueue('never', readerOf([['a', Buffer.from('abc')]]));
      const cancelled = await queue.cancel(job.id);
      expect(cancelled.state).toBe('CANCELLED');
      // a job enqueued after it: one worker takes jobs in order, so once this one has run, the worker has
      // passed the cancelled job's place
      const after = await queue.enqueue('never', null, { after: true });
      const ran: unknown[] = [];
      queue.process('never', (j) => {
        ran.push(j.payload);
        return {};
      });
      queue.start({ concurrency: 1 });
      await waitForState(queue, after.id, ['COMPLETED']);
      expect(ran).toEqual([{ after: true }]);
      expect((await queue.get(job.id)).state).toBe('CANCELLED');
      await waitForBlobCount(dir, 0);
    });

    it('cancels a running job through its signal, and does not retry it', async () => {
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      let runs = 0;
      queue.process('long', (job) => {
        runs++;
        started();
        return new Promise((_, reject) => {
          job.signal.addEventListener('abort', () => reject(job.signal.reason as Error));
        });
      });
      queue.start();
      const job = await queue.enqueue('long', readerOf([['a', Buffer.from('abc')]]), {}, { attempts: 3 });
      await running;
      await waitForState(queue, job.id, ['ACTIVE']);
      await queue.cancel(job.id);
      const ended = await waitForState(queue, job.id, ['CANCELLED', 'FAILED']);
      expect(ended.state).toBe('CANCELLED');
      expect(runs).toBe(1);
      await waitForBlobCount(dir, 0);
    });

    it('shows progress while a job runs', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      queue.process('slow', async (job) => {
        await job.progress(40);
        await gate;
        return {};
      });
      queue.start();
      const job = await queue.enqueue('slow', null);
      const until = Date.now() + 10_000;
      let seen: JobSnapshot;
      do {
        seen = await queue.get(job.id);
        await new Promise((r) => setTimeout(r, 10));
      } while (seen.progress !== 40 && Date.now() < until);
      expect(seen).toMatchObject({ state: 'ACTIVE', progress: 40 });
      release();
      await waitForState(queue, job.id, ['COMPLETED']);
    });

    it('lists jobs by state, newest first, with the total', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await queue.enqueue('later', null, { i })).id);
      const page = await queue.list('WAITING', 1, 2);
      expect(page.total).toBe(5);
      expect(page.jobs.map((j) => j.data.payload.i)).toEqual([3, 2]);
      expect((await queue.list('COMPLETED', 0, 10)).total).toBe(0);
    });

    it('leaves nothing behind when an attachment breaks off while it is stored', async () => {
      async function* broken(): AsyncGenerator<Uint8Array> {
        yield Buffer.alloc(100_000, 1);
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('the client went away');
      }
      await expect(
        queue.enqueue('x', [
          writerFromBytes('ok', Buffer.from('fine')),
          writerFromAsyncIterable('bad', broken()),
        ]),
      ).rejects.toThrow(/the client went away/);
      expect(await blobFiles(dir)).toEqual([]);
      expect((await queue.list('WAITING', 0, 10)).total).toBe(0);
    });

    it.each([
      ['a bad job name', () => queue.enqueue('1 bad name', null), /job name/],
      [
        'a payload that is not JSON',
        () => queue.enqueue('x', null, { f: Infinity }),
        /payload\.f: Infinity has no JSON form/,
      ],
      [
        'a payload holding a Date',
        () => queue.enqueue('x', null, { d: new Date() as never }),
        /payload\.d: a Date is not JSON/,
      ],
      ['zero attempts', () => queue.enqueue('x', null, {}, { attempts: 0 }), /options\.attempts/],
      ['a job id of digits only', () => queue.enqueue('x', null, {}, { jobId: '123' }), /options\.jobId/],
      ['a blob id that names no blob', () => queue.enqueue('x', { blobIds: ['nope'] }), /blobIds\[0\]/],
    ])('refuses %s with a JobInputError', async (_what, call, message) => {
      const err: unknown = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(JobInputError);
      expect((err as Error).message).toMatch(message);
      expect(await blobFiles(dir)).toEqual([]);
    });
  });
}
