/**
 * Blobs as PostgreSQL large objects (src/postgres/large-object-blob-store.ts) on a real server: the file
 * store's behaviour table (atomic visibility, nothing left by a failed source, streamed reads that hold
 * their connection only while read, removal once the job's outcome is final), through the BlobStore
 * interface and under the attachment queue.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  AttachmentQueue,
  BlobNotFoundError,
  BlobWriteError,
  InProcessDriver,
  type JobState,
} from '../../src/queue';
import { attachmentChunks$, toAsyncIterable } from '../../src/streams';
import { LargeObjectBlobStore, largeObjectBlobsMigration, migrate } from '../../src/postgres';
import { postgresForTests } from '../support/postgres-server';
import { readerOf, waitForState } from '../queue/support/driver-behaviour';

const postgres = postgresForTests();
let pool: pg.Pool;
let store: LargeObjectBlobStore;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: await postgres().createDatabase('blobs'), max: 3 });
  pool.on('error', () => undefined);
  await migrate(pool, [largeObjectBlobsMigration(1)]);
  store = new LargeObjectBlobStore(pool, { chunkBytes: 64 * 1024 });
});
afterAll(() => pool?.end());

async function* chunks(count: number, size: number, fail?: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    await Promise.resolve();
    if (i === fail) throw new Error('the upload broke off');
    // every byte value, 0x80 and above included (a text decode anywhere would show)
    yield Buffer.alloc(size, (i * 37 + 128) % 256);
  }
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** Large objects and blob rows in the database. */
async function counts(): Promise<{ objects: number; rows: number }> {
  const r = await pool.query<{ objects: number; rows: number }>(
    'SELECT (SELECT count(*) FROM pg_largeobject_metadata)::int AS objects, (SELECT count(*) FROM svc_blobs)::int AS rows',
  );
  return r.rows[0]!;
}

const poolIdle = (): boolean => pool.waitingCount === 0 && pool.idleCount === pool.totalCount;
async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((r) => setTimeout(r, 10));
}

describe('large-object blob store', () => {
  it('stores a streamed blob and reads it back', async () => {
    const expected = createHash('sha256');
    for await (const c of chunks(40, 50_000)) expected.update(c);
    const stat = await store.put(chunks(40, 50_000));
    expect(stat.size).toBe(40 * 50_000);
    expect(stat.id).toMatch(/^[0-9a-f-]{36}$/);
    const back = await readAll(await store.get(stat.id));
    expect(createHash('sha256').update(back).digest('hex')).toBe(expected.digest('hex'));
    expect(await store.stat(stat.id)).toMatchObject({ id: stat.id, size: stat.size });
    await until(poolIdle);
  });

  it('stores an empty blob, and one of exactly one chunk', async () => {
    for (const [n, size] of [
      [0, 1],
      [1, 64 * 1024],
    ] as const) {
      const stat = await store.put(chunks(n, size));
      expect(stat.size).toBe(n * size);
      expect((await readAll(await store.get(stat.id))).length).toBe(n * size);
    }
  });

  it('leaves nothing behind when the source fails (the large object goes with the transaction)', async () => {
    const before = await counts();
    await expect(store.put(chunks(10, 100_000, 5))).rejects.toThrow(BlobWriteError);
    await expect(store.put(chunks(10, 100_000, 5))).rejects.toThrow(/the upload broke off/);
    expect(await counts()).toEqual(before);
    await until(poolIdle);
  });

  it('makes a blob visible to others only once it is complete', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const firstWritten = new Promise<void>((r) => (written = r));
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(200_000, 1);
      // asked for the next chunk: the first is on the server (lowrite), inside the writer's transaction
      written();
      await held;
      yield Buffer.alloc(10, 2);
    }
    const before = await counts();
    const writing = store.put(slow());
    await firstWritten;
    expect(await counts()).toEqual(before);
    release();
    const stat = await writing;
    expect((await counts()).rows).toBe(before.rows + 1);
    expect((await readAll(await store.get(stat.id))).length).toBe(200_010);
  });

  it('returns the connection of a read abandoned half way', async () => {
    const { id } = await store.put(chunks(20, 64 * 1024));
    const stream = await store.get(id);
    const first = await new Promise<Buffer>((r) => stream.once('data', r));
    expect(first.length).toBe(64 * 1024);
    stream.destroy();
    await until(poolIdle);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('deletes blobs with their large objects, and refuses what is not a blob id', async () => {
    const before = await counts();
    const { id } = await store.put(chunks(1, 10));
    expect(await store.delete(id)).toBe(true);
    expect(await store.delete(id)).toBe(false);
    expect(await store.stat(id)).toBeUndefined();
    await expect(store.get(id)).rejects.toThrow(BlobNotFoundError);
    expect(await counts()).toEqual(before);
    for (const bad of ['../etc/passwd', '', '00000000-0000-0000-0000-00000000000G']) {
      await expect(store.get(bad)).rejects.toThrow(BlobNotFoundError);
      expect(await store.stat(bad)).toBeUndefined();
      expect(await store.delete(bad)).toBe(false);
    }
    await until(poolIdle);
  });

  it('under the queue: a job reads its attachment, and the blob is removed once the job is over', async () => {
    const queue = new AttachmentQueue({ blobs: store, driver: new InProcessDriver() });
    const before = await counts();
    let seen = '';
    queue.process('read', async (_job, attachments) => {
      const parts: Buffer[] = [];
      for await (const c of toAsyncIterable((d$) => attachmentChunks$(attachments[0]!, d$)))
        parts.push(Buffer.from(c));
      seen = Buffer.concat(parts).toString();
      return {};
    });
    queue.start();
    try {
      const job = await queue.enqueue('read', readerOf([['a', Buffer.from('stored in PostgreSQL')]]));
      expect((await counts()).rows).toBe(before.rows + 1);
      await waitForState(queue, job.id, ['COMPLETED'] as JobState[]);
      expect(seen).toBe('stored in PostgreSQL');
      while ((await counts()).rows > before.rows) await new Promise((r) => setTimeout(r, 10));
      expect(await counts()).toEqual(before);
    } finally {
      await queue.close();
    }
  });
});
