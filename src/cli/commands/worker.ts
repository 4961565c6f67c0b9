import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { AttachmentQueue, type Processor } from '../../queue/attachment-queue';
import { BullMqDriver } from '../../queue/bullmq-driver';
import { FileBlobStore } from '../../queue/file-blob-store';
import { CliUsageError } from '../cli-error';
import { TYPESCRIPT_MODULES_HELP, loadUserModule } from '../load-module';

/** What a `--processors` module exports (as its default export, or as the module itself). */
export type ProcessorsModule =
  ((queue: AttachmentQueue) => void | Promise<void>) | { readonly [jobName: string]: Processor };

interface WorkerCommandOptions {
  readonly processors: string;
  readonly concurrency: number;
  readonly redis?: string;
  readonly blobDir?: string;
  readonly queue: string;
  readonly prefix: string;
  readonly shutdownTimeout: number;
  readonly lockDuration: number;
  readonly stalledInterval: number;
}

function positiveInt(what: string, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new InvalidArgumentError(`${what}: give a whole number from 1 to ${max}.`);
    return n;
  };
}

const HELP = `
The processors module (.js, or .ts through the project's TypeScript loader: see the end) exports, as its default
export or as the module itself, either
  - a function (queue: AttachmentQueue) => void that registers processors: queue.process('photo.process', fn)
  - or an object of processors by job name: { 'photo.process': async (job, attachments) => ({ ... }) }

The blob directory must be the service's own (the same disk, or a shared file system): the service
streams attachments into it and the worker reads them back from it.

On SIGTERM or SIGINT the worker stops taking jobs, lets the running ones finish (after --shutdown-timeout
they are released back to the queue for another worker), closes its connections and exits 0.
A worker killed outright (SIGKILL, a crash) loses its jobs' locks: another worker runs them again after
the lock duration (plus up to one stalled check: about 35 s with the defaults). Processors must therefore
be idempotent. A shorter --lock-duration moves such jobs sooner, but a worker whose event loop is held
longer than the lock (CPU-bound work, a GC pause, Redis out of reach) loses a job it is still running,
which then runs twice: keep it well above the longest pause of your processors.`;

/** `svc worker`: runs the queue's jobs in this process, on Redis (BullMQ), until SIGTERM/SIGINT. */
export function workerCommand(): Command {
  return new Command('worker')
    .description('run background jobs (BullMQ on Redis) with the processors of a module, until SIGTERM')
    .requiredOption('--processors <module>', 'module registering the job processors (see below)')
    .option('--concurrency <n>', 'jobs run at once in this process', positiveInt('--concurrency', 1000), 4)
    .option('--redis <url>', 'Redis URL (default: the REDIS_URL environment variable; one is required)')
    .option('--blob-dir <dir>', "the service's blob directory (default: SVC_BLOB_DIR, else ./.svc-blobs)")
    .option('--queue <name>', 'BullMQ queue name (the service must use the same)', 'svc-jobs')
    .option('--prefix <prefix>', 'Redis key prefix of the queue (the service must use the same)', 'svc')
    .option(
      '--shutdown-timeout <ms>',
      'on SIGTERM, how long running jobs may take to finish before they are released',
      positiveInt('--shutdown-timeout', 86_400_000),
      30_000,
    )
    .option(
      '--lock-duration <ms>',
      "a job's lock; a killed worker's job runs again elsewhere after it",
      positiveInt('--lock-duration', 86_400_000),
      30_000,
    )
    .option(
      '--stalled-interval <ms>',
      'how often to look for jobs of dead workers',
      positiveInt('--stalled-interval', 86_400_000),
      30_000,
    )
    .addHelpText('after', `${HELP}\n${TYPESCRIPT_MODULES_HELP}\n`)
    .action((options: WorkerCommandOptions) => runWorker(options));
}

async function runWorker(options: WorkerCommandOptions): Promise<void> {
  const redis = options.redis ?? process.env.REDIS_URL;
  if (redis === undefined || redis === '')
    throw new CliUsageError('svc worker needs Redis: give --redis redis://host:port or set REDIS_URL');
  const blobDir = path.resolve(options.blobDir ?? process.env.SVC_BLOB_DIR ?? '.svc-blobs');
  const exported = await loadProcessors(options.processors);

  const driver = new BullMqDriver({
    connection: redis,
    queueName: options.queue,
    prefix: options.prefix,
    lockDurationMs: options.lockDuration,
    stalledIntervalMs: options.stalledInterval,
  });
  const queue = new AttachmentQueue({ blobs: await FileBlobStore.open({ dir: blobDir }), driver });
  try {
    await register(queue, exported, options.processors);
  } catch (err) {
    await driver.close();
    throw err;
  }

  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    let seen = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (seen) {
        process.stderr.write(`svc worker: ${signal} again: exiting without waiting for running jobs\n`);
        process.exit(1);
      }
      seen = true;
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  queue.start({ concurrency: options.concurrency });
  process.stderr.write(
    `svc worker: running queue '${options.queue}' (concurrency ${options.concurrency}, blobs in ${blobDir})\n`,
  );
  const signal = await stopped;
  process.stderr.write(`svc worker: ${signal}: finishing running jobs\n`);
  await queue.close({ timeoutMs: options.shutdownTimeout });
  process.stderr.write('svc worker: stopped\n');
}

async function loadProcessors(specifier: string): Promise<unknown> {
  const mod = await loadUserModule(specifier, '--processors');
  const withDefault = mod as { default?: unknown };
  return typeof mod === 'object' && mod !== null && withDefault.default !== undefined
    ? withDefault.default
    : mod;
}

async function register(queue: AttachmentQueue, exported: unknown, specifier: string): Promise<void> {
  if (typeof exported === 'function') {
    await (exported as (q: AttachmentQueue) => void | Promise<void>)(queue);
    return;
  }
  const entries =
    typeof exported === 'object' && exported !== null
      ? Object.entries(exported).filter(([k]) => k !== '__esModule')
      : [];
  if (entries.length === 0 || entries.some(([, v]) => typeof v !== 'function'))
    throw new CliUsageError(
      `--processors ${specifier}: export a function (queue) => void, or an object of processor functions by job name`,
    );
  for (const [name, processor] of entries) queue.process(name, processor as Processor);
}
