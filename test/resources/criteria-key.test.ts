/**
 * Criteria identity (criteria-key.ts): two criteria are the same exactly when they are the same record,
 * whatever their field order, number representation or fields the schema does not declare.
 */
import { Data, DataMap, type JsValue, type RecordDataSchema, criteriaKey, parseSchema } from '../../src';

const schema = parseSchema(
  JSON.stringify({
    type: 'record',
    name: 'Criteria',
    fields: [
      { name: 'id', type: 'long', optional: true },
      { name: 'n', type: 'int', optional: true },
      { name: 'ratio', type: 'double', optional: true },
      { name: 'tone', type: { type: 'enum', name: 'Tone', symbols: ['A', 'B'] }, optional: true },
      { name: 'tags', type: { type: 'array', items: 'string' }, optional: true },
      {
        name: 'inner',
        type: { type: 'record', name: 'Inner', fields: [{ name: 'x', type: 'long' }] },
        optional: true,
      },
      { name: 'either', type: ['int', 'string'], optional: true },
    ],
  }),
) as RecordDataSchema;

const key = (v: Record<string, JsValue> | DataMap): string =>
  criteriaKey(schema, v instanceof DataMap ? v : (Data.fromJS(v) as DataMap));

describe('criteria identity', () => {
  it.each<[string, Record<string, JsValue> | DataMap, Record<string, JsValue> | DataMap]>([
    ['ignores field order', { id: 1, tone: 'A' }, { tone: 'A', id: 1 }],
    ['treats a number and a bigint of one value alike', { id: 7 }, new DataMap([['id', 7n]])],
    [
      'treats a long beyond 2^53 alike as bigint',
      new DataMap([['id', 2n ** 60n]]),
      new DataMap([['id', 2n ** 60n]]),
    ],
    ['ignores fields the schema does not declare', { id: 1, scratch: 'x' }, { id: 1 }],
    ['ignores undeclared fields of nested records', { inner: { x: 1, y: 2 } }, { inner: { x: 1 } }],
    ['treats an integral double like the integer', { ratio: 2 }, { ratio: 2.0 }],
    ['keeps union members by key', { either: { int: 1 } }, { either: { int: 1 } }],
  ])('%s', (_name, a, b) => {
    expect(key(a)).toBe(key(b));
  });

  it.each<[string, Record<string, JsValue>, Record<string, JsValue>]>([
    ['tells values apart', { id: 1 }, { id: 2 }],
    ['tells a string from a number', { either: { string: '1' } }, { either: { int: 1 } }],
    ['tells list order apart', { tags: ['a', 'b'] }, { tags: ['b', 'a'] }],
    ['tells an absent field from a present one', { id: 1 }, { id: 1, n: 0 }],
    ['tells fractions apart', { ratio: 0.1 }, { ratio: 0.2 }],
  ])('%s', (_name, a, b) => {
    expect(key(a)).not.toBe(key(b));
  });
});
