/**
 * A small JSON scanner for schema text that keeps where every value starts, so that problems can be reported
 * with a line and column. It accepts what Rest.li's schema parser accepts: several JSON values one after the
 * other, and `//` and `/* *\/` comments. Integers outside ±2^53 become `bigint` (exact longs); integers
 * beyond the 64-bit range and non-integral numbers are doubles.
 *
 * Why not the data layer's JsonCodec: it gives no positions and takes a single value; schema files are small,
 * so a recursive scanner over the text costs little (bench: the fixture tree parses in well under 1 ms per
 * schema).
 */

import { JsonSyntaxError, readJsonNumber, readJsonString } from '../data/codecs/json-tokens';
import { MAX_NESTING_DEPTH } from '../data/limits';
import { Data, DataList, DataMap, type DataValue } from '../data';

export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonBoolean | JsonNull;

export interface JsonEntry {
  readonly key: string;
  readonly keyOffset: number;
  readonly value: JsonNode;
}

export interface JsonObject {
  readonly kind: 'object';
  readonly offset: number;
  /** Every entry in text order, duplicates included. */
  readonly entries: readonly JsonEntry[];
  /** Key to entry; for a duplicated key the last one wins. */
  readonly map: ReadonlyMap<string, JsonEntry>;
}

export interface JsonArray {
  readonly kind: 'array';
  readonly offset: number;
  readonly items: readonly JsonNode[];
}

export interface JsonString {
  readonly kind: 'string';
  readonly offset: number;
  readonly value: string;
}

export interface JsonNumber {
  readonly kind: 'number';
  readonly offset: number;
  readonly value: number | bigint;
  /** The literal had no fraction and no exponent. */
  readonly integral: boolean;
}

export interface JsonBoolean {
  readonly kind: 'boolean';
  readonly offset: number;
  readonly value: boolean;
}

export interface JsonNull {
  readonly kind: 'null';
  readonly offset: number;
}

export interface JsonScanResult {
  readonly values: JsonNode[];
  /** The first syntax error; scanning stops there (values holds what came before). */
  readonly error?: { readonly message: string; readonly offset: number };
}

const SAFE = Number.MAX_SAFE_INTEGER;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

