import type { FastifyBaseLogger } from 'fastify';

/**
 * fastify's `childLoggerFactory` option, for any logger type (fastify's own type is not exported by name,
 * and is fixed to one logger type: a generic function fits a pino `Logger` as well).
 */
export type FastifyChildLoggerFactory = <L extends FastifyBaseLogger>(
  logger: L,
  bindings: Record<string, unknown>,
  options: object,
) => L;

/**
 * A request's child logger made on its first use. fastify makes a child of its logger for every request
 * (`request.log`, bound to the request id), and pino's `child` serializes the bindings each time: ~1.8 µs
 * a request here, 5% of a small request's throughput (bench/runtime-observe, the access-log case), for a
 * logger that most requests never use once fastify's own request lines are off. This factory hands fastify
 * a stand-in that makes the real child (the same `logger.child(bindings, options)`) when anything on it is
 * used: a log call, `level`, `bindings()`, a child of its own. Checking that the methods exist (fastify
 * does, for a factory of its own) uses nothing.
 */

const LOG_METHODS = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'silent', 'child'] as const;

/** The stand-in's target: what makes the real child, and the child once made. */
interface Pending {
  readonly parent: FastifyBaseLogger;
  readonly bindings: Record<string, unknown>;
  readonly options: object;
  real: FastifyBaseLogger | undefined;
}

/** What the stand-in answers with its target (for the shared methods below). */
const PENDING = Symbol('svc.lazyChild');

function realOf(p: Pending): FastifyBaseLogger {
  return (p.real ??= p.parent.child(p.bindings, p.options));
}

/**
 * The log methods of every stand-in, made once: called as methods (`request.log.info(...)`, `this` is the
 * stand-in) they make the real child and call its method. Made per stand-in, as closures in a map of
 * their own, they were 8 closures and a Map per request, since fastify looks each method up twice to check
 * that it exists.
 */
const SHARED_METHODS: ReadonlyMap<string | symbol, (...args: unknown[]) => unknown> = new Map(
  LOG_METHODS.map((name) => [
    name,
    function (this: { [PENDING]?: Pending }, ...args: unknown[]): unknown {
      const p = this?.[PENDING];
      if (p === undefined) throw new TypeError(`request.log.${name} was called without its logger`);
      return (realOf(p) as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
    },
  ]),
);

const HANDLER: ProxyHandler<Pending> = {
  get(p, prop): unknown {
    if (prop === PENDING) return p;
    if (p.real === undefined) {
      // a method that makes the child when called (fastify looks the methods up without calling them)
      const m = SHARED_METHODS.get(prop);
      if (m !== undefined) return m;
    }
    const real = realOf(p) as unknown as Record<string | symbol, unknown>;
    const v = real[prop];
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(real) : v;
  },
  set(p, prop, value) {
    (realOf(p) as unknown as Record<string | symbol, unknown>)[prop] = value;
    return true;
  },
  has(p, prop) {
    return prop in realOf(p);
  },
};

/**
 * fastify's `childLoggerFactory` option: each request's child logger made on first use (see the module
 * comment). {@link fastifyRequestIdOptions} includes it.
 */
export const lazyChildLoggerFactory: FastifyChildLoggerFactory = <L extends FastifyBaseLogger>(
  logger: L,
  bindings: Record<string, unknown>,
  options: object,
): L => new Proxy<Pending>({ parent: logger, bindings, options, real: undefined }, HANDLER) as unknown as L;
