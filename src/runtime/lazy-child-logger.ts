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
 * used: a log call, `level`, `bindings()`, a child of its own.
 *
 * The stand-in is a plain object whose class holds the log methods, so that fastify's check of a
 * factory's logger (each of 7 methods looked up twice, every request) reads prototype properties. It was a
 * `Proxy` whose `get` trap answered every lookup: 14 trapped gets and 14 `Map` lookups a request, ~4 700
 * instructions of the ~24 500 the access-log case added to a get by id (callgrind, instructions per request
 * over 5 000 gets in bench/runtime-observe's access-log setup, JIT compilation left out). Whatever the
 * class does not hold (`level`, `bindings()`, a custom level's method, a property set) falls through the
 * prototype chain to a `Proxy` made once per parent logger, whose traps get the stand-in as their receiver
 * and go to its real child; `in` answers for the parent (a pino child inherits from its parent, so it has
 * what the parent has).
 */

const LOG_METHODS = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'silent', 'child'] as const;

type Dict = Record<string | symbol, unknown>;
type LogMethod = (...args: unknown[]) => unknown;

/** What every stand-in holds: its real child's recipe, and the child once made. */
class StandIn {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Record<string, unknown>;
  readonly #options: object | undefined;
  #real: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>, options: object | undefined) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /**
   * The real child of `target` (made now if not yet), or undefined when `target` is no stand-in (a log
   * method called without its logger). Once made, the stand-in's log methods become its own, the child's bound
   * to it, so that a method taken off `request.log` afterwards works alone, as pino's own do not.
   */
  static realOf(target: unknown): FastifyBaseLogger | undefined {
    if (typeof target !== 'object' || target === null || !(#real in target)) return undefined;
    const s = target;
    if (s.#real !== undefined) return s.#real;
    const real = realChild(s.#parent, s.#bindings, s.#options);
    s.#real = real;
    // read at each use, as the child's own may change (pino replaces its log methods when its level is set)
    const own = real as unknown as Dict;
    for (const name of LOG_METHODS)
      Object.defineProperty(s, name, {
        get: () => {
          const m = own[name];
          return typeof m === 'function' ? (m as LogMethod).bind(real) : m;
        },
        set: (value: unknown) => {
          own[name] = value;
        },
        configurable: true,
      });
    return real;
  }
}

type ChildMethod = (this: FastifyBaseLogger, bindings: Record<string, unknown>, options?: object) => unknown;

/** The `child` a logger had before {@link lazyChildren} replaced it, by its replacement. */
const originalChild = new WeakMap<object, ChildMethod>();

/** The real child of `parent`: its `child`, or the one its lazy `child` replaced. */
function realChild(
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object | undefined,
): FastifyBaseLogger {
  const original = originalChild.get((parent as unknown as Dict)['child'] as object);
  return (
    original === undefined ? parent.child(bindings, options) : original.call(parent, bindings, options)
  ) as FastifyBaseLogger;
}

/**
 * The log methods of every stand-in, made once: called as methods (`request.log.info(...)`, `this` is the
 * stand-in) they make the real child and call its method.
 */
const SHARED_METHODS: Readonly<Record<string, LogMethod>> = Object.fromEntries(
  LOG_METHODS.map((name) => [
    name,
    function (this: unknown, ...args: unknown[]): unknown {
      const real = StandIn.realOf(this) as unknown as Record<string, LogMethod> | undefined;
      if (real === undefined) throw new TypeError(`request.log.${name} was called without its logger`);
      return real[name]!(...args);
    },
  ]),
);

/** One stand-in class per parent logger: the log methods on its prototype, then a `Proxy` for the rest. */
type StandInClass = new (
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object | undefined,
) => StandIn;

function standInClass(parent: FastifyBaseLogger): StandInClass {
  // the rest of a stand-in: its real child's (the receiver is the stand-in), functions bound to the child.
  // The target is an empty object of its own (not the parent: a trap must answer a non-configurable
  // property of its target as the target has it)
  const rest = new Proxy(Object.create(null) as Dict, {
    get(_target, prop, receiver): unknown {
      const real = StandIn.realOf(receiver) as unknown as Dict | undefined;
      if (real === undefined) return undefined;
      const v = real[prop];
      return typeof v === 'function' ? (v as LogMethod).bind(real) : v;
    },
    set(_target, prop, value, receiver): boolean {
      const real = StandIn.realOf(receiver) as unknown as Dict | undefined;
      // on an object made from a stand-in (Object.create), a property of its own, as an ordinary set makes
      if (real === undefined)
        return Reflect.defineProperty(receiver as object, prop, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      real[prop] = value;
      return true;
    },
    has(_target, prop): boolean {
      return prop in parent;
    },
  });
  class ForParent extends StandIn {}
  Object.assign(ForParent.prototype, SHARED_METHODS);
  Object.setPrototypeOf(ForParent.prototype, rest);
  return ForParent;
}

/** The stand-in classes made so far, by parent logger (fastify's, and a route's own when it has a level). */
const classes = new WeakMap<object, StandInClass>();
/** The last parent and its class: fastify hands the same logger on every request. */
let lastParent: object | undefined;
let lastClass: StandInClass | undefined;

function classFor(parent: FastifyBaseLogger): StandInClass {
  if (parent === lastParent) return lastClass!;
  let c = classes.get(parent);
  if (c === undefined) {
    c = standInClass(parent);
    classes.set(parent, c);
  }
  lastParent = parent;
  lastClass = c;
  return c;
}

/**
 * fastify's `childLoggerFactory` option: each request's child logger made on first use (see the module
 * comment). {@link fastifyRequestIdOptions} includes it.
 */
export const lazyChildLoggerFactory: FastifyChildLoggerFactory = <L extends FastifyBaseLogger>(
  logger: L,
  bindings: Record<string, unknown>,
  options: object,
): L => new (classFor(logger))(logger, bindings, options) as unknown as L;

/**
 * `logger` for fastify's `loggerInstance`, such that every child of fastify's logger (each request's
 * `request.log`, and `app.log.child()`) is made on its first use, as {@link lazyChildLoggerFactory} makes
 * them, but with fastify's own child logger factory: fastify checks the logger a factory of an
 * application's own gives (its 7 log methods looked up twice, every request), and those 14 lookups were
 * ~2.1k instructions of a request (callgrind, bench/runtime-observe's access-log case), where its own
 * factory's child is not checked. fastify makes its logger as a child of the instance it is given: the
 * returned object (which inherits everything else from `logger`) gives that child a lazy `child` of its
 * own. `logger` itself is left as it is. {@link fastifyRequestIdOptions} with a `loggerInstance` uses it.
 */
export function lazyChildren<L extends FastifyBaseLogger>(logger: L): L {
  const instance = Object.create(logger) as L;
  Object.defineProperty(instance, 'child', {
    value: function child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
      const root = logger.child(bindings, options);
      makeChildrenLazy(root);
      return root;
    },
    writable: true,
    configurable: true,
  });
  return instance;
}

/** Gives `logger` a `child` that makes stand-ins (its children inherit it: theirs are lazy too). */
function makeChildrenLazy(logger: FastifyBaseLogger): void {
  const original = (logger as unknown as Dict)['child'] as ChildMethod;
  const lazy = function child(
    this: FastifyBaseLogger,
    bindings: Record<string, unknown>,
    options?: object,
  ): unknown {
    // what pino refuses, it refuses now
    if (typeof bindings !== 'object' || bindings === null) return original.call(this, bindings, options);
    return new (classFor(this))(this, bindings, options);
  };
  originalChild.set(lazy, original);
  (logger as unknown as { child: unknown }).child = lazy;
}
