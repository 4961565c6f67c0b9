/**
 * The resource server over HTTP against the physical limits of one Node process, in the same run: a get by
 * id, a batch_get of 10 and a finder page of 10 of the example service's `photos`, served four ways: a bare
 * `node:http` server and a bare fastify route returning the same JSON (the anchors), `svcPlugin` on fastify
 * and the standalone `createSvcServer` (node:http), at 10 and 100 connections. Load from wrk, which keeps
 * each server's core busy (autocannon where wrk is not installed), and p99 from paced runs at one offered
 * load for every server (h2load; load-generator.ts).
 *
 * Goals (issue 23): the standalone server (and the plugin) at ≥ 0.9× bare `node:http`'s requests/s with
 * p99 ≤ 1.2× node's; the plugin at ≥ 0.95× the bare fastify route. Measured, never asserted: verdicts are
 * printed as notes.
 *
 * How: the harness measures synchronous functions, so this file runs the load test in child processes and
 * reports the results as facts. `suites()` spawns this file as a *driver* (`--driver`, pinned to one core
 * with taskset when there are two), which spawns a *server* process per app for each round (`--server`, the
 * app named by `SVC_BENCH_APP`, all pinned to the other core; see `PROCESSES`), warms each up on every case
 * (`warmUp`) and drives them with the load generators. Each app has processes of its own, as it would in
 * production: in one shared process the apps' code shared Node's HTTP internals, whose inline caches then
 * saw four apps' objects, which slowed the bare server most (its ratio is the anchor: sharing made the svc
 * servers look 5-10% closer to it than a bare server alone is). Each case runs in rounds with the apps'
 * order rotated, after a short warmup per case. A ratio is the median of the rounds' ratios and p99 each
 * app's median over the rounds (requests/s facts are the rounds' means): this machine's speed drifts within
 * seconds, and a round compares runs made seconds apart.
 *
 * A cross-check beside the goal lines, at 10 connections under wrk: each process pair (svcPlugin and bare
 * fastify, createSvcServer and bare node) runs side by side, both servers on their one core at once, each
 * under a wrk of its own, so that a drift of the machine's speed hits both alike; a bare fastify process
 * beside another one gives the instrument's own noise in the same run. Why: 2026-11-30, eight such pairs of
 * two bare fastify processes put the three cases at 1.02×, 0.97× and 1.01× (pairs 0.88–1.12), where two
 * rounds of 1 s one after the other on fresh process pairs spread 0.6–1.5; svcPlugin read 0.96×, 0.93× and
 * 0.93× bare fastify side by side (pairs 0.87–1.02) and 0.79–1.08× in the rounds of the same day's runs.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type * as FastifyModule from 'fastify';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as ResourcesModule from '../examples/resources';
import type * as QueueModule from '../examples/queue';
import type * as StoreModule from '../examples/store';
import type * as PhotoModule from '../examples/src/main/generated/com/example/photos/Photo';
import type * as PhotoFormatModule from '../examples/src/main/generated/com/example/photos/PhotoFormat';
import type { BenchFile, Fact, Suite } from './harness';
import { median } from './stats';
import { pinned, processCpuMs } from './cores';
import { roleFromFlags, runRole, stopServersWhenStopped, stopWhenUndriven } from './process-role';
import {
  type PacedRun,
  canPace,
  loadGenerator,
  loadGeneratorNote,
  runLoad,
  runPaced,
  warmUp,
} from './load-generator';

/**
 * Seconds per measured run, and of warmup per case and app: both load generators count whole seconds (an
 * autocannon run of 0.5 s or of 1.5 s took 1 s or 2 s), so runs are 1 s and there are more rounds.
 */
