/**
 * Several instances, one truth (issue 27): two example instances on one PostgreSQL (the library, and the
 * uploads' blobs as large objects) and one Redis (BullMQ). A photo uploaded through the first is read,
 * found and processed through the second, whose worker reads the blob from the database: no shared volume.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { AttachmentQueue, BullMqDriver, encodeRelated, writerFromBytes } from '../../src';
import { LargeObjectBlobStore } from '../../src/postgres';
import { createExampleApp } from '../../examples/app';
import { postgresForTests } from '../support/postgres-server';
import { tempDirs } from '../support/temp-dirs';

const postgres = postgresForTests();
const tempDir = tempDirs('svc-two-');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e0f2d70000000049454e44ae426082',
  'hex',
);

let pool: pg.Pool;
const apps: FastifyInstance[] = [];
let first: number;
let second: number;

/** One instance: its own queue object on the shared Redis queue and the shared database's blobs. */
async function instance(databaseUrl: string, queueName: string, runWorkers: boolean): Promise<number> {
  const queue = new AttachmentQueue({
    blobs: new LargeObjectBlobStore(pool),
    driver: new BullMqDriver({ connection: process.env.SVC_TEST_REDIS_URL!, queueName }),
  });
  const app = await createExampleApp({
    databaseUrl,
    queue,
    runWorkers,
    dataDir: tempDir(),
    observe: false,
  });
  app.addHook('onClose', () => queue.close({ timeoutMs: 5000 }));
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

beforeAll(async () => {
  const databaseUrl = await postgres().createDatabase('two_instances');
  pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on('error', () => undefined);
  const queueName = `two-instances-${randomUUID()}`;
  // the first migrates and seeds the database; the second finds it ready. Only the second runs workers.
  first = await instance(databaseUrl, queueName, false);
  second = await instance(databaseUrl, queueName, true);
}, 60_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await pool?.end();
});

function upload(
  port: number,
  title: string,
): Promise<{ status: number; id: string; json: Record<string, unknown> }> {
  const image = writerFromBytes(undefined, PNG);
  const msg = encodeRelated(
    {
      contentType: 'application/json',
      bytes: Buffer.from(
        JSON.stringify({ title, format: 'PNG', tags: ['shared'], image: `cid:${image.getAttachmentID()}` }),
      ),
    },
    [image],
  );
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/photos',
        headers: { 'content-type': msg.contentType, 'x-restli-protocol-version': '2.0.0' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            id: String(res.headers['x-restli-id']),
            json: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    msg.body.pipe(req);
  });
}

async function getJson(port: number, target: string): Promise<Record<string, unknown>> {
  const r = await fetch(`http://127.0.0.1:${port}${target}`, {
    headers: { 'x-restli-protocol-version': '2.0.0' },
  });
  return (await r.json()) as Record<string, unknown>;
}

it('reads, finds and processes through one instance a photo uploaded through the other', async () => {
  const created = await upload(first, 'Shared sunrise');
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({ status: 'PENDING' });
  const id = created.id;
  const job = created.json.processingJob as string;

  // read and found through the second instance at once
  expect(await getJson(second, `/photos/${id}`)).toMatchObject({ title: 'Shared sunrise' });
  const found = await getJson(second, '/photos?q=byTag&tag=shared&fields=id');
  expect(found.elements).toEqual([{ id: Number(id) }]);
  const exported = await getJson(second, '/photos?q=export&start=6&count=10&fields=title');
  expect(exported.elements).toEqual([{ title: 'Shared sunrise' }]);

  // processed by the second instance's worker (it read the blob from the database), seen by both
  let photo = await getJson(second, `/photos/${id}`);
  while (photo.status === 'PENDING') {
    await new Promise((r) => setTimeout(r, 50));
    photo = await getJson(second, `/photos/${id}`);
  }
  expect(photo).toMatchObject({
    status: 'READY',
    processingJob: job,
    imageInfo: { mediaType: 'image/png', bytes: PNG.length },
  });
  expect(await getJson(first, `/photos/${id}`)).toMatchObject({ status: 'READY' });
  expect(await getJson(first, `/jobs/${job}`)).toMatchObject({ state: 'COMPLETED' });
  // the blob went once the job was done (large objects and rows alike)
  let left = await pool.query('SELECT id FROM svc_blobs');
  while (left.rowCount !== 0) {
    await new Promise((r) => setTimeout(r, 50));
    left = await pool.query('SELECT id FROM svc_blobs');
  }
  expect((await pool.query('SELECT oid FROM pg_largeobject_metadata')).rowCount).toBe(0);
}, 60_000);
