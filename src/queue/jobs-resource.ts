import type { DataMap } from '../data';
import { Data } from '../data';
import { STRING_KEY, collection, entityAction, enumOf, finder, recordOf } from '../resources';
import type { AttachmentQueue } from './attachment-queue';
import { Job } from './generated/com/svc/queue/Job';
import { JobState as JobStateSymbol } from './generated/com/svc/queue/JobState';
import type { JobSnapshot } from './job';

/** Options of {@link jobsResource}. */
export interface JobsResourceOptions {
  /** The resource name (its path). Default `jobs`. */
  readonly name?: string;
}

/**
 * The `jobs` resource over a queue, for a service to mount beside its own resources:
 *
 * | request | answers |
 * |---|---|
 * | `GET /jobs/{id}` | the job: state, progress, attempts, result or error (404 when there is no such job) |
 * | `GET /jobs?q=byState&state=FAILED&start=0&count=10` | jobs in a state, newest first, with the total |
 * | `POST /jobs/{id}?action=cancel` | cancels it (a finished job is answered as it is) |
 */
export function jobsResource(queue: AttachmentQueue, options: JobsResourceOptions = {}) {
  return collection({
    name: options.name ?? 'jobs',
    key: STRING_KEY,
    value: Job,
    doc: 'Background jobs over stored attachments: their state, progress, result or error.',
    methods: {
      get: async (id) => jobRecord(await queue.get(id)),
      finders: {
        byState: finder(
          { params: { state: enumOf(JobStateSymbol) }, paging: true },
          async ({ state }, ctx) => {
            const { start, count } = ctx.paging;
            const { jobs, total } = await queue.list(
              state === JobStateSymbol.$UNKNOWN ? 'WAITING' : state,
              start,
              count,
            );
            return { elements: jobs.map(jobRecord), total };
          },
        ),
      },
      entityActions: {
        cancel: entityAction({ key: STRING_KEY, returns: recordOf(Job) }, async (id) =>
          jobRecord(await queue.cancel(id)),
        ),
      },
    },
  });
}

/** A job as the `Job` record. */
export function jobRecord(job: JobSnapshot): Job {
  const data = Data.fromJS({
    id: job.id,
    name: job.name,
    state: job.state,
    progress: job.progress,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    payload: job.data.payload,
    attachments: job.data.blobs.map((b) => ({
      attachmentId: b.attachmentId,
      blobId: b.blobId,
      size: b.size,
    })),
    ...(job.result !== undefined ? { result: job.result } : {}),
    ...(job.error !== undefined ? { error: job.error } : {}),
    createdAt: job.createdAt,
    ...(job.finishedAt !== undefined ? { finishedAt: job.finishedAt } : {}),
  } as unknown as Parameters<typeof Data.fromJS>[0]);
  return new Job(data as DataMap);
}
