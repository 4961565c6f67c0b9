/**
 * A `node:cluster` service for the cluster metrics test: the primary serves the aggregated scrape
 * (`serveClusterMetrics`) and forks two workers, each serving the example's `photos` resource with
 * `createMetrics` on one shared port. Prints `{"service":port,"metrics":port}` once both workers listen;
 * SIGTERM stops everything.
 */
import cluster from 'node:cluster';
import net from 'node:net';
import fastify from 'fastify';
import { createMetrics, serveClusterMetrics, svcPlugin } from '../../../src';
import { exampleResources } from '../../../examples/resources';
import { seededLibrary } from '../../../examples/store';

const WORKERS = 2;

async function primary(): Promise<void> {
  const scrape = await serveClusterMetrics({ port: 0 });
  let listening = 0;
  cluster.on('message', (_worker, m: { port?: number }) => {
    if (m.port === undefined) return;
    if (++listening === WORKERS)
      process.stdout.write(`${JSON.stringify({ service: m.port, metrics: scrape.port })}\n`);
  });
  // workers share a port the primary picked (a worker's listen(0) gets a handle of its own)
  const free = net.createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const shared = (free.address() as net.AddressInfo).port;
  await new Promise((resolve) => free.close(resolve));
  for (let i = 0; i < WORKERS; i++) cluster.fork({ SVC_PORT: String(shared) });
  process.once('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    void scrape.close().then(() => process.exit(0));
  });
}

async function worker(): Promise<void> {
  const metrics = createMetrics();
  const app = fastify();
  await app.register(svcPlugin, {
    resources: exampleResources(seededLibrary()),
    observers: [metrics.observer],
  });
  await app.listen({ port: Number(process.env.SVC_PORT), host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port });
}

void (cluster.isPrimary ? primary() : worker());
