/**
 * `avroValueArb(schema)`: data conforming to a schema, restricted to what survives an Avro round trip
 * unchanged, for the data translation property tests (a narrowing of the shared `valueArb`):
 *
 * - floats are float32 values (Avro floats are four bytes);
 * - records carry no undeclared fields (an Avro record has no place for them) and always carry their required
 *   fields (an absent one would come back as its default);
 * - map keys are never `__proto__` (avsc reads maps into plain objects, where that key cannot live);
 * - an optional field never holds Data.NULL (a union with a null member): Avro has one null for an absent
 *   field and a null value, and the translation reads it back as absent.
 *
 * A required field holding Data.NULL is generated, and comes back absent, as with the reference's
 * DataTranslator; {@link withoutNullFields} says what to expect back.
 */
import type fc from 'fast-check';
import {
  Data,
  DataList,
  DataMap,
  type ArrayDataSchema,
  type DataSchema,
  type DataValue,
  type MapDataSchema,
  type RecordDataSchema,
  type UnionDataSchema,
} from '../../../src';
import { dataKey } from '../../support/data-arbitraries';
import { valueArb } from '../../support/schema-value-arbitraries';

const mapKeys = dataKey.filter((k) => k !== '__proto__');

export function avroValueArb(schema: DataSchema, maxDepth = 3): fc.Arbitrary<DataValue> | undefined {
  return valueArb(schema, {
    maxDepth,
    unknownFields: false,
    omitDefaulted: false,
    float32: true,
    mapKeys,
    nullInOptional: false,
  });
}

function isAliasedUnion(schema: DataSchema | undefined): boolean {
  const s = schema?.getDereferencedSchema();
  return s?.getType() === 'UNION' && (s as UnionDataSchema).areMembersAliased();
}

/**
 * `value` with every record field that holds Data.NULL left out (but for unions with aliases), at any depth:
 * what an Avro round trip gives back.
 */
export function withoutNullFields(value: DataValue, schema: DataSchema): DataValue {
  const s = schema.getDereferencedSchema();
  switch (s.getType()) {
    case 'RECORD': {
      if (!(value instanceof DataMap)) return value;
      const out = new DataMap();
      for (const [k, v] of value) {
        const field = (s as RecordDataSchema).getField(k);
        // a union with aliases is an Avro record, never null, whose discriminator says "null"
        if (v === Data.NULL && !isAliasedUnion(field?.getType())) continue;
        out.put(k, field === undefined ? v : withoutNullFields(v, field.getType()));
      }
      return out;
    }
    case 'ARRAY': {
      if (!(value instanceof DataList)) return value;
      const items = (s as ArrayDataSchema).getItems();
      return new DataList(value.toArray().map((v) => withoutNullFields(v, items)));
    }
    case 'MAP': {
      if (!(value instanceof DataMap)) return value;
      const values = (s as MapDataSchema).getValues();
      return new DataMap([...value].map(([k, v]) => [k, withoutNullFields(v, values)] as const));
    }
    case 'UNION': {
      if (!(value instanceof DataMap) || value.size !== 1) return value;
      const [[key, v]] = [...value] as [[string, DataValue]];
      const member = (s as UnionDataSchema).getTypeByMemberKey(key);
      return member === undefined ? value : new DataMap([[key, withoutNullFields(v, member)]]);
    }
    default:
      return value;
  }
}
