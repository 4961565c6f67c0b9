/**
 * `avroValueArb(schema)`: fast-check arbitraries of data conforming to a schema, restricted to what survives an
 * Avro round trip unchanged, for the data translation property tests:
 *
 * - floats are float32 values (Avro floats are four bytes);
 * - records carry no undeclared fields (an Avro record has no place for them) and always carry their required
 *   fields (an absent one would come back as its default);
 * - map keys are never `__proto__` (avsc reads maps into plain objects, where that key cannot live);
 * - an optional field never holds Data.NULL (a union with a null member): Avro has one null for an absent
 *   field and a null value, and the translation reads it back as absent.
 *
 * Recursion is cut at a depth: below it arrays and maps are empty, optional fields absent and unions take a
 * non-recursive member. A schema with no finite value gives undefined.
 */
import fc from 'fast-check';
import {
  ByteString,
  Data,
  DataList,
  DataMap,
  type ArrayDataSchema,
  type DataSchema,
  type DataValue,
  type EnumDataSchema,
  type FixedDataSchema,
  type MapDataSchema,
  type RecordDataSchema,
  type UnionDataSchema,
} from '../../../src';
import { dataKey, dataLong, dataString } from '../../support/data-arbitraries';

type Arb = fc.Arbitrary<DataValue>;

const mapKey = dataKey.filter((k) => k !== '__proto__');

export function avroValueArb(schema: DataSchema, maxDepth = 3): Arb | undefined {
  const memo = new Map<DataSchema, Map<number, Arb | undefined>>();
  const active = new Set<DataSchema>();

  const arb = (schema: DataSchema, depth: number): Arb | undefined => {
    const s = schema.getDereferencedSchema();
    const d = Math.min(depth, maxDepth + 1);
    const byDepth = memo.get(s) ?? new Map<number, Arb | undefined>();
    memo.set(s, byDepth);
    if (byDepth.has(d)) return byDepth.get(d);
    if (active.has(s) && d > maxDepth) return undefined;
    active.add(s);
    const result = build(s, d);
    active.delete(s);
    byDepth.set(d, result);
    return result;
  };

  const build = (s: DataSchema, depth: number): Arb | undefined => {
    const deep = depth > maxDepth;
    switch (s.getType()) {
      case 'INT':
        return fc.integer();
      case 'LONG':
        return dataLong;
      case 'FLOAT':
        return fc.float({ noNaN: true, noDefaultInfinity: true });
      case 'DOUBLE':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'BOOLEAN':
        return fc.boolean();
      case 'STRING':
        return dataString;
      case 'NULL':
        return fc.constant(Data.NULL);
      case 'BYTES':
        return fc.uint8Array({ maxLength: 12 }).map((b): DataValue => ByteString.copy(b));
      case 'FIXED': {
        const size = (s as FixedDataSchema).getSize();
        return fc.uint8Array({ minLength: size, maxLength: size }).map((b): DataValue => ByteString.copy(b));
      }
      case 'ENUM': {
        const symbols = (s as EnumDataSchema).getSymbols();
        return symbols.length === 0 ? undefined : fc.constantFrom(...symbols);
      }
      case 'ARRAY': {
        const items = deep ? undefined : arb((s as ArrayDataSchema).getItems(), depth + 1);
        if (items === undefined) return fc.constant(null).map((): DataValue => new DataList());
        return fc.array(items, { maxLength: 3 }).map((xs): DataValue => new DataList(xs));
      }
      case 'MAP': {
        const values = deep ? undefined : arb((s as MapDataSchema).getValues(), depth + 1);
        if (values === undefined) return fc.constant(null).map((): DataValue => new DataMap());
        return fc
          .dictionary(mapKey, values, { maxKeys: 3 })
          .map((o): DataValue => new DataMap(Object.entries(o)));
      }
      case 'UNION': {
        const options: Arb[] = [];
        for (const m of (s as UnionDataSchema).getMembers()) {
          if (m.getType().getDereferencedType() === 'NULL') {
            options.push(fc.constant(Data.NULL));
            continue;
          }
          const member = arb(m.getType(), depth + 1);
          if (member === undefined) continue;
          const key = m.getUnionMemberKey();
          options.push(member.map((v): DataValue => new DataMap([[key, v]])));
        }
        return options.length === 0 ? undefined : fc.oneof(...options);
      }
      case 'RECORD': {
        const parts: fc.Arbitrary<[string, DataValue] | null>[] = [];
        for (const field of (s as RecordDataSchema).getFields()) {
          const name = field.getName();
          const optional = field.getOptional();
          let value = optional && deep ? undefined : arb(field.getType(), depth + 1);
          if (optional && value !== undefined) value = value.filter((v) => v !== Data.NULL);
          if (value === undefined) {
            if (!optional) return undefined;
            parts.push(fc.constant(null));
            continue;
          }
          const entry = value.map((v): [string, DataValue] => [name, v]);
          parts.push(optional ? fc.option(entry, { nil: null }) : entry);
        }
        return fc.tuple(...parts).map((entries): DataValue => {
          const map = new DataMap();
          for (const e of entries) if (e !== null) map.put(e[0], e[1]);
          return map;
        });
      }
      default:
        return undefined;
    }
  };

  return arb(schema, 0);
}
