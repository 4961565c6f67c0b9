import v8 from 'node:v8';

/**
 * Load shedding (issue 24): under overload a new request gets 503 with `Retry-After` at once instead of
 * waiting in a queue that only grows. The decision is a plain object (`shouldShed()`), so that any server
 * can ask it: the front door (front-door.ts) asks it for every request before fastify or the standalone
 * server sees it.
 *
 * Overload is measured, not guessed from request counts: the event-loop delay (how late a timer that should
 * fire every `sampleIntervalMs` fires: a loop busy with more work than it can do fires it late), and the
 * heap in use. The delay is read two ways, so that the answer is current inside one long loop turn too:
 * how overdue the next sample is right now, and the lag of the last two samples. A turn that has run
 * `maxEventLoopDelayMs` past the sample's time (a backlog of requests read at once) sheds the rest of its
 * requests, which bounds how long an accepted request waits; two late samples in a row shed too; one late
 * sample (a GC, a lazy module load) sheds nothing, and a fresh process sheds nothing for `warmupMs`.
 * (`@fastify/under-pressure` samples a histogram once a second and sheds a second late.)
 */

/** Options of {@link LoadShedder}; defaults in {@link DEFAULT_LOAD_SHEDDING}. */
export interface LoadSheddingOptions {
  /**
   * Shed while the event loop runs this many milliseconds late. Default 50: a request accepted then waits
   * at most about that long for the loop, on top of its own work. Lower it for a latency-critical service
   * (the runtime bench uses 5 ms for its p99 figure); 0 turns this signal off.
   */
  readonly maxEventLoopDelayMs?: number;
  /**
   * Shed while the V8 heap in use is above this fraction of its limit (`--max-old-space-size`). Default
   * 0.9: past it a garbage-collected heap spends its time collecting. 0 turns this signal off.
   */
  readonly maxHeapUsedRatio?: number;
  /** How often the delay is sampled, ms. Default 10. */
  readonly sampleIntervalMs?: number;
  /** How often the heap is sampled, ms. Default 250. */
  readonly heapSampleIntervalMs?: number;
  /** The `Retry-After` given to shed requests, seconds. Default 1. */
  readonly retryAfterSeconds?: number;
  /**
   * Milliseconds after {@link LoadShedder.start} during which nothing is shed: a fresh process runs slow
   * turns of its own (lazy module loads, a cold JIT) that are not overload. Default 2 000.
   */
  readonly warmupMs?: number;
}

/** The defaults of load shedding: the event-loop delay and heap use above which requests are refused. */
export const DEFAULT_LOAD_SHEDDING = Object.freeze({
  maxEventLoopDelayMs: 50,
  maxHeapUsedRatio: 0.9,
  sampleIntervalMs: 10,
  heapSampleIntervalMs: 250,
  retryAfterSeconds: 1,
  warmupMs: 2000,
});

/** Why a request is shed, and what to tell its client. */
export interface ShedDecision {
  readonly reason: 'event-loop-delay' | 'heap';
  /** Human-readable: `event loop 73 ms late (limit 50 ms)`. */
  readonly detail: string;
  readonly retryAfterSeconds: number;
}

/** Counters and the current readings, for metrics. */
export interface LoadShedderStats {
  /** Requests shed since the shedder was made. */
  readonly shed: number;
  /** The event-loop delay now, ms (the larger of the last sample's lag and how overdue the next is). */
  readonly eventLoopDelayMs: number;
  /** Heap in use at the last heap sample, bytes. */
  readonly heapUsedBytes: number;
  readonly heapLimitBytes: number;
}

/** The overload decision of one process. Call {@link start} before asking it; {@link stop} ends its timer. */
export class LoadShedder {
  readonly maxEventLoopDelayMs: number;
  readonly maxHeapUsedRatio: number;
  readonly sampleIntervalMs: number;
  readonly heapSampleIntervalMs: number;
  readonly retryAfterSeconds: number;
  readonly warmupMs: number;
  readonly #heapLimit = v8.getHeapStatistics().heap_size_limit;
  #timer: NodeJS.Timeout | undefined;
  /** When the next sample is due (performance.now()); undefined when stopped. */
  #due: number | undefined;
  #lastLag = 0;
  #prevLag = 0;
  #heapUsed = 0;
  #nextHeapSample = 0;
  #shed = 0;
  #warmUntil = 0;

