import type { WriteHandle } from './write-handle';

/**
 * The writer side of an attachment (brief, "Attachment data source (writer contract)"): the application
 * implements it to send bytes, and the framework drives it with demand. `getAttachmentID()` is called first
 * and must equal the identifier the payload points at (`cid:<id>`); `onInit` hands over the write handle
 * once a reader is attached; `onWritePossible` says that up to `handle.remaining()` chunks may be written
 * now, and is called again once capacity returns after `remaining()` reached 0 (capacity topped up while some
 * is left calls nothing: a writer waiting on its own source with capacity left writes on when its data
 * comes); `onAbort` says the stream
 * was abandoned (release resources; writes have no effect from then on).
 *
 * Chunks are passed on without copying: a writer must not change a chunk's bytes after writing it.
 */
export interface AttachmentDataSourceWriter {
  getAttachmentID(): string;
  /**
   * The media type of the bytes, sent as the part's `Content-Type` (so a browser or `curl` can tell an image
   * from the rest). Optional: Rest.li's writers have none and send a part with its Content-ID alone, which
   * is what a writer without this method sends too.
   */
  getContentType?(): string | undefined;
  onInit(handle: WriteHandle): void;
  onWritePossible(): void;
  onAbort(reason: Error): void;
}

/** What a {@link DataSourceIterator} tells its consumer. */
export interface DataSourceIteratorCallback {
  /** The next data source; the one after it comes once this one is done (or failed). */
  onNewDataSource(writer: AttachmentDataSourceWriter): void;
  /** Every data source was handed over and finished. */
  onFinished(): void;
  /** After `abandonAllDataSources()`: every remaining source was abandoned. */
  onAbandonComplete(): void;
  /** The iterator itself failed (e.g. an incoming multipart body broke off). */
  onStreamError(error: Error): void;
}

/**
 * Several attachments, handed over one at a time (the reference's `RestLiDataSourceIterator`): appended to
 * a request or a response as a whole. An incoming `AttachmentReader` is one, so all the attachments of a
 * request can be forwarded onward as they arrive.
 */
export interface DataSourceIterator {
  registerDataSourceReaderCallback(callback: DataSourceIteratorCallback): void;
  /** Abandons every data source not yet finished (each writer gets `onAbort`). */
  abandonAllDataSources(): void;
}
