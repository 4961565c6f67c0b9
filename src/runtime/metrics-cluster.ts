import cluster, { type Worker } from 'node:cluster';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry } from 'prom-client';

/**
 * The scrape of a `node:cluster` service: the primary answers `GET /metrics` with the totals of every
 * worker (prom-client's `AggregatorRegistry` asks each worker over the cluster IPC channel; a worker's
 * registries answer once it called `createMetrics`). Counters and histograms are summed; the queue's
 * job counts are the largest (Redis jobs are shared) or summed (in-process queues); process gauges per
 * prom-client's own choice. Under `svc serve` a worker's `/metrics` route gives the same totals (answerWorkerScrapes).
 *
 * ```ts
 * if (cluster.isPrimary) {
 *   const metrics = await serveClusterMetrics({ port: 9464 });
 *   // ... fork the workers; on shutdown: await metrics.close();
 * }
 * ```
 */

/** Options of {@link serveClusterMetrics}; defaults in {@link DEFAULT_CLUSTER_METRICS_OPTIONS}. */
export interface ClusterMetricsOptions {
  /** Default 9464 (OpenTelemetry's Prometheus exporter port); 0 for any free port. */
  readonly port?: number;
  /** Default `127.0.0.1`; `0.0.0.0` to let a Prometheus on another machine scrape. */
  readonly host?: string;
  /** Default `/metrics`. */
  readonly path?: string;
}

/** The defaults of `serveClusterMetrics`: where the runner's primary serves every worker's metrics. */
export const DEFAULT_CLUSTER_METRICS_OPTIONS = Object.freeze({
  port: 9464,
  host: '127.0.0.1',
  path: '/metrics',
});

/** The primary's scrape server. */
export interface ClusterMetricsServer {
  /** The port it listens on. */
  readonly port: number;
  /** The aggregated scrape, as the server answers it. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Serves the workers' aggregated metrics from the primary of a `node:cluster` service. Call it in the
 * primary (it throws in a worker), before or after forking.
 */
export async function serveClusterMetrics(
  options: ClusterMetricsOptions = {},
): Promise<ClusterMetricsServer> {
  if (!cluster.isPrimary)
    throw new TypeError('serveClusterMetrics runs in the primary of a node:cluster service');
  const port = options.port ?? DEFAULT_CLUSTER_METRICS_OPTIONS.port;
  const host = options.host ?? DEFAULT_CLUSTER_METRICS_OPTIONS.host;
  const path = options.path ?? DEFAULT_CLUSTER_METRICS_OPTIONS.path;
  const registry = new AggregatorRegistry();
  const scrape = (): Promise<string> =>
    // with no worker alive prom-client's request never settles: answer the empty scrape instead
    Object.keys(cluster.workers ?? {}).length === 0 ? Promise.resolve('') : registry.clusterMetrics();
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) !== path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    scrape().then(
      (body) => {
        res.writeHead(200, { 'content-type': registry.contentType }).end(body);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`${(err as Error).message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    scrape,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The environment variable a runner's primary sets for its workers when it answers their scrapes
 * ({@link answerWorkerScrapes}): a worker's `createMetrics().scrape()` (its `/metrics` route) then gives
 * the whole service's totals, whichever worker the scraper's connection reached.
 */
export const CLUSTER_SCRAPE_ENV = 'SVC_CLUSTER_SCRAPE';

const SCRAPE_MESSAGE = 'svc:metrics-scrape';

interface ScrapeRequest {
  readonly svc: typeof SCRAPE_MESSAGE;
  readonly id: number;
}

interface ScrapeReply extends ScrapeRequest {
  readonly contentType?: string;
  readonly body?: string;
  readonly error?: string;
}

function isScrapeMessage(m: unknown): m is ScrapeReply {
  return typeof m === 'object' && m !== null && (m as { svc?: unknown }).svc === SCRAPE_MESSAGE;
}

/**
 * In a runner's primary: answers each worker's request for the service's scrape with every worker's totals
 * (prom-client's `AggregatorRegistry` over the cluster IPC channel) and tells the workers it forks from now
 * on to ask ({@link CLUSTER_SCRAPE_ENV}). `svc serve` / `serve()` call it; returns the stop function.
 */
export function answerWorkerScrapes(): () => void {
  const registry = new AggregatorRegistry();
  process.env[CLUSTER_SCRAPE_ENV] = 'primary';
  const onMessage = (worker: Worker, m: unknown): void => {
    if (!isScrapeMessage(m) || m.body !== undefined || m.error !== undefined) return;
    const reply = (r: Omit<ScrapeReply, 'svc' | 'id'>): void => {
      // the worker may have gone meanwhile: nobody is left to answer
      if (worker.isConnected()) worker.send({ svc: SCRAPE_MESSAGE, id: m.id, ...r } satisfies ScrapeReply);
    };
    registry.clusterMetrics().then(
      (body) => reply({ body, contentType: registry.contentType }),
      (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
    );
  };
  cluster.on('message', onMessage);
  return () => {
    cluster.off('message', onMessage);
    delete process.env[CLUSTER_SCRAPE_ENV];
  };
}

/** Whether this process is a worker whose primary answers scrapes ({@link answerWorkerScrapes}). */
export function scrapesThroughPrimary(): boolean {
  return cluster.isWorker && process.env[CLUSTER_SCRAPE_ENV] === 'primary' && process.send !== undefined;
}

/** The service's scrape is too slow to come (a worker that does not answer the primary). */
export class ClusterScrapeError extends Error {
  override readonly name = 'ClusterScrapeError';
}

let nextScrape = 0;

/**
 * In a worker: asks the primary for the whole service's scrape. Rejects with {@link ClusterScrapeError}
 * when the primary answers an error (prom-client's own deadline for a worker that does not answer) or
 * nothing within `timeoutMs`.
 */
export function scrapeThroughPrimary(
  timeoutMs = 10_000,
): Promise<{ readonly contentType: string; readonly body: string }> {
  const id = ++nextScrape;
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    const onMessage = (m: unknown): void => {
      if (!isScrapeMessage(m) || m.id !== id || (m.body === undefined && m.error === undefined)) return;
      done();
      if (m.error !== undefined) reject(new ClusterScrapeError(`the service's scrape failed: ${m.error}`));
      else
        resolve({ contentType: m.contentType ?? 'text/plain; version=0.0.4; charset=utf-8', body: m.body! });
    };
    const timer = setTimeout(() => {
      done();
      reject(new ClusterScrapeError(`the runner did not answer the scrape within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    process.on('message', onMessage);
    process.send!({ svc: SCRAPE_MESSAGE, id } satisfies ScrapeRequest);
  });
}
