/**
 * Under `svc serve --workers 2` one scrape gives the totals of every worker: requests spread over both
 * workers over fresh connections are all counted by the `/metrics` route of whichever worker the scrape
 * reaches (it asks the runner's primary), and by the primary's own port (`--metrics-port`,
 * `serveClusterMetrics`).
 */
import { ServiceProcess, get, killAll } from './support/service-process';

afterAll(() => killAll());

function counted(text: string, status: string): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('svc_requests_total{') &&
        l.includes('resource="photos"') &&
        l.includes('method="get"') &&
        l.includes(`status="${status}"`),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

it("sums every worker's requests in the scrape of either worker and of the runner's metrics port", async () => {
  const svc = await ServiceProcess.serve([
    '--workers',
    '2',
    '--metrics-port',
    '0',
    'test/runtime/fixtures/metrics-service.ts',
  ]);
  const [, metricsPort] = await svc.waitFor(/metrics of every worker on port (\d+)/);
  // both workers serve: fresh connections are handed out in turn (bounded)
  const pids = new Set<number>();
  for (let tries = 0; tries < 100 && pids.size < 2; tries++)
    pids.add((JSON.parse((await get(svc.port, '/pid')).body) as { pid: number }).pid);
  expect(pids.size).toBe(2);
  for (let i = 0; i < 20; i++) {
    // a new connection each time, so that the primary hands requests to both workers
    const res = await fetch(`http://127.0.0.1:${svc.port}/photos/1`, {
      headers: { connection: 'close', 'x-svc-protocol-version': '2.0.0' },
    });
    expect(res.status).toBe(200);
    await res.text();
  }
  // the service port, twice over fresh connections: whichever worker answers, the totals are the service's
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`http://127.0.0.1:${svc.port}/metrics`, { headers: { connection: 'close' } });
    expect(res.status).toBe(200);
    expect(counted(await res.text(), '200')).toBe(20);
  }
  const primary = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(primary.status).toBe(200);
  const text = await primary.text();
  expect(counted(text, '200')).toBe(20);
  // both workers answered: prom-client's process metrics are per worker, summed
  expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
  svc.signal('SIGTERM');
  expect(await svc.exited).toEqual({ code: 0, signal: null });
}, 90_000);
