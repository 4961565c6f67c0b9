/**
 * Functions compiled from strings for the request path's hottest reads and builds (header-reads.ts,
 * incoming-headers.ts, query-string.ts; second-sightings.ts says when a list is worth it): names known
 * only at run time (a server's header names, a client's list of headers or query keys) become constants
 * of the compiled code, each read or store then with an inline cache of its own. Each module measured its
 * gain where it compiles.
 */

/**
 * `new Function(...params, body)` called with `args`: the function the body returns. Undefined where code
 * cannot be compiled from strings (a policy without `unsafe-eval`: V8 throws an EvalError); the caller
 * then takes its general way. Any other error (a body that does not parse) is a bug, and is thrown.
 */
export function compiledFunction<F>(
  params: readonly string[],
  body: string,
  args: readonly unknown[],
): F | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see the module comment: constants only
    const factory = new Function(...params, body) as (...a: readonly unknown[]) => F;
    return factory(...args);
  } catch (err) {
    if (err instanceof EvalError) return undefined;
    throw err;
  }
}
