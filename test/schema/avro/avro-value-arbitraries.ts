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
 */
import type fc from 'fast-check';
import type { DataSchema, DataValue } from '../../../src';
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
