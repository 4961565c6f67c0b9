import cluster from 'node:cluster';
import { AggregatorRegistry, Gauge, type Metric, Registry, collectDefaultMetrics } from 'prom-client';
import { type AttachmentQueue, JOB_STATES, type JobObserver, type JobProbe, type RunningJob } from '../queue';
import type {
  EncodedResponse,
  Invocation,
  RequestObserver,
  RequestProbe,
  ResourceRequest,
} from '../resources';
import { type ExcludeOption, excluder } from './exclude';
import { markRequestStream, streamedBytes } from './streamed-bytes';
import { scrapeThroughPrimary, scrapesThroughPrimary } from './metrics-cluster';

/**
 * Prometheus metrics of a service, through `prom-client`: requests by resource, method and status,
 * durations, requests in flight, attachment bytes, batch sizes, queue jobs, and the process defaults
 * (event-loop lag, heap, GC). Per request the observer only counts into plain numbers kept per method
 * (a few additions, no label hashing, no allocation once a method was seen); they become metric values
 * when Prometheus scrapes. prom-client's own `labels().observe()` hashes its labels on every call, which
 * was 3 of them per request (bench/runtime-observe.bench.ts, "metrics on vs off").
 *
 * ```ts
 * const metrics = createMetrics();
 * await app.register(svcPlugin, { resources, observers: [metrics.observer] });
 * app.get('/metrics', metrics.route); // the Prometheus text format
 * ```
 */

/** Options of {@link createMetrics}; defaults in {@link DEFAULT_METRICS_OPTIONS}. */
export interface MetricsOptions {
  /** Where the metrics go. Default a new `Registry` (so several servers in one process do not clash). */
  readonly registry?: Registry;
  /** Also collect prom-client's process metrics (event-loop lag, heap, GC, CPU, handles). Default true. */
  readonly processMetrics?: boolean;
  /** Prefix of the service metrics' names. Default `svc_`. */
  readonly prefix?: string;
  /** Upper bounds of the request and job duration buckets, seconds. */
  readonly durationBuckets?: readonly number[];
  /** Upper bounds of the batch size buckets (ids, entities, criteria). */
  readonly batchSizeBuckets?: readonly number[];
  /** Requests not counted (the health checks, the scrape itself): paths, or a test of the path. */
  readonly exclude?: ExcludeOption;
}

/** The defaults of `createMetrics`: process metrics, the metric name prefix, the duration buckets. */
export const DEFAULT_METRICS_OPTIONS = Object.freeze({
  processMetrics: true,
  prefix: 'svc_',
  durationBuckets: Object.freeze([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  batchSizeBuckets: Object.freeze([1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000]),
});

/** A service's metrics: the observers to hand to the server and the queue, and the scrape. */
export interface SvcMetrics {
  readonly registry: Registry;
  /** For `svcPlugin`'s `observers`. */
  readonly observer: RequestObserver;
  /** For `AttachmentQueue`'s `observers`: job durations, outcomes and retries by job name. */
  readonly jobObserver: JobObserver;
  /** Reports the jobs of `queue` by state at each scrape (`svc_jobs{state}`). */
  watchQueue(queue: AttachmentQueue): void;
  /**
   * The scrape: the Prometheus text format and its content type. In a worker of `svc serve --workers n`
   * (`serve()` with workers) it is every worker's totals, asked of the runner's primary; else this
   * process's, as {@link SvcMetrics.scrapeLocal}.
   */
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>;
  /** This process's metrics alone. */
  scrapeLocal(): Promise<{ readonly contentType: string; readonly body: string }>;
  /** A fastify route handler answering the scrape (`app.get('/metrics', metrics.route)`). */
  readonly route: (
    request: unknown,
    reply: { header(name: string, value: string): unknown; send(body: string): unknown },
  ) => Promise<void>;
}

/** One histogram's counts: per bucket (not cumulative; the last is +Inf), sum and count. */
class Buckets {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]!) i++;
    this.counts[i]!++;
    this.sum += v;
    this.count++;
  }
}

/** What is counted of one resource method. */
class MethodStats {
  /** Responses by status code. */
  readonly byStatus = new Map<number, number>();
  readonly duration: Buckets;
  /** Only for batch methods (created on the first batch). */
  batch: Buckets | undefined;
  constructor(
    readonly labels: { readonly resource: string; readonly method: string },
    durationBounds: readonly number[],
  ) {
    this.duration = new Buckets(durationBounds);
  }
}

/** A metric whose values are computed at each scrape (prom-client's registry formats and aggregates it). */
class CollectedMetric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram' | 'gauge',
    private readonly values: () => Array<{
      labels: Record<string, string | number>;
      value: number;
      metricName?: string;
    }>,
    readonly aggregator: 'sum' | 'max' = 'sum',
  ) {}
  get(): Promise<{ name: string; help: string; type: string; values: unknown[]; aggregator: string }> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values: this.values(),
      aggregator: this.aggregator,
    });
  }
  reset(): void {
    // values are computed from the observers' counts, which live as long as the server
  }
}

