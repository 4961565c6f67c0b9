/**
 * What observing a service costs, over HTTP with wrk or autocannon (load-generator.ts; `GET /photos/3`, the
 * example service, 10 connections), each variant against the same service with nothing observed, each app
 * in two server processes of its own (`PROCESSES`), in the same run (8 rounds of 1 s each, back to back,
 * spread over the two pairs; the verdict reads the median of the rounds' ratios, which a load that drifts
 * during the run, as on a shared machine, moves least):
 *
 * - metrics: `createMetrics().observer` (goal: ≤ 5% fewer requests/s);
 * - tracing API, no SDK: `tracingObserver()` with no SDK registered (goal: ≤ 5%);
 * - access log at info: svcPlugin's own logger (`logger`: a pino logger at `info`, its lines with the
 *   request id; fastify without a logger), request ids and the access log on its LineWriter (a file) (goal:
 *   ≥ 0.85× logging off);
 * - the same with fastify's logger at `info` instead (`fastifyRequestIdOptions({ loggerInstance })`: its
 *   own request lines off, request ids on), whose per-request work fastify does whether anything logs or
 *   not (reported, no goal);
 * - the same on the standalone server: `createSvcServer` with a pino logger at `info`, request ids and the
 *   access log, against `createSvcServer` with none of them (goal: ≥ 0.85×);
 * - tracing with an SDK: `BasicTracerProvider` + `BatchSpanProcessor` into an exporter that drops the
 *   spans, the W3C propagator and the AsyncLocalStorage context manager (reported, no goal). The SDK is
 *   registered in the observed app's process only.
 *
 * The server processes are pinned to core 0 and the load generator to core 1 (`taskset`, when there is
 * one); the order of the two apps swaps between a pair's rounds. The driver stops its servers when it is stopped (the harness's
 * time budget), and a server exits when its driver is gone. Then, in this process, the same per request without HTTP: the
 * pipeline's `handle` for a get, with each observer and with none (what each adds, in µs).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as StoreModule from '../examples/store';
import type * as ResourcesModule from '../examples/resources';
import type * as QueueModule from '../examples/queue';
import type * as SdkModule from '@opentelemetry/sdk-trace-base';
import type * as ApiModule from '@opentelemetry/api';
import type * as AlsModule from '@opentelemetry/context-async-hooks';
import type * as CoreModule from '@opentelemetry/core';
import type * as PinoModule from 'pino';
import type * as PhotosModule from '../test/resources/support/photos';
import type { BenchFile, BenchTask, Fact, Suite } from './harness';
import { pinned, processCpuMs } from './cores';
import { loadGeneratorNote, runLoad } from './load-generator';
import { median } from './stats';
import { roleFromFlags, runRole, stopServer, stopServersWhenStopped, stopWhenUndriven } from './process-role';

const RUN_SECONDS = 1;
// (wrk runs whole seconds)
const WARMUP_SECONDS = 1;
const ROUNDS = 8;
// Server processes per app and variant, the rounds spread over them (round r on pair r mod PROCESSES): one
// process keeps its own speed for a whole run (bench/resources.bench.ts `PROCESSES`); here a run put the
// access log at 1.14x "logging off" (rounds 0.87-1.22) where its instructions are 0.89x: its unobserved
// process, by all signs, ran slow for the whole run (2026-11-29)
const PROCESSES = 2;
const CONNECTIONS = 10;
const PATH = '/photos/3';

type Variant =
  | 'metrics'
  | 'tracing-api'
  | 'access-log'
  | 'access-log-fastify-logger'
  | 'access-log-standalone'
  | 'tracing-sdk';
const VARIANTS: readonly Variant[] = [
  'metrics',
  'tracing-api',
  'access-log',
  'access-log-fastify-logger',
  'access-log-standalone',
  'tracing-sdk',
];

const GOALS: Record<Variant, { readonly label: string; readonly min?: number }> = {
  metrics: { label: 'metrics on vs off', min: 0.95 },
  'tracing-api': { label: 'tracing API with no SDK vs no tracing code', min: 0.95 },
  'access-log': { label: 'access log at info vs logging off', min: 0.85 },
  // fastify with a logger does per-request work for it whether anything logs or not (a child logger, two
  // response listeners): reported beside, the plugin's own logger being the configuration that saves it
  'access-log-fastify-logger': {
    label: "access log at info vs logging off, fastify's logger at info (not the plugin's)",
  },
  'access-log-standalone': {
    label: 'access log at info vs logging off, standalone server (createSvcServer)',
    min: 0.85,
  },
  'tracing-sdk': { label: 'tracing with an SDK (batch processor, in-memory sink) vs none' },
};

function node(core: number, args: string[], ipc: boolean): ChildProcess {
  const { cmd, args: argv } = pinned(core, [
    process.execPath,
    '-r',
    '@swc-node/register',
    __filename,
    ...args,
  ]);
  const stdio = ipc
    ? (['ignore', 'ignore', 'inherit', 'ipc'] as const)
    : (['ignore', 'pipe', 'inherit'] as const);
  return spawn(cmd, argv, { stdio: [...stdio] });
}

// ---------------------------------------------------------------------------------------------------------
// Server process: the anchor app, or the variant's

async function runServer(): Promise<void> {
  const variant = process.argv.find((a) => a.startsWith('--variant='))!.slice('--variant='.length) as Variant;
  // each app in a process of its own: in one process, the unobserved app ran the same pipeline code as the
  // observed one, whose inline caches had seen the observers' objects too (bench/resources.bench.ts found
  // that sharing moved its ratios by 5-10%)
  const anchorOnly = process.argv.includes('--app=anchor');
  const load = createRequire(__filename);
  const svc = load('../src') as typeof SvcModule;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const { seededLibrary } = load('../examples/store') as typeof StoreModule;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-observe-'));
  // a server whose driver is gone or stops it (at the harness's time budget) has nothing left to do
  const leave = (): void => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  stopWhenUndriven(leave);
  if (variant === 'access-log-standalone') {
    await runStandalone(svc, load, anchorOnly, dir);
    return;
  }
  let accessLog: SvcModule.AccessLog | undefined;
  let sdkShutdown: (() => Promise<void>) | undefined;
  let observers: SvcModule.RequestObserver[] = [];
  let fastifyOptions = {};
  let pluginLogger: SvcModule.SvcLogger | undefined;
  if (anchorOnly) observers = [];
  else if (variant === 'metrics') observers = [svc.createMetrics().observer];
  else if (variant === 'tracing-api') observers = [svc.tracingObserver()];
  else if (variant === 'access-log' || variant === 'access-log-fastify-logger') {
    const pino = (load('pino') as typeof PinoModule).default;
    accessLog = svc.createAccessLog({ destination: path.join(dir, 'access.log') });
    observers = [svc.requestIds(), accessLog.observer];
    const logger = pino(
      { level: 'info' },
      pino.destination({ dest: path.join(dir, 'app.log'), sync: false }),
    );
    // the plugin's own logger (fastify without one), or fastify's (request.log) with fastify's request id
    if (variant === 'access-log') pluginLogger = logger;
    else fastifyOptions = svc.fastifyRequestIdOptions({ loggerInstance: logger });
  } else {
    const api = load('@opentelemetry/api') as typeof ApiModule;
    const sdk = load('@opentelemetry/sdk-trace-base') as typeof SdkModule;
    const { AsyncLocalStorageContextManager } = load(
      '@opentelemetry/context-async-hooks',
    ) as typeof AlsModule;
    const { W3CTraceContextPropagator } = load('@opentelemetry/core') as typeof CoreModule;
    let exported = 0;
    const sink: SdkModule.SpanExporter = {
      export(spans, done) {
        exported += spans.length;
        done({ code: 0 });
      },
      shutdown: () => Promise.resolve(),
    };
    const provider = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.BatchSpanProcessor(sink)] });
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    api.trace.setGlobalTracerProvider(provider);
    observers = [svc.tracingObserver()];
    sdkShutdown = async () => {
      await provider.shutdown();
      process.stderr.write(`(tracing-sdk: ${exported} spans exported)\n`);
    };
  }
  const app = anchorOnly
    ? await createExampleApp({ library: seededLibrary(), observe: false, dataDir: dir })
    : await createExampleApp({
        library: seededLibrary(),
        observe: false,
        dataDir: dir,
        fastify: fastifyOptions,
        svc: pluginLogger === undefined ? { observers } : { observers, logger: pluginLogger },
      });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port });
  process.on('message', (m) => {
    if (m !== 'stop') return;
    void (async () => {
      await app.close();
      await accessLog?.close();
      await sdkShutdown?.();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

/**
 * The standalone server's access-log case: `createSvcServer` with a pino logger at `info` (its error
 * lines), request ids and the access log, or (the anchor) with none of them.
 */
