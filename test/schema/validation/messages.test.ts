/**
 * The messages: the reference's texts (restli-wire-facts §9.2), their format and paths, and how a result
 * prints (§9.1).
 */
import {
  CoercionMode,
  Data,
  DataMap,
  DataValidationError,
  isSvcError,
  JsonCodec,
  messagesToString,
  parseSchema,
  RequiredMode,
  UnrecognizedFieldMode,
  validate,
  ValidationMessage,
  type ValidationOptions,
} from '../../../src';

const json = new JsonCodec();

describe('the reference’s message texts', () => {
  const rec = (fields: string): string => `{ "type": "record", "name": "R", "fields": [ ${fields} ] }`;
  type Row = readonly [schema: string, data: string, options: ValidationOptions, message: string];
  const rows: readonly Row[] = [
    [
      rec('{ "name": "req", "type": "int" }'),
      '{}',
      {},
      'ERROR :: /req :: field is required but not found and has no default value',
    ],
    [
      rec('{ "name": "req", "type": "int", "default": 1 }'),
      '{}',
      { requiredMode: RequiredMode.MUST_BE_PRESENT },
      'ERROR :: /req :: field is required but not found',
    ],
    [
      rec('{ "name": "s", "type": "string" }'),
      '{"s": 5}',
      {},
      'ERROR :: /s :: 5 cannot be coerced to String',
    ],
    [rec('{ "name": "l", "type": "long" }'), '{"l": "x"}', {}, 'ERROR :: /l :: x cannot be coerced to Long'],
    [
      rec('{ "name": "i", "type": "int" }'),
      '{"i": "v"}',
      {},
      'ERROR :: /i :: v cannot be coerced to Integer',
    ],
    [
      rec('{ "name": "l", "type": "long" }'),
      '{"l": "12"}',
      {},
      'ERROR :: /l :: 12 cannot be coerced to Long',
    ],
    [
      rec('{ "name": "i", "type": "int" }'),
      '{"i": 2147483648}',
      { coercionMode: CoercionMode.OFF },
      'ERROR :: /i :: 2147483648 is not backed by a Integer',
    ],
    [
      rec('{ "name": "e", "type": { "type": "enum", "name": "E", "symbols": [ "A", "B" ] } }'),
      '{"e": "C"}',
      {},
      'ERROR :: /e :: "C" is not an enum symbol',
    ],
    [
      rec('{ "name": "e", "type": { "type": "enum", "name": "E", "symbols": [ "A", "B" ] } }'),
      '{"e": 1}',
      {},
      'ERROR :: /e :: enum type is not backed by a String',
    ],
    [
      rec('{ "name": "u", "type": [ "int", "string" ] }'),
      '{"u": {"boolean": true}}',
      {},
      'ERROR :: /u :: "boolean" is not a member type of union [ "int", "string" ]',
    ],
    [
      rec('{ "name": "u", "type": [ "int", "string" ] }'),
      '{"u": {"int": 1, "string": "x"}}',
      {},
      'ERROR :: /u :: DataMap should have no more than one entry for a union type',
    ],
    [
      rec('{ "name": "u", "type": [ "int", "string" ] }'),
      '{"u": {}}',
      {},
      'ERROR :: /u :: DataMap should have at least one entry for a union type',
    ],
    [
      rec('{ "name": "u", "type": [ "int", "string" ] }'),
      '{"u": 1}',
      {},
      'ERROR :: /u :: union type is not backed by a DataMap or null',
    ],
    [
      rec('{ "name": "u", "type": [ "int", "string" ] }'),
      '{"u": null}',
      {},
      'ERROR :: /u :: null is not a member type of union [ "int", "string" ]',
    ],
    [
      rec('{ "name": "f", "type": { "type": "fixed", "name": "F", "size": 2 } }'),
      '{"f": "abc"}',
      {},
      'ERROR :: /f :: "abc" length (3) is inconsistent with expected fixed size of 2',
    ],
    [
      rec('{ "name": "b", "type": "bytes" }'),
      '{"b": "\\u0100"}',
      {},
      'ERROR :: /b :: "Ā" is not a valid string representation of bytes',
    ],
    [
      rec('{ "name": "a", "type": { "type": "array", "items": "int" } }'),
      '{"a": {}}',
      {},
      'ERROR :: /a :: array type is not backed by a DataList',
    ],
    [
      rec('{ "name": "m", "type": { "type": "map", "values": "int" } }'),
      '{"m": []}',
      {},
      'ERROR :: /m :: map type is not backed by a DataMap',
    ],
    [
      rec('{ "name": "r", "type": "R", "optional": true }'),
      '{"r": "x"}',
      {},
      'ERROR :: /r :: record type is not backed by a DataMap',
    ],
    [
      rec(''),
      '{"x": 1}',
      { unrecognizedFieldMode: UnrecognizedFieldMode.DISALLOW },
      'ERROR :: /x :: unrecognized field found but not allowed',
    ],
  ];

  it.each(rows)('%s with %s gives the reference message', (schema, text, options, message) => {
    expect(validate(json.stringToMap(text), parseSchema(schema), options).getMessage()).toBe(`${message}\n`);
  });

  it('names a union with a named member the way the reference prints the union', () => {
    const schema = parseSchema(
      '{ "type": "record", "name": "R", "namespace": "n", "fields": [ { "name": "u", "type": [ "null", { "type": "enum", "name": "E", "symbols": [ "A" ] } ] } ] }',
    );
    expect(validate(json.stringToMap('{"u": {"x": 1}}'), schema).getMessage()).toBe(
      'ERROR :: /u :: "x" is not a member type of union [ "null", { "type" : "enum", "name" : "E", "namespace" : "n", "symbols" : [ "A" ] } ]\n',
    );
  });
});

