import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AttachmentQueue } from '../queue/attachment-queue';

/**
 * Liveness and readiness (issue 24). `GET /health/live` answers 200 whenever the event loop turns (that it
 * answers at all is the proof); `GET /health/ready` runs every named readiness check and answers 200 when
 * all pass and the process is not shutting down, otherwise 503 with a JSON body naming each failing check.
 *
 * Checks are a list others add to (`health.addCheck('queue', ...)`): the runtime knows no queue or database,
 * the code that opens them registers what "able to serve" means for them ({@link queueReadinessChecks}).
 * Health requests are answered by the front door (front-door.ts) before the app sees them, so they are not
 * logged and not counted as requests; {@link Health.isHealthRequest} tells other code which requests they are.
 */

/**
 * A readiness check: resolves (with anything) when its part can serve, throws or rejects when it cannot,
 * the error's message saying why. `signal` aborts when the check is past its time budget.
 */
export type ReadinessCheck = (signal: AbortSignal) => unknown;

/** Options of {@link Health}; defaults in {@link DEFAULT_HEALTH_OPTIONS}. */
export interface HealthOptions {
  /** Path of the liveness probe. Default `/health/live`. */
  readonly livePath?: string;
  /** Path of the readiness probe. Default `/health/ready`. */
  readonly readyPath?: string;
  /** Milliseconds one check may take before it counts as failing. Default 2 500 (under a 3 s probe timeout). */
  readonly checkTimeoutMs?: number;
}

/** The defaults of the health probes: their paths and how long a readiness check may take. */
export const DEFAULT_HEALTH_OPTIONS = Object.freeze({
  livePath: '/health/live',
  readyPath: '/health/ready',
  checkTimeoutMs: 2500,
});

/** One check's outcome. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  /** Why it fails (the error's message); absent when it passes. */
  readonly message?: string;
  readonly durationMs: number;
}

/** What the readiness probe answers. */
export interface ReadinessReport {
  readonly ready: boolean;
  /** True once shutdown began: the report is not ready whatever the checks say. */
  readonly shuttingDown: boolean;
  readonly checks: readonly CheckResult[];
}

/** The name of the pseudo-check that fails while the process shuts down. */
export const SHUTDOWN_CHECK = 'shutdown';

/** Liveness, readiness checks, and the shutting-down flag of one process. */
export class Health {
  readonly livePath: string;
  readonly readyPath: string;
  readonly checkTimeoutMs: number;
  readonly #checks = new Map<string, ReadinessCheck>();
  #shuttingDown = false;
  /** The readiness run in progress: concurrent probes share it rather than run every check again. */
  #running: Promise<ReadinessReport> | undefined;

  constructor(options: HealthOptions = {}) {
    const o = { ...DEFAULT_HEALTH_OPTIONS, ...options };
    for (const [name, path] of [
      ['livePath', o.livePath],
      ['readyPath', o.readyPath],
    ] as const) {
      if (typeof path !== 'string' || !path.startsWith('/') || path.includes('?'))
        throw new TypeError(`Health: ${name} must be a path starting with '/' and without a query`);
    }
    if (o.livePath === o.readyPath) throw new TypeError('Health: livePath and readyPath must differ');
    if (!Number.isFinite(o.checkTimeoutMs) || o.checkTimeoutMs <= 0)
      throw new TypeError('Health: checkTimeoutMs must be a positive number of milliseconds');
    this.livePath = o.livePath;
    this.readyPath = o.readyPath;
    this.checkTimeoutMs = o.checkTimeoutMs;
  }

