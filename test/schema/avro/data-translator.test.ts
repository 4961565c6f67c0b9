import fc from 'fast-check';
import * as avsc from 'avsc';
import {
  AVRO_LONG_TYPE,
  ByteString,
  Data,
  DataList,
  DataMap,
  DataTranslator,
  DefaultFieldTranslationMode,
  JsonCodec,
  OptionalDefaultMode,
  SchemaTranslator,
  avroTypeForSchema,
  isSvcError,
  type AvroSchemaInput,
  type DataToAvroSchemaTranslationOptions,
  type DataValue,
  type GenericRecord,
  type RecordDataSchema,
} from '../../../src';
import { fixtureTree, parse, UNTRANSLATABLE } from './avro-test-support';
import { avroValueArb, withoutNullFields } from './avro-value-arbitraries';

const json = new JsonCodec();

const SCHEMA = parse(`{ "type": "record", "name": "R", "namespace": "com.ex", "fields": [
  { "name": "i", "type": "int" },
  { "name": "l", "type": "long" },
  { "name": "f", "type": "float", "optional": true },
  { "name": "d", "type": "double", "default": 2.5 },
  { "name": "b", "type": "boolean", "optional": true },
  { "name": "s", "type": { "type": "typeref", "name": "Urn", "ref": "string" }, "optional": true },
  { "name": "by", "type": "bytes", "optional": true },
  { "name": "fx", "type": { "type": "fixed", "name": "F2", "size": 2 }, "optional": true },
  { "name": "e", "type": { "type": "enum", "name": "E", "symbols": [ "A", "B" ] }, "optional": true },
  { "name": "m", "type": { "type": "map", "values": "long" }, "optional": true },
  { "name": "a", "type": { "type": "array", "items": [ "null", "string", { "type": "record", "name": "In", "fields": [ { "name": "x", "type": "int" } ] } ] }, "optional": true },
  { "name": "u", "type": [ "int", "In" ], "optional": true },
  { "name": "au", "type": [ { "alias": "one", "type": "int" }, { "alias": "two", "type": "int" } ], "optional": true },
  { "name": "nu", "type": [ "null", { "alias": "p", "type": "In" } ] }
] }`) as RecordDataSchema;
const AVRO = SchemaTranslator.dataToAvroSchemaJson(SCHEMA);
const TYPE = avroTypeForSchema(AVRO);

function data(text: string): DataMap {
  return json.stringToMap(text);
}

function toRecord(map: DataMap, schema = SCHEMA, avro: AvroSchemaInput = TYPE, options = {}): GenericRecord {
  return DataTranslator.dataMapToGenericRecord(map, schema, avro, options);
}

function roundTrip(map: DataMap, schema = SCHEMA, type = TYPE): DataMap {
  const record = DataTranslator.dataMapToGenericRecord(map, schema, type);
  const bytes = type.toBuffer(record);
  return DataTranslator.genericRecordToDataMap(type.fromBuffer(bytes) as GenericRecord, schema, type);
}

function error(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected an error');
}

/** The generic record of `{i, l, nu}` plus `extra`, every other field null, d defaulted. */
function minimal(extra: GenericRecord = {}): GenericRecord {
  return {
    i: 1,
    l: 2,
    f: null,
    d: 2.5,
    b: null,
    s: null,
    by: null,
    fx: null,
    e: null,
    m: null,
    a: null,
    u: null,
    au: null,
    nu: { p: null, fieldDiscriminator: 'null' },
    ...extra,
  };
}

