/**
 * The attachment streams without the Node-stream multipart codec: writers, readers, their pull channels
 * and the RxJS face, for `svc-framework/client` (`src/client/browser.ts`), which must not reach a Node
 * built-in. `index.ts` (the package root's) exports all of this and the Node-side rest.
 */
export { AttachmentStateError, AttachmentStreamError, AttachmentAbortedError } from './errors';
export type {
  AttachmentDataSourceWriter,
  DataSourceIterator,
  DataSourceIteratorCallback,
} from './data-source';
export { WriteHandle, type ChunkSink } from './write-handle';
export { SingleAttachmentReader, type SingleAttachmentReaderCallback } from './single-attachment-reader';
export { AttachmentReader, type AttachmentReaderCallback, attachmentIdOf } from './attachment-reader';
export {
  DEFAULT_CHUNK_SIZE,
  type SyncInput,
  writerFromBytes,
  writerFromAsyncIterable,
  writerFromSyncInput,
  withContentType,
  dataSourceIterator,
} from './writers';
export {
  type RxAttachment,
  writerChunks$,
  attachmentChunks$,
  attachments$,
  consumeChunks,
  toAsyncIterable,
  writerFromObservable,
} from './rx';
export { newAttachmentId } from './attachment-id';
export { AttachmentsBuilder } from './attachments-builder';
export { type BlobLike, writerFromBlob } from './blob-writer';
export { attachmentStream, attachmentStreams } from './web-streams';
