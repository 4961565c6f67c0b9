/**
 * A JSON parser that keeps 64-bit integers exact and enforces the data layer's rules. It produces the same
 * raw nodes as `JSON.parse` (plain objects and arrays, `null`), so the containers adopt its output lazily in
 * the same way, and it is iterative, so only `maxDepth` bounds the nesting.
 *
 * Numbers (the same rule as the fast path, json-fast-path.ts):
 * - an integer token (no fraction, no exponent) inside ±(2^53-1) is a number, inside the 64-bit long range a
 *   `bigint`, beyond it a double (what `JSON.parse` gives, so both paths agree);
 * - any other token is a double, as `JSON.parse` reads it: beyond the double range that is ±Infinity (as in
 *   Jackson), which is noted for the encoder (non-finite.ts).
 * So JSON and PSON keep the wire type of a long: both write an integral number without a fraction (or as a
 * PSON int/long), and both read it back as the same number or bigint.
 *
 * Strings: Svc data holds well-formed Unicode only, so an escape that leaves a lone surrogate (in a key or a
 * value), a raw lone surrogate (possible only in text given as a JS string), and U+0000 in a key are errors.
 * U+0000 in a string value is fine.
 *
 * It is the slow path of the JSON codec, used when the fast path cannot vouch for `JSON.parse` (a surrogate or
 * NUL escape, nesting too deep) and to report the precise error when `JSON.parse` refuses the text. The schema layer parses Avro JSON with it too.
 */
import { MAX_NESTING_DEPTH } from '../limits';
import { LONG_MAX, LONG_MIN, makeStoreConstructor, setOwn, type Store } from '../internal';
import { noteNonFinite } from '../non-finite';
import { noteLongs } from './json-long-encode';
import { JsonSyntaxError, readJsonNumber, readJsonString } from './json-tokens';

/** This parser's own map store constructor (see makeStoreConstructor for why it is not shared). */
const StoreObject = makeStoreConstructor();

export { JsonSyntaxError } from './json-tokens';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

type Frame = { list: unknown[]; map: null; key: '' } | { list: null; map: Store; key: string };

