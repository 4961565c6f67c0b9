import { parse as parseQueryString } from 'fast-querystring';
import { compiledFunction } from './compiled-code';
import { SecondSightings } from './second-sightings';

/**
 * fastify's query string parser (find-my-way's: fast-querystring's `parse`) with a shortcut for the query
 * keys a server is sent again and again: the object it answers is fast-querystring's, key for key and
 * value for value, in the same order, of the same kind (no `Object.prototype` above it).
 *
 * Why: fastify parses every request's query before any handler runs (`request.query`), and svcPlugin then
 * reads the raw query itself (Rest.li's syntax needs the undecoded text). Per key, fast-querystring slices
 * the key out of the text, and V8 then looks that new string up in its string table to set it as a
 * property, through a keyed store that is megamorphic across names. Here a query whose keys are, in the
 * same order, those of a query parsed the long way twice before (plain keys, each once; at most 8 such
 * lists) and whose values need no decoding is matched by one regular expression of those keys, and its
 * object is made by a function compiled with the keys as constants. Measured on the example's finder page
 * through svcPlugin (callgrind over HTTP, bench/resources): 127.6k → 124.7k instructions a request, bare
 * fastify 119.4k.
 * Anything else (a `%` or `+` to decode, a key twice, keys in another order) is parsed by fast-querystring,
 * after at most one regular expression per known list whose first key starts with the query's first char
 * (a few hundred instructions each, against ~3-4k for the parse of a three-key query), and, until 8 lists
 * are known, a look at its keys.
 */

/** An object of keys that are constants in a compiled function, from a match's captures (1 to n). */
type Build = (values: RegExpExecArray) => Record<string, string>;

interface Keys {
  /** The first key's first char, tested before the pattern is run. */
  readonly first: number;
  /** `^k1=(v1)&k2=(v2)...$`, each value of chars that need no decoding and are not `&`. */
  readonly pattern: RegExp;
  readonly build: Build;
}

/** Key lists matched in place (see the module comment); bounded, never evicted. */
const known: Keys[] = [];
const MAX_KNOWN = 8;
/** Key lists parsed the long way, by their text: a list is compiled the second time it is seen. */
const sightings = new SecondSightings();
/** Whether code can be compiled from strings here (false under a policy that forbids it). */
let canCompile = true;

const PROTOTYPE = Object.getPrototypeOf(parseQueryString('')) as object;

/**
 * The last query matched in place, its captures and its builder: a client repeats its query (a page
 * polled, the bench's requests), and a compare of the text costs a fraction of the expression's run (the
 * call into the expression, its match and its result array). Measured through svcPlugin (callgrind over
 * HTTP, bench/resources): the example's finder page 124.7k → 123.4k instructions, its batch_get of 10
 * 160.2k → 159.2k. The object is built anew each time.
 */
let lastInput = '';
let lastMatch: RegExpExecArray | undefined;
let lastBuild: Build | undefined;

/** fastify's `request.query` of `input` (the text after `?`), as fast-querystring parses it. */
export function svcQuerystringParser(input: string): Record<string, string | string[]> {
  // find-my-way's own parser answers a plain object for no query
  if (input.length === 0) return {};
  if (input === lastInput) return lastBuild!(lastMatch!);
  const c = input.charCodeAt(0);
  for (let i = 0; i < known.length; i++) {
    const k = known[i]!;
    if (k.first !== c) continue;
    const m = k.pattern.exec(input);
    if (m !== null) {
      lastInput = input;
      lastMatch = m;
      lastBuild = k.build;
      return k.build(m);
    }
  }
  const parsed = parseQueryString(input) as Record<string, string | string[]>;
  if (canCompile && known.length < MAX_KNOWN) learn(parsed);
  return parsed;
}

/** Keeps the keys of `parsed` for the next queries when each is plain (see the module comment). */
function learn(parsed: Record<string, string | string[]>): void {
  const keys = Object.keys(parsed);
  if (keys.length === 0) return;
  for (const key of keys) {
    // a value that is a list: the key came twice; a key with `%`, `+`, `=` or `&` is not itself in the text
    if (typeof parsed[key] !== 'string' || /[%+=&]/.test(key)) return;
  }
  // the keys joined by `&`, which none of them holds: one text per list
  if (!sightings.second(keys.join('&'))) return;
  let body = `"use strict"; return function build(m) { const o = Object.create(P);`;
  keys.forEach((key, i) => (body += ` o[${JSON.stringify(key)}] = m[${i + 1}];`));
  // fast-querystring turns `+` into a space and decodes `%XX`: values with either take its way
  const pattern = new RegExp(`^${keys.map((key) => `${escapeRegExp(key)}=([^&%+]*)`).join('&')}$`);
  const build = compiledFunction<Build>(['P'], `${body} return o; };`, [PROTOTYPE]);
  if (build === undefined) canCompile = false;
  else known.push({ first: keys[0]!.charCodeAt(0), pattern, build });
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