describe('message paths', () => {
  // the reference's recursive Foo (TestValidation.testNonRootStartDataElement)
  const foo = parseSchema(`{ "name": "Foo", "type": "record", "fields": [
    { "name": "intField", "type": "int", "optional": true },
    { "name": "stringField", "type": "string", "optional": true },
    { "name": "arrayField", "type": { "type": "array", "items": "Foo" }, "optional": true },
    { "name": "mapField", "type": { "type": "map", "values": "Foo" }, "optional": true },
    { "name": "unionField", "type": [ "int", "string", "Foo" ], "optional": true },
    { "name": "fooField", "type": "Foo", "optional": true }
  ] }`);

  it.each([
    ['{"intField": "bad", "fooField": {"intField": 32}}', ['/intField']],
    ['{"intField": 32, "fooField": {"intField": "bad"}}', ['/fooField/intField']],
    [
      '{"stringField": 32, "arrayField": [{"intField": "bad0"}, {"intField": "bad1"}]}',
      ['/stringField', '/arrayField/0/intField', '/arrayField/1/intField'],
    ],
    [
      '{"mapField": {"m0": {"intField": "bad0"}, "m1": {"intField": "bad1"}}}',
      ['/mapField/m0/intField', '/mapField/m1/intField'],
    ],
    [
      '{"arrayField": [{"unionField": {"Foo": {"intField": "bad0"}}}, {"unionField": {"int": "bad1"}}]}',
      ['/arrayField/0/unionField/Foo/intField', '/arrayField/1/unionField/int'],
    ],
    [
      '{"stringField": 32, "fooField": {"stringField": 45, "fooField": {"intField": "bad1"}}}',
      ['/stringField', '/fooField/stringField', '/fooField/fooField/intField'],
    ],
    ['{"mapField": {"a/b": {"x": 1, "intField": []}}}', ['/mapField/a/b/intField']],
  ])('in %s point at %j', (text, paths) => {
    const result = validate(json.stringToMap(text), foo);
    expect(result.getMessages().map((m) => m.getPathString())).toEqual(paths);
  });

  it('puts a record’s missing-field messages after the messages about its field values', () => {
    const schema = parseSchema(
      '{ "type": "record", "name": "R", "fields": [ { "name": "a", "type": "int" }, { "name": "b", "type": "int" }, { "name": "c", "type": "int" } ] }',
    );
    const result = validate(json.stringToMap('{"c": "x"}'), schema);
    expect(result.getMessage()).toBe(
      'ERROR :: /c :: x cannot be coerced to Integer\n' +
        'ERROR :: /a :: field is required but not found and has no default value\n' +
        'ERROR :: /b :: field is required but not found and has no default value\n',
    );
  });

  it('gives message paths as components: names, keys and indices', () => {
    const result = validate(
      json.stringToMap('{"arrayField": [{}, {"mapField": {"k": {"intField": 1.5}}}]}'),
      foo,
      {
        coercionMode: CoercionMode.OFF,
      },
    );
    const [message] = result.getMessages();
    expect(message!.getPath()).toEqual(['arrayField', 1, 'mapField', 'k', 'intField']);
    expect(message!.getPathString()).toBe('/arrayField/1/mapField/k/intField');
    expect(message!.getText()).toBe('1.5 is not backed by a Integer');
    expect(message!.isError()).toBe(true);
  });
});