async function runStandalone(
  svc: typeof SvcModule,
  load: NodeJS.Require,
  anchorOnly: boolean,
  dir: string,
): Promise<void> {
  const { exampleService } = load('../examples/resources') as typeof ResourcesModule;
  const { openExampleQueue } = load('../examples/queue') as typeof QueueModule;
  const { seededLibrary } = load('../examples/store') as typeof StoreModule;
  const queue = await openExampleQueue({ dataDir: dir });
  const resources = exampleService(seededLibrary(), { queue });
  let accessLog: SvcModule.AccessLog | undefined;
  let options: SvcModule.SvcHttpServerOptions = { resources };
  if (!anchorOnly) {
    const pino = (load('pino') as typeof PinoModule).default;
    accessLog = svc.createAccessLog({ destination: path.join(dir, 'access.log') });
    options = {
      resources,
      logger: pino({ level: 'info' }, pino.destination({ dest: path.join(dir, 'app.log'), sync: false })),
      observers: [svc.requestIds(), accessLog.observer],
    };
  }
  const server = svc.createSvcServer(options);
  const { port } = await svc.listenOn(server);
  process.send!({ port });
  process.on('message', (m) => {
    if (m !== 'stop') return;
    void (async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await accessLog?.close();
      await queue.close({ timeoutMs: 1000 });
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

// ---------------------------------------------------------------------------------------------------------
// Driver process

/** The servers running now: stopped when the driver is (the harness stops it at its time budget). */
const liveServers = new Set<ChildProcess>();

function stopServersOnExit(): void {
  const killAll = (): void => {
    for (const server of liveServers) server.kill('SIGTERM');
    liveServers.clear();
  };
  process.on('exit', killAll);
  stopServersWhenStopped(liveServers);
}

interface Measured {
  readonly rps: number;
  /** The server's CPU time (all its threads, user and system) per request, µs; undefined without `/proc`. */
  readonly cpuUs: number | undefined;
  readonly non2xx: number;
  readonly errors: number;
}

interface DriverResult {
  readonly variant: Variant;
  readonly anchor: Measured;
  readonly observed: Measured;
  /** observed / anchor requests/s of each round (the two runs of a round are back to back). */
  readonly roundRatios: readonly number[];
}

async function runDriver(): Promise<void> {
  stopServersOnExit();
  const results: DriverResult[] = [];
  for (const variant of VARIANTS) {
    // PROCESSES pairs of servers: process i of each app is at servers[2 * i] (anchor) and [2 * i + 1]
    const servers = Array.from({ length: PROCESSES }, () => ['anchor', 'observed'] as const)
      .flat()
      .map((app) => {
        const server = node(0, ['--server', `--variant=${variant}`, `--app=${app}`], true);
        liveServers.add(server);
        server.once('exit', () => liveServers.delete(server));
        return server;
      });
    const ports = await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('message', (m) => resolve((m as { port: number }).port));
            server.once('exit', (code) => reject(new Error(`bench server exited with ${String(code)}`)));
          }),
      ),
    );
    const at = (app: 'anchor' | 'observed', i: number): number => 2 * i + (app === 'anchor' ? 0 : 1);
    const run = async (app: 'anchor' | 'observed', i: number, duration: number): Promise<Measured> => {
      const pid = servers[at(app, i)]!.pid;
      const before = processCpuMs(pid);
      const r = await runLoad({
        url: `http://127.0.0.1:${ports[at(app, i)]!}${PATH}`,
        connections: CONNECTIONS,
        seconds: duration,
        headers: { 'x-svc-protocol-version': '2.0.0' },
      });
      const after = processCpuMs(pid);
      const cpuUs =
        before === undefined || after === undefined || r.requests === 0
          ? undefined
          : ((after - before) * 1000) / r.requests;
      return { rps: r.requests / r.seconds, cpuUs, non2xx: r.non2xx, errors: r.errors };
    };
    try {
      // two warm-up runs per process: a process's first connections closing deoptimized the request path
      // in the run after (load-generator.ts `warmUp`), which is then the second warm-up, not a round
      for (let i = 0; i < PROCESSES; i++)
        for (let w = 0; w < 2; w++) {
          await run('anchor', i, WARMUP_SECONDS);
          await run('observed', i, WARMUP_SECONDS);
        }
      const a: Measured[] = [];
      const o: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // round r on the pair r mod PROCESSES, the order of the two apps swapped from pair to pair
        const i = round % PROCESSES;
        const order = Math.floor(round / PROCESSES) % 2 === 0 ? (['a', 'o'] as const) : (['o', 'a'] as const);
        for (const w of order)
          (w === 'a' ? a : o).push(await run(w === 'a' ? 'anchor' : 'observed', i, RUN_SECONDS));
      }
      const mean = (xs: Measured[]): Measured => ({
        rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
        cpuUs: xs.some((x) => x.cpuUs === undefined)
          ? undefined
          : xs.reduce((s, x) => s + x.cpuUs!, 0) / xs.length,
        non2xx: xs.reduce((s, x) => s + x.non2xx, 0),
        errors: xs.reduce((s, x) => s + x.errors, 0),
      });
      results.push({
        variant,
        anchor: mean(a),
        observed: mean(o),
        roundRatios: a.map((x, i) => o[i]!.rps / x.rps),
      });
    } finally {
      await Promise.all(servers.map((server) => stopServer(server)));
    }
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

// ---------------------------------------------------------------------------------------------------------

/** The pipeline alone, per request, with each observer (in the bench runner's process: the fixture classes). */
function inProcessSuite(): Suite {
  const load = createRequire(__filename);
  const svc = load('../src') as typeof SvcModule;
  const { photoService } = load('../test/resources/support/photos') as typeof PhotosModule;
  const resource = photoService().resource;
  const log = { error() {}, warn() {}, info() {}, debug() {} };
  const pipeline = (observers: SvcModule.RequestObserver[]): SvcModule.ResourcePipeline =>
    svc.createResourcePipeline(svc.resolveSvcOptions({ resources: [resource], observers }));
  const metrics = svc.createMetrics({ processMetrics: false });
  const request = (): SvcModule.ResourceRequest => ({
    method: 'GET',
    url: '/photos/3',
    path: '/photos/3',
    query: undefined,
    headers: { host: 'x', 'x-svc-protocol-version': '2.0.0' },
    body: undefined,
    attributes: new Map(),
  });
  const task = (name: string, observers: SvcModule.RequestObserver[]): BenchTask => {
    const p = pipeline(observers);
    return {
      name,
      fn: () => {
        const out = p.handle(request(), log, true);
        if (out instanceof Promise || out.status !== 200) throw new Error('expected a synchronous 200');
      },
    };
  };
  return {
    title: 'In process, per request: the pipeline handling GET /photos/3 with each observer vs none',
    short: 'pipeline per request',
    anchor: task('no observer', []),
    candidates: [
      task('metrics', [metrics.observer]),
      task('tracing API, no SDK', [svc.tracingObserver()]),
      task('request ids', [svc.requestIds()]),
      task('request ids, tracing API, metrics', [svc.requestIds(), svc.tracingObserver(), metrics.observer]),
    ],
    notes: [
      'no HTTP: what each observer adds to the ~1.5 µs the pipeline takes for a get; over HTTP a request costs ~100 µs or more here',
      'the access log is measured over HTTP only: its writes complete on the event loop, which a synchronous loop never turns (its lines would pile up)',
    ],
  };
}

function suites(): Suite[] {
  const budget =
    (VARIANTS.length * (4 * PROCESSES * WARMUP_SECONDS + 2 * ROUNDS * RUN_SECONDS + 15) + 30) * 1000;
  const driver = pinned(1, [process.execPath, '-r', '@swc-node/register', __filename, '--driver']);
  const out = spawnSync(driver.cmd, driver.args, { encoding: 'utf8', timeout: budget, maxBuffer: 1 << 20 });
  if (out.status !== 0)
    throw new Error(
      `runtime-observe bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`,
    );
  const lines = out.stdout.trim().split('\n');
  const results = JSON.parse(lines[lines.length - 1]!) as DriverResult[];
  const http = results.map((r): Suite => {
    const goal = GOALS[r.variant];
    // the median of the rounds' ratios: the machine's load drifts over a run, less within a round
    const sorted = [...r.roundRatios].sort((x, y) => x - y);
    const ratio = median(sorted);
    const facts: Fact[] = [
      { label: `${r.variant} requests/s`, value: r.observed.rps, unit: 'req/s' },
      { label: 'nothing observed requests/s', value: r.anchor.rps, unit: 'req/s' },
    ];
    const notes = [
      `${ROUNDS} rounds × ${RUN_SECONDS} s per app (order swapped between a pair's rounds) over ${PROCESSES} server processes per app (round r on pair r mod ${PROCESSES}), each warmed twice ${WARMUP_SECONDS} s; ` +
        (driver.pinned
          ? 'server on core 0, load generator on core 1 (taskset)'
          : 'no taskset: cores not pinned') +
        `; ${loadGeneratorNote()}`,
      `round ratios ${sorted.map((x) => x.toFixed(2)).join(' ')} (their spread is the noise)`,
      goal.min === undefined
        ? `reported (no goal): ${goal.label}: median ${ratio.toFixed(3)}×`
        : `goal: ${goal.label} ≥ ${goal.min.toFixed(2)}×: ${ratio >= goal.min ? 'meets' : 'misses'} at median ${ratio.toFixed(3)}×`,
    ];
    const [cpuO, cpuA] = [r.observed.cpuUs, r.anchor.cpuUs];
    if (cpuO !== undefined && cpuA !== undefined) {
      facts.push(
        { label: `${r.variant} server CPU per request`, value: cpuO, unit: 'µs' },
        { label: 'nothing observed server CPU per request', value: cpuA, unit: 'µs' },
      );
      notes.push(
        `server CPU per request (all threads, from /proc, 10 ms ticks): ${cpuO.toFixed(1)} µs observed vs ${cpuA.toFixed(1)} µs (${(cpuO / cpuA).toFixed(2)}× the CPU; requests/s is the goal's measure; under autocannon, which an unobserved server nearly outruns, it shows only part of the cost)`,
      );
    }
    const bad = r.observed.non2xx + r.observed.errors + r.anchor.non2xx + r.anchor.errors;
    if (bad > 0) notes.push(`non-2xx or errors: ${bad}`);
    return {
      title: `HTTP get by id, ${CONNECTIONS} connections: ${goal.label}`,
      short: r.variant,
      facts,
      ratios: [
        {
          name: `requests/s ${r.variant} / nothing observed`,
          of: `${r.variant} requests/s`,
          to: 'nothing observed requests/s',
          rounds: r.roundRatios,
          ...(goal.min === undefined ? {} : { goal: goal.min }),
        },
      ],
      notes,
    };
  });
  return [...http, inProcessSuite()];
}

export const benchmark: BenchFile = {
  title:
    'Observability cost over HTTP (wrk, else autocannon; get by id): metrics, tracing API without SDK, access log at info (svcPlugin and the standalone server), tracing with an SDK, each vs the same service unobserved',
  suites,
};

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