  constructor(options: LoadSheddingOptions = {}) {
    const o = { ...DEFAULT_LOAD_SHEDDING, ...options };
    const nonNegative = (name: string, v: number): void => {
      if (!Number.isFinite(v) || v < 0) throw new TypeError(`LoadShedder: ${name} must be a number ≥ 0`);
    };
    nonNegative('maxEventLoopDelayMs', o.maxEventLoopDelayMs);
    nonNegative('maxHeapUsedRatio', o.maxHeapUsedRatio);
    if (o.maxHeapUsedRatio > 1) throw new TypeError('LoadShedder: maxHeapUsedRatio must be at most 1');
    for (const name of ['sampleIntervalMs', 'heapSampleIntervalMs', 'retryAfterSeconds'] as const) {
      nonNegative(name, o[name]);
      if (o[name] === 0) throw new TypeError(`LoadShedder: ${name} must be positive`);
    }
    this.maxEventLoopDelayMs = o.maxEventLoopDelayMs;
    this.maxHeapUsedRatio = o.maxHeapUsedRatio;
    this.sampleIntervalMs = o.sampleIntervalMs;
    this.heapSampleIntervalMs = o.heapSampleIntervalMs;
    this.retryAfterSeconds = Math.ceil(o.retryAfterSeconds);
    nonNegative('warmupMs', o.warmupMs);
    this.warmupMs = o.warmupMs;
  }

  /** Starts sampling (an unref'd timer: it keeps no process alive). Idempotent. */
  start(): this {
    if (this.#timer !== undefined) return this;
    this.#sampleHeap(performance.now());
    this.#warmUntil = performance.now() + this.warmupMs;
    this.#schedule();
    return this;
  }

  /** Stops sampling; {@link shouldShed} then sheds nothing. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = undefined;
    this.#lastLag = 0;
    this.#prevLag = 0;
  }

  #schedule(): void {
    this.#due = performance.now() + this.sampleIntervalMs;
    this.#timer = setTimeout(() => this.#sample(), this.sampleIntervalMs);
    this.#timer.unref();
  }

  #sample(): void {
    const now = performance.now();
    // a timer fires up to ~1 ms late on an idle loop: that is timer granularity, not load
    this.#prevLag = this.#lastLag;
    this.#lastLag = Math.max(0, now - (this.#due ?? now));
    if (now >= this.#nextHeapSample) this.#sampleHeap(now);
    this.#schedule();
  }

  #sampleHeap(now: number): void {
    this.#heapUsed = v8.getHeapStatistics().used_heap_size;
    this.#nextHeapSample = now + this.heapSampleIntervalMs;
  }

  /** The event-loop delay now, ms. */
  eventLoopDelayMs(): number {
    if (this.#due === undefined) return 0;
    return Math.max(this.#lastLag, performance.now() - this.#due);
  }

  /** Whether a request arriving now should be refused, and why; undefined to serve it. */
  shouldShed(): ShedDecision | undefined {
    if (this.#due === undefined) return undefined;
    const now = performance.now();
    // a process that has just started runs slow turns of its own (lazy loads, a cold JIT): no verdict yet
    if (now < this.#warmUntil) return undefined;
    const max = this.maxEventLoopDelayMs;
    if (max > 0) {
      // this turn has run past the limit (a backlog of requests read at once): shed the rest of it; or the
      // loop stayed late over the last two samples. A single late sample (a GC, a lazy load) sheds nothing.
      const overdue = now - this.#due;
      if (overdue > max || (this.#lastLag > max && this.#prevLag > max)) {
        const delay = Math.max(overdue, this.#lastLag);
        return this.#decide('event-loop-delay', `event loop ${Math.round(delay)} ms late (limit ${max} ms)`);
      }
    }
    if (this.maxHeapUsedRatio > 0 && this.#heapUsed > this.maxHeapUsedRatio * this.#heapLimit)
      return this.#decide(
        'heap',
        `heap ${Math.round(this.#heapUsed / 2 ** 20)} MiB in use (limit ${Math.round((this.maxHeapUsedRatio * this.#heapLimit) / 2 ** 20)} MiB)`,
      );
    return undefined;
  }

  #decide(reason: ShedDecision['reason'], detail: string): ShedDecision {
    this.#shed++;
    return { reason, detail, retryAfterSeconds: this.retryAfterSeconds };
  }

  stats(): LoadShedderStats {
    return {
      shed: this.#shed,
      eventLoopDelayMs: this.eventLoopDelayMs(),
      heapUsedBytes: this.#heapUsed,
      heapLimitBytes: this.#heapLimit,
    };
  }
}
