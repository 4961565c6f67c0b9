import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * The HTTP benchmarks' load generators: wrk (Debian's `wrk`, one thread, a child process) when it is
 * installed, autocannon (in the caller's process) otherwise, and h2load (Debian's `nghttp2-client`) for the
 * paced runs of {@link runPaced}. All run on the caller's core (the drivers are pinned to the core the
 * servers are not on).
 *
 * Why wrk first: one autocannon process sends at most ~30 000 gets/s on this machine's cores, where a bare
 * `node:http` or fastify server answers ~50 000: the servers waited for autocannon, requests/s measured
 * autocannon as much as the server, and a lighter server could not show it (the bare servers' lead over the
 * svc servers was squeezed towards 1.0×). wrk (C, epoll) drives the same servers to a busy core: the server
 * processes' CPU time was 0.99-1.03 of the run's wall time in every case at 10 and 100 connections
 * (`/proc` of the server, 3 s runs, 2026-11-29), so requests/s is the server's own limit.
 * `SVC_BENCH_LOAD=autocannon` picks autocannon even when wrk is there.
 */

export type LoadGeneratorName = 'wrk' | 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  /** Seconds; wrk counts whole ones (a shorter run takes 1 s). */
  readonly seconds: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Paths on the url's server sent in turn, request by request, instead of the url's own (warm-ups). */
  readonly paths?: readonly string[];
}

export interface LoadRun {
  /** Responses received. */
  readonly requests: number;
  /** The run's length, seconds. */
  readonly seconds: number;
  /** The 99th percentile and the mean of the responses' times, ms (each response timed to the µs). */
  readonly p99: number;
  readonly mean: number;
  /** Responses other than 2xx (wrk: other than 2xx or 3xx). */
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
}

let chosen: LoadGeneratorName | undefined;

/** The load generator this machine has (see the module comment); looked up once. */
export function loadGenerator(): LoadGeneratorName {
  if (chosen === undefined) {
    const wanted = process.env.SVC_BENCH_LOAD;
    if (wanted !== undefined && wanted !== 'wrk' && wanted !== 'autocannon')
      throw new Error(`SVC_BENCH_LOAD must be wrk or autocannon, not '${wanted}'`);
    const hasWrk =
      wanted !== 'autocannon' && spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
    if (wanted === 'wrk' && !hasWrk)
      throw new Error('SVC_BENCH_LOAD=wrk, but wrk is not installed (apt-get install wrk)');
    chosen = hasWrk ? 'wrk' : 'autocannon';
  }
  return chosen;
}

/** A note for the benchmarks' output: which generator drove the servers, and what the other would mean. */
export function loadGeneratorNote(): string {
  return loadGenerator() === 'wrk'
    ? "load generator: wrk, one thread (it keeps the server busy: requests/s is the server's limit)"
    : `load generator: autocannon (${process.env.SVC_BENCH_LOAD === 'autocannon' ? 'SVC_BENCH_LOAD' : 'wrk is not installed: apt-get install wrk'}): one autocannon process sends ~30 000 gets/s, near the bare servers' limit, which squeezes their lead in requests/s`;
}

/** One run of `options.seconds` against `options.url`. */
export function runLoad(options: LoadOptions): Promise<LoadRun> {
  return loadGenerator() === 'wrk' ? runWrk(options) : runAutocannon(options);
}

/** A run's length as wrk and h2load take it: whole seconds, at least one. */
function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.round(seconds));
}

const WRK_REPORT = path.join(__dirname, 'wrk-report.lua');
const WRK_LINE = /^SVC-WRK (\{.*\})$/m;

interface WrkReport {
  readonly requests: number;
  readonly durationUs: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly status: number;
  readonly connect: number;
  readonly read: number;
  readonly write: number;
  readonly timeout: number;
}

async function runWrk(options: LoadOptions): Promise<LoadRun> {
  const args = [
    '-t1',
    `-c${options.connections}`,
    `-d${wholeSeconds(options.seconds)}s`,
    '--timeout',
    '10s',
    '-s',
    WRK_REPORT,
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  // the report script sends these paths in turn (a `request` function of its own)
  const env =
    options.paths === undefined ? process.env : { ...process.env, SVC_WRK_PATHS: options.paths.join('\n') };
  const { code, out, err, command } = await runCommand('wrk', args, env);
  const line = WRK_LINE.exec(out);
  if (code !== 0 || line === null) throw new Error(`${command} exited with ${String(code)}:\n${out}${err}`);
  const r = JSON.parse(line[1]!) as WrkReport;
  return {
    requests: r.requests,
    seconds: r.durationUs / 1e6,
    p99: r.p99Us / 1000,
    mean: r.meanUs / 1000,
    non2xx: r.status,
    errors: r.connect + r.read + r.write + r.timeout,
  };
}

/** A load generator's run as a child process: its exit code, its stdout and stderr, and the command (for errors). */
function runCommand(
  command: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
  readonly command: string;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err, command: `${command} ${argv.join(' ')}` }));
  });
}

