/**
 * Instructions per request of the resources bench's four servers (bench/resources.bench.ts: bare
 * `node:http`, bare fastify, `svcPlugin`, `createSvcServer`), counted by valgrind's callgrind over HTTP: the
 * same cases (a get by id, a batch_get of 10, a finder page of 10) served by the same server processes,
 * each run under callgrind with counting off, driven over keep-alive connections until its code is
 * optimized, then counted over the next requests. Only the server's main thread is counted (where the
 * request path runs; libuv's threads and V8's compiler threads are not). Then the same for the observers
 * that bench/runtime-observe holds to a goal (metrics, the tracing API, the access log on both servers),
 * each against the same app with nothing observed.
 *
 * Why beside requests/s: on this machine requests/s ratios of the same two builds move by 10-20% from run
 * to run and from process to process (bench/resources.bench.ts `PROCESSES`), while a count of instructions
 * repeats within ~1-2%. It is the request path's work, not its speed: it does not see cache misses (a larger
 * working set costs time at the same count), so it is printed as a ratio beside the goals' requests/s,
 * never as their verdict.
 *
 * Needs valgrind (Debian: `apt-get install valgrind`); without it the suite says so and measures nothing.
 * Two servers are counted at a time (one per core); the whole file takes ~6 minutes here.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { BenchFile, Fact, FactRatio, Suite } from './harness';
import {
  APPS,
  type App,
  CASES,
  type Case,
  LABELS,
  checkSameAnswers,
  getText,
  pathOf,
} from './resources.bench';
import { stopServer, stopServersWhenStopped } from './process-role';

/** Requests before counting: enough for V8 to have optimized the path (its compiler runs slowly under valgrind). */
const WARM_REQUESTS = 12_000;
/** Requests counted. */
const COUNTED_REQUESTS = 3_000;
/** Concurrent keep-alive connections of the driver. */
const CONNECTIONS = 4;
/** Servers counted at once. */
const PARALLEL = 2;

const RESOURCES_BENCH = path.join(__dirname, 'resources.bench.ts');
const OBSERVE_BENCH = path.join(__dirname, 'runtime-observe.bench.ts');

/**
 * bench/runtime-observe's variants counted here, each against the same app with nothing observed: the ones
 * with a goal there (its requests/s goals: metrics and tracing ≥ 0.95×, the access logs ≥ 0.85×).
 */
const OBSERVED_VARIANTS = ['metrics', 'tracing-api', 'access-log', 'access-log-standalone'] as const;
type ObservedVariant = (typeof OBSERVED_VARIANTS)[number];
/** What bench/runtime-observe asks for. */
const OBSERVED_PATH = '/photos/3';

const resourcesKey = (app: App, c: Case): string => `${app} ${c.name}`;
const observeKey = (variant: ObservedVariant, anchor: boolean): string =>
  `${variant} ${anchor ? 'unobserved' : 'observed'}`;

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** A server process to count: a bench file's `--server` role, its arguments and environment. */
interface ServerSpec {
  readonly script: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** What it serves and is counted on. */
  readonly path: string;
}

/** An app of bench/resources.bench.ts. */
function resourcesServer(app: App, c: Case, env: NodeJS.ProcessEnv): ServerSpec {
  return { script: RESOURCES_BENCH, args: [], env: { ...env, SVC_BENCH_APP: app }, path: pathOf(app, c) };
}

/** A variant of bench/runtime-observe.bench.ts: the observed app, or its unobserved anchor. */
function observeServer(variant: ObservedVariant, anchor: boolean): ServerSpec {
  return {
    script: OBSERVE_BENCH,
    args: [`--variant=${variant}`, ...(anchor ? ['--app=anchor'] : [])],
    env: {},
    path: OBSERVED_PATH,
  };
}

