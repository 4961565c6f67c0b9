/** The embedded driver against the shared queue behaviour, and what only it is tested for here. */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AttachmentQueue,
  FileBlobStore,
  InProcessDriver,
  JobNotFoundError,
  UnrecoverableJobError,
} from '../../src/queue';
import { describeDriverBehaviour, readerOf, waitForState } from './support/driver-behaviour';

describeDriverBehaviour('in-process driver', { make: () => Promise.resolve(new InProcessDriver()) });

describe('blob retention', () => {
  it('keeps a finished job’s blobs for the configured time, then removes them', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-retention-'));
    const queue = new AttachmentQueue({
      blobs: await FileBlobStore.open({ dir }),
      driver: new InProcessDriver(),
      blobRetention: { afterSuccessMs: 300 },
    });
    try {
      queue.process('keep', () => ({}));
      queue.start();
      const job = await queue.enqueue('keep', readerOf([['a', Buffer.from('kept a while')]]));
      await waitForState(queue, job.id, ['COMPLETED']);
      expect(await fsp.readdir(path.join(dir, 'blobs'))).toHaveLength(1);
      const until = Date.now() + 10_000;
      while ((await fsp.readdir(path.join(dir, 'blobs'))).length > 0 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 25));
      expect(await fsp.readdir(path.join(dir, 'blobs'))).toEqual([]);
    } finally {
      await queue.close();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('keepFinished', () => {
  /** The state of each job, or 'forgotten' for one `get` no longer finds. */
  async function states(queue: AttachmentQueue, ids: readonly string[]): Promise<string[]> {
    return Promise.all(
      ids.map((id) =>
        queue.get(id).then(
          (j) => j.state,
          (err: unknown) => {
            if (err instanceof JobNotFoundError) return 'forgotten';
            throw err;
          },
        ),
      ),
    );
  }

  it('forgets the oldest finished jobs beyond keepFinished, whatever they ended as, and never an unfinished one', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-keep-'));
    const queue = new AttachmentQueue({
      blobs: await FileBlobStore.open({ dir }),
      driver: new InProcessDriver({ keepFinished: 2 }),
    });
    try {
      queue.process('ok', () => ({}));
      queue.process('bad', () => {
        throw new UnrecoverableJobError('no');
      });
      queue.process(
        'hold',
        (job) =>
          new Promise((_, reject) =>
            job.signal.addEventListener('abort', () => reject(job.signal.reason as Error)),
          ),
      );
      queue.start({ concurrency: 2 });
      const ok1 = (await queue.enqueue('ok', null)).id;
      await waitForState(queue, ok1, ['COMPLETED']);
      const bad = (await queue.enqueue('bad', null)).id;
      await waitForState(queue, bad, ['FAILED']);
      const held = (await queue.enqueue('hold', null)).id;
      await waitForState(queue, held, ['ACTIVE']);
      expect(await states(queue, [ok1, bad, held])).toEqual(['COMPLETED', 'FAILED', 'ACTIVE']);

      const ok2 = (await queue.enqueue('ok', null)).id;
      await waitForState(queue, ok2, ['COMPLETED']);
      // three finished, two kept: the oldest goes; the running one is not counted
      expect(await states(queue, [ok1, bad, held, ok2])).toEqual([
        'forgotten',
        'FAILED',
        'ACTIVE',
        'COMPLETED',
      ]);

      await queue.cancel(held);
      await waitForState(queue, held, ['CANCELLED']);
      expect(await states(queue, [ok1, bad, held, ok2])).toEqual([
        'forgotten',
        'forgotten',
        'CANCELLED',
        'COMPLETED',
      ]);
      expect((await queue.list('COMPLETED', 0, 10)).jobs.map((j) => j.id)).toEqual([ok2]);
      expect((await queue.list('FAILED', 0, 10)).total).toBe(0);
    } finally {
      await queue.close();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
