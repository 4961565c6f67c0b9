import { ByteString, DataList, DataMap, type DataValue } from '../data';
import { KIND, KIND_BYTES, STORE, type Store } from '../data/internal';
// the schema modules themselves, not the barrel: it also holds the file resolver and Avro, which the
// browser client (svc-framework/client) must not reach
import { DataSchema } from '../schema/data-schema';
import { DataSchemaType } from '../schema/data-schema-type';
import { CoercionMode, RequiredMode } from '../schema/validation';
// not `validate`: the installed validator, so that a browser page can leave the validator out
import { coerceToSchema } from '../schema/validation/type-coercion';
import { InvalidKeyError, UriElementParseError } from './errors';
import { percentDecode } from './uri-component-encoding';
import {
  encodeElement,
  encodeUriString,
  sortStrings,
  stringifyPrimitive,
  type UriEncodingMode,
} from './uri-element-encoder';
import { parseElement } from './uri-element-parser';

/**
 * Resource keys on the wire (wire facts §2.5): simple keys, compound keys (association resources) and
 * complex keys (a key record plus a params record), in their four places: a path segment, an item of
 * `ids=List(...)`, a body map key and the id header.
 *
 * | key | path / ids item | body map key, id header |
 * |---|---|---|
 * | long 42 | `42` | `42` |
 * | string `a,b c` | `a%2Cb%20c` | `a,b c` (raw) |
 * | compound | `(followeeID:2,followerID:1)` | same, internal escaping only |
 * | complex + params | `($params:(p:x%3Ay),list:List(1,2),major:KEY%201)` | `(list:List(1,2),major:KEY 1)` (no `$params`) |
 */

/** A simple key: a primitive value (enums as their symbol string). */
export type SimpleKey = string | number | bigint | boolean | ByteString;

/**
 * Internal state on a symbol (STYLE.md), not a `#private` field: the test and bench transpilers turn those
 * into WeakMap lookups, which made key decoding in bench/uri.bench.ts several times slower.
 */
const PARTS = Symbol('svc.compoundKey.parts');

/** The name of the params entry of a complex key's map form. */
export const COMPLEX_KEY_PARAMS = '$params';

function isSimpleKeyValue(v: unknown): v is SimpleKey {
  switch (typeof v) {
    case 'string':
    case 'bigint':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      return v !== null && (v as { [KIND]?: number })[KIND] === KIND_BYTES;
    default:
      return false;
  }
}

/**
 * The key of an association resource: named simple parts. Part order does not matter; on the wire parts
 * are sorted by name.
 *
 * @example
 * ```ts
 * encodeKeyForPath(new CompoundKey({ followerID: 1, followeeID: 2 })); // '(followeeID:2,followerID:1)'
 * ```
 */
export class CompoundKey {
  /** Tells the key kinds apart without `instanceof` (two copies of the package may be loaded). */
  readonly keyKind = 'compound' as const;
  // declared, set first thing by the constructor: a class field with a computed key keeps the class in
  // every bundle, used or not
  /** @internal */ declare readonly [PARTS]: Map<string, SimpleKey>;

  constructor(parts?: Iterable<readonly [string, SimpleKey]> | { readonly [name: string]: SimpleKey }) {
    this[PARTS] = new Map<string, SimpleKey>();
    if (parts === undefined) return;
    const entries =
      typeof (parts as Iterable<unknown>)[Symbol.iterator] === 'function'
        ? (parts as Iterable<readonly [string, SimpleKey]>)
        : Object.entries(parts as { readonly [name: string]: SimpleKey });
    for (const [name, value] of entries) this.append(name, value);
  }

  /** Adds (or replaces) a part; returns this key. */
  append(name: string, value: SimpleKey): this {
    if (!isSimpleKeyValue(value))
      throw new TypeError(`compound key part '${name}' must be a simple key value`);
    this[PARTS].set(name, value);
    return this;
  }

