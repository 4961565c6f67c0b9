import { AttachmentsBuilder } from '../streams/attachments-builder';
import type { AttachmentSources } from '../streams/related/encoder';

/**
 * The attachments a handler sends with its response (brief, "Server API for attachments"): built with
 * {@link ResponseAttachments.builder} and given to `ctx.setResponseAttachments(...)`, which only a request
 * whose `Accept` lists `multipart/related` allows (`ctx.responseAttachmentsSupported()`). The response is
 * `multipart/related` only when at least one attachment was added; its body part is the usual one. Sources
 * are written as the socket drains; if the request fails instead, every source is aborted (`onAbort`).
 *
 * @example
 * ```ts
 * if (ctx.responseAttachmentsSupported()) {
 *   ctx.setResponseAttachments(
 *     ResponseAttachments.builder().appendSingleAttachment(writerFromAsyncIterable(id, fs.createReadStream(path))).build(),
 *   );
 *   photo.setImage(`cid:${id}`);
 * }
 * ```
 */
export class ResponseAttachments {
  /** Writers and iterators, in order (an incoming `AttachmentReader` forwards all of its attachments). */
  readonly sources: AttachmentSources;

  // only the builder makes these, from the frozen copy it builds
  private constructor(sources: AttachmentSources) {
    this.sources = sources;
  }

  static builder(): ResponseAttachmentsBuilder {
    return new AttachmentsBuilder((sources) => new ResponseAttachments(sources));
  }
}

/** Collects response attachments in order; multiple sources are chained. */
export type ResponseAttachmentsBuilder = AttachmentsBuilder<ResponseAttachments>;
