import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { ErrorMode } from '../protocol';
import { createFrontDoor, installFrontDoor } from './front-door';
import { Health, type HealthOptions } from './health';
import { LoadShedder, type LoadSheddingOptions } from './load-shedding';
import { answerWorkerScrapes, serveClusterMetrics } from './metrics-cluster';
import { type RunnerOptions, isRunnerMessage, runPrimary, workerCount } from './runner';
import { GracefulShutdown, type ShutdownMode } from './shutdown';
import { StopSignals } from './stop-signals';

/**
 * Running a service in production (issue 24): `serve({ app, workers })` starts the app in this process, or
 * with `workers > 1` a runner (runner.ts) whose workers each start it, and puts health probes, load
 * shedding and graceful shutdown in front of it. `svc serve` and the example's `npm start` call it.
 *
 * ```ts
 * await serve({
 *   workers: process.env.WORKERS ?? 1,
 *   port: 8080,
 *   app: async ({ health, shutdown }) => {
 *     const queue = await openQueue();
 *     for (const [name, check] of Object.entries(queueReadinessChecks(queue))) health.addCheck(name, check);
 *     const app = fastify(svcServerOptions());
 *     await app.register(svcPlugin, { resources: [photos] });
 *     app.addHook('onClose', () => queue.close({ timeoutMs: 5000 }));
 *     return app;
 *   },
 * });
 * ```
 *
 * `serve` owns the process: it handles SIGTERM, SIGINT and SIGHUP and exits the process when the service
 * has stopped (0 after a clean shutdown). SIGHUP (its terminal closed) stops a single process as SIGTERM
 * does; the runner reloads on it, so its workers leave it to the runner.
 */

/** What the app factory gets: the seams others add to. */
export interface ServiceContext {
  /** Add readiness checks here (`health.addCheck('db', () => pool.query('select 1'))`). */
  readonly health: Health;
  /** Add steps to run at shutdown, after the requests are over and the app closed (`shutdown.addHook`). */
  readonly shutdown: GracefulShutdown;
  /** The load shedder, when on (its `stats()` are for metrics). */
  readonly shedder: LoadShedder | undefined;
  /** The cluster worker id; 0 in a single process. */
  readonly workerId: number;
}

/** What an app factory returns: a fastify instance, or anything with a `node:http` server and a close. */
export interface ServedApp {
  readonly server: Server;
  /** fastify's `listen`; without it `server.listen` is called. */
  listen?(options: { port: number; host: string }): PromiseLike<unknown>;
  /** Closes the app (fastify's `close` runs its onClose hooks: queues, stores). */
  close(): unknown;
}

/** Builds the app in a process that will serve it. */
export type AppFactory = (context: ServiceContext) => ServedApp | Promise<ServedApp>;

/** Options of {@link serve}. */
export interface ServeOptions {
  readonly app: AppFactory;
  /** Default 8080; 0 picks a free port (shared by every worker). */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Processes: a number or `auto` (one per CPU); 1 (the default) serves in this process, without a runner. */
  readonly workers?: number | string;
  /** Milliseconds in-flight requests get at shutdown before they are aborted. Default 30 000. */
  readonly shutdownTimeoutMs?: number;
  readonly health?: HealthOptions;
  /** Load shedding options, or false to turn it off. Default on with {@link DEFAULT_LOAD_SHEDDING}. */
  readonly loadShedding?: LoadSheddingOptions | false;
  /** Protocol header prefix of the front door's refusals. Default `X-Svc`. */
  readonly headerPrefix?: string;
  readonly mode?: ErrorMode;
  /**
   * With workers: also serve every worker's metrics from the runner's primary on this port (`GET /metrics`;
   * a scraper inside the cluster network, away from the service port). Default: none; each worker's own
   * `/metrics` route answers the same totals either way.
   */
  readonly metricsPort?: number;
  /** The address of {@link ServeOptions.metricsPort}. Default: `host`. */
  readonly metricsHost?: string;
  /** Restart backoff and crash-loop limits of the runner. */
  readonly runner?: Omit<RunnerOptions, 'workers' | 'onListening' | 'log'>;
  /** Called in the process the user started once the service listens (every worker, with a runner). */
  readonly onListening?: (info: ListeningInfo) => void;
  /** Where progress lines go. Default stderr. */
  readonly log?: (line: string) => void;
}

/** Where the service listens. */
export interface ListeningInfo {
  readonly host: string;
  readonly port: number;
  /** The pid to signal: this process, or the runner's. */
  readonly pid: number;
  readonly workers: number;
}