  get(name: string): SimpleKey | undefined {
    return this[PARTS].get(name);
  }

  has(name: string): boolean {
    return this[PARTS].has(name);
  }

  get size(): number {
    return this[PARTS].size;
  }

  /** Part names in insertion order. */
  partNames(): string[] {
    return [...this[PARTS].keys()];
  }

  entries(): IterableIterator<[string, SimpleKey]> {
    return this[PARTS].entries();
  }

  /** True when the key has exactly the given parts (a partial key lacks some: a collection-level path). */
  hasAllParts(names: Iterable<string>): boolean {
    let n = 0;
    for (const name of names) {
      if (!this[PARTS].has(name)) return false;
      n++;
    }
    return n === this[PARTS].size;
  }

  /** The parts as a DataMap (simple values as they are). */
  toDataMap(): DataMap {
    const map = new DataMap();
    for (const [name, value] of this[PARTS]) map.put(name, value);
    return map;
  }

  /** Same parts with equal values (by wire form). */
  equals(other: unknown): boolean {
    return isCompoundKey(other) && encodeKeyForBody(this) === encodeKeyForBody(other);
  }

  /** The body form, `(a:1,b:2)`. */
  toString(): string {
    return encodeKeyForBody(this);
  }
}

/**
 * The key of a complex-key collection: a key record and an optional params record, both as data. The
 * params travel in URIs and batch request bodies (`$params`), never in response map keys or the id header.
 */
export class ComplexKey {
  readonly keyKind = 'complex' as const;
  readonly key: DataMap;
  readonly params: DataMap | undefined;

  constructor(key: DataMap, params?: DataMap) {
    this.key = key;
    this.params = params;
  }

  /** The map form: the key's fields, plus `$params` when `full` and there are params. */
  toDataMap(full = true): DataMap {
    const map = new DataMap(this.key);
    if (full && this.params !== undefined) map.put(COMPLEX_KEY_PARAMS, this.params);
    else map.remove(COMPLEX_KEY_PARAMS);
    return map;
  }

  /** Same key record (params ignored, as for lookups in a batch response). */
  equals(other: unknown): boolean {
    return isComplexKey(other) && encodeKeyForBody(this) === encodeKeyForBody(other);
  }

  toString(): string {
    return encodeKeyForBody(this, true);
  }
}

/** Any resource key. */
export type ResourceKey = SimpleKey | CompoundKey | ComplexKey;

/** Whether a protocol key is a compound (association) key. */
export function isCompoundKey(k: unknown): k is CompoundKey {
  return typeof k === 'object' && k !== null && (k as { keyKind?: unknown }).keyKind === 'compound';
}

/** Whether a protocol key is a complex key (a key record and its params). */
export function isComplexKey(k: unknown): k is ComplexKey {
  return typeof k === 'object' && k !== null && (k as { keyKind?: unknown }).keyKind === 'complex';
}

// ---------------------------------------------------------------------------------------------------------
// Encoding

/**
 * The data form of a key inside URI elements: a simple key as its string form (`42`, `true`, the Avro
 * string of bytes), a compound key as a map of its parts, a complex key as its map (with `$params` when
 * `full`).
 */
export function keyToData(key: ResourceKey, full = true): DataValue {
  if (isCompoundKey(key)) return key.toDataMap();
  if (isComplexKey(key)) return key.toDataMap(full);
  return stringifyPrimitive(key);
}

function encodeKey(key: ResourceKey, mode: UriEncodingMode, full: boolean): string {
  if (isCompoundKey(key)) {
    // straight from the parts: no DataMap built just to be encoded
    const names = sortStrings(key.partNames());
    let out = '(';
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const v = key.get(name)!;
      if (i > 0) out += ',';
      out += `${encodeUriString(name, mode)}:${encodeUriString(typeof v === 'string' ? v : stringifyPrimitive(v), mode)}`;
    }
    return `${out})`;
  }
  return encodeElement(keyToData(key, full), mode);
}

