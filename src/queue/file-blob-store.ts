import { randomUUID } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobSource, BlobStat, BlobStore } from './blob-store';
import { BlobNotFoundError, BlobWriteError } from './errors';

/** Options of {@link FileBlobStore}. */
export interface FileBlobStoreOptions {
  /** The directory; created when missing. Blobs live in `<dir>/blobs`, writes in progress in `<dir>/partial`. */
  readonly dir: string;
  /** Bytes gathered before each write to disk. Default 256 KiB. */
  readonly writeChunkBytes?: number;
  /**
   * A partial write untouched for this long (ms) was left by a process that is gone, and is removed when a
   * store opens. Default 15 minutes. Live writes touch their file at every chunk, and each store writes in
   * a directory of its own, so processes sharing the directory (a service and its workers) never remove
   * each other's writes in progress.
   */
  readonly staleAfterMs?: number;
}

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
  private readonly writeChunkBytes: number;

  private constructor(options: FileBlobStoreOptions) {
    this.dir = options.dir;
    this.blobs = path.join(options.dir, 'blobs');
    this.partialRoot = path.join(options.dir, 'partial');
    this.partial = path.join(this.partialRoot, `${process.pid}-${randomUUID().slice(0, 8)}`);
    this.staleAfterMs = options.staleAfterMs ?? 15 * 60_000;
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
      await store.sweepStale();
      await fsp.mkdir(store.partial, { recursive: true });
    } catch (err) {
      throw new BlobWriteError(
        `The blob directory '${options.dir}' is not usable: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    return store;
  }

  async put(source: BlobSource): Promise<BlobStat> {
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

  /** Removes partial writes untouched for `staleAfterMs` (their process is gone), and emptied directories. */
  private async sweepStale(): Promise<void> {
    const now = Date.now();
    let dirs: string[];
    try {
      dirs = await fsp.readdir(this.partialRoot);
    } catch {
      return;
    }
    for (const d of dirs) {
      const dir = path.join(this.partialRoot, d);
      let names: string[];
      try {
        names = await fsp.readdir(dir);
      } catch {
        // not a directory (an old layout's file): stale if old enough
        const st = await fsp.stat(dir).catch(() => undefined);
        if (st !== undefined && now - st.mtimeMs >= this.staleAfterMs) await fsp.rm(dir, { force: true });
        continue;
      }
      const before = await fsp.stat(dir).catch(() => undefined);
      let left = names.length;
      for (const n of names) {
        const f = path.join(dir, n);
        const st = await fsp.stat(f).catch(() => undefined);
        if (st === undefined || now - st.mtimeMs >= this.staleAfterMs) {
          await fsp.rm(f, { recursive: true, force: true });
          left--;
        }
      }
      // a directory left empty by the sweep, or empty and old, belongs to no write in progress (a live
      // store whose directory goes makes it again at its next put)
      const stale = before !== undefined && now - before.mtimeMs >= this.staleAfterMs;
      if (left === 0 && (names.length > 0 || stale)) await fsp.rmdir(dir).catch(() => undefined);
    }
  }

  private file(id: string): string | undefined {
    return typeof id === 'string' && ID.test(id) ? path.join(this.blobs, id) : undefined;
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

const FAULTS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EFBIG: 'the file is too large for the file system',
  EACCES: 'the blob directory may not be written',
  EPERM: 'the blob directory may not be written',
  EROFS: 'the blob directory is on a read-only file system',
  ENOTDIR: 'the blob directory is missing or not a directory',
  ENOENT: 'the blob directory is missing or not a directory',
  EIO: 'the disk reported an I/O error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

/** A fault as clients may read it: what happened and its errno code, never a path. */
function describeFault(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return `${FAULTS[code] ?? 'the file system refused the write'} (${code})`;
  return 'the file system refused the write';
}