/** Starts a server, under callgrind when `outFile` is given. */
function startServer(
  spec: ServerSpec,
  outFile?: string,
): { readonly child: ChildProcess; readonly port: Promise<number> } {
  const node = [process.execPath, '-r', '@swc-node/register', spec.script, '--server', ...spec.args];
  const [cmd, ...args] =
    outFile === undefined
      ? node
      : [
          'valgrind',
          '--tool=callgrind',
          '--instr-atstart=no',
          '--separate-threads=yes',
          `--callgrind-out-file=${outFile}`,
          ...node,
        ];
  const child = spawn(cmd!, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, ...spec.env },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    // valgrind's own lines (==pid==) are its banner and summary, not the server's
    for (const line of d.toString().split('\n'))
      if (line !== '' && !line.startsWith('==')) stderr += `${line}\n`;
  });
  const port = new Promise<number>((resolve, reject) => {
    // bench/resources sends its port, bench/runtime-observe `{ port }`
    child.once('message', (m) => resolve(typeof m === 'number' ? m : (m as { port: number }).port));
    child.once('exit', (code) =>
      reject(new Error(`bench server ${spec.args.join(' ')} exited with ${String(code)}\n${stderr}`)),
    );
  });
  return { child, port };
}

/**
 * Sends `count` GETs of `urlPath` over the agent's keep-alive connections; throws on a non-2xx answer. The
 * counted requests go over the connections the warmup opened: four new connections at the count's start
 * added ~30k instructions a request to a get by id of ~64k, over 3 000 requests (a connection's setup and
 * first requests, which the resources bench's runs of 1 s, ~250-5 000 requests per connection, dilute).
 */
async function drive(agent: http.Agent, port: number, urlPath: string, count: number): Promise<void> {
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port, path: urlPath, agent, headers: { 'x-svc-protocol-version': '2.0.0' } },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode! < 300 ? resolve() : reject(new Error(`${urlPath}: status ${res.statusCode}`)),
            );
          },
        )
        .on('error', reject);
    });
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < count) await one();
    }),
  );
}

/** Runs `callgrind_control <args> <pid>` (`-i on`: counting on; `-d`: a dump of the counts so far). */
function callgrindControl(args: readonly string[], pid: number): void {
  const r = spawnSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`callgrind_control ${args.join(' ')} ${pid} failed: ${r.stderr}`);
}

/** The instructions the server's main thread ran per counted request (from the dump's summary). */
function instructionsPerRequest(dir: string, base: string, pid: number): number {
  // the dump asked for is part 1; the main thread's file ends in -01
  const file = path.join(dir, `${base}.${pid}.1-01`);
  const text = fs.readFileSync(file, 'utf8');
  const m = /^(?:summary|totals): (\d+)/m.exec(text);
  if (m === null) throw new Error(`no instruction count in ${file}`);
  return Number(m[1]) / COUNTED_REQUESTS;
}

/** Counts one server's instructions per request (`base`: the name of its dump files). */
async function count(spec: ServerSpec, base: string, dir: string, live: Set<ChildProcess>): Promise<number> {
  const server = startServer(spec, path.join(dir, `${base}.%p`));
  live.add(server.child);
  try {
    const port = await server.port;
    const pid = server.child.pid!;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    try {
      await drive(agent, port, spec.path, WARM_REQUESTS);
      callgrindControl(['-i', 'on'], pid);
      await drive(agent, port, spec.path, COUNTED_REQUESTS);
      callgrindControl(['-d'], pid);
    } finally {
      agent.destroy();
    }
    return instructionsPerRequest(dir, base, pid);
  } finally {
    await stop(server.child, live);
  }
}

/** Stops a server (bench/process-role.ts `stopServer`) and forgets it. */
async function stop(child: ChildProcess, live: Set<ChildProcess>): Promise<void> {
  await stopServer(child);
  live.delete(child);
}

