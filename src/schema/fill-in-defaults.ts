import { DataList, DataMap, MAX_NESTING_DEPTH, type DataValue } from '../data';
import type { ArrayDataSchema } from './array-schema';
import type { DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import type { MapDataSchema } from './map-schema';
import { NestingDepthError } from './nesting-depth-error';
import type { RecordDataSchema } from './record-schema';
import type { UnionDataSchema } from './union-schema';

/**
 * `data` with every absent record field that has a default set to that default, through nested records,
 * arrays, maps, union members and typerefs — what a Rest.li server returns for `$fillInDefaults=true`.
 * Optional fields with defaults are filled too; fields without defaults stay absent. `data` is not
 * changed: containers on the way are new, leaves and untouched subtrees are shared (copy-on-write is not
 * needed because the result is encoded, not kept). A value that does not fit its schema is left as it is.
 *
 * @example
 * ```ts
 * fillInDefaults(photoSchema, Data.fromJS({ title: 'x' }) as DataMap); // {"title":"x","format":"JPEG"}
 * ```
 * @throws NestingDepthError `SVC_ERR_SCHEMA_DATA_TOO_DEEP` when the containers it walks (those the schema
 *   describes, defaults filled in included) nest deeper than MAX_NESTING_DEPTH.
 */
export function fillInDefaults(schema: DataSchema, data: DataMap): DataMap {
  const filled = fill(schema, data, 1);
  return filled instanceof DataMap ? filled : data;
}

/** `depth`: the nesting depth of `data` when it is a container (the root is 1). */
function fill(schema: DataSchema, data: DataValue, depth: number): DataValue {
  const s = schema.getDereferencedSchema();
  switch (s.getType()) {
    case DataSchemaType.RECORD: {
      if (!(data instanceof DataMap)) return data;
      checkDepth(depth);
      const out = new DataMap();
      for (const [name, value] of data) out.put(name, value);
      for (const field of (s as RecordDataSchema).getFields()) {
        const name = field.getName();
        const present = data.get(name);
        const value = present ?? field.getDefault();
        if (value === undefined) continue;
        out.put(name, fill(field.getType(), present === undefined ? copyOf(value) : value, depth + 1));
      }
      return out;
    }
    case DataSchemaType.MAP: {
      if (!(data instanceof DataMap)) return data;
      checkDepth(depth);
      const values = (s as MapDataSchema).getValues();
      const out = new DataMap();
      for (const [k, v] of data) out.put(k, fill(values, v, depth + 1));
      return out;
    }
    case DataSchemaType.ARRAY: {
      if (!(data instanceof DataList)) return data;
      checkDepth(depth);
      const items = (s as ArrayDataSchema).getItems();
      const out = new DataList();
      for (const v of data) out.add(fill(items, v, depth + 1));
      return out;
    }
    case DataSchemaType.UNION: {
      if (!(data instanceof DataMap) || data.size !== 1) return data;
      checkDepth(depth);
      const [[key, value]] = [...data] as [[string, DataValue]];
      const member = (s as UnionDataSchema).getTypeByMemberKey(key);
      if (member === undefined) return data;
      return new DataMap([[key, fill(member, value, depth + 1)]]);
    }
    default:
      return data;
  }
}

function checkDepth(depth: number): void {
  if (depth > MAX_NESTING_DEPTH)
    throw new NestingDepthError('SVC_ERR_SCHEMA_DATA_TOO_DEEP', 'filling in defaults');
}

/** A default from the schema, copied so that the response never shares (and so never freezes) it. */
function copyOf(value: DataValue): DataValue {
  return value instanceof DataMap || value instanceof DataList ? value.copy() : value;
}
