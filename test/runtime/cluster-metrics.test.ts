/**
 * Under `node:cluster`, one scrape of the primary gives the totals of every worker: a real cluster (a
 * primary and two workers in child processes) serves requests spread over both workers over fresh
 * connections, and the primary's `/metrics` counts them all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

let child: ChildProcess | undefined;
afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
});

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

it("sums every worker's requests in the primary's scrape", async () => {
  child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', path.join(__dirname, 'support/cluster-app.ts')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ports = await new Promise<{ service: number; metrics: number }>((resolve, reject) => {
    let out = '';
    child!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)) as { service: number; metrics: number });
    });
    child!.once('exit', (code) => reject(new Error(`the cluster exited with ${String(code)}`)));
  });
  for (let i = 0; i < 20; i++) {
    // a new connection each time, so that the primary hands requests to both workers
    const res = await fetch(`http://127.0.0.1:${ports.service}/photos/1`, {
      headers: { connection: 'close', 'x-svc-protocol-version': '2.0.0' },
    });
    expect(res.status).toBe(200);
    await res.text();
  }
  const res = await fetch(`http://127.0.0.1:${ports.metrics}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  // round-robin hands each worker about half: 20 is the sum of both
  expect(counted(text, '200')).toBe(20);
  // both workers answered the scrape: prom-client's process metrics are per worker, summed
  expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
}, 60_000);