describe('dataMapToGenericRecord: the shape of the generic record', () => {
  const BASE = '"i":1,"l":2,"nu":null';
  it.each<[string, string, GenericRecord]>([
    ['absent optional fields are null, an absent required field takes its default', `{${BASE}}`, minimal()],
    [
      'a present optional field sits in its branch',
      `{${BASE},"f":1.5,"b":true,"s":"urn:x"}`,
      minimal({ f: { float: 1.5 }, b: { boolean: true }, s: { string: 'urn:x' } }),
    ],
    ['Data.NULL in an optional field is null', `{${BASE},"s":null}`, minimal()],
    [
      'enums are strings, maps objects',
      `{${BASE},"e":"B","m":{"k":3}}`,
      minimal({ e: { 'com.ex.E': 'B' }, m: { map: { k: 3 } } }),
    ],
    [
      'a union value is its wrapped branch, named types by full name',
      `{${BASE},"u":{"com.ex.In":{"x":4}},"a":[null,{"string":"s"},{"com.ex.In":{"x":5}}]}`,
      minimal({
        u: { 'com.ex.In': { x: 4 } },
        a: { array: [null, { string: 's' }, { 'com.ex.In': { x: 5 } }] },
      }),
    ],
    [
      'an aliased union is a record with a field per member and the discriminator',
      `{${BASE},"au":{"two":7}}`,
      minimal({ au: { 'com.ex.RAu': { one: null, two: { int: 7 }, fieldDiscriminator: 'two' } } }),
    ],
    [
      'its null member is a record of nulls with discriminator null',
      `{"i":1,"l":2,"nu":{"p":{"x":1}}}`,
      minimal({ nu: { p: { 'com.ex.In': { x: 1 } }, fieldDiscriminator: 'p' } }),
    ],
    [
      'longs beyond 2^53 are bigints',
      '{"i":1,"l":9223372036854775807,"nu":null,"m":{"min":-9223372036854775808}}',
      minimal({ l: 9223372036854775807n, m: { map: { min: -9223372036854775808n } } }),
    ],
  ])('%s', (_label, input, expected) => {
    expect(toRecord(data(input))).toEqual(expected);
  });

  it('writes bytes and fixed as Buffers, from ByteStrings or Avro strings', () => {
    const map = data('{"i":1,"l":2,"nu":null,"fx":"\\u0000ÿ"}');
    map.put('by', ByteString.copy([1, 2, 3]));
    const record = toRecord(map);
    expect(record['by']).toEqual({ bytes: Buffer.from([1, 2, 3]) });
    expect(record['fx']).toEqual({ 'com.ex.F2': Buffer.from([0, 255]) });
  });

  it('gives the same bytes as avsc encoding the equivalent plain object', () => {
    const map = data(
      '{"i":-7,"l":9007199254740993,"f":0.5,"nu":{"p":{"x":2}},"a":[{"string":"x"}],"u":{"int":3},"au":{"one":1},"e":"A","m":{"a":1}}',
    );
    const plain = {
      i: -7,
      l: 9007199254740993n,
      f: { float: 0.5 },
      d: 2.5,
      b: null,
      s: null,
      by: null,
      fx: null,
      e: { 'com.ex.E': 'A' },
      m: { map: { a: 1 } },
      a: { array: [{ string: 'x' }] },
      u: { int: 3 },
      au: { 'com.ex.RAu': { one: { int: 1 }, two: null, fieldDiscriminator: 'one' } },
      nu: { p: { 'com.ex.In': { x: 2 } }, fieldDiscriminator: 'p' },
    };
    expect(TYPE.toBuffer(toRecord(map)).equals(TYPE.toBuffer(plain))).toBe(true);
  });

  it('fills a required field with null under DO_NOT_TRANSLATE, for Avro translated that way', () => {
    const avro = SchemaTranslator.dataToAvroSchemaJson(SCHEMA, {
      defaultFieldTranslationMode: DefaultFieldTranslationMode.DO_NOT_TRANSLATE,
    });
    const type = avroTypeForSchema(avro);
    const map = data('{"i":1,"l":2,"nu":null}');
    expect(toRecord(map, SCHEMA, type)['d']).toEqual({ double: 2.5 });
    expect(toRecord(map, SCHEMA, type, { defaultFieldTranslationMode: 'DO_NOT_TRANSLATE' })['d']).toBeNull();
    map.put('d', 1.25);
    expect(roundTrip(map, SCHEMA, type).equals(map)).toBe(true);
  });

  it('matches branches of an Avro schema translated with overrideNamespace by simple name', () => {
    const type = avroTypeForSchema(
      SchemaTranslator.dataToAvroSchemaJson(SCHEMA, { overrideNamespace: true }),
    );
    const map = data('{"i":1,"l":2,"nu":{"p":{"x":1}},"u":{"com.ex.In":{"x":2}},"e":"B"}');
    expect(toRecord(map, SCHEMA, type)['u']).toEqual({ 'avro.com.ex.In': { x: 2 } });
    const expected = map.copy();
    expected.put('d', 2.5);
    expect(roundTrip(map, SCHEMA, type).equals(expected)).toBe(true);
  });

  it('accepts the Avro schema as text, as parsed JSON or as an avsc type', () => {
    const map = data(`{"i":1,"l":2,"nu":null}`);
    expect(toRecord(map, SCHEMA, AVRO)).toEqual(minimal());
    expect(toRecord(map, SCHEMA, JSON.parse(AVRO) as object)).toEqual(minimal());
    expect(avroTypeForSchema(AVRO)).toBe(TYPE);
  });
});

