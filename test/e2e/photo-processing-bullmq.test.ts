/**
 * The example's distributed setup, for real: the service on the BullMQ driver (the suite's redis-server)
 * runs no jobs itself; a separate `svc worker` process with the example's processors (`examples/worker.ts`)
 * processes the upload from the shared data directory and tells the service over HTTP; the photo becomes
 * READY. SIGTERM stops the worker cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { encodeRelated, writerFromBytes } from '../../src';
import { AttachmentQueue, BullMqDriver, FileBlobStore } from '../../src/queue';
import { createExampleApp } from '../../examples/app';
import { RedisServer } from '../support/redis-server';

const ROOT = path.join(__dirname, '../..');
// a worker process starts (TypeScript loader included) and processes in seconds, but under a loaded
// 2-core machine running the whole suite that can take far longer than jest's default
jest.setTimeout(120_000);
let own: RedisServer | undefined;
let redisUrl: string;
let dataDir: string;
let queueName: string;
let app: FastifyInstance;
let port: number;
let worker: ChildProcess;
let workerErr = '';

beforeAll(async () => {
  const shared = process.env.SVC_TEST_REDIS_URL;
  if (shared !== undefined && shared !== '') redisUrl = shared;
  else {
    own = await RedisServer.start();
    redisUrl = own.url;
  }
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-example-bullmq-'));
  queueName = `example-${process.pid}`;
  const queue = new AttachmentQueue({
    blobs: await FileBlobStore.open({ dir: path.join(dataDir, 'blobs') }),
    driver: new BullMqDriver({ connection: redisUrl, queueName }),
  });
  app = await createExampleApp({ queue, dataDir, runWorkers: false });
  app.addHook('onClose', () => queue.close({ timeoutMs: 1000 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  worker = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      path.join(ROOT, 'src/cli/run.ts'),
      'worker',
      '--processors',
      path.join(ROOT, 'examples/worker.ts'),
      '--blob-dir',
      path.join(dataDir, 'blobs'),
      '--queue',
      queueName,
      '--redis',
      redisUrl,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, SERVICE_URL: `http://127.0.0.1:${port}`, SVC_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  worker.stderr!.on('data', (d: Buffer) => (workerErr += d.toString()));
});

afterAll(async () => {
  if (worker.exitCode === null) worker.kill('SIGKILL');
  await app.close();
  await own?.dispose();
  await fsp.rm(dataDir, { recursive: true, force: true });
});

function call(method: string, p: string, body?: { type: string; stream: NodeJS.ReadableStream }) {
  return new Promise<{ status: number; json: { [k: string]: unknown } }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: p,
        headers: { 'x-svc-protocol-version': '2.0.0', ...(body ? { 'content-type': body.type } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode!,
            json: text === '' ? {} : (JSON.parse(text) as { [k: string]: unknown }),
          });
        });
      },
    );
    req.on('error', reject);
    if (body === undefined) req.end();
    else body.stream.pipe(req);
  });
}

describe('the example on BullMQ with a worker process', () => {
  it('processes an upload in the worker and the photo becomes READY', async () => {
    const image = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2_000_000, 1)]);
    const msg = encodeRelated(
      {
        contentType: 'application/json',
        bytes: Buffer.from(JSON.stringify({ title: 'Far away', format: 'JPEG', image: 'cid:jpg' })),
      },
      [writerFromBytes('jpg', image)],
    );
    const created = await call('POST', '/photos', { type: msg.contentType, stream: msg.body });
    expect(created.status).toBe(201);
    expect(created.json.status).toBe('PENDING');
    const id = String(created.json.id);
    const until = Date.now() + 60_000;
    let photo = created.json;
    while (photo.status === 'PENDING' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      photo = (await call('GET', `/photos/${id}`)).json;
    }
    expect({ photo, workerErr }).toMatchObject({
      photo: {
        status: 'READY',
        imageInfo: {
          sha256: createHash('sha256').update(image).digest('hex'),
          bytes: image.length,
          mediaType: 'image/jpeg',
        },
      },
    });
    // the photo is updated by the processor, which then returns: BullMQ marks the job completed a moment later
    let job = await call('GET', `/jobs/${String(created.json.processingJob)}`);
    while (job.json.state === 'ACTIVE' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      job = await call('GET', `/jobs/${String(created.json.processingJob)}`);
    }
    expect(job.json).toMatchObject({ state: 'COMPLETED', name: 'photo.process' });
    // the worker kept the image where the service serves downloads from
    expect((await fsp.stat(path.join(dataDir, 'images', `${id}.img`))).size).toBe(image.length);
  });

  it('stops the worker cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
