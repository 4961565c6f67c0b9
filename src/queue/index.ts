/**
 * Background attachment processing (issue 14): so far the blob store where queued attachments wait. See
 * README.md in this folder.
 */
export { type BlobStat, type BlobSource, type BlobStore } from './blob-store';
export { type FileBlobStoreOptions, FileBlobStore } from './file-blob-store';
export { BlobNotFoundError, BlobWriteError } from './errors';