interface AutocannonResult {
  /** Seconds. */
  readonly duration: number;
  readonly requests: { readonly total: number };
  /** Milliseconds. */
  readonly latency: { readonly p99: number; readonly mean: number };
  readonly non2xx: number;
  readonly errors: number;
}

/** autocannon's callback form, which answers its run as an emitter of each response. */
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    pipelining?: number;
    headers?: Record<string, string>;
    /** Requests sent in turn (each one's path). */
    requests?: Array<{ path: string }>;
  },
  done: (err: Error | null, result: AutocannonResult) => void,
) => {
  /** `ms`: the response's time from its request's write, from `process.hrtime` (not rounded). */
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ): unknown;
};

/**
 * The 99th percentile (nearest rank) of `ms`. Why not autocannon's own p99: its histogram keeps whole
 * milliseconds, where the servers' p99 at 10 connections is a fraction of one (0 or 1 ms readings left the
 * p99 goal undecided in most runs until 2026-11-29); each response's own time is kept to the µs.
 */
export function percentile99(ms: Float64Array): number {
  if (ms.length === 0) return NaN;
  const sorted = ms.slice().sort();
  return sorted[Math.max(0, Math.ceil(0.99 * sorted.length) - 1)]!;
}

async function runAutocannon(options: LoadOptions): Promise<LoadRun> {
  // autocannon ships no types: its one call is typed here
  const autocannon = createRequire(__filename)('autocannon') as Autocannon;
  // each response's time, in a buffer grown by doubling (a run of 1 s is ~10 000-60 000 responses); the
  // listener is ~0.1 µs of the ~20-30 µs autocannon's process spends per request, the same for every app
  let times = new Float64Array(1 << 16);
  let n = 0;
  const r = await new Promise<AutocannonResult>((resolve, reject) => {
    const run = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        pipelining: 1,
        headers: { ...options.headers },
        ...(options.paths === undefined ? {} : { requests: options.paths.map((p) => ({ path: p })) }),
      },
      (err, result) => (err === null ? resolve(result) : reject(err)),
    );
    run.on('response', (_client, _status, _bytes, ms) => {
      if (n === times.length) {
        const grown = new Float64Array(2 * n);
        grown.set(times);
        times = grown;
      }
      times[n++] = ms;
    });
  });
  const answered = times.subarray(0, n);
  return {
    requests: r.requests.total,
    seconds: r.duration,
    p99: n === 0 ? r.latency.p99 : percentile99(answered),
    mean: n === 0 ? r.latency.mean : answered.reduce((sum, t) => sum + t, 0) / n,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** Requests per path and connection set of a warm-up's counted runs ({@link warmUp}). */
const WARM_UP_REQUESTS = 3000;

/**
 * Brings a fresh server process to the state the measured runs should find it in, before any of them: every
 * path served under each load generator the runs use, and connections opened and closed several times.
 * Why: a process's first connections closing changed the maps of objects Node's request path keeps (its
 * readable streams), and the next run's first requests deoptimized Node's functions and the server's own
 * that had seen only the old ones, then optimized them again, within that run: a bare node:http, bare
 * fastify, svcPlugin and createSvcServer process each did, in the run after their first (`--trace-deopt`,
 * 2 s runs of a get by id: 11-28 deoptimizations, 34-88 optimizations, then none); a bench that measured
 * each process once after a single warm-up run measured that (the first case of a run of the resources
 * bench put svcPlugin at 0.68x bare fastify, its six rounds 0.62-0.88, on 2026-11-30). The warm-up: one
 * run of `seconds` sending `paths` in turn, then (with h2load) {@link WARM_UP_REQUESTS} requests per path
 * twice, each time on new connections (a second run of `seconds` without h2load).
 */
export async function warmUp(options: {
  readonly origin: string;
  readonly paths: readonly string[];
  readonly connections: number;
  readonly seconds: number;
  readonly headers?: Readonly<Record<string, string>>;
}): Promise<void> {
  const { origin, paths, connections, headers } = options;
  const mixed = { url: `${origin}${paths[0]!}`, paths, connections, seconds: options.seconds, headers };
  // a warm-up whose answers failed would warm the error path: said, not ignored
  const run = async (): Promise<void> => {
    const r = await runLoad(mixed);
    if (r.non2xx + r.errors > 0)
      throw new Error(`warm-up of ${origin} (${paths.join(', ')}): ${r.non2xx} non-2xx, ${r.errors} errors`);
  };
  await run();
  if (!canPace()) {
    await run();
    return;
  }
  for (let round = 0; round < 2; round++)
    for (const p of paths) await runCounted(`${origin}${p}`, connections, WARM_UP_REQUESTS, headers);
}

/** `requests` requests to `url` over `connections` new connections, as fast as they go (h2load). */
async function runCounted(
  url: string,
  connections: number,
  requests: number,
  headers: Readonly<Record<string, string>> | undefined,
): Promise<void> {
  const { code, out, command } = await runH2load(url, connections, headers, [`-n${requests}`]);
  const done = /(\d+) succeeded/.exec(out);
  if (code !== 0 || done === null || Number(done[1]) !== requests)
    throw new Error(`${command} exited with ${String(code)}:\n${out}`);
}

/**
 * One h2load run over HTTP/1.1 in one thread: `connections` to `url` with `headers`, and `args` (how long or
 * how many); its exit code, its report (stdout, then stderr) and the command, for errors.
 */
async function runH2load(
  url: string,
  connections: number,
  headers: Readonly<Record<string, string>> | undefined,
  args: readonly string[],
): Promise<{ readonly code: number | null; readonly out: string; readonly command: string }> {
  const argv = ['--h1', '-t1', `-c${connections}`, ...args];
  for (const [name, value] of Object.entries(headers ?? {})) argv.push('-H', `${name}: ${value}`);
  argv.push(url);
  const { code, out, err, command } = await runCommand('h2load', argv);
  return { code, out: out + err, command };
}

/** A paced run's latency (see {@link runPaced}). */
export interface PacedRun {
  /** Responses timed (those of requests sent after the run's first {@link PACED_SETTLE_MS}). */
  readonly requests: number;
  /** The 99th percentile and the mean of their times, ms (µs resolution). */
  readonly p99: number;
  readonly mean: number;
  /** Responses other than 2xx or 3xx, and requests that got no response. */
  readonly non2xx: number;
}

/** Requests sent in a paced run's first milliseconds are not timed: its connections are being opened. */
const PACED_SETTLE_MS = 200;

let hasH2load: boolean | undefined;

/** Whether paced runs are possible here (h2load, Debian's `nghttp2-client`). */
export function canPace(): boolean {
  hasH2load ??= spawnSync('h2load', ['--version'], { stdio: 'ignore' }).error === undefined;
  return hasH2load;
}

/**
 * A run at a fixed offered load: `rate` requests/s, each connection sending its share (h2load `--rps`),
 * each response timed from its request's write. The connections keep step: their requests leave together,
 * one per connection within a few µs, at each tick (measured: 10 connections at 100 requests/s each sent
 * groups of 10 within 6 µs every 10 ms), so a server takes the offered load as a burst of `connections`
 * requests per tick, the same for every server. Latency compared at the same offered load, below every
 * server's limit, is what a p99 goal can read: at a busy core (wrk, autocannon) a response also waits
 * behind all the others, so p99 there follows each server's requests/s and the machine's stalls.
 * autocannon's own rate option is a quota per second, sent as fast as it can go and then paused, not a pace.
 */
export async function runPaced(options: LoadOptions & { readonly rate: number }): Promise<PacedRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-paced-'));
  try {
    const log = path.join(dir, 'requests.log');
    const perConnection = Math.max(1, Math.round(options.rate / options.connections));
    const { code, out, command } = await runH2load(options.url, options.connections, options.headers, [
      `--rps=${perConnection}`,
      '-D',
      String(wholeSeconds(options.seconds)),
      `--log-file=${log}`,
    ]);
    if (code !== 0) throw new Error(`${command} exited with ${String(code)}:\n${out}`);
    return pacedFigures(readFileSync(log, 'utf8'), out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures of h2load's request log (a line per response: start µs since the epoch, status, µs taken). */
function pacedFigures(log: string, report: string): PacedRun {
  const rows = log
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t').map(Number) as [number, number, number]);
  const first = rows.reduce((m, r) => Math.min(m, r[0]), Infinity);
  const timed = rows.filter((r) => r[0] - first >= PACED_SETTLE_MS * 1000);
  const ms = Float64Array.from(timed, (r) => r[2] / 1000);
  const bad = timed.filter((r) => !(r[1] >= 200 && r[1] < 400)).length;
  // requests h2load gave up on have no line of their own
  const lost = /(\d+) errored, (\d+) timeout/.exec(report);
  return {
    requests: ms.length,
    p99: percentile99(ms),
    mean: ms.length === 0 ? NaN : ms.reduce((s, t) => s + t, 0) / ms.length,
    non2xx: bad + Number(lost?.[1] ?? 0) + Number(lost?.[2] ?? 0),
  };
}
