/**
 * Record keys the schema does not declare: passed through untouched by default (schema evolution), an error
 * with DISALLOW, removed with TRIM.
 */
import type { DataMap } from '../../../src';
import {
  JsonCodec,
  parseSchema,
  RequiredMode,
  UnrecognizedFieldMode,
  validate,
  type DataList,
} from '../../../src';

const json = new JsonCodec();

// the reference's Foo (TestValidation.testUnrecognizedFieldTrimming)
const FOO = parseSchema(`{ "name": "Foo", "type": "record", "fields": [
  { "name": "primitive", "type": "int", "optional": true },
  { "name": "arrayField", "type": { "type": "array", "items": "Foo" }, "optional": true },
  { "name": "mapField", "type": { "type": "map", "values": "Foo" }, "optional": true },
  { "name": "unionField", "type": [ "int", "string", "Foo" ], "optional": true },
  { "name": "recordField", "type": "Foo", "optional": true }
] }`);

const WITH_UNKNOWN = `{
  "primitive": 1,
  "unrecognizedPrimitive": -1,
  "arrayField": [ { "primitive": 2, "unrecognizedInArray": -2 } ],
  "mapField": { "key": { "primitive": 3, "unrecognizedInMap": -3 } },
  "unionField": { "Foo": { "primitive": 4, "unrecognizedInMap": -4 } },
  "recordField": { "primitive": 5, "unrecognizedPrimitive": -5 },
  "unrecognizedMap": { "key": -100 },
  "unrecognizedArray": [ -101 ]
}`;

const TRIMMED = `{
  "primitive": 1,
  "arrayField": [ { "primitive": 2 } ],
  "mapField": { "key": { "primitive": 3 } },
  "unionField": { "Foo": { "primitive": 4 } },
  "recordField": { "primitive": 5 }
}`;

const UNKNOWN_PATHS = [
  '/unrecognizedPrimitive',
  '/arrayField/0/unrecognizedInArray',
  '/mapField/key/unrecognizedInMap',
  '/unionField/Foo/unrecognizedInMap',
  '/recordField/unrecognizedPrimitive',
  '/unrecognizedMap',
  '/unrecognizedArray',
];

describe('UnrecognizedFieldMode.IGNORE (the default)', () => {
  it('passes unknown fields through untouched, whatever they hold', () => {
    const data = json.stringToMap(
      '{"primitive": 1.5, "extra": {"deep": [1, "two", null, {"x": 1.5}]}, "bytesLike": "\\u0100", "n": null}',
    );
    const extra = data.get('extra');
    const result = validate(data, FOO, { requiredMode: RequiredMode.FIXUP_ABSENT_WITH_DEFAULT });
    expect([result.isValid(), result.hasFix()]).toEqual([true, true]);
    expect(data.get('extra')).toBe(extra);
    expect(data.toString()).toBe(
      '{"primitive":1,"extra":{"deep":[1,"two",null,{"x":1.5}]},"bytesLike":"Ā","n":null}',
    );
  });

  it('accepts the reference’s document as it is', () => {
    const data = json.stringToMap(WITH_UNKNOWN);
    const before = data.toString();
    const result = validate(data, FOO);
    expect([result.isValid(), result.hasFix(), result.getMessage()]).toEqual([true, false, '']);
    expect(data.toString()).toBe(before);
  });
});

describe('UnrecognizedFieldMode.DISALLOW', () => {
  const options = { unrecognizedFieldMode: UnrecognizedFieldMode.DISALLOW };

  it('reports every unknown field of every record, at its own path, and nothing below it', () => {
    const result = validate(json.stringToMap(WITH_UNKNOWN), FOO, options);
    expect(result.isValid()).toBe(false);
    expect(result.hasFix()).toBe(false);
    const messages = result.getMessages();
    expect(messages.map((m) => m.getPathString()).sort()).toEqual([...UNKNOWN_PATHS].sort());
    for (const m of messages) expect(m.getText()).toBe('unrecognized field found but not allowed');
  });

  it('does not count map keys or union member keys as fields', () => {
    const data = json.stringToMap('{"mapField": {"anything": {}}, "unionField": {"nope": 1}}');
    expect(validate(data, FOO, options).getMessage()).toBe(
      'ERROR :: /unionField :: "nope" is not a member type of union [ "int", "string", { "type" : "record", "name" : "Foo", "fields" : [ { "name" : "primitive", "type" : "int", "optional" : true }, { "name" : "arrayField", "type" : { "type" : "array", "items" : "Foo" }, "optional" : true }, { "name" : "mapField", "type" : { "type" : "map", "values" : "Foo" }, "optional" : true }, { "name" : "unionField", "type" : [ "int", "string", "Foo" ], "optional" : true }, { "name" : "recordField", "type" : "Foo", "optional" : true } ] } ]\n',
    );
  });

  it('accepts records without unknown fields', () => {
    expect(validate(json.stringToMap(TRIMMED), FOO, options).isValid()).toBe(true);
  });
});

describe('UnrecognizedFieldMode.TRIM', () => {
  const options = { unrecognizedFieldMode: UnrecognizedFieldMode.TRIM };

  it('removes every unknown field in place, once validation is done', () => {
    const data = json.stringToMap(WITH_UNKNOWN);
    const array = data.get('arrayField') as DataList;
    const result = validate(data, FOO, options);
    expect(result.isValid()).toBe(true);
    expect(result.getMessage()).toBe('');
    expect(result.getFixed()).toBe(data);
    expect(data.equals(json.stringToMap(TRIMMED))).toBe(true);
    expect(data.get('arrayField')).toBe(array);
  });

  it('reports every unknown field it cannot remove from read-only data, which it leaves as it was', () => {
    const data = json.stringToMap(WITH_UNKNOWN);
    data.makeReadOnly();
    const result = validate(data, FOO, options);
    expect(result.isValid()).toBe(false);
    expect(result.hasFixupReadOnlyError()).toBe(true);
    expect(
      result
        .getMessages()
        .map((m) => m.getPathString())
        .sort(),
    ).toEqual([...UNKNOWN_PATHS].sort());
    for (const m of result.getMessages())
      expect(m.getText()).toBe(
        'unrecognized field cannot be trimmed because DataMap backing it is read-only',
      );
    expect(data.equals(json.stringToMap(WITH_UNKNOWN))).toBe(true);
  });

  it('trims only the maps it may change', () => {
    const data = json.stringToMap('{"recordField": {"x": 1}, "y": 2}');
    (data.get('recordField') as DataMap).setReadOnly();
    const result = validate(data, FOO, options);
    expect(result.getMessage()).toBe(
      'ERROR :: /recordField/x :: unrecognized field cannot be trimmed because DataMap backing it is read-only\n',
    );
    expect(data.toString()).toBe('{"recordField":{"x":1}}');
  });
});
