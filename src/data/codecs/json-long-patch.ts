/**
 * Puts the exact longs into what `JSON.parse` gave, when it rounded some (json-fast-path.ts found numbers
 * that may have been longs). One pass over the text finds every number token that `JSON.parse` may have
 * rounded into the suspect range (magnitude in (2^53-1, 2^63]) and notes where it stands (the keys and
 * indices from the root); each is then written into the parsed tree: a `bigint` for an integer token inside
 * the long range, the double `JSON.parse` read for any other (so the result is what the exact parser,
 * json-exact-parser.ts, gives, by the same rule).
 *
 * Why this and not the exact parser: `JSON.parse` is native and the pass only looks at the chars outside
 * strings (it jumps over a string with a native `indexOf`), and only builds anything for the few tokens it
 * notes; in isolation the pass takes 0.4-0.5x the time of `JSON.parse` on the same text. Measured
 * (bench/json-codec.bench.ts "exact decode", same run, loaded machine, ±20-60%): 0.4-0.6x of `JSON.parse`
 * (lossy) on the 1 KB record and the 1 MB document with longs, 2-10x lossless-json, json-bigint and
 * json-with-bigint; the exact parser it replaces ran at 0.14-0.25x of `JSON.parse`.
 *
 * Duplicate keys (the last one wins): the tokens are written in text order, each only where the tree holds
 * a number of the suspect range or a bigint written before, so a later token of the same key wins as it
 * did in `JSON.parse`, and a later value of another kind is left alone. Every token of the suspect range is
 * noted (an integer needs 16 digits to get there, any other number an exponent or 16 chars), so every
 * suspect number of the tree is written at least once; {@link patchLongs} counts that as a safety net.
 *
 * The text must be what `JSON.parse` just accepted: the pass does not check the grammar.
 *
 * Before the pass, {@link patchLocated} tries without it: the walk of json-fast-path.ts notes where it found
 * the suspect numbers, and a native search for suspect-looking tokens pairs them up when that is provably
 * right (same count, all different, each token reading as its number); a look-alike in a string, a
 * duplicate key or two tokens reading as one double send the text through the pass.
 */
import { LONG_MAX, LONG_MIN, SAFE_MAX, SAFE_MIN, setOwn, type Store } from '../internal';
import { noteLongs } from './json-long-encode';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO_63 = 2 ** 63;

/** Could `JSON.parse` have rounded a long into `v`? (The walk of json-fast-path.ts asks the same.) */
export function isSuspect(v: number): boolean {
  return !(v <= MAX_SAFE && v >= -MAX_SAFE) && v <= TWO_63 && v >= -TWO_63;
}

/**
 * Writes the exact values of the suspect-range number tokens of `text` into `root` (what `JSON.parse(text)`
 * gave); returns how many suspect numbers of the tree were written (at least the number the walk found,
 * unless something is wrong, and then the caller takes the exact parser).
 */
export function patchLongs(text: string, root: object): number {
  const n = text.length;
  // The open containers, by depth: whether a list, its current index, and the current key's token.
  const isList: boolean[] = [];
  const index: number[] = [];
  const keyStart: number[] = [];
  const keyEnd: number[] = [];
  let depth = -1;
  let expectKey = false;
  let written = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: the next quote not escaped (an odd run of backslashes before it escapes it)
      let j = text.indexOf('"', i + 1);
      while (text.charCodeAt(j - 1) === 0x5c) {
        let b = j - 2;
        while (text.charCodeAt(b) === 0x5c) b--;
        if (((j - 1 - b) & 1) === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (expectKey) {
        keyStart[depth] = i;
        keyEnd[depth] = j + 1;
        expectKey = false;
      }
      i = j + 1;
    } else if (c === 0x2c) {
      if (isList[depth]) index[depth]!++;
      else expectKey = true;
      i++;
    } else if (c === 0x7b) {
      isList[++depth] = false;
      expectKey = true;
      i++;
    } else if (c === 0x5b) {
      isList[++depth] = true;
      index[depth] = 0;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i++;
      let integral = true;
      let exponent = false;
      for (;;) {
        const d = text.charCodeAt(i);
        if (d >= 0x30 && d <= 0x39) i++;
        else if (d === 0x2e || d === 0x2b || d === 0x2d) {
          integral = false;
          i++;
        } else if (d === 0x65 || d === 0x45) {
          integral = false;
          exponent = true;
          i++;
        } else break;
      }
      const exact = integral ? integerValue(text, start, i) : otherValue(text, start, i, exponent);
      if (exact !== undefined && depth >= 0) {
        if (write(text, root, depth, isList, index, keyStart, keyEnd, exact)) {
          written++;
          // the encoder then looks for bigints first, without a JSON.stringify that would throw
          if (typeof exact === 'bigint') noteLongs(root);
        }
      }
    } else {
      // `:`, whitespace, and the letters of true, false and null
      i++;
    }
  }
  return written;
}

/**
 * A number token that may read into the suspect range, outside strings as far as its neighbours say: after
 * `:`, `,` or `[`, before `,`, `}` or `]` (whitespace between), with 16 digits at its start or an exponent.
 * Every such token of the text matches (a magnitude beyond 2^53 needs 16 digits before any point, or an
 * exponent); so can a look-alike inside a string (`"{\"k\":12345678901234567}"`).
 */
const SUSPECT_TOKEN = /[:,[]\s*(-?(?:\d{16}[\d.eE+-]*|[\d.]+[eE][\d+-]+))(?=\s*[,}\]])/g;