describe('genericRecordToDataMap and the binary round trip', () => {
  it.each([
    ['required fields only', '{"i":1,"l":2,"d":2.5,"nu":null}'],
    [
      'every optional field',
      '{"i":0,"l":-1,"f":1.5,"d":-0.25,"b":false,"s":"","e":"A","m":{"":1,"k":-2},"a":[],"u":{"int":1},"au":{"one":-1},"nu":{"p":{"x":0}}}',
    ],
    [
      'longs at the edges of 64 bits and of ±2^53',
      '{"i":2147483647,"l":-9223372036854775808,"d":0,"nu":null,"m":{"a":9223372036854775807,"b":9007199254740992,"c":-9007199254740993,"d":9007199254740991}}',
    ],
    [
      'nested unions and records',
      '{"i":-2147483648,"l":0,"d":1e300,"nu":null,"a":[null,{"string":"é😀"},{"com.ex.In":{"x":3}}],"u":{"com.ex.In":{"x":9}}}',
    ],
  ])('round-trips %s exactly', (_label, text) => {
    const map = data(text);
    expect(roundTrip(map).equals(map)).toBe(true);
  });

  it('round-trips bytes and fixed as ByteStrings (copied out of the input buffer)', () => {
    const map = data('{"i":1,"l":2,"d":2.5,"nu":null}');
    map.put('by', ByteString.copy([0, 1, 255]));
    map.put('fx', ByteString.copy([9, 8]));
    const bytes = TYPE.toBuffer(toRecord(map));
    const back = DataTranslator.genericRecordToDataMap(TYPE.fromBuffer(bytes) as GenericRecord, SCHEMA, TYPE);
    bytes.fill(0);
    expect(back.equals(map)).toBe(true);
  });

  it('drops Avro fields the schema lacks and leaves null fields out', () => {
    const back = DataTranslator.genericRecordToDataMap({ ...minimal(), extra: 5 }, SCHEMA, TYPE);
    expect(json.mapToString(back)).toBe('{"i":1,"l":2,"d":2.5,"nu":null}');
  });
});

describe('genericRecordToDataMap: a field whose Avro value is null, as the reference DataTranslator reads it', () => {
  // data-avro DataTranslator.java, AvroGenericToDataTranslator.translate, case RECORD: a field whose Avro value
  // is null is not put in the DataMap, whatever its type; a union value null elsewhere is Data.NULL
  const N = parse(`{ "type": "record", "name": "N", "namespace": "com.ex", "fields": [
    { "name": "req", "type": [ "null", "int" ] },
    { "name": "nul", "type": "null" },
    { "name": "opt", "type": "int", "optional": true },
    { "name": "list", "type": { "type": "array", "items": [ "null", "int" ] } },
    { "name": "al", "type": [ "null", { "alias": "i", "type": "int" } ] }
  ] }`) as RecordDataSchema;
  const N_TYPE = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(N));
  const NULL_AL = { i: null, fieldDiscriminator: 'null' };

  it.each<[string, GenericRecord, string]>([
    [
      'a required union field whose value is null is left out, as are the null type and an optional field',
      { req: null, nul: null, opt: null, list: [], al: NULL_AL },
      '{"list":[],"al":null}',
    ],
    [
      'a required union field holding a member keeps it',
      { req: { int: 3 }, nul: null, opt: { int: 4 }, list: [], al: NULL_AL },
      '{"req":{"int":3},"opt":4,"list":[],"al":null}',
    ],
    [
      'null inside an array stays Data.NULL',
      { req: null, nul: null, opt: null, list: [null, { int: 1 }], al: NULL_AL },
      '{"list":[null,{"int":1}],"al":null}',
    ],
    [
      'a union with aliases is read from its record by the discriminator',
      { req: null, nul: null, opt: null, list: [], al: { i: { int: 5 }, fieldDiscriminator: 'i' } },
      '{"list":[],"al":{"i":5}}',
    ],
  ])('%s (read from avsc-encoded bytes)', (_label, record, expected) => {
    const decoded = N_TYPE.fromBuffer(N_TYPE.toBuffer(record)) as GenericRecord;
    expect(json.mapToString(DataTranslator.genericRecordToDataMap(decoded, N, N_TYPE))).toBe(expected);
  });

  it('turns a required field holding Data.NULL into an absent one on a round trip', () => {
    const map = json.stringToMap('{"req":null,"nul":null,"list":[null],"al":null}');
    const record = DataTranslator.dataMapToGenericRecord(map, N, N_TYPE);
    expect(record).toMatchObject({ req: null, nul: null, al: NULL_AL });
    const back = DataTranslator.genericRecordToDataMap(
      N_TYPE.fromBuffer(N_TYPE.toBuffer(record)) as GenericRecord,
      N,
      N_TYPE,
    );
    expect(json.mapToString(back)).toBe('{"list":[null],"al":null}');
  });
});

