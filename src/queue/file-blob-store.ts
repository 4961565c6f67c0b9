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
}

/** Blob ids are UUIDs: nothing else may reach the file system (no path tricks). */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Blobs as files. A blob is written to `partial/<id>` and appears in `blobs/<id>` only once every byte is
 * written and fsynced (and the rename too, by fsyncing the directory): a crash or a failed source never
 * leaves a half blob visible, and `partial/` is swept of leftovers on {@link open}. Bytes are pulled from the
 * source one chunk at a time and written before the next is asked for, so memory does not grow with the
 * blob.
 */
export class FileBlobStore implements BlobStore {
  readonly dir: string;
  private readonly blobs: string;
  private readonly partial: string;
  private readonly writeChunkBytes: number;

  private constructor(options: FileBlobStoreOptions) {
    this.dir = options.dir;
    this.blobs = path.join(options.dir, 'blobs');
    this.partial = path.join(options.dir, 'partial');
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
      await fsp.rm(store.partial, { recursive: true, force: true });
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
    try {
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
      for await (const chunk of source) {
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
      throw new BlobWriteError(`The blob could not be stored: ${(err as Error).message}`, { cause: err });
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
