import type { AttachmentDataSourceWriter, AttachmentSources, DataSourceIterator } from '../streams';

/**
 * The attachments of a request, built in order (the reference's request builder methods): pass `build()`
 * as a call's `attachments`. An array of writers and iterators does the same.
 *
 * @example
 * ```ts
 * await api.photos.create(photo.setImage(`cid:${image.getAttachmentID()}`), {
 *   attachments: RequestAttachments.builder().appendSingleAttachment(image).build(),
 * });
 * ```
 */
export class RequestAttachments {
  readonly #sources: Array<AttachmentDataSourceWriter | DataSourceIterator> = [];

  static builder(): RequestAttachments {
    return new RequestAttachments();
  }

  /** One attachment, or an incoming `SingleAttachmentReader` to forward. */
  appendSingleAttachment(writer: AttachmentDataSourceWriter): this {
    this.#sources.push(writer);
    return this;
  }

  /** Several, or an incoming `AttachmentReader` to forward all of its attachments. */
  appendMultipleAttachments(iterator: DataSourceIterator): this {
    this.#sources.push(iterator);
    return this;
  }

  build(): AttachmentSources {
    return Object.freeze([...this.#sources]);
  }
}
