import type { CodecRegistry, DataMap } from '../data';
import { getHeader, selectRequestCodec } from '../protocol';
import {
  type AttachmentReader,
  AttachmentStreamError,
  PayloadTooLargeError,
  type RelatedRequest,
  decodeRelated,
  mediaTypeEssence,
} from '../streams';
import { RequestBodyError } from '../resources/errors';
import type { ResourceRequest } from '../resources/request';

/**
 * Content decoding on the request path, in one place and in pipeline order: a streamed body
 * (`multipart/related`) is split first, before routing, into its first part (the request's body from then
 * on, with its own Content-Type) and an attachment reader; a body's bytes are decoded with the codec its
 * Content-Type names (JSON, PSON) when binding first asks for them, so that methods without a body, and
 * requests refused before binding, never pay for decoding.
 */

/** The default largest first part of a `multipart/related` body: 1 MiB, as the plugin's `maxBodyBytes`. */
export const DEFAULT_PAYLOAD_BYTES = 1024 * 1024;

/** A `multipart/related` request once its first part is in. */
export interface RelatedContent {
  /** The request with the first part as its body and Content-Type. */
  readonly request: ResourceRequest;
  /** The decoder, to drain what nobody read (errors, refusals). */
  readonly related: RelatedRequest;
  /** The attachments after the first part; undefined when there are none. */
  readonly attachments: AttachmentReader | undefined;
}

/**
 * Splits a streamed `multipart/related` request (wire facts §6.3). `onDecoder` gets the decoder as soon as
 * there is one, so that a failure later still drains the body.
 * @throws RequestBodyError 400 (no parts, a broken envelope, a first part without Content-Type), 413 (a first
 *   part over `maxPayloadBytes`), 415 (a first part no codec reads)
 */
export async function decodeRelatedContent(
  request: ResourceRequest,
  codecs: CodecRegistry,
  maxPayloadBytes: number,
  onDecoder: (related: RelatedRequest) => void,
): Promise<RelatedContent> {
  const stream = request.bodyStream!;
  const contentType = getHeader(request.headers, 'content-type') ?? '';
  let related: RelatedRequest;
  try {
    related = decodeRelated(stream, contentType, { maxPayloadBytes });
  } catch (err) {
    stream.resume();
    throw relatedError(err);
  }
  onDecoder(related);
  let attachments: AttachmentReader | undefined;
  let payload;
  try {
    payload = await related.payload;
    if (payload.contentType === undefined) {
      throw new RequestBodyError(
        'Incorrect multipart/related payload. First part must contain the Content-Type!',
        'SVC_ERR_ATTACH_BAD_PAYLOAD',
      );
    }
    if (codecs.find(mediaTypeEssence(payload.contentType)) === undefined) {
      throw new RequestBodyError(
        `Unknown Content-Type for first part of multipart/related payload: ${payload.contentType.slice(0, 200)}`,
        'SVC_ERR_ATTACH_UNKNOWN_PAYLOAD_TYPE',
      );
    }
    attachments = await related.attachments;
  } catch (err) {
    throw relatedError(err);
  }
  return {
    related,
    attachments,
    request: {
      ...request,
      body: payload.bytes.length === 0 ? undefined : payload.bytes,
      bodyStream: undefined,
      headers: { ...request.headers, 'content-type': payload.contentType },
    },
  };
}

/** Decodes a request body with the codec its Content-Type names; undefined without a body. */
export function decodeBody(request: ResourceRequest, codecs: CodecRegistry): DataMap | undefined {
  const bytes = request.body;
  if (bytes === undefined || bytes.length === 0) return undefined;
  return selectRequestCodec(getHeader(request.headers, 'content-type'), codecs).bytesToMap(bytes);
}

/** A decoding failure of a `multipart/related` body as the protocol error it is. */
function relatedError(err: unknown): unknown {
  if (err instanceof PayloadTooLargeError)
    return new RequestBodyError(err.message, 'SVC_ERR_BIND_BODY_TOO_LARGE', { cause: err });
  if (err instanceof AttachmentStreamError)
    return new RequestBodyError(err.message, 'SVC_ERR_ATTACH_BAD_PAYLOAD', { cause: err });
  return err;
}