describe('the result’s text', () => {
  const schema = parseSchema(
    '{ "type": "record", "name": "R", "fields": [ { "name": "req", "type": "int" } ] }',
  );

  it('prints an invalid result like the reference', () => {
    const result = validate(json.stringToMap('{"x": [1, "a"]}'), schema);
    expect(result.toString()).toBe(
      'hasFix=false, hasFixupReadOnlyError=false, valid=false\n' +
        'fixed={"x":[1,"a"]}\n' +
        'ERROR :: /req :: field is required but not found and has no default value\n',
    );
  });

  it('prints a valid result with no message and an empty getMessage', () => {
    const result = validate(json.stringToMap('{"req": 1.5}'), schema);
    expect(result.getMessage()).toBe('');
    expect(result.getMessages()).toEqual([]);
    expect(result.toString()).toBe('hasFix=true, hasFixupReadOnlyError=false, valid=true\nfixed={"req":1}\n');
  });

  it('prints a primitive fixed value with its text', () => {
    expect(validate(Data.NULL, parseSchema('"null"')).toString()).toBe(
      'hasFix=false, hasFixupReadOnlyError=false, valid=true\nfixed=null\n',
    );
  });

  it('writes a message list one message per line, each ending in a newline', () => {
    const messages = [new ValidationMessage(['a', 0], 'one'), new ValidationMessage([], 'two', false)];
    expect(messagesToString(messages)).toBe('ERROR :: /a/0 :: one\nINFO ::  :: two\n');
    expect(messagesToString([])).toBe('');
  });

  it('turns a failed result into a DataValidationError listing every message', () => {
    const result = validate(new DataMap([['req', 'x']]), schema);
    const err = new DataValidationError(result, 'the photo');
    expect(isSvcError(err, 'DataValidationError', 'SVC_ERR_VALIDATE_INVALID')).toBe(true);
    expect(err.statusCode).toBe(422);
    expect(err.result).toBe(result);
    expect(err.message).toBe(
      'the photo is not valid (1 message):\nERROR :: /req :: x cannot be coerced to Integer',
    );
  });
});

describe('the order of a record’s messages', () => {
  const schema = parseSchema(`{ "type": "record", "name": "O", "fields": [
    { "name": "a", "type": "int" },
    { "name": "b", "type": "int" },
    { "name": "c", "type": { "type": "record", "name": "C", "fields": [ { "name": "x", "type": "int" } ] } },
    { "name": "d", "type": "int", "optional": true },
    { "name": "e", "type": "int" }
  ] }`);
  const rows: ReadonlyArray<readonly [label: string, data: string, messages: readonly string[]]> = [
    ['one bad field', '{"a":1,"b":"x","c":{"x":1},"e":1}', ['/b :: x cannot be coerced to Integer']],
    [
      'two bad fields, in key order rather than schema order',
      '{"e":"y","c":{"x":1},"b":"x","a":1}',
      ['/e :: y cannot be coerced to Integer', '/b :: x cannot be coerced to Integer'],
    ],
    [
      'a bad field deep inside, then a missing one',
      '{"c":{"x":"z"},"b":1,"a":1}',
      [
        '/c/x :: z cannot be coerced to Integer',
        '/e :: field is required but not found and has no default value',
      ],
    ],
    [
      'an unknown key between bad fields',
      '{"a":"p","zz":1,"b":1,"c":{"x":1},"e":"q"}',
      [
        '/a :: p cannot be coerced to Integer',
        '/zz :: unrecognized field found but not allowed',
        '/e :: q cannot be coerced to Integer',
      ],
    ],
    [
      'missing fields only, in schema order',
      '{"c":{"x":1},"d":"w"}',
      [
        '/d :: w cannot be coerced to Integer',
        '/a :: field is required but not found and has no default value',
        '/b :: field is required but not found and has no default value',
        '/e :: field is required but not found and has no default value',
      ],
    ],
  ];
  it.each(rows)('reports %s as the walk over the keys finds them', (_label, data, messages) => {
    const result = validate(json.stringToMap(data), schema, {
      unrecognizedFieldMode: UnrecognizedFieldMode.DISALLOW,
    });
    expect(result.getMessages().map((m) => `${m.getPathString()} :: ${m.getText()}`)).toEqual(messages);
  });
});
