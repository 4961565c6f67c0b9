import { join } from 'node:path';
import {
  AvroToDataSchemaTranslationMode,
  EmbedSchemaMode,
  JsonCodec,
  OptionalDefaultMode,
  SchemaTranslator,
  isSvcError,
  type AvroToDataSchemaTranslationOptions,
  type DataMap,
  type DataSchema,
} from '../../../src';
import {
  avroFoo,
  expectAvscAccepts,
  fixtureTree,
  foo,
  parse,
  UNTRANSLATABLE,
  fullName,
} from './avro-test-support';

const AVSC = join(__dirname, 'fixtures');
const MODES = Object.values(AvroToDataSchemaTranslationMode);
const json = new JsonCodec();

function fromAvro(text: string, options: AvroToDataSchemaTranslationOptions = {}): DataSchema {
  return SchemaTranslator.avroToDataSchema(text, options);
}

function caught(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected an error');
}

describe('avroToDataSchema: unions with null become optional fields (§8.4)', () => {
  const rows: [string, string, string][] = [
    ['a required field', avroFoo('{"name":"bar","type":"int"}'), foo('{ "name": "bar", "type": "int" }')],
    [
      'a required field with a default',
      avroFoo('{"name":"bar","type":"int","default":42}'),
      foo('{ "name": "bar", "type": "int", "default": 42 }'),
    ],
    [
      'a union of one member, no null',
      avroFoo('{"name":"bar","type":["int"]}'),
      foo('{ "name": "bar", "type": [ "int" ] }'),
    ],
    [
      'a union of three members, no null',
      avroFoo('{"name":"bar","type":["int","string","boolean"]}'),
      foo('{ "name": "bar", "type": [ "int", "string", "boolean" ] }'),
    ],
    [
      'a union of null only: an empty optional union',
      avroFoo('{"name":"bar","type":["null"]}'),
      foo('{ "name": "bar", "type": [], "optional": true }'),
    ],
    [
      '["null", T]: optional T',
      avroFoo('{"name":"bar","type":["null","int"]}'),
      foo('{ "name": "bar", "type": "int", "optional": true }'),
    ],
    [
      '["null", T] with a null default: the default goes',
      avroFoo('{"name":"bar","type":["null","int"],"default":null}'),
      foo('{ "name": "bar", "type": "int", "optional": true }'),
    ],
    [
      '[T, "null"] with a default: optional T with it',
      avroFoo('{"name":"bar","type":["int","null"],"default":42}'),
      foo('{ "name": "bar", "type": "int", "default": 42, "optional": true }'),
    ],
    [
      'a namespaced fixed with a default',
      '{"type":"record","name":"a.b.foo","fields":[{"name":"bar","type":[{"type":"fixed","name":"a.c.baz","size":1},"null"],"default":"1"}]}',
      '{ "type": "record", "name": "a.b.foo", "fields": [ { "name": "bar", "type": { "type": "fixed", "name": "a.c.baz", "size": 1 }, "default": "1", "optional": true } ] }',
    ],
    [
      'a recursive record default: null fields of optional fields go',
      '{"type":"record","name":"foo","namespace":"a.b","fields":[{"name":"bar","type":["foo","null"],"default":{"bar":{"bar":null}}}]}',
      '{ "type": "record", "name": "foo", "namespace": "a.b", "fields": [ { "name": "bar", "type": "foo", "default": { "bar": {} }, "optional": true } ] }',
    ],
    [
      '["null", A, B]: optional union[A, B]',
      avroFoo('{"name":"bar","type":["null","int","string"]}'),
      foo('{ "name": "bar", "type": [ "int", "string" ], "optional": true }'),
    ],
    [
      '[A, "null", B] with a default: the member key comes back',
      avroFoo('{"name":"bar","type":["int","null","string"],"default":42}'),
      foo('{ "name": "bar", "type": [ "int", "string" ], "default": { "int": 42 }, "optional": true }'),
    ],
    [
      'a union default of a record member gets its full name as key',
      '{"type":"record","name":"a.b.c.foo","fields":[{"name":"fooField","type":[{"type":"record","name":"x.y.z.bar","fields":[{"name":"barField","type":"string"}]},"int"],"default":{"barField":"inlined"}}]}',
      '{ "type": "record", "name": "a.b.c.foo", "fields": [ { "name": "fooField", "type": [ { "type": "record", "name": "x.y.z.bar", "fields": [ { "name": "barField", "type": "string" } ] }, "int" ], "default": { "x.y.z.bar": { "barField": "inlined" } } } ] }',
    ],
    [
      'an array default of union items',
      avroFoo('{"name":"bar","type":{"type":"array","items":["int","string"]},"default":[42,13]}'),
      foo(
        '{ "name": "bar", "type": { "type": "array", "items": [ "int", "string" ] }, "default": [ { "int": 42 }, { "int": 13 } ] }',
      ),
    ],
    [
      'an array default of null items',
      avroFoo('{"name":"bar","type":{"type":"array","items":["null","string"]},"default":[null,null]}'),
      foo(
        '{ "name": "bar", "type": { "type": "array", "items": [ "null", "string" ] }, "default": [ null, null ] }',
      ),
    ],
    [
      'an optional array of unions',
      avroFoo('{"name":"bar","type":["null",{"type":"array","items":["int","string"]}],"default":null}'),
      foo('{ "name": "bar", "type": { "type": "array", "items": [ "int", "string" ] }, "optional": true }'),
    ],
    [
      'an optional array of unions with a default',
      avroFoo('{"name":"bar","type":[{"type":"array","items":["int","string"]},"null"],"default":[42,13]}'),
      foo(
        '{ "name": "bar", "type": { "type": "array", "items": [ "int", "string" ] }, "default": [ { "int": 42 }, { "int": 13 } ], "optional": true }',
      ),
    ],
    [
      'a map default of union values',
      avroFoo('{"name":"bar","type":{"type":"map","values":["int","string"]},"default":{"m1":42}}'),
      foo(
        '{ "name": "bar", "type": { "type": "map", "values": [ "int", "string" ] }, "default": { "m1": { "int": 42 } } }',
      ),
    ],
    [
      'an optional map of unions with a default',
      avroFoo('{"name":"bar","type":[{"type":"map","values":["int","string"]},"null"],"default":{"m1":42}}'),
      foo(
        '{ "name": "bar", "type": { "type": "map", "values": [ "int", "string" ] }, "default": { "m1": { "int": 42 } }, "optional": true }',
      ),
    ],
    [
      'a union inside a record default gets its member key too',
      avroFoo(
        '{"name":"r","type":{"type":"record","name":"In","fields":[{"name":"u","type":["long","string"]},{"name":"o","type":["null","int"],"default":null}]},"default":{"u":5,"o":null}}',
      ),
      foo(
        '{ "name": "r", "type": { "type": "record", "name": "In", "fields": [ { "name": "u", "type": [ "long", "string" ] }, { "name": "o", "type": "int", "optional": true } ] }, "default": { "u": { "long": 5 } } }',
      ),
    ],
    [
      'a record translated from a union with aliases stays a record',
      avroFoo(
        '{"name":"result","type":{"type":"record","name":"fooResult","fields":[{"name":"success","type":["string","null"],"doc":"Success message","default":"Union with aliases."},' +
          '{"name":"failure","type":["null","string"],"doc":"Failure message","default":null},' +
          '{"name":"fieldDiscriminator","type":{"type":"enum","name":"fooResultDiscriminator","symbols":["success","failure"]},"doc":"Contains the name of the field that has its value set."}]},' +
          '"default":{"fieldDiscriminator":"success","success":"Union with aliases.","failure":null}}',
      ),
      foo(
        '{ "name": "result", "type": { "type": "record", "name": "fooResult", "fields": [ { "name": "success", "type": "string", "doc": "Success message", "default": "Union with aliases.", "optional": true },' +
          ' { "name": "failure", "type": "string", "doc": "Failure message", "optional": true },' +
          ' { "name": "fieldDiscriminator", "type": { "type": "enum", "name": "fooResultDiscriminator", "symbols": [ "success", "failure" ] }, "doc": "Contains the name of the field that has its value set." } ] },' +
          ' "default": { "success": "Union with aliases.", "fieldDiscriminator": "success" } }',
      ),
    ],
    [
      'a record with a self-referring alias',
      '{"type":"record","namespace":"com.linkedin","name":"Foo","fields":[{"name":"bar","type":"int"}],"aliases":["com.linkedin.Foo"]}',
      '{ "type": "record", "namespace": "com.linkedin", "name": "Foo", "fields": [ { "name": "bar", "type": "int" } ], "aliases": [ "com.linkedin.Foo" ] }',
    ],
    [
      'docs, orders, field aliases and custom properties are kept',
      '{"type":"record","name":"R","doc":"d","fields":[{"name":"f","type":{"type":"enum","name":"E","symbols":["A"],"symbolDocs":{"A":"a"}},"doc":"fd","order":"descending","aliases":["g"],"compliance":"NONE"}],"version":10}',
      '{ "type": "record", "name": "R", "doc": "d", "fields": [ { "name": "f", "type": { "type": "enum", "name": "E", "symbols": [ "A" ], "symbolDocs": { "A": "a" } }, "doc": "fd", "order": "descending", "aliases": [ "g" ], "compliance": "NONE" } ], "version": 10 }',
    ],
    [
      'a long default beyond 2^53 stays exact',
      avroFoo('{"name":"l","type":["long","null"],"default":9223372036854775807}'),
      foo('{ "name": "l", "type": "long", "default": 9223372036854775807, "optional": true }'),
    ],
    ['a primitive', '"string"', '"string"'],
    [
      'an error record',
      '{"type":"error","name":"E","fields":[]}',
      '{ "type": "error", "name": "E", "fields": [] }',
    ],
  ];

  it.each(rows)('%s', (_label, avro, expected) => {
    for (const translationMode of MODES) {
      const schema = fromAvro(avro, { translationMode });
      expect(schema.equals(parse(expected))).toBe(true);
      expect(SchemaTranslator.avroToDataSchemaJson(avro, { translationMode })).toBe(
        parse(expected).toString(),
      );
    }
  });
});

