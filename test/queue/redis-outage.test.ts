/**
 * Redis going away under a service on the BullMQ driver, over real HTTP with a real redis-server of this
 * test's own: an upload while Redis is down is answered 503 with an ErrorResponse and leaves no blob behind;
 * once Redis is back, uploads succeed again without restarting the service.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttachmentQueue, BullMqDriver, FileBlobStore } from '../../src/queue';
import { RedisServer } from '../support/redis-server';
import { type UploadService, sendUpload, startUploadService } from './support/upload-service';

let redis: RedisServer;
let dir: string;
let queue: AttachmentQueue;
let service: UploadService;

beforeAll(async () => {
  redis = await RedisServer.start();
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-outage-'));
  queue = new AttachmentQueue({
    blobs: await FileBlobStore.open({ dir }),
    driver: new BullMqDriver({
      connection: redis.url,
      queueName: `outage-${process.pid}`,
      unavailableAfterMs: 1000,
    }),
  });
  service = await startUploadService(queue);
});
afterAll(async () => {
  await service.close();
  await queue.close({ timeoutMs: 1000 });
  await redis.dispose();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function blobs(): Promise<string[]> {
  return fsp.readdir(path.join(dir, 'blobs'));
}

describe('an upload while Redis is down', () => {
  it('is queued while Redis is up', async () => {
    const r = await sendUpload(service.port, 100_000);
    expect(r.status).toBe(200);
    expect(await blobs()).toHaveLength(1);
  });

  it('is answered 503 with an ErrorResponse, and its blobs are removed', async () => {
    await redis.stop();
    const r = await sendUpload(service.port, 300_000);
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ status: 503, code: 'SVC_ERR_QUEUE_UNAVAILABLE' });
    expect(typeof r.json.message).toBe('string');
    // the blob of the earlier upload stays (its job is in Redis); this upload's is gone
    expect(await blobs()).toHaveLength(1);
    for (const sub of await fsp.readdir(path.join(dir, 'partial')))
      expect(await fsp.readdir(path.join(dir, 'partial', sub))).toEqual([]);
  });

  it('succeeds again once Redis is back, without restarting the service', async () => {
    await redis.restart();
    const until = Date.now() + 15_000;
    let r = await sendUpload(service.port, 50_000);
    // the connection comes back on its own schedule; the first attempts may still find it down
    while (r.status === 503 && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 100));
      r = await sendUpload(service.port, 50_000);
    }
    expect(r.status).toBe(200);
    const job = await queue.get(String(r.json.value));
    expect(job.state).toBe('WAITING');
    expect(await blobs()).toHaveLength(2);
  });
});
