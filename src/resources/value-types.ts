import { ByteString, DataList, DataMap, type DataValue } from '../data';
import { coerceSimpleKey, type KeyPartType, type SimpleKeyType } from '../protocol';
// the schema modules, not the barrel (which reaches the file resolver and Avro): see protocol/keys.ts
import { ArrayDataSchema } from '../schema/array-schema';
import type { DataSchema } from '../schema/data-schema';
import type { EnumDataSchema } from '../schema/enum-schema';
import { MapDataSchema } from '../schema/map-schema';
import { primitiveSchema } from '../schema/primitive-schemas';
import { CoercionMode, RequiredMode } from '../schema/validation';
// not `validate`: the installed validator, so that a browser page can leave the validator out
import { coerceToSchema } from '../schema/validation/type-coercion';
import { type EnumObject, type RecordTemplate, enumSchema } from '../templates';
import { enumConstants } from '../templates/enum-support';

/**
 * Types of query parameters, action parameters and returns, and key parts (brief, "BATCH_FINDER" 7: string,
 * boolean, int, long, float, double, generated records and enums, and arrays of these). Each type knows its
 * schema (for the opt-in validation filter and for clients), how to coerce its value from a URI element (all
 * leaves are strings there) and from a decoded body (JSON-typed), and how to turn a value back into data.
 *
 * TypeScript types follow the generated classes: long is `number | bigint`, bytes a `ByteString`, an enum its
 * generated string enum, a record its generated class, an array a readonly array.
 */

/** A value did not coerce. `kind` picks the reference's wording: `must be of type` or `is invalid`. */
export class CoercionFailure extends Error {
  readonly kind: 'type' | 'invalid';
  readonly reason: string | undefined;
  constructor(kind: 'type' | 'invalid', reason?: string) {
    super(reason ?? kind);
    this.name = 'CoercionFailure';
    this.kind = kind;
    this.reason = reason;
  }
}

/** A parameter, return or key-part type; `T` is what handlers see. */
export interface ValueType<T> {
  readonly kind: 'primitive' | 'enum' | 'record' | 'array' | 'map' | 'data';
  /** For messages: `long`, `PhotoFormat`, `Photo`, `string[]`. */
  readonly typeName: string;
  /**
   * A Java primitive (int, long, float, double, boolean): an optional parameter of such a type must have a
   * default, as in the reference (a Java `int` cannot be null).
   */
  readonly primitive: boolean;
  /** The schema of the type (enum and record schemas come from the generated classes; computed once). */
  schema(): DataSchema;
  /** The value from a parsed URI element (strings, `List(...)` and `(k:v)` of strings). */
  fromUri(data: DataValue): T;
  /** The value from decoded body data (an action parameter): numbers are numbers already. */
  fromBody(data: DataValue): T;
  /** The value as data (for action returns, defaults, clients). */
  toData(value: T): DataValue;
  /**
   * True when `fromUri` and `fromBody` only return values that `schema()` validates (the primitives and
   * enums here): the validation filter then does not check a bound value of this type again. Checking a
   * finder's string and enum parameters again was ~9% of a finder's time in the pipeline (in-process).
   * Default false.
   */
  readonly validWhenBound?: boolean;
}

/** The TypeScript type of values of a {@link ValueType}. */
export type ValueOf<VT> = VT extends ValueType<infer T> ? T : never;

const KINDS: ReadonlySet<unknown> = new Set(['primitive', 'enum', 'record', 'array', 'map', 'data']);

/** True for a {@link ValueType} (by shape, not `instanceof`: two copies of the package may be loaded). */
export function isValueType(v: unknown): v is ValueType<unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Partial<ValueType<unknown>>;
  return KINDS.has(t.kind) && typeof t.fromUri === 'function' && typeof t.fromBody === 'function';
}

/** A generated record class. */
export type RecordClass<R extends RecordTemplate> = (new (data?: DataMap) => R) & { readonly name: string };

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

function describe(data: DataValue): string {
  return typeof data === 'string' ? data : String(data);
}

function primitive<T extends DataValue>(
  name: SimpleKeyType,
  javaPrimitive: boolean,
  isBodyValue: (v: DataValue) => boolean,
): ValueType<T> & { readonly keyPartType: KeyPartType } {
  const schema = primitiveSchema(name)!;
  return Object.freeze({
    kind: 'primitive' as const,
    typeName: name,
    primitive: javaPrimitive,
    keyPartType: name,
    schema: () => schema,
    fromUri(data: DataValue): T {
      if (typeof data !== 'string') throw new CoercionFailure('type');
      try {
        return coerceSimpleKey(data, name) as T;
      } catch {
        throw new CoercionFailure('type');
      }
    },
    fromBody(data: DataValue): T {
      if (!isBodyValue(data)) throw new CoercionFailure('type');
      // NORMAL coercion, as generated getters read numbers: any number converts to the numeric type
      const r = coerceToSchema(data, schema, { coercionMode: CoercionMode.NORMAL });
      if (!r.isValid()) throw new CoercionFailure('type', r.getMessage().trimEnd());
      return r.getFixed() as T;
    },
    toData: (value: T): DataValue => value,
    // fromUri reads the key grammar's primitives (ranges checked), fromBody validates: a plain primitive
    // schema has no validators beyond that
    validWhenBound: true,
  });
}

