/**
 * A JSON parser that keeps 64-bit integers exact: an integer token outside ±2^53 becomes a `bigint`; one
 * outside the 64-bit long range is read as a double when the token is exactly that double's shortest form,
 * and is an error otherwise (Rest.li's Jackson codec drops such values; we refuse them loudly instead). It produces the same raw nodes as `JSON.parse` (plain objects and arrays, `null`), so the
 * containers adopt its output lazily in the same way.
 *
 * It is the slow path of the JSON codec: used only when the text may hold an unsafe integer, and to
 * produce a precise error when `JSON.parse` rejects the text. It is iterative, so nesting depth is bounded
 * by memory, not by the call stack.
 */
import { LONG_MAX, LONG_MIN, makeStoreConstructor, setOwn, type Store } from '../internal';
import { JsonSyntaxError, readJsonNumber, readJsonString } from './json-tokens';

/** This parser's own map store constructor (see makeStoreConstructor for why it is not shared). */
const StoreObject = makeStoreConstructor();

export { JsonSyntaxError } from './json-tokens';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

type Frame = { list: unknown[]; map: null; key: '' } | { list: null; map: Store; key: string };

export function parseJsonExact(text: string): unknown {
  const n = text.length;
  let i = 0;
  const stack: Frame[] = [];

  const fail = (message: string, at: number = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const describeChar = (at: number): string =>
    at >= n ? 'end of input' : `character ${JSON.stringify(text[at])}`;

  const skipWs = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };

  const parseString = (): string => {
    const t = readJsonString(text, i);
    i = t.end;
    return t.value;
  };

  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

  const parseNumber = (): number | bigint => {
    const start = i;
    const { token, integral, end } = readJsonNumber(text, i);
    i = end;
    const value = Number(token);
    if (!integral) {
      if (!Number.isFinite(value)) fail(`Number ${token} is outside the double range`, start);
      return value;
    }
    if (value <= MAX_SAFE && value >= -MAX_SAFE) return value;
    const big = BigInt(token);
    if (big >= LONG_MIN && big <= LONG_MAX) return big;
    // Beyond the long range an integer token can only be a double. Writers print doubles in their shortest
    // round-trip form (JSON.stringify(1e20) is "100000000000000000000"), so accept exactly those; anything
    // else would silently lose digits.
    if (String(value) === token) return value;
    return fail(`Integer ${token} is outside the 64-bit long range and is not exactly a double`, start);
  };

  const parseLiteral = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail(`Unexpected ${describeChar(i)}`);
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
        i++;
        skipWs();
        const map: Store = new StoreObject();
        if (text.charCodeAt(i) === 0x7d) {
          i++;
          value = map;
        } else {
          if (text.charCodeAt(i) !== 0x22) fail(`Expected a string key but found ${describeChar(i)}`);
          const key = parseString();
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
        value = parseString();
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
          top.key = parseString();
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