const RUN_SECONDS = 1;
const WARMUP_SECONDS = 1;
// Six rounds whose ratios' median decides. This machine's speed drifts from second to second: one bare
// node:http server's CPU per get went from 26 µs to 59 µs within one run (2026-11-29). Three rounds' mean
// let one disturbed run move a case's ratio by 0.1-0.2; a median of runs back to back ignores it.
const ROUNDS = 6;
// Server processes per app, one per round (round r on process r of each app). One process of an app runs at
// its own speed for the whole run: the same build, the same instructions per request (callgrind), yet a
// createSvcServer process served the finder at 22.7k req/s (0.78x bare node) where four fresh processes of
// the same build served it at 23-26k (0.90-1.05x a fresh bare node each), and bare node's processes vary
// alike (2026-11-29); eight fresh svcPlugin/bare fastify pairs, two runs each, put the get at 0.72-1.21x
// (2026-11-30). With three processes and two rounds on each, the median of the rounds sat among three
// draws of each app and its two rounds on one pair moved together; with a process per round it sits among
// six independent draws, for ~70 s more warmup per run of the bench.
const PROCESSES = ROUNDS;
const CONNECTIONS = [10, 100] as const;
/**
 * The offered load of the paced runs whose p99 decides the latency goal, as a share of bare node's
 * requests/s in the case's warmup: below every server's limit, so that a response waits for its own work
 * and not behind a queue (load-generator.ts, `runPaced`).
 */
const PACED_SHARE = 0.5;
/**
 * Seconds of each side-by-side run (`sideBySide` in the driver): two servers on one core at once, each under
 * a wrk of its own, at the first connection count. Two seconds: the core is shared between the two
 * processes in slices of a few milliseconds, and a longer run averages more of them.
 */
const SIDE_BY_SIDE_SECONDS = 2;
const PAGE = 10;

export const APPS = ['node', 'fastify', 'plugin', 'standalone'] as const;
export type App = (typeof APPS)[number];
export const LABELS: Readonly<Record<App, string>> = {
  node: 'bare node:http',
  fastify: 'bare fastify',
  plugin: 'svcPlugin (fastify)',
  standalone: 'createSvcServer (node:http)',
};

export interface Case {
  readonly name: string;
  /** The path on the svc servers, and on the bare ones. */
  readonly svcPath: string;
  readonly barePath: string;
}

const IDS = Array.from({ length: PAGE }, (_, i) => i + 1);
export const CASES: readonly Case[] = [
  { name: 'get by id', svcPath: '/photos/3', barePath: '/bare/photos/3' },
  {
    name: `batch_get of ${PAGE}`,
    svcPath: `/photos?ids=List(${IDS.join(',')})`,
    barePath: `/bare/photos?ids=${IDS.join(',')}`,
  },
  {
    name: `finder page of ${PAGE}`,
    svcPath: `/photos?q=titleAndOrFormat&format=PNG&count=${PAGE}`,
    barePath: `/bare/photos?format=PNG&count=${PAGE}`,
  },
];

interface Measured {
  readonly rps: number;
  /** Milliseconds, from each response's time (see `percentile99`). */
  readonly p99: number;
  /** Mean latency, milliseconds (not rounded). */
  readonly mean: number;
  readonly non2xx: number;
  readonly errors: number;
  /** The server's CPU time (all its threads, user and system) per request, µs; undefined without `/proc`. */
  readonly cpuUs: number | undefined;
  /** The round's paced run (`PACED_SHARE` of bare node's requests/s), when h2load is installed. */
  readonly paced?: PacedRun;
}

interface DriverResult {
  readonly case: string;
  readonly connections: number;
  readonly apps: Readonly<Record<App, Measured>>;
  /** Each round's run, per app (the rounds' spread is the run's noise). */
  readonly rounds: Readonly<Record<App, readonly Measured[]>>;
  readonly pinned: boolean;
  /** The offered load of the paced runs, requests/s. */
  readonly pacedRate?: number;
  /** The side-by-side runs' ratios, one per process pair (at the first connection count, under wrk). */
  readonly sideBySide?: SideBySide;
}

/**
 * Requests/s ratios of two servers run at once on the same core, each under a wrk of its own: the machine's
 * drift (another tenant's load, a slower second) hits both alike, where the rounds compare runs made
 * seconds apart. `sameApp` is the instrument's own noise: a bare fastify process beside another one.
 */