/**
 * Starts the service (see the module comment); resolves once it listens. With a runner, the primary's
 * promise resolves once every worker listens.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const workers = workerCount(options.workers ?? 1);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 8080;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (workers > 1 && cluster.isPrimary) {
    // a worker's /metrics gives the whole service's totals: the primary sums every worker's on request
    answerWorkerScrapes();
    const metricsServer =
      options.metricsPort === undefined
        ? undefined
        : await serveClusterMetrics({ port: options.metricsPort, host: options.metricsHost ?? host });
    if (metricsServer !== undefined) log(`svc runner: metrics of every worker on port ${metricsServer.port}`);
    await new Promise<void>((resolve) => {
      void runPrimary({
        // a worker gets its drain deadline and 10 s for its hooks before the runner kills it
        ...(options.shutdownTimeoutMs === undefined
          ? {}
          : { workerExitTimeoutMs: options.shutdownTimeoutMs + 10_000 }),
        ...options.runner,
        workers,
        log: (line) => log(`svc runner: ${line}`),
        onListening: (address) => {
          options.onListening?.({ host, port: address.port, pid: process.pid, workers });
          resolve();
        },
      }).then((code) => process.exit(code));
    });
    return;
  }
  const worker = cluster.isWorker;
  const name = worker ? `svc worker ${process.pid}` : 'svc';
  try {
    const info = await startService({ ...options, host, port }, (line) => log(`${name}: ${line}`));
    if (!worker) options.onListening?.({ ...info, workers: 1 });
  } catch (err) {
    if (!worker) throw err;
    // the runner counts the exit; the stack says why
    log(`${name}: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  }
}

/** Builds the runtime and the app in this process, listens, and wires signals and runner messages. */
async function startService(
  options: ServeOptions & { readonly host: string; readonly port: number },
  log: (line: string) => void,
): Promise<Omit<ListeningInfo, 'workers'>> {
  const health = new Health(options.health);
  const shutdown = new GracefulShutdown({
    ...(options.shutdownTimeoutMs === undefined ? {} : { deadlineMs: options.shutdownTimeoutMs }),
    log,
  });
  const shedder = options.loadShedding === false ? undefined : new LoadShedder(options.loadShedding);
  const context: ServiceContext = { health, shutdown, shedder, workerId: cluster.worker?.id ?? 0 };
  const app = await options.app(context);
  shutdown.onDraining(() => {
    health.setShuttingDown();
    shedder?.stop();
  });
  // the app closes first (its own onClose hooks close its queue), then what others registered
  shutdown.addHook('close the app', () => app.close(), { first: true });
  installFrontDoor(
    app.server,
    createFrontDoor({
      health,
      shutdown,
      ...(shedder === undefined ? {} : { shedder }),
      ...(options.headerPrefix === undefined ? {} : { headerPrefix: options.headerPrefix }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    }),
    shutdown,
  );
  try {
    if (typeof app.listen === 'function') await app.listen({ port: options.port, host: options.host });
    else
      await new Promise<void>((resolve, reject) => {
        app.server.once('error', reject);
        app.server.listen({ port: options.port, host: options.host }, () => {
          app.server.off('error', reject);
          resolve();
        });
      });
  } catch (err) {
    await Promise.resolve(app.close()).catch(() => undefined);
    throw err;
  }
  shedder?.start();

  const signals = new StopSignals();
  const stop = (mode: ShutdownMode, why: string): void => {
    if (shutdown.state !== 'running') return;
    signals.begin();
    log(
      `${why}: shutting down (${mode === 'reload' ? 'replaced by the runner' : 'in-flight requests finish'})`,
    );
    void shutdown.shutdown(mode).then((report) => {
      log(
        `stopped in ${Math.round(report.durationMs)} ms` +
          (report.aborted > 0 ? ` (${report.aborted} request(s) aborted at the deadline)` : ''),
      );
      process.exit(report.failedHooks.length > 0 ? 1 : 0);
    });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    const kind = signals.classify();
    // the stop under way, relayed (npm passes a terminal's Ctrl-C on to its child, which had it already)
    if (kind === 'relayed') return;
    if (kind === 'again' || shutdown.state !== 'running') {
      log(`${signal} again: exiting at once`);
      process.exit(1);
    }
    stop('stop', signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // SIGHUP's default action ends the process without its shutdown: a closed terminal (or a `kill -HUP`
  // meant for npm) left the example's temp directory and queued jobs behind. A single process stops as on
  // SIGTERM; a worker ignores it, as the terminal sends it to the runner too, which replaces its workers
  process.on('SIGHUP', cluster.isWorker ? ignoreHangup : onSignal);
  if (cluster.isWorker) {
    process.on('message', (m: unknown) => {
      if (isRunnerMessage(m)) stop(m.mode, m.mode === 'reload' ? 'reload' : 'the runner stops');
    });
    // the runner is gone (killed): nobody hands out connections any more
    process.on('disconnect', () => stop('stop', 'the runner went away'));
  }
  const address = app.server.address();
  return {
    host: options.host,
    port: typeof address === 'object' && address !== null ? address.port : options.port,
    pid: process.pid,
  };
}

/** A worker's SIGHUP: the runner's to act on (runner.ts reloads the workers). */
function ignoreHangup(): void {}
