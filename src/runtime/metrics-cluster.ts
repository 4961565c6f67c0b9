import cluster from 'node:cluster';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry } from 'prom-client';

/**
 * The scrape of a `node:cluster` service: the primary answers `GET /metrics` with the totals of every
 * worker (prom-client's `AggregatorRegistry` asks each worker over the cluster IPC channel; a worker's
 * registries answer once it called `createMetrics`). Counters and histograms are summed; the queue's
 * job counts are the largest (Redis jobs are shared) or summed (in-process queues); process gauges per
 * prom-client's own choice. A worker's own `/metrics` route still answers for that worker alone.
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
