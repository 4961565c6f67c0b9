/**
 * Attachment streams with explicit demand (brief, "Attachment data source", "Attachment reading"): the
 * writer and reader contracts, their pull channels, writers from common sources, and the RxJS face. See
 * README.md in this folder.
 */
export { AttachmentStateError, AttachmentStreamError, AttachmentAbortedError } from './errors';
export type {
  AttachmentDataSourceWriter,
  DataSourceIterator,
  DataSourceIteratorCallback,
} from './data-source';
export { WriteHandle, type ChunkSink } from './write-handle';
export {
  type ChunkChannel,
  type PartChannel,
  type PartsChannel,
  type PartsListener,
  channelFromWriter,
  partFromWriter,
  partsFromIterator,
} from './channels';
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
export { type DemandSource, withDemand, demandSourceOf, DemandPuller } from './demand-stream';
export {
  type RelatedPayload,
  type RelatedMessage,
  type AttachmentSources,
  encodeRelated,
} from './related/encoder';
export { BOUNDARY_LENGTH, makeBoundary } from './related/boundary';
export {
  type DecodeRelatedOptions,
  type RelatedPayloadPart,
  type RelatedRequest,
  PayloadTooLargeError,
  decodeRelated,
} from './related/decoder';
export { boundaryOf } from './related/content-type';
export { newAttachmentId } from './attachment-id';
export {
  type BufferedMultipartPart,
  MultipartFormatError,
  type MultipartParseOptions,
  type MultipartPart,
  type MultipartReadOptions,
  type MultipartWriterPart,
  makeMultipartBoundary,
  mediaTypeEssence,
  multipartBoundary,
  parseMultipart,
  readMultipart,
  writeMultipart,
} from './multipart';
export { AttachmentsBuilder } from './attachments-builder';
export { type BlobLike, writerFromBlob } from './blob-writer';
export { attachmentStream, attachmentStreams } from './web-streams';
