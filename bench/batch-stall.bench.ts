/**
 * Issue 22, "no single request stalls the server": plain gets (`GET /photos/1`, the example service) at a
 * steady rate, alone and beside the worst batch request the server allows of each kind, sent one after
 * another: a tunneled batch finder of `maxBatchSize` criteria (POST with `X-HTTP-Method-Override: GET` and
 * a form body, as in the finding), and batch_get, batch_create, batch_update, batch_partial_update and
 * batch_delete of `maxBatchSize` items. Reports the gets' p50 / p99 / max per phase, and the server's
 * longest event-loop stall (`monitorEventLoopDelay`).
 *
 * Goals (the issue's): the gets' p99 under batch load within 2× the quiet figure, and no get over 100 ms.
 * Measured, never asserted: the verdicts are printed as notes.
 *
 * How: `suites()` spawns this file as a *driver* (`--driver`), which spawns a *server* (`--server`: the
 * example app, plus a `stall` collection under `/bench` whose batch handlers answer at once, so that what is
 * measured is the framework's work; validation on, as by default) whose main thread is pinned to one core
 * with `taskset` when there is one, and drives it over loopback with `node:http` from its own process
 * (pinned to the other core). Gets are sent open-loop (on a timer, whatever is pending), so a stalled server
 * shows as latency. Every batch kind is warmed up before anything is measured.
 *
 * Why the main thread alone is pinned: with the whole server process on one core, V8's own threads (the
 * concurrent compiler, GC helpers) took 93-120 ms/s of that core in the loaded phases and the main thread
 * waited for it as long, in pieces as long as a scheduler time slice: single callbacks of 4-6 ms of wall
 * time whose work was a 1 ms slice (timed with async_hooks against the gets' arrival, 2026-11-28). Those
 * stalls were the scheduler sharing one core between V8's threads, not the framework holding the loop;
 * with V8's threads free to use the driver's core the main thread waited 2-16 ms/s. `SVC_BENCH_STALL_PIN=
 * process` pins the whole process as before, to see that case. Why every kind is warmed up: warmed with
 * the batch finder alone, each later phase first-optimized 30-100 functions (150-430 ms of compiling) in
 * its measured 2.5 s; a server that has run a while has compiled them.
 *
 * Looking inside the server: `SVC_BENCH_SERVER_FLAGS` adds Node flags to its command line (space-separated,
 * e.g. `--trace-gc-nvp` or `--single-threaded-gc`), and `SVC_BENCH_SERVER_STDOUT=<file>` writes its stdout
 * (where V8's traces go) to that file instead of discarding it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { PerformanceObserver, constants as perfConstants, monitorEventLoopDelay } from 'node:perf_hooks';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as PhotoModule from '../examples/src/main/generated/com/example/photos/Photo';
import type * as PhotoFormatModule from '../examples/src/main/generated/com/example/photos/PhotoFormat';
import type { BenchFile, Fact, Suite } from './harness';
import { pinned, tasksetPath } from './cores';
import { roleFromFlags, runRole, stopServersWhenStopped, stopWhenUndriven } from './process-role';

/** Items per batch request: the server's default `maxBatchSize` (the worst allowed request). */
const BATCH_ITEMS = 1000;
/** One plain get every this many ms, open loop. */
const GET_INTERVAL_MS = 4;
/**
 * Seconds per phase, after a warmup (each batch kind in turn): for each batch kind a quiet phase (gets
 * only), then a loaded one. The quiet phases are pooled: on a shared machine they sample the same stretch
 * of its state as the loaded ones.
 */
const QUIET_SECONDS = 1.5;
const LOADED_SECONDS = 2.5;
const WARMUP_SECONDS = 1.5;
/** Batch requests in flight at once during a loaded phase. */
const BATCH_CONCURRENCY = 2;

const KINDS = [
  'batch_finder (tunneled)',
  'batch_get',
  'batch_create',
  'batch_update',
  'batch_partial_update',
  'batch_delete',
] as const;
type Kind = (typeof KINDS)[number];

const HEADERS = { 'x-svc-protocol-version': '2.0.0' };

// ---------------------------------------------------------------------------------------------------------
// Server process

/**
 * Serves `svc-framework` (the examples' import, which Node resolves to the package's own `dist`) from this
 * tree's `src`: the benchmark measures the source as it is, built or not.
 */
function aliasFramework(): string {
  const src = path.resolve(__dirname, '../src');
  const entry = path.join(src, 'index.ts');
  const m = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const resolve = m._resolveFilename;
  m._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    return resolve.call(this, request === 'svc-framework' ? entry : request, ...rest);
  };
  return src;
}

