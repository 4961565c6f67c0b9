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

/**
 * Every file below `<dir>/partial` (writes in progress or left behind). A directory the store's sweep
 * removes between the two reads is gone, not an error: an open store sweeps while a test looks.
 */
async function partialFiles(d: string): Promise<string[]> {
  const root = path.join(d, 'partial');
  const out: string[] = [];
  for (const sub of await fsp.readdir(root)) {
    const files = await fsp.readdir(path.join(root, sub)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    out.push(...files.map((f) => `${sub}/${f}`));
  }
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

  /** A partial write left in `partial/<name>`, its directory last touched `ageMs` ago. */
  async function leftover(name: string, ageMs: number): Promise<void> {
    const d = path.join(dir, 'partial', name);
    await fsp.mkdir(d, { recursive: true });
    await fsp.writeFile(path.join(d, 'leftover'), 'half a blob');
    const then = new Date(Date.now() - ageMs);
    await fsp.utimes(path.join(d, 'leftover'), then, then);
    await fsp.utimes(d, then, then);
  }

  /** A pid no process has: one past the highest the kernel hands out, else a large one. */
  async function deadPid(): Promise<number> {
    const max = Number(
      (await fsp.readFile('/proc/sys/kernel/pid_max', 'utf8').catch(() => '4194304')).trim(),
    );
    return max + 1;
  }

  const host = os
    .hostname()
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .slice(0, 64);

  it.each<[string, () => Promise<string>, number]>([
    [
      'a gone process of this host, a second ago',
      async () => `${host}~${await deadPid()}~0badc0ffee00`,
      1000,
    ],
    [
      "this pid's earlier life (a restarted container), a second ago",
      () => Promise.resolve(`${host}~${process.pid}~0badc0ffee01`),
      1000,
    ],
    [
      'another host whose heartbeat stopped a minute ago',
      () => Promise.resolve('elsewhere~42~0badc0ffee02'),
      61_000,
    ],
    ['an older layout, an hour ago', () => Promise.resolve('1234-deadbeef'), 3_600_000],
  ])('sweeps, when opened, the partial writes of %s', async (_what, name, ageMs) => {
    const n = await name();
    await leftover(n, ageMs);
    const store = await FileBlobStore.open({ dir });
    expect(await fsp.readdir(path.join(dir, 'partial'))).not.toContain(n);
    expect(await partialFiles(dir)).toEqual([]);
    await store.close();
  });

  it.each<[string, string]>([
    ['another host whose heartbeat is fresh', 'elsewhere~42~0badc0ffee03'],
    ['a live process of this host with a fresh heartbeat', `${host}~${process.ppid}~0badc0ffee04`],
  ])('keeps the partial writes of %s', async (_what, name) => {
    await leftover(name, 1000);
    const store = await FileBlobStore.open({ dir });
    expect(await partialFiles(dir)).toEqual([`${name}/leftover`]);
    await store.close();
  });

  it('sweeps another host’s partial writes once their heartbeat goes stale, while open', async () => {
    // stale after 3 s, not less: on a loaded machine the first look below may come later than that
    const store = await FileBlobStore.open({ dir, staleAfterMs: 3000, heartbeatMs: 20 });
    await leftover('elsewhere~42~0badc0ffee05', 0);
    expect(await partialFiles(dir)).toEqual(['elsewhere~42~0badc0ffee05/leftover']);
    // nothing touches it any more: a later sweep finds its heartbeat stale
    while ((await partialFiles(dir)).length > 0) await new Promise((r) => setTimeout(r, 20));
    await store.close();
  });

  it('removes its own partial directory when closed, and refuses writes after', async () => {
    const store = await FileBlobStore.open({ dir });
    expect(await fsp.readdir(path.join(dir, 'partial'))).toHaveLength(1);
    await store.close();
    expect(await fsp.readdir(path.join(dir, 'partial'))).toEqual([]);
    await expect(store.put(chunks(1, 10))).rejects.toThrow(/closed/);
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
