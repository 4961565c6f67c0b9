/**
 * The resource server over HTTP against a bare fastify route returning the same JSON, with autocannon, in the
 * same run: a get by id (`GET /photos/3` vs `GET /bare/photos/3`) and a batch_get of 10
 * (`GET /photos?ids=List(1,...,10)` vs `GET /bare/photos?ids=1,...,10`), at 10 and 100 connections.
 *
 * Goals (the issue's): the framework at ≥ 0.80× the bare route's requests/s, and its p99 latency within
 * 1.5× the bare route's. Measured, never asserted: the verdicts are printed as notes.
 *
 * How: the harness measures synchronous functions, so this file runs the load test in child processes and
 * reports the results as facts. `suites()` spawns this file as a *driver* (`--driver`), which forks a
 * *server* process (`--server`) holding both apps (the example service's `photos` resource through
 * `svcPlugin`, and the bare route, each on its own port), then drives them with autocannon from its own
 * process (one core each on a 2-core machine). Each case runs in two rounds with the order of the two apps
 * swapped, after a short warmup; requests/s and p99 are the means of the rounds.
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type * as FastifyModule from 'fastify';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as StoreModule from '../examples/store';
import type * as PhotoModule from '../examples/src/main/generated/com/example/photos/Photo';
import type * as PhotoFormatModule from '../examples/src/main/generated/com/example/photos/PhotoFormat';
import type { BenchFile, Fact, Suite } from './harness';
import { roleFromFlags, runRole } from './process-role';

/** Seconds per measured run, and of warmup per case. */
const RUN_SECONDS = 2;
const WARMUP_SECONDS = 0.5;
const ROUNDS = 2;
const CONNECTIONS = [10, 100] as const;
const BATCH = 10;

interface Case {
  readonly name: string;
  readonly svcPath: string;
  readonly barePath: string;
}

const CASES: readonly Case[] = [
  { name: 'get by id', svcPath: '/photos/3', barePath: '/bare/photos/3' },
  {
    name: `batch_get of ${BATCH}`,
    svcPath: `/photos?ids=List(${Array.from({ length: BATCH }, (_, i) => i + 1).join(',')})`,
    barePath: `/bare/photos?ids=${Array.from({ length: BATCH }, (_, i) => i + 1).join(',')}`,
  },
];

interface Measured {
  readonly rps: number;
  /** Milliseconds (autocannon's histogram has 1 ms resolution). */
  readonly p99: number;
  /** Mean latency, milliseconds (not rounded). */
  readonly mean: number;
  readonly non2xx: number;
  readonly errors: number;
}

interface DriverResult {
  readonly case: string;
  readonly connections: number;
  readonly svc: Measured;
  readonly bare: Measured;
}

// ---------------------------------------------------------------------------------------------------------
// Server process: both apps

