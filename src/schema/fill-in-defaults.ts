import { DataList, DataMap, type DataValue } from '../data';
import type { ArrayDataSchema } from './array-schema';
import type { DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import type { MapDataSchema } from './map-schema';
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
 */
export function fillInDefaults(schema: DataSchema, data: DataMap): DataMap {
  const filled = fill(schema, data);
  return filled instanceof DataMap ? filled : data;
}

function fill(schema: DataSchema, data: DataValue): DataValue {
  const s = schema.getDereferencedSchema();
  switch (s.getType()) {
    case DataSchemaType.RECORD: {
      if (!(data instanceof DataMap)) return data;
      const out = new DataMap();
      for (const [name, value] of data) out.put(name, value);
      for (const field of (s as RecordDataSchema).getFields()) {
        const name = field.getName();
        const present = data.get(name);
        const value = present ?? field.getDefault();
        if (value === undefined) continue;
        out.put(name, fill(field.getType(), present === undefined ? copyOf(value) : value));
      }
      return out;
    }
    case DataSchemaType.MAP: {
      if (!(data instanceof DataMap)) return data;
      const values = (s as MapDataSchema).getValues();
      const out = new DataMap();
      for (const [k, v] of data) out.put(k, fill(values, v));
      return out;
    }
    case DataSchemaType.ARRAY: {
      if (!(data instanceof DataList)) return data;
      const items = (s as ArrayDataSchema).getItems();
      const out = new DataList();
      for (const v of data) out.add(fill(items, v));
      return out;
    }
    case DataSchemaType.UNION: {
      if (!(data instanceof DataMap) || data.size !== 1) return data;
      const [[key, value]] = [...data] as [[string, DataValue]];
      const member = (s as UnionDataSchema).getTypeByMemberKey(key);
      if (member === undefined) return data;
      return new DataMap([[key, fill(member, value)]]);
    }
    default:
      return data;
  }
}

/** A default from the schema, copied so that the response never shares (and so never freezes) it. */
function copyOf(value: DataValue): DataValue {
  return value instanceof DataMap || value instanceof DataList ? value.copy() : value;
}
