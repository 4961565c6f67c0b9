/**
 * Writes Avro schema JSON in the reference's three layouts (its `JsonBuilder.Pretty` over Jackson):
 *
 * - COMPACT: no whitespace: `{"type":"array","items":"int"}`.
 * - SPACES: `{ "type" : "array", "items" : "int" }`; empty containers are `{  }` and `[  ]`.
 * - INDENTED: Jackson's default pretty printer: one object entry per line, indented by two spaces per
 *   object level, `" : "` between key and value; arrays stay on the line (`[ 1, 2 ]`, objects inside them
 *   open on the same line); empty containers are `{ }` and `[ ]`.
 *
 * Strings are escaped as Jackson does (`\u0001` with upper-case hex, `\n`, `\t`...; non-ASCII written as is),
 * and float and double values as Java prints them (`2.0`, `1.0E7`), so that the output matches the
 * reference's byte for byte where the content is the same.
 */
import { ByteString, Data, DataList, DataMap, type DataValue } from '../../data';
import { AvroJsonStyle } from './avro-options';

/** An object with its keys in writing order. */
export interface JsonOutObject {
  readonly kind: 'object';
  readonly entries: readonly (readonly [string, JsonOut])[];
}

/** A number already in its JSON form (floats and doubles formatted the Java way). */
export interface JsonOutNumber {
  readonly kind: 'number';
  readonly text: string;
}

/** Data written as JSON; `sortKeys` sorts the keys of every map inside (the reference does so for properties). */
export interface JsonOutData {
  readonly kind: 'data';
  readonly value: DataValue;
  readonly sortKeys: boolean;
}

/** A JSON tree to write. Plain numbers and bigints are written as integers or JS numbers. */
export type JsonOut =
  | string
  | boolean
  | null
  | number
  | bigint
  | readonly JsonOut[]
  | JsonOutObject
  | JsonOutNumber
  | JsonOutData;

export function obj(entries: readonly (readonly [string, JsonOut])[]): JsonOutObject {
  return { kind: 'object', entries };
}

export function data(value: DataValue, sortKeys = false): JsonOutData {
  return { kind: 'data', value, sortKeys };
}

export function num(text: string): JsonOutNumber {
  return { kind: 'number', text };
}

/** A plain JSON value (as parsed: objects, arrays, strings, numbers, bigints, booleans, null) as a tree. */
export function plain(value: unknown): JsonOut {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    return obj(Object.keys(value).map((k) => [k, plain((value as Record<string, unknown>)[k])] as const));
  }
  throw new TypeError(`not a JSON value: ${typeof value}`);
}

/** Writes `out` in `style`. */
export function writeAvroJson(out: JsonOut, style: AvroJsonStyle): string {
  return write(normalize(out), style, 0);
}

/** Data values become object/array trees, so one printer handles every layout. */
function normalize(out: JsonOut): JsonOut {
  if (out === null || typeof out !== 'object') return out;
  if (Array.isArray(out)) return (out as readonly JsonOut[]).map(normalize);
  const o = out as JsonOutObject | JsonOutNumber | JsonOutData;
  switch (o.kind) {
    case 'object':
      return obj(o.entries.map(([k, v]) => [k, normalize(v)] as const));
    case 'number':
      return o;
    case 'data':
      return fromData(o.value, o.sortKeys);
  }
}

function fromData(value: DataValue, sortKeys: boolean): JsonOut {
  if (value === Data.NULL) return null;
  if (value instanceof DataMap) {
    const keys = [...value.keys()];
    if (sortKeys) keys.sort(compareKeys);
    return obj(keys.map((k) => [k, fromData(value.get(k)!, sortKeys)] as const));
  }
  if (value instanceof DataList) return value.toArray().map((v) => fromData(v, sortKeys));
  if (value instanceof ByteString) return value.asAvroString();
  return value as string | number | bigint | boolean;
}

/** Java's `String.compareTo` order (UTF-16 code units), which is also JS's default string order. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function write(out: JsonOut, style: AvroJsonStyle, nesting: number): string {
  if (out === null) return 'null';
  switch (typeof out) {
    case 'string':
      return quote(out);
    case 'boolean':
      return out ? 'true' : 'false';
    case 'number':
      return numberText(out);
    case 'bigint':
      return out.toString();
    default:
      break;
  }
  if (Array.isArray(out)) {
    const items = (out as readonly JsonOut[]).map((v) => write(v, style, nesting));
    switch (style) {
      case AvroJsonStyle.COMPACT:
        return `[${items.join(',')}]`;
      case AvroJsonStyle.SPACES:
        return items.length === 0 ? '[  ]' : `[ ${items.join(', ')} ]`;
      default:
        return items.length === 0 ? '[ ]' : `[ ${items.join(', ')} ]`;
    }
  }
  const o = out as JsonOutObject | JsonOutNumber;
  if (o.kind === 'number') return o.text;
  switch (style) {
    case AvroJsonStyle.COMPACT:
      return `{${o.entries.map(([k, v]) => `${quote(k)}:${write(v, style, nesting)}`).join(',')}}`;
    case AvroJsonStyle.SPACES:
      return o.entries.length === 0
        ? '{  }'
        : `{ ${o.entries.map(([k, v]) => `${quote(k)} : ${write(v, style, nesting)}`).join(', ')} }`;
    default: {
      if (o.entries.length === 0) return '{ }';
      const inner = nesting + 1;
      const pad = `\n${'  '.repeat(inner)}`;
      const body = o.entries.map(([k, v]) => `${pad}${quote(k)} : ${write(v, style, inner)}`).join(',');
      return `{${body}\n${'  '.repeat(nesting)}}`;
    }
  }
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`${n} has no JSON form`);
  return Object.is(n, -0) ? '-0' : String(n);
}

const HEX = '0123456789ABCDEF';
// eslint-disable-next-line no-control-regex -- control characters are exactly what needs escaping
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal escaped as Jackson escapes it. */
export function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c < 0x20) {
      switch (c) {
        case 0x08:
          out += '\\b';
          break;
        case 0x09:
          out += '\\t';
          break;
        case 0x0a:
          out += '\\n';
          break;
        case 0x0c:
          out += '\\f';
          break;
        case 0x0d:
          out += '\\r';
          break;
        default:
          out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else out += unicodeEscape(c);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += unicodeEscape(c); // a lone surrogate has no UTF-8 form
    } else out += s[i]!;
  }
  return `${out}"`;
}

function unicodeEscape(c: number): string {
  return `\\u${HEX[(c >> 12) & 15]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;
}

/** A double as Java's `Double.toString` prints it: `2.0`, `1.5`, `1.0E7`, `1.0E-4`. */
export function javaDoubleText(v: number): string {
  if (!Number.isFinite(v)) throw new TypeError(`${v} has no JSON form`);
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(v);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mantissa = '0', exponent = '0'] = v.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** A float as Java's `Float.toString` prints it: the shortest digits that round to the same float. */
export function javaFloatText(v: number): string {
  const f = Math.fround(v);
  if (!Number.isFinite(f)) throw new TypeError(`${v} is out of the float range`);
  if (f === 0) return Object.is(f, -0) ? '-0.0' : '0.0';
  let shortest = f;
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(f.toPrecision(p));
    if (Math.fround(candidate) === f) {
      shortest = candidate;
      break;
    }
  }
  return javaDoubleText(shortest);
}
