/**
 * The file blob store: atomic, streamed writes (a blob is visible only once complete and durable; a failed
 * source leaves nothing), reads as streams, and refusals of what is not a blob id.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BlobNotFoundError, FileBlobStore } from '../../src/queue';

let dir: string;
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-blobs-'));
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

async function* chunks(count: number, size: number, fail?: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    await Promise.resolve();
    if (i === fail) throw new Error('the upload broke off');
    yield Buffer.alloc(size, i % 256);
  }
}

/** Every file below `<dir>/partial` (writes in progress or left behind). */
async function partialFiles(d: string): Promise<string[]> {
  const root = path.join(d, 'partial');
  const out: string[] = [];
  for (const sub of await fsp.readdir(root))
    out.push(...(await fsp.readdir(path.join(root, sub))).map((f) => `${sub}/${f}`));
  return out;
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('file blob store', () => {
  it('stores a streamed blob and reads it back', async () => {
    const store = await FileBlobStore.open({ dir });
    const expected = createHash('sha256');
    for await (const c of chunks(64, 65_536)) expected.update(c);
    const stat = await store.put(chunks(64, 65_536));
    expect(stat.size).toBe(64 * 65_536);
    expect(stat.id).toMatch(/^[0-9a-f-]{36}$/);
    const back = await readAll(await store.get(stat.id));
    expect(createHash('sha256').update(back).digest('hex')).toBe(expected.digest('hex'));
    expect(await store.stat(stat.id)).toMatchObject({ id: stat.id, size: stat.size });
  });

  it('stores an empty blob', async () => {
    const store = await FileBlobStore.open({ dir });
    const stat = await store.put(chunks(0, 1));
    expect(stat.size).toBe(0);
    expect((await readAll(await store.get(stat.id))).length).toBe(0);
  });

  it('leaves nothing behind when the source fails', async () => {
    const store = await FileBlobStore.open({ dir });
    await expect(store.put(chunks(10, 1000, 5))).rejects.toThrow(/the upload broke off/);
    expect(await fsp.readdir(path.join(dir, 'blobs'))).toEqual([]);
    expect(await partialFiles(dir)).toEqual([]);
  });

  it('sweeps partial writes a gone process left behind when opened', async () => {
    const old = path.join(dir, 'partial', '1234-deadbeef');
    await fsp.mkdir(old, { recursive: true });
    await fsp.writeFile(path.join(old, 'leftover'), 'half a blob');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await fsp.utimes(path.join(old, 'leftover'), hourAgo, hourAgo);
    await fsp.utimes(old, hourAgo, hourAgo);
    await FileBlobStore.open({ dir });
    expect(await partialFiles(dir)).toEqual([]);
    expect(await fsp.readdir(path.join(dir, 'partial'))).not.toContain('1234-deadbeef');
  });

  it('keeps the writes in progress of another store sharing the directory (a service and its workers)', async () => {
    const first = await FileBlobStore.open({ dir });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(300_000, 1);
      await gate;
      yield Buffer.alloc(300_000, 2);
    }
    const put = first.put(slow());
    while ((await partialFiles(dir)).length === 0) await new Promise((r) => setTimeout(r, 5));
    await FileBlobStore.open({ dir }); // a second process starting up
    release();
    const stat = await put;
    expect(stat.size).toBe(600_000);
    expect(await fsp.readdir(path.join(dir, 'blobs'))).toEqual([stat.id]);
  });

  it('deletes blobs', async () => {
    const store = await FileBlobStore.open({ dir });
    const { id } = await store.put(chunks(1, 10));
    expect(await store.delete(id)).toBe(true);
    expect(await store.delete(id)).toBe(false);
    expect(await store.stat(id)).toBeUndefined();
    await expect(store.get(id)).rejects.toThrow(BlobNotFoundError);
  });

  it.each(['../etc/passwd', 'blobs', '', '00000000-0000-0000-0000-00000000000G'])(
    'refuses %p as a blob id without touching the file system',
    async (id) => {
      const store = await FileBlobStore.open({ dir });
      await expect(store.get(id)).rejects.toThrow(BlobNotFoundError);
      expect(await store.stat(id)).toBeUndefined();
      expect(await store.delete(id)).toBe(false);
    },
  );

  it('refuses a directory it cannot create with a clear error', async () => {
    await expect(FileBlobStore.open({ dir: '/dev/null/blobs' })).rejects.toThrow(
      /The blob directory '\/dev\/null\/blobs' is not usable/,
    );
  });
});