async function runServer(): Promise<void> {
  // loaded here, not at the top: the example's generated classes must not be registered in the bench runner's
  // process, where other benchmarks load the fixture tree's classes of the same names
  const load = createRequire(__filename);
  const fastify = (load('fastify') as typeof FastifyModule).default;
  const { Data } = load('../src') as typeof SvcModule;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const { seededLibrary } = load('../examples/store') as typeof StoreModule;
  const { Photo } = load('../examples/src/main/generated/com/example/photos/Photo') as typeof PhotoModule;
  const { PhotoFormat } = load(
    '../examples/src/main/generated/com/example/photos/PhotoFormat',
  ) as typeof PhotoFormatModule;

  const library = seededLibrary();
  for (let i = 7; i <= 12; i++)
    library.addPhoto(
      new Photo()
        .setTitle(`Photo ${i}`)
        .setFormat(PhotoFormat.PNG)
        .setTakenAt(1_700_000_000_000 + i),
    );
  const svc = await createExampleApp({ library });

  // the bare route: the same photos as plain objects, the same JSON out
  const plain = new Map<string, unknown>();
  for (const p of library.listPhotos()) plain.set(String(p.getId()), Data.toJS(p.data()));
  const bare = fastify();
  bare.get<{ Params: { id: string } }>('/bare/photos/:id', (request, reply) => {
    const photo = plain.get(String(Number(request.params.id)));
    if (photo === undefined) return reply.code(404).send({ status: 404 });
    return reply.send(photo);
  });
  bare.get<{ Querystring: { ids?: string } }>('/bare/photos', (request, reply) => {
    const results: Record<string, unknown> = {};
    for (const id of (request.query.ids ?? '').split(',')) {
      const photo = plain.get(String(Number(id)));
      if (photo !== undefined) results[id] = photo;
    }
    return reply.send({ results, statuses: {}, errors: {} });
  });

  await svc.listen({ port: 0, host: '127.0.0.1' });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const port = (app: { server: { address(): unknown } }): number =>
    (app.server.address() as { port: number }).port;
  process.send!({ svc: port(svc), bare: port(bare) });
  process.on('message', (m) => {
    if (m === 'stop') void Promise.all([svc.close(), bare.close()]).then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------------------------------------------------
// Driver process: autocannon against the server process

interface AutocannonResult {
  /** Seconds. */
  readonly duration: number;
  readonly requests: { readonly total: number };
  /** Milliseconds. */
  readonly latency: { readonly p99: number; readonly mean: number };
  readonly non2xx: number;
  readonly errors: number;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

async function runDriver(): Promise<void> {
  // autocannon ships no types: its one call is typed here
  const autocannon = createRequire(__filename)('autocannon') as Autocannon;
  const server: ChildProcess = fork(__filename, ['--server'], {
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ports = await new Promise<{ svc: number; bare: number }>((resolve, reject) => {
    server.once('message', (m) => resolve(m as { svc: number; bare: number }));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${String(code)}`)));
  });
  const run = async (url: string, connections: number, duration: number): Promise<Measured> => {
    const r = await autocannon({
      url,
      connections,
      duration,
      pipelining: 1,
      headers: { 'x-svc-protocol-version': '2.0.0' },
    });
    return {
      rps: r.requests.total / r.duration,
      p99: r.latency.p99,
      mean: r.latency.mean,
      non2xx: r.non2xx,
      errors: r.errors,
    };
  };
  const results: DriverResult[] = [];
  try {
    for (const connections of CONNECTIONS) {
      for (const c of CASES) {
        const svcUrl = `http://127.0.0.1:${ports.svc}${c.svcPath}`;
        const bareUrl = `http://127.0.0.1:${ports.bare}${c.barePath}`;
        await run(bareUrl, connections, WARMUP_SECONDS);
        await run(svcUrl, connections, WARMUP_SECONDS);
        const svc: Measured[] = [];
        const bare: Measured[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const first = round % 2 === 0 ? 'bare' : 'svc';
          for (const which of first === 'bare' ? (['bare', 'svc'] as const) : (['svc', 'bare'] as const)) {
            (which === 'svc' ? svc : bare).push(
              await run(which === 'svc' ? svcUrl : bareUrl, connections, RUN_SECONDS),
            );
          }
        }
        const mean = (xs: Measured[]): Measured => ({
          rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
          p99: xs.reduce((s, x) => s + x.p99, 0) / xs.length,
          mean: xs.reduce((s, x) => s + x.mean, 0) / xs.length,
          non2xx: xs.reduce((s, x) => s + x.non2xx, 0),
          errors: xs.reduce((s, x) => s + x.errors, 0),
        });
        results.push({ case: c.name, connections, svc: mean(svc), bare: mean(bare) });
      }
    }
  } finally {
    server.send('stop');
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark file: facts from the driver

function suites(): Suite[] {
  const budget =
    (CONNECTIONS.length * CASES.length * (2 * WARMUP_SECONDS + 2 * ROUNDS * RUN_SECONDS) + 30) * 1000;
  const out = spawnSync(process.execPath, ['-r', '@swc-node/register', __filename, '--driver'], {
    encoding: 'utf8',
    timeout: budget,
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0)
    throw new Error(`resources bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const results = JSON.parse(lines[lines.length - 1]!) as DriverResult[];
  return results.map((r): Suite => {
    const rpsRatio = r.svc.rps / r.bare.rps;
    const p99Ratio = r.bare.p99 > 0 ? r.svc.p99 / r.bare.p99 : Number.NaN;
    // with 1 ms resolution, a p99 below 1.5 ms is "within 1.5×" of a sub-millisecond one
    const p99Meets = r.svc.p99 <= Math.max(1.5 * r.bare.p99, 1);
    const facts: Fact[] = [
      { label: 'svcPlugin requests/s', value: r.svc.rps, unit: 'req/s' },
      { label: 'bare fastify requests/s', value: r.bare.rps, unit: 'req/s' },
      { label: 'svcPlugin p99 latency', value: r.svc.p99 * 1000, unit: 'µs' },
      { label: 'bare fastify p99 latency', value: r.bare.p99 * 1000, unit: 'µs' },
      { label: 'svcPlugin mean latency', value: r.svc.mean * 1000, unit: 'µs' },
      { label: 'bare fastify mean latency', value: r.bare.mean * 1000, unit: 'µs' },
    ];
    const verdict = (ok: boolean): string => (ok ? 'meets' : 'misses');
    const notes = [
      `${ROUNDS} rounds × ${RUN_SECONDS} s per app (order swapped each round) after ${WARMUP_SECONDS} s warmup; autocannon in its own process`,
      `goal: svcPlugin ≥ 0.80× bare fastify requests/s: ${verdict(rpsRatio >= 0.8)} at ${rpsRatio.toFixed(2)}×`,
      `goal: svcPlugin p99 ≤ 1.50× bare fastify p99: ${verdict(p99Meets)} at ${r.svc.p99.toFixed(2)} ms vs ${r.bare.p99.toFixed(2)} ms` +
        (Number.isNaN(p99Ratio) ? '' : ` (${p99Ratio.toFixed(2)}×)`) +
        " (autocannon's histogram has 1 ms resolution: a p99 up to 1 ms counts as within)",
      'mean latency is the mean of that 1 ms histogram: meaningful at 100 connections, not at 10',
    ];
    if (r.svc.non2xx + r.svc.errors + r.bare.non2xx + r.bare.errors > 0) {
      notes.push(
        `non-2xx or errors: svcPlugin ${r.svc.non2xx}/${r.svc.errors}, bare ${r.bare.non2xx}/${r.bare.errors}`,
      );
    }
    return {
      title: `HTTP ${r.case}, ${r.connections} connections: svcPlugin vs a bare fastify route (same JSON)`,
      short: `${r.case} @${r.connections}`,
      facts,
      ratios: [
        { name: 'requests/s svcPlugin / bare', of: 'svcPlugin requests/s', to: 'bare fastify requests/s' },
        {
          name: 'mean latency svcPlugin / bare',
          of: 'svcPlugin mean latency',
          to: 'bare fastify mean latency',
        },
      ],
      notes,
    };
  });
}

export const benchmark: BenchFile = {
  title:
    'Resource server over HTTP (autocannon): get by id and batch_get of 10 through svcPlugin vs a bare fastify route returning the same JSON',
  suites,
};

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