interface SideBySide {
  readonly pluginFastify: readonly number[];
  readonly standaloneNode: readonly number[];
  readonly sameApp: readonly number[];
  /** Runs with non-2xx answers or errors (none expected). */
  readonly failed: number;
}

// ---------------------------------------------------------------------------------------------------------
// Server processes: one app each

async function runServer(): Promise<void> {
  const app = process.env.SVC_BENCH_APP as App;
  if (!APPS.includes(app)) throw new Error(`SVC_BENCH_APP must be one of ${APPS.join(', ')}`);
  // loaded here, not at the top: the example's generated classes must not be registered in the bench runner's
  // process, where other benchmarks load the fixture tree's classes of the same names
  const load = createRequire(__filename);
  const fastify = (load('fastify') as typeof FastifyModule).default;
  const { Data, createSvcServer, listenOn } = load('../src') as typeof SvcModule;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;
  const { exampleService } = load('../examples/resources') as typeof ResourcesModule;
  const { openExampleQueue } = load('../examples/queue') as typeof QueueModule;
  const { seededLibrary } = load('../examples/store') as typeof StoreModule;
  const { Photo } = load('../examples/src/main/generated/com/example/photos/Photo') as typeof PhotoModule;
  const { PhotoFormat } = load(
    '../examples/src/main/generated/com/example/photos/PhotoFormat',
  ) as typeof PhotoFormatModule;

  const library = seededLibrary();
  for (let i = 7; i <= 30; i++)
    library.addPhoto(
      new Photo()
        .setTitle(`Photo ${i}`)
        .setFormat(PhotoFormat.PNG)
        .setTakenAt(1_700_000_000_000 + i),
    );
  const stops: Array<() => Promise<unknown>> = [];
  let port: number;
  if (app === 'plugin') {
    // observe: false: this bench measures the framework; bench/runtime-observe.bench.ts measures observers
    const plugin = await createExampleApp({ library, observe: false });
    await plugin.listen({ port: 0, host: '127.0.0.1' });
    port = (plugin.server.address() as { port: number }).port;
    stops.push(() => plugin.close());
  } else if (app === 'standalone') {
    // the standalone server's queue keeps its blobs in a directory of this run, removed at the end
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-resources-'));
    const queue = await openExampleQueue({ dataDir });
    const standalone = createSvcServer({ resources: exampleService(library, { queue }) });
    port = (await listenOn(standalone)).port;
    stops.push(async () => {
      standalone.closeAllConnections();
      await new Promise((r) => standalone.close(r));
      await queue.close({ timeoutMs: 1000 });
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  } else {
    port = await listenBare(app, library, Data, fastify, stops);
  }
  process.send!(port);
  const stop = (): void => {
    void Promise.all(stops.map((s) => s())).then(() => process.exit(0));
  };
  process.on('message', (m) => {
    if (m === 'stop') stop();
  });
  stopWhenUndriven(stop);
}

/** A bare server (node:http or fastify) answering the same JSON from the same photos as plain objects. */
async function listenBare(
  app: 'node' | 'fastify',
  library: ReturnType<typeof StoreModule.seededLibrary>,
  Data: typeof SvcModule.Data,
  fastify: typeof FastifyModule.default,
  stops: Array<() => Promise<unknown>>,
): Promise<number> {
  const plain = new Map<string, Record<string, unknown>>();
  for (const p of library.listPhotos())
    plain.set(String(p.getId()), Data.toJS(p.data()) as Record<string, unknown>);
  const photos = [...plain.values()];
  // the finder's paging links as the service answers them (the driver asked the standalone server)
  const svcFinder = JSON.parse(process.env.SVC_BENCH_FINDER_ANSWER ?? '{}') as {
    paging?: { links?: unknown };
  };
  const getById = (id: string): unknown => plain.get(String(Number(id)));
  const batchGet = (ids: string): unknown => {
    const results: Record<string, unknown> = {};
    for (const id of ids.split(',')) {
      const photo = plain.get(String(Number(id)));
      if (photo !== undefined) results[id] = photo;
    }
    return { results, statuses: {}, errors: {} };
  };
  // every match is counted: the page says how many there are (its total), as the service's does
  const finder = (format: string, count: number): unknown => {
    const matches = photos.filter((p) => p.format === format);
    return {
      elements: matches.slice(0, count),
      paging: { start: 0, count, total: matches.length, links: svcFinder.paging?.links ?? [] },
    };
  };

  if (app === 'fastify') {
    const bareFastify = fastify();
    bareFastify.get<{ Params: { id: string } }>('/bare/photos/:id', (request, reply) => {
      const photo = getById(request.params.id);
      if (photo === undefined) return reply.code(404).send({ status: 404 });
      return reply.send(photo);
    });
    bareFastify.get<{ Querystring: { ids?: string; format?: string; count?: string } }>(
      '/bare/photos',
      (request, reply) => {
        const q = request.query;
        return reply.send(
          q.ids !== undefined ? batchGet(q.ids) : finder(q.format ?? '', Number(q.count ?? 10)),
        );
      },
    );

    await bareFastify.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => bareFastify.close());
    return (bareFastify.server.address() as { port: number }).port;
  }
  const bareNode = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body: unknown;
    if (url.pathname.startsWith('/bare/photos/')) body = getById(url.pathname.slice('/bare/photos/'.length));
    else if (url.pathname === '/bare/photos') {
      const ids = url.searchParams.get('ids');
      body =
        ids !== null
          ? batchGet(ids)
          : finder(url.searchParams.get('format') ?? '', Number(url.searchParams.get('count') ?? 10));
    }
    const text = JSON.stringify(body ?? { status: 404 });
    res.writeHead(body === undefined ? 404 : 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  });

  const { port } = await new Promise<{ port: number }>((resolve) =>
    bareNode.listen(0, '127.0.0.1', () => resolve(bareNode.address() as { port: number })),
  );
  stops.push(() => {
    bareNode.closeAllConnections();
    return new Promise((r) => bareNode.close(r));
  });
  return port;
}

