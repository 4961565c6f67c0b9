import type { ByteString, DataValue } from '../data';
import { KIND, KIND_BYTES, KIND_LIST, KIND_MAP, KIND_NULL, STORE, type Store } from '../data/internal';
import { PERCENT_HEX, RESERVED_TABLE } from './ascii-hex-escaping';
import { PATH_SEGMENT_CHARS, QUERY_PARAM_CHARS, appendUtf8Escapes } from './uri-component-encoding';

/**
 * Where an encoded element goes (wire facts §2.2):
 * - `'path'`: a path segment (keys in the path): both escaping layers, path-segment rules;
 * - `'query'`: a query parameter value (or name): both layers, query-parameter rules;
 * - `'none'`: a body map key or a header (`X-Svc-Id`): the internal layer only, no URL escaping.
 */
export type UriEncodingMode = 'query' | 'path' | 'none';

/**
 * Sorts strings in place in UTF-16 code-unit order (Java `String.compareTo`): insertion sort up to 16
 * items, `Array.prototype.sort` beyond. Maps and keys have a handful of entries, and V8's sort costs ~170 ns
 * even for 3 strings, against ~30 ns here (measured for bench/uri.bench.ts).
 */
export function sortStrings(a: string[]): string[] {
  const n = a.length;
  if (n > 16) return a.sort();
  for (let i = 1; i < n; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
  return a;
}

/** The empty string on the wire. */
export const EMPTY_STRING_TOKEN = "''";

/** Per mode, 1 for the ASCII chars a leaf string keeps as they are (both layers folded into one table). */
function keepTable(url: Uint8Array | null): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) t[c] = RESERVED_TABLE[c] === 1 ? 0 : url === null ? 1 : url[c]!;
  return t;
}

const KEEP_PATH = keepTable(PATH_SEGMENT_CHARS);
const KEEP_QUERY = keepTable(QUERY_PARAM_CHARS);
const KEEP_NONE = keepTable(null);

function keepFor(mode: UriEncodingMode): Uint8Array {
  switch (mode) {
    case 'path':
      return KEEP_PATH;
    case 'query':
      return KEEP_QUERY;
    case 'none':
      return KEEP_NONE;
    default:
      throw new TypeError(`unknown URI encoding mode '${String(mode)}' (expected 'query', 'path' or 'none')`);
  }
}

/**
 * Encodes one string (a map key or a leaf) for `mode`: `''` for the empty string; the internal layer
 * (`( ) , : ' %` → `%28 %29 %2C %3A %27 %25`); then, for `'path'` and `'query'`, the URL layer. Both
 * layers run in a single pass over precomputed tables.
 *
 * @example
 * ```ts
 * encodeUriString('a b/c?d&e=f+g%h', 'path');  // 'a%20b%2Fc%3Fd&e=f+g%25h'
 * encodeUriString('a b/c?d&e=f+g%h', 'query'); // 'a%20b/c?d%26e%3Df%2Bg%25h'
 * encodeUriString('a b/c?d&e=f+g%h', 'none');  // 'a b/c?d&e=f+g%25h'
 * ```
 */
export function encodeUriString(s: string, mode: UriEncodingMode): string {
  return encodeLeaf(s, keepFor(mode));
}

function encodeLeaf(s: string, keep: Uint8Array): string {
  const n = s.length;
  if (n === 0) return EMPTY_STRING_TOKEN;
  let out = '';
  let last = 0;
  let changed = false;
  for (let i = 0; i < n;) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (keep[c] === 1) {
        i++;
        continue;
      }
      out += s.slice(last, i) + PERCENT_HEX[c]!;
      i++;
    } else {
      if (keep === KEEP_NONE) {
        i++;
        continue;
      }
      const r = appendUtf8Escapes(out + s.slice(last, i), s, i);
      out = r.out;
      i = r.next;
    }
    last = i;
    changed = true;
  }
  return changed ? out + s.slice(last) : s;
}

