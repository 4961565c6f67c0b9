/**
 * `valueArb(schema)`: fast-check arbitraries of data that conforms to a schema, in stored form (ints and
 * longs by the data layer's representation, bytes and fixed as ByteStrings, unions as one-entry DataMaps or
 * Data.NULL), the avsc `random(schema)` idea for property tests. Usable over any parsed schema, the fixture
 * tree included.
 *
 * Options narrow the values to what survives a lossy round trip (the Avro translation tests use
 * `{ unknownFields: false, omitDefaulted: false, float32: true, mapKeys: ..., nullInOptional: false }`).
 *
 * Recursion is cut at a depth: below it, arrays and maps are empty, optional fields absent and unions take
 * their shallowest member. A type with no value at all (an enum without symbols, a record that requires
 * itself) makes the arbitrary of whatever requires it `undefined`; `valueArb` then returns undefined.
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
} from '../../src';
import { dataKey, dataLong, dataMapArb, dataString } from './data-arbitraries';

export interface ValueArbOptions {
  /** Nesting of named schemas below which containers stay empty (default 3). */
  readonly maxDepth?: number;
  /** Whether records may carry keys their schema does not declare (default true). */
  readonly unknownFields?: boolean;
  /** Whether required fields that have a default may be absent (default true; false for MUST_BE_PRESENT). */
  readonly omitDefaulted?: boolean;
  /** Whether floats are float32 values only (default false: any double within the float range). */
  readonly float32?: boolean;
  /** Map keys (default: any data key). */
  readonly mapKeys?: fc.Arbitrary<string>;
  /** Whether an optional field may hold Data.NULL (a union with a null member) (default true). */
  readonly nullInOptional?: boolean;
}

type Arb = fc.Arbitrary<DataValue>;

const FLOAT_MAX = 3.4028234663852886e38;

/** An arbitrary of values valid for `schema`, or undefined when the schema has no value. */
export function valueArb(schema: DataSchema, options: ValueArbOptions = {}): Arb | undefined {
  const maxDepth = options.maxDepth ?? 3;
  const unknownFields = options.unknownFields ?? true;
  const omitDefaulted = options.omitDefaulted ?? true;
  const float32 = options.float32 ?? false;
  const mapKeys = options.mapKeys ?? dataKey;
  const nullInOptional = options.nullInOptional ?? true;
  const memo = new Map<string, Arb | undefined>();
  let ids = new Map<DataSchema, number>();

  const idOf = (s: DataSchema): number => {
    let id = ids.get(s);
    if (id === undefined) {
      id = ids.size;
      ids.set(s, id);
    }
    return id;
  };

  const arb = (schema: DataSchema, depth: number, inProgress: Set<DataSchema>): Arb | undefined => {
    const s = schema.getDereferencedSchema();
    const key = `${idOf(s)}@${Math.min(depth, maxDepth + 1)}`;
    if (memo.has(key)) return memo.get(key);
    if (inProgress.has(s) && depth > maxDepth) return undefined; // would recurse forever
    inProgress.add(s);
    const result = build(s, depth, inProgress);
    inProgress.delete(s);
    memo.set(key, result);
    return result;
  };

  const build = (s: DataSchema, depth: number, inProgress: Set<DataSchema>): Arb | undefined => {
    const deep = depth > maxDepth;
    switch (s.getType()) {
      case 'INT':
        return fc.integer();
      case 'LONG':
        return dataLong;
      case 'FLOAT':
        return float32
          ? fc.float({ noNaN: true, noDefaultInfinity: true })
          : fc.oneof(
              fc.float({ noNaN: true, noDefaultInfinity: true }),
              fc.double({ min: -FLOAT_MAX, max: FLOAT_MAX, noNaN: true }),
            );
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
        const items = deep ? undefined : arb((s as ArrayDataSchema).getItems(), depth, inProgress);
        if (items === undefined) return fc.constant(null).map((): DataValue => new DataList());
        return fc.array(items, { maxLength: 4 }).map((xs): DataValue => new DataList(xs));
      }
      case 'MAP': {
        const values = deep ? undefined : arb((s as MapDataSchema).getValues(), depth, inProgress);
        if (values === undefined) return fc.constant(null).map((): DataValue => new DataMap());
        return fc
          .dictionary(mapKeys, values, { maxKeys: 4 })
          .map((o): DataValue => new DataMap(Object.entries(o)));
      }
      case 'UNION': {
        const options: Arb[] = [];
        for (const m of (s as UnionDataSchema).getMembers()) {
          const type = m.getType();
          if (type.getDereferencedType() === 'NULL') {
            options.push(fc.constant(Data.NULL));
            continue;
          }
          if (deep && options.length > 0 && type.getDereferencedType() === 'RECORD') continue;
          const member = arb(type, depth + 1, inProgress);
          if (member === undefined) continue;
          const key = m.getUnionMemberKey();
          options.push(member.map((v): DataValue => new DataMap([[key, v]])));
        }
        return options.length === 0 ? undefined : fc.oneof(...options);
      }
      case 'RECORD': {
        const record = s as RecordDataSchema;
        const parts: Array<fc.Arbitrary<[string, DataValue] | null>> = [];
        for (const field of record.getFields()) {
          const name = field.getName();
          const mayOmit = field.getOptional() || (omitDefaulted && field.hasDefault());
          let value = mayOmit && deep ? undefined : arb(field.getType(), depth + 1, inProgress);
          if (!nullInOptional && field.getOptional() && value !== undefined)
            value = value.filter((v) => v !== Data.NULL);
          if (value === undefined) {
            if (!mayOmit) return undefined;
            parts.push(fc.constant(null));
            continue;
          }
          const entry = value.map((v): [string, DataValue] => [name, v]);
          parts.push(mayOmit ? fc.option(entry, { nil: null }) : entry);
        }
        const declared = new Set(record.getFields().map((f) => f.getName()));
        const extra = unknownFields
          ? fc.option(
              dataMapArb({ maxDepth: 2 }).map((m) => [...m].filter(([k]) => !declared.has(k))),
              { nil: null, freq: 3 },
            )
          : fc.constant(null);
        return fc.tuple(fc.tuple(...parts), extra).map(([entries, unknown]): DataValue => {
          const map = new DataMap();
          for (const e of entries) if (e !== null) map.put(e[0], e[1]);
          for (const [k, v] of unknown ?? []) map.put(k, v);
          return map;
        });
      }
      default:
        return undefined;
    }
  };

  const result = arb(schema, 0, new Set());
  ids = new Map();
  return result;
}
