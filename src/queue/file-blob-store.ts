import { randomUUID } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobSource, BlobStat, BlobStore } from './blob-store';
import { BlobNotFoundError, BlobWriteError } from './errors';
import { describeFault } from './file-faults';

/** Options of {@link FileBlobStore}. */
export interface FileBlobStoreOptions {
  /** The directory; created when missing. Blobs live in `<dir>/blobs`, writes in progress in `<dir>/partial`. */
  readonly dir: string;
  /** Bytes gathered before each write to disk. Default 256 KiB. */
  readonly writeChunkBytes?: number;
  /**
   * Each store writes in a directory of its own under `partial/`, named for its host and process, and
   * touches it every `heartbeatMs` while open. Partial writes of a process of this host that is gone (or of
   * an earlier process with this one's pid: a restarted container) are removed when a store opens; those
   * of another host (a volume shared between machines), once their directory's heartbeat is older than
   * `staleAfterMs`, by the sweep every open store repeats at each heartbeat. So processes sharing the
   * directory (a service and its workers) never remove each other's writes in progress, and nothing a
   * crash leaves outlives it. Default 60 s.
   */
  readonly staleAfterMs?: number;
  /** How often (ms) an open store touches its directory and sweeps. Default a sixth of `staleAfterMs`. */
  readonly heartbeatMs?: number;
}

/** The partial-write directories of the stores open in this process (never swept by a sibling). */
const OPEN_HERE = new Set<string>();
/** A store's directory: `<host>~<pid>~<random>`. Host names are letters, digits, dots and dashes. */
const OWNER = /^([A-Za-z0-9.-]*)~(\d+)~[0-9a-f]+$/;

/** Blob ids are UUIDs: nothing else may reach the file system (no path tricks). */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Blobs as files. A blob is written to `partial/<store>/<id>` and appears in `blobs/<id>` only once every
 * byte is written and fsynced (and the rename too, by fsyncing the directory): a crash or a failed source
 * never leaves a half blob visible, and leftovers of gone processes are swept on {@link open}. Bytes are pulled from the
 * source one chunk at a time and written before the next is asked for, so memory does not grow with the
 * blob.
 */
export class FileBlobStore implements BlobStore {
  readonly dir: string;
  private readonly blobs: string;
  private readonly partialRoot: string;
  private readonly partial: string;
  private readonly staleAfterMs: number;
  private readonly heartbeatMs: number;
  private readonly writeChunkBytes: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;
  /** Writes in progress, so that `close` removes the directory only once they are over. */
  private readonly writing = new Set<Promise<unknown>>();

