/**
 * The order of a record's fields with `include`, as the reference has it (rest.li 29.x): `SchemaParser.java`
 * parses `include` and `fields` in the order they appear in the .pdsc text and sets
 * `RecordDataSchema.setFieldsBeforeIncludes(true)` when `fields` comes first; `getFields()` holds that
 * order, `SchemaToJsonEncoder` writes the two keys in it, and `SchemaToAvroJsonEncoder.encodeFields` writes
 * the Avro fields in `getFields()` order. (PDL writes `includes` before the fields unless they follow them.)
 */
import * as avsc from 'avsc';
import {
  DataMap,
  DataTranslator,
  IntDataSchema,
  parseSchema,
  RecordDataSchema,
  RecordField,
  SchemaTranslator,
  StringDataSchema,
  avroTypeForSchema,
  type GenericRecord,
} from '../../../src';

const BASE =
  '{ "type": "record", "name": "Base", "fields": [ { "name": "b1", "type": "int" }, { "name": "b2", "type": "int" } ] }';
const OWN = '[ { "name": "own1", "type": "string" }, { "name": "own2", "type": "string" } ]';

interface Order {
  readonly what: string;
  readonly text: string;
  readonly fieldsBeforeIncludes: boolean;
  readonly fields: readonly string[];
}

const ORDERS: Order[] = [
  {
    what: 'include written before fields: included fields first',
    text: `${BASE} { "type": "record", "name": "Child", "include": [ "Base" ], "fields": ${OWN} }`,
    fieldsBeforeIncludes: false,
    fields: ['b1', 'b2', 'own1', 'own2'],
  },
  {
    what: 'fields written before include: own fields first',
    text: `${BASE} { "type": "record", "name": "Child", "fields": ${OWN}, "include": [ "Base" ] }`,
    fieldsBeforeIncludes: true,
    fields: ['own1', 'own2', 'b1', 'b2'],
  },
  {
    what: 'fields before include, with other keys around them',
    text: `${BASE} { "fields": ${OWN}, "type": "record", "include": [ "Base" ], "name": "Child", "doc": "d" }`,
    fieldsBeforeIncludes: true,
    fields: ['own1', 'own2', 'b1', 'b2'],
  },
  {
    what: 'no include: the flag stays false',
    text: `{ "type": "record", "name": "Child", "fields": ${OWN} }`,
    fieldsBeforeIncludes: false,
    fields: ['own1', 'own2'],
  },
];

describe.each(ORDERS)('$what', ({ text, fieldsBeforeIncludes, fields }) => {
  const child = parseSchema(text) as RecordDataSchema;

  it('orders the fields of the schema so, and says which order it is', () => {
    expect(child.getFields().map((f) => f.getName())).toEqual(fields);
    expect(child.isFieldsBeforeIncludes()).toBe(fieldsBeforeIncludes);
    fields.forEach((name, i) => expect(child.index(name)).toBe(i));
  });

  it('writes include and fields in that order in canonical JSON, which parses back to an equal schema', () => {
    const json = child.toString();
    if (child.getInclude().length > 0) {
      expect(json.indexOf('"include"') > json.indexOf('"fields"')).toBe(fieldsBeforeIncludes);
    }
    const again = parseSchema(json) as RecordDataSchema;
    expect(again.equals(child)).toBe(true);
    expect(again.isFieldsBeforeIncludes()).toBe(fieldsBeforeIncludes);
  });

  it('writes the Avro fields in that order', () => {
    const avro = JSON.parse(SchemaTranslator.dataToAvroSchemaJson(child)) as { fields: { name: string }[] };
    expect(avro.fields.map((f) => f.name)).toEqual(fields);
  });

  it('translates data to Avro bytes in that order, as avsc encodes the Avro schema', () => {
    const avroJson = SchemaTranslator.dataToAvroSchemaJson(child);
    const map = new DataMap([
      ['own1', 'x'],
      ['own2', 'y'],
      ...(fields.includes('b1')
        ? ([
            ['b1', 1],
            ['b2', 2],
          ] as const)
        : []),
    ]);
    const record = DataTranslator.dataMapToGenericRecord(map, child, avroTypeForSchema(avroJson));
    expect(Object.keys(record)).toEqual(fields);
    const plain = avsc.Type.forSchema(JSON.parse(avroJson) as avsc.Schema);
    const bytes = plain.toBuffer(record);
    expect(bytes.equals(avroTypeForSchema(avroJson).toBuffer(record))).toBe(true);
    const back = DataTranslator.genericRecordToDataMap(
      plain.fromBuffer(bytes) as GenericRecord,
      child,
      avroJson,
    );
    expect(back.equals(map)).toBe(true);
  });
});

describe('a record built in code', () => {
  const base = new RecordDataSchema({
    name: 'Base',
    fields: [new RecordField({ name: 'b', type: IntDataSchema.INSTANCE })],
  });
  const own = (): RecordField[] => [new RecordField({ name: 'o', type: StringDataSchema.INSTANCE })];

  it.each([
    [false, ['b', 'o']],
    [true, ['o', 'b']],
  ] as const)('with fieldsBeforeIncludes %s orders its fields %j', (flag, order) => {
    const r = new RecordDataSchema({ name: 'R', include: [base], fields: own(), fieldsBeforeIncludes: flag });
    expect(r.getFields().map((f) => f.getName())).toEqual(order);
    expect(r.isFieldsBeforeIncludes()).toBe(flag);
    expect((parseSchema(r.toString()) as RecordDataSchema).getFields().map((f) => f.getName())).toEqual(
      order,
    );
  });
});
