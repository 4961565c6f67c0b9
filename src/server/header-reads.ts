import type { RequestHeaders } from '../resources/request';
import { compiledFunction } from './compiled-code';

/**
 * Reads of request headers by names fixed when the pipeline is built (the protocol's version and method
 * headers, the tunneling override, `accept-encoding`), each name read at a property load of its own.
 *
 * Why: `headers[name]` with `name` a variable is one keyed load that sees every name it is given, so V8
 * makes it megamorphic: each read then probes V8's global cache of (shape, name) pairs, ~100-150
 * instructions. A get by id made seven such reads, ~1k of its ~67k instructions (callgrind over HTTP,
 * bench/resources.bench.ts's get through svcPlugin). Compiled with its names as constants, each read here
 * has an inline cache of its own, which stays monomorphic while requests come with headers of one shape
 * (one kind of client) and polymorphic up to four shapes; beyond those it costs what the keyed load did.
 * Where code cannot be compiled from strings, the same reads are made by a loop.
 */

/** The value of the first of the names whose header the request has, or undefined (see the module comment). */
export type FirstValueRead = (headers: RequestHeaders) => string | readonly string[] | undefined;

/** The index of the first of the names whose header the request has, or -1. */
export type FirstPresentRead = (headers: RequestHeaders) => number;

/**
 * `(headers) => value of the first of names present`: the same as a loop over `names` reading
 * `headers[name]` and returning the first value that is not undefined.
 */
export function firstValueRead(names: readonly string[]): FirstValueRead {
  const loop: FirstValueRead = (headers) => {
    for (const name of names) {
      const v = headers[name];
      if (v !== undefined) return v;
    }
    return undefined;
  };
  let body = '"use strict"; return function firstValue(h) { let v;';
  for (const name of names) body += ` v = h[${JSON.stringify(name)}]; if (v !== undefined) return v;`;
  return compiled(`${body} return undefined; };`, loop);
}

/** `(headers) => index of the first of names present, or -1`, as a loop over `names` would find it. */
export function firstPresentRead(names: readonly string[]): FirstPresentRead {
  const loop: FirstPresentRead = (headers) => {
    for (let i = 0; i < names.length; i++) if (headers[names[i]!] !== undefined) return i;
    return -1;
  };
  let body = '"use strict"; return function firstPresent(h) {';
  names.forEach((name, i) => (body += ` if (h[${JSON.stringify(name)}] !== undefined) return ${i};`));
  return compiled(`${body} return -1; };`, loop);
}

function compiled<F>(body: string, loop: F): F {
  return compiledFunction<F>([], body, []) ?? loop;
}