async function runServer(): Promise<void> {
  const src = aliasFramework();
  const load = createRequire(__filename);
  const svc = load(src) as typeof SvcModule;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const { Photo } = load('../examples/src/main/generated/com/example/photos/Photo') as typeof PhotoModule;
  const { PhotoFormat } = load(
    '../examples/src/main/generated/com/example/photos/PhotoFormat',
  ) as typeof PhotoFormatModule;

  // batch handlers that answer at once: every id found, every element created
  const photo = new Photo().setId(1).setTitle('photo').setFormat(PhotoFormat.JPEG);
  const stall = svc.collection({
    name: 'stall',
    key: svc.LONG_KEY,
    value: Photo,
    methods: {
      batchGet: (ids) => new Map(ids.map((id) => [id, photo] as const)),
      batchCreate: (photos) => photos.map((_, i) => ({ id: i + 1 })),
      batchUpdate: (entities) => new Map([...entities.keys()].map((id) => [id, {}] as const)),
      batchPartialUpdate: (patches) => new Map([...patches.keys()].map((id) => [id, {}] as const)),
      batchDelete: (ids) => new Map(ids.map((id) => [id, {}] as const)),
    },
  });
  const app = await createExampleApp();
  await app.register(svc.svcPlugin, { prefix: '/bench', resources: [stall] });
  await app.listen({ port: 0, host: '127.0.0.1' });

  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  // young-generation scavenges of the phase (their pauses are on the main thread)
  let scavenges: number[] = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if ((e as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR)
        scavenges.push(e.duration);
  }).observe({ entryTypes: ['gc'] });
  let sched0 = schedulerStats();
  process.send!({ port: (app.server.address() as { port: number }).port });
  process.on('message', (msg) => {
    if (msg === 'reset') {
      loop.reset();
      scavenges = [];
      sched0 = schedulerStats();
    } else if (msg === 'report') {
      // a gc entry is delivered after its pause: give the observer a turn
      setImmediate(() => {
        const sched = schedulerStats();
        const report: ServerReport = {
          loopMaxMs: loop.max / 1e6,
          scavenges: scavenges.length,
          scavengeMaxMs: Math.max(0, ...scavenges),
          scavengeTotalMs: scavenges.reduce((a, b) => a + b, 0),
          sched:
            sched === undefined || sched0 === undefined
              ? undefined
              : {
                  mainRanMs: sched.mainRanMs - sched0.mainRanMs,
                  mainWaitedMs: sched.mainWaitedMs - sched0.mainWaitedMs,
                  mainPreempted: sched.mainPreempted - sched0.mainPreempted,
                  othersRanMs: sched.othersRanMs - sched0.othersRanMs,
                },
        };
        process.send!(report);
      });
    } else if (msg === 'stop') {
      stop();
    }
  });
  let stopping = false;
  stopWhenUndriven(stop);
  function stop(): void {
    if (stopping) return;
    stopping = true;
    // the driver's keep-alive connections would hold close() open; the app removes its data dir on close
    app.server.closeAllConnections();
    void app.close().then(() => process.exit(0));
  }
}

/**
 * What the scheduler says of the server process (Linux `/proc`; undefined elsewhere): the main thread's CPU
 * time, its time runnable but waiting for a core (preempted: by another process, or by one of its own
 * threads when they share one core), its involuntary context switches, and the CPU time of its other
 * threads (V8's compiler and GC helpers, libuv's pool), which share the main thread's core when the whole
 * process is pinned to it.
 * Tells a stall the server caused (a long task, a scavenge) from one the machine caused.
 */
interface SchedulerStats {
  readonly mainRanMs: number;
  readonly mainWaitedMs: number;
  readonly mainPreempted: number;
  readonly othersRanMs: number;
}

function schedulerStats(): SchedulerStats | undefined {
  try {
    const dir = `/proc/self/task`;
    const runAndWait = (tid: string): [number, number] => {
      const [run, wait] = fs.readFileSync(`${dir}/${tid}/schedstat`, 'utf8').split(' ');
      return [Number(run) / 1e6, Number(wait) / 1e6];
    };
    const main = String(process.pid);
    const [mainRanMs, mainWaitedMs] = runAndWait(main);
    const status = fs.readFileSync(`${dir}/${main}/status`, 'utf8');
    const mainPreempted = Number(/nonvoluntary_ctxt_switches:\s*(\d+)/.exec(status)?.[1] ?? NaN);
    let othersRanMs = 0;
    for (const tid of fs.readdirSync(dir)) if (tid !== main) othersRanMs += runAndWait(tid)[0];
    return { mainRanMs, mainWaitedMs, mainPreempted, othersRanMs };
  } catch {
    return undefined;
  }
}

