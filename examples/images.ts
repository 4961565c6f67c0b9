/**
 * The example's image files: photo bytes live on disk, streamed in from an upload's attachment and out
 * into a download's, never held whole in memory. A real service would use object storage here.
 */
import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import {
  type AttachmentDataSourceWriter,
  type SingleAttachmentReader,
  attachmentChunks$,
  toAsyncIterable,
  writerFromAsyncIterable,
} from 'svc-framework';

/** Where images are kept: a directory of files named by photo id. */
export class ImageStore {
  readonly dir: string;

  constructor(dir: string = path.join(os.tmpdir(), `svc-example-images-${process.pid}`)) {
    this.dir = dir;
  }

  private file(id: number | bigint): string {
    return path.join(this.dir, `${String(id)}.img`);
  }

  /**
   * Streams an incoming attachment into the image of photo `id`, with demand: a chunk is asked for only
   * once the file has taken the previous one (a slow disk slows the upload). Written to a temporary name
   * and renamed, so that a broken upload never becomes an image. `inspect` sees each chunk on its way
   * (hashing, sniffing). Resolves with the byte count.
   */
  async save(
    id: number | bigint,
    attachment: SingleAttachmentReader,
    inspect?: (chunk: Uint8Array) => void,
  ): Promise<number> {
    await fsp.mkdir(this.dir, { recursive: true });
    const partial = `${this.file(id)}.partial-${process.hrtime.bigint()}`;
    let size = 0;
    const source = Readable.from(toAsyncIterable((demand$) => attachmentChunks$(attachment, demand$)));
    source.on('data', (c: Buffer) => {
      size += c.length;
      inspect?.(c);
    });
    try {
      await pipeline(source, createWriteStream(partial));
      await fsp.rename(partial, this.file(id));
    } catch (err) {
      await fsp.rm(partial, { force: true });
      throw err;
    }
    return size;
  }

  /** The image of photo `id` as an attachment writer (read from disk as the response drains), or undefined. */
  async writer(id: number | bigint, attachmentId?: string): Promise<AttachmentDataSourceWriter | undefined> {
    try {
      await fsp.access(this.file(id));
    } catch {
      return undefined;
    }
    return writerFromAsyncIterable(
      attachmentId,
      createReadStream(this.file(id), { highWaterMark: 64 * 1024 }),
    );
  }

  async remove(id: number | bigint): Promise<void> {
    await fsp.rm(this.file(id), { force: true });
  }
}
