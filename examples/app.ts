/**
 * The example service as a fastify app: the photo library's resources served by `svcPlugin`, with
 * embedded defaults (an in-memory store, the in-process job queue, no Redis). `server.ts` starts it; tests
 * and the benchmark build it here.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import {
  type AccessLog,
  type AttachmentQueue,
  type ServiceContext,
  type SvcPluginOptions,
  createMetrics,
  fastifyRequestIdOptions,
  guardRoute,
  queueReadinessChecks,
  requestIds,
  svcPlugin,
  svcSecureServerOptions,
  svcServerOptions,
  tracingJobObserver,
  tracingObserver,
} from 'svc-framework';
import { ImageStore } from './images';
import type { ExampleSecurity } from './secure';
import { PgPhotoStore } from './pg-store';
import { photoUpdatesFor } from './photo-updates';
import { registerPhotoProcessing } from './processing';
import { dataDirIsTemporary, exampleDataDir, openExampleQueue } from './queue';
import { exampleService } from './resources';
import { type PhotoStore, seededLibrary } from './store';

/** Options of {@link createExampleApp}. */
export interface ExampleAppOptions {
  /**
   * The store; default: on PostgreSQL when `databaseUrl` is given (pg-store.ts, closed with the app), else a
   * freshly seeded in-memory one; its images under `<dataDir>/images`.
   */
  readonly library?: PhotoStore;
  /** PostgreSQL to keep the library in (default `DATABASE_URL`; empty or unset: in memory). */
  readonly databaseUrl?: string;
  /**
   * Where uploads' blobs wait for their jobs: `files` (under the data directory: one machine, or a shared
   * volume) or `postgres` (large objects in the library's database: any machine that reaches it, no shared
   * volume; needs `databaseUrl`). Default `BLOB_STORE`, else `files`.
   */
  readonly blobStore?: 'files' | 'postgres';
  /**
   * fastify's logger (pino, JSON lines on stdout) at this level: given to
   * `fastifyRequestIdOptions({ loggerInstance })`, so that each request's child logger is made on its first
   * use and fastify's two lines per request are off (docs/deploying.md). Default: no logger.
   */
  readonly logLevel?: string;
  /** fastify's options (a logger of your own, body limit...); they win over what the example sets. */
  readonly fastify?: FastifyServerOptions;
  /** Base URL of another instance, for `photos?action=relay`. Default: none. */
  readonly upstream?: string;
  /** svcPlugin options besides the resources (mode, validation, prefix...). */
  readonly svc?: Omit<SvcPluginOptions, 'resources'> & { readonly prefix?: string };
  /**
   * The job queue uploads go to. Default: one opened by {@link openExampleQueue} (in-process, or BullMQ
   * when `REDIS_URL` is set), closed with the app.
   */
  readonly queue?: AttachmentQueue;
  /** Blobs and images go under it. Default `SVC_DATA_DIR`, else a directory of this process in the OS temp dir. */
  readonly dataDir?: string;
  /**
   * Run `photo.process` jobs in this process. Default: true with the in-process driver, false with BullMQ
   * (workers run as `svc worker` processes).
   */
  readonly runWorkers?: boolean;
  /**
   * Observe the service (docs/deploying.md): Prometheus metrics at `GET /metrics`, request ids
   * (`X-Request-Id`, echoed, in fastify's log lines), server and job spans through the OpenTelemetry API
   * (nothing without an SDK). Default true.
   */
  readonly observe?: boolean;
  /** One line per request (server.ts writes them to stdout). Default none. */
  readonly accessLog?: AccessLog;
  /**
   * The production runtime serving the app (`serve()`, `svc serve`): the queue's readiness checks (`queue`:
   * its driver answers, i.e. Redis is reachable with BullMQ; `blobs`: the blob store takes a write) are
   * added to its health. Default: none.
   */
  readonly runtime?: ServiceContext;
  /**
   * The secure mode (secure.ts, `SVC_SECURE=1 npm start`): HTTPS and HTTP/2, bearer tokens for writes,
   * the jobs resource, `/metrics` (role `metrics`) and OPTIONS; the key set at `/.well-known/jwks.json`.
   * Default none: plain HTTP, everything open.
   */
  readonly security?: ExampleSecurity;
}