/** The server's account of a phase. */
interface ServerReport {
  /** The longest event-loop delay, ms. */
  readonly loopMaxMs: number;
  readonly scavenges: number;
  readonly scavengeMaxMs: number;
  readonly scavengeTotalMs: number;
  readonly sched: SchedulerStats | undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Driver process

interface Request {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

function batchRequest(kind: Kind): Request {
  const ids = Array.from({ length: BATCH_ITEMS }, (_, i) => i + 1);
  const idList = `ids=List(${ids.join(',')})`;
  const json = { ...HEADERS, 'content-type': 'application/json' };
  const entity = { title: 'A title', format: 'JPEG', tags: ['a', 'b'] };
  switch (kind) {
    case 'batch_finder (tunneled)': {
      // criteria that match the seeded library's photos (examples/store.ts)
      const seeded = [
        ['Sunrise%20over%20the%20bay', 'JPEG'],
        ['Harbour%20lights', 'PNG'],
        ['Dunes%20at%20noon', 'JPEG'],
        ['Old%20barn', 'RAW'],
        ['Fireworks', 'GIF'],
      ];
      const criteria = ids.map((i) => {
        const [title, format] = seeded[i % seeded.length]!;
        return `(title:${title},format:${format})`;
      });
      return {
        method: 'POST',
        path: '/photos',
        headers: {
          ...HEADERS,
          'x-http-method-override': 'GET',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `bq=searchPhotos&criteria=List(${criteria.join(',')})`,
      };
    }
    case 'batch_get':
      return { method: 'GET', path: `/bench/stall?${idList}`, headers: HEADERS };
    case 'batch_create':
      return {
        method: 'POST',
        path: '/bench/stall',
        headers: { ...json, 'x-svc-method': 'batch_create' },
        body: JSON.stringify({ elements: ids.map(() => entity) }),
      };
    case 'batch_update':
      return {
        method: 'PUT',
        path: `/bench/stall?${idList}`,
        headers: json,
        body: JSON.stringify({ entities: Object.fromEntries(ids.map((i) => [i, entity])) }),
      };
    case 'batch_partial_update':
      return {
        method: 'POST',
        path: `/bench/stall?${idList}`,
        headers: { ...json, 'x-svc-method': 'batch_partial_update' },
        body: JSON.stringify({
          entities: Object.fromEntries(ids.map((i) => [i, { patch: { $set: { title: `t${i}` } } }])),
        }),
      };
    case 'batch_delete':
      return { method: 'DELETE', path: `/bench/stall?${idList}`, headers: HEADERS };
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(port: number, r: Request): Promise<{ status: number; bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

interface Phase {
  readonly name: string;
  /** Latencies of the plain gets, ms. */
  readonly gets: readonly number[];
  readonly batches: number;
  /** Median batch request time, ms. */
  readonly batchMs: number;
  /** The server's account of the phase. */
  readonly server: ServerReport;
  readonly seconds: number;
}

async function phase(
  server: ChildProcess,
  port: number,
  name: string,
  batch: Request | undefined,
  seconds: number,
): Promise<Phase> {
  const report = (): Promise<ServerReport> =>
    new Promise((resolve) => {
      server.once('message', (m) => resolve(m as ServerReport));
      server.send('report');
    });
  server.send('reset');
  const get: Request = { method: 'GET', path: '/photos/1', headers: HEADERS };
  const gets: number[] = [];
  const pending: Array<Promise<void>> = [];
  const end = performance.now() + seconds * 1000;
  const timer = setInterval(() => {
    pending.push(
      send(port, get).then((r) => {
        if (r.status !== 200) throw new Error(`GET /photos/1 answered ${r.status}`);
        gets.push(r.ms);
      }),
    );
  }, GET_INTERVAL_MS);
  const batchTimes: number[] = [];
  const loops =
    batch === undefined
      ? []
      : Array.from({ length: BATCH_CONCURRENCY }, async () => {
          while (performance.now() < end) {
            const r = await send(port, batch);
            if (r.status !== 200) throw new Error(`${name} answered ${r.status}`);
            batchTimes.push(r.ms);
          }
        });
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  clearInterval(timer);
  await Promise.all([...loops, ...pending]);
  const serverReport = await report();
  batchTimes.sort((a, b) => a - b);
  return {
    name,
    gets,
    batches: batchTimes.length,
    batchMs: batchTimes[batchTimes.length >> 1] ?? 0,
    server: serverReport,
    seconds,
  };
}

/** How the server is pinned (see the file's comment). */
type Pinning = 'main thread' | 'process' | 'none';

async function runDriver(): Promise<void> {
  const flags = (process.env.SVC_BENCH_SERVER_FLAGS ?? '').split(' ').filter((f) => f !== '');
  // the server starts on both cores, so that V8's threads (started with the process) may use either; then
  // its main thread (whose thread id is the process id) alone is pinned to core 0
  const wholeProcess = process.env.SVC_BENCH_STALL_PIN === 'process';
  const { cmd, args } = pinned(wholeProcess ? '0' : '0,1', [
    process.execPath,
    ...flags,
    '-r',
    '@swc-node/register',
    __filename,
    '--server',
  ]);
  const stdoutFile = process.env.SVC_BENCH_SERVER_STDOUT;
  const stdout = stdoutFile === undefined ? 'ignore' : fs.openSync(stdoutFile, 'w');
  const server = spawn(cmd, args, { stdio: ['ignore', stdout, 'inherit', 'ipc'], env: process.env });
  if (typeof stdout === 'number') fs.closeSync(stdout);
  // stopped (the harness's time budget, Ctrl-C): the server is stopped too, and closes as on 'stop'
  stopServersWhenStopped([server]);
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', (m) => resolve((m as { port: number }).port));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${String(code)}`)));
  });
  const taskset = tasksetPath();
  let pinning: Pinning = taskset === undefined ? 'none' : 'process';
  if (taskset !== undefined && !wholeProcess) {
    const pin = spawnSync(taskset, ['-p', '-c', '0', String(server.pid)], { stdio: 'ignore' });
    pinning = pin.status === 0 ? 'main thread' : 'none';
  }
  try {
    // every batch answered once (a 400 would be cheap and measure nothing), then a warmup of everything
    for (const kind of KINDS) {
      const r = await send(port, batchRequest(kind));
      if (r.status !== 200) throw new Error(`${kind} of ${BATCH_ITEMS} answered ${r.status}`);
    }
    for (const kind of KINDS) await phase(server, port, 'warmup', batchRequest(kind), WARMUP_SECONDS);
    const quiet: Phase[] = [];
    const phases: Phase[] = [];
    for (const kind of KINDS) {
      quiet.push(await phase(server, port, 'quiet', undefined, QUIET_SECONDS));
      phases.push(await phase(server, port, kind, batchRequest(kind), LOADED_SECONDS));
    }
    const sum = (f: (s: SchedulerStats) => number): number =>
      quiet.reduce((a, p) => a + (p.server.sched === undefined ? NaN : f(p.server.sched)), 0);
    const pooled: Phase = {
      name: 'quiet',
      gets: quiet.flatMap((p) => p.gets),
      batches: 0,
      batchMs: 0,
      server: {
        loopMaxMs: Math.max(...quiet.map((p) => p.server.loopMaxMs)),
        scavenges: quiet.reduce((a, p) => a + p.server.scavenges, 0),
        scavengeMaxMs: Math.max(...quiet.map((p) => p.server.scavengeMaxMs)),
        scavengeTotalMs: quiet.reduce((a, p) => a + p.server.scavengeTotalMs, 0),
        sched: quiet.some((p) => p.server.sched === undefined)
          ? undefined
          : {
              mainRanMs: sum((s) => s.mainRanMs),
              mainWaitedMs: sum((s) => s.mainWaitedMs),
              mainPreempted: sum((s) => s.mainPreempted),
              othersRanMs: sum((s) => s.othersRanMs),
            },
      },
      seconds: quiet.reduce((a, p) => a + p.seconds, 0),
    };
    process.stdout.write(`${JSON.stringify({ phases: [pooled, ...phases], pinning })}\n`);
  } finally {
    // wait for the server to close (it removes the example's temporary data directory as it does)
    const exited = new Promise((r) => server.once('exit', r));
    agent.destroy();
    server.send('stop');
    const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark file

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'missed');

const pinningNote: Record<Pinning, string> = {
  'main thread': "server's main thread pinned to one core, V8's threads free (taskset)",
  process: 'whole server process pinned to one core (taskset; SVC_BENCH_STALL_PIN=process)',
  none: 'server not pinned',
};

/** Where the server's time went in a phase: scavenges, and the scheduler's account per second. */
function serverAccount(p: Phase): string {
  const s = p.server;
  const gc = `${s.scavenges} scavenges (longest ${s.scavengeMaxMs.toFixed(1)} ms, ${(s.scavengeTotalMs / p.seconds).toFixed(1)} ms/s)`;
  if (s.sched === undefined) return gc;
  const perS = (ms: number): string => `${(ms / p.seconds).toFixed(0)} ms/s`;
  return `${gc}; main thread ran ${perS(s.sched.mainRanMs)}, waited for its core ${perS(s.sched.mainWaitedMs)} (${s.sched.mainPreempted} preemptions); other threads ran ${perS(s.sched.othersRanMs)}`;
}

function suite(result: { phases: Phase[]; pinning: Pinning }): Suite {
  const [quiet, ...loaded] = result.phases;
  const q99 = percentile(quiet!.gets, 99);
  const all = loaded.flatMap((p) => p.gets);
  const facts: Fact[] = [];
  const notes: string[] = [];
  for (const p of result.phases) {
    facts.push(
      { label: `${p.name}: get p50`, value: percentile(p.gets, 50), unit: 'ms' },
      { label: `${p.name}: get p99`, value: percentile(p.gets, 99), unit: 'ms' },
      { label: `${p.name}: get max`, value: Math.max(...p.gets), unit: 'ms' },
      { label: `${p.name}: longest event-loop stall`, value: p.server.loopMaxMs, unit: 'ms' },
      { label: `${p.name}: longest scavenge`, value: p.server.scavengeMaxMs, unit: 'ms' },
      { label: `${p.name}: scavenge time per s`, value: p.server.scavengeTotalMs / p.seconds, unit: 'ms' },
    );
    if (p.server.sched !== undefined)
      facts.push({
        label: `${p.name}: server main thread waiting for its core per s`,
        value: p.server.sched.mainWaitedMs / p.seconds,
        unit: 'ms',
      });
    if (p !== quiet) facts.push({ label: `${p.name}: batch request (median)`, value: p.batchMs, unit: 'ms' });
  }
  const l99 = percentile(all, 99);
  const lmax = Math.max(...all);
  notes.push(
    `${1000 / GET_INTERVAL_MS} gets/s open loop; per batch kind ${QUIET_SECONDS} s quiet (pooled) then ${LOADED_SECONDS} s loaded; batches of ${BATCH_ITEMS} items, ${BATCH_CONCURRENCY} in flight; ${pinningNote[result.pinning]}; every kind warmed up ${WARMUP_SECONDS} s first`,
    `quiet: p50 ${percentile(quiet!.gets, 50).toFixed(2)} ms, p99 ${q99.toFixed(2)} ms, max ${Math.max(...quiet!.gets).toFixed(2)} ms; longest stall ${quiet!.server.loopMaxMs.toFixed(1)} ms`,
    ...loaded.map(
      (p) =>
        `${p.name}: get p50 ${percentile(p.gets, 50).toFixed(2)} ms, p99 ${percentile(p.gets, 99).toFixed(2)} ms (${(percentile(p.gets, 99) / q99).toFixed(2)}x quiet), max ${Math.max(...p.gets).toFixed(2)} ms; ${p.batches} batches (median ${p.batchMs.toFixed(1)} ms); longest stall ${p.server.loopMaxMs.toFixed(1)} ms`,
    ),
    ...result.phases.map((p) => `${p.name}: server ${serverAccount(p)}`),
    `goal: p99 within 2x of the quiet figure: ${verdict(l99 <= 2 * q99)} at ${l99.toFixed(2)} ms under batch load vs ${q99.toFixed(2)} ms quiet (${(l99 / q99).toFixed(2)}x)`,
    `goal: no get over 100 ms: ${verdict(lmax <= 100)} (max ${lmax.toFixed(2)} ms)`,
  );
  return {
    title: `Plain gets beside the worst allowed batch requests (${BATCH_ITEMS} items each), HTTP on loopback`,
    short: 'gets beside batches',
    facts,
    notes,
  };
}

function suites(): Suite[] {
  const budget = (WARMUP_SECONDS + QUIET_SECONDS + LOADED_SECONDS) * KINDS.length * 1000 + 30_000;
  const { cmd, args } = pinned('1', [process.execPath, '-r', '@swc-node/register', __filename, '--driver']);
  const out = spawnSync(cmd, args, { encoding: 'utf8', timeout: budget, maxBuffer: 1 << 24 });
  if (out.status !== 0)
    throw new Error(`batch-stall bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  return [suite(JSON.parse(lines[lines.length - 1]!) as { phases: Phase[]; pinning: Pinning })];
}

export const benchmark: BenchFile = {
  title:
    'Issue 22: plain gets beside the worst allowed batch request of each kind (no request stalls the server)',
  suites,
};

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