describe('data that does not fit', () => {
  const BASE = '"i":1,"l":2,"nu":null';
  it.each([
    ['a string for an int', `{"i":"x","l":2,"nu":null}`, 'ERROR :: /i :: x is not an int'],
    ['an int out of range', `{"i":2147483648,"l":2,"nu":null}`, 'ERROR :: /i :: 2147483648 is not an int'],
    ['a fraction for a long', `{"i":1,"l":2.5,"nu":null}`, 'ERROR :: /l :: 2.5 is not a long'],
    [
      'a missing required field without default',
      `{"l":2,"nu":null}`,
      'ERROR :: /i :: required field is absent',
    ],
    ['an unknown enum symbol', `{${BASE},"e":"C"}`, 'ERROR :: /e :: enum value C not one of [A, B]'],
    [
      'a fixed of the wrong size',
      `{${BASE},"fx":"abc"}`,
      'ERROR :: /fx :: ByteString size 3 != FixedDataSchema size 2',
    ],
    ['bytes with a char above U+00FF', `{${BASE},"by":"Ā"}`, 'ERROR :: /by :: Ā is not bytes'],
    [
      'a union value with two entries',
      `{${BASE},"u":{"int":1,"string":"x"}}`,
      'ERROR :: /u :: union value {int=1, string=x} does not have exactly one entry',
    ],
    [
      'a union member the union lacks',
      `{${BASE},"u":{"string":"x"}}`,
      'ERROR :: /u :: "string" is not a member type of union',
    ],
    [
      'a bad value deep inside',
      `{${BASE},"a":[null,{"com.ex.In":{"x":"no"}}]}`,
      'ERROR :: /a/1/com.ex.In/x :: no is not an int',
    ],
    ['a map value of the wrong type', `{${BASE},"m":{"k":"v"}}`, 'ERROR :: /m/k :: v is not a long'],
    [
      'a list for a record',
      `{"i":1,"l":2,"nu":[]}`,
      'ERROR :: /nu :: union value [] does not have exactly one entry',
    ],
    [
      'an aliased union member the union lacks',
      `{${BASE},"au":{"three":3}}`,
      'ERROR :: /au :: cannot find member key three in union',
    ],
  ])('refuses %s, naming the path', (_label, text, message) => {
    const err = error(() => toRecord(data(text)));
    expect(isSvcError(err, 'DataTranslationError', 'SVC_ERR_AVRO_DATA_TRANSLATION')).toBe(true);
    expect(err.message).toBe(message);
  });

  it.each<[string, GenericRecord, string]>([
    [
      'a value in the wrong branch of an optional field',
      minimal({ s: { int: 1 } }),
      'ERROR :: /s :: the value is in branch int, not string',
    ],
    ['an unknown branch', minimal({ u: { long: 1 } }), 'ERROR :: /u :: cannot find long in union'],
    [
      'an unknown enum symbol',
      minimal({ e: { 'com.ex.E': 'Z' } }),
      'ERROR :: /e :: enum value Z not one of [A, B]',
    ],
    [
      'a fixed of the wrong size',
      minimal({ fx: { 'com.ex.F2': Buffer.from([1]) } }),
      'ERROR :: /fx :: GenericFixed size 1 != FixedDataSchema size 2',
    ],
    [
      'an aliased union record without discriminator',
      minimal({ nu: { p: null } }),
      'ERROR :: /nu :: cannot find required field fieldDiscriminator in record',
    ],
    [
      'an aliased union record whose member is null',
      minimal({ au: { 'com.ex.RAu': { one: null, two: null, fieldDiscriminator: 'one' } } }),
      'ERROR :: /au :: the field one named by fieldDiscriminator has no value',
    ],
    ['a string for an int', minimal({ i: '1' }), 'ERROR :: /i :: 1 is not an int'],
  ])('genericRecordToDataMap refuses %s', (_label, record, message) => {
    const err = error(() => DataTranslator.genericRecordToDataMap(record, SCHEMA, TYPE));
    expect(isSvcError(err, 'DataTranslationError', 'SVC_ERR_AVRO_DATA_TRANSLATION')).toBe(true);
    expect(err.message).toBe(message);
  });

  it('refuses a long beyond 2^53 for an avsc type built with avsc’s own long', () => {
    const plainType = avsc.Type.forSchema(JSON.parse(AVRO) as avsc.Schema, { wrapUnions: true });
    expect(toRecord(data('{"i":1,"l":5,"nu":null}'), SCHEMA, plainType)['l']).toBe(5);
    expect(
      error(() => toRecord(data('{"i":1,"l":9007199254740993,"nu":null}'), SCHEMA, plainType)).message,
    ).toBe(
      "ERROR :: /l :: 9007199254740993 needs the exact long type of avroTypeForSchema (avsc's long holds ±2^53)",
    );
  });

  it('refuses schemas that do not correspond', () => {
    const other = avroTypeForSchema(
      '{"type":"record","name":"R","namespace":"com.ex","fields":[{"name":"i","type":"string"}]}',
    );
    expect(error(() => toRecord(data('{"i":1}'), SCHEMA, other)).message).toBe(
      'ERROR :: /i :: the Avro type string does not match the schema type int',
    );
  });

  it('refuses records with an explicit Avro override (custom data translators are Java classes)', () => {
    const schema = parse(
      '{ "type": "record", "name": "O", "fields": [ { "name": "x", "type": "int" } ], "avro": { "schema": { "type": "record", "name": "O", "fields": [] }, "translator": { "class": "C" } } }',
    ) as RecordDataSchema;
    expect(
      error(() => toRecord(data('{"x":1}'), schema, '{"type":"record","name":"O","fields":[]}')).message,
    ).toContain('has an "avro" override, whose custom data translator is not supported');
  });
});

