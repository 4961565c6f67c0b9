import type { AttachmentDataSourceWriter, DataSourceIterator } from './data-source';
import type { AttachmentSources } from './related/encoder';

/**
 * Collects the attachments of a message in order (the reference's `appendSingleAttachment` /
 * `appendMultipleAttachments`), and gives them to `make` on `build()`: the client's `RequestAttachments`
 * and the server's `ResponseAttachments` builder are this, with their own result.
 */
export class AttachmentsBuilder<R> {
  readonly #sources: Array<AttachmentDataSourceWriter | DataSourceIterator> = [];
  readonly #make: (sources: AttachmentSources) => R;

  constructor(make: (sources: AttachmentSources) => R) {
    this.#make = make;
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

  build(): R {
    return this.#make(Object.freeze([...this.#sources]));
  }
}
