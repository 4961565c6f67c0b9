/**
 * The check of field defaults against their types: a small structural check done at parse time, not the
 * validator (which lives in `validation/` and does coercion). Numbers must already be of the right kind
 * (an int default must be an integer in the int32 range, a long an integer in the int64 range), strings for
 * bytes and fixed must hold chars up to U+00FF only (fixed: exactly `size` of them), enum defaults must be
 * declared symbols, record defaults must hold every required field that has no default of its own, and union
 * defaults must be `null` (for a union with a null member) or an object with exactly one entry keyed by the
 * member discriminator.
 *
 * Two things the reference accepts are *warnings* rather than problems, because a Rest.li schema tree may hold
 * them and must still parse (`AbstractSchemaParser.validateDefaults` validates a default with
 * `CoercionMode.NORMAL` and `UnrecognizedFieldMode.IGNORE`): a fractional number for an int or long, which
 * NORMAL coercion truncates (`1.5` is stored as `1`, as Java's `Number.intValue`), and a record default with
 * a field the record does not declare (kept). As NORMAL coercion does, the strings "NaN", "Infinity" and
 * "-Infinity" are accepted silently for float and double, as those numbers (JSON has no other way to write
 * them).
 *
 * The check also returns the value in its stored form: bytes and fixed strings become ByteStrings, bigints
 * for float and double become numbers, fractional ints and longs are truncated.
 */