describe('the exact long type', () => {
  const type = avroTypeForSchema('"long"');

  it.each([
    0,
    1,
    -1,
    2 ** 32,
    -(2 ** 32) - 1,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    2n ** 53n,
    -(2n ** 53n),
    2n ** 63n - 1n,
    -(2n ** 63n),
  ])('round-trips %s, as a number when safe and a bigint otherwise', (v) => {
    const back = type.fromBuffer(type.toBuffer(v)) as number | bigint;
    const n = Number(v);
    if (Number.isSafeInteger(n)) expect(back).toBe(n);
    else expect(back).toBe(v);
  });

  it('writes the same bytes as avsc’s own long within ±2^52', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 52n), max: 2n ** 52n }).map(Number), (n) => {
        expect(type.toBuffer(n).equals(avsc.Type.forSchema('long').toBuffer(n))).toBe(true);
      }),
    );
  });

  it('stays exact where avsc’s own long does not (its zigzag step rounds beyond 2^52)', () => {
    const n = -(2 ** 52) - 1;
    expect(type.fromBuffer(type.toBuffer(n))).toBe(n);
    const own = avsc.Type.forSchema('long');
    expect(own.fromBuffer(own.toBuffer(n))).not.toBe(n);
  });

  it('refuses unsafe numbers and values out of range', () => {
    expect(type.isValid(2 ** 60)).toBe(false);
    expect(type.isValid(2n ** 63n)).toBe(false);
    expect(type.isValid(1.5)).toBe(false);
    expect(() => type.toBuffer(2 ** 60)).toThrow();
  });

  it('converts JSON and compares exactly', () => {
    const t = AVRO_LONG_TYPE as unknown as {
      _fromJSON(x: unknown): unknown;
      _toJSON(x: unknown): unknown;
      compare(a: unknown, b: unknown): number;
    };
    expect(t._fromJSON('9223372036854775807')).toBe(9223372036854775807n);
    expect(t._fromJSON(12)).toBe(12);
    expect(t._toJSON(2n ** 60n)).toBe('1152921504606846976');
    expect(t.compare(2n ** 60n, 2 ** 52)).toBe(1);
    expect(t.compare(-1, 0)).toBe(-1);
  });

  it('reads long defaults beyond 2^53 exactly', () => {
    const t = avroTypeForSchema(
      '{"type":"record","name":"D","fields":[{"name":"x","type":"long","default":9223372036854775807}]}',
    );
    expect((t.fromBuffer(t.toBuffer({})) as { x: unknown }).x).toBe(9223372036854775807n);
  });
});

