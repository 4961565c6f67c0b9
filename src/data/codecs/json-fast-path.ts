/**
 * The JSON codec's fast path: `JSON.parse`, and the checks that say when its result is exactly what the
 * exact parser (json-exact-parser.ts) would give, or can be made so. When they cannot say so, the codec takes
 * the exact parser, which also reports every problem with its offset. `JSON.parse` differs from it in four
 * ways:
 *
 * - It rounds integers beyond ±2^53. Such a token comes out as an integral number of magnitude in
 *   (2^53-1, 2^63] (LONG_MAX rounds to 2^63), so the result is checked for those; bigger numbers are doubles on
 *   both paths. When there are some, json-long-patch.ts finds their tokens in the text and writes the exact
 *   values into the result.
 * - It has no nesting limit. The result is checked for depth; and since `JSON.parse` itself spends ~160 ms on
 *   1 MB of nested arrays (~0.3 µs a level), a long text with more than {@link MAX_OPENERS} brackets goes to
 *   the exact parser unparsed, which stops at the limit at once (and is ~3x slower on such rare documents).
 * - It reads escapes into lone surrogates, and `\u0000` into keys: the text is searched for `\u`, which is
 *   rare (a native search, ~0.05 µs per KB), and an escape of D800-DFFF or 0000 goes to the exact parser.
 * - It reads raw lone surrogates, which only text given as a JS string can hold; the codec checks that text
 *   with `String#isWellFormed` (bytes go through a fatal UTF-8 decoder).
 *
 * A non-finite number in the result (`1e400` is Infinity on both paths) is noted for the encoder
 * (non-finite.ts).
 *
 * Why the checks look at the parsed values rather than the text: a JS loop over every char costs 3-5 ns per
 * char here (30-50% of `JSON.parse`), and a native regex for exponents ~0.7 µs per KB, with false positives
 * in hex ids. The walk over the parsed values costs what the 1-in-16 sampling scan for long digit runs that
 * it replaces did: scan + `JSON.parse` took 1.06x / 1.08x the time of `JSON.parse` on the 1 KB record / 1 MB
 * document (bench/fixtures/data-documents.ts), `JSON.parse` + walk 1.06x / 1.08x. Only documents that hold
 * numbers of the suspect range pay for a pass over the text (json-long-patch.ts says what it costs).
 */
import { noteNonFinite } from '../non-finite';
import { patchLocated, patchLongs } from './json-long-patch';

/** What {@link parseFast} returns when the text needs the exact parser. */
export const NEEDS_EXACT: unique symbol = Symbol('json.needsExact');

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO_63 = 2 ** 63;
/** Texts shorter than this are parsed without counting brackets: `JSON.parse` spends at most ~10 ms on them. */
const COUNT_BRACKETS_FROM = 64 * 1024;
/** More brackets than this in a long text: the exact parser, whatever the depth turns out to be. */
const MAX_OPENERS = 64 * 1024;

/**
 * What the exact parser would give for `text` with `maxDepth`, from `JSON.parse(text)` (with its rounded
 * longs written back exactly when it has some); {@link NEEDS_EXACT} when that cannot be vouched for, and for
 * text `JSON.parse` refuses.
 */
export function parseFast(text: string, maxDepth: number): unknown {
  if (text.indexOf('\\u') !== -1 && hasRiskyEscape(text)) return NEEDS_EXACT;
  if (text.length >= COUNT_BRACKETS_FROM && openersExceed(text, MAX_OPENERS)) return NEEDS_EXACT;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NEEDS_EXACT;
  }
  if (typeof value !== 'object' || value === null) return value;
  const found = suspects(value, maxDepth);
  if (found === 0) return value;
  if (found < 0) {
    located.length = 0;
    return NEEDS_EXACT;
  }
  // where the walk found them, when their tokens can be told apart (json-long-patch.ts); else the pass
  const done = located.length === 3 * found && patchLocated(text, value, located);
  located.length = 0; // keeps no part of the tree alive
  if (done) return value;
  // every suspect number is written at least once when the pass is right; otherwise, the exact parser
  return patchLongs(text, value) >= found ? value : NEEDS_EXACT;
}