  /** Adds a named readiness check. @throws TypeError when a check of that name exists */
  addCheck(name: string, check: ReadinessCheck): this {
    if (name === '' || name === SHUTDOWN_CHECK || this.#checks.has(name))
      throw new TypeError(
        `Health: a readiness check named '${name}' exists already (or the name is reserved)`,
      );
    this.#checks.set(name, check);
    return this;
  }

  /** Removes a readiness check; true when there was one. */
  removeCheck(name: string): boolean {
    return this.#checks.delete(name);
  }

  /** The names of the registered checks. */
  get checkNames(): readonly string[] {
    return [...this.#checks.keys()];
  }

  /** Turns readiness 503 for good (shutdown calls it first thing). */
  setShuttingDown(): void {
    this.#shuttingDown = true;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** True when the request is for one of the probe paths (any query ignored). */
  isHealthRequest(req: { readonly url?: string | undefined }): boolean {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    return path === this.livePath || path === this.readyPath;
  }

  /** Runs every check (at most `checkTimeoutMs` each, all at once). */
  readiness(): Promise<ReadinessReport> {
    if (this.#shuttingDown) {
      // at once: no check needs to run to know the answer
      return Promise.resolve({
        ready: false,
        shuttingDown: true,
        checks: [{ name: SHUTDOWN_CHECK, ok: false, message: 'the process is shutting down', durationMs: 0 }],
      });
    }
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<ReadinessReport> {
    const checks = await Promise.all([...this.#checks].map(([name, check]) => this.#runOne(name, check)));
    const shuttingDown = this.#shuttingDown;
    const all = shuttingDown
      ? [
          ...checks,
          { name: SHUTDOWN_CHECK, ok: false, message: 'the process is shutting down', durationMs: 0 },
        ]
      : checks;
    return { ready: all.every((c) => c.ok), shuttingDown, checks: all };
  }

  async #runOne(name: string, check: ReadinessCheck): Promise<CheckResult> {
    const started = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new Error(`no answer within ${this.checkTimeoutMs} ms`);
        controller.abort(err);
        reject(err);
      }, this.checkTimeoutMs);
    });
    try {
      await Promise.race([Promise.resolve().then(() => check(controller.signal)), timeout]);
      return { name, ok: true, durationMs: performance.now() - started };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { name, ok: false, message, durationMs: performance.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Answers a probe request (node:http), or returns false when `req` is not one. GET and HEAD only; other
   * methods on a probe path are a 405.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.isHealthRequest(req)) return false;
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      send(res, 405, { status: 'method not allowed' }, head, { Allow: 'GET, HEAD' });
      return true;
    }
    const url = req.url ?? '';
    if (url === this.livePath || url.startsWith(`${this.livePath}?`)) {
      send(res, 200, { status: 'live' }, head);
      return true;
    }
    this.readiness().then(
      (report) => send(res, report.ready ? 200 : 503, readinessBody(report), head),
      // #run never rejects; this keeps a bug from leaving the probe unanswered
      (err: unknown) => send(res, 500, { status: 'error', message: String(err) }, head),
    );
    return true;
  }
}

/** The readiness answer's JSON: `{status, failing: [names], checks: {name: {ok, message?, durationMs}}}`. */
export function readinessBody(report: ReadinessReport): Record<string, unknown> {
  const checks: Record<string, unknown> = {};
  for (const c of report.checks)
    checks[c.name] = {
      ok: c.ok,
      ...(c.message === undefined ? {} : { message: c.message }),
      durationMs: Math.round(c.durationMs * 10) / 10,
    };
  return {
    status: report.ready ? 'ready' : 'unavailable',
    failing: report.checks.filter((c) => !c.ok).map((c) => c.name),
    checks,
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  head: boolean,
  extra: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    // a cached probe answer would hide a change of state
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(head ? undefined : text);
}

/**
 * The readiness checks of a job queue: `queue` (its driver answers: Redis reachable for BullMQ; always for
 * the in-process driver) and `blobs` (the blob store takes a write: an empty blob is stored and removed).
 *
 * ```ts
 * for (const [name, check] of Object.entries(queueReadinessChecks(queue))) health.addCheck(name, check);
 * ```
 */
export function queueReadinessChecks(queue: AttachmentQueue): Record<string, ReadinessCheck> {
  return {
    // counting waiting jobs is the cheapest call that needs the engine (BullMQ: one Redis round trip);
    // a Redis that is down makes it throw QueueUnavailableError within the driver's unavailableAfterMs
    queue: async () => {
      await queue.list('WAITING', 0, 0);
    },
    blobs: async () => {
      const stat = await queue.blobs.put(Readable.from([]));
      await queue.blobs.delete(stat.id);
    },
  };
}
