/**
 * The queue's observer seam (observer.ts), with both drivers (BullMQ on the suite's real redis-server):
 * the headers an observer gives when a job is added reach the worker's attempt (through Redis too), the
 * processor runs inside the probe's `run`, and `finished` tells each attempt's outcome and whether it was
 * the last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AttachmentQueue,
  BullMqDriver,
  FileBlobStore,
  InProcessDriver,
  type JobObserver,
  type QueueDriver,
  UnrecoverableJobError,
} from '../../src/queue';
import { RedisServer } from '../support/redis-server';

let own: RedisServer | undefined;
let url: string;
let n = 0;
const dirs: string[] = [];
beforeAll(async () => {
  const shared = process.env.SVC_TEST_REDIS_URL;
  if (shared !== undefined && shared !== '') url = shared;
  else {
    own = await RedisServer.start();
    url = own.url;
  }
});
afterAll(async () => {
  await own?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const drivers: Array<[string, () => QueueDriver]> = [
  ['in-process', () => new InProcessDriver()],
  ['BullMQ', () => new BullMqDriver({ connection: url, queueName: `observer-${process.pid}-${++n}` })],
];

describe.each(drivers)('job observers with the %s driver', (_name, makeDriver) => {
  it('carries the enqueuer headers to each attempt and reports every outcome', async () => {
    const events: string[] = [];
    let inRun = false;
    const observer: JobObserver = {
      enqueuing: (name) => ({ traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`, job: name }),
      attempt(job) {
        events.push(
          `attempt ${job.attempt} ${job.data.headers?.job} ${job.data.headers?.traceparent?.slice(0, 5)}`,
        );
        return {
          run(fn) {
            inRun = true;
            try {
              return fn();
            } finally {
              inRun = false;
            }
          },
          finished(error, final) {
            events.push(`finished ${error === undefined ? 'ok' : (error as Error).message} final=${final}`);
          },
        };
      },
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-queue-observer-'));
    dirs.push(dir);
    const queue = new AttachmentQueue({
      blobs: await FileBlobStore.open({ dir }),
      driver: makeDriver(),
      observers: [observer],
    });
    let runs = 0;
    const sawRun: boolean[] = [];
    queue.process('observed', () => {
      sawRun.push(inRun);
      if (++runs === 1) throw new Error('once');
      return { ok: true };
    });
    queue.process('doomed', () => {
      throw new UnrecoverableJobError('never');
    });
    queue.start();
    try {
      const backoff = { type: 'fixed', delayMs: 0 } as const;
      const a = await queue.enqueue('observed', null, {}, { attempts: 3, backoff });
      expect(a.data.headers?.job).toBe('observed');
      const b = await queue.enqueue('doomed', null, {}, { attempts: 3, backoff });
      const until = Date.now() + 20_000;
      for (;;) {
        const [ja, jb] = [await queue.get(a.id), await queue.get(b.id)];
        if ((ja.state === 'COMPLETED' && jb.state === 'FAILED') || Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(sawRun).toEqual([true, true]);
      expect(events).toEqual(
        expect.arrayContaining([
          'attempt 1 observed 00-aa',
          'finished once final=false',
          'attempt 2 observed 00-aa',
          'finished ok final=true',
          'attempt 1 doomed 00-aa',
          'finished never final=true',
        ]),
      );
      expect(events).toHaveLength(6);
    } finally {
      await queue.close();
    }
  });
});
