import { v1 } from 'uuid';

/**
 * A new attachment identifier: a version 1 UUID (time and node based), as the brief recommends, so that
 * attachments merged from several services do not collide. Writers made here take one when given none.
 */
export function newAttachmentId(): string {
  return v1();
}
