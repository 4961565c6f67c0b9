/**
 * The check of field defaults against their types: a small structural check done at parse time, not the
 * validator (which lives in `validation/` and does coercion). Numbers must already be of the right kind
 * (an int default must be an integer in the int32 range, a long an integer in the int64 range), strings for
 * bytes and fixed must hold chars up to U+00FF only (fixed: exactly `size` of them), enum defaults must be
 * declared symbols, record defaults must hold every required field that has no default of its own and no
 * undeclared field, and union defaults must be `null` (for a union with a null member) or an object with
 * exactly one entry keyed by the member discriminator.
 *
 * The check also returns the value in its stored form: bytes and fixed strings become ByteStrings, bigints
 * for float and double become numbers.
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
import { renderValue } from './value-text';

export type ValuePath = readonly (string | number)[];

export interface DefaultValueProblem {
  /** Where in the default value (map keys and list indexes); empty for the value itself. */
  readonly path: ValuePath;
  readonly message: string;
}

export interface DefaultValueCheck {
  /** The value in stored form (see the module comment); meaningful only without problems. */
  readonly value: DataValue;
  readonly problems: readonly DefaultValueProblem[];
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
  const problems: DefaultValueProblem[] = [];
  const fixed = check(value, schema, [], problems);
  return { value: fixed, problems };
}

/** The name of a type for messages: `int`, `array`, or the full name of a named schema. */
export function typeName(schema: DataSchema): string {
  if (schema instanceof PrimitiveDataSchema) return schema.getName();
  const named = schema as Partial<NamedDataSchema>;
  return typeof named.getFullName === 'function' ? named.getFullName() : schema.getUnionMemberKey();
}

function check(
  value: DataValue,
  schema: DataSchema,
  path: (string | number)[],
  problems: DefaultValueProblem[],
): DataValue {
  const s = schema.getDereferencedSchema();
  if (s === UnresolvedDataSchema.INSTANCE) return value; // already reported as unresolved
  const mismatch = (): DataValue => {
    problems.push({
      path: [...path],
      message: `default value ${renderValue(value)} does not match type ${typeName(s)}`,
    });
    return value;
  };
  const outOfRange = (): DataValue => {
    problems.push({
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
      if (typeof value === 'number' && Number.isInteger(value))
        return value >= INT_MIN && value <= INT_MAX ? value : outOfRange();
      return typeof value === 'bigint' ? outOfRange() : mismatch();
    case DataSchemaType.LONG:
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isInteger(value))
        return Math.abs(value) < LONG_LIMIT ? value : outOfRange();
      return mismatch();
    case DataSchemaType.FLOAT:
    case DataSchemaType.DOUBLE: {
      if (typeof value !== 'number' && typeof value !== 'bigint') return mismatch();
      const n = Number(value);
      return s.getType() === DataSchemaType.FLOAT && !(Math.abs(n) < FLOAT_LIMIT) ? outOfRange() : n;
    }
    case DataSchemaType.BYTES:
      return checkBytes(value, undefined, path, problems, mismatch);
    case DataSchemaType.FIXED:
      return checkBytes(value, s as FixedDataSchema, path, problems, mismatch);
    case DataSchemaType.ENUM: {
      if (typeof value !== 'string') return mismatch();
      const e = s as EnumDataSchema;
      if (!e.contains(value))
        problems.push({
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
        out.add(check(item, items, path, problems));
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
        out.put(key, check(v, values, path, problems));
        path.pop();
      }
      return out;
    }
    case DataSchemaType.RECORD:
      return value instanceof DataMap
        ? checkRecord(value, s as RecordDataSchema, path, problems)
        : mismatch();
    case DataSchemaType.UNION:
      return checkUnion(value, s as UnionDataSchema, path, problems);
    default:
      return mismatch();
  }
}

function checkBytes(
  value: DataValue,
  fixed: FixedDataSchema | undefined,
  path: (string | number)[],
  problems: DefaultValueProblem[],
  mismatch: () => DataValue,
): DataValue {
  let bytes: ByteString;
  if (value instanceof ByteString) {
    bytes = value;
  } else if (typeof value === 'string') {
    if (!ByteString.isAvroString(value)) {
      problems.push({
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
    problems.push({
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
  problems: DefaultValueProblem[],
): DataValue {
  const out = new DataMap();
  for (const [key, v] of value) {
    const field = record.getField(key);
    path.push(key);
    if (field === undefined) {
      problems.push({
        path: [...path],
        message: `default value has field "${key}", which record ${record.getFullName()} does not declare`,
      });
      out.put(key, v);
    } else {
      out.put(key, check(v, field.getType(), path, problems));
    }
    path.pop();
  }
  for (const field of record.getFields()) {
    if (!field.getOptional() && !field.hasDefault() && !value.has(field.getName())) {
      problems.push({
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
  problems: DefaultValueProblem[],
): DataValue {
  const keys = union.getMembers().map((m) => m.getUnionMemberKey());
  const members = keys.join(', ');
  if (value === Data.NULL) {
    if (!union.hasNullMember())
      problems.push({
        path: [...path],
        message: `default value null is not allowed: the union has no null member (members: ${members})`,
      });
    return value;
  }
  if (!(value instanceof DataMap)) {
    problems.push({
      path: [...path],
      message: `default value ${renderValue(value)} of a union must be null or an object with one entry, the member discriminator and its value (members: ${members})`,
    });
    return value;
  }
  if (value.size !== 1) {
    problems.push({
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
      problems.push({
        path: [...path],
        message: `default value has member key "${key}", which is not a member of the union (members: ${members})`,
      });
      return value;
    }
    if (member.getType().getDereferencedType() === DataSchemaType.NULL) {
      problems.push({
        path: [...path],
        message: 'default value of the null member is written as null, not as {"null": null}',
      });
      return value;
    }
    return new DataMap([[key, check(inner, member.getType(), path, problems)]]);
  } finally {
    path.pop();
  }
}
