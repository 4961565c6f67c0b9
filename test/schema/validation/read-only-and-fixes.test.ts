/**
 * Where fixes land: complex values fixed in place, immutable values replaced in their parent (or returned by
 * getFixed at the root), and what a read-only container does to a needed fix.
 */
import type { DataMap } from '../../../src';
import {
  ByteString,
  DataList,
  JsonCodec,
  parseSchema,
  RequiredMode,
  validate,
  type DataSchema,
} from '../../../src';

const json = new JsonCodec();

const SCHEMA = parseSchema(`{ "type": "record", "name": "Holder", "namespace": "com.acme", "fields": [
  { "name": "int", "type": "int", "optional": true },
  { "name": "bytes", "type": "bytes", "optional": true },
  { "name": "list", "type": { "type": "array", "items": "long" }, "optional": true },
  { "name": "map", "type": { "type": "map", "values": "double" }, "optional": true },
  { "name": "union", "type": [ "null", "int", { "type": "fixed", "name": "Four", "size": 4 } ], "optional": true },
  { "name": "inner", "type": { "type": "record", "name": "Inner", "fields": [ { "name": "int", "type": "int" } ] }, "optional": true },
  { "name": "aliased", "type": [ { "alias": "a", "type": "int" }, { "alias": "b", "type": "Inner" } ], "optional": true }
] }`);

function data(text: string): DataMap {
  return json.stringToMap(text);
}

describe('fixes in mutable data', () => {
  it('replaces an immutable value in its record, keeping every container', () => {
    const d = data('{"int": 1.5, "inner": {"int": 2.5}, "list": [1, 2.5], "map": {"k": 9007199254740993}}');
    const inner = d.get('inner');
    const list = d.get('list');
    const map = d.get('map');
    const result = validate(d, SCHEMA);
    expect([result.isValid(), result.hasFix(), result.hasFixupReadOnlyError()]).toEqual([true, true, false]);
    expect(result.getFixed()).toBe(d);
    expect([d.get('inner'), d.get('list'), d.get('map')]).toEqual([inner, list, map]);
    expect(d.toString()).toBe('{"int":1,"inner":{"int":2},"list":[1,2],"map":{"k":9007199254740992}}');
  });

  it('turns Avro strings into ByteStrings for bytes and fixed, inside unions too', () => {
    const d = data('{"bytes": "\\u0000\\u00ff", "union": {"com.acme.Four": "abcd"}}');
    const union = d.get('union') as DataMap;
    const result = validate(d, SCHEMA);
    expect([result.isValid(), result.hasFix()]).toEqual([true, true]);
    expect(d.get('bytes')).toBeInstanceOf(ByteString);
    expect((d.get('bytes') as ByteString).copyBytes()).toEqual(new Uint8Array([0, 255]));
    expect(d.get('union')).toBe(union);
    expect((union.get('com.acme.Four') as ByteString).asAvroString()).toBe('abcd');
  });

  it('returns the replacement of an immutable root value from getFixed', () => {
    const schema = parseSchema('{ "type": "fixed", "name": "Two", "size": 2 }');
    const result = validate('ab', schema);
    expect(result.getFixed()).toBeInstanceOf(ByteString);
    expect(result.hasFix()).toBe(true);
    const unfixable = validate('abc', schema);
    expect(unfixable.getFixed()).toBe('abc');
    expect(unfixable.hasFix()).toBe(false);
    expect(unfixable.getMessage()).toBe(
      'ERROR ::  :: "abc" length (3) is inconsistent with expected fixed size of 2\n',
    );
  });

  it('needs only the container that holds the value to be mutable', () => {
    const d = data('{"list": [1.5], "inner": {"int": 2.5}}');
    d.setReadOnly(); // this map only; the list and the inner record stay mutable
    const result = validate(d, SCHEMA);
    expect([result.isValid(), result.hasFix(), result.hasFixupReadOnlyError()]).toEqual([true, true, false]);
    expect(d.toString()).toBe('{"list":[1],"inner":{"int":2}}');
  });
});

