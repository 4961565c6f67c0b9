import type { AttachmentDataSourceWriter, DataSourceIterator } from '../streams';

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
  readonly sources: ReadonlyArray<AttachmentDataSourceWriter | DataSourceIterator>;

  private constructor(sources: ReadonlyArray<AttachmentDataSourceWriter | DataSourceIterator>) {
    this.sources = Object.freeze([...sources]);
  }

  static builder(): ResponseAttachmentsBuilder {
    return new ResponseAttachmentsBuilder((sources) => new ResponseAttachments(sources));
  }
}

/** Collects response attachments in order; multiple sources are chained. */
export class ResponseAttachmentsBuilder {
  readonly #sources: Array<AttachmentDataSourceWriter | DataSourceIterator> = [];
  readonly #make: (
    sources: ReadonlyArray<AttachmentDataSourceWriter | DataSourceIterator>,
  ) => ResponseAttachments;

  /** @internal */
  constructor(
    make: (sources: ReadonlyArray<AttachmentDataSourceWriter | DataSourceIterator>) => ResponseAttachments,
  ) {
    this.#make = make;
  }

  /** One attachment (or an incoming `SingleAttachmentReader`, forwarded). */
  appendSingleAttachment(writer: AttachmentDataSourceWriter): this {
    this.#sources.push(writer);
    return this;
  }

  /** Several (or an incoming `AttachmentReader`, all of its attachments forwarded). */
  appendMultipleAttachments(iterator: DataSourceIterator): this {
    this.#sources.push(iterator);
    return this;
  }

  build(): ResponseAttachments {
    return this.#make(this.#sources);
  }
}