/** Builds (but does not start) the example service. */
export async function createExampleApp(options: ExampleAppOptions = {}): Promise<FastifyInstance> {
  const temporary = dataDirIsTemporary(options.dataDir);
  const dataDir = exampleDataDir(options.dataDir);
  const images = new ImageStore(path.join(dataDir, 'images'));
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  const pgStore =
    options.library === undefined && databaseUrl !== undefined && databaseUrl !== ''
      ? await PgPhotoStore.open({ connectionString: databaseUrl, images })
      : undefined;
  const library = options.library ?? pgStore ?? seededLibrary(images);
  const observe = options.observe ?? true;
  const metrics = observe ? createMetrics() : undefined;
  const blobStore = options.blobStore ?? (process.env.BLOB_STORE === 'postgres' ? 'postgres' : 'files');
  if (blobStore === 'postgres' && pgStore === undefined)
    throw new Error('BLOB_STORE=postgres keeps blobs in the library database: set DATABASE_URL too');
  const queue =
    options.queue ??
    (await openExampleQueue({
      ...(blobStore === 'postgres' && pgStore !== undefined ? { blobs: pgStore.blobStore() } : {}),
      dataDir,
      observers: metrics === undefined ? [] : [tracingJobObserver(), metrics.jobObserver],
    }));
  // uploads' jobs go through the PostgreSQL store's outbox: what a previous process left unsent goes now
  if (pgStore !== undefined) await pgStore.sendJobsTo(queue);
  if (options.runtime !== undefined)
    for (const [name, check] of Object.entries(queueReadinessChecks(queue)))
      options.runtime.health.addCheck(name, check);
  if (options.runWorkers ?? queue.driver.kind === 'in-process') {
    registerPhotoProcessing(queue, { images: library.images, updates: photoUpdatesFor(library) });
    queue.start();
  }
  // request and connection timeouts (a stalled upload is answered 408 and closed), and the errors raised
  // before any plugin runs (malformed framing, unknown methods, huge headers) answered as ErrorResponses
  const { prefix: _prefix, ...svc } = options.svc ?? {};
  const security = options.security;
  const app = fastify({
    // the secure mode's server is fastify's HTTP/2 one; its routes and plugins are typed alike
    ...(security === undefined
      ? svcServerOptions(svc)
      : (svcSecureServerOptions(security.tls, svc) as unknown as ReturnType<typeof svcServerOptions>)),
    ...exampleLogging(observe, options.logLevel),
    ...options.fastify,
  });
  if (metrics !== undefined) {
    metrics.watchQueue(queue);
    // once authentication is on, the scrape needs a credential of its own (a token with the metrics role)
    if (security === undefined) app.get('/metrics', metrics.route);
    else app.get('/metrics', { onRequest: guardRoute(security.auth, { roles: ['metrics'] }) }, metrics.route);
  }
  if (security !== undefined) app.get('/.well-known/jwks.json', () => Promise.resolve(security.jwks));
  const observers = [
    ...(observe ? [requestIds(), tracingObserver()] : []),
    ...(metrics === undefined ? [] : [metrics.observer]),
    ...(options.accessLog === undefined ? [] : [options.accessLog.observer]),
  ];
  await app.register(svcPlugin, {
    // GET /openapi.json and GET /docs (svc: { openapi: false } turns them off)
    openapi: { title: 'Photo library', version: '1.0.0' },
    ...options.svc,
    observers: [...observers, ...(options.svc?.observers ?? [])],
    filters: [...(security === undefined ? [] : [security.auth.filter]), ...(options.svc?.filters ?? [])],
    resources: ((list) => (security === undefined ? list : security.secure(list)))(
      exampleService(library, {
        queue,
        ...(options.upstream === undefined ? {} : { upstream: options.upstream }),
      }),
    ),
  });
  // a queue the app opened is the app's to close (running jobs finish, or are released after 5 s)
  if (options.queue === undefined) app.addHook('onClose', () => queue.close({ timeoutMs: 5000 }));
  if (pgStore !== undefined) app.addHook('onClose', () => pgStore.close());
  if (temporary) app.addHook('onClose', () => fsp.rm(dataDir, { recursive: true, force: true }));
  return app;
}

/**
 * Request ids in fastify's log lines when observed (`fastifyRequestIdOptions`), with the logger at
 * `logLevel` when there is one: handed over as `loggerInstance`, whose children fastify makes through the
 * lazy factory (a logger given as fastify's `logger` options would have fastify check a custom child
 * factory on every request: bench/runtime-observe.bench.ts).
 */
function exampleLogging(observe: boolean, logLevel: string | undefined): FastifyServerOptions {
  const loggerInstance = logLevel === undefined ? undefined : pino({ level: logLevel });
  if (observe)
    return loggerInstance === undefined
      ? fastifyRequestIdOptions()
      : fastifyRequestIdOptions({ loggerInstance });
  return loggerInstance === undefined ? {} : { loggerInstance };
}

/** The app factory `svc serve examples/app.ts` finds: the example with its readiness checks. */
export function createApp(runtime: ServiceContext): Promise<FastifyInstance> {
  return createExampleApp({ runtime, logLevel: process.env.LOG_LEVEL ?? 'warn' });
}