/**
 * Writes the exact values of the suspect numbers that the walk of json-fast-path.ts found in `root` (what
 * `JSON.parse(text)` gave) at `located`: (container, key or index, number) for each, in walk order, and all
 * of them. Without a pass over the text: a native search for {@link SUSPECT_TOKEN}. True when written;
 * false, with nothing written, when the tokens cannot be told apart, and the caller takes {@link patchLongs}.
 *
 * Why the k-th suspect token is the k-th suspect found, when the checks hold. Every suspect number of the
 * tree comes from its own suspect token, and every suspect token matches the search; so when the search
 * finds as many suspect tokens as the walk found suspect numbers, those tokens are exactly the ones the tree
 * holds, one each, and none is a look-alike in a string or a duplicate key's lost value. Walk order is text
 * order unless an object's keys are not in text order (integer-like keys, duplicate keys); but when the
 * numbers found are all different and each token reads (rounded as `JSON.parse` rounds) as the number at
 * its rank, a token at another rank would read as two different numbers. So: same count, all different,
 * each equal, or {@link patchLongs}.
 *
 * Measured on the 1 KB record of bench/json-codec (3 longs near its end), Node 20: instructions per call
 * (callgrind) 33.6k for this against 35.5k for the pass (the search alone: 25.5k, irregexp tries the
 * pattern at each `:` and `,`), and `stringToMap` 104.0k against 108.7k; in-process, on a loaded machine,
 * the search took ~0.6x the time of the pass. A small gain: most of what the exact decode costs over
 * `JSON.parse` is still finding the tokens.
 */
export function patchLocated(text: string, root: object, located: readonly unknown[]): boolean {
  const count = located.length / 3;
  for (let a = 2; a < located.length; a += 3)
    for (let b = a + 3; b < located.length; b += 3) if (located[a] === located[b]) return false;
  const exact: Array<number | bigint> = [];
  SUSPECT_TOKEN.lastIndex = 0;
  for (let m = SUSPECT_TOKEN.exec(text); m !== null; m = SUSPECT_TOKEN.exec(text)) {
    const token = m[1]!;
    const end = m.index + m[0].length;
    const start = end - token.length;
    const value = /[.eE]/.test(token)
      ? otherValue(text, start, end, /[eE]/.test(token))
      : integerValue(text, start, end);
    if (value === undefined) continue; // not in the suspect range after all (`1.5e3`, a safe 16-digit number)
    const rank = exact.length;
    if (rank === count || Number(value) !== located[3 * rank + 2]) return false;
    exact.push(value);
  }
  if (exact.length !== count) return false;
  let longs = false;
  for (let k = 0; k < count; k++) {
    const value = exact[k]!;
    if (typeof value !== 'bigint') continue; // JSON.parse read that double already
    longs = true;
    const node = located[3 * k] as object;
    const slot = located[3 * k + 1] as string | number;
    if (typeof slot === 'number') (node as unknown[])[slot] = value;
    else setOwn(node as Store, slot, value);
  }
  // the encoder then looks for bigints first, without a JSON.stringify that would throw
  if (longs) noteLongs(root);
  return true;
}

/**
 * The exact value of the integer token `text[start, end)` when `JSON.parse` may have rounded it into the
 * suspect range, else undefined. By its digit count first: such a token has 16 to 19 digits (2^53 has 16,
 * 2^63 19, and any 20-digit number is beyond 2^63); then `BigInt`, inside the long range, and `Number`
 * beyond it. `Number` of a 16-19 digit token is V8's slow decimal conversion (~0.2 µs, a third of the pass
 * on the 1 KB record in a profile), so it is left for tokens beyond the long range.
 */
function integerValue(text: string, start: number, end: number): number | bigint | undefined {
  const digits = text.charCodeAt(start) === 0x2d ? end - start - 1 : end - start;
  if (digits < 16 || digits > 19) return undefined;
  const token = text.slice(start, end);
  const big = BigInt(token);
  if (big >= LONG_MIN && big <= LONG_MAX) return big > SAFE_MAX || big < SAFE_MIN ? big : undefined;
  const value = Number(token);
  return isSuspect(value) ? value : undefined;
}

/** {@link integerValue} for a token with a fraction or an exponent: the double, when in the suspect range. */
function otherValue(text: string, start: number, end: number, exponent: boolean): number | undefined {
  // without an exponent, a magnitude beyond 2^53 needs 16 digits before the point
  if (end - start < 16 && !exponent) return undefined;
  const value = Number(text.slice(start, end));
  return isSuspect(value) ? value : undefined;
}

/** Writes `exact` where the token stands (depth, and the index or key of each level); true when written. */
function write(
  text: string,
  root: object,
  depth: number,
  isList: readonly boolean[],
  index: readonly number[],
  keyStart: readonly number[],
  keyEnd: readonly number[],
  exact: number | bigint,
): boolean {
  let node: unknown = root;
  for (let k = 0; ; k++) {
    if (typeof node !== 'object' || node === null) return false; // a later duplicate key replaced a container
    const slot: string | number = isList[k] ? index[k]! : keyOf(text, keyStart[k]!, keyEnd[k]!);
    const own = Object.prototype.hasOwnProperty.call(node, slot);
    if (k === depth) {
      const current: unknown = own ? (node as Store)[slot] : undefined;
      if (typeof current === 'bigint' || (typeof current === 'number' && isSuspect(current))) {
        if (typeof slot === 'number') (node as unknown[])[slot] = exact;
        else setOwn(node as Store, slot, exact);
        return true;
      }
      return false;
    }
    node = own ? (node as Store)[slot] : undefined;
  }
}

/** The key whose token is `text[start, end)`, quotes included. */
function keyOf(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.indexOf('\\') === -1 ? raw : (JSON.parse(text.slice(start, end)) as string);
}
