import type { Readable } from 'node:stream';

/** What the store knows of a blob. */
export interface BlobStat {
  readonly id: string;
  /** Bytes. */
  readonly size: number;
  /** When it became visible (ms since the epoch). */
  readonly createdAt: number;
}

/** Where a blob's bytes come from: an async iterable of chunks (a Node stream, an attachment's chunks). */
export type BlobSource = AsyncIterable<Uint8Array>;

/**
 * Where queued attachments wait for their jobs (issue 14): bytes are streamed in with demand (no blob is
 * held in memory), become visible only once fully written and durable, and are read back as streams.
 * Implementations: {@link FileBlobStore} (the default); object storage fits the same interface.
 */
export interface BlobStore {
  /**
   * Streams `source` into a new blob and resolves with its id once it is complete and durable; a source
   * that fails, or a write that does, leaves nothing behind.
   * @throws BlobWriteError
   */
  put(source: BlobSource): Promise<BlobStat>;
  /**
   * The blob's bytes as a stream.
   * @throws BlobNotFoundError
   */
  get(id: string): Promise<Readable>;
  /** Its size and creation time; undefined when there is no such blob. */
  stat(id: string): Promise<BlobStat | undefined>;
  /** Removes it; true when it was there. */
  delete(id: string): Promise<boolean>;
  /**
   * Releases what the store holds (timers, its partial-write directory) once the writes in progress are
   * over; {@link AttachmentQueue.close} calls it. Optional: a store holding nothing needs none.
   */
  close?(): Promise<void>;
}