describe('avroToDataSchema: embedded schemas and translation modes', () => {
  const EMBEDDED_ONLY =
    '{"type":"record","name":"foo","fields":[],"com.linkedin.data":{"schema":{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}]},"optionalDefaultMode":"TRANSLATE_DEFAULT"}}';
  const MATCHING =
    '{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}],"com.linkedin.data":{"schema":{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}]},"optionalDefaultMode":"TRANSLATE_DEFAULT"}}';
  const FROM_UNION =
    '{"type":"record","name":"foo","fields":[{"name":"result","type":{"type":"record","name":"fooResult","fields":[{"name":"success","type":["null","string"],"default":null},' +
    '{"name":"fieldDiscriminator","type":{"type":"enum","name":"fooResultDiscriminator","symbols":["success"]},"doc":"Contains the name of the field that has its value set."}]}}],' +
    '"com.linkedin.data":{"schema":{"type":"record","name":"foo","fields":[{"name":"result","type":[{"alias":"success","type":"string"}]}]},"optionalDefaultMode":"TRANSLATE_DEFAULT"}}';

  it('TRANSLATE ignores the embedded schema and keeps the property', () => {
    expect(fromAvro(MATCHING, { translationMode: 'TRANSLATE' }).toString()).toBe(
      '{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}],"com.linkedin.data":{"schema":{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}]},"optionalDefaultMode":"TRANSLATE_DEFAULT"}}',
    );
    expect(fromAvro('{"type":"record","name":"foo","fields":[],"com.linkedin.data":{}}').toString()).toBe(
      '{"type":"record","name":"foo","fields":[],"com.linkedin.data":{}}',
    );
  });

  it('RETURN_EMBEDDED_SCHEMA (the default) returns the embedded schema unchecked', () => {
    expect(fromAvro(EMBEDDED_ONLY).toString()).toBe(
      '{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}]}',
    );
    expect(fromAvro(FROM_UNION).toString()).toBe(
      '{"type":"record","name":"foo","fields":[{"name":"result","type":[{"alias":"success","type":"string"}]}]}',
    );
  });

  it('VERIFY_EMBEDDED_SCHEMA returns the embedded schema when it translates to the Avro schema', () => {
    expect(fromAvro(MATCHING, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' }).toString()).toBe(
      '{"type":"record","name":"foo","fields":[{"name":"bar","type":"int"}]}',
    );
    expect(fromAvro(FROM_UNION, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' }).toString()).toBe(
      '{"type":"record","name":"foo","fields":[{"name":"result","type":[{"alias":"success","type":"string"}]}]}',
    );
  });

  it('VERIFY_EMBEDDED_SCHEMA ignores docs, attribute order and short names when comparing', () => {
    const avro =
      '{"name":"foo","type":"record","doc":"other doc","namespace":"a","fields":[{"type":{"type":"fixed","size":1,"name":"F"},"name":"x"},{"name":"y","type":"a.F"}],' +
      '"com.linkedin.data":{"optionalDefaultMode":"TRANSLATE_DEFAULT","schema":{"type":"record","name":"a.foo","fields":[{"name":"x","type":{"type":"fixed","name":"F","size":1}},{"name":"y","type":"F"}]}}}';
    expect(fromAvro(avro, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' }).toString()).toBe(
      '{"type":"record","name":"foo","namespace":"a","fields":[{"name":"x","type":{"type":"fixed","name":"F","size":1}},{"name":"y","type":"a.F"}]}',
    );
  });

  it('VERIFY_EMBEDDED_SCHEMA refuses an embedded schema that does not match', () => {
    const err = caught(() => fromAvro(EMBEDDED_ONLY, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' }));
    expect(isSvcError(err, 'SchemaTranslationError', 'SVC_ERR_AVRO_EMBEDDED_SCHEMA')).toBe(true);
    expect(err.message).toBe(`Embedded schema does not translate to input Avro schema: ${EMBEDDED_ONLY}`);
  });

  it('refuses an invalid embedded schema, and a verified one without a known mode', () => {
    const bad =
      '{"type":"record","name":"foo","fields":[],"com.linkedin.data":{"schema":{"type":"record","name":"foo"},"optionalDefaultMode":"TRANSLATE_DEFAULT"}}';
    const err = caught(() => fromAvro(bad));
    expect(err.code).toBe('SVC_ERR_AVRO_EMBEDDED_SCHEMA');
    expect(err.message).toMatch(/^Embedded schema is invalid\n/);
    const noMode =
      '{"type":"record","name":"foo","fields":[],"com.linkedin.data":{"schema":{"type":"record","name":"foo","fields":[]}}}';
    expect(fromAvro(noMode).toString()).toBe('{"type":"record","name":"foo","fields":[]}');
    expect(caught(() => fromAvro(noMode, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' })).code).toBe(
      'SVC_ERR_AVRO_EMBEDDED_SCHEMA',
    );
  });
});

describe('avroToDataSchema: named schemas from .avsc files', () => {
  it('reads the named schemas a text refers to from the resolution path, cycles included', () => {
    const head = fromAvro(
      '{ "type": "record", "name": "Start", "namespace": "org.example.chain", "fields": [ { "name": "h", "type": "Head" } ] }',
      {
        translationMode: 'TRANSLATE',
        fileResolutionPaths: [join(AVSC, 'nowhere'), AVSC],
      },
    );
    expect(head.toString()).toBe(
      parse(
        '{ "type": "record", "name": "org.example.chain.Start", "fields": [ { "name": "h", "type": { "type": "record", "name": "Head", "doc": "Refers to Link and Tail, which live in their own files.", "fields": [' +
          ' { "name": "next", "type": [ { "type": "record", "name": "Link", "fields": [ { "name": "back", "type": [ "Head", { "type": "record", "name": "Tail", "fields": [ { "name": "count", "type": "int", "default": 42, "optional": true } ] } ] } ] }, "Tail" ] } ] } } ] }',
      ).toString(),
    );
  });

  it('takes the path as a colon-separated string too', () => {
    const s = fromAvro('"org.example.chain.Tail"', { fileResolutionPaths: `/nonexistent:${AVSC}` });
    expect(s.toString()).toBe(
      '{"type":"record","name":"Tail","namespace":"org.example.chain","fields":[{"name":"count","type":"int","default":42,"optional":true}]}',
    );
  });

  it('names the files it looked for when a name is defined nowhere', () => {
    const err = caught(() =>
      fromAvro(
        '{ "type": "record", "name": "R", "namespace": "x", "fields": [ { "name": "f", "type": "Missing" } ] }',
        { fileResolutionPaths: [AVSC] },
      ),
    );
    expect(err.code).toBe('SVC_ERR_AVRO_SCHEMA_PARSE');
    expect(err.message).toBe(
      `/fields/0/type: type "Missing" is not defined (looked for ${join(AVSC, 'x/Missing.avsc')}, ${join(AVSC, 'Missing.avsc')})`,
    );
    expect(caught(() => fromAvro('"a.B"')).message).toBe('type "a.B" is not defined');
  });

  it('reads through the given file system, and reports a file that is not JSON', () => {
    const file = join('/avsc', 'org/example/Bad.avsc');
    const fileSystem = {
      readFile: (p: string) => (p === file ? '{ "type": "record", "name": "Bad", "fields": [' : ''),
      isFile: (p: string) => p === file,
      isDirectory: (p: string) => p === '/avsc',
      readDir: () => [],
    };
    const err = caught(() => fromAvro('"org.example.Bad"', { fileResolutionPaths: ['/avsc'], fileSystem }));
    expect(err.code).toBe('SVC_ERR_AVRO_SCHEMA_PARSE');
    expect(err.message).toMatch(/^\/avsc\/org\/example\/Bad\.avsc: Unexpected end of input/);
  });
});

describe('avroToDataSchema: errors', () => {
  it.each([
    [
      'a default not of the first member',
      '{"type":"record","name":"R2","fields":[{"name":"u","type":["null","int"],"default":3}]}',
      'Default value 3 of field "u" declared in record "R2" failed validation.\nERROR ::  :: 3 cannot be coerced to Null',
    ],
    [
      'a string default for an int',
      avroFoo('{"name":"i","type":"int","default":"x"}'),
      'Default value x of field "i" declared in record "foo" failed validation.\nERROR ::  :: x cannot be coerced to Integer',
    ],
    [
      'an unknown enum symbol',
      avroFoo('{"name":"e","type":{"type":"enum","name":"E","symbols":["A"]},"default":"C"}'),
      'ERROR ::  :: "C" is not an enum symbol',
    ],
    [
      'a fixed default of the wrong size',
      avroFoo('{"name":"f","type":{"type":"fixed","name":"F","size":2},"default":"abc"}'),
      'ERROR ::  :: "abc" length (3) is inconsistent with expected fixed size of 2',
    ],
    [
      'a record default missing a field without a default',
      avroFoo(
        '{"name":"r","type":{"type":"record","name":"In","fields":[{"name":"x","type":"int"}]},"default":{}}',
      ),
      'ERROR :: /x :: field is required but not found and has no default value',
    ],
    [
      'a null default for a union without null',
      avroFoo('{"name":"u","type":["int","string"],"default":null}'),
      'ERROR ::  :: null is not a member type of union [ "int", "string" ]',
    ],
    [
      'a bytes default above U+00FF',
      avroFoo('{"name":"b","type":"bytes","default":"Ā"}'),
      'ERROR ::  :: "Ā" is not a valid string representation of bytes',
    ],
    [
      'an item of an array default',
      avroFoo('{"name":"a","type":{"type":"array","items":"long"},"default":[1,"two"]}'),
      'ERROR :: /1 :: two cannot be coerced to Long',
    ],
  ])('refuses %s, in the validator’s words', (_label, avro, message) => {
    const err = caught(() => fromAvro(avro));
    expect(isSvcError(err, 'SchemaTranslationError', 'SVC_ERR_AVRO_SCHEMA_PARSE')).toBe(true);
    expect(err.message).toContain(message);
  });

  it.each([
    ['text that is not JSON', '{"type":', /^the Avro schema is not JSON: /],
    ['a schema object without a type', '{"name":"x"}', /a schema object must have a "type"/],
    ['a record without fields', '{"type":"record","name":"R"}', /a record schema must have a "fields" array/],
    [
      'a name defined twice',
      avroFoo(
        '{"name":"a","type":{"type":"fixed","name":"F","size":1}},{"name":"b","type":{"type":"fixed","name":"F","size":1}}',
      ),
      /\/fields\/1\/type: "F" is defined more than once/,
    ],
    [
      'an enum without symbols',
      '{"type":"enum","name":"E"}',
      /an enum schema must have a "symbols" array of strings/,
    ],
    [
      'a fixed without a size',
      '{"type":"fixed","name":"F"}',
      /a fixed schema must have a non-negative integer "size"/,
    ],
    [
      'a translation our parser refuses (a union inside a union)',
      '[["int"]]',
      /^the Avro schema does not translate to a valid schema:\n/,
    ],
  ])('refuses %s', (_label, avro, message) => {
    const err = caught(() => fromAvro(avro, { translationMode: 'TRANSLATE' }));
    expect(err.code).toBe('SVC_ERR_AVRO_SCHEMA_PARSE');
    expect(err.message).toMatch(message);
  });

  it('refuses an unknown mode', () => {
    expect(
      caught(() => fromAvro('"int"', { translationMode: 'GUESS' as AvroToDataSchemaTranslationMode })).code,
    ).toBe('SVC_ERR_AVRO_BAD_OPTIONS');
  });
});

describe('round trips', () => {
  const AVRO = [
    avroFoo(
      '{"name":"a","type":"int"},{"name":"b","type":["null","string"],"default":null},{"name":"c","type":["long","null"],"default":5}',
    ),
    avroFoo(
      '{"name":"u","type":["int","string"],"default":1},{"name":"o","type":["null","int","string"],"default":null},{"name":"p","type":["boolean","int","null"],"default":true}',
    ),
    '{"type":"record","name":"R","namespace":"a.b","doc":"d","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]},"default":"Y"},' +
      '{"name":"f","type":{"type":"fixed","name":"F","namespace":"c","size":2},"default":"ab"},{"name":"g","type":"c.F"},' +
      '{"name":"m","type":{"type":"map","values":{"type":"array","items":"R"}},"default":{}},{"name":"r","type":["null","R"],"default":null}],"version":3}',
    avroFoo(
      '{"name":"d","type":"double","default":2.5},{"name":"x","type":"bytes","default":"\\u0000ÿ","order":"ignore","note":{"a":[1,2]}}',
    ),
  ];

  it.each(AVRO)('Avro → ours → Avro gives the same Avro: %s', (avro) => {
    const schema = fromAvro(avro);
    expect(SchemaTranslator.dataToAvroSchemaJson(schema)).toBe(avro);
    expectAvscAccepts(avro);
  });

  const OURS = [
    foo(
      '{ "name": "a", "type": "int" }, { "name": "b", "type": "string", "optional": true }, { "name": "c", "type": "long", "default": 5, "optional": true }',
    ),
    foo(
      '{ "name": "u", "type": [ "int", "string" ], "default": { "int": 1 } }, { "name": "o", "type": [ "int", "string" ], "optional": true }, { "name": "a", "type": { "type": "array", "items": [ "null", "int" ] }, "default": [ null ] }',
    ),
    '{ "type": "record", "name": "a.R", "fields": [ { "name": "e", "type": { "type": "enum", "name": "E", "symbols": [ "X" ], "symbolDocs": { "X": "x" }, "deprecatedSymbols": { "X": true } } }, { "name": "t", "type": "R", "optional": true, "deprecated": "no" } ], "deprecated": true }',
  ];

  it.each(OURS)(
    'ours → Avro → ours gives an equal schema (no typerefs, includes, aliased unions or required unions with null): %s',
    (text) => {
      const schema = parse(text);
      for (const optionalDefaultMode of [OptionalDefaultMode.TRANSLATE_DEFAULT]) {
        const avro = SchemaTranslator.dataToAvroSchemaJson(schema, { optionalDefaultMode });
        expect(fromAvro(avro).equals(schema)).toBe(true);
      }
    },
  );

  describe('over the fixture tree', () => {
    const { tops } = fixtureTree();
    const translatable = tops.filter((s) => !UNTRANSLATABLE.has(fullName(s)));

    it.each(translatable.map((s) => [fullName(s), s] as const))(
      '%s: after one trip, ours → Avro → ours is a fixed point, and embedding gives the schema back',
      (_name, schema) => {
        const once = fromAvro(SchemaTranslator.dataToAvroSchemaJson(schema));
        const avro = SchemaTranslator.dataToAvroSchemaJson(once);
        const twice = fromAvro(avro);
        expect(twice.equals(once)).toBe(true);
        expect(SchemaTranslator.dataToAvroSchemaJson(twice)).toBe(avro);
        const embedded = SchemaTranslator.dataToAvroSchemaJson(schema, {
          embedSchemaMode: EmbedSchemaMode.ROOT_ONLY,
        });
        expect(
          fromAvro(embedded, { translationMode: 'VERIFY_EMBEDDED_SCHEMA' }).equals(
            schema.getDereferencedSchema(),
          ),
        ).toBe(true);
        if (embedded.startsWith('{')) {
          const property = json.stringToMap(embedded).get('com.linkedin.data') as DataMap;
          expect(property.get('optionalDefaultMode')).toBe('TRANSLATE_DEFAULT');
        }
      },
    );
  });
});
