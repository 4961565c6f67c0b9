import { SvcError } from '../errors';
import { registerErrorCodes } from '../errors/svc-error';
import { STREAMS_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(STREAMS_ERRORS_CODES);

/**
 * A write handle used against its contract (the reference's `IllegalStateException`): a write with no
 * remaining capacity, or after `done()` / `error()`.
 */
export class AttachmentStateError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_ATTACH_ILLEGAL_STATE', message);
  }
}

/** An attachment stream ended abnormally: a writer's error, a malformed part, an aborted exchange. */
export class AttachmentStreamError extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_ATTACH_STREAM', message, options);
  }
}

/** The reason handed to writers and readers when their exchange is abandoned (an error elsewhere, a hang-up). */
export class AttachmentAbortedError extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_ATTACH_ABORTED', message, options);
  }
}

/** An unknown thrown value as an Error (writers and callbacks may throw anything). */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new AttachmentStreamError(String(e));
}