/** Is there a `\u` escape of D800-DFFF (even a paired one: the exact parser sorts them out) or of 0000? */
function hasRiskyEscape(t: string): boolean {
  // a `\\u` that is no escape only costs the exact parser; every real escape is found
  for (let i = t.indexOf('\\u'); i !== -1; i = t.indexOf('\\u', i + 2)) {
    const a = t.charCodeAt(i + 2) | 0x20;
    const b = t.charCodeAt(i + 3) | 0x20;
    if (a === 0x64 && (b === 0x38 || b === 0x39 || (b >= 0x61 && b <= 0x66))) return true;
    if (a === 0x30 && b === 0x30 && t.startsWith('00', i + 4)) return true;
  }
  return false;
}

/** Are there more than `max` `[` and `{` in `t` (strings included)? Native searches, stopping at `max`. */
function openersExceed(t: string, max: number): boolean {
  let n = 0;
  for (let i = t.indexOf('['); i !== -1; i = t.indexOf('[', i + 1)) if (++n > max) return true;
  for (let i = t.indexOf('{'); i !== -1; i = t.indexOf('{', i + 1)) if (++n > max) return true;
  return false;
}

/** Depth handled by recursion in {@link visit} (fastest); deeper subtrees go to {@link visitDeep}. */
const RECURSION_LIMIT = 200;
/** Set by the walk when it meets NaN or ±Infinity. */
let sawNonFinite = false;
/** Counted by the walk: numbers that may be longs JSON.parse rounded. */
let suspectCount = 0;
/**
 * Where the walk found them, in walk order: (container, key or index, number) for each suspect number met
 * by {@link visit} (up to {@link MAX_LOCATED}; {@link visitDeep} notes none, so the counts then differ).
 */
const located: unknown[] = [];
/** Suspects located at most: matching them to their tokens compares each with each (json-long-patch.ts). */
const MAX_LOCATED = 64;

/**
 * Walks what `JSON.parse` gave: -1 when a container is deeper than `maxDepth` (the root is depth 1), else
 * how many numbers may be longs that JSON.parse rounded. Notes non-finite numbers.
 */
function suspects(root: object, maxDepth: number): number {
  sawNonFinite = false;
  suspectCount = 0;
  located.length = 0;
  const deepEnough = visit(root, 2, maxDepth);
  if (sawNonFinite) noteNonFinite();
  return deepEnough ? suspectCount : -1;
}

/**
 * {@link suspects} for the children of `node`, which have depth `depth`. `for...in` over objects: loops
 * over `Object.values` or `Object.keys` made the walk 2-8% of `JSON.parse` slower on the bench documents.
 * Recursion for the usual shallow documents, as in the PSON decoder.
 */
function visit(node: object, depth: number, maxDepth: number): boolean {
  if (depth > RECURSION_LIMIT) return visitDeep(node, depth, maxDepth);
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v === 'object') {
        if (v !== null && (depth > maxDepth || !visit(v, depth + 1, maxDepth))) return false;
      } else if (typeof v === 'number' && !(v <= MAX_SAFE && v >= -MAX_SAFE)) {
        if (v - v !== 0) sawNonFinite = true;
        else if (v <= TWO_63 && v >= -TWO_63 && ++suspectCount <= MAX_LOCATED) located.push(node, i, v);
      }
    }
  } else {
    for (const k in node) {
      const v: unknown = (node as Record<string, unknown>)[k];
      if (typeof v === 'object') {
        if (v !== null && (depth > maxDepth || !visit(v, depth + 1, maxDepth))) return false;
      } else if (typeof v === 'number' && !(v <= MAX_SAFE && v >= -MAX_SAFE)) {
        if (v - v !== 0) sawNonFinite = true;
        else if (v <= TWO_63 && v >= -TWO_63 && ++suspectCount <= MAX_LOCATED) located.push(node, k, v);
      }
    }
  }
  return true;
}

/** {@link visit} with an explicit stack, for subtrees deeper than {@link RECURSION_LIMIT}. */
function visitDeep(root: object, rootDepth: number, maxDepth: number): boolean {
  const nodes: object[] = [root];
  const depths: number[] = [rootDepth];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    const values: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'object') {
        if (v === null) continue;
        if (depth > maxDepth) return false;
        nodes.push(v);
        depths.push(depth + 1);
      } else if (typeof v === 'number' && !(v <= MAX_SAFE && v >= -MAX_SAFE)) {
        if (v - v !== 0) sawNonFinite = true;
        else if (v <= TWO_63 && v >= -TWO_63) suspectCount++;
      }
    }
  }
  return true;
}