describe('avroTypeForSchema', () => {
  it('caches types per text and per object', () => {
    const obj = { type: 'array', items: 'long' };
    expect(avroTypeForSchema(obj)).toBe(avroTypeForSchema(obj));
    expect(avroTypeForSchema('{"type":"map","values":"int"}')).toBe(
      avroTypeForSchema('{"type":"map","values":"int"}'),
    );
  });

  it('refuses what avsc refuses, and text that is not JSON', () => {
    expect(error(() => avroTypeForSchema('{"type":"nope"}')).code).toBe('SVC_ERR_AVRO_SCHEMA_PARSE');
    expect(error(() => avroTypeForSchema('{')).code).toBe('SVC_ERR_AVRO_SCHEMA_PARSE');
  });
});

describe('property: DataMap → generic record → avsc binary → generic record → DataMap is the identity, null fields aside', () => {
  const { tops } = fixtureTree();
  const records = tops
    .map((s) => s.getDereferencedSchema())
    .filter((s): s is RecordDataSchema => s.getType() === 'RECORD')
    .filter((s) => UNTRANSLATABLE.get(s.getFullName()) !== 'always');
  const OPTIONS: DataToAvroSchemaTranslationOptions[] = [
    {},
    { optionalDefaultMode: OptionalDefaultMode.TRANSLATE_TO_NULL, overrideNamespace: true },
    { defaultFieldTranslationMode: DefaultFieldTranslationMode.DO_NOT_TRANSLATE },
  ];
  const RUNS = Number(process.env.AVRO_PROPERTY_RUNS ?? 25);

  it('covers the record schemas of the fixture tree', () => {
    expect(records.length).toBeGreaterThanOrEqual(20);
  });

  it.each(records.map((s) => [s.getFullName(), s] as const))('%s', (name, schema) => {
    const arb = avroValueArb(schema);
    expect(arb).toBeDefined();
    for (const options of OPTIONS) {
      if (UNTRANSLATABLE.has(name) && options.defaultFieldTranslationMode === undefined) continue;
      const type = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(schema, options));
      fc.assert(
        fc.property(arb!, (value: DataValue) => {
          const map = value as DataMap;
          const record = DataTranslator.dataMapToGenericRecord(map, schema, type);
          const bytes = type.toBuffer(record);
          const back = DataTranslator.genericRecordToDataMap(
            type.fromBuffer(bytes) as GenericRecord,
            schema,
            type,
          );
          const expected = withoutNullFields(map, schema) as DataMap;
          if (!back.equals(expected))
            throw new Error(`${json.mapToString(back)}\n!=\n${json.mapToString(expected)}`);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('keeps Data.NULL and empty containers', () => {
    const map = new DataMap([
      ['i', 0],
      ['l', 0],
      ['nu', Data.NULL],
      ['a', new DataList()],
      ['m', new DataMap()],
    ]);
    const expected = map.copy();
    expected.put('d', 2.5);
    expect(roundTrip(map).equals(expected)).toBe(true);
  });
});