/** A key as a path segment (`/r/<key>`), `$params` included. */
export function encodeKeyForPath(key: ResourceKey): string {
  return encodeKey(key, 'path', true);
}

/** A key as one item of `ids=List(...)` (query-parameter escaping), `$params` included. */
export function encodeKeyForQuery(key: ResourceKey): string {
  return encodeKey(key, 'query', true);
}

/**
 * The `ids` parameter as data, for `encodeQueryParams` next to other parameters: each key's data form
 * (`$params` included), duplicates (by wire form) dropped, otherwise in the caller's order.
 *
 * @example
 * ```ts
 * buildUri('/follows', { ids: batchIdsData(keys), fields: 'id' });
 * ```
 */
export function batchIdsData(keys: Iterable<ResourceKey>): DataList {
  const seen = new KeySet();
  const list = new DataList();
  for (const key of keys) if (seen.add(key)) list.add(keyToData(key, true));
  return list;
}

/**
 * The value of the `ids` query parameter: `List(k1,k2,...)`, query-encoded, duplicates dropped, otherwise in
 * the caller's order (the reference uses a HashSet; servers treat ids as a set). Equals the `ids` value
 * `encodeQueryParams({ ids: batchIdsData(keys) })` writes.
 */
export function encodeBatchIds(keys: Iterable<ResourceKey>): string {
  const seen = new KeySet();
  let out = 'List(';
  let first = true;
  for (const key of keys) {
    if (!seen.add(key)) continue;
    if (!first) out += ',';
    first = false;
    out += encodeKeyForQuery(key);
  }
  return `${out})`;
}

/**
 * A key as a body map key (batch responses with `full` false, batch request `entities` with `full` true)
 * or, with `full` false, as the id header value: a simple key raw, with no escaping at all; compound and
 * complex keys in the element grammar with the internal escaping only.
 */
export function encodeKeyForBody(key: ResourceKey, full = false): string {
  if (isCompoundKey(key) || isComplexKey(key)) return encodeKey(key, 'none', full);
  return stringifyPrimitive(key);
}

/** A key as the value of the id header (`X-Svc-Id`): the body form without `$params`. */
export function encodeKeyForHeader(key: ResourceKey): string {
  return encodeKeyForBody(key, false);
}

// ---------------------------------------------------------------------------------------------------------
// Decoding

/** Simple key types by name. */
export type SimpleKeyType = 'string' | 'int' | 'long' | 'float' | 'double' | 'boolean' | 'bytes';

/** The type of a simple key or key part: a primitive type name, or a schema (typeref, enum, primitive). */
export type KeyPartType = SimpleKeyType | DataSchema;

/**
 * What a resource's keys look like, for decoding. Leaving out types decodes every simple value as a
 * string; with types, values are coerced (strictly: `1.5` is not a long) and schemas are validated.
 */
export type KeySpec =
  | { readonly kind: 'simple'; readonly type?: KeyPartType }
  | { readonly kind: 'compound'; readonly parts: { readonly [name: string]: KeyPartType | undefined } }
  | { readonly kind: 'complex'; readonly keySchema?: DataSchema; readonly paramsSchema?: DataSchema };

/**
 * The value of integer text `^[+-]?\d+$` when it has at most 15 digits (always a safe integer, so the
 * digits add up exactly), NaN when the text is not integer text, undefined when it is but is longer.
 * Without a regex or `Number(text)`: ids are parsed ten or a hundred at a time per batch request.
 */
