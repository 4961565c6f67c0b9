/**
 * BATCH_FINDER (issue 11): what running the criteria of one request in parallel buys, and what each criterion
 * costs the framework.
 *
 * 1. Parallel criteria: a per-criterion batch finder whose handler waits 10 ms (an RxJS timer) per criterion,
 *    one request of 100 criteria vs one of 1 criterion (one handler's latency, HTTP included), over loopback.
 *    Goal: the 100 criteria answer within 2× one handler's latency.
 * 2. One batch finder of 10 criteria vs the same 10 criteria as 10 finder requests, through the core client
 *    over loopback against the example service (`searchPhotos` vs `titleAndOrFormat`, the same store lookup
 *    per criterion): units of 10 criteria answered per second, the 10 finders one after another and all 10
 *    at once. Goal: the batch finder ≥ 1.00× the 10 finder requests.
 * 3. Framework overhead per criterion, in-process without HTTP (`ResourcePipeline.handle`, validation on as
 *    by default), handlers that answer at once with one entity per criterion, both handler forms:
 *    (t(100 criteria) − t(1 criterion)) / 99, next to one finder call's cost.
 *
 * How: the harness measures synchronous functions, so, as in resources.bench.ts, `suites()` spawns this file
 * as a *driver* (`--driver`), which measures suite 3 in its own process first, then forks a *server*
 * (`--server`: the example service and the 10 ms batch finder, each on its own fastify port) and drives
 * suites 1 and 2 with the client from its own process (one core each on a 2-core machine). Results come
 * back as JSON and are reported as facts; goals are printed as notes (measured, never asserted).
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type * as FastifyModule from 'fastify';
import type * as RxModule from 'rxjs';
import type * as SvcModule from '../src';
import type * as AppModule from '../examples/app';
import type * as PhotoModule from '../examples/src/main/generated/com/example/photos/Photo';
import type * as PhotoCriteriaModule from '../examples/src/main/generated/com/example/photos/PhotoCriteria';
import type * as PhotoFormatModule from '../examples/src/main/generated/com/example/photos/PhotoFormat';
import type { BenchFile, Fact, Suite } from './harness';
import { median } from './stats';
import { roleFromFlags, runRole } from './process-role';

/** Suite 1: what each criterion's handler waits, how many criteria, and requests per size per round. */
const HANDLER_MS = 10;
const PARALLEL_CRITERIA = 100;
const PARALLEL_ROUNDS = 3;
const PARALLEL_REPS = 15;
const PARALLEL_WARMUP = 5;

/** Suite 2: criteria per unit, rounds, and seconds per task per round (after a warmup per task). */
const UNIT_CRITERIA = 10;
const CLIENT_ROUNDS = 3;
const CLIENT_SECONDS = 1.5;
const CLIENT_WARMUP_SECONDS = 0.4;

/** Suite 3: rounds and milliseconds per task per round (task order rotated), after a warmup per task. */
const OVERHEAD_ROUNDS = 5;
const OVERHEAD_MS = 300;
const OVERHEAD_WARMUP_MS = 300;
const OVERHEAD_CRITERIA = 100;

const PROTOCOL_HEADERS = { 'x-svc-protocol-version': '2.0.0' };

// ---------------------------------------------------------------------------------------------------------
// Modules, loaded in the child processes only

interface Loaded {
  readonly svc: typeof SvcModule;
  readonly rx: typeof RxModule;
  readonly Photo: typeof PhotoModule.Photo;
  readonly PhotoCriteria: typeof PhotoCriteriaModule.PhotoCriteria;
  readonly PhotoFormat: typeof PhotoFormatModule.PhotoFormat;
}

function loadModules(): Loaded {
  // loaded here, not at the top: the example's generated classes must not be registered in the bench runner's
  // process, where other benchmarks load the fixture tree's classes of the same names
  const load = createRequire(__filename);
  const generated = '../examples/src/main/generated/com/example/photos/';
  return {
    svc: load('../src') as typeof SvcModule,
    rx: load('rxjs') as typeof RxModule,
    Photo: (load(`${generated}Photo`) as typeof PhotoModule).Photo,
    PhotoCriteria: (load(`${generated}PhotoCriteria`) as typeof PhotoCriteriaModule).PhotoCriteria,
    PhotoFormat: (load(`${generated}PhotoFormat`) as typeof PhotoFormatModule).PhotoFormat,
  };
}