  private constructor(options: FileBlobStoreOptions) {
    this.dir = options.dir;
    this.blobs = path.join(options.dir, 'blobs');
    this.partialRoot = path.join(options.dir, 'partial');
    this.partial = path.join(
      this.partialRoot,
      `${hostTag()}~${process.pid}~${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    );
    this.staleAfterMs = options.staleAfterMs ?? 60_000;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(10, Math.floor(this.staleAfterMs / 6));
    this.writeChunkBytes = options.writeChunkBytes ?? 256 * 1024;
  }

  /**
   * Opens (and creates) the store, removing partial writes a previous process left behind.
   * @throws BlobWriteError when the directory cannot be created
   */
  static async open(options: FileBlobStoreOptions): Promise<FileBlobStore> {
    const store = new FileBlobStore(options);
    try {
      await fsp.mkdir(store.blobs, { recursive: true });
      OPEN_HERE.add(store.partial);
      await fsp.mkdir(store.partial, { recursive: true });
      await store.sweep();
    } catch (err) {
      OPEN_HERE.delete(store.partial);
      throw new BlobWriteError(
        `The blob directory '${options.dir}' is not usable: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    store.heartbeat = setInterval(() => void store.beat(), store.heartbeatMs);
    store.heartbeat.unref();
    return store;
  }

  /**
   * Stops the heartbeat and removes this store's partial directory once the writes in progress are over
   * (their sources end or fail: a store does not cut an upload short). The store still reads; a later
   * `put` is refused.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    await Promise.allSettled([...this.writing]);
    await fsp.rm(this.partial, { recursive: true, force: true }).catch(() => undefined);
    OPEN_HERE.delete(this.partial);
  }

  async put(source: BlobSource): Promise<BlobStat> {
    if (this.closed) throw new BlobWriteError('The blob store is closed');
    const writing = this.write(source);
    this.writing.add(writing);
    try {
      return await writing;
    } finally {
      this.writing.delete(writing);
    }
  }

  private async write(source: BlobSource): Promise<BlobStat> {
    const id = randomUUID();
    const partial = path.join(this.partial, id);
    let file: fsp.FileHandle | undefined;
    let size = 0;
    let sourceError: { error: unknown } | undefined;
    try {
      await fsp.mkdir(this.partial, { recursive: true });
      file = await fsp.open(partial, 'wx');
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const flush = async (): Promise<void> => {
        if (pendingBytes === 0) return;
        const chunks = pending;
        pending = [];
        pendingBytes = 0;
        await file!.writev(chunks);
      };
      for await (const chunk of pulling(source, (e) => (sourceError = { error: e }))) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        size += chunk.length;
        if (pendingBytes >= this.writeChunkBytes) await flush();
      }
      await flush();
      await file.sync();
      await file.close();
      file = undefined;
      await fsp.rename(partial, path.join(this.blobs, id));
      await syncDir(this.blobs);
    } catch (err) {
      await file?.close().catch(() => undefined);
      await fsp.rm(partial, { force: true }).catch(() => undefined);
      // a source that failed (the upload broke off) is the source's error, not the store's
      if (sourceError !== undefined) throw sourceError.error;
      throw new BlobWriteError(`The attachment could not be stored: ${describeFault(err)}`, { cause: err });
    }
    return { id, size, createdAt: Date.now() };
  }

  async get(id: string): Promise<Readable> {
    const file = this.file(id);
    if (file === undefined) throw new BlobNotFoundError(id);
    try {
      const handle = await fsp.open(file, 'r');
      return createReadStream('', { fd: handle, highWaterMark: 64 * 1024 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(id);
      throw err;
    }
  }

  async stat(id: string): Promise<BlobStat | undefined> {
    const file = this.file(id);
    if (file === undefined) return undefined;
    try {
      const s = await fsp.stat(file);
      return { id, size: s.size, createdAt: s.mtimeMs };
    } catch {
      return undefined;
    }
  }

  async delete(id: string): Promise<boolean> {
    const file = this.file(id);
    if (file === undefined) return false;
    try {
      await fsp.unlink(file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  /** Touches this store's directory (its owner is alive) and sweeps the others. */
  private async beat(): Promise<void> {
    if (this.closed) return;
    const now = new Date();
    // a directory removed meanwhile is not made again here (the next put makes it): a store left open on a
    // directory that is gone must not bring the directory back
    await fsp.utimes(this.partial, now, now).catch(() => undefined);
    await this.sweep().catch(() => undefined);
  }

  /** Removes the partial writes of stores that are gone (see {@link FileBlobStoreOptions.staleAfterMs}). */
  private async sweep(): Promise<void> {
    let names: string[];
    try {
      names = await fsp.readdir(this.partialRoot);
    } catch {
      return;
    }
    const host = hostTag();
    for (const name of names) {
      const dir = path.join(this.partialRoot, name);
      if (OPEN_HERE.has(dir)) continue;
      const owner = OWNER.exec(name);
      let gone: boolean;
      if (owner !== null && owner[1] === host) {
        const pid = Number(owner[2]);
        // this pid's own directories that no open store holds were left by an earlier process with the same
        // pid (a restarted container) or by a store closed without cleaning up
        gone = pid === process.pid || !processAlive(pid);
        // a live pid may be a new process that reuses the number: the heartbeat tells
        if (!gone) gone = await this.heartbeatStale(dir);
      } else {
        // another host's (or an older layout's): only its heartbeat can tell
        gone = await this.heartbeatStale(dir);
      }
      if (gone) await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async heartbeatStale(dir: string): Promise<boolean> {
    const st = await fsp.stat(dir).catch(() => undefined);
    return st !== undefined && Date.now() - st.mtimeMs >= this.staleAfterMs;
  }

  private file(id: string): string | undefined {
    return typeof id === 'string' && ID.test(id) ? path.join(this.blobs, id) : undefined;
  }
}

/** This host's name as it appears in directory names (letters, digits, dots and dashes). */
function hostTag(): string {
  return os
    .hostname()
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .slice(0, 64);
}

/** True when a process with this pid exists (signal 0 checks without sending; EPERM: it exists, not ours). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes a rename in `dir` durable (a no-op where directories cannot be opened, e.g. Windows). */
async function syncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The source's chunks; its failure is reported to `failed` before it propagates. */
async function* pulling(source: BlobSource, failed: (e: unknown) => void): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<Uint8Array>;
      try {
        r = await it.next();
      } catch (e) {
        failed(e);
        throw e;
      }
      if (r.done === true) return;
      yield r.value;
    }
  } finally {
    await it.return?.();
  }
}
