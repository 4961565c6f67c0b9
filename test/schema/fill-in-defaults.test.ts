import { Data, type DataMap, type DataSchema, type JsValue, fillInDefaults, parseSchema } from '../../src';

const INNER_SCHEMA = {
  type: 'record',
  name: 'Inner',
  fields: [
    { name: 'level', type: 'int', default: 1 },
    { name: 'label', type: 'string', optional: true, default: 'none' },
    { name: 'note', type: 'string', optional: true },
  ],
};

const OUTER = JSON.stringify({
  type: 'record',
  name: 'Outer',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'size', type: 'int', default: 10 },
    { name: 'tags', type: { type: 'array', items: 'string' }, default: ['a'] },
    { name: 'inner', type: INNER_SCHEMA, optional: true },
    { name: 'viaRef', type: { type: 'typeref', name: 'InnerRef', ref: 'Inner' }, default: {} },
    { name: 'list', type: { type: 'array', items: 'Inner' }, optional: true },
    { name: 'byName', type: { type: 'map', values: 'Inner' }, optional: true },
    { name: 'either', type: ['string', 'Inner'], optional: true },
  ],
});

const outer = (): DataSchema => parseSchema(OUTER);

const map = (v: JsValue): DataMap => Data.fromJS(v) as DataMap;
const INNER = { level: 1, label: 'none' };

describe('fillInDefaults', () => {
  it.each<[string, JsValue, JsValue]>([
    [
      'fills absent fields with defaults, optional ones too, and nested records of defaults',
      { id: 1 },
      { id: 1, size: 10, tags: ['a'], viaRef: INNER },
    ],
    ['keeps present values', { id: 1, size: 3, tags: [] }, { id: 1, size: 3, tags: [], viaRef: INNER }],
    [
      'fills present nested records',
      { id: 1, inner: { note: 'n' } },
      { id: 1, size: 10, tags: ['a'], inner: { level: 1, label: 'none', note: 'n' }, viaRef: INNER },
    ],
    [
      'fills records in arrays and maps',
      { id: 1, list: [{}, { level: 5 }], byName: { x: {} } },
      {
        id: 1,
        size: 10,
        tags: ['a'],
        viaRef: INNER,
        list: [INNER, { level: 5, label: 'none' }],
        byName: { x: INNER },
      },
    ],
    [
      'fills the record member of a union',
      { id: 1, either: { 'com.example.Inner': {} } },
      { id: 1, size: 10, tags: ['a'], viaRef: INNER, either: { 'com.example.Inner': INNER } },
    ],
    [
      'leaves values that do not fit the schema as they are',
      { id: 1, inner: 'not a record', either: { unknown: 1 } },
      { id: 1, size: 10, tags: ['a'], viaRef: INNER, inner: 'not a record', either: { unknown: 1 } },
    ],
  ])('%s', (_name, input, expected) => {
    const data = map(input);
    const before = data.toString();
    const out = fillInDefaults(outer(), data);
    expect(out.equals(map(expected))).toBe(true);
    expect(data.toString()).toBe(before);
  });

  it('gives each response its own copy of a default', () => {
    const schema = outer();
    const a = fillInDefaults(schema, map({ id: 1 }));
    a.getDataList('tags')!.add('changed');
    expect(
      fillInDefaults(schema, map({ id: 2 }))
        .getDataList('tags')!
        .toArray(),
    ).toEqual(['a']);
  });
});