/**
 * The benchmark's own `items` collection: a per-criterion batch finder that waits {@link HANDLER_MS} per
 * criterion (suite 1), and handlers that answer at once (suite 3): a finder, and a batch finder in each form.
 * Every answer is the same one small photo, so that the work left is the framework's.
 */
function itemsResource(m: Loaded) {
  const { svc, rx, Photo, PhotoCriteria, PhotoFormat } = m;
  const photo = new Photo().setId(1).setTitle('photo').setFormat(PhotoFormat.JPEG);
  const criteria = { criteria: svc.criteriaOf(PhotoCriteria) };
  return svc.collection({
    name: 'items',
    key: svc.LONG_KEY,
    value: Photo,
    methods: {
      finders: {
        now: svc.finder(
          { params: { title: svc.STRING, format: svc.enumOf(PhotoFormat) } },
          (): PhotoModule.Photo[] => [photo],
        ),
      },
      batchFinders: {
        waits: svc.batchFinder.perCriterion({ batchParam: 'criteria', params: criteria }, () =>
          rx.timer(HANDLER_MS).pipe(rx.map((): PhotoModule.Photo[] => [photo])),
        ),
        wholeNow: svc.batchFinder({ batchParam: 'criteria', params: criteria }, (all) => {
          const out = new svc.BatchFinderResult<PhotoCriteriaModule.PhotoCriteria, PhotoModule.Photo>();
          for (const c of all) out.putResult(c, [photo]);
          return out;
        }),
        eachNow: svc.batchFinder.perCriterion(
          { batchParam: 'criteria', params: criteria },
          (): PhotoModule.Photo[] => [photo],
        ),
      },
    },
  });
}

