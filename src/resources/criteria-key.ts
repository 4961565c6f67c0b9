import { ByteString, DataList, DataMap, type DataValue } from '../data';
import {
  ArrayDataSchema,
  type DataSchema,
  MapDataSchema,
  RecordDataSchema,
  UnionDataSchema,
} from '../schema';

/**
 * The identity of a batch finder criterion: the text two criteria share exactly when they are the same
 * record. The reference matches a handler's `putResult(criteria, ...)` to the request's criteria by
 * `DataMap.equals`; here a criterion the handler builds anew must match too, whatever its field order, its
 * numbers' representation (an int field given `7`, `7n` or the coerced `"7"`'s 7) or fields the schema does
 * not declare (an old client's extras, a handler's scratch fields). So the text is written through the
 * criteria schema: declared fields only, sorted; integral numbers as decimal integers (bigint or number
 * alike); floats as JavaScript writes them; strings and enums quoted; bytes by their Avro string; unions by
 * member key. Data the schema does not describe (a criterion the handler made wrongly) is written as it is,
 * so it can only match itself.
 */
export function criteriaKey(schema: RecordDataSchema, data: DataMap): string {
  return write(schema, data, 0);
}

/** Deeper than any criterion a URI or body could hold (both are limited to 1000 levels). */
const MAX_DEPTH = 1000;

function write(schema: DataSchema | undefined, v: DataValue, depth: number): string {
  if (depth > MAX_DEPTH) return '…';
  const s = schema?.getDereferencedSchema();
  if (v instanceof DataMap) {
    if (s instanceof RecordDataSchema) {
      const parts: string[] = [];
      for (const name of [...v.keys()].sort()) {
        const field = s.getField(name);
        if (field === undefined) continue;
        parts.push(`${JSON.stringify(name)}:${write(field.getType(), v.get(name)!, depth + 1)}`);
      }
      return `{${parts.join(',')}}`;
    }
    const values = s instanceof MapDataSchema ? s.getValues() : undefined;
    const union = s instanceof UnionDataSchema ? s : undefined;
    const parts: string[] = [];
    for (const name of [...v.keys()].sort()) {
      const member = union?.getTypeByMemberKey(name) ?? values;
      parts.push(`${JSON.stringify(name)}:${write(member, v.get(name)!, depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  }
  if (v instanceof DataList) {
    const items = s instanceof ArrayDataSchema ? s.getItems() : undefined;
    const parts: string[] = [];
    for (const item of v) parts.push(write(items, item, depth + 1));
    return `[${parts.join(',')}]`;
  }
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      // an integral double prints the same as the long of its value, so int, long, 7 and 7n agree
      return Number.isInteger(v) ? BigInt(v).toString() : String(v);
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v instanceof ByteString) return `b${JSON.stringify(v.asAvroString())}`;
      return 'null';
  }
}