function smallIntegerValue(text: string): number | undefined {
  const n = text.length;
  const sign = n > 0 ? text.charCodeAt(0) : 0;
  let i = sign === 43 || sign === 45 ? 1 : 0;
  if (i === n) return Number.NaN;
  let value = 0;
  for (; i < n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    value = value * 10 + d;
  }
  if (n > 15 + (sign === 43 || sign === 45 ? 1 : 0)) return undefined;
  // `+ 0` turns -0 into 0, as Number('-0') + 0 does
  return sign === 45 ? -value + 0 : value;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const FLOAT_LIMIT = 3.4028234663852886e38 + 2 ** 103;

function typeName(type: KeyPartType): string {
  return typeof type === 'string' ? type : type.getDereferencedType().toLowerCase();
}

function primitiveOf(type: KeyPartType): SimpleKeyType | undefined {
  if (typeof type === 'string') return type;
  switch (type.getDereferencedType()) {
    case DataSchemaType.INT:
      return 'int';
    case DataSchemaType.LONG:
      return 'long';
    case DataSchemaType.FLOAT:
      return 'float';
    case DataSchemaType.DOUBLE:
      return 'double';
    case DataSchemaType.BOOLEAN:
      return 'boolean';
    case DataSchemaType.BYTES:
      return 'bytes';
    case DataSchemaType.STRING:
      return 'string';
    default:
      return undefined;
  }
}

function parsePrimitive(text: string, type: SimpleKeyType): SimpleKey | undefined {
  switch (type) {
    case 'string':
      return text;
    case 'int': {
      const small = smallIntegerValue(text);
      if (Number.isNaN(small)) return undefined;
      const n = small ?? Number(text);
      return n >= -2147483648 && n <= 2147483647 ? n + 0 : undefined;
    }
    case 'long': {
      const small = smallIntegerValue(text);
      if (small !== undefined) return Number.isNaN(small) ? undefined : small;
      // longer: exact through a BigInt
      const b = BigInt(text);
      if (b < LONG_MIN || b > LONG_MAX) return undefined;
      return b >= SAFE_MIN && b <= SAFE_MAX ? Number(b) : b;
    }
    case 'float':
    case 'double': {
      if (!DECIMAL.test(text)) return undefined;
      const n = Number(text);
      if (!Number.isFinite(n) || (type === 'float' && Math.abs(n) >= FLOAT_LIMIT)) return undefined;
      return n;
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : undefined;
    }
    case 'bytes':
      return ByteString.isAvroString(text) ? ByteString.fromAvroString(text) : undefined;
    default:
      return undefined;
  }
}

/** Why a simple value did not convert: `NumberFormatException` for numbers, as the reference names it. */
function isNumeric(type: KeyPartType): boolean {
  const p = primitiveOf(type);
  return p === 'int' || p === 'long' || p === 'float' || p === 'double';
}

/**
 * Converts the string form of a simple key (or key part) to `type`; undefined type keeps the string. A
 * schema is validated after the conversion (enum symbols, typeref'd primitives); a typeref to a custom
 * class stays in its data form.
 *
 * @throws InvalidKeyError `Key value '<text>' must be of type '<type>'`
 */
export function coerceSimpleKey(text: string, type: KeyPartType | undefined): SimpleKey {
  // keys become map keys of batch responses, which Svc data (and PSON) cannot hold with U+0000
  if (text.includes('\u0000'))
    throw new InvalidKeyError(`Key value '${text.replaceAll('\u0000', '%00')}' holds U+0000`);
  if (type === undefined) return text;
  const primitive = primitiveOf(type);
  let value: SimpleKey | undefined = text;
  if (primitive !== undefined) value = parsePrimitive(text, primitive);
  if (value !== undefined && type instanceof DataSchema) {
    const result = coerceToSchema(value, type, { coercionMode: CoercionMode.NORMAL });
    if (!result.isValid()) {
      throw new InvalidKeyError(
        `Key value '${text}' must be of type '${typeName(type)}'`,
        result.getMessage(),
      );
    }
    value = result.getFixed() as SimpleKey;
  }
  if (value === undefined)
    throw new InvalidKeyError(`Key value '${text}' must be of type '${typeName(type)}'`);
  return value;
}

function compoundFromData(
  data: DataValue,
  spec: { readonly parts: { readonly [name: string]: KeyPartType | undefined } },
): CompoundKey {
  if (!(data instanceof DataMap))
    throw new InvalidKeyError('not a compound key', 'a compound key must be a map `(part:value,...)`');
  const key = new CompoundKey();
  let unknown = '';
  // the raw store: parsed keys hold strings (and raw nodes, which are errors here); no wrapper per entry
  const store = (data as unknown as { [STORE]: Store })[STORE];
  for (const name of Object.keys(store)) {
    const value = store[name];
    if (!Object.prototype.hasOwnProperty.call(spec.parts, name)) {
      unknown += `Unknown key part named '${name}'`;
      continue;
    }
    if (typeof value !== 'string') {
      throw new InvalidKeyError(`Key part '${name}' must be a simple value`);
    }
    const type = spec.parts[name];
    try {
      key.append(name, coerceSimpleKey(value, type));
    } catch (err) {
      if (err instanceof InvalidKeyError) {
        throw new InvalidKeyError(`Key part '${name}': ${err.message}`, undefined, { cause: err });
      }
      throw err;
    }
  }
  if (unknown !== '') throw new InvalidKeyError(unknown);
  return key;
}

function validateRecord(data: DataMap, schema: DataSchema | undefined): DataMap {
  if (schema === undefined) return data;
  const result = coerceToSchema(data, schema, {
    coercionMode: CoercionMode.STRING_TO_PRIMITIVE,
    requiredMode: RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
  });
  if (!result.isValid()) {
    throw new InvalidKeyError(`Input field validation failure, reason: ${result.getMessage()}`);
  }
  return result.getFixed() as DataMap;
}

function complexFromData(
  data: DataValue,
  spec: { readonly keySchema?: DataSchema; readonly paramsSchema?: DataSchema },
): ComplexKey {
  if (!(data instanceof DataMap))
    throw new InvalidKeyError('not a complex key', 'a complex key must be a map `(field:value,...)`');
  const key = new DataMap(data);
  const params = key.remove(COMPLEX_KEY_PARAMS);
  if (params !== undefined && !(params instanceof DataMap)) {
    throw new InvalidKeyError(`'${COMPLEX_KEY_PARAMS}' of a complex key must be a map`);
  }
  return new ComplexKey(
    validateRecord(key, spec.keySchema),
    params === undefined ? undefined : validateRecord(params, spec.paramsSchema),
  );
}

/**
 * A key from its data form (an `ids` item, a parsed body key): a string for a simple key, a map for a
 * compound or complex key. The error's message is the reason; callers add where the key came from.
 *
 * @throws InvalidKeyError
 */
export function keyFromData(data: DataValue, spec: KeySpec): ResourceKey {
  switch (spec.kind) {
    case 'simple':
      if (typeof data !== 'string') throw new InvalidKeyError('a simple key must be a string');
      return coerceSimpleKey(data, spec.type);
    case 'compound':
      return compoundFromData(data, spec);
    case 'complex':
      return complexFromData(data, spec);
    default:
      throw new TypeError(`unknown key kind '${String((spec as { kind?: unknown }).kind)}'`);
  }
}

function parseForKey(text: string): DataValue {
  return parseElement(text);
}

/**
 * Decodes a key from its raw path segment, as the reference's router does (wire facts §2.4): a simple key
 * (and an alternative key, `?altkey=`) is only percent-decoded, so `''` stays the two-char string; compound
 * and complex keys go through the element parser. A compound key may be partial (fewer parts than the
 * resource has: a collection-level path, see {@link CompoundKey.hasAllParts}).
 *
 * @throws InvalidKeyError (400) with the reference's messages: `Key value '<seg>' must be of type '<type>'`,
 *   `input <seg> is not a Compound key`, `Complex key query parameters parsing error: '<msg>'`,
 *   `Invalid complex key: '<msg>'`, `Input field validation failure, reason: <messages>`; `reason` says why
 */
export function decodeKeyFromPath(segment: string, spec: KeySpec): ResourceKey {
  if (spec.kind === 'simple') {
    let text: string;
    try {
      text = percentDecode(segment);
    } catch (err) {
      throw new InvalidKeyError(`Key parameter value '${segment}' is invalid`, (err as Error).message, {
        cause: err,
      });
    }
    try {
      return coerceSimpleKey(text, spec.type);
    } catch (err) {
      if (!(err instanceof InvalidKeyError)) throw err;
      const message =
        spec.type === undefined || isNumeric(spec.type)
          ? `Key value '${segment}' must be of type '${typeName(spec.type ?? 'string')}'`
          : `Key parameter value '${segment}' is invalid`;
      throw new InvalidKeyError(message, err.reason, { cause: err });
    }
  }
  if (spec.kind === 'compound') {
    try {
      return compoundFromData(parseForKey(segment), spec);
    } catch (err) {
      // the reference's router names an unknown part alone, and a depth bomb gets its limit named
      if (err instanceof InvalidKeyError && err.message.startsWith('Unknown key part named')) throw err;
      if (err instanceof UriElementParseError && err.tooDeep)
        throw new InvalidKeyError(
          `Compound key ${err.message.slice(0, err.message.indexOf(' at '))}`,
          err.message,
          {
            cause: err,
          },
        );
      if (err instanceof UriElementParseError || err instanceof InvalidKeyError) {
        const reason = err instanceof InvalidKeyError ? err.reason : err.message;
        throw new InvalidKeyError(`input ${segment} is not a Compound key`, reason, { cause: err });
      }
      throw err;
    }
  }
  let data: DataValue;
  try {
    data = parseForKey(segment);
  } catch (err) {
    if (!(err instanceof UriElementParseError)) throw err;
    throw new InvalidKeyError(`Complex key query parameters parsing error: '${err.message}'`, err.message, {
      cause: err,
    });
  }
  try {
    return complexFromData(data, spec);
  } catch (err) {
    if (!(err instanceof InvalidKeyError)) throw err;
    if (err.message.startsWith('Input field validation failure')) throw err;
    throw new InvalidKeyError(`Invalid complex key: '${err.reason}'`, err.reason, { cause: err });
  }
}

/**
 * Decodes a body map key or the id header value (a client reading a batch response or a create response):
 * a simple key is the raw text; compound and complex keys are parsed (`$params` split off when present).
 *
 * @throws InvalidKeyError
 */
export function decodeKeyFromBody(text: string, spec: KeySpec): ResourceKey {
  if (spec.kind === 'simple') return coerceSimpleKey(text, spec.type);
  let data: DataValue;
  try {
    data = parseForKey(text);
  } catch (err) {
    if (!(err instanceof UriElementParseError)) throw err;
    throw new InvalidKeyError(`Invalid key '${text}': ${err.message}`, err.message, { cause: err });
  }
  try {
    return keyFromData(data, spec);
  } catch (err) {
    if (!(err instanceof InvalidKeyError)) throw err;
    throw new InvalidKeyError(`Invalid key '${text}': ${err.message}`, err.reason, { cause: err });
  }
}

/** A batch key that did not decode; the server answers it with a per-key 400 in the batch `errors` map. */
export interface BatchKeyError {
  /** The item in body-key form (the key of the `errors` entry). */
  readonly key: string;
  readonly error: InvalidKeyError;
}

/** The decoded `ids` parameter. */
export interface BatchIds {
  /** Keys in request order, duplicates (by wire form) dropped. */
  readonly keys: ResourceKey[];
  /** Compound/complex items that did not decode (simple ids fail the whole request instead). */
  readonly errors: BatchKeyError[];
}

/**
 * Decodes the parsed `ids` parameter (`parseQueryParams(...).get('ids')`); undefined when absent. As the
 * reference (wire facts §2.4): for simple keys any bad id fails the request (400 `NumberFormatException
 * parsing batch key '<id>'`); for compound and complex keys a bad item becomes a per-key error and the
 * others go on.
 *
 * @throws InvalidKeyError
 */
export function decodeBatchIds(
  ids: DataValue | undefined,
  spec: KeySpec,
  protocol1 = false,
): BatchIds | undefined {
  if (ids === undefined) return undefined;
  const keys: ResourceKey[] = [];
  const errors: BatchKeyError[] = [];
  if (spec.kind === 'simple') return { keys: decodeSimpleBatchIds(ids, spec.type), errors };
  // 1.0.0: one compound id is a plain string (`a=1&b=2`), not a List
  const list = protocol1 && typeof ids === 'string' ? new DataList([ids]) : ids;
  if (!(list instanceof DataList)) {
    throw new InvalidKeyError(`Invalid batch keys '${describeItem(ids)}': expected List(...)`);
  }
  const seen = new KeySet();
  for (const item of list) {
    try {
      const key =
        protocol1 && spec.kind === 'compound' && typeof item === 'string'
          ? compoundFromData(protocol1CompoundData(item), spec)
          : keyFromData(item, spec);
      if (seen.add(key)) keys.push(key);
    } catch (err) {
      if (!(err instanceof InvalidKeyError)) throw err;
      const text = describeItem(item);
      errors.push({
        key: text,
        error: new InvalidKeyError(`Invalid structure of key '${text}'`, err.reason, { cause: err }),
      });
    }
  }
  return { keys, errors };
}

/**
 * A 1.0.0 compound key's text, `albumId=1&photoId=2` (its parts URL-encoded: wire facts §3.2), as the map
 * the 2.0.0 form parses to.
 * @throws InvalidKeyError
 */
function protocol1CompoundData(text: string): DataMap {
  const map = new DataMap();
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InvalidKeyError(`'${part}' is not a name=value key part`);
    let name: string;
    let value: string;
    try {
      name = percentDecode(part.slice(0, eq), true);
      value = percentDecode(part.slice(eq + 1), true);
    } catch (err) {
      throw new InvalidKeyError(`bad percent-escape in key part '${part}'`, (err as Error).message, {
        cause: err,
      });
    }
    if (map.has(name)) throw new InvalidKeyError(`key part '${name}' is repeated`);
    map.put(name, value);
  }
  return map;
}

