/** The embedded driver against the shared queue behaviour, and what only it is tested for here. */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttachmentQueue, FileBlobStore, InProcessDriver } from '../../src/queue';
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