const isNumber = (v: DataValue): boolean => typeof v === 'number' || typeof v === 'bigint';

/** `string`. */
export const STRING: ValueType<string> = /* @__PURE__ */ primitive(
  'string',
  false,
  (v) => typeof v === 'string',
);
/** `boolean`. */
export const BOOLEAN: ValueType<boolean> = /* @__PURE__ */ primitive(
  'boolean',
  true,
  (v) => typeof v === 'boolean',
);
/** `int` (32-bit). */
export const INT: ValueType<number> = /* @__PURE__ */ primitive('int', true, isNumber);
/** `long` (64-bit; a bigint beyond ±2^53). */
export const LONG: ValueType<number | bigint> = /* @__PURE__ */ primitive('long', true, isNumber);
/** `float`. */
export const FLOAT: ValueType<number> = /* @__PURE__ */ primitive('float', true, isNumber);
/** `double`. */
export const DOUBLE: ValueType<number> = /* @__PURE__ */ primitive('double', true, isNumber);
/** `bytes` (the Avro string form in URIs and JSON). */
export const BYTES: ValueType<ByteString> = /* @__PURE__ */ primitive(
  'bytes',
  false,
  (v) => typeof v === 'string' || v instanceof ByteString,
);

/** The protocol key-part type of a value type, when it can be a simple key or key part. */
export function keyPartTypeOf(type: ValueType<unknown>): KeyPartType | undefined {
  if (type.kind === 'primitive') return (type as { keyPartType?: KeyPartType }).keyPartType;
  // an enum named by a typeref (typerefOf) gives the typeref's schema: the key part is the enum itself
  if (type.kind === 'enum') return type.schema().getDereferencedSchema();
  return undefined;
}

/**
 * A generated enum (`enumOf(PhotoFormat)`). Values are the enum's symbols; a symbol the enum does not know
 * is invalid (a parameter is not stored data, so there is no `$UNKNOWN` here).
 */
export function enumOf<E extends string>(values: EnumObject<E>): ValueType<E> {
  const schema = lazy((): EnumDataSchema => enumSchema(values));
  // the handler gets the enum's constant, not the request's new string (enumConstants says why)
  const symbols = lazy(() => enumConstants(values));
  const check = (data: DataValue): E => {
    const symbol = typeof data === 'string' ? symbols().get(data) : undefined;
    if (symbol === undefined) throw new CoercionFailure('invalid');
    return symbol;
  };
  return Object.freeze({
    kind: 'enum' as const,
    get typeName(): string {
      return schema().getName();
    },
    primitive: false,
    schema,
    fromUri: check,
    fromBody: check,
    toData: (value: E): DataValue => value,
    // a symbol of the enum is all its schema asks
    validWhenBound: true,
  });
}

/**
 * A generated record class (`recordOf(Photo)`). From a URI, the map's string leaves are coerced to the
 * fields' types (validation's STRING_TO_PRIMITIVE coercion; absent required fields are not checked here,
 * that is the validation filter's job); from a body, numbers are coerced (NORMAL).
 */
export function recordOf<R extends RecordTemplate>(cls: RecordClass<R>): ValueType<R> {
  const schema = lazy(() => new cls().schema());
  const coerce = (data: DataValue, mode: CoercionMode): R => {
    if (!(data instanceof DataMap))
      throw new CoercionFailure('invalid', 'expected a record `(field:value,...)`');
    const r = coerceToSchema(data, schema(), { coercionMode: mode, requiredMode: RequiredMode.IGNORE });
    if (!r.isValid()) throw new CoercionFailure('invalid', r.getMessage().trimEnd());
    return new cls(r.getFixed() as DataMap);
  };
  return Object.freeze({
    kind: 'record' as const,
    typeName: cls.name,
    primitive: false,
    /** The generated class (batch finders match criteria through its schema). */
    recordClass: cls,
    schema,
    fromUri: (data: DataValue): R => coerce(data, CoercionMode.STRING_TO_PRIMITIVE),
    fromBody: (data: DataValue): R => coerce(data, CoercionMode.NORMAL),
    toData: (value: R): DataValue => value.data(),
  });
}

/**
 * An array of another type (`arrayOf(STRING)`, `arrayOf(recordOf(Photo))`). In a URI it is `List(...)`; a
 * single bare value is taken as a one-item list (what a 1.0-style `tags=a` sends).
 */