/** Parses `text`; nesting deeper than `maxDepth` (the top-level container is depth 1) is an error. */
export function parseJsonExact(text: string, maxDepth: number = MAX_NESTING_DEPTH): unknown {
  const n = text.length;
  let i = 0;
  const stack: Frame[] = [];

  const fail = (message: string, at: number = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const describeChar = (at: number): string =>
    at >= n ? 'end of input' : `character ${JSON.stringify(text[at])}`;

  if (!(text as unknown as WellFormedCheck).isWellFormed()) {
    const at = loneSurrogateAt(text, 0, n, false);
    fail(`Lone surrogate U+${hex4(text.charCodeAt(at))}: Svc data holds well-formed Unicode only`, at);
  }

  const skipWs = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };

  const parseString = (isKey: boolean): string => {
    const start = i;
    const t = readJsonString(text, i);
    i = t.end;
    // only escapes can make a string ill-formed here (the text was checked), and every escape shortens it
    if (t.value.length !== t.end - start - 2) checkEscapedString(t.value, isKey, start, t.end);
    return t.value;
  };

  const checkEscapedString = (value: string, isKey: boolean, start: number, end: number): void => {
    if (!(value as unknown as WellFormedCheck).isWellFormed()) {
      const at = loneSurrogateAt(text, start, end, true);
      fail(
        `Escape ${text.slice(at, at + 6)} leaves a lone surrogate in a ${isKey ? 'key' : 'string'}: ` +
          'Svc data holds well-formed Unicode only',
        at,
      );
    }
    if (isKey && value.indexOf('\u0000') !== -1) {
      const at = findUnit(text, start, end, true, (unit) => unit === 0);
      fail('A key holds U+0000 (escaped as \\u0000): Svc data does not allow it in keys', at);
    }
  };

  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

  let madeLongs = false;
  const parseNumber = (): number | bigint => {
    const { token, integral, end } = readJsonNumber(text, i);
    i = end;
    const value = Number(token);
    if (integral && !(value <= MAX_SAFE && value >= -MAX_SAFE)) {
      const big = BigInt(token);
      if (big >= LONG_MIN && big <= LONG_MAX) {
        madeLongs = true;
        return big;
      }
    }
    if (value - value !== 0) noteNonFinite();
    return value;
  };

  const parseLiteral = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail(`Unexpected ${describeChar(i)}`);
  };

  const checkDepth = (): void => {
    if (stack.length >= maxDepth) fail(`Nesting deeper than the maximum depth of ${maxDepth}`);
  };

  skipWs();
  let result: unknown;
  // Main loop: parse a value, then attach it to the open container (or finish).
  for (;;) {
    // ---- parse one value (or open a container) ----
    let value: unknown;
    skipWs();
    if (i >= n) fail('Unexpected end of input');
    const c = text.charCodeAt(i);
    let opened = false;
    switch (c) {
      case 0x7b: {
        // {
        checkDepth();
        i++;
        skipWs();
        const map: Store = new StoreObject();
        if (text.charCodeAt(i) === 0x7d) {
          i++;
          value = map;
        } else {
          if (text.charCodeAt(i) !== 0x22) fail(`Expected a string key but found ${describeChar(i)}`);
          const key = parseString(true);
          skipWs();
          if (text.charCodeAt(i) !== 0x3a) fail(`Expected ':' but found ${describeChar(i)}`);
          i++;
          stack.push({ list: null, map, key });
          opened = true;
        }
        break;
      }
      case 0x5b: {
        // [
        checkDepth();
        i++;
        skipWs();
        const list: unknown[] = [];
        if (text.charCodeAt(i) === 0x5d) {
          i++;
          value = list;
        } else {
          stack.push({ list, map: null, key: '' });
          opened = true;
        }
        break;
      }
      case 0x22:
        value = parseString(false);
        break;
      case 0x74:
        value = parseLiteral('true', true);
        break;
      case 0x66:
        value = parseLiteral('false', false);
        break;
      case 0x6e:
        value = parseLiteral('null', null);
        break;
      default:
        if (c === 0x2d || isDigit(c)) value = parseNumber();
        else fail(`Unexpected ${describeChar(i)}`);
    }
    if (opened) continue;

    // ---- attach the value; close containers as long as they end ----
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        result = value;
        skipWs();
        if (i < n) fail(`Unexpected ${describeChar(i)} after the JSON value`);
        // the encoder then looks for bigints first (json-long-encode.ts)
        if (madeLongs && typeof result === 'object' && result !== null) noteLongs(result);
        return result;
      }
      if (top.list !== null) top.list.push(value);
      else setOwn(top.map, top.key, value); // duplicate keys: the last one wins, as in JSON.parse and Jackson
      skipWs();
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (top.map !== null) {
          skipWs();
          if (text.charCodeAt(i) !== 0x22) fail(`Expected a string key but found ${describeChar(i)}`);
          top.key = parseString(true);
          skipWs();
          if (text.charCodeAt(i) !== 0x3a) fail(`Expected ':' but found ${describeChar(i)}`);
          i++;
        }
        break; // parse the next element
      }
      if ((top.list !== null && d === 0x5d) || (top.map !== null && d === 0x7d)) {
        i++;
        stack.pop();
        value = top.list ?? top.map;
        continue;
      }
      fail(
        i >= n
          ? 'Unexpected end of input'
          : `Expected ',' or '${top.list !== null ? ']' : '}'}' but found ${describeChar(i)}`,
      );
    }
  }
}

/** ES2024 `String#isWellFormed`, in V8 since Node 20 (our lib setting is ES2022). */
type WellFormedCheck = { isWellFormed(): boolean };

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The code units of `text[start, end)` with where each comes from: with `escapes`, the range is a string
 * token (opening quote included) and a `\uXXXX` escape gives one unit from its backslash; any other escape
 * gives a placeholder unit. Stops when `visit` returns true and gives that unit's offset (else -1).
 * Error path only.
 */
function findUnit(
  text: string,
  start: number,
  end: number,
  escapes: boolean,
  visit: (unit: number, at: number) => boolean,
): number {
  for (let i = start; i < end;) {
    const at = i;
    let unit = text.charCodeAt(i);
    if (escapes && unit === 0x5c) {
      if (text.charCodeAt(i + 1) === 0x75) {
        unit = parseInt(text.slice(i + 2, i + 6), 16);
        i += 6;
      } else {
        i += 2;
      }
    } else {
      i++;
    }
    if (visit(unit, at)) return at;
  }
  return -1;
}

/** Offset of the first lone surrogate in `text[start, end)` (see {@link findUnit}); assumes there is one. */
function loneSurrogateAt(text: string, start: number, end: number, escapes: boolean): number {
  let pendingHigh = -1;
  const at = findUnit(text, start, end, escapes, (unit, unitAt) => {
    if (pendingHigh >= 0) {
      if (isLow(unit)) {
        pendingHigh = -1;
        return false;
      }
      return true; // reported at the high surrogate, below
    }
    if (isHigh(unit)) {
      pendingHigh = unitAt;
      return false;
    }
    return isLow(unit);
  });
  return pendingHigh >= 0 ? pendingHigh : at;
}