/** `n` distinct criteria. */
function criteriaList(m: Loaded, n: number): PhotoCriteriaModule.PhotoCriteria[] {
  const formats = [m.PhotoFormat.JPEG, m.PhotoFormat.PNG, m.PhotoFormat.GIF];
  return Array.from({ length: n }, (_, i) =>
    new m.PhotoCriteria().setTitle(`photo-${i}`).setFormat(formats[i % formats.length]!),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

// ---------------------------------------------------------------------------------------------------------
// Server process: the example service and the items resource

async function runServer(): Promise<void> {
  const m = loadModules();
  const load = createRequire(__filename);
  const fastify = (load('fastify') as typeof FastifyModule).default;
  const { createExampleApp } = load('../examples/app') as typeof AppModule;

  const example = await createExampleApp();
  const items = fastify(m.svc.svcServerOptions());
  await items.register(m.svc.svcPlugin, { resources: [itemsResource(m)] });

  await example.listen({ port: 0, host: '127.0.0.1' });
  await items.listen({ port: 0, host: '127.0.0.1' });
  const port = (app: { server: { address(): unknown } }): number =>
    (app.server.address() as { port: number }).port;
  process.send!({ example: port(example), items: port(items) });
  process.on('message', (msg) => {
    if (msg === 'stop') void Promise.all([example.close(), items.close()]).then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------------------------------------------------
// Driver process

interface ParallelResult {
  /** Per-request wall times, ms. */
  readonly one: readonly number[];
  readonly many: readonly number[];
}

interface ClientResult {
  /** Units (of UNIT_CRITERIA criteria) per second, per round. */
  readonly batch: readonly number[];
  readonly findersSequential: readonly number[];
  readonly findersParallel: readonly number[];
}

interface OverheadResult {
  /** Task name → mean ns per call, per round. */
  readonly tasks: Readonly<Record<string, readonly number[]>>;
}

interface DriverResult {
  readonly parallel: ParallelResult;
  readonly client: ClientResult;
  readonly overhead: OverheadResult;
}

const OVERHEAD_TASKS = [
  'finder',
  'whole batch × 1',
  'whole batch × 100',
  'per criterion × 1',
  'per criterion × 100',
] as const;

/** Suite 3: each task's mean time per call, in interleaved rounds; no HTTP, no sockets. */
async function measureOverhead(m: Loaded): Promise<OverheadResult> {
  const pipeline = m.svc.createResourcePipeline(m.svc.resolveSvcOptions({ resources: [itemsResource(m)] }));
  const silent = { error() {}, warn() {}, info() {}, debug() {} };
  const headers = { host: 'bench', ...PROTOCOL_HEADERS };
  const requestFor = (query: string): SvcModule.ResourceRequest => ({
    method: 'GET',
    url: `/items?${query}`,
    path: '/items',
    query,
    headers,
    body: undefined,
    attributes: new Map(),
  });
  const criteriaQuery = (name: string, n: number): string => {
    const list = criteriaList(m, n).map((c) => `(title:${c.getTitle()},format:${c.getFormat()})`);
    return `bq=${name}&criteria=List(${list.join(',')})`;
  };
  const requests: Record<(typeof OVERHEAD_TASKS)[number], { request: SvcModule.ResourceRequest; n: number }> =
    {
      finder: { request: requestFor('q=now&title=photo-0&format=JPEG'), n: 1 },
      'whole batch × 1': { request: requestFor(criteriaQuery('wholeNow', 1)), n: 1 },
      'whole batch × 100': {
        request: requestFor(criteriaQuery('wholeNow', OVERHEAD_CRITERIA)),
        n: OVERHEAD_CRITERIA,
      },
      'per criterion × 1': { request: requestFor(criteriaQuery('eachNow', 1)), n: 1 },
      'per criterion × 100': {
        request: requestFor(criteriaQuery('eachNow', OVERHEAD_CRITERIA)),
        n: OVERHEAD_CRITERIA,
      },
    };
  // each answer checked once: a 400 would be cheap and measure nothing
  for (const [name, { request, n }] of Object.entries(requests)) {
    const out = await pipeline.handle(request, silent, true);
    const text =
      typeof out.body === 'string' ? out.body : Buffer.from(out.body ?? new Uint8Array()).toString();
    const body = JSON.parse(text) as {
      elements: Array<{ elements?: unknown[]; isError?: boolean }>;
    };
    const ok =
      out.status === 200 &&
      (name === 'finder'
        ? body.elements.length === 1
        : body.elements.length === n &&
          body.elements.every((e) => e.isError !== true && e.elements?.length === 1));
    if (!ok)
      throw new Error(
        `overhead task '${name}' answered ${out.status}: ${JSON.stringify(body).slice(0, 300)}`,
      );
  }
  // the whole-batch form with synchronous handlers answers synchronously: no await then, as a server would
  const timeFor = async (request: SvcModule.ResourceRequest, ms: number): Promise<number> => {
    let calls = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < ms) {
      for (let i = 0; i < 16; i++) {
        const out = pipeline.handle(request, silent, true);
        if (out instanceof Promise) await out;
      }
      calls += 16;
      t = performance.now();
    }
    return ((t - t0) * 1e6) / calls;
  };
  for (const name of OVERHEAD_TASKS) await timeFor(requests[name].request, OVERHEAD_WARMUP_MS);
  // No forced GC between tasks, unlike the harness: here each `gc()` deoptimized the pipeline's optimized code
  // (V8's --trace-deopt: ~1,000 "weak objects" deopts in a run, vs ~20 without) and left every task 2–5× slower
  // for the next few hundred ms. The rotated order gives every task the same share of GC instead.
  const tasks: Record<string, number[]> = Object.fromEntries(OVERHEAD_TASKS.map((n) => [n, []]));
  for (let r = 0; r < OVERHEAD_ROUNDS; r++) {
    const shift = r % OVERHEAD_TASKS.length;
    const order = [...OVERHEAD_TASKS.slice(shift), ...OVERHEAD_TASKS.slice(0, shift)];
    for (const name of order) {
      tasks[name]!.push(await timeFor(requests[name].request, OVERHEAD_MS));
    }
  }
  return { tasks };
}

async function runDriver(): Promise<void> {
  const m = loadModules();
  const overhead = await measureOverhead(m);

  const server: ChildProcess = fork(__filename, ['--server'], {
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ports = await new Promise<{ example: number; items: number }>((resolve, reject) => {
    server.once('message', (msg) => resolve(msg as { example: number; items: number }));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${String(code)}`)));
  });
  try {
    const parallel = await measureParallel(m, ports.items);
    const client = await measureClient(m, ports.example);
    process.stdout.write(`${JSON.stringify({ parallel, client, overhead } satisfies DriverResult)}\n`);
  } finally {
    server.send('stop');
  }
}

/** Suite 1: requests of 1 and of 100 waiting criteria, alternated. */
async function measureParallel(m: Loaded, port: number): Promise<ParallelResult> {
  const client = m.svc.createClient({ baseUrl: `http://127.0.0.1:${port}` });
  const send = async (n: number): Promise<number> => {
    const criteria = criteriaList(m, n);
    const t0 = performance.now();
    const r = await client.send({
      method: 'batch_finder',
      resource: 'items',
      name: 'waits',
      batchParam: 'criteria',
      criteria,
      template: m.Photo,
    });
    const ms = performance.now() - t0;
    if (r.results.length !== n || r.results.some((x) => x.isError || x.elements.length !== 1))
      throw new Error(`waits answered ${r.results.length} results for ${n} criteria, or errors`);
    return ms;
  };
  const one: number[] = [];
  const many: number[] = [];
  for (let i = 0; i < PARALLEL_WARMUP; i++) {
    await send(1);
    await send(PARALLEL_CRITERIA);
  }
  for (let r = 0; r < PARALLEL_ROUNDS; r++) {
    for (let i = 0; i < PARALLEL_REPS; i++) {
      // which size goes first alternates, so neither always follows the other's garbage
      if ((r + i) % 2 === 0) {
        one.push(await send(1));
        many.push(await send(PARALLEL_CRITERIA));
      } else {
        many.push(await send(PARALLEL_CRITERIA));
        one.push(await send(1));
      }
    }
  }
  return { one, many };
}

/** Suite 2: units of 10 criteria per second, the batch finder vs 10 finder requests, in rotated rounds. */
async function measureClient(m: Loaded, port: number): Promise<ClientResult> {
  const client = m.svc.createClient({ baseUrl: `http://127.0.0.1:${port}` });
  const { PhotoCriteria, PhotoFormat, Photo } = m;
  // titles and formats of the seeded library (examples/store.ts): every criterion matches one photo
  const seeded: ReadonlyArray<readonly [string, PhotoFormatModule.PhotoFormat]> = [
    ['Sunrise over the bay', PhotoFormat.JPEG],
    ['Harbour lights', PhotoFormat.PNG],
    ['Dunes at noon', PhotoFormat.JPEG],
    ['Été à Paris ☀', PhotoFormat.HEIC],
    ['Old barn', PhotoFormat.RAW],
    ['Fireworks', PhotoFormat.GIF],
  ];
  const picked = Array.from({ length: UNIT_CRITERIA }, (_, i) => seeded[i % seeded.length]!);
  const criteria = picked.map(([title, format]) => new PhotoCriteria().setTitle(title).setFormat(format));
  const batch = async (): Promise<void> => {
    const r = await client.send({
      method: 'batch_finder',
      resource: 'photos',
      name: 'searchPhotos',
      batchParam: 'criteria',
      criteria,
      template: Photo,
    });
    if (r.results.length !== UNIT_CRITERIA || r.results.some((x) => x.isError || x.elements.length !== 1))
      throw new Error('searchPhotos did not answer one photo per criterion');
  };
  const finder = async ([title, format]: readonly [string, PhotoFormatModule.PhotoFormat]): Promise<void> => {
    const r = await client.send({
      method: 'finder',
      resource: 'photos',
      name: 'titleAndOrFormat',
      params: { title, format },
      template: Photo,
    });
    if (r.elements.length !== 1)
      throw new Error(`titleAndOrFormat found ${r.elements.length} photos for ${title}`);
  };
  const tasks: ReadonlyArray<readonly [keyof ClientResult, () => Promise<void>]> = [
    ['batch', batch],
    [
      'findersSequential',
      async () => {
        for (const p of picked) await finder(p);
      },
    ],
    [
      'findersParallel',
      async () => {
        await Promise.all(picked.map(finder));
      },
    ],
  ];
  const unitsPerSecond = async (task: () => Promise<void>, seconds: number): Promise<number> => {
    let units = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < seconds * 1000) {
      await task();
      units++;
      t = performance.now();
    }
    return (units * 1000) / (t - t0);
  };
  for (const [, task] of tasks) await unitsPerSecond(task, CLIENT_WARMUP_SECONDS);
  const out: Record<keyof ClientResult, number[]> = { batch: [], findersSequential: [], findersParallel: [] };
  for (let r = 0; r < CLIENT_ROUNDS; r++) {
    const shift = r % tasks.length;
    for (const [name, task] of [...tasks.slice(shift), ...tasks.slice(0, shift)]) {
      out[name].push(await unitsPerSecond(task, CLIENT_SECONDS));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark file: facts from the driver

const verdict = (ok: boolean): string => (ok ? 'meets' : 'misses');
const µs = (ns: number): string => `${(ns / 1000).toFixed(2)} µs`;

function parallelSuite(r: ParallelResult): Suite {
  const one = median(r.one);
  const many = median(r.many);
  const ratio = many / one;
  const nominal = many / HANDLER_MS;
  return {
    title: `Parallel criteria: one request of ${PARALLEL_CRITERIA} criteria whose handler waits ${HANDLER_MS} ms each vs one of 1 criterion (per-criterion form, HTTP on loopback)`,
    short: `${PARALLEL_CRITERIA} criteria × ${HANDLER_MS} ms`,
    facts: [
      { label: `wall time, ${PARALLEL_CRITERIA} criteria (median)`, value: many * 1000, unit: 'µs' },
      { label: `wall time, ${PARALLEL_CRITERIA} criteria (mean)`, value: mean(r.many) * 1000, unit: 'µs' },
      { label: 'one handler latency: 1 criterion (median)', value: one * 1000, unit: 'µs' },
      { label: 'one handler latency: 1 criterion (mean)', value: mean(r.one) * 1000, unit: 'µs' },
      { label: 'handler wait (nominal)', value: HANDLER_MS * 1000, unit: 'µs' },
    ],
    ratios: [
      {
        name: `wall ${PARALLEL_CRITERIA} criteria / one handler latency (medians)`,
        of: `wall time, ${PARALLEL_CRITERIA} criteria (median)`,
        to: 'one handler latency: 1 criterion (median)',
      },
      {
        name: `wall ${PARALLEL_CRITERIA} criteria / nominal ${HANDLER_MS} ms wait`,
        of: `wall time, ${PARALLEL_CRITERIA} criteria (median)`,
        to: 'handler wait (nominal)',
      },
    ],
    notes: [
      `${PARALLEL_ROUNDS * PARALLEL_REPS} requests of each size, alternated, after ${PARALLEL_WARMUP} of each; core client in its own process; default concurrency (256): all ${PARALLEL_CRITERIA} run at once`,
      `goal: wall time of ${PARALLEL_CRITERIA} criteria ≤ 2.00× one handler's latency: ${verdict(ratio <= 2)} at ${ratio.toFixed(2)}× (${many.toFixed(2)} ms vs ${one.toFixed(2)} ms; ${nominal.toFixed(2)}× the nominal ${HANDLER_MS} ms)`,
      `sequentially, ${PARALLEL_CRITERIA} criteria would take ≥ ${PARALLEL_CRITERIA * HANDLER_MS} ms`,
    ],
  };
}

function clientSuite(r: ClientResult): Suite {
  const batch = mean(r.batch);
  const seq = mean(r.findersSequential);
  const par = mean(r.findersParallel);
  const spread = (xs: readonly number[]): string => {
    const ratios = r.batch.map((b, i) => b / (xs[i] ?? Number.NaN));
    return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  };
  return {
    title: `One batch finder of ${UNIT_CRITERIA} criteria vs ${UNIT_CRITERIA} finder requests, through the core client (example service, HTTP on loopback)`,
    short: `batch finder of ${UNIT_CRITERIA} vs ${UNIT_CRITERIA} finders`,
    facts: [
      { label: `batch finder (${UNIT_CRITERIA} criteria) per second`, value: batch, unit: 'units/s' },
      { label: `${UNIT_CRITERIA} finders, one after another, per second`, value: seq, unit: 'units/s' },
      { label: `${UNIT_CRITERIA} finders, all at once, per second`, value: par, unit: 'units/s' },
      { label: 'criteria per second, batch finder', value: batch * UNIT_CRITERIA, unit: 'criteria/s' },
      { label: 'criteria per second, finders all at once', value: par * UNIT_CRITERIA, unit: 'criteria/s' },
    ],
    ratios: [
      {
        name: 'batch finder / finders one after another',
        of: `batch finder (${UNIT_CRITERIA} criteria) per second`,
        to: `${UNIT_CRITERIA} finders, one after another, per second`,
      },
      {
        name: 'batch finder / finders all at once',
        of: `batch finder (${UNIT_CRITERIA} criteria) per second`,
        to: `${UNIT_CRITERIA} finders, all at once, per second`,
      },
    ],
    notes: [
      `a unit is ${UNIT_CRITERIA} criteria answered: one searchPhotos request, or ${UNIT_CRITERIA} titleAndOrFormat requests (awaited one by one, or sent together with Promise.all); one unit in flight at a time`,
      `${CLIENT_ROUNDS} rounds × ${CLIENT_SECONDS} s per task (order rotated) after ${CLIENT_WARMUP_SECONDS} s warmup each; client in its own process, server in another`,
      `goal: batch finder ≥ 1.00× ${UNIT_CRITERIA} finders one after another: ${verdict(batch >= seq)} at ${(batch / seq).toFixed(2)}× [rounds ${spread(r.findersSequential)}]`,
      `goal: batch finder ≥ 1.00× ${UNIT_CRITERIA} finders all at once: ${verdict(batch >= par)} at ${(batch / par).toFixed(2)}× [rounds ${spread(r.findersParallel)}]`,
    ],
  };
}

function overheadSuite(r: OverheadResult): Suite {
  const t = (name: (typeof OVERHEAD_TASKS)[number]): number => median(r.tasks[name] ?? []);
  const perCriterion = (many: number, one: number): number => (many - one) / (OVERHEAD_CRITERIA - 1);
  const whole = perCriterion(t('whole batch × 100'), t('whole batch × 1'));
  const each = perCriterion(t('per criterion × 100'), t('per criterion × 1'));
  const finder = t('finder');
  const facts: Fact[] = [
    ...OVERHEAD_TASKS.map((name): Fact => ({ label: `${name} (per request)`, value: t(name), unit: 'ns' })),
    { label: 'overhead per criterion, whole batch', value: whole, unit: 'ns' },
    { label: 'overhead per criterion, per criterion', value: each, unit: 'ns' },
  ];
  return {
    title: `Framework overhead per criterion, in-process (ResourcePipeline.handle, no HTTP): ${OVERHEAD_CRITERIA} vs 1 criterion, handlers answering at once`,
    short: 'overhead per criterion',
    facts,
    ratios: [
      {
        name: 'whole batch: overhead per criterion / finder request',
        of: 'overhead per criterion, whole batch',
        to: 'finder (per request)',
      },
      {
        name: 'per criterion: overhead per criterion / finder request',
        of: 'overhead per criterion, per criterion',
        to: 'finder (per request)',
      },
    ],
    notes: [
      `overhead per criterion = (t(${OVERHEAD_CRITERIA} criteria) − t(1)) / ${OVERHEAD_CRITERIA - 1}: whole batch ${µs(whole)}, per criterion ${µs(each)}; one finder request ${µs(finder)}`,
      'includes parsing and validating each criterion from the query, invoking, matching results to criteria, building and JSON-encoding one small photo per criterion',
      `medians of ${OVERHEAD_ROUNDS} rounds × ${OVERHEAD_MS} ms per task (order rotated); the whole-batch form answers synchronously, the per-criterion form through RxJS and a promise`,
    ],
  };
}

function suites(): Suite[] {
  const budgetSeconds =
    (OVERHEAD_TASKS.length * (OVERHEAD_WARMUP_MS + OVERHEAD_ROUNDS * OVERHEAD_MS)) / 1000 +
    PARALLEL_ROUNDS * PARALLEL_REPS * 0.2 +
    3 * (CLIENT_WARMUP_SECONDS + CLIENT_ROUNDS * CLIENT_SECONDS) +
    60;
  const out = spawnSync(process.execPath, ['-r', '@swc-node/register', __filename, '--driver'], {
    encoding: 'utf8',
    timeout: budgetSeconds * 1000,
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0)
    throw new Error(`batch-finder bench driver failed (${String(out.status ?? out.signal)}):\n${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  const result = JSON.parse(lines[lines.length - 1]!) as DriverResult;
  return [parallelSuite(result.parallel), clientSuite(result.client), overheadSuite(result.overhead)];
}

export const benchmark: BenchFile = {
  title:
    'BATCH_FINDER: parallel criteria vs one handler latency, one batch finder of 10 vs 10 finder requests through the client, framework overhead per criterion',
  suites,
};

if (require.main === module) runRole(roleFromFlags({ server: runServer, driver: runDriver }));
