/**
 * Translation of data between our DataMaps and Avro generic records in the shape avsc uses with
 * `wrapUnions: true` (see {@link avroTypeForSchema}); both schemas are needed, as in the reference's
 * `DataTranslator`:
 *
 * - records are objects with one property per Avro field; an optional field that is absent (or Data.NULL)
 *   is `null`, the null branch of its Avro union; a required field that is absent takes its default;
 * - a union value is `null` or `{ <branch name>: value }` (the branch name is the Avro full name of a named
 *   type, else the type name); an aliased union is a record with one nullable field per member and a
 *   `fieldDiscriminator` enum (see the schema translation);
 * - bytes and fixed are `Buffer`s (copied on the way back, since avsc slices its input); longs are numbers
 *   within ±2^53 and bigints beyond, both ways, exactly;
 * - enums are strings, maps are objects, arrays are arrays.
 *
 * For each pair of schemas the translation is compiled once into closures and cached (per schema object and
 * avsc type), so translating many records pays the schema walk once. The first value that does not fit
 * stops the translation with a {@link DataTranslationError} naming its path
 * (`ERROR :: /photo/exif/0 :: ...`); paths are only built on that failure, so good data pays nothing for them.
 *
 * Both directions recurse, so each closure is given the nesting depth of its value (records, maps, arrays and
 * union values count, as in the data layer; the root record is 1), and a value deeper than MAX_NESTING_DEPTH
 * stops the translation with a {@link NestingDepthError} (`SVC_ERR_AVRO_DATA_TOO_DEEP`).
 *
 * Null fields, Avro → DataMap: a field whose Avro value is null is left out of the DataMap, whatever its
 * type, as the reference's `DataTranslator` (data-avro, `AvroGenericToDataTranslator.translate`, case RECORD)
 * does: an optional field is then absent, and a required field typed as a union with a null member (or as
 * `null`) comes back absent rather than Data.NULL. Validation with a RequiredMode decides what that means,
 * as the reference says. Inside arrays and maps, and for a union with aliases, the null member stays
 * Data.NULL.
 */
import type { Type } from 'avsc';
import { ByteString, Data, DataList, DataMap, MAX_NESTING_DEPTH, type DataValue } from '../../data';
import type { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import type { EnumDataSchema } from '../enum-schema';
import type { FixedDataSchema } from '../fixed-schema';
import type { MapDataSchema } from '../map-schema';
import { NestingDepthError } from '../nesting-depth-error';
import type { RecordDataSchema, RecordField } from '../record-schema';
import type { UnionDataSchema } from '../union-schema';
import { DefaultFieldTranslationMode } from './avro-options';
import { avroTypeForSchema, normalizeLong } from './avro-types';
import { DataTranslationError, javaString } from './errors';
import { AVRO_PROPERTY, DISCRIMINATOR_FIELD } from './to-avro-state';

/** A generic record as avsc reads and writes it. */
export type GenericRecord = Record<string, unknown>;

/** An Avro schema: JSON text, parsed JSON, or an avsc type (built with {@link avroTypeForSchema}). */
export type AvroSchemaInput = string | object | Type;

/** Options of {@link dataMapToGenericRecord}. */
export interface DataMapToGenericRecordOptions {
  /**
   * What an absent required field with a default becomes: its default (TRANSLATE, the default) or `null`
   * (DO_NOT_TRANSLATE, for Avro schemas translated with that mode, where such fields are nullable).
   */
  readonly defaultFieldTranslationMode?: DefaultFieldTranslationMode;
}

/** The parts of avsc types the translator reads (avsc's own typings say `any`). */
interface AvscType {
  readonly typeName: string;
  readonly name?: string;
  readonly branchName?: string;
  readonly fields?: readonly { readonly name: string; readonly type: AvscType }[];
  readonly types?: readonly AvscType[];
  readonly itemsType?: AvscType;
  readonly valuesType?: AvscType;
  readonly symbols?: readonly string[];
  readonly size?: number;
}

type Path = (string | number)[];

/** A value did not fit; the path is filled in while the error unwinds. */
class Mismatch extends Error {
  readonly path: Path = [];
  constructor(readonly text: string) {
    super(text);
  }
}

function mismatch(text: string): never {
  throw new Mismatch(text);
}

/** Runs `fn`, prefixing the path of a mismatch with `segment`. */
function within<T>(segment: string | number, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Mismatch) err.path.unshift(segment);
    throw err;
  }
}

