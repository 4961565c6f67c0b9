import { AttachmentsBuilder } from '../streams/attachments-builder';
import type { AttachmentSources } from '../streams/related/encoder';

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
export class RequestAttachments extends AttachmentsBuilder<AttachmentSources> {
  static builder(): RequestAttachments {
    return new RequestAttachments((sources) => sources);
  }
}