export function getText(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { 'x-svc-protocol-version': '2.0.0' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

export const pathOf = (app: App, c: Case): string =>
  app === 'node' || app === 'fastify' ? c.barePath : c.svcPath;

/**
 * Throws unless the four apps answer each case with the same JSON (parsed, so that key order and spacing do
 * not count): the ratios compare servers doing the same work.
 */
export async function checkSameAnswers(
  cases: readonly Case[],
  answer: (app: App, c: Case) => Promise<string>,
): Promise<void> {
  for (const c of cases) {
    const texts = await Promise.all(APPS.map((app) => answer(app, c)));
    const first: unknown = JSON.parse(texts[0]!);
    for (let i = 1; i < APPS.length; i++) {
      if (!isDeepStrictEqual(JSON.parse(texts[i]!), first))
        throw new Error(
          `bench resources: ${APPS[i]} answers ${c.name} otherwise than ${APPS[0]}:\n${texts[i]}\n${texts[0]}`,
        );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Driver process: the load generator against the server processes

async function runDriver(): Promise<void> {
  const start = pinned(0, [process.execPath, '-r', '@swc-node/register', __filename, '--server']);
  const servers: ChildProcess[] = [];
  /** The port and pid of each process of each app. */
  const instances: Record<App, Array<{ readonly port: number; readonly pid: number | undefined }>> = {
    node: [],
    fastify: [],
    plugin: [],
    standalone: [],
  };
  const startApp = async (app: App, env: NodeJS.ProcessEnv = {}): Promise<number> => {
    const server = spawn(start.cmd, start.args, {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...process.env, ...env, SVC_BENCH_APP: app },
    });
    servers.push(server);
    const port = await new Promise<number>((resolve, reject) => {
      server.once('message', (m) => resolve(m as number));
      server.once('exit', (code) => reject(new Error(`bench server ${app} exited with ${String(code)}`)));
    });
    instances[app].push({ port, pid: server.pid });
    return port;
  };
  stopServersWhenStopped(servers);
  const urlOf = (app: App, i: number, c: Case): string =>
    `http://127.0.0.1:${instances[app][i]!.port}${pathOf(app, c)}`;
  const run = async (
    app: App,
    i: number,
    c: Case,
    connections: number,
    duration: number,
  ): Promise<Measured> => {
    const url = urlOf(app, i, c);
    const pid = instances[app][i]!.pid;
    const before = processCpuMs(pid);
    const r = await runLoad({
      url,
      connections,
      seconds: duration,
      headers: { 'x-svc-protocol-version': '2.0.0' },
    });
    const after = processCpuMs(pid);
    return {
      rps: r.requests / r.seconds,
      p99: r.p99,
      mean: r.mean,
      non2xx: r.non2xx,
      errors: r.errors,
      cpuUs:
        before === undefined || after === undefined || r.requests === 0
          ? undefined
          : ((after - before) * 1000) / r.requests,
    };
  };
  const mean = (xs: Measured[]): Measured => ({
    rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
    p99: xs.reduce((s, x) => s + x.p99, 0) / xs.length,
    mean: xs.reduce((s, x) => s + x.mean, 0) / xs.length,
    non2xx: xs.reduce((s, x) => s + x.non2xx, 0),
    errors: xs.reduce((s, x) => s + x.errors, 0),
    cpuUs: xs.some((x) => x.cpuUs === undefined)
      ? undefined
      : xs.reduce((s, x) => s + x.cpuUs!, 0) / xs.length,
  });
  const results: DriverResult[] = [];
  try {
    const first = await startApp('standalone');
    // the bare servers send the finder's paging links as the service does
    const finderAnswer = await getText(first, CASES[2]!.svcPath);
    for (let i = 0; i < PROCESSES; i++) {
      if (i > 0) await startApp('standalone');
      await startApp('plugin');
      await startApp('node', { SVC_BENCH_FINDER_ANSWER: finderAnswer });
      await startApp('fastify', { SVC_BENCH_FINDER_ANSWER: finderAnswer });
      await checkSameAnswers(CASES, (app, c) => getText(instances[app][i]!.port, pathOf(app, c)));
    }
    // every process serves every case under both load generators, on connections opened and closed again,
    // before any run counts (load-generator.ts `warmUp`: the runs after a process's first deoptimized)
    for (let i = 0; i < PROCESSES; i++)
      for (const app of APPS)
        await warmUp({
          origin: `http://127.0.0.1:${instances[app][i]!.port}`,
          paths: CASES.map((c) => pathOf(app, c)),
          connections: CONNECTIONS[0],
          seconds: WARMUP_SECONDS,
          headers: { 'x-svc-protocol-version': '2.0.0' },
        });
    for (const connections of CONNECTIONS) {
      for (const c of CASES) {
        const warm: Record<App, Measured[]> = { node: [], fastify: [], plugin: [], standalone: [] };
        for (let i = 0; i < PROCESSES; i++)
          for (const app of APPS) warm[app].push(await run(app, i, c, connections, WARMUP_SECONDS));
        // every server gets the same offered load in the paced runs: a share of what bare node answered
        const rate = PACED_SHARE * median(warm.node.map((m) => m.rps));
        const measured: Record<App, Measured[]> = { node: [], fastify: [], plugin: [], standalone: [] };
        for (let round = 0; round < ROUNDS; round++) {
          // the apps' order rotates each round, so that none always runs first (or last) on a drifting machine
          const order = APPS.map((_, i) => APPS[(i + round) % APPS.length]!);
          if (round % 2 === 1) order.reverse();
          const instance = round % PROCESSES;
          const busy = new Map<App, Measured>();
          for (const app of order) busy.set(app, await run(app, instance, c, connections, RUN_SECONDS));
          for (const app of order) {
            const paced = canPace()
              ? await runPaced({
                  url: urlOf(app, instance, c),
                  connections,
                  seconds: RUN_SECONDS,
                  rate,
                  headers: { 'x-svc-protocol-version': '2.0.0' },
                })
              : undefined;
            measured[app].push(paced === undefined ? busy.get(app)! : { ...busy.get(app)!, paced });
          }
        }
        // the cross-check: each process pair side by side on the servers' core (wrk only: autocannon runs in
        // this driver's process, where two runs at once would share its one core and outrun neither server)
        let sideBySide: SideBySide | undefined;
        if (connections === CONNECTIONS[0] && loadGenerator() === 'wrk') {
          const ratios = {
            pluginFastify: [] as number[],
            standaloneNode: [] as number[],
            sameApp: [] as number[],
          };
          let failed = 0;
          // x's wrk is started first in even pairs and y's in odd ones: neither app always gets the head start
          const together = async (x: App, i: number, y: App, j: number): Promise<number> => {
            const runX = (): Promise<Measured> => run(x, i, c, connections, SIDE_BY_SIDE_SECONDS);
            const runY = (): Promise<Measured> => run(y, j, c, connections, SIDE_BY_SIDE_SECONDS);
            const [mx, my] =
              i % 2 === 0
                ? await Promise.all([runX(), runY()])
                : await Promise.all([runY(), runX()]).then(([b, a]) => [a, b] as const);
            for (const m of [mx, my]) if (m.non2xx + m.errors > 0) failed++;
            return mx.rps / my.rps;
          };
          for (let i = 0; i < PROCESSES; i++) {
            ratios.pluginFastify.push(await together('plugin', i, 'fastify', i));
            ratios.standaloneNode.push(await together('standalone', i, 'node', i));
            ratios.sameApp.push(await together('fastify', i, 'fastify', (i + 1) % PROCESSES));
          }
          sideBySide = { ...ratios, failed };
        }
        results.push({
          case: c.name,
          connections,
          pinned: start.pinned,
          pacedRate: rate,
          ...(sideBySide === undefined ? {} : { sideBySide }),
          rounds: measured,
          apps: {
            node: mean(measured.node),
            fastify: mean(measured.fastify),
            plugin: mean(measured.plugin),
            standalone: mean(measured.standalone),
          },
        });
      }
    }
  } finally {
    for (const server of servers) if (server.connected) server.send('stop');
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark file: facts from the driver

function suites(): Suite[] {
  // each run takes up to ~0.5 s beyond its duration (autocannon's connecting and report): counted, with room
  const runs = CONNECTIONS.length * CASES.length * APPS.length;
  // (the paced runs: one more per round, when h2load is installed)
  const perRound = canPace() ? 2 : 1;
  // (and each process's first warm-up: a run of WARMUP_SECONDS and the counted runs, or a second run)
  const warmUps = APPS.length * PROCESSES * (2 * WARMUP_SECONDS + 2);
  // (the side-by-side runs: three pairs per process, at one connection count)
  const sideBySide =
    loadGenerator() === 'wrk' ? CASES.length * PROCESSES * 3 * (SIDE_BY_SIDE_SECONDS + 0.75) : 0;
  const budget =
    (runs *
      (PROCESSES * WARMUP_SECONDS +
        perRound * ROUNDS * RUN_SECONDS +
        (PROCESSES + perRound * ROUNDS) * 0.75) +
      warmUps +
      sideBySide +
      90) *
    1000;
  const driver = pinned(1, [process.execPath, '-r', '@swc-node/register', __filename, '--driver']);
  const out = spawnSync(driver.cmd, driver.args, {
    encoding: 'utf8',
    timeout: budget,
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0)
    throw new Error(`resources bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const results = JSON.parse(lines[lines.length - 1]!) as DriverResult[];
  return results.map((r): Suite => {
    const a = r.apps;
    // p99 is each app's median over the rounds (a mean let one disturbed run decide it): of the paced runs
    // when there are any (the goal's), else of the runs at the server's limit
    const paced = APPS.every((app) => r.rounds[app].every((m) => m.paced !== undefined));
    const busyP99 = (app: App): number => median(r.rounds[app].map((m) => m.p99));
    const p99 = (app: App): number => (paced ? median(r.rounds[app].map((m) => m.paced!.p99)) : busyP99(app));
    const facts: Fact[] = [
      ...APPS.map((app): Fact => ({ label: `${LABELS[app]} requests/s`, value: a[app].rps, unit: 'req/s' })),
      ...APPS.map((app): Fact => ({
        label: `${LABELS[app]} p99 at its limit (median of rounds)`,
        value: busyP99(app) * 1000,
        unit: 'µs',
      })),
      ...(paced
        ? APPS.map((app): Fact => ({
            label: `${LABELS[app]} p99 paced (median of rounds)`,
            value: p99(app) * 1000,
            unit: 'µs',
          }))
        : []),
      ...APPS.map((app): Fact => ({ label: `${LABELS[app]} mean`, value: a[app].mean * 1000, unit: 'µs' })),
      ...APPS.flatMap((app): Fact[] => {
        const cpu = a[app].cpuUs;
        return cpu === undefined
          ? []
          : [{ label: `${LABELS[app]} server CPU per request`, value: cpu, unit: 'µs' }];
      }),
    ];
    const verdict = (ok: boolean): string => (ok ? 'meets' : 'misses');
    // each round's ratio (the two apps ran within seconds of each other), and their median, which decides
    const roundRatios = (x: App, y: App): number[] => r.rounds[x].map((m, i) => m.rps / r.rounds[y][i]!.rps);
    const ratio = (x: App, y: App): number => median(roundRatios(x, y));
    const spread = (x: App, y: App): string => {
      const rs = roundRatios(x, y);
      return `median of ${rs.length} rounds; rounds ${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)}, means ${(a[x].rps / a[y].rps).toFixed(2)}`;
    };
    const p99Verdict = (x: App): string => verdict(p99(x) <= 1.2 * p99('node'));
    const notes = [
      `${ROUNDS} rounds × ${RUN_SECONDS} s per app (order rotated each round) on ${PROCESSES} server processes per app (one per round), each warmed up on every case under both load generators before any run (warmUp), then ${WARMUP_SECONDS} s per case; ${loadGeneratorNote()}; ${r.pinned ? 'server and load generator pinned to one core each (taskset)' : 'not pinned'}`,
      `goal: createSvcServer ≥ 0.90× bare node:http requests/s: ${verdict(ratio('standalone', 'node') >= 0.9)} at ${ratio('standalone', 'node').toFixed(2)}× (${spread('standalone', 'node')})`,
      `goal: svcPlugin ≥ 0.90× bare node:http requests/s: ${verdict(ratio('plugin', 'node') >= 0.9)} at ${ratio('plugin', 'node').toFixed(2)}× (${spread('plugin', 'node')})`,
      `goal: svcPlugin ≥ 0.95× bare fastify requests/s: ${verdict(ratio('plugin', 'fastify') >= 0.95)} at ${ratio('plugin', 'fastify').toFixed(2)}× (${spread('plugin', 'fastify')})`,
      `goal: p99 ≤ 1.2× node's (${p99('node').toFixed(3)} ms, median of rounds): createSvcServer ${p99Verdict('standalone')} at ${p99('standalone').toFixed(3)} ms (${(p99('standalone') / p99('node')).toFixed(2)}×), svcPlugin ${p99Verdict('plugin')} at ${p99('plugin').toFixed(3)} ms (${(p99('plugin') / p99('node')).toFixed(2)}×) (each response's time, µs resolution; ${paced ? `paced runs at ${Math.round(r.pacedRate!)} requests/s, ${PACED_SHARE} of bare node's in the warmup, h2load` : loadGenerator() === 'wrk' ? "on a busy core, where each response also waits behind the others and the machine's stalls (install h2load, Debian's nghttp2-client, for paced runs)" : "at what autocannon sends (install h2load, Debian's nghttp2-client, for paced runs)"})`,
      `anchor: bare fastify at ${ratio('fastify', 'node').toFixed(2)}× bare node:http`,
    ];
    // The CPU each server spends per request is the ratio a saturated server reaches: printed beside (median
    // of rounds), not a verdict. Under wrk it is requests/s's own ratio (the servers' cores are busy); under
    // autocannon, which the bare servers nearly outrun, requests/s shows only part of a difference in it.
    if (APPS.every((app) => r.rounds[app].every((m) => m.cpuUs !== undefined))) {
      const cpu = (x: App, y: App): string =>
        median(r.rounds[x].map((m, i) => r.rounds[y][i]!.cpuUs! / m.cpuUs!)).toFixed(2);
      notes.push(
        `server CPU per request (all threads, user + system; means): ${APPS.map((app) => `${LABELS[app]} ${a[app].cpuUs!.toFixed(1)} µs`).join(', ')}; as a throughput ratio (median of rounds): createSvcServer ${cpu('standalone', 'node')}× bare node, svcPlugin ${cpu('plugin', 'node')}× bare node, svcPlugin ${cpu('plugin', 'fastify')}× bare fastify`,
      );
    }
    const side = r.sideBySide;
    if (side !== undefined) {
      const range = (rs: readonly number[]): string =>
        `${median(rs).toFixed(2)}× (${rs.length} process pairs, ${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`;
      notes.push(
        `cross-check side by side (each process pair on the servers' core at once, each under its own wrk, ${SIDE_BY_SIDE_SECONDS} s; the machine's drift hits both alike): svcPlugin ${range(side.pluginFastify)} bare fastify, createSvcServer ${range(side.standaloneNode)} bare node:http; the instrument's own noise, a bare fastify process beside another: ${range(side.sameApp)}${side.failed > 0 ? `; ${side.failed} runs had non-2xx answers or errors` : ''}`,
      );
    }
    const failures = APPS.filter((app) => a[app].non2xx + a[app].errors > 0);
    if (failures.length > 0)
      notes.push(
        `non-2xx or errors: ${failures.map((app) => `${LABELS[app]} ${a[app].non2xx}/${a[app].errors}`).join(', ')}`,
      );
    // the paced runs' answers are checked too: a server failing under the paced load is no latency to compare
    const pacedFailures = APPS.map(
      (app) => [app, r.rounds[app].reduce((n, m) => n + (m.paced?.non2xx ?? 0), 0)] as const,
    ).filter(([, n]) => n > 0);
    if (pacedFailures.length > 0)
      notes.push(
        `paced runs' non-2xx or lost requests: ${pacedFailures.map(([app, n]) => `${LABELS[app]} ${n}`).join(', ')}`,
      );
    return {
      title: `HTTP ${r.case}, ${r.connections} connections: the svc servers vs bare node:http and bare fastify (same JSON)`,
      short: `${r.case} @${r.connections}`,
      facts,
      ratios: [
        {
          name: 'requests/s createSvcServer / bare node',
          of: `${LABELS.standalone} requests/s`,
          to: `${LABELS.node} requests/s`,
          rounds: roundRatios('standalone', 'node'),
          goal: 0.9,
        },
        {
          name: 'requests/s svcPlugin / bare node',
          of: `${LABELS.plugin} requests/s`,
          to: `${LABELS.node} requests/s`,
          rounds: roundRatios('plugin', 'node'),
          goal: 0.9,
        },
        {
          name: 'requests/s svcPlugin / bare fastify',
          of: `${LABELS.plugin} requests/s`,
          to: `${LABELS.fastify} requests/s`,
          rounds: roundRatios('plugin', 'fastify'),
          goal: 0.95,
        },
      ],
      notes,
    };
  });
}

export const benchmark: BenchFile = {
  title:
    'Resource server over HTTP (wrk, else autocannon): get by id, batch_get of 10 and a finder page of 10 through createSvcServer and svcPlugin vs bare node:http and bare fastify returning the same JSON',
  suites,
};

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