/** Up to this many ids, duplicates are found by a scan of those seen so far rather than through a Set. */
const SCAN_DUPLICATES_UP_TO = 32;

/**
 * Simple batch ids, in order, duplicates dropped. Reads the list's store (strings, as the URI parser made
 * them) instead of a wrapper per item, and drops duplicates by value: the keys of one type coerce to one JS
 * type (strings, or numbers within ±2^53 and bigints beyond, booleans), and for those equal values are
 * equal wire forms, `-0` and `0` included; ByteStrings (objects) go by their wire form. Ten long ids cost
 * ~17 ns each this way, against ~38 through a wrapper per item, a regex and a {@link KeySet}.
 */
function decodeSimpleBatchIds(ids: DataValue, type: KeyPartType | undefined): SimpleKey[] {
  const list = ids instanceof DataList ? (ids as unknown as { [STORE]: unknown[] })[STORE] : [ids];
  const n = list.length;
  const keys: SimpleKey[] = [];
  const primitive = typeof type === 'string' ? type : undefined;
  // numbers and booleans are parsed by hand, which refuses U+0000 with every other stray character: no
  // scan for it first (`includes` cost ~110 instructions an id, a tenth of decoding ten long ids)
  const parsedByHand =
    primitive === 'int' ||
    primitive === 'long' ||
    primitive === 'float' ||
    primitive === 'double' ||
    primitive === 'boolean';
  const seen = n > SCAN_DUPLICATES_UP_TO ? new Set<unknown>() : undefined;
  let wires: string[] | undefined; // of ByteString keys, when scanning
  for (let i = 0; i < n; i++) {
    const item = list[i];
    if (typeof item !== 'string') {
      const value = ids instanceof DataList ? ids.get(i) : ids;
      throw new InvalidKeyError(
        `IllegalArgumentException parsing batch key '${describeItem(value)}'`,
        'a simple key must be a string',
      );
    }
    // a primitive type converts straight away; schemas, and every failure, go the whole way
    let key = parsedByHand
      ? parsePrimitive(item, primitive)
      : item.includes('\u0000')
        ? undefined // coerceSimpleKey refuses it
        : type === undefined
        ? item
        : primitive === undefined
          ? undefined
          : parsePrimitive(item, primitive);
    if (key === undefined) {
      try {
        key = coerceSimpleKey(item, type);
      } catch (err) {
        if (!(err instanceof InvalidKeyError)) throw err;
        const kind =
          type === undefined || isNumeric(type) ? 'NumberFormatException' : 'IllegalArgumentException';
        throw new InvalidKeyError(`${kind} parsing batch key '${item}'`, err.reason, { cause: err });
      }
    }
    if (seen !== undefined) {
      const identity = typeof key === 'object' ? wireText(key) : key;
      if (seen.has(identity)) continue;
      seen.add(identity);
    } else if (typeof key === 'object') {
      const wire = wireText(key);
      if ((wires ??= []).includes(wire)) continue;
      wires.push(wire);
    } else if (isAmong(key, keys)) {
      continue;
    }
    keys.push(key);
  }
  return keys;
}