/** Refuses a container `depth` levels deep when that is beyond the limit. */
function checkDepth(depth: number, direction: string): void {
  if (depth > MAX_NESTING_DEPTH) throw new NestingDepthError('SVC_ERR_AVRO_DATA_TOO_DEEP', direction);
}

const TO_AVRO = 'translating a DataMap to an Avro generic record';
const FROM_AVRO = 'translating an Avro generic record to a DataMap';

function toError(err: unknown): unknown {
  return err instanceof Mismatch ? new DataTranslationError(err.path, err.text) : err;
}

/**
 * The Avro generic record for `map`, a value of the record schema `schema`, shaped by `avroSchema` (normally
 * the translation of `schema`).
 * @throws DataTranslationError `SVC_ERR_AVRO_DATA_TRANSLATION` for data that does not fit.
 * @throws NestingDepthError `SVC_ERR_AVRO_DATA_TOO_DEEP` for data nested deeper than MAX_NESTING_DEPTH.
 */
export function dataMapToGenericRecord(
  map: DataMap,
  schema: RecordDataSchema,
  avroSchema: AvroSchemaInput,
  options: DataMapToGenericRecordOptions = {},
): GenericRecord {
  const type = avroTypeForSchema(avroSchema) as unknown as AvscType;
  const mode = options.defaultFieldTranslationMode ?? DefaultFieldTranslationMode.TRANSLATE;
  try {
    const fn = compiled(toAvroCache, schema, type, mode, () =>
      new ToAvroCompiler(mode).compile(schema, type),
    );
    return fn(map, 1) as GenericRecord;
  } catch (err) {
    throw toError(err);
  }
}

/**
 * The DataMap for an Avro generic record (as avsc's `fromBuffer` returns it), a value of `avroSchema`, for
 * the record schema `schema`. Avro fields the schema lacks are dropped; `null` fields are left out, required
 * or optional (see the module comment).
 * @throws DataTranslationError `SVC_ERR_AVRO_DATA_TRANSLATION` for data that does not fit.
 * @throws NestingDepthError `SVC_ERR_AVRO_DATA_TOO_DEEP` for data nested deeper than MAX_NESTING_DEPTH.
 */
export function genericRecordToDataMap(
  record: GenericRecord,
  schema: RecordDataSchema,
  avroSchema: AvroSchemaInput,
): DataMap {
  const type = avroTypeForSchema(avroSchema) as unknown as AvscType;
  try {
    const fn = compiled(fromAvroCache, schema, type, '', () => new FromAvroCompiler().compile(schema, type));
    return fn(record, 1) as DataMap;
  } catch (err) {
    throw toError(err);
  }
}

/** `depth`: the nesting depth of `value` when it is a container (the root record is 1). */
type ToAvro = (value: DataValue, depth: number) => unknown;
/** `depth`: the nesting depth of the container the value becomes, if it becomes one. */
type FromAvro = (value: unknown, depth: number) => DataValue;

type Cache<F> = WeakMap<DataSchema, WeakMap<AvscType, Map<string, F>>>;
const toAvroCache: Cache<ToAvro> = new WeakMap();
const fromAvroCache: Cache<FromAvro> = new WeakMap();

function compiled<F>(cache: Cache<F>, schema: DataSchema, type: AvscType, key: string, build: () => F): F {
  let byType = cache.get(schema);
  if (byType === undefined) cache.set(schema, (byType = new WeakMap<AvscType, Map<string, F>>()));
  let byKey = byType.get(type);
  if (byKey === undefined) byType.set(type, (byKey = new Map<string, F>()));
  let fn = byKey.get(key);
  if (fn === undefined) byKey.set(key, (fn = build()));
  return fn;
}