export function arrayOf<T>(items: ValueType<T>): ValueType<readonly T[]> {
  if (!isValueType(items)) throw new TypeError('arrayOf takes a value type (STRING, enumOf(E), ...)');
  const schema = lazy(() => new ArrayDataSchema(items.schema()));
  const each = (data: DataValue, one: (d: DataValue) => T, bareAllowed: boolean): readonly T[] => {
    if (!(data instanceof DataList)) {
      if (bareAllowed && typeof data === 'string') return [one(data)];
      throw new CoercionFailure('invalid', 'expected a list `List(...)`');
    }
    const out: T[] = [];
    for (const item of data) out.push(one(item));
    return out;
  };
  return Object.freeze({
    kind: 'array' as const,
    typeName: `${items.typeName}[]`,
    primitive: false,
    items,
    schema,
    fromUri: (data: DataValue): readonly T[] => each(data, (d) => items.fromUri(d), true),
    fromBody: (data: DataValue): readonly T[] => each(data, (d) => items.fromBody(d), false),
    toData: (value: readonly T[]): DataValue => {
      const list = new DataList();
      for (const v of value) list.add(items.toData(v));
      return list;
    },
  });
}

/**
 * A map from string keys to another type (`mapOf(INT)`): `(a:1,b:2)` in a URI, an object in a body. Values
 * are plain objects (keys in the order sent).
 */
export function mapOf<T>(values: ValueType<T>): ValueType<Readonly<Record<string, T>>> {
  if (!isValueType(values)) throw new TypeError('mapOf takes a value type (STRING, enumOf(E), ...)');
  const schema = lazy(() => new MapDataSchema(values.schema()));
  const each = (data: DataValue, one: (d: DataValue) => T): Readonly<Record<string, T>> => {
    if (!(data instanceof DataMap)) throw new CoercionFailure('invalid', 'expected a map `(key:value,...)`');
    const out: Record<string, T> = {};
    for (const [k, v] of data.entries()) out[k] = one(v);
    return out;
  };
  return Object.freeze({
    kind: 'map' as const,
    typeName: `map<${values.typeName}>`,
    primitive: false,
    values,
    schema,
    fromUri: (data: DataValue) => each(data, (d) => values.fromUri(d)),
    fromBody: (data: DataValue) => each(data, (d) => values.fromBody(d)),
    toData: (value: Readonly<Record<string, T>>): DataValue => {
      const map = new DataMap();
      for (const [k, v] of Object.entries(value)) map.set(k, values.toData(v));
      return map;
    },
  });
}

/**
 * A type named by a typeref (`typerefOf(Sku, STRING)`, with `Sku` the generated typeref constant): values,
 * coercion and key use are the named type's; the schema is the typeref's, so that the interface description
 * names the typeref, as the service it was written for does.
 */
export function typerefOf<T>(typeref: { schema(): DataSchema }, type: ValueType<T>): ValueType<T> {
  if (!isValueType(type)) throw new TypeError('typerefOf takes the typeref and the value type it names');
  const schema = lazy(() => typeref.schema());
  // the named type's members (coercion, key part type, items...) with the typeref's schema and name
  const members = Object.getOwnPropertyDescriptors(type) as PropertyDescriptorMap;
  members.schema = { value: schema, enumerable: true };
  members.typeName = {
    get: () => (schema() as unknown as { getName(): string }).getName(),
    enumerable: true,
  };
  return Object.freeze(Object.defineProperties({}, members) as ValueType<T>);
}

/** Something that gives a schema: a generated class (union, fixed, record, ...) or a schema itself. */
export type SchemaSource = DataSchema | (abstract new (...args: never[]) => { schema(): DataSchema });

/**
 * Any schema's values as plain data (`dataOf(Reaction)` for a union class, `dataOf(Md5)` for a fixed):
 * for types with no dedicated value type, such as unions and fixed in parameters of imported interfaces.
 * Values are validated against the schema (from a URI with string leaves coerced, from a body with numbers
 * coerced) and passed on as data (`DataMap`, `DataList`, `ByteString`, primitives).
 */
export function dataOf(source: SchemaSource): ValueType<DataValue> {
  // a generated class's schema() reads its module's schema, not the instance: asked of the prototype, so
  // that classes whose constructor needs a value (fixed) need none here
  const schema = lazy((): DataSchema =>
    typeof source === 'function' ? (source.prototype as { schema(): DataSchema }).schema() : source,
  );
  const coerce = (data: DataValue, mode: CoercionMode): DataValue => {
    const r = coerceToSchema(data, schema(), { coercionMode: mode, requiredMode: RequiredMode.IGNORE });
    if (!r.isValid()) throw new CoercionFailure('invalid', r.getMessage().trimEnd());
    return r.getFixed();
  };
  return Object.freeze({
    kind: 'data' as const,
    get typeName(): string {
      const s = schema();
      return 'getFullName' in s && typeof s.getFullName === 'function'
        ? (s.getFullName as () => string)()
        : s.getType().toLowerCase();
    },
    primitive: false,
    schema,
    fromUri: (data: DataValue) => coerce(data, CoercionMode.STRING_TO_PRIMITIVE),
    fromBody: (data: DataValue) => coerce(data, CoercionMode.NORMAL),
    toData: (value: DataValue): DataValue => value,
  });
}

/** The text of a value for messages (`value 'abc'`). */
export function valueText(data: DataValue): string {
  return data instanceof DataMap || data instanceof DataList ? data.toString() : describe(data);
}
