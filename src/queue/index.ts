/**
 * Background attachment processing (issue 14): the blob store, the attachment job queue and its drivers.
 * See README.md in this folder.
 */
export { type BlobStat, type BlobSource, type BlobStore } from './blob-store';
export { type FileBlobStoreOptions, FileBlobStore } from './file-blob-store';
export {
  BlobNotFoundError,
  BlobWriteError,
  JobCancelledError,
  JobInputError,
  JobNotFoundError,
  QueueUnavailableError,
  UnrecoverableJobError,
  WorkerShutdownError,
  isUnrecoverable as isUnrecoverableJobError,
  isWorkerShutdown,
} from './errors';
export {
  type Backoff,
  type JobBlob,
  type JobData,
  type JobFailure,
  type JobOptions,
  type JobSnapshot,
  type JobState,
  type JsonObject,
  type JsonValue,
  JOB_STATES,
  isFinalState,
} from './job';
export type { JobHandler, JobWorker, QueueDriver, RunningJob } from './driver';
export { type JobObserver, type JobProbe, composeJobObservers } from './observer';
export { type InProcessDriverOptions, InProcessDriver } from './in-process-driver';
export { type BullMqDriverOptions, BullMqDriver } from './bullmq-driver';
export {
  type AttachmentQueueOptions,
  type AttachmentSource,
  type JobAttachments,
  type StoredAttachments,
  type Processor,
  type QueuedJob,
  AttachmentQueue,
} from './attachment-queue';
export { type JobsResourceOptions, jobRecord, jobsResource } from './jobs-resource';
export { Job, JobAttachment, JobError, JobPayload } from './generated/com/svc/queue';
export { JobState as JobStateSymbol } from './generated/com/svc/queue/JobState';
