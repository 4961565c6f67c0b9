import type { SvcLogger } from '../resources/request';
import type { RequestObserver } from '../resources/observer';

/**
 * The logger of one request over the server's own (the `logger` option of `svcPlugin` and
 * `createSvcServer`): its lines carry the request's id as `reqId`, as fastify's `request.log` lines do, when
 * an observer keeps ids (`requestIds`, whose `requestIdHeader` names the header) and the logger can bind
 * (pino's `child`). The child is made on the first line: most requests write none, and pino's `child`
 * serializes its bindings each time (~1.8 µs a request: src/runtime/lazy-child-logger.ts).
 *
 * Why the plugin has a logger of its own: fastify with a logger does per-request work for it whether
 * anything logs or not (a child logger, two response listeners and two clock reads), ~4.4k instructions of
 * a get by id (callgrind over HTTP, bench/runtime-observe's access-log case: 86.6k with fastify's logger,
 * 82.2k with the plugin's, 71.7k unobserved). A service whose lines are the access log and the plugin's
 * errors can leave fastify without one.
 */
class RequestLog implements SvcLogger {
  readonly #base: SvcLogger;
  readonly #headers: { readonly [name: string]: string | string[] | undefined };
  readonly #header: string;
  #log: SvcLogger | undefined;

  constructor(
    base: SvcLogger,
    headers: { readonly [name: string]: string | string[] | undefined },
    header: string,
  ) {
    this.#base = base;
    this.#headers = headers;
    this.#header = header;
  }

  /** The logger with the request's id bound, made now if not yet (the id is read now: observers ran first). */
  #bound(): SvcLogger {
    if (this.#log !== undefined) return this.#log;
    const id = this.#headers[this.#header];
    const child = (this.#base as { child?: unknown }).child;
    this.#log =
      typeof id === 'string' && typeof child === 'function'
        ? (child as (bindings: object) => SvcLogger).call(this.#base, { reqId: id })
        : this.#base;
    return this.#log;
  }

  error(obj: unknown, msg?: string): void {
    this.#bound().error(obj, msg);
  }

  warn(obj: unknown, msg?: string): void {
    this.#bound().warn(obj, msg);
  }

  info(obj: unknown, msg?: string): void {
    this.#bound().info(obj, msg);
  }

  debug(obj: unknown, msg?: string): void {
    this.#bound().debug(obj, msg);
  }
}

/**
 * How a server makes each request's logger from its own (`base`): with the id bound when one of
 * `observers` keeps ids, else `base` itself for every request. Undefined when there is no `base`.
 */
export function requestLoggers(
  base: SvcLogger | undefined,
  observers: readonly RequestObserver[],
): ((headers: { readonly [name: string]: string | string[] | undefined }) => SvcLogger) | undefined {
  if (base === undefined) return undefined;
  const header = observers.find((o) => typeof o.requestIdHeader === 'string')?.requestIdHeader;
  if (header === undefined) return () => base;
  return (headers) => new RequestLog(base, headers, header);
}

/** Whether `v` can serve as a server's logger (what the pipeline calls on it). */
export function isSvcLogger(v: unknown): v is SvcLogger {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  return (
    typeof l.error === 'function' &&
    typeof l.warn === 'function' &&
    typeof l.info === 'function' &&
    typeof l.debug === 'function'
  );
}
