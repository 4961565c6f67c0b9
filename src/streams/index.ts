/**
 * Attachment streams with explicit demand (brief, "Attachment data source", "Attachment reading"): the
 * writer and reader contracts, their pull channels, writers from common sources, and the RxJS face. See
 * README.md in this folder.
 */
import type { Readable } from 'node:stream';

// what a browser may use too (one list: the client entry imports portable.ts alone)
export * from './portable';
export type { NodeReadable } from './node-readable';

declare module './node-readable' {
  // On Node (the package root is loaded), Node's `Readable`: see node-readable.ts. A line comment: TypeDoc
  // refuses a second doc comment on one interface.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the heritage is the point
  interface NodeReadable extends Readable {}
}
// the Node side: pull channels, the Node-stream multipart/related codec, the generic multipart codec
export {
  type ChunkChannel,
  type PartChannel,
  type PartsChannel,
  type PartsListener,
  channelFromWriter,
  partFromWriter,
  partsFromIterator,
} from './channels';
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
