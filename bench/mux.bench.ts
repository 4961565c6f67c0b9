/**
 * Multiplexed requests (`POST /mux`, src/server/mux.ts): N gets of the example's photos in one envelope vs
 * the same N gets as N requests, end to end over loopback (client and server in one process, the example
 * app on fastify).
 *
 * Tasks, each a batch of N = 10 gets: `separate` sends them one after another (one connection, keep-alive);
 * `parallel` sends them at once (N requests in flight); `mux` sends one envelope (`muxDescriptions`). Facts:
 * batches per second; ratios mux / separate and mux / parallel. No goal: the figures say when a client
 * gains from multiplexing (round trips saved vs the envelope's extra encode and decode).
 *
 * How: the harness times synchronous functions and these await, so `suites()` runs this file as a driver
 * (`--driver`) in its own process and reports its JSON as facts (measured, never asserted).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as StoreModule from '../examples/store';
import type { BenchFile, Suite } from './harness';

const N = 10;
const ROUNDS = 3;
const SECONDS = 1.5;
const WARMUP_SECONDS = 0.4;

interface DriverResult {
  readonly separate: number[];
  readonly parallel: number[];
  readonly mux: number[];
  readonly envelopeBytes: number;
}

async function rate(task: () => Promise<unknown>, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    await task();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

async function runDriver(): Promise<void> {
  const load = createRequire(__filename);
  const svc = load('../src') as typeof SvcModule;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const { seededLibrary } = load('../examples/store') as typeof StoreModule;
  const app = await createExampleApp({ library: seededLibrary(), fastify: { logger: false } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const client = svc.createClient({ baseUrl });
  const descs = Array.from(
    { length: N },
    (_, i) => ({ method: 'get', resource: 'photos', key: (i % 3) + 1 }) as const,
  );
  const check = (outcomes: readonly { ok: boolean }[]): void => {
    if (!outcomes.every((o) => o.ok)) throw new Error('a multiplexed get failed');
  };
  check(await svc.muxDescriptions(client, descs));
  const tasks = {
    separate: async () => {
      for (const d of descs) await client.send(d);
    },
    parallel: () => Promise.all(descs.map((d) => client.send(d))),
    mux: () => svc.muxDescriptions(client, descs),
  };
  for (const t of Object.values(tasks)) await rate(t, WARMUP_SECONDS);
  const out: { separate: number[]; parallel: number[]; mux: number[] } = {
    separate: [],
    parallel: [],
    mux: [],
  };
  const names = ['separate', 'parallel', 'mux'] as const;
  for (let r = 0; r < ROUNDS; r++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length]!;
      out[name].push(await rate(tasks[name], SECONDS));
    }
  // the size of one answered envelope, for the record
  const raw = await fetch(`${baseUrl}/mux`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
    body: JSON.stringify({
      requests: Object.fromEntries(
        descs.map((d, i) => [String(i), { method: 'GET', relativeUrl: `/photos/${d.key}` }]),
      ),
    }),
  });
  const envelopeBytes = (await raw.arrayBuffer()).byteLength;
  await app.close();
  process.stdout.write(`${JSON.stringify({ ...out, envelopeBytes } satisfies DriverResult)}\n`);
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function suites(): Suite[] {
  const budget = (3 * (WARMUP_SECONDS + ROUNDS * SECONDS) + 60) * 1000;
  const out = spawnSync(process.execPath, ['-r', '@swc-node/register', __filename, '--driver'], {
    encoding: 'utf8',
    timeout: budget,
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0)
    throw new Error(`mux bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const r = JSON.parse(lines[lines.length - 1]!) as DriverResult;
  const span = (a: readonly number[], b: readonly number[]): string => {
    const ratios = a.map((x, i) => x / b[i]!);
    return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  };
  return [
    {
      title: `${N} gets of the example's photos: one /mux envelope vs ${N} requests (HTTP on loopback)`,
      short: `${N} gets: mux vs separate requests`,
      facts: [
        { label: 'separate (one after another)', value: mean(r.separate), unit: 'batches/s' },
        { label: `parallel (${N} in flight)`, value: mean(r.parallel), unit: 'batches/s' },
        { label: 'mux (one envelope)', value: mean(r.mux), unit: 'batches/s' },
        { label: 'answered envelope', value: r.envelopeBytes, unit: 'bytes' },
      ],
      ratios: [
        { name: 'mux / separate', of: 'mux (one envelope)', to: 'separate (one after another)' },
        { name: 'mux / parallel', of: 'mux (one envelope)', to: `parallel (${N} in flight)` },
      ],
      notes: [
        `${ROUNDS} rounds × ${SECONDS} s per task (order rotated) after ${WARMUP_SECONDS} s warmup each; client and server in one process`,
        `rounds: mux / separate ${span(r.mux, r.separate)}, mux / parallel ${span(r.mux, r.parallel)}`,
      ],
    },
  ];
}

if (require.main === module && process.argv.includes('--driver')) {
  runDriver().catch((err: unknown) => {
    process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
    process.exit(1);
  });
}

export const benchmark: BenchFile = {
  title: `Multiplexed requests: ${N} gets in one /mux envelope vs ${N} separate requests`,
  suites,
};