class JsonSyntax extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Scans every JSON value in `text`. */
export function scanJson(text: string): JsonScanResult {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const values: JsonNode[] = [];

  const fail = (message: string, at: number = i): never => {
    throw new JsonSyntax(message, at);
  };
  const what = (at: number): string => (at >= n ? 'end of input' : `character ${JSON.stringify(text[at])}`);

  const skip = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('Unterminated comment');
        i = end + 2;
      } else {
        break;
      }
    }
  };

  const str = (): JsonString => {
    const start = i;
    const t = readJsonString(text, i);
    i = t.end;
    return { kind: 'string', offset: start, value: t.value };
  };

  const num = (): JsonNumber => {
    const start = i;
    const { token, integral, end } = readJsonNumber(text, i);
    i = end;
    const value = Number(token);
    if (!Number.isFinite(value)) fail(`Number ${token} is outside the double range`, start);
    if (integral && (value > SAFE || value < -SAFE)) {
      const big = BigInt(token);
      if (big >= LONG_MIN && big <= LONG_MAX) return { kind: 'number', offset: start, value: big, integral };
    }
    return { kind: 'number', offset: start, value, integral };
  };

  // The one nesting rule (data/limits.ts); the walks over the scanned tree recurse, so it also keeps them
  // inside the stack.
  const tooDeep = (): never =>
    fail(`Nesting deeper than the maximum depth of ${MAX_NESTING_DEPTH} (MAX_NESTING_DEPTH)`);

  const literal = (word: string): void => {
    if (!text.startsWith(word, i)) fail(`Unexpected ${what(i)}`);
    i += word.length;
  };

  /** `depth`: how many objects and arrays enclose the value (0 at the top). */
  const value = (depth: number): JsonNode => {
    skip();
    const start = i;
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x7b: {
        if (depth >= MAX_NESTING_DEPTH) tooDeep();
        i++;
        const entries: JsonEntry[] = [];
        const map = new Map<string, JsonEntry>();
        skip();
        if (text.charCodeAt(i) === 0x7d) {
          i++;
          return { kind: 'object', offset: start, entries, map };
        }
        for (;;) {
          skip();
          if (text.charCodeAt(i) !== 0x22) fail(`Expected a string key but found ${what(i)}`);
          const keyOffset = i;
          const key = str().value;
          skip();
          if (text.charCodeAt(i) !== 0x3a) fail(`Expected ':' but found ${what(i)}`);
          i++;
          const entry: JsonEntry = { key, keyOffset, value: value(depth + 1) };
          entries.push(entry);
          map.set(key, entry);
          skip();
          const d = text.charCodeAt(i);
          if (d === 0x2c) {
            i++;
            continue;
          }
          if (d === 0x7d) {
            i++;
            return { kind: 'object', offset: start, entries, map };
          }
          fail(`Expected ',' or '}' but found ${what(i)}`);
        }
      }
      case 0x5b: {
        if (depth >= MAX_NESTING_DEPTH) tooDeep();
        i++;
        const items: JsonNode[] = [];
        skip();
        if (text.charCodeAt(i) === 0x5d) {
          i++;
          return { kind: 'array', offset: start, items };
        }
        for (;;) {
          items.push(value(depth + 1));
          skip();
          const d = text.charCodeAt(i);
          if (d === 0x2c) {
            i++;
            continue;
          }
          if (d === 0x5d) {
            i++;
            return { kind: 'array', offset: start, items };
          }
          fail(`Expected ',' or ']' but found ${what(i)}`);
        }
      }
      case 0x22:
        return str();
      case 0x74:
        literal('true');
        return { kind: 'boolean', offset: start, value: true };
      case 0x66:
        literal('false');
        return { kind: 'boolean', offset: start, value: false };
      case 0x6e:
        literal('null');
        return { kind: 'null', offset: start };
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return num();
        return fail(`Unexpected ${what(i)}`);
    }
  };

  try {
    skip();
    while (i < n) {
      values.push(value(0));
      skip();
    }
    return { values };
  } catch (err) {
    if (err instanceof JsonSyntax) return { values, error: { message: err.message, offset: err.offset } };
    if (err instanceof JsonSyntaxError)
      return { values, error: { message: err.message, offset: err.charOffset } };
    throw err;
  }
}

/** Maps char offsets of a text to 1-based lines and columns. */
export class LineIndex {
  #starts: number[] | undefined;

  constructor(readonly text: string) {}

  position(offset: number): { line: number; column: number } {
    const starts = (this.#starts ??= lineStarts(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) starts.push(k + 1);
  return starts;
}

/** The node at a JSON-pointer-like list of segments below `node`, or the deepest one that exists. */
export function nodeAt(node: JsonNode, segments: readonly (string | number)[]): JsonNode {
  let current = node;
  for (const s of segments) {
    if (current.kind === 'object' && typeof s === 'string') {
      const e = current.map.get(s);
      if (e === undefined) break;
      current = e.value;
    } else if (current.kind === 'array' && typeof s === 'number' && s < current.items.length) {
      current = current.items[s]!;
    } else {
      break;
    }
  }
  return current;
}

/** One segment of a JSON pointer (`~` and `/` escaped). */
export function pointerSegment(key: string | number): string {
  return typeof key === 'number' ? String(key) : key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The data-layer value of a JSON node (the schema parser's and the canonical reader's). */
export function toData(node: JsonNode): DataValue {
  switch (node.kind) {
    case 'object': {
      const map = new DataMap();
      for (const e of node.entries) map.put(e.key, toData(e.value));
      return map;
    }
    case 'array':
      return new DataList(node.items.map(toData));
    case 'null':
      return Data.NULL;
    default:
      return node.value;
  }
}