// ---------------------------------------------------------------------------------------------------------
// Matching our types with Avro types

function isUnion(t: AvscType): boolean {
  return t.typeName.startsWith('union');
}

function isLongType(t: AvscType): boolean {
  return t.typeName === 'long' || t.typeName === 'abstract:long';
}

/** The Avro name our union member key is matched with: the branch name (full name, or type name). */
function branchName(t: AvscType): string {
  return t.branchName ?? t.name ?? (isLongType(t) ? 'long' : t.typeName);
}

function simpleName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

/**
 * The branch of an Avro union for our member key: the branch of that name, else the only branch with the same
 * simple name (so that schemas translated with `overrideNamespace`, where Avro names are `avro.<ns>.<Name>`,
 * still match).
 */
function findBranch(union: AvscType, key: string): AvscType | undefined {
  const branches = union.types ?? [];
  const exact = branches.find((b) => branchName(b) === key);
  if (exact !== undefined) return exact;
  const simple = simpleName(key);
  const candidates = branches.filter((b) => simpleName(branchName(b)) === simple);
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The non-null branch of a `[null, T]` union (an optional field's), or the type itself. */
function nonNull(t: AvscType): AvscType {
  if (!isUnion(t)) return t;
  const rest = (t.types ?? []).filter((b) => b.typeName !== 'null');
  return rest.length === 1
    ? rest[0]!
    : mismatch(`Avro union ${describe(t)} is not a union of null and one type`);
}

function describe(t: AvscType): string {
  if (isUnion(t)) return `[${(t.types ?? []).map(branchName).join(', ')}]`;
  return branchName(t);
}

const AVRO_KIND: Readonly<Record<string, readonly string[]>> = {
  NULL: ['null'],
  BOOLEAN: ['boolean'],
  INT: ['int'],
  LONG: ['long', 'abstract:long'],
  FLOAT: ['float'],
  DOUBLE: ['double'],
  STRING: ['string'],
  BYTES: ['bytes'],
  FIXED: ['fixed'],
  ENUM: ['enum'],
  ARRAY: ['array'],
  MAP: ['map'],
  RECORD: ['record', 'error'],
};

function checkKind(s: DataSchema, t: AvscType): void {
  const kinds = AVRO_KIND[s.getType()];
  if (kinds !== undefined && !kinds.includes(t.typeName)) {
    mismatch(`the Avro type ${describe(t)} does not match the schema type ${s.getType().toLowerCase()}`);
  }
  if (s.getType() === DataSchemaType.RECORD && (s as RecordDataSchema).getProperties().has(AVRO_PROPERTY)) {
    mismatch(
      `${(s as RecordDataSchema).getFullName()} has an "avro" override, whose custom data translator is not supported`,
    );
  }
}

function memo<F>(
  table: Map<DataSchema, Map<AvscType, F>>,
  s: DataSchema,
  t: AvscType,
  build: () => F,
  lazy: (get: () => F) => F,
): F {
  let byType = table.get(s);
  if (byType === undefined) table.set(s, (byType = new Map<AvscType, F>()));
  const hit = byType.get(t);
  if (hit !== undefined) return hit;
  // recursive schemas: a reference to the function under construction calls it once it exists
  const holder: { fn?: F } = {};
  byType.set(
    t,
    lazy(() => holder.fn!),
  );
  const fn = build();
  holder.fn = fn;
  byType.set(t, fn);
  return fn;
}

// ---------------------------------------------------------------------------------------------------------
// DataMap → generic record

function firstEntry(map: DataMap): [string, DataValue] {
  const entry = map.entries().next().value as [string, DataValue];
  return entry;
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

function toBuffer(bytes: ByteString): Buffer {
  const view = bytes.toReadonlyBytes();
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

class ToAvroCompiler {
  private readonly table = new Map<DataSchema, Map<AvscType, ToAvro>>();

  constructor(private readonly mode: DefaultFieldTranslationMode) {}

  compile(schema: DataSchema, type: AvscType): ToAvro {
    const s = schema.getDereferencedSchema();
    return memo(
      this.table,
      s,
      type,
      () => this.build(s, type),
      (get) => (v, d) => get()(v, d),
    );
  }

  private build(s: DataSchema, t: AvscType): ToAvro {
    if (s.getType() === DataSchemaType.UNION) return this.union(s as UnionDataSchema, t);
    checkKind(s, t);
    switch (s.getType()) {
      case DataSchemaType.NULL:
        return (v) => (v === Data.NULL ? null : mismatch(`${javaString(v)} is not null`));
      case DataSchemaType.BOOLEAN:
        return (v) => (typeof v === 'boolean' ? v : mismatch(`${javaString(v)} is not a boolean`));
      case DataSchemaType.INT:
        return (v) => {
          const n = typeof v === 'bigint' ? Number(v) : v;
          return typeof n === 'number' && Number.isInteger(n) && n >= INT_MIN && n <= INT_MAX
            ? n
            : mismatch(`${javaString(v)} is not an int`);
        };
      case DataSchemaType.LONG:
        if (t.typeName === 'long') {
          // avsc's own long: exact only within ±2^53
          return (v) => {
            const n = typeof v === 'bigint' ? normalizeLong(v) : v;
            if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
            return typeof n === 'bigint'
              ? mismatch(`${n} needs the exact long type of avroTypeForSchema (avsc's long holds ±2^53)`)
              : mismatch(`${javaString(v)} is not a long`);
          };
        }
        return (v) =>
          typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))
            ? v
            : mismatch(`${javaString(v)} is not a long`);
      case DataSchemaType.FLOAT:
      case DataSchemaType.DOUBLE:
        return (v) =>
          typeof v === 'number'
            ? v
            : typeof v === 'bigint'
              ? Number(v)
              : mismatch(`${javaString(v)} is not a number`);
      case DataSchemaType.STRING:
        return (v) => (typeof v === 'string' ? v : mismatch(`${javaString(v)} is not a string`));
      case DataSchemaType.BYTES:
        return (v) => {
          if (v instanceof ByteString) return toBuffer(v);
          if (typeof v === 'string' && ByteString.isAvroString(v)) return Buffer.from(v, 'latin1');
          return mismatch(`${javaString(v)} is not bytes`);
        };
      case DataSchemaType.FIXED: {
        const size = (s as FixedDataSchema).getSize();
        return (v) => {
          let b: Buffer;
          if (v instanceof ByteString) b = toBuffer(v);
          else if (typeof v === 'string' && ByteString.isAvroString(v)) b = Buffer.from(v, 'latin1');
          else return mismatch(`${javaString(v)} is not bytes`);
          return b.length === size
            ? b
            : mismatch(`ByteString size ${b.length} != FixedDataSchema size ${size}`);
        };
      }
      case DataSchemaType.ENUM: {
        const symbols = new Set((s as EnumDataSchema).getSymbols());
        const avroSymbols = new Set(t.symbols ?? []);
        return (v) =>
          typeof v === 'string' && symbols.has(v) && avroSymbols.has(v)
            ? v
            : mismatch(`enum value ${javaString(v)} not one of [${[...symbols].join(', ')}]`);
      }
      case DataSchemaType.ARRAY: {
        const items = this.compile((s as ArrayDataSchema).getItems(), t.itemsType!);
        return (v, d) => {
          if (!(v instanceof DataList)) return mismatch('array type is not backed by a DataList');
          checkDepth(d, TO_AVRO);
          const n = v.size;
          const out = new Array<unknown>(n);
          for (let i = 0; i < n; i++) {
            const item = v.get(i);
            try {
              out[i] = items(item, d + 1);
            } catch (err) {
              if (err instanceof Mismatch) err.path.unshift(i);
              throw err;
            }
          }
          return out;
        };
      }
      case DataSchemaType.MAP: {
        const values = this.compile((s as MapDataSchema).getValues(), t.valuesType!);
        return (v, d) => {
          if (!(v instanceof DataMap)) return mismatch('map type is not backed by a DataMap');
          checkDepth(d, TO_AVRO);
          const out: Record<string, unknown> = {};
          for (const [k, item] of v) {
            let x: unknown;
            try {
              x = values(item, d + 1);
            } catch (err) {
              if (err instanceof Mismatch) err.path.unshift(k);
              throw err;
            }
            if (k === '__proto__')
              Object.defineProperty(out, k, {
                value: x,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            else out[k] = x;
          }
          return out;
        };
      }
      case DataSchemaType.RECORD:
        return this.record(s as RecordDataSchema, t);
      default:
        return mismatch(`schema type unknown ${s.getType()}`);
    }
  }

  private record(schema: RecordDataSchema, t: AvscType): ToAvro {
    const avroFields = new Map((t.fields ?? []).map((f) => [f.name, f.type] as const));
    const writers: ((map: DataMap, out: GenericRecord, depth: number) => void)[] = [];
    for (const field of schema.getFields()) {
      const avroType = avroFields.get(field.getName());
      if (avroType !== undefined) writers.push(within(field.getName(), () => this.field(field, avroType)));
    }
    return (v, d) => {
      if (!(v instanceof DataMap)) return mismatch('record type is not backed by a DataMap');
      checkDepth(d, TO_AVRO);
      const out: GenericRecord = {};
      for (const w of writers) w(v, out, d + 1);
      return out;
    };
  }

  /** Writes one field: absent optional → null, absent required → its default (or null, DO_NOT_TRANSLATE). */
  private field(
    field: RecordField,
    avroType: AvscType,
  ): (map: DataMap, out: GenericRecord, depth: number) => void {
    const name = field.getName();
    const type = field.getType();
    const dflt = field.getDefault();
    const nullBranch = isUnion(avroType) ? (avroType.types ?? []).some((b) => b.typeName === 'null') : false;
    // a field that is not a union in our schema but a union in Avro (optional, or a defaulted field under
    // DO_NOT_TRANSLATE) sits in one branch of that union
    let present: ToAvro;
    if (type.getDereferencedType() !== DataSchemaType.UNION && isUnion(avroType)) {
      const key = type.getUnionMemberKey();
      const branch =
        findBranch(avroType, key) ?? mismatch(`cannot find ${key} in union ${describe(avroType)}`);
      const inner = this.compile(type, branch);
      const wrapKey = branchName(branch);
      present = (v, d) => ({ [wrapKey]: inner(v, d) });
    } else {
      present = this.compile(type, avroType);
    }
    const absentToNull = (): null =>
      nullBranch
        ? null
        : mismatch(`the Avro type ${describe(avroType)} of an optional field has no null branch`);
    const optional = field.getOptional();
    const defaultToNull = this.mode === DefaultFieldTranslationMode.DO_NOT_TRANSLATE;
    return (map, out, d) => {
      const v = map.get(name);
      let x: unknown;
      try {
        if (optional && (v === undefined || v === Data.NULL)) x = absentToNull();
        else if (v !== undefined) x = present(v, d);
        else if (dflt === undefined) x = mismatch('required field is absent');
        else x = defaultToNull ? absentToNull() : present(dflt, d);
      } catch (err) {
        if (err instanceof Mismatch) err.path.unshift(name);
        throw err;
      }
      out[name] = x;
    };
  }

  /** Our union: an Avro union (`null` or a wrapped branch), or for an aliased union the discriminator record. */
  private union(union: UnionDataSchema, t: AvscType): ToAvro {
    if (union.areMembersAliased()) return this.aliasedUnion(union, t);
    if (!isUnion(t)) return mismatch(`the Avro type ${describe(t)} is not a union`);
    const members = new Map<string, ToAvro>();
    for (const m of union.getMembers()) {
      const key = m.getUnionMemberKey();
      const branch = findBranch(t, key) ?? mismatch(`cannot find ${key} in union ${describe(t)}`);
      if (branch.typeName === 'null') {
        members.set(key, () => null);
        continue;
      }
      const inner = this.compile(m.getType(), branch);
      const wrapKey = branchName(branch);
      members.set(key, (v, d) => ({ [wrapKey]: inner(v, d) }));
    }
    return (v, d) => {
      let key: string;
      let member: DataValue;
      if (v === Data.NULL) {
        key = 'null';
        member = v;
      } else if (v instanceof DataMap && v.size === 1) {
        checkDepth(d, TO_AVRO);
        [key, member] = firstEntry(v);
      } else {
        return mismatch(`union value ${javaString(v)} does not have exactly one entry`);
      }
      const fn = members.get(key) ?? mismatch(`"${key}" is not a member type of union`);
      return within(key, () => fn(member, d + 1));
    };
  }

  private aliasedUnion(union: UnionDataSchema, t: AvscType): ToAvro {
    // an optional field's record sits in a [null, record] union
    const wrapped = isUnion(t);
    const record = nonNull(t);
    if (record.typeName !== 'record')
      return mismatch(`the Avro type ${describe(t)} is not a record for a union with aliases`);
    const recordName = branchName(record);
    const avroFields = record.fields ?? [];
    const members = new Map<string, ToAvro>();
    for (const m of union.getMembers()) {
      if (m.getType().getDereferencedType() === DataSchemaType.NULL) continue;
      const key = m.getUnionMemberKey();
      const f =
        avroFields.find((x) => x.name === key) ??
        mismatch(`cannot find field ${key} in record ${recordName}`);
      const branch = nonNull(f.type);
      const writer = this.compile(m.getType(), branch);
      const wrapKey = branchName(branch);
      // the member fields are [null, T] (or [T, null]) unions, so a value sits in the T branch
      members.set(key, isUnion(f.type) ? (v, d) => ({ [wrapKey]: writer(v, d) }) : writer);
    }
    const discriminator = avroFields.find((x) => x.name === DISCRIMINATOR_FIELD);
    if (discriminator === undefined)
      return mismatch(`cannot find field ${DISCRIMINATOR_FIELD} in record ${recordName}`);
    const symbols = new Set(discriminator.type.symbols ?? []);
    const names = avroFields.map((f) => f.name);
    return (v, d) => {
      let key: string;
      let member: DataValue;
      if (v === Data.NULL) {
        key = 'null';
        member = v;
      } else if (v instanceof DataMap && v.size === 1) {
        checkDepth(d, TO_AVRO);
        [key, member] = firstEntry(v);
      } else {
        return mismatch(`union value ${javaString(v)} does not have exactly one entry`);
      }
      if (!symbols.has(key)) return mismatch(`cannot find member key ${key} in union`);
      const out: GenericRecord = {};
      for (const n of names) out[n] = null;
      if (member !== Data.NULL) {
        const write = members.get(key) ?? mismatch(`cannot find member key ${key} in union`);
        out[key] = within(key, () => write(member, d + 1));
      }
      out[DISCRIMINATOR_FIELD] = key;
      return wrapped ? { [recordName]: out } : out;
    };
  }
}

// ---------------------------------------------------------------------------------------------------------
// generic record → DataMap

/** The one branch of a wrapped union value: `[branch name, value]`. */
function unwrap(v: unknown): [string, unknown] {
  if (typeof v !== 'object' || v === null) return mismatch(`${String(v)} is not a wrapped union value`);
  const keys = Object.keys(v);
  if (keys.length !== 1) return mismatch(`a wrapped union value has ${keys.length} branches`);
  return [keys[0]!, (v as Record<string, unknown>)[keys[0]!]];
}

function isBuffer(v: unknown): v is Uint8Array {
  return v instanceof Uint8Array;
}

class FromAvroCompiler {
  private readonly table = new Map<DataSchema, Map<AvscType, FromAvro>>();

  compile(schema: DataSchema, type: AvscType): FromAvro {
    const s = schema.getDereferencedSchema();
    return memo(
      this.table,
      s,
      type,
      () => this.build(s, type),
      (get) => (v, d) => get()(v, d),
    );
  }

  private build(s: DataSchema, t: AvscType): FromAvro {
    if (s.getType() === DataSchemaType.UNION) return this.union(s as UnionDataSchema, t);
    checkKind(s, t);
    switch (s.getType()) {
      case DataSchemaType.NULL:
        return (v) => (v === null ? Data.NULL : mismatch('value must be null for null schema'));
      case DataSchemaType.BOOLEAN:
        return (v) => (typeof v === 'boolean' ? v : mismatch(`${String(v)} is not a boolean`));
      case DataSchemaType.INT:
        return (v) =>
          typeof v === 'number' && Number.isInteger(v) ? v : mismatch(`${String(v)} is not an int`);
      case DataSchemaType.LONG:
        return (v) =>
          typeof v === 'bigint'
            ? normalizeLong(v)
            : typeof v === 'number' && Number.isSafeInteger(v)
              ? v
              : mismatch(`${String(v)} is not a long`);
      case DataSchemaType.FLOAT:
      case DataSchemaType.DOUBLE:
        return (v) => (typeof v === 'number' ? v : mismatch(`${String(v)} is not a number`));
      case DataSchemaType.STRING:
        return (v) => (typeof v === 'string' ? v : mismatch(`${String(v)} is not a string`));
      case DataSchemaType.BYTES:
        return (v) => (isBuffer(v) ? ByteString.copy(v) : mismatch(`${String(v)} is not a Buffer`));
      case DataSchemaType.FIXED: {
        const size = (s as FixedDataSchema).getSize();
        return (v) => {
          if (!isBuffer(v)) return mismatch(`${String(v)} is not a Buffer`);
          return v.length === size
            ? ByteString.copy(v)
            : mismatch(`GenericFixed size ${v.length} != FixedDataSchema size ${size}`);
        };
      }
      case DataSchemaType.ENUM: {
        const symbols = (s as EnumDataSchema).getSymbols();
        const known = new Set(symbols);
        return (v) =>
          typeof v === 'string' && known.has(v)
            ? v
            : mismatch(`enum value ${String(v)} not one of [${symbols.join(', ')}]`);
      }
      case DataSchemaType.ARRAY: {
        const items = this.compile((s as ArrayDataSchema).getItems(), t.itemsType!);
        return (v, d) => {
          if (!Array.isArray(v)) return mismatch('an Avro array is not an array');
          checkDepth(d, FROM_AVRO);
          const out = new Array<DataValue>(v.length);
          for (let i = 0; i < v.length; i++) {
            try {
              out[i] = items(v[i], d + 1);
            } catch (err) {
              if (err instanceof Mismatch) err.path.unshift(i);
              throw err;
            }
          }
          return new DataList(out);
        };
      }
      case DataSchemaType.MAP: {
        const values = this.compile((s as MapDataSchema).getValues(), t.valuesType!);
        return (v, d) => {
          if (typeof v !== 'object' || v === null) return mismatch('an Avro map is not an object');
          checkDepth(d, FROM_AVRO);
          const out = new DataMap();
          for (const k of Object.keys(v)) {
            try {
              out.put(k, values((v as Record<string, unknown>)[k], d + 1));
            } catch (err) {
              if (err instanceof Mismatch) err.path.unshift(k);
              throw err;
            }
          }
          return out;
        };
      }
      case DataSchemaType.RECORD:
        return this.record(s as RecordDataSchema, t);
      default:
        return mismatch(`schema type unknown ${s.getType()}`);
    }
  }

  private record(schema: RecordDataSchema, t: AvscType): FromAvro {
    const avroFields = new Map((t.fields ?? []).map((f) => [f.name, f.type] as const));
    const readers: [string, FromAvro][] = [];
    for (const field of schema.getFields()) {
      const name = field.getName();
      const avroType = avroFields.get(name);
      if (avroType === undefined) continue;
      const type = field.getType();
      if (type.getDereferencedType() !== DataSchemaType.UNION && isUnion(avroType)) {
        const key = type.getUnionMemberKey();
        const branch = within(
          name,
          () => findBranch(avroType, key) ?? mismatch(`cannot find ${key} in union ${describe(avroType)}`),
        );
        const inner = within(name, () => this.compile(type, branch));
        const expected = branchName(branch);
        readers.push([
          name,
          (v, d) => {
            const [b, x] = unwrap(v);
            return b === expected ? inner(x, d) : mismatch(`the value is in branch ${b}, not ${expected}`);
          },
        ]);
      } else {
        readers.push([name, within(name, () => this.compile(type, avroType))]);
      }
    }
    return (v, d) => {
      if (typeof v !== 'object' || v === null) return mismatch('an Avro record is not an object');
      checkDepth(d, FROM_AVRO);
      const out = new DataMap();
      const rec = v as GenericRecord;
      for (const [name, read] of readers) {
        const x = rec[name];
        if (x === undefined || x === null) continue; // see the module comment
        try {
          out.put(name, read(x, d + 1));
        } catch (err) {
          if (err instanceof Mismatch) err.path.unshift(name);
          throw err;
        }
      }
      return out;
    };
  }

  private union(union: UnionDataSchema, t: AvscType): FromAvro {
    if (union.areMembersAliased()) return this.aliasedUnion(union, t);
    if (!isUnion(t)) return mismatch(`the Avro type ${describe(t)} is not a union`);
    const byBranch = new Map<string, { key: string; read: FromAvro }>();
    for (const m of union.getMembers()) {
      const key = m.getUnionMemberKey();
      const branch = findBranch(t, key) ?? mismatch(`cannot find ${key} in union ${describe(t)}`);
      if (branch.typeName === 'null') continue;
      byBranch.set(branchName(branch), { key, read: this.compile(m.getType(), branch) });
    }
    const hasNull = union.hasNullMember();
    return (v, d) => {
      if (v === null) return hasNull ? Data.NULL : mismatch('null is not a member type of union');
      checkDepth(d, FROM_AVRO);
      const [b, x] = unwrap(v);
      const m = byBranch.get(b) ?? mismatch(`cannot find ${b} in union`);
      return new DataMap([[m.key, within(m.key, () => m.read(x, d + 1))]]);
    };
  }

  private aliasedUnion(union: UnionDataSchema, t: AvscType): FromAvro {
    const wrapped = isUnion(t);
    const record = nonNull(t);
    if (record.typeName !== 'record')
      return mismatch(`the Avro type ${describe(t)} is not a record for a union with aliases`);
    const avroFields = record.fields ?? [];
    const members = new Map<string, FromAvro>();
    for (const m of union.getMembers()) {
      if (m.getType().getDereferencedType() === DataSchemaType.NULL) continue;
      const key = m.getUnionMemberKey();
      const f =
        avroFields.find((x) => x.name === key) ??
        mismatch(`cannot find field ${key} in record ${branchName(record)}`);
      const inner = this.compile(m.getType(), nonNull(f.type));
      members.set(key, isUnion(f.type) ? (v, d) => inner(unwrap(v)[1], d) : inner);
    }
    const hasNull = union.hasNullMember();
    return (v, d) => {
      const rec = (wrapped ? unwrap(v)[1] : v) as GenericRecord | null;
      if (typeof rec !== 'object' || rec === null)
        return mismatch('a union with aliases is not an Avro record');
      const key = rec[DISCRIMINATOR_FIELD];
      if (typeof key !== 'string')
        return mismatch(`cannot find required field ${DISCRIMINATOR_FIELD} in record`);
      if (key === 'null') return hasNull ? Data.NULL : mismatch('null is not a member type of union');
      const read = members.get(key) ?? mismatch(`cannot find member key ${key} in union`);
      const x = rec[key];
      if (x === null || x === undefined)
        return mismatch(`the field ${key} named by ${DISCRIMINATOR_FIELD} has no value`);
      checkDepth(d, FROM_AVRO);
      return new DataMap([[key, within(key, () => read(x, d + 1))]]);
    };
  }
}