import { ByteString, Data, DataList, DataMap, type DataValue } from '../data';
import type { DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import type { EnumDataSchema } from './enum-schema';
import type { FixedDataSchema } from './fixed-schema';
import type { ArrayDataSchema } from './array-schema';
import type { MapDataSchema } from './map-schema';
import type { NamedDataSchema } from './named-schema';
import { PrimitiveDataSchema, UnresolvedDataSchema } from './primitive-schemas';
import type { RecordDataSchema } from './record-schema';
import type { UnionDataSchema } from './union-schema';
import { nonFiniteOf } from './validation/coerce';
import { renderValue } from './value-text';

export type ValuePath = readonly (string | number)[];

/** A problem with a schema default value: where in the value, and what. */
export interface DefaultValueProblem {
  /** Where in the default value (map keys and list indexes); empty for the value itself. */
  readonly path: ValuePath;
  readonly message: string;
}

/** The result of checking a default value against its schema: the value in stored form, and its problems. */
export interface DefaultValueCheck {
  /** The value in stored form (see the module comment); meaningful only without problems. */
  readonly value: DataValue;
  readonly problems: readonly DefaultValueProblem[];
  /** What the reference accepts but is most likely a mistake (see the module comment). */
  readonly warnings: readonly DefaultValueProblem[];
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const LONG_LIMIT = 2 ** 63;
/**
 * Doubles strictly below this magnitude round to a finite float32 (FLOAT_MAX plus half an ulp ties to even,
 * i.e. to Infinity). So `3.4028235e38`, Java's text for Float.MAX_VALUE, is a float default.
 */
const FLOAT_LIMIT = 3.4028234663852886e38 + 2 ** 103;

/** Checks `value` against `schema`; see the module comment for the rules. */
export function checkDefaultValue(value: DataValue, schema: DataSchema): DefaultValueCheck {
  const found: Found = { problems: [], warnings: [] };
  const fixed = check(value, schema, [], found);
  return { value: fixed, problems: found.problems, warnings: found.warnings };
}

interface Found {
  readonly problems: DefaultValueProblem[];
  readonly warnings: DefaultValueProblem[];
}

/** The name of a type for messages: `int`, `array`, or the full name of a named schema. */
export function typeName(schema: DataSchema): string {
  if (schema instanceof PrimitiveDataSchema) return schema.getName();
  const named = schema as Partial<NamedDataSchema>;
  return typeof named.getFullName === 'function' ? named.getFullName() : schema.getUnionMemberKey();
}

function check(value: DataValue, schema: DataSchema, path: (string | number)[], found: Found): DataValue {
  const s = schema.getDereferencedSchema();
  if (s === UnresolvedDataSchema.INSTANCE) return value; // already reported as unresolved
  const mismatch = (): DataValue => {
    found.problems.push({
      path: [...path],
      message: `default value ${renderValue(value)} does not match type ${typeName(s)}`,
    });
    return value;
  };
  const outOfRange = (): DataValue => {
    found.problems.push({
      path: [...path],
      message: `default value ${renderValue(value)} is out of range for type ${typeName(s)}`,
    });
    return value;
  };
  switch (s.getType()) {
    case DataSchemaType.NULL:
      return value === Data.NULL ? value : mismatch();
    case DataSchemaType.BOOLEAN:
      return typeof value === 'boolean' ? value : mismatch();
    case DataSchemaType.STRING:
      return typeof value === 'string' ? value : mismatch();
    case DataSchemaType.INT:
    case DataSchemaType.LONG: {
      if (typeof value === 'bigint') return s.getType() === DataSchemaType.LONG ? value : outOfRange();
      if (typeof value !== 'number' || !Number.isFinite(value)) return mismatch();
      const n = Math.trunc(value) + 0; // + 0: -0.5 gives 0, not -0
      const inRange =
        s.getType() === DataSchemaType.INT ? n >= INT_MIN && n <= INT_MAX : Math.abs(n) < LONG_LIMIT;
      if (!inRange) return outOfRange();
      if (n !== value)
        found.warnings.push({
          path: [...path],
          message: `default value ${renderValue(value)} is not an integer; it is read as ${n}, as Rest.li truncates it for type ${typeName(s)}`,
        });
      return n;
    }
    case DataSchemaType.FLOAT:
    case DataSchemaType.DOUBLE: {
      const special = typeof value === 'string' ? nonFiniteOf(value) : undefined;
      if (special !== undefined) return special;
      if (typeof value !== 'number' && typeof value !== 'bigint') return mismatch();
      const n = Number(value);
      return s.getType() === DataSchemaType.FLOAT && !(Math.abs(n) < FLOAT_LIMIT) ? outOfRange() : n;
    }
    case DataSchemaType.BYTES:
      return checkBytes(value, undefined, path, found, mismatch);
    case DataSchemaType.FIXED:
      return checkBytes(value, s as FixedDataSchema, path, found, mismatch);
    case DataSchemaType.ENUM: {
      if (typeof value !== 'string') return mismatch();
      const e = s as EnumDataSchema;
      if (!e.contains(value))
        found.problems.push({
          path: [...path],
          message: `default value ${renderValue(value)} is not a symbol of enum ${e.getFullName()}`,
        });
      return value;
    }
    case DataSchemaType.ARRAY: {
      if (!(value instanceof DataList)) return mismatch();
      const items = (s as ArrayDataSchema).getItems();
      const out = new DataList();
      let k = 0;
      for (const item of value) {
        path.push(k++);
        out.add(check(item, items, path, found));
        path.pop();
      }
      return out;
    }
    case DataSchemaType.MAP: {
      if (!(value instanceof DataMap)) return mismatch();
      const values = (s as MapDataSchema).getValues();
      const out = new DataMap();
      for (const [key, v] of value) {
        path.push(key);
        out.put(key, check(v, values, path, found));
        path.pop();
      }
      return out;
    }
    case DataSchemaType.RECORD:
      return value instanceof DataMap ? checkRecord(value, s as RecordDataSchema, path, found) : mismatch();
    case DataSchemaType.UNION:
      return checkUnion(value, s as UnionDataSchema, path, found);
    default:
      return mismatch();
  }
}

function checkBytes(
  value: DataValue,
  fixed: FixedDataSchema | undefined,
  path: (string | number)[],
  found: Found,
  mismatch: () => DataValue,
): DataValue {
  let bytes: ByteString;
  if (value instanceof ByteString) {
    bytes = value;
  } else if (typeof value === 'string') {
    if (!ByteString.isAvroString(value)) {
      found.problems.push({
        path: [...path],
        message: `default value ${renderValue(value)} is not a valid string representation of bytes (chars must be U+0000 to U+00FF)`,
      });
      return value;
    }
    bytes = ByteString.fromAvroString(value);
  } else {
    return mismatch();
  }
  if (fixed !== undefined && bytes.length !== fixed.getSize()) {
    found.problems.push({
      path: [...path],
      message: `default value ${renderValue(value)} has length ${bytes.length}, but fixed ${fixed.getFullName()} has size ${fixed.getSize()}`,
    });
  }
  return bytes;
}

function checkRecord(
  value: DataMap,
  record: RecordDataSchema,
  path: (string | number)[],
  found: Found,
): DataValue {
  const out = new DataMap();
  for (const [key, v] of value) {
    const field = record.getField(key);
    path.push(key);
    if (field === undefined) {
      found.warnings.push({
        path: [...path],
        message: `default value has field "${key}", which record ${record.getFullName()} does not declare; Rest.li ignores it and so it is kept`,
      });
      out.put(key, v);
    } else {
      out.put(key, check(v, field.getType(), path, found));
    }
    path.pop();
  }
  for (const field of record.getFields()) {
    if (!field.getOptional() && !field.hasDefault() && !value.has(field.getName())) {
      found.problems.push({
        path: [...path],
        message: `default value is missing required field "${field.getName()}" of record ${record.getFullName()}`,
      });
    }
  }
  return out;
}

function checkUnion(
  value: DataValue,
  union: UnionDataSchema,
  path: (string | number)[],
  found: Found,
): DataValue {
  const keys = union.getMembers().map((m) => m.getUnionMemberKey());
  const members = keys.join(', ');
  if (value === Data.NULL) {
    if (!union.hasNullMember())
      found.problems.push({
        path: [...path],
        message: `default value null is not allowed: the union has no null member (members: ${members})`,
      });
    return value;
  }
  if (!(value instanceof DataMap)) {
    found.problems.push({
      path: [...path],
      message: `default value ${renderValue(value)} of a union must be null or an object with one entry, the member discriminator and its value (members: ${members})`,
    });
    return value;
  }
  if (value.size !== 1) {
    found.problems.push({
      path: [...path],
      message: `default value of a union must have exactly one entry, the member discriminator and its value; found ${value.size}`,
    });
    return value;
  }
  const [key, inner] = value.entries().next().value as [string, DataValue];
  const member = union.getMemberByMemberKey(key);
  path.push(key);
  try {
    if (member === undefined) {
      found.problems.push({
        path: [...path],
        message: `default value has member key "${key}", which is not a member of the union (members: ${members})`,
      });
      return value;
    }
    if (member.getType().getDereferencedType() === DataSchemaType.NULL) {
      found.problems.push({
        path: [...path],
        message: 'default value of the null member is written as null, not as {"null": null}',
      });
      return value;
    }
    return new DataMap([[key, check(inner, member.getType(), path, found)]]);
  } finally {
    path.pop();
  }
}