/** `keys.includes(key)` for a primitive key, as a loop: cheaper than the builtin for a handful of keys. */
function isAmong(key: SimpleKey, keys: readonly SimpleKey[]): boolean {
  for (let i = 0; i < keys.length; i++) if (keys[i] === key) return true;
  return false;
}

/** The wire (string) form of a simple key value: what key equality goes by. */
function wireText(v: SimpleKey): string {
  return typeof v === 'string' ? v : stringifyPrimitive(v);
}

/**
 * A set of keys, equal when their wire forms are (so `3` and `'3'` are one id), for dropping duplicate
 * ids. Compound keys are filed under their first part's name and value and compared part by part within
 * the bucket: building the wire form of each key to put in a Set cost more than decoding the key
 * (bench/uri.bench.ts, ids of 10 compound keys).
 */
class KeySet {
  private readonly simple = new Set<string>();
  /** First part name → its value → the keys filed there. */
  private readonly buckets = new Map<string, Map<string, CompoundKey[]>>();
  private readonly complex = new Set<string>();

  /** Adds `key`; false when an equal key is already there. */
  add(key: ResourceKey): boolean {
    if (isComplexKey(key)) {
      const text = encodeKeyForBody(key, true);
      if (this.complex.has(text)) return false;
      this.complex.add(text);
      return true;
    }
    if (!isCompoundKey(key)) {
      const b = wireText(key);
      if (this.simple.has(b)) return false;
      this.simple.add(b);
      return true;
    }
    let first: string | undefined;
    for (const [name] of key.entries()) if (first === undefined || name < first) first = name;
    const name = first ?? '';
    let byValue = this.buckets.get(name);
    if (byValue === undefined) {
      byValue = new Map();
      this.buckets.set(name, byValue);
    }
    const bucket = first === undefined ? '' : wireText(key.get(first)!);
    const list = byValue.get(bucket);
    if (list === undefined) {
      byValue.set(bucket, [key]);
      return true;
    }
    for (const other of list) {
      if (other.size !== key.size) continue;
      let same = true;
      for (const [name, v] of key.entries()) {
        const w = other.get(name);
        if (w === undefined || (v !== w && wireText(v) !== wireText(w))) {
          same = false;
          break;
        }
      }
      if (same) return false;
    }
    list.push(key);
    return true;
  }
}

function describeItem(item: DataValue): string {
  return typeof item === 'string' ? item : encodeElement(item, 'none');
}