/**
 * Text of a number as Java's `toString` prints it, which is what Rest.li peers send: integers (ints, longs)
 * as digits; other doubles as `Double.toString` does (`1.5`, `1.0E10`, `1.0E-5`; shortest round-trip
 * digits). A JS number cannot say whether it was a Java int or double, so an integral double within ±2^53
 * prints as digits, which every numeric parser on the server side reads.
 */
export function javaNumberText(n: number): string {
  if (Number.isSafeInteger(n)) return String(n);
  const a = Math.abs(n);
  if (a >= 1e-3 && a < 1e7) {
    const s = String(n);
    return s.includes('.') ? s : `${s}.0`;
  }
  const e = n.toExponential(); // '1.5e+25', '1e-7'
  const at = e.indexOf('e');
  const mantissa = e.slice(0, at);
  const exponent = e.charCodeAt(at + 1) === 43 ? e.slice(at + 2) : e.slice(at + 1);
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent}`;
}

/**
 * The string form of a primitive data value on the wire (the reference's `DataTemplateUtil.stringify`):
 * strings as they are, numbers as {@link javaNumberText}, bigints as digits, booleans as `true`/`false`,
 * bytes as their Avro string (each byte one char U+00XX), `Data.NULL` as `null`.
 */
export function stringifyPrimitive(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return javaNumberText(v);
    case 'bigint':
    case 'boolean':
      return String(v);
    case 'object': {
      if (v === null) return 'null';
      const kind = (v as { [KIND]?: number })[KIND];
      if (kind === KIND_BYTES) return (v as ByteString).asAvroString();
      if (kind === KIND_NULL) return 'null';
      break;
    }
    default:
      break;
  }
  throw new TypeError(`not a primitive data value: ${typeof v}`);
}

/**
 * Encodes a data value in the Rest.li 2.0 URI grammar (wire facts §2.1–2.3): maps as `(k:v,...)` with keys
 * sorted in UTF-16 code-unit order (Java `String.compareTo`), lists as `List(...)` in order, every leaf as
 * its string form escaped for `mode`; empty map `()`, empty list `List()`, empty string `''`.
 *
 * The inverse is {@link parseElement}: for `'path'` and `'query'` the raw text the server sees parses back to
 * the value with every leaf a string (the server coerces leaves to their schema types).
 *
 * @example
 * ```ts
 * encodeElement(Data.fromJS({ name: 'Jo Ann', tags: [], tl: ['a,b', ''] }), 'query');
 * // '(name:Jo%20Ann,tags:List(),tl:List(a%2Cb,\'\'))'
 * ```
 * @see encodeQueryParams for whole query strings, keys.ts for resource keys
 */
export function encodeElement(value: DataValue, mode: UriEncodingMode): string {
  const keep = keepFor(mode);
  if (typeof value === 'string') return encodeLeaf(value, keep);
  if (typeof value === 'object') {
    const kind = (value as { [KIND]?: number })[KIND];
    if (kind === KIND_MAP || kind === KIND_LIST) {
      return encodeRaw((value as unknown as { [STORE]: Store | unknown[] })[STORE], keep);
    }
  }
  return encodeLeaf(stringifyPrimitive(value), keep);
}

/** Encodes a raw store node (data-layer storage: plain objects, arrays, leaves; raw `null` is Data.NULL). */
function encodeRaw(v: unknown, keep: Uint8Array): string {
  if (typeof v === 'string') return encodeLeaf(v, keep);
  if (typeof v !== 'object' || v === null || (v as { [KIND]?: number })[KIND] !== undefined) {
    return encodeLeaf(stringifyPrimitive(v), keep);
  }
  if (Array.isArray(v)) {
    let out = 'List(';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += ',';
      out += encodeRaw(v[i], keep);
    }
    return `${out})`;
  }
  const store = v as Store;
  const keys = Object.keys(store);
  if (keys.length > 1) sortStrings(keys);
  let out = '(';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    out += `${encodeLeaf(k, keep)}:${encodeRaw(store[k], keep)}`;
  }
  return `${out})`;
}
