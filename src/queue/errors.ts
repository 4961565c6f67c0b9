import { SvcError } from '../errors';

/** A blob id that names no blob (never stored, deleted, or not an id at all). */
export class BlobNotFoundError extends SvcError {
  readonly blobId: string;
  constructor(blobId: string) {
    super('SVC_ERR_QUEUE_BLOB_NOT_FOUND', `No blob '${blobId.slice(0, 100)}' in the blob store`);
    this.blobId = blobId;
  }
}

/**
 * A blob could not be written (disk full, directory unwritable, the source failed): nothing of it is
 * visible, and the error says why.
 */
export class BlobWriteError extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_QUEUE_BLOB_WRITE', message, options);
  }
}