describe('fixes blocked by read-only data', () => {
  type Case = readonly [label: string, text: string, message: string];
  const cases: readonly Case[] = [
    [
      'a record field',
      '{"int": 1.5}',
      'ERROR :: /int :: cannot be fixed because DataMap backing com.acme.Holder type is read-only',
    ],
    [
      'a nested record field',
      '{"inner": {"int": 1.5}}',
      'ERROR :: /inner/int :: cannot be fixed because DataMap backing com.acme.Inner type is read-only',
    ],
    [
      'a list element',
      '{"list": [1, 2.5]}',
      'ERROR :: /list/1 :: cannot be fixed because DataList backing an array type is read-only',
    ],
    [
      'a map value',
      '{"map": {"k": 9007199254740993}}',
      'ERROR :: /map/k :: cannot be fixed because DataMap backing map type is read-only',
    ],
    [
      'a union member',
      '{"union": {"int": 1.5}}',
      'ERROR :: /union/int :: cannot be fixed because DataMap backing union type is read-only',
    ],
    [
      'an aliased union member',
      '{"aliased": {"a": 1.5}}',
      'ERROR :: /aliased/a :: cannot be fixed because DataMap backing union type is read-only',
    ],
    [
      'a bytes string',
      '{"bytes": "abc"}',
      'ERROR :: /bytes :: cannot be fixed because DataMap backing com.acme.Holder type is read-only',
    ],
  ];

  it.each(cases)('leaves %s unchanged and reports it', (_label, text, message) => {
    const d = data(text);
    d.makeReadOnly();
    const before = d.toString();
    const result = validate(d, SCHEMA);
    expect(result.isValid()).toBe(false);
    expect(result.hasFix()).toBe(true);
    expect(result.hasFixupReadOnlyError()).toBe(true);
    expect(result.getMessage()).toBe(`${message}\n`);
    expect(result.getFixed()).toBe(d);
    expect(d.toString()).toBe(before);
    expect(d.isMadeReadOnly()).toBe(true);
  });

  it.each(cases)('fixes %s in a mutable copy of the same data', (_label, text) => {
    const ro = data(text);
    ro.makeReadOnly();
    const copy = ro.copy();
    const result = validate(copy, SCHEMA);
    expect([result.isValid(), result.hasFix(), result.hasFixupReadOnlyError()]).toEqual([true, true, false]);
    expect(copy.equals(ro)).toBe(false);
  });

  it('reports a read-only error only where a fix was needed', () => {
    const d = data('{"int": 1, "list": [1, 2], "union": null}');
    d.makeReadOnly();
    const result = validate(d, SCHEMA);
    expect([result.isValid(), result.hasFix(), result.hasFixupReadOnlyError()]).toEqual([true, false, false]);
  });

  it('reports both the problem and the blocked fix when a value is wrong and another needs a fix', () => {
    const d = data('{"int": "x", "list": [2.5]}');
    d.makeReadOnly();
    const result = validate(d, SCHEMA);
    expect(result.getMessage()).toBe(
      'ERROR :: /int :: x cannot be coerced to Integer\n' +
        'ERROR :: /list/0 :: cannot be fixed because DataList backing an array type is read-only\n',
    );
  });

  it('never makes data read-only or mutable by itself', () => {
    const d = data('{"inner": {}}');
    validate(d, SCHEMA, { requiredMode: RequiredMode.FIXUP_ABSENT_WITH_DEFAULT });
    expect(d.isReadOnly()).toBe(false);
    expect((d.get('inner') as DataMap).isReadOnly()).toBe(false);
  });
});

describe('what is never modified', () => {
  const schemas: ReadonlyArray<readonly [string, DataSchema, () => DataMap | DataList]> = [
    ['a valid record', SCHEMA, () => data('{"int": 1, "inner": {"int": 2}, "union": null}')],
    ['an invalid record', SCHEMA, () => data('{"int": "x", "inner": [], "union": {"x": 1}}')],
    [
      'a list of strings',
      parseSchema('{ "type": "array", "items": "string" }'),
      () => new DataList(['a', 'b']),
    ],
  ];

  it.each(schemas)('leaves %s as it was when no fix applies', (_label, schema, make) => {
    const d = make();
    const before = d.toString();
    const result = validate(d, schema);
    expect(result.hasFix()).toBe(false);
    expect(result.getFixed()).toBe(d);
    expect(d.toString()).toBe(before);
  });
});