function histogramValues(
  name: string,
  labels: Record<string, string>,
  h: Buckets,
  out: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }>,
): void {
  let acc = 0;
  for (let i = 0; i < h.bounds.length; i++) {
    acc += h.counts[i]!;
    out.push({ labels: { ...labels, le: h.bounds[i]! }, value: acc, metricName: `${name}_bucket` });
  }
  out.push({ labels: { ...labels, le: '+Inf' }, value: h.count, metricName: `${name}_bucket` });
  out.push({ labels, value: h.sum, metricName: `${name}_sum` });
  out.push({ labels, value: h.count, metricName: `${name}_count` });
}

/** The label of a method: `get`, `finder:byTag`, `action:purge`, `batch_finder:search`. */
function methodLabel(inv: Invocation): string {
  return inv.methodName === undefined ? inv.method : `${inv.method}:${inv.methodName}`;
}

/** Registries a cluster worker reports to the primary's {@link serveClusterMetrics} (prom-client IPC). */
const workerRegistries: Registry[] = [];

/**
 * Creates the metrics of a service. In a `node:cluster` worker its registry also answers the primary's
 * aggregated scrape ({@link serveClusterMetrics}).
 */
export function createMetrics(options: MetricsOptions = {}): SvcMetrics {
  const registry = options.registry ?? new Registry();
  const prefix = options.prefix ?? DEFAULT_METRICS_OPTIONS.prefix;
  const durationBounds = [...(options.durationBuckets ?? DEFAULT_METRICS_OPTIONS.durationBuckets)];
  const batchBounds = [...(options.batchSizeBuckets ?? DEFAULT_METRICS_OPTIONS.batchSizeBuckets)];
  for (const [name, b] of [
    ['durationBuckets', durationBounds],
    ['batchSizeBuckets', batchBounds],
  ] as const) {
    if (b.length === 0 || b.some((v, i) => !Number.isFinite(v) || (i > 0 && v <= b[i - 1]!)))
      throw new TypeError(`createMetrics: ${name} must be increasing finite numbers`);
  }
  const excluded = excluder(options.exclude);
  /** Per method model (a WeakMap on the registered method: no key strings built per request). */
  const byTarget = new WeakMap<object, MethodStats>();
  const all: MethodStats[] = [];
  const unrouted = new MethodStats({ resource: '', method: '' }, durationBounds);
  all.push(unrouted);
  let inFlight = 0;
  let bytesIn = 0;
  let bytesOut = 0;

  const statsOf = (inv: Invocation): MethodStats => {
    let s = byTarget.get(inv.target);
    if (s === undefined) {
      s = new MethodStats({ resource: inv.resource.path, method: methodLabel(inv) }, durationBounds);
      byTarget.set(inv.target, s);
      all.push(s);
    }
    return s;
  };

  class Probe implements RequestProbe {
    stats = unrouted;
    readonly readMark: number | undefined;
    constructor(
      readonly request: ResourceRequest,
      readonly started: number,
    ) {
      this.readMark = request.bodyStream === undefined ? undefined : markRequestStream(request);
    }
    routed(invocation: Invocation, batchSize: number): void {
      const s = statsOf(invocation);
      this.stats = s;
      if (batchSize > 0) (s.batch ??= new Buckets(batchBounds)).observe(batchSize);
    }
    finished(response: EncodedResponse): void {
      inFlight--;
      const s = this.stats;
      s.duration.observe((performance.now() - this.started) / 1000);
      s.byStatus.set(response.status, (s.byStatus.get(response.status) ?? 0) + 1);
      if (this.request.bodyStream !== undefined || response.stream !== undefined)
        streamedBytes(this.request, this.readMark, response, (i, o) => {
          bytesIn += i;
          bytesOut += o;
        });
    }
  }

  const observer: RequestObserver = {
    start(request) {
      if (excluded !== undefined && excluded(request)) return undefined;
      inFlight++;
      return new Probe(request, performance.now());
    },
  };

  const requests = new CollectedMetric(
    `${prefix}requests_total`,
    'Requests answered, by resource, method and status',
    'counter',
    () => {
      const out = [];
      for (const s of all)
        for (const [status, n] of s.byStatus)
          out.push({ labels: { ...s.labels, status: String(status) }, value: n });
      return out;
    },
  );
  const durations = new CollectedMetric(
    `${prefix}request_duration_seconds`,
    'Time from the request reaching the server to its response being ready, by resource and method',
    'histogram',
    () => {
      const out: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }> = [];
      for (const s of all)
        if (s.duration.count > 0)
          histogramValues(`${prefix}request_duration_seconds`, s.labels, s.duration, out);
      return out;
    },
  );
  const batches = new CollectedMetric(
    `${prefix}batch_size`,
    'Items of batch requests (ids, entities, criteria), by resource and method',
    'histogram',
    () => {
      const out: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }> = [];
      for (const s of all)
        if (s.batch !== undefined) histogramValues(`${prefix}batch_size`, s.labels, s.batch, out);
      return out;
    },
  );
  const flight = new CollectedMetric(
    `${prefix}requests_in_flight`,
    'Requests started and not yet answered',
    'gauge',
    () => [{ labels: {}, value: inFlight }],
  );
  const attachmentBytes = new CollectedMetric(
    `${prefix}attachment_bytes_total`,
    'Bytes of streamed (multipart/related) request and response bodies, by direction',
    'counter',
    () => [
      { labels: { direction: 'in' }, value: bytesIn },
      { labels: { direction: 'out' }, value: bytesOut },
    ],
  );

  // jobs: by name and outcome
  const jobDurations = new Map<string, Buckets>();
  const jobOutcomes = new Map<string, number>();
  const jobRetries = new Map<string, number>();
  const jobObserver: JobObserver = {
    enqueuing: () => undefined,
    attempt(job: RunningJob): JobProbe {
      const started = performance.now();
      return {
        run: (fn) => fn(),
        finished(error, final) {
          const outcome =
            error === undefined ? 'completed' : !final ? 'retried' : isCancel(error) ? 'cancelled' : 'failed';
          if (!final && error !== undefined && !isShutdown(error))
            jobRetries.set(job.name, (jobRetries.get(job.name) ?? 0) + 1);
          if (isShutdown(error)) return;
          const key = `${job.name}\u0000${outcome}`;
          let h = jobDurations.get(key);
          if (h === undefined) jobDurations.set(key, (h = new Buckets(durationBounds)));
          h.observe((performance.now() - started) / 1000);
          jobOutcomes.set(key, (jobOutcomes.get(key) ?? 0) + 1);
        },
      };
    },
  };
  const jobAttempts = new CollectedMetric(
    `${prefix}job_attempts_total`,
    'Job attempts run by this process, by job name and outcome (completed, retried, failed, cancelled)',
    'counter',
    () =>
      [...jobOutcomes].map(([key, n]) => {
        const [name, outcome] = key.split('\u0000') as [string, string];
        return { labels: { name, outcome }, value: n };
      }),
  );
  const jobDuration = new CollectedMetric(
    `${prefix}job_duration_seconds`,
    'Time a job attempt took in this process, by job name and outcome',
    'histogram',
    () => {
      const out: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }> = [];
      for (const [key, h] of jobDurations) {
        const [name, outcome] = key.split('\u0000') as [string, string];
        histogramValues(`${prefix}job_duration_seconds`, { name, outcome }, h, out);
      }
      return out;
    },
  );
  const retries = new CollectedMetric(
    `${prefix}job_retries_total`,
    'Failed job attempts that will be retried, by job name',
    'counter',
    () => [...jobRetries].map(([name, n]) => ({ labels: { name }, value: n })),
  );
  for (const m of [requests, durations, batches, flight, attachmentBytes, jobAttempts, jobDuration, retries])
    registry.registerMetric(m as unknown as Metric);

  const watched: AttachmentQueue[] = [];
  let jobsGauge: Gauge | undefined;
  const watchQueue = (queue: AttachmentQueue): void => {
    watched.push(queue);
    jobsGauge ??= new Gauge({
      name: `${prefix}jobs`,
      help: 'Jobs of the watched queues by state (as the queue engine counts them)',
      labelNames: ['state'],
      registers: [registry],
      // jobs in Redis are shared by every worker process, which all report the same counts
      aggregator: queue.driver.kind === 'in-process' ? 'sum' : 'max',
      async collect() {
        const totals = new Map<string, number>();
        for (const q of watched) {
          for (const state of JOB_STATES) {
            const { total } = await q.list(state, 0, 0).catch(() => ({ total: NaN }));
            totals.set(state, (totals.get(state) ?? 0) + total);
          }
        }
        for (const [state, n] of totals) this.set({ state }, n);
      },
    });
  };

  if (options.processMetrics ?? DEFAULT_METRICS_OPTIONS.processMetrics)
    collectDefaultMetrics({ register: registry });
  if (cluster.isWorker) {
    workerRegistries.push(registry);
    // the listener for the primary's requests is added by the first AggregatorRegistry made in a process
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([...workerRegistries]);
  }

  const scrapeLocal = async (): Promise<{ contentType: string; body: string }> => ({
    contentType: registry.contentType,
    body: await registry.metrics(),
  });
  // under `svc serve --workers n` the scrape is the whole service's, whichever worker the scraper reached
  const scrape = (): Promise<{ readonly contentType: string; readonly body: string }> =>
    scrapesThroughPrimary() ? scrapeThroughPrimary() : scrapeLocal();
  return Object.freeze({
    registry,
    observer,
    jobObserver,
    watchQueue,
    scrape,
    scrapeLocal,
    route: async (
      _request: unknown,
      reply: { header(name: string, value: string): unknown; send(body: string): unknown },
    ) => {
      const { contentType, body } = await scrape();
      reply.header('content-type', contentType);
      reply.send(body);
    },
  });
}

function isCancel(err: unknown): boolean {
  return (err as { name?: unknown } | undefined)?.name === 'JobCancelledError';
}

function isShutdown(err: unknown): boolean {
  return (err as { name?: unknown } | undefined)?.name === 'WorkerShutdownError';
}
