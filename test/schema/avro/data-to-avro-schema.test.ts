import {
  AvroJsonStyle,
  JsonCodec,
  type DataMap,
  DefaultFieldTranslationMode,
  EmbedSchemaMode,
  OptionalDefaultMode,
  SchemaTranslator,
  isSvcError,
  type DataToAvroSchemaTranslationOptions,
} from '../../../src';
import {
  avroFoo,
  expectAvscAccepts,
  fixtureTree,
  foo,
  parse,
  typerefVariants,
  UNTRANSLATABLE,
  fullName,
} from './avro-test-support';

const TD = OptionalDefaultMode.TRANSLATE_DEFAULT;
const TTN = OptionalDefaultMode.TRANSLATE_TO_NULL;
const BOTH = [TD, TTN];
const json = new JsonCodec();

function toAvro(text: string, options: DataToAvroSchemaTranslationOptions = {}): string {
  return SchemaTranslator.dataToAvroSchemaJson(parse(text), options);
}

/** Checks a row in every typeref variant and every mode, and that avsc (and our own reader) accept the output. */
function expectRow(text: string, modes: readonly OptionalDefaultMode[], expected: string): void {
  for (const variant of typerefVariants(text)) {
    for (const optionalDefaultMode of modes) {
      for (const embedSchemaMode of [EmbedSchemaMode.NONE, EmbedSchemaMode.ROOT_ONLY]) {
        const out = toAvro(variant, { optionalDefaultMode, embedSchemaMode });
        const type = parse(variant).getDereferencedType();
        const embeds =
          embedSchemaMode === EmbedSchemaMode.ROOT_ONLY && !['UNION', 'INT', 'STRING', 'LONG'].includes(type);
        if (embeds) {
          const parsed = json.stringToMap(out);
          const embedded = parsed.remove('com.linkedin.data') as DataMap;
          expect(parsed.equals(json.stringToMap(expected))).toBe(true);
          expect(embedded.get('optionalDefaultMode')).toBe(optionalDefaultMode);
          const schema = parse(json.mapToString(embedded.get('schema') as DataMap));
          expect(schema.equals(parse(variant).getDereferencedSchema())).toBe(true);
          // the embedded schema comes back, verified, when translating back
          const back = SchemaTranslator.avroToDataSchema(out, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' });
          expect(back.equals(parse(variant).getDereferencedSchema())).toBe(true);
        } else {
          expect(out).toBe(expected);
        }
        expectAvscAccepts(out);
        expect(() => SchemaTranslator.avroToDataSchema(out, { translationMode: 'TRANSLATE' })).not.toThrow();
      }
    }
  }
}

describe('dataToAvroSchemaJson: the worked examples of the reference (§8.3), exactly', () => {
  const FOO =
    '{ "type": "record", "name": "Foo", "namespace": "com.ex", "fields": [' +
    ' { "name": "req", "type": "int" }, { "name": "reqDef", "type": "int", "default": 7 },' +
    ' { "name": "opt", "type": "string", "optional": true },' +
    ' { "name": "optDef", "type": "string", "optional": true, "default": "hi" },' +
    ' { "name": "b", "type": "bytes", "default": "\\u0001\\u0002" },' +
    ' { "name": "f", "type": { "type": "fixed", "name": "MD5", "size": 2 }, "optional": true },' +
    ' { "name": "arr", "type": { "type": "array", "items": "long" }, "default": [ 1, 2 ] },' +
    ' { "name": "m", "type": { "type": "map", "values": "double" }, "default": { "x": 1.5 } } ] }';

  it('translates required, optional and defaulted fields (TRANSLATE_DEFAULT)', () => {
    expect(toAvro(FOO)).toBe(
      '{"type":"record","name":"Foo","namespace":"com.ex","fields":[{"name":"req","type":"int"},' +
        '{"name":"reqDef","type":"int","default":7},{"name":"opt","type":["null","string"],"default":null},' +
        '{"name":"optDef","type":["string","null"],"default":"hi"},{"name":"b","type":"bytes","default":"\\u0001\\u0002"},' +
        '{"name":"f","type":["null",{"type":"fixed","name":"MD5","size":2}],"default":null},' +
        '{"name":"arr","type":{"type":"array","items":"long"},"default":[1,2]},' +
        '{"name":"m","type":{"type":"map","values":"double"},"default":{"x":1.5}}]}',
    );
    expectAvscAccepts(toAvro(FOO));
  });

  it('TRANSLATE_TO_NULL changes only the optional field with a default', () => {
    const a = JSON.parse(toAvro(FOO)) as { fields: { name: string }[] };
    const b = JSON.parse(toAvro(FOO, { optionalDefaultMode: TTN })) as { fields: { name: string }[] };
    expect(b.fields.find((f) => f.name === 'optDef')).toEqual({
      name: 'optDef',
      type: ['null', 'string'],
      default: null,
    });
    expect(b.fields.filter((f) => f.name !== 'optDef')).toEqual(a.fields.filter((f) => f.name !== 'optDef'));
  });

  it('DO_NOT_TRANSLATE makes every defaulted field nullable with default null', () => {
    const out = JSON.parse(
      toAvro(FOO, { defaultFieldTranslationMode: DefaultFieldTranslationMode.DO_NOT_TRANSLATE }),
    ) as {
      fields: { name: string; type: unknown; default?: unknown }[];
    };
    const byName = new Map(out.fields.map((f) => [f.name, f]));
    expect(byName.get('reqDef')).toEqual({ name: 'reqDef', type: ['null', 'int'], default: null });
    expect(byName.get('b')).toEqual({ name: 'b', type: ['null', 'bytes'], default: null });
    expect(byName.get('arr')).toEqual({
      name: 'arr',
      type: ['null', { type: 'array', items: 'long' }],
      default: null,
    });
    expect(byName.get('m')).toEqual({
      name: 'm',
      type: ['null', { type: 'map', values: 'double' }],
      default: null,
    });
    expect(byName.get('optDef')).toEqual({ name: 'optDef', type: ['null', 'string'], default: null });
    expect(byName.get('req')).toEqual({ name: 'req', type: 'int' });
  });

  it('turns a union with aliases into a record with a discriminator enum', () => {
    const out = toAvro(
      '{ "type": "record", "name": "U", "fields": [ { "name": "aliased", "type": [ { "alias": "a", "type": "int" }, { "alias": "b", "type": "string" } ], "default": { "a": 1 } } ] }',
    );
    expect(out).toBe(
      '{"type":"record","name":"U","fields":[{"name":"aliased","type":{"type":"record","name":"UAliased","fields":[' +
        '{"name":"a","type":["int","null"],"default":1},{"name":"b","type":["null","string"],"default":null},' +
        '{"name":"fieldDiscriminator","type":{"type":"enum","name":"UAliasedDiscriminator","symbols":["a","b"]},' +
        '"doc":"Contains the name of the field that has its value set."}]},' +
        '"default":{"a":1,"b":null,"fieldDiscriminator":"a"}}]}',
    );
    expectAvscAccepts(out);
  });

  it('flattens includes and dereferences typerefs', () => {
    const out = toAvro(
      '{ "type": "record", "name": "Child", "include": [ { "type": "record", "name": "Base", "fields": [ { "name": "x", "type": "int" } ] } ],' +
        ' "fields": [ { "name": "y", "type": { "type": "typeref", "name": "Ts", "ref": "long" } },' +
        ' { "name": "tr", "type": { "type": "typeref", "name": "Url", "ref": "string" }, "optional": true } ] }',
    );
    expect(out).toBe(
      '{"type":"record","name":"Child","fields":[{"name":"x","type":"int"},{"name":"y","type":"long"},{"name":"tr","type":["null","string"],"default":null}]}',
    );
  });

  it('refuses a union default not of the first member, with the reference message', () => {
    const text =
      '{ "type": "record", "name": "D", "namespace": "com.ex", "fields": [ { "name": "u", "type": [ "int", "string" ], "default": { "string": "abc" } } ] }';
    let caught: unknown;
    try {
      toAvro(text);
    } catch (err) {
      caught = err;
    }
    expect(isSvcError(caught, 'SchemaTranslationError', 'SVC_ERR_AVRO_SCHEMA_TRANSLATION')).toBe(true);
    expect((caught as Error).message).toBe(
      'ERROR :: /com.ex.D/u :: cannot translate union value {string=abc} because its type is not the 1st member type of the union [ "int", "string" ]',
    );
  });
});

describe('dataToAvroSchemaJson: fields, defaults and optionality', () => {
  const ENUM = '{ "type": "enum", "name": "fruits", "symbols": [ "APPLE", "ORANGE" ] }';
  const AVRO_ENUM = '{"type":"enum","name":"fruits","symbols":["APPLE","ORANGE"]}';
  const rows: [string, string, readonly OptionalDefaultMode[], string][] = [
    [
      'custom record properties are kept',
      foo('{ "name": "bar", "type": ⟪"int"⟫ }', ', "version": 1'),
      BOTH,
      avroFoo('{"name":"bar","type":"int"}', ',"version":1'),
    ],
    [
      'a required field',
      foo('{ "name": "bar", "type": ⟪"int"⟫ }'),
      BOTH,
      avroFoo('{"name":"bar","type":"int"}'),
    ],
    [
      'a required field with a default keeps it',
      foo('{ "name": "bar", "type": ⟪"int"⟫, "default": 42 }'),
      BOTH,
      avroFoo('{"name":"bar","type":"int","default":42}'),
    ],
    [
      'optional: false is required',
      foo('{ "name": "bar", "type": ⟪"int"⟫, "optional": false }'),
      BOTH,
      avroFoo('{"name":"bar","type":"int"}'),
    ],
    [
      'an optional field is a union with null first',
      foo('{ "name": "bar", "type": ⟪"int"⟫, "optional": true }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","int"],"default":null}'),
    ],
    [
      'an optional field with a default puts its type first (TRANSLATE_DEFAULT)',
      foo('{ "name": "bar", "type": ⟪"int"⟫, "optional": true, "default": 42 }'),
      [TD],
      avroFoo('{"name":"bar","type":["int","null"],"default":42}'),
    ],
    [
      'an optional field with a default puts null first (TRANSLATE_TO_NULL)',
      foo('{ "name": "bar", "type": ⟪"int"⟫, "optional": true, "default": 42 }'),
      [TTN],
      avroFoo('{"name":"bar","type":["null","int"],"default":null}'),
    ],
    [
      'an optional enum with a default (TRANSLATE_DEFAULT)',
      foo(`{ "name": "bar", "type": ⟪${ENUM}⟫, "optional": true, "default": "APPLE" }`),
      [TD],
      avroFoo(`{"name":"bar","type":[${AVRO_ENUM},"null"],"default":"APPLE"}`),
    ],
    [
      'an optional enum with a default (TRANSLATE_TO_NULL)',
      foo(`{ "name": "bar", "type": ⟪${ENUM}⟫, "optional": true, "default": "APPLE" }`),
      [TTN],
      avroFoo(`{"name":"bar","type":["null",${AVRO_ENUM}],"default":null}`),
    ],
    [
      'an optional namespaced record with an empty default (TRANSLATE_DEFAULT)',
      '{ "type": "record", "name": "a.b.foo", "fields": [ { "name": "bar", "type": ⟪{ "type": "record", "name": "b.c.bar", "fields": [] }⟫, "default": {}, "optional": true } ] }',
      [TD],
      '{"type":"record","name":"foo","namespace":"a.b","fields":[{"name":"bar","type":[{"type":"record","name":"bar","namespace":"b.c","fields":[]},"null"],"default":{}}]}',
    ],
    [
      'an optional namespaced record with an empty default (TRANSLATE_TO_NULL)',
      '{ "type": "record", "name": "a.b.foo", "fields": [ { "name": "bar", "type": ⟪{ "type": "record", "name": "b.c.bar", "fields": [] }⟫, "default": {}, "optional": true } ] }',
      [TTN],
      '{"type":"record","name":"foo","namespace":"a.b","fields":[{"name":"bar","type":["null",{"type":"record","name":"bar","namespace":"b.c","fields":[]}],"default":null}]}',
    ],
    [
      'a default of nested records',
      '{ "type": "record", "name": "a.b.foo", "fields": [ { "name": "bar", "type": { "type": "record", "name": "b.c.bar", "fields": [ { "name": "baz", "type": { "type": "record", "name": "c.d.baz", "fields": [] } } ] }, "default": { "baz": {} }, "optional": true } ] }',
      [TD],
      '{"type":"record","name":"foo","namespace":"a.b","fields":[{"name":"bar","type":[{"type":"record","name":"bar","namespace":"b.c","fields":[{"name":"baz","type":{"type":"record","name":"baz","namespace":"c.d","fields":[]}}]},"null"],"default":{"baz":{}}}]}',
    ],
    [
      'a recursive optional field with a default, TRANSLATE_TO_NULL',
      foo('{ "name": "bar", "type": "foo", "default": {}, "optional": true }'),
      [TTN],
      avroFoo('{"name":"bar","type":["null","foo"],"default":null}'),
    ],
    [
      'a required union without null',
      foo('{ "name": "bar", "type": ⟪[ "int", "string" ]⟫ }'),
      BOTH,
      avroFoo('{"name":"bar","type":["int","string"]}'),
    ],
    [
      'a required union with null',
      foo('{ "name": "bar", "type": ⟪[ "null", "string" ]⟫ }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","string"]}'),
    ],
    [
      'an optional union gets null first',
      foo('{ "name": "bar", "type": ⟪[ "int", "string" ]⟫, "optional": true }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","int","string"],"default":null}'),
    ],
    [
      'an optional union with null',
      foo('{ "name": "bar", "type": ⟪[ "null", "int", "string" ]⟫, "optional": true }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","int","string"],"default":null}'),
    ],
    [
      'an optional union with a default of the first member (TRANSLATE_DEFAULT)',
      foo('{ "name": "bar", "type": ⟪[ "int", "string" ]⟫, "default": { "int": 42 }, "optional": true }'),
      [TD],
      avroFoo('{"name":"bar","type":["int","string","null"],"default":42}'),
    ],
    [
      'an optional union with a default (TRANSLATE_TO_NULL)',
      foo(
        '{ "name": "bar", "type": ⟪[ "int", "string" ]⟫, "default": { "string": "abc" }, "optional": true }',
      ),
      [TTN],
      avroFoo('{"name":"bar","type":["null","int","string"],"default":null}'),
    ],
    [
      'an optional union with null in the middle and a default of the first member',
      foo(
        '{ "name": "bar", "type": ⟪[ "int", "null", "string" ]⟫, "default": { "int": 42 }, "optional": true }',
      ),
      [TD],
      avroFoo('{"name":"bar","type":["int","null","string"],"default":42}'),
    ],
    [
      'an optional union with null in the middle, TRANSLATE_TO_NULL',
      foo('{ "name": "bar", "type": ⟪[ "int", "null", "string" ]⟫, "default": null, "optional": true }'),
      [TTN],
      avroFoo('{"name":"bar","type":["null","int","string"],"default":null}'),
    ],
    [
      'an optional union with null first and a null default',
      foo('{ "name": "bar", "type": ⟪[ "null", "int", "string" ]⟫, "default": null, "optional": true }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","int","string"],"default":null}'),
    ],
    [
      'a recursive optional union, null default',
      foo('{ "name": "bar", "type": ⟪[ "null", "foo" ]⟫, "default": null, "optional": true }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","foo"],"default":null}'),
    ],
    [
      'a union member that is a typeref, default of the first member',
      foo('{ "name": "bar", "type": [ ⟪"int"⟫, "string" ], "default": { "int": 42 } }'),
      BOTH,
      avroFoo('{"name":"bar","type":["int","string"],"default":42}'),
    ],
    [
      'a union default on its first member, a typeref after it',
      foo('{ "name": "bar", "type": [ "string", ⟪"int"⟫ ], "default": { "string": "abc" } }'),
      BOTH,
      avroFoo('{"name":"bar","type":["string","int"],"default":"abc"}'),
    ],
    [
      'a required union with null last and a default of the first member',
      foo('{ "name": "bar", "type": [ ⟪"int"⟫, "null" ], "default": { "int": 42 } }'),
      BOTH,
      avroFoo('{"name":"bar","type":["int","null"],"default":42}'),
    ],
    [
      'an optional union with null last (no default)',
      foo('{ "name": "bar", "type": [ ⟪"int"⟫, "null" ], "optional": true }'),
      BOTH,
      avroFoo('{"name":"bar","type":["null","int"],"default":null}'),
    ],
    [
      'an array of unions with a default of first members',
      foo(
        '{ "name": "bar", "type": ⟪{ "type": "array", "items": [ "int", "string" ] }⟫, "default": [ { "int": 42 }, { "int": 13 } ] }',
      ),
      BOTH,
      avroFoo('{"name":"bar","type":{"type":"array","items":["int","string"]},"default":[42,13]}'),
    ],
    [
      'an array of unions with null defaults',
      foo(
        '{ "name": "bar", "type": { "type": "array", "items": ⟪[ "null", "string" ]⟫ }, "default": [ null, null ] }',
      ),
      BOTH,
      avroFoo('{"name":"bar","type":{"type":"array","items":["null","string"]},"default":[null,null]}'),
    ],
    [
      'an optional array of unions with a default (TRANSLATE_DEFAULT)',
      foo(
        '{ "name": "bar", "type": ⟪{ "type": "array", "items": [ "int", "string" ] }⟫, "optional": true, "default": [ { "int": 42 } ] }',
      ),
      [TD],
      avroFoo('{"name":"bar","type":[{"type":"array","items":["int","string"]},"null"],"default":[42]}'),
    ],
    [
      'an optional array of unions with a default of another member (TRANSLATE_TO_NULL)',
      foo(
        '{ "name": "bar", "type": { "type": "array", "items": ⟪[ "int", "string" ]⟫ }, "optional": true, "default": [ { "string": "abc" } ] }',
      ),
      [TTN],
      avroFoo('{"name":"bar","type":["null",{"type":"array","items":["int","string"]}],"default":null}'),
    ],
    [
      'a map of unions with a default of first members',
      foo(
        '{ "name": "bar", "type": ⟪{ "type": "map", "values": [ "int", "string" ] }⟫, "default": { "m1": { "int": 42 } } }',
      ),
      BOTH,
      avroFoo('{"name":"bar","type":{"type":"map","values":["int","string"]},"default":{"m1":42}}'),
    ],
    [
      'an optional map of unions with a default (TRANSLATE_DEFAULT)',
      foo(
        '{ "name": "bar", "type": ⟪{ "type": "map", "values": [ "int", "string" ] }⟫, "optional": true, "default": { "m1": { "int": 42 } } }',
      ),
      [TD],
      avroFoo('{"name":"bar","type":[{"type":"map","values":["int","string"]},"null"],"default":{"m1":42}}'),
    ],
    [
      'an array of records with an empty default',
      foo(
        '{ "name": "f1", "type": { "type": "array", "items": { "type": "record", "name": "bar", "fields": [ { "name": "b1", "type": "int" } ] } }, "default": [] }',
      ),
      BOTH,
      avroFoo(
        '{"name":"f1","type":{"type":"array","items":{"type":"record","name":"bar","fields":[{"name":"b1","type":"int"}]}},"default":[]}',
      ),
    ],
    [
      'included fields come first and include is not written',
      '{ "type": "record", "name": "foo", "include": [ ⟪{ "type": "record", "name": "bar", "fields": [ { "name": "b1", "type": "int" } ] }⟫ ], "fields": [ { "name": "f1", "type": "double" } ] }',
      BOTH,
      avroFoo('{"name":"b1","type":"int"},{"name":"f1","type":"double"}'),
    ],
    [
      'a record included by several records',
      '{ "type": "record", "name": "foo", "include": [ ⟪{ "type": "record", "name": "bar", "fields": [ { "name": "b1", "type": "int", "optional": true } ] }⟫ ], "fields": [' +
        ' { "name": "f1", "type": { "type": "record", "name": "f1", "include": [ "bar" ], "fields": [] } },' +
        ' { "name": "f2", "type": { "type": "record", "name": "f2", "include": [ "bar" ], "fields": [] } } ] }',
      BOTH,
      avroFoo(
        '{"name":"b1","type":["null","int"],"default":null},' +
          '{"name":"f1","type":{"type":"record","name":"f1","fields":[{"name":"b1","type":["null","int"],"default":null}]}},' +
          '{"name":"f2","type":{"type":"record","name":"f2","fields":[{"name":"b1","type":["null","int"],"default":null}]}}',
      ),
    ],
    [
      'a record default lacking an optional field with a default, TRANSLATE_TO_NULL',
      '{ "type": "record", "name": "Bar", "fields": [ { "name": "barbara", "type": { "type": "record", "name": "Foo", "fields": [ { "name": "frank", "type": "string", "default": "abc", "optional": true } ] }, "default": {} } ] }',
      [TTN],
      '{"type":"record","name":"Bar","fields":[{"name":"barbara","type":{"type":"record","name":"Foo","fields":[{"name":"frank","type":["null","string"],"default":null}]},"default":{"frank":null}}]}',
    ],
    [
      'a record default lacking an optional field with a default, TRANSLATE_DEFAULT',
      '{ "type": "record", "name": "Bar", "fields": [ { "name": "barbara", "type": { "type": "record", "name": "Foo", "fields": [ { "name": "frank", "type": "string", "default": "abc", "optional": true } ] }, "default": {} } ] }',
      [TD],
      '{"type":"record","name":"Bar","fields":[{"name":"barbara","type":{"type":"record","name":"Foo","fields":[{"name":"frank","type":["string","null"],"default":"abc"}]},"default":{"frank":"abc"}}]}',
    ],
    [
      'a record default overrides the default of its field',
      foo(
        '{ "name": "foo1", "type": { "type": "record", "name": "bar", "fields": [ { "name": "bar1", "type": "string", "default": "abc", "optional": true } ] }, "optional": true, "default": { "bar1": "xyz" } }',
      ),
      [TD],
      avroFoo(
        '{"name":"foo1","type":[{"type":"record","name":"bar","fields":[{"name":"bar1","type":["string","null"],"default":"abc"}]},"null"],"default":{"bar1":"xyz"}}',
      ),
    ],
    [
      'a record default fills absent fields from their own defaults',
      '{ "type": "record", "name": "Outer", "namespace": "x", "fields": [ { "name": "f1", "type": { "type": "record", "name": "Inner", "namespace": "y", "fields": [' +
        ' { "name": "innerArray", "type": { "type": "array", "items": "string" }, "default": [], "optional": true },' +
        ' { "name": "innerMap", "type": { "type": "map", "values": "string" }, "default": {}, "optional": true },' +
        ' { "name": "innerInt", "type": "int", "default": 0 },' +
        ' { "name": "innerString", "type": "string", "default": "defaultValue", "optional": true } ] }, "default": {}, "optional": true } ] }',
      [TD],
      '{"type":"record","name":"Outer","namespace":"x","fields":[{"name":"f1","type":[{"type":"record","name":"Inner","namespace":"y","fields":[' +
        '{"name":"innerArray","type":[{"type":"array","items":"string"},"null"],"default":[]},' +
        '{"name":"innerMap","type":[{"type":"map","values":"string"},"null"],"default":{}},' +
        '{"name":"innerInt","type":"int","default":0},' +
        '{"name":"innerString","type":["string","null"],"default":"defaultValue"}]},"null"],' +
        '"default":{"innerArray":[],"innerMap":{},"innerInt":0,"innerString":"defaultValue"}}]}',
    ],
    [
      'float and double defaults are written as Java writes them',
      foo(
        '{ "name": "d", "type": "double", "default": 2 }, { "name": "e", "type": "double", "default": 12345678 }, { "name": "f", "type": "float", "default": 0.1 }, { "name": "l", "type": "long", "default": 9007199254740993 }',
      ),
      BOTH,
      avroFoo(
        '{"name":"d","type":"double","default":2.0},{"name":"e","type":"double","default":1.2345678E7},{"name":"f","type":"float","default":0.1},{"name":"l","type":"long","default":9007199254740993}',
      ),
    ],
    [
      'field properties are sorted, maps inside them too',
      '{ "type": "record", "name": "Foo", "fields": [ { "name": "field1", "type": "int", "c_annotation": { "b_nested": "a", "a_nested": "a" }, "b_annotation": "f1", "a_annotation": "f1" } ] }',
      BOTH,
      '{"type":"record","name":"Foo","fields":[{"name":"field1","type":"int","a_annotation":"f1","b_annotation":"f1","c_annotation":{"a_nested":"a","b_nested":"a"}}]}',
    ],
    [
      'docs, orders, aliases, deprecation and symbol docs are carried',
      '{ "type": "record", "name": "R", "doc": " Record doc ", "deprecated": "old", "aliases": [ "x.Old" ], "fields": [' +
        ' { "name": "e", "doc": "field doc", "order": "descending", "aliases": [ "ee" ], "deprecated": true,' +
        ' "type": { "type": "enum", "name": "E", "symbols": [ "A", "B" ], "symbolDocs": { "B": "b", "A": "a" }, "deprecatedSymbols": { "A": "gone" } } } ] }',
      BOTH,
      '{"type":"record","name":"R","doc":" Record doc ","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"],"symbolDocs":{"A":"a","B":"b"},"deprecatedSymbols":{"A":"gone"}},' +
        '"doc":"field doc","order":"descending","deprecated":true,"aliases":["ee"]}],"deprecated":"old","aliases":["x.Old"]}',
    ],
    [
      'a named type is written in full once, then by its name (short within its namespace)',
      '{ "type": "record", "name": "a.R", "fields": [ { "name": "x", "type": { "type": "fixed", "name": "F", "size": 1 } }, { "name": "y", "type": "F" },' +
        ' { "name": "z", "type": { "type": "record", "name": "b.S", "fields": [ { "name": "f", "type": "a.F" } ] } } ] }',
      BOTH,
      '{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":{"type":"fixed","name":"F","size":1}},{"name":"y","type":"F"},' +
        '{"name":"z","type":{"type":"record","name":"S","namespace":"b","fields":[{"name":"f","type":"a.F"}]}}]}',
    ],
  ];

  it.each(rows)('%s', (_label, text, modes, expected) => expectRow(text, modes, expected));

  it.each([
    [
      'a record',
      '{ "type": "record", "name": "Foo", "fields": [ { "name": "bar", "type": "int" } ] }',
      '{"type":"record","name":"Foo","fields":[{"name":"bar","type":"int"}]}',
    ],
    [
      'an enum',
      '{ "type": "enum", "name": "Fruits", "symbols": [ "APPLE", "ORANGE" ] }',
      '{"type":"enum","name":"Fruits","symbols":["APPLE","ORANGE"]}',
    ],
    ['a fixed', '{ "type": "fixed", "name": "Md5", "size": 16 }', '{"type":"fixed","name":"Md5","size":16}'],
    ['an array', '{ "type": "array", "items": "int" }', '{"type":"array","items":"int"}'],
    ['a map', '{ "type": "map", "values": "int" }', '{"type":"map","values":"int"}'],
    ['a union', '[ "null", "int" ]', '["null","int"]'],
  ])('dereferences a typeref of %s at the root', (_label, ref, expected) => {
    expectRow(`⟪${ref}⟫`, BOTH, expected);
  });

  it.each([
    ['an array', '{ "type": "array", "items": ⟪"int"⟫ }', '{"type":"array","items":"int"}'],
    ['a map', '{ "type": "map", "values": ⟪"int"⟫ }', '{"type":"map","values":"int"}'],
    ['a union', '[ "null", ⟪"int"⟫ ]', '["null","int"]'],
  ])('dereferences a typeref inside %s', (_label, text, expected) => expectRow(text, BOTH, expected));
});

describe('dataToAvroSchemaJson: unions with aliases', () => {
  const SUCCESS_FAILURE =
    '[ { "type": "string", "alias": "success", "doc": "Success message" }, { "type": "string", "alias": "failure", "doc": "Failure message" } ]';
  const MEMBERS = (successType: string, successDefault: string) =>
    `{"name":"success","type":${successType},"doc":"Success message","default":${successDefault}},` +
    '{"name":"failure","type":["null","string"],"doc":"Failure message","default":null}';
  const DISCRIMINATOR = (name: string, symbols: string) =>
    `{"name":"fieldDiscriminator","type":{"type":"enum","name":"${name}","symbols":[${symbols}]},"doc":"Contains the name of the field that has its value set."}`;
  const RESULT = (
    successType = '["null","string"]',
    successDefault = 'null',
    symbols = '"success","failure"',
  ) =>
    `{"type":"record","name":"fooResult","fields":[${MEMBERS(successType, successDefault)},${DISCRIMINATOR('fooResultDiscriminator', symbols)}]}`;
  const WITH_NULL = SUCCESS_FAILURE.replace('[ ', '[ "null", ');

  const rows: [string, string, readonly OptionalDefaultMode[], string][] = [
    [
      'a required field, no default',
      foo(`{ "name": "result", "type": ⟪${SUCCESS_FAILURE}⟫ }`),
      BOTH,
      avroFoo(`{"name":"result","type":${RESULT()}}`),
    ],
    [
      'a required field with a null member',
      foo(`{ "name": "result", "type": ${WITH_NULL} }`),
      BOTH,
      avroFoo(`{"name":"result","type":${RESULT(undefined, undefined, '"null","success","failure"')}}`),
    ],
    [
      'an optional field',
      foo(`{ "name": "result", "type": ${SUCCESS_FAILURE}, "optional": true }`),
      BOTH,
      avroFoo(`{"name":"result","type":["null",${RESULT()}],"default":null}`),
    ],
    [
      'an optional field with a null member',
      foo(`{ "name": "result", "type": ${WITH_NULL}, "optional": true }`),
      BOTH,
      avroFoo(
        `{"name":"result","type":["null",${RESULT(undefined, undefined, '"null","success","failure"')}],"default":null}`,
      ),
    ],
    [
      'a required field with a default',
      foo(
        `{ "name": "result", "type": ${SUCCESS_FAILURE}, "default": { "success": "Union with aliases." } }`,
      ),
      BOTH,
      avroFoo(
        `{"name":"result","type":${RESULT('["string","null"]', '"Union with aliases."')},"default":{"success":"Union with aliases.","failure":null,"fieldDiscriminator":"success"}}`,
      ),
    ],
    [
      'an optional field with a default (TRANSLATE_DEFAULT)',
      foo(
        `{ "name": "result", "type": ${SUCCESS_FAILURE}, "optional": true, "default": { "success": "Union with aliases." } }`,
      ),
      [TD],
      avroFoo(
        `{"name":"result","type":[${RESULT('["string","null"]', '"Union with aliases."')},"null"],"default":{"success":"Union with aliases.","failure":null,"fieldDiscriminator":"success"}}`,
      ),
    ],
    [
      'an optional field with a default (TRANSLATE_TO_NULL drops it)',
      foo(
        `{ "name": "result", "type": ${SUCCESS_FAILURE}, "optional": true, "default": { "success": "Union with aliases." } }`,
      ),
      [TTN],
      avroFoo(`{"name":"result","type":["null",${RESULT()}],"default":null}`),
    ],
    [
      'an optional field with a null member and a null default (TRANSLATE_DEFAULT)',
      foo(`{ "name": "result", "type": ${WITH_NULL}, "optional": true, "default": null }`),
      [TD],
      avroFoo(
        `{"name":"result","type":[${RESULT(undefined, undefined, '"null","success","failure"')},"null"],"default":{"success":null,"failure":null,"fieldDiscriminator":"null"}}`,
      ),
    ],
    [
      'two unions under records of different names get different record names',
      foo(
        '{ "name": "bar", "type": { "type": "record", "name": "Bar", "fields": [ { "name": "result", "type": [ { "type": "string", "alias": "resultUrn" } ] } ] } },' +
          ' { "name": "baz", "type": { "type": "record", "name": "Baz", "fields": [ { "name": "result", "type": [ { "type": "string", "alias": "resultUrn" } ] } ] } }',
      ),
      BOTH,
      avroFoo(
        '{"name":"bar","type":{"type":"record","name":"Bar","fields":[{"name":"result","type":{"type":"record","name":"BarResult","fields":[{"name":"resultUrn","type":["null","string"],"default":null},' +
          `${DISCRIMINATOR('BarResultDiscriminator', '"resultUrn"')}]}}]}},` +
          '{"name":"baz","type":{"type":"record","name":"Baz","fields":[{"name":"result","type":{"type":"record","name":"BazResult","fields":[{"name":"resultUrn","type":["null","string"],"default":null},' +
          `${DISCRIMINATOR('BazResultDiscriminator', '"resultUrn"')}]}}]}}`,
      ),
    ],
    [
      'a union whose record member has a union with aliases itself',
      foo(
        `{ "name": "result", "type": [ { "alias": "message", "type": { "type": "record", "name": "MessageRecord", "fields": [ { "name": "message", "type": ${SUCCESS_FAILURE} } ] } } ] }`,
      ),
      BOTH,
      avroFoo(
        '{"name":"result","type":{"type":"record","name":"fooResult","fields":[{"name":"message","type":["null",{"type":"record","name":"MessageRecord","fields":[' +
          `{"name":"message","type":{"type":"record","name":"MessageRecordMessage","fields":[${MEMBERS('["null","string"]', 'null')},${DISCRIMINATOR('MessageRecordMessageDiscriminator', '"success","failure"')}]}}]}],"default":null},` +
          `${DISCRIMINATOR('fooResultDiscriminator', '"message"')}]}}`,
      ),
    ],
    [
      'an array of them, the default dropped',
      foo(
        `{ "name": "results", "type": ⟪{ "type": "array", "items": ${SUCCESS_FAILURE} }⟫, "default": [ { "success": "ok" }, { "failure": "no" } ] }`,
      ),
      BOTH,
      avroFoo(
        `{"name":"results","type":{"type":"array","items":${RESULT().replace(/fooResult/g, 'fooResults')}}}`,
      ),
    ],
    [
      'an optional map of arrays of maps of them',
      foo(
        `{ "name": "results", "type": { "type": "map", "values": { "type": "array", "items": { "type": "map", "values": ${SUCCESS_FAILURE} } } }, "optional": true, "default": {} }`,
      ),
      BOTH,
      avroFoo(
        `{"name":"results","type":["null",{"type":"map","values":{"type":"array","items":{"type":"map","values":${RESULT().replace(/fooResult/g, 'fooResults')}}}}],"default":null}`,
      ),
    ],
    [
      'field properties stay on the field, merged with those of the typeref, and the union properties go to the record',
      '{ "type": "record", "name": "test", "fields": [ { "name": "unionTyperef", "compliance": { "/fieldDiscriminator": "NONE" },' +
        ' "type": { "type": "typeref", "name": "unionRefWithAlias", "compliance": { "/string": "NONE" }, "ref": [ { "alias": "a", "type": "int" }, { "alias": "b", "type": "string" } ] } } ] }',
      BOTH,
      '{"type":"record","name":"test","fields":[{"name":"unionTyperef","type":{"type":"record","name":"testUnionTyperef","fields":[' +
        '{"name":"a","type":["null","int"],"default":null},{"name":"b","type":["null","string"],"default":null},' +
        `${DISCRIMINATOR('testUnionTyperefDiscriminator', '"a","b"')}]},"compliance":{"/fieldDiscriminator":"NONE","/string":"NONE"}}]}`,
    ],
  ];

  it.each(rows)('%s', (_label, text, modes, expected) => expectRow(text, modes, expected));

  it('refuses a union with aliases where no record can replace it (the root), naming it', () => {
    expect(() =>
      toAvro('{ "type": "typeref", "name": "a.U", "ref": [ { "alias": "x", "type": "int" } ] }'),
    ).toThrow(
      "ERROR :: /a.U :: cannot translate a union with aliases that is not the type of a record field (or the item or value type of a field's array or map)",
    );
  });
});

describe('dataToAvroSchemaJson: properties of typerefs', () => {
  const TYPEREF =
    '{ "type": "typeref", "name": "Outer", "validate": { "v": 1 }, "shared": { "a": 1 }, "ref": { "type": "typeref", "name": "Inner", "java": { "class": "com.x.C" }, "inner": true, "ref": "string" } }';
  const text = `{ "type": "record", "name": "R", "fields": [ { "name": "f", "type": ${TYPEREF}, "shared": { "b": 2 }, "own": 3 } ] }`;

  it('merges the typeref chain onto the field (outer typeref first, the field winning, maps merged)', () => {
    expect(toAvro(text)).toBe(
      '{"type":"record","name":"R","fields":[{"name":"f","type":"string","inner":true,"java":{"class":"com.x.C"},"own":3,"shared":{"a":1,"b":2},"validate":{"v":1}}]}',
    );
  });

  it('leaves out the typeref properties named in typerefPropertiesExcludeSet', () => {
    expect(toAvro(text, { typerefPropertiesExcludeSet: ['validate', 'java'] })).toBe(
      '{"type":"record","name":"R","fields":[{"name":"f","type":"string","inner":true,"own":3,"shared":{"a":1,"b":2}}]}',
    );
  });

  it('never writes the reserved properties on fields', () => {
    const out = toAvro(
      '{ "type": "record", "name": "R", "fields": [ { "name": "f", "type": "int", "schema": 1, "optionalDefaultMode": 2, "translatedUnionMember": 3, "kept": 4 } ] }',
    );
    expect(out).toBe('{"type":"record","name":"R","fields":[{"name":"f","type":"int","kept":4}]}');
  });
});

describe('dataToAvroSchemaJson: errors', () => {
  const rows: [string, string, readonly OptionalDefaultMode[], string][] = [
    [
      'a recursive optional field whose default needs itself',
      foo('{ "name": "bar", "type": "foo", "default": {}, "optional": true }'),
      [TD],
      'cannot translate absent optional field (to have null value) because this field is optional and has a default value',
    ],
    [
      'the same, one level down',
      foo('{ "name": "bar", "type": "foo", "default": { "bar": {} }, "optional": true }'),
      [TD],
      'cannot translate absent optional field (to have null value) because this field is optional and has a default value',
    ],
    [
      'an optional union default of the second member',
      foo(
        '{ "name": "bar", "type": ⟪[ "int", "string" ]⟫, "default": { "string": "abc" }, "optional": true }',
      ),
      [TD],
      'cannot translate union value',
    ],
    [
      'an optional union default null, null not first',
      foo('{ "name": "bar", "type": ⟪[ "int", "null", "string" ]⟫, "default": null, "optional": true }'),
      [TD],
      'cannot translate union value null because its type is not the 1st member type of the union [ "int", "null", "string" ]',
    ],
    [
      'a recursive optional union default',
      foo('{ "name": "bar", "type": ⟪[ "foo", "string" ]⟫, "default": { "foo": {} }, "optional": true }'),
      [TD],
      'cannot translate absent optional field (to have null value) or field with non-null union value because this field is optional and has a non-null default value',
    ],
    [
      'a required union default of the second member',
      foo('{ "name": "bar", "type": [ "string", ⟪"int"⟫ ], "default": { "int": 42 } }'),
      BOTH,
      'cannot translate union value {int=42}',
    ],
    [
      'a required union default of a typeref member, not first',
      foo('{ "name": "bar", "type": [ ⟪"int"⟫, "string" ], "default": { "string": "abc" } }'),
      BOTH,
      'ERROR :: /foo/bar :: cannot translate union value {string=abc}',
    ],
    [
      'a required union default not null, null first',
      foo('{ "name": "bar", "type": [ "null", ⟪"int"⟫ ], "default": { "int": 42 } }'),
      BOTH,
      'cannot translate union value',
    ],
    [
      'a required union default null, null last',
      foo('{ "name": "bar", "type": [ ⟪"int"⟫, "null" ], "default": null }'),
      BOTH,
      'cannot translate union value',
    ],
    [
      'an array default with an item of the second member',
      foo(
        '{ "name": "bar", "type": ⟪{ "type": "array", "items": [ "int", "string" ] }⟫, "default": [ { "int": 42 }, { "string": "abc" } ] }',
      ),
      BOTH,
      'ERROR :: /foo/bar/1 :: cannot translate union value {string=abc}',
    ],
    [
      'a map default with a value of the second member',
      foo(
        '{ "name": "bar", "type": ⟪{ "type": "map", "values": [ "int", "string" ] }⟫, "default": { "m1": { "string": "abc" } } }',
      ),
      BOTH,
      'ERROR :: /foo/bar/m1 :: cannot translate union value',
    ],
    [
      'a record default giving a value to an optional field whose Avro union puts null first',
      foo(
        '{ "name": "foo1", "type": { "type": "record", "name": "bar", "fields": [ { "name": "bar1", "type": "string", "optional": true } ] }, "optional": true, "default": { "bar1": "US" } }',
      ),
      [TD],
      "cannot translate field because its default value's type is not the same as translated field's first union member's type",
    ],
  ];

  it.each(rows)('refuses %s', (_label, text, modes, message) => {
    for (const variant of typerefVariants(text)) {
      for (const optionalDefaultMode of modes) {
        for (const embedSchemaMode of [EmbedSchemaMode.NONE, EmbedSchemaMode.ROOT_ONLY]) {
          let caught: unknown;
          try {
            toAvro(variant, { optionalDefaultMode, embedSchemaMode, style: AvroJsonStyle.SPACES });
          } catch (err) {
            caught = err;
          }
          expect(isSvcError(caught, 'SchemaTranslationError', 'SVC_ERR_AVRO_SCHEMA_TRANSLATION')).toBe(true);
          expect((caught as Error).message).toContain(message);
          expect((caught as Error).message).toMatch(/^ERROR :: \/\S+ :: /);
        }
      }
    }
  });

  it('refuses unknown option values', () => {
    let caught: unknown;
    try {
      toAvro(foo(''), { style: 'PRETTY' as AvroJsonStyle });
    } catch (err) {
      caught = err;
    }
    expect(isSvcError(caught, 'AvroOptionsError', 'SVC_ERR_AVRO_BAD_OPTIONS')).toBe(true);
    expect((caught as Error).message).toBe(
      'unknown JSON style "PRETTY"; expected one of COMPACT, SPACES, INDENTED',
    );
  });
});

describe('dataToAvroSchemaJson: options', () => {
  it.each([
    [
      'no namespace',
      '{ "type": "record", "name": "foo", "fields": [ { "name": "bar", "type": "int" } ] }',
      '{ "type" : "record", "name" : "foo", "namespace" : "avro", "fields" : [ { "name" : "bar", "type" : "int" } ] }',
    ],
    [
      'a namespace in the name',
      '{ "type": "record", "name": "x.y.foo", "fields": [ { "name": "bar", "type": "int" } ] }',
      '{ "type" : "record", "name" : "foo", "namespace" : "avro.x.y", "fields" : [ { "name" : "bar", "type" : "int" } ] }',
    ],
    [
      'a namespace attribute',
      '{ "type": "record", "name": "foo", "namespace": "x.y", "fields": [ { "name": "bar", "type": "int" } ] }',
      '{ "type" : "record", "name" : "foo", "namespace" : "avro.x.y", "fields" : [ { "name" : "bar", "type" : "int" } ] }',
    ],
    [
      'references to a type defined inline',
      '{ "type": "record", "name": "foo", "namespace": "x.y", "fields": [ { "name": "bar", "type": "int" },' +
        ' { "name": "FirstPost", "type": { "type": "record", "name": "Date", "namespace": "x.y", "fields": [ { "name": "day", "type": "int" }, { "name": "month", "type": "int" }, { "name": "year", "type": "int" } ] } },' +
        ' { "name": "SecondPost", "type": "Date" }, { "name": "LastPost", "type": "x.y.Date" } ] }',
      '{ "type" : "record", "name" : "foo", "namespace" : "avro.x.y", "fields" : [ { "name" : "bar", "type" : "int" },' +
        ' { "name" : "FirstPost", "type" : { "type" : "record", "name" : "Date", "fields" : [ { "name" : "day", "type" : "int" }, ' +
        '{ "name" : "month", "type" : "int" }, { "name" : "year", "type" : "int" } ] } },' +
        ' { "name" : "SecondPost", "type" : "avro.x.y.Date" }, { "name" : "LastPost", "type" : "avro.x.y.Date" } ] }',
    ],
  ])('overrideNamespace prefixes every namespace with avro: %s', (_label, text, expected) => {
    const out = toAvro(text, { style: AvroJsonStyle.SPACES, overrideNamespace: true });
    expect(out).toBe(expected);
    expectAvscAccepts(out);
  });

  it.each([
    [
      'a property that is not a map is replaced',
      ', "com.linkedin.data": 1',
      '{ "schema" : SCHEMA, "optionalDefaultMode" : "TRANSLATE_DEFAULT" }',
    ],
    [
      'an empty map',
      ', "com.linkedin.data": {}',
      '{ "schema" : SCHEMA, "optionalDefaultMode" : "TRANSLATE_DEFAULT" }',
    ],
    [
      'its other keys are kept',
      ', "com.linkedin.data": { "extra": 2 }',
      '{ "schema" : SCHEMA, "optionalDefaultMode" : "TRANSLATE_DEFAULT", "extra" : 2 }',
    ],
    [
      'a reserved "schema" key is replaced',
      ', "com.linkedin.data": { "schema": 2 }',
      '{ "schema" : SCHEMA, "optionalDefaultMode" : "TRANSLATE_DEFAULT" }',
    ],
    [
      'a reserved "optionalDefaultMode" key is replaced',
      ', "com.linkedin.data": { "optionalDefaultMode": 2 }',
      '{ "schema" : SCHEMA, "optionalDefaultMode" : "TRANSLATE_DEFAULT" }',
    ],
  ])(
    'ROOT_ONLY embeds the schema under com.linkedin.data, when the root already has one: %s',
    (_label, extra, data) => {
      const text = foo('{ "name": "bar", "type": "int" }', extra);
      const out = toAvro(text, { style: AvroJsonStyle.SPACES, embedSchemaMode: EmbedSchemaMode.ROOT_ONLY });
      const schema = toAvroSpacedPegasus(text);
      expect(out).toBe(
        `{ "type" : "record", "name" : "foo", "fields" : [ { "name" : "bar", "type" : "int" } ], "com.linkedin.data" : ${data.replace('SCHEMA', schema)} }`,
      );
    },
  );

  it('ROOT_ONLY embeds nothing in a union or primitive root', () => {
    expect(toAvro('[ "int", "string" ]', { embedSchemaMode: EmbedSchemaMode.ROOT_ONLY })).toBe(
      '["int","string"]',
    );
    expect(
      toAvro('{ "type": "typeref", "name": "T", "ref": "int" }', {
        embedSchemaMode: EmbedSchemaMode.ROOT_ONLY,
      }),
    ).toBe('"int"');
  });

  it('embeds the dereferenced schema of a typeref root, and only at the root', () => {
    const out = toAvro(
      '{ "type": "typeref", "name": "T", "ref": { "type": "array", "items": { "type": "record", "name": "R", "fields": [] } } }',
      { embedSchemaMode: EmbedSchemaMode.ROOT_ONLY },
    );
    expect(out).toBe(
      '{"type":"array","items":{"type":"record","name":"R","fields":[]},"com.linkedin.data":{"schema":{"type":"array","items":{"type":"record","name":"R","fields":[]}},"optionalDefaultMode":"TRANSLATE_DEFAULT"}}',
    );
  });

  it('writes the three JSON styles as Jackson does', () => {
    const text = foo(
      '{ "name": "a", "type": { "type": "array", "items": "int" }, "default": [] }, { "name": "m", "type": { "type": "map", "values": "int" }, "default": {} }',
    );
    expect(toAvro(text, { style: AvroJsonStyle.COMPACT })).toBe(
      '{"type":"record","name":"foo","fields":[{"name":"a","type":{"type":"array","items":"int"},"default":[]},{"name":"m","type":{"type":"map","values":"int"},"default":{}}]}',
    );
    expect(toAvro(text, { style: AvroJsonStyle.SPACES })).toBe(
      '{ "type" : "record", "name" : "foo", "fields" : [ { "name" : "a", "type" : { "type" : "array", "items" : "int" }, "default" : [  ] }, { "name" : "m", "type" : { "type" : "map", "values" : "int" }, "default" : {  } } ] }',
    );
    expect(toAvro(text, { style: AvroJsonStyle.INDENTED })).toBe(
      [
        '{',
        '  "type" : "record",',
        '  "name" : "foo",',
        '  "fields" : [ {',
        '    "name" : "a",',
        '    "type" : {',
        '      "type" : "array",',
        '      "items" : "int"',
        '    },',
        '    "default" : [ ]',
        '  }, {',
        '    "name" : "m",',
        '    "type" : {',
        '      "type" : "map",',
        '      "values" : "int"',
        '    },',
        '    "default" : { }',
        '  } ]',
        '}',
      ].join('\n'),
    );
  });

  it('writes an explicit Avro override in full once, then by its full name', () => {
    const AVRO =
      '{ "schema": { "type": "record", "name": "AnyRecord", "namespace": "x", "fields": [ { "name": "type", "type": "string" }, { "name": "value", "type": "string" } ] }, "translator": { "class": "com.x.AnyRecordTranslator" } }';
    const out = toAvro(
      foo(
        `{ "name": "a", "type": { "type": "record", "name": "Any", "fields": [ { "name": "u", "type": [ { "alias": "p", "type": "int" } ] } ], "avro": ${AVRO} } }, { "name": "b", "type": "Any", "optional": true }`,
      ),
    );
    expect(out).toBe(
      avroFoo(
        '{"name":"a","type":{"type":"record","name":"AnyRecord","namespace":"x","fields":[{"name":"type","type":"string"},{"name":"value","type":"string"}]}},' +
          '{"name":"b","type":["null","x.AnyRecord"],"default":null}',
      ),
    );
    expectAvscAccepts(out);
  });

  it.each([
    ['not a map', '1', 'Any has "avro" property whose value is not a JSON object'],
    [
      'a schema without a name',
      '{ "schema": {}, "translator": { "class": "C" } }',
      '"name" property of "schema" property is required',
    ],
    [
      'a schema without a translator',
      '{ "schema": { "name": "N" } }',
      'both "translator" and "schema" properties of "avro" are required if either is present',
    ],
    [
      'a translator without a class',
      '{ "schema": { "name": "N" }, "translator": {} }',
      '"class" property of "translator" property is required',
    ],
    [
      'a bad namespace',
      '{ "schema": { "name": "N", "namespace": "1x" }, "translator": { "class": "C" } }',
      '1x is not a valid namespace',
    ],
  ])('refuses an Avro override that is %s', (_label, avro, message) => {
    expect(() =>
      toAvro(
        foo(`{ "name": "a", "type": { "type": "record", "name": "Any", "fields": [], "avro": ${avro} } }`),
      ),
    ).toThrow(message);
  });
});

describe('dataToAvroSchemaJson over the fixture tree', () => {
  const { tops } = fixtureTree();

  it.each(tops.map((s) => [fullName(s), s] as const))('%s', (name, schema) => {
    const reason = UNTRANSLATABLE.get(name);
    for (const optionalDefaultMode of BOTH) {
      for (const defaultFieldTranslationMode of [
        DefaultFieldTranslationMode.TRANSLATE,
        DefaultFieldTranslationMode.DO_NOT_TRANSLATE,
      ]) {
        const options = {
          optionalDefaultMode,
          defaultFieldTranslationMode,
          embedSchemaMode: EmbedSchemaMode.ROOT_ONLY,
        };
        if (
          reason === 'always' ||
          (reason !== undefined && defaultFieldTranslationMode === DefaultFieldTranslationMode.TRANSLATE)
        ) {
          expect(() => SchemaTranslator.dataToAvroSchemaJson(schema, options)).toThrow(/^ERROR :: \/\S+ :: /);
          continue;
        }
        const out = SchemaTranslator.dataToAvroSchemaJson(schema, options);
        expectAvscAccepts(out);
        // translating back returns the embedded schema (verified only where the mode is recorded: TRANSLATE)
        const mode =
          defaultFieldTranslationMode === DefaultFieldTranslationMode.TRANSLATE
            ? 'VERIFY_EMBEDDED_SCHEMA'
            : 'RETURN_EMBEDDED_SCHEMA';
        expect(
          SchemaTranslator.avroToDataSchema(out, { translationMode: mode }).equals(
            schema.getDereferencedSchema(),
          ),
        ).toBe(true);
        expect(() => SchemaTranslator.avroToDataSchema(out, { translationMode: 'TRANSLATE' })).not.toThrow();
      }
    }
  });
});

/** Our canonical JSON of a schema in the SPACES layout, as it is embedded (no strings here hold `": `). */
function toAvroSpacedPegasus(text: string): string {
  return JSON.stringify(JSON.parse(parse(text).toString()), null, 1)
    .replace(/\n\s*/g, ' ')
    .replace(/\[\]/g, '[  ]')
    .replace(/\{\}/g, '{  }')
    .replace(/": /g, '" : ');
}
