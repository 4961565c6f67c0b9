/**
 * The ready-made `jobs` resource over real HTTP: a job's state, progress, attempts, result or error; the
 * finder by state with paging totals; the cancel action; 404 for an unknown job.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AttachmentQueue,
  FileBlobStore,
  InProcessDriver,
  UnrecoverableJobError,
  jobsResource,
} from '../../src/queue';
import { type TestServer, startServer } from '../resources/support/http';
import { readerOf, waitForState } from './support/driver-behaviour';

let dir: string;
let queue: AttachmentQueue;
let server: TestServer;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-jobs-'));
  queue = new AttachmentQueue({ blobs: await FileBlobStore.open({ dir }), driver: new InProcessDriver() });
  server = await startServer({ resources: [jobsResource(queue)] });
});
afterEach(async () => {
  await server.close();
  await queue.close({ timeoutMs: 1000 });
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('the jobs resource', () => {
  it('answers a completed job with its result, attempts and attachments', async () => {
    queue.process('sum', (job) => ({ total: (job.payload.n as number) * 2 }));
    queue.start();
    const job = await queue.enqueue('sum', readerOf([['a', Buffer.from('abcd')]]), { n: 21 });
    await waitForState(queue, job.id, ['COMPLETED']);
    const r = await server.request('GET', `/jobs/${job.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: job.id,
      name: 'sum',
      state: 'COMPLETED',
      progress: 100,
      attempts: 1,
      maxAttempts: 3,
      payload: { n: 21 },
      attachments: [{ attachmentId: 'a', size: 4 }],
      result: { total: 42 },
    });
    expect(typeof r.json.createdAt).toBe('number');
    expect(typeof r.json.finishedAt).toBe('number');
  });

  it('answers a dead-lettered job with its error', async () => {
    queue.process('bad', () => {
      throw new UnrecoverableJobError('not an image');
    });
    queue.start();
    const job = await queue.enqueue('bad', null);
    await waitForState(queue, job.id, ['FAILED']);
    const r = await server.request('GET', `/jobs/${job.id}`);
    expect(r.json).toMatchObject({
      state: 'FAILED',
      error: { name: 'UnrecoverableJobError', message: 'not an image', code: 'SVC_ERR_QUEUE_UNRECOVERABLE' },
    });
  });

  it('answers 404 with an ErrorResponse for an unknown job', async () => {
    const r = await server.request('GET', '/jobs/no-such-job');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ status: 404, message: "No job 'no-such-job'" });
  });

  it('finds jobs by state, newest first, with the total', async () => {
    for (let i = 0; i < 3; i++) await queue.enqueue('later', null, { i });
    const r = await server.request('GET', '/jobs?q=byState&state=WAITING&start=0&count=2');
    expect(r.status).toBe(200);
    expect(r.json.elements.map((e: { payload: { i: number } }) => e.payload.i)).toEqual([2, 1]);
    expect(r.json.paging).toMatchObject({ start: 0, count: 2, total: 3 });
  });

  it('refuses a state that is not one', async () => {
    const r = await server.request('GET', '/jobs?q=byState&state=SLEEPING');
    expect(r.status).toBe(400);
  });

  it('cancels a waiting job with the cancel action', async () => {
    const job = await queue.enqueue('later', readerOf([['a', Buffer.from('x')]]));
    const r = await server.request('POST', `/jobs/${job.id}?action=cancel`, { json: {} });
    expect(r.status).toBe(200);
    expect(r.json.value).toMatchObject({ id: job.id, state: 'CANCELLED' });
    expect((await server.request('GET', `/jobs/${job.id}`)).json.state).toBe('CANCELLED');
  });
});