async function measure(): Promise<Map<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-instructions-'));
  const live = new Set<ChildProcess>();
  stopServersWhenStopped(live);
  try {
    // the bare servers send the finder's paging links as the service does (as in bench/resources)
    const probe = startServer(resourcesServer('standalone', CASES[2]!, {}));
    live.add(probe.child);
    const finderAnswer = await getText(await probe.port, CASES[2]!.svcPath);
    await stop(probe.child, live);
    const env = (app: App): NodeJS.ProcessEnv =>
      app === 'node' || app === 'fastify' ? { SVC_BENCH_FINDER_ANSWER: finderAnswer } : {};
    // the same answers from every app, before any is counted
    const servers = APPS.map((app) => ({ app, ...startServer(resourcesServer(app, CASES[0]!, env(app))) }));
    for (const s of servers) live.add(s.child);
    const ports = Object.fromEntries(await Promise.all(servers.map(async (s) => [s.app, await s.port])));
    try {
      await checkSameAnswers(CASES, (app, c) => getText(ports[app] as number, pathOf(app, c)));
    } finally {
      await Promise.all(servers.map((s) => stop(s.child, live)));
    }
    const jobs: Array<{ readonly key: string; readonly spec: ServerSpec }> = [
      ...CASES.flatMap((c) =>
        APPS.map((app) => ({ key: resourcesKey(app, c), spec: resourcesServer(app, c, env(app)) })),
      ),
      ...OBSERVED_VARIANTS.flatMap((variant) =>
        [false, true].map((anchor) => ({
          key: observeKey(variant, anchor),
          spec: observeServer(variant, anchor),
        })),
      ),
    ];
    const counts = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < jobs.length) {
          const i = next++;
          const { key, spec } = jobs[i]!;
          counts.set(key, await count(spec, `cg-${i}`, dir, live));
        }
      }),
    );
    return counts;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function suites(): Suite[] {
  if (!has('valgrind') || !has('callgrind_control')) {
    return [
      {
        title: 'Instructions per request over HTTP (callgrind)',
        short: 'instructions',
        facts: [],
        notes: ['valgrind is not installed (Debian: apt-get install valgrind): nothing measured'],
      },
    ];
  }
  // the harness measures synchronous functions: the servers are counted in a child process of this file
  const out = spawnSync(process.execPath, ['-r', '@swc-node/register', __filename, '--measure'], {
    encoding: 'utf8',
    timeout: 20 * 60 * 1000,
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0)
    throw new Error(`instructions bench failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const counts = new Map(JSON.parse(lines[lines.length - 1]!) as Array<[string, number]>);
  const note = `${WARM_REQUESTS} requests to warm up, ${COUNTED_REQUESTS} counted, ${CONNECTIONS} keep-alive connections; a ratio above 1 is fewer instructions than the anchor's. Work, not speed: requests/s also pays cache misses, which this count does not see`;
  const resources = CASES.map((c): Suite => {
    const label = (app: App): string => `${LABELS[app]} instructions per request`;
    const facts: Fact[] = APPS.map((app) => ({
      label: label(app),
      value: counts.get(resourcesKey(app, c))!,
      unit: 'instr',
    }));
    // as a throughput ratio (fewer instructions, more requests): the anchor's count over the server's
    const ratio = (name: string, x: App, y: App): FactRatio => ({ name, of: label(y), to: label(x) });
    return {
      title: `Instructions per request over HTTP (callgrind, main thread), ${c.name}: the svc servers vs bare node:http and bare fastify`,
      short: `instructions ${c.name}`,
      facts,
      ratios: [
        ratio('instructions bare node / createSvcServer', 'standalone', 'node'),
        ratio('instructions bare node / svcPlugin', 'plugin', 'node'),
        ratio('instructions bare fastify / svcPlugin', 'plugin', 'fastify'),
      ],
      notes: [`${note} (bench/resources)`],
    };
  });
  const label = (variant: ObservedVariant, anchor: boolean): string =>
    `${variant}: ${anchor ? 'nothing observed' : 'observed'}, instructions per request`;
  const observing: Suite = {
    title:
      'Instructions per request over HTTP (callgrind, main thread), GET /photos/3: each observer of bench/runtime-observe vs the same app with nothing observed',
    short: 'instructions observing',
    facts: OBSERVED_VARIANTS.flatMap((variant) =>
      [true, false].map((anchor): Fact => ({
        label: label(variant, anchor),
        value: counts.get(observeKey(variant, anchor))!,
        unit: 'instr',
      })),
    ),
    ratios: OBSERVED_VARIANTS.map((variant): FactRatio => ({
      name: `instructions nothing observed / ${variant}`,
      of: label(variant, true),
      to: label(variant, false),
    })),
    notes: [`${note} (bench/runtime-observe)`],
  };
  return [...resources, observing];
}

export const benchmark: BenchFile = {
  title:
    'Instructions per request over HTTP (callgrind): get by id, batch_get of 10 and a finder page of 10 through createSvcServer and svcPlugin vs bare node:http and bare fastify; the observers of bench/runtime-observe vs none',
  suites,
};

if (require.main === module && process.argv.includes('--measure')) {
  measure().then(
    (counts) => process.stdout.write(`${JSON.stringify([...counts])}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
