/**
 * One row per rule of the schema language: a schema that follows the rule parses, one that breaks it fails
 * with the expected message. Messages follow Rest.li's wording where it has one (TestDataSchema).
 */
import {
  Data,
  parseSchema,
  schemaProblems,
  type NamedDataSchema,
  type ParseSchemaOptions,
  type RecordDataSchema,
} from '../../src';

/** A record `test.Foo` with the given fields (JSON text). */
function record(...fields: string[]): string {
  return `{ "type": "record", "name": "Foo", "namespace": "test", "fields": [ ${fields.join(', ')} ] }`;
}

/** A field of `record()`. */
function field(type: string, extra = ''): string {
  return `{ "name": "f", "type": ${type}${extra === '' ? '' : `, ${extra}`} }`;
}

const FRUIT = '{ "type": "enum", "name": "Fruit", "namespace": "test", "symbols": [ "APPLE", "PEAR" ] }';
const MD5 = '{ "type": "fixed", "name": "MD5", "namespace": "test", "size": 4 }';
const BAR =
  '{ "type": "record", "name": "Bar", "namespace": "test", "fields": [ { "name": "b1", "type": "int" }, { "name": "b2", "type": "string", "default": "x" } ] }';
const URN = '{ "type": "typeref", "name": "Urn", "namespace": "test", "ref": "string" }';

interface Rule {
  readonly rule: string;
  readonly good: string;
  readonly bad: string;
  /** Substring of the one expected problem of `bad`. */
  readonly message: string;
  /** Parse options of both texts (rules that only hold under `strict`, say). */
  readonly options?: ParseSchemaOptions;
}

/** What Rest.li accepts (so we only warn) but strict parsing refuses. */
const STRICT: ParseSchemaOptions = { strict: true };

const rules: Rule[] = [
  // ---- JSON and types ----
  {
    rule: 'the text is JSON (comments allowed)',
    good: '/* md5 */ { "type": "fixed", // digest\n "name": "md5", "size": 16 }',
    bad: '{ "type": "fixed", "name": "md5" "size": 16 }',
    message: "invalid JSON: Expected ',' or '}'",
  },
  {
    rule: 'a key appears once per object',
    good: MD5,
    bad: '{ "type": "fixed", "name": "A", "name": "B", "size": 4 }',
    message: 'key "name" is defined more than once',
  },
  {
    rule: 'the text holds a schema',
    good: '"int"',
    bad: '  // nothing\n',
    message: 'the text holds no schema',
  },
  {
    rule: 'type is a string',
    good: '{ "type": "boolean" }',
    bad: '{ "type": 4 }',
    message: 'type with value 4 is not a string',
  },
  {
    rule: 'type is a known type',
    good: '{ "type": "map", "values": "int" }',
    bad: '{ "type": "union", "values": "int" }',
    message: '"union" is an invalid type',
  },
  {
    rule: 'a schema object has a type',
    good: '{ "type": "int" }',
    bad: '{ "items": "int" }',
    message: 'type (with string value) is required but it is not present',
  },
  {
    rule: 'a type is a string, an object or an array',
    good: record(field('"long"')),
    bad: record(field('5')),
    message: '5 is not a type',
  },
  // ---- names ----
  {
    rule: 'a named schema has a name',
    good: MD5,
    bad: '{ "type": "fixed", "size": 4 }',
    message: 'name (with string value) is required but it is not present',
  },
  {
    rule: 'a name is an identifier',
    good: '{ "type": "fixed", "name": "_md5", "size": 4 }',
    bad: '{ "type": "fixed", "name": "67", "size": 4 }',
    message: '"67" is an invalid name',
  },
  {
    rule: 'a name is not empty',
    good: '{ "type": "fixed", "name": "a", "size": 4 }',
    bad: '{ "type": "fixed", "name": "", "size": 4 }',
    message: '"" is an invalid name',
  },
  {
    rule: 'a full name is dotted identifiers',
    good: '{ "type": "fixed", "name": "foo.bar", "size": 4 }',
    bad: '{ "type": "fixed", "name": "foo.67", "size": 4 }',
    message: '"foo.67" is an invalid name',
  },
  {
    rule: 'a namespace is dotted identifiers',
    good: '{ "type": "fixed", "name": "foo", "namespace": "bar.baz", "size": 4 }',
    bad: '{ "type": "fixed", "name": "foo", "namespace": "bar.67", "size": 4 }',
    message: '"bar.67" is an invalid namespace',
  },
  {
    rule: 'a package is dotted identifiers',
    good: '{ "type": "fixed", "name": "foo", "package": "org.x", "size": 4 }',
    bad: '{ "type": "fixed", "name": "foo", "package": "org..x", "size": 4 }',
    message: '"org..x" is an invalid package',
  },
  {
    rule: 'a primitive type name cannot be redefined',
    good: '{ "type": "fixed", "name": "integer", "size": 4 }',
    bad: '{ "type": "fixed", "name": "int", "size": 4 }',
    message: '"int" is a pre-defined type and cannot be redefined',
  },
  {
    rule: 'a full name is defined once',
    good: `${MD5} { "type": "fixed", "name": "MD5", "namespace": "other", "size": 4 }`,
    bad: `${MD5} { "type": "fixed", "name": "test.MD5", "size": 8 }`,
    message: '"test.MD5" already defined at 1:1',
  },
  {
    rule: 'a referenced name is defined',
    good: `${URN} ${record(field('"Urn"'))}`,
    bad: record(field('"Nope"')),
    message: '"Nope" or "test.Nope" cannot be resolved',
  },
  {
    rule: 'an alias on a named schema is a valid name (and otherwise ignored)',
    good: '{ "type": "fixed", "name": "foo", "size": 4, "aliases": [ "bar", "x.y" ] }',
    bad: '{ "type": "fixed", "name": "foo", "size": 4, "aliases": [ "bar", "67.foo" ] }',
    message: '"67.foo" is an invalid name',
  },
  {
    rule: 'an alias is not a name the schema can be found by',
    good: record(field('"Foo"', '"optional": true')),
    bad: `{ "type": "record", "name": "Foo", "aliases": [ "Other" ], "fields": [ ${field('"Other"', '"optional": true')} ] }`,
    message: '"Other" cannot be resolved',
  },
  {
    rule: 'deprecated is a string or a boolean',
    good: '{ "type": "fixed", "name": "f", "size": 4, "deprecated": "use g" }',
    bad: '{ "type": "fixed", "name": "f", "size": 4, "deprecated": 5 }',
    message: 'deprecated with value 5 is not a string or a boolean',
  },
  // ---- array, map ----
  {
    rule: 'an array has items',
    good: record(field('{ "type": "array", "items": "int" }')),
    bad: record(field('{ "type": "array" }')),
    message: 'items is required but it is not present',
  },
  {
    rule: 'an array has no name',
    good: record(field('{ "type": "array", "items": "int" }')),
    bad: record(field('{ "type": "array", "name": "notgood", "items": "int" }')),
    message: 'array must not have name',
  },
  {
    rule: 'an array has no aliases',
    good: record(field('{ "type": "array", "items": "int" }')),
    bad: record(field('{ "type": "array", "aliases": [], "items": "int" }')),
    message: 'array must not have aliases',
  },
  {
    rule: 'a map has values',
    good: record(field('{ "type": "map", "values": "int" }')),
    bad: record(field('{ "type": "map" }')),
    message: 'values is required but it is not present',
  },
  {
    rule: 'a map has no namespace',
    good: record(field('{ "type": "map", "values": "int" }')),
    bad: record(field('{ "type": "map", "namespace": "x", "values": "int" }')),
    message: 'map must not have namespace',
  },
  {
    rule: 'a map has no items',
    good: record(field('{ "type": "map", "values": "int" }')),
    bad: record(field('{ "type": "map", "values": "int", "items": "int" }')),
    message: 'map must not have items',
  },
  // ---- record, fields ----
  {
    rule: 'a record has fields',
    good: '{ "type": "record", "name": "foo", "fields": [] }',
    bad: '{ "type": "record", "name": "foo" }',
    message: 'fields (with array value) is required but it is not present',
  },
  {
    rule: 'fields is an array',
    good: '{ "type": "record", "name": "foo", "fields": [] }',
    bad: '{ "type": "record", "name": "foo", "fields": {} }',
    message: 'fields is not an array',
  },
  {
    rule: 'a record has no symbols',
    good: '{ "type": "record", "name": "foo", "fields": [] }',
    bad: '{ "type": "record", "name": "foo", "fields": [], "symbols": [] }',
    message: 'record must not have symbols',
  },
  {
    rule: 'a field is an object',
    good: record(field('"int"')),
    bad: record('"f"'),
    message: '"f" is not a valid field',
  },
  {
    rule: 'a field has a name',
    good: record(field('"int"')),
    bad: record('{ "type": "int" }'),
    message: 'name (with string value) is required but it is not present',
  },
  {
    rule: 'a field has a type',
    good: record(field('"int"')),
    bad: record('{ "name": "bar" }'),
    message: 'type is required but it is not present',
  },
  {
    rule: 'a field name is an identifier',
    good: record('{ "name": "_a1", "type": "int" }'),
    bad: record('{ "name": "a-1", "type": "int" }'),
    message: '"a-1" is an invalid field name',
  },
  {
    rule: 'a field name is defined once',
    good: record('{ "name": "a", "type": "int" }', '{ "name": "b", "type": "string" }'),
    bad: record('{ "name": "bar", "type": "int" }', '{ "name": "bar", "type": "string" }'),
    message: 'Field "bar" defined more than once, with "int" and "string"',
  },
  {
    rule: 'optional is a boolean',
    good: record(field('"int"', '"optional": false')),
    bad: record(field('"int"', '"optional": "yes"')),
    message: 'optional with value "yes" is not a boolean',
  },
  {
    rule: 'order is ascending, descending or ignore',
    good: record(field('"int"', '"order": "IgNoRe"')),
    bad: record(field('"int"', '"order": "xxx"')),
    message: '"xxx" is an invalid sort order',
  },
  // ---- enum ----
  {
    rule: 'an enum has symbols',
    good: FRUIT,
    bad: '{ "type": "enum", "name": "foo" }',
    message: 'symbols (with array value) is required but it is not present',
  },
  {
    rule: 'symbols is an array',
    good: FRUIT,
    bad: '{ "type": "enum", "name": "foo", "symbols": "apple" }',
    message: 'symbols is not an array',
  },
  {
    rule: 'a symbol is a string',
    good: FRUIT,
    bad: '{ "type": "enum", "name": "foo", "symbols": [ 67 ] }',
    message: '67 is not a string',
  },
  {
    rule: 'a symbol is an identifier',
    good: FRUIT,
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "67" ] }',
    message: '"67" is an invalid enum symbol',
  },
  {
    rule: 'a symbol is declared once',
    good: FRUIT,
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "apple", "banana", "apple" ] }',
    message: '"apple" defined more than once in enum symbols',
  },
  {
    rule: 'symbolDocs is a map',
    good: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "symbolDocs": { "A": "a" } }',
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "symbolDocs": "docs" }',
    message: 'symbolDocs is not a map',
  },
  {
    rule: 'symbol docs are strings',
    good: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "symbolDocs": { "A": "a" } }',
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "symbolDocs": { "A": 5 } }',
    message: '"A" symbol has an invalid documentation value',
  },
  {
    rule: 'symbol docs name declared symbols',
    good: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "symbolDocs": { "A": "a" } }',
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "symbolDocs": { "B": "b" } }',
    message: '"B" symbol is referenced by symbolDocs. This symbol does not exist.',
  },
  {
    rule: 'deprecated symbols name declared symbols (strict)',
    good: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "deprecatedSymbols": { "A": "use B" } }',
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "deprecatedSymbols": { "B": "gone" } }',
    message:
      '"B" symbol is referenced by deprecatedSymbols. This symbol does not exist. (refused by strict parsing)',
    options: STRICT,
  },
  {
    rule: 'symbol deprecations are strings or booleans',
    good: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "deprecatedSymbols": { "A": true } }',
    bad: '{ "type": "enum", "name": "foo", "symbols": [ "A" ], "deprecatedSymbols": { "A": 1 } }',
    message: '"A" symbol has an invalid deprecation value',
  },
  // ---- fixed ----
  {
    rule: 'a fixed has a size',
    good: MD5,
    bad: '{ "type": "fixed", "name": "foo" }',
    message: 'size (with integer value) is required but it is not present',
  },
  {
    rule: 'a fixed size is an integer',
    good: MD5,
    bad: '{ "type": "fixed", "name": "foo", "size": 1.5 }',
    message: 'size with value 1.5 is not an integer',
  },
  {
    rule: 'a fixed size is not negative',
    good: '{ "type": "fixed", "name": "foo", "size": 0 }',
    bad: '{ "type": "fixed", "name": "foo", "size": -1 }',
    message: '-1 is negative, size must not be negative',
  },
  // ---- typeref ----
  {
    rule: 'a typeref has a ref',
    good: URN,
    bad: '{ "type": "typeref", "name": "foo" }',
    message: 'ref is required but it is not present',
  },
  {
    rule: 'a typeref does not refer to itself',
    good: '{ "type": "typeref", "name": "foo", "ref": { "type": "typeref", "name": "bar", "ref": "int" } }',
    bad: '{ "type": "typeref", "name": "foo", "ref": "foo" }',
    message: '"foo" cannot be parsed as the typeref has a circular reference to itself',
  },
  {
    rule: 'a typeref does not reach itself through an array',
    good: '{ "type": "typeref", "name": "foo", "ref": { "type": "array", "items": "int" } }',
    bad: '{ "type": "typeref", "name": "foo", "ref": { "type": "array", "items": "foo" } }',
    message: 'typeref has a circular reference to itself',
  },
  {
    rule: 'a typeref may reach itself through a record',
    good: '{ "type": "record", "name": "foo", "fields": [ { "name": "bar", "type": { "type": "map", "values": { "type": "typeref", "name": "FooRef", "ref": "foo" } } } ] }',
    bad: '{ "type": "typeref", "name": "foo", "ref": [ "foo", "double" ] }',
    message: 'typeref has a circular reference to itself',
  },
  {
    rule: 'java is a map',
    good: '{ "type": "typeref", "name": "Uri", "ref": "string", "java": { "class": "java.net.URI" } }',
    bad: '{ "type": "typeref", "name": "Uri", "ref": "string", "java": "java.net.URI" }',
    message: 'java is not a map',
  },
  {
    rule: 'java.class is a string',
    good: '{ "type": "typeref", "name": "Uri", "ref": "string", "java": { "class": "java.net.URI" } }',
    bad: '{ "type": "typeref", "name": "Uri", "ref": "string", "java": { "class": 1 } }',
    message: 'class with value 1 is not a string',
  },
  // ---- include ----
  {
    rule: 'include lists records',
    good: `${BAR} { "type": "record", "name": "Foo", "namespace": "test", "include": [ "Bar" ], "fields": [] }`,
    bad: '{ "type": "record", "name": "foo", "include": [ "int" ], "fields": [ { "name": "f1", "type": "double" } ] }',
    message: '"foo" cannot include "int" because it is not a record',
  },
  {
    rule: 'include lists typerefs of records, not of other types',
    good: `${BAR} { "type": "typeref", "name": "BarRef", "namespace": "test", "ref": "Bar" } { "type": "record", "name": "Foo", "namespace": "test", "include": [ "BarRef" ], "fields": [] }`,
    bad: `${URN} { "type": "record", "name": "Foo", "namespace": "test", "include": [ "Urn" ], "fields": [] }`,
    message: '"test.Foo" cannot include "test.Urn" because it is not a record',
  },
  {
    rule: 'include does not list arrays',
    good: `{ "type": "record", "name": "Foo", "include": [ { "type": "record", "name": "Inline", "fields": [] } ], "fields": [] }`,
    bad: '{ "type": "record", "name": "Foo", "include": [ { "type": "array", "items": "int" } ], "fields": [] }',
    message: '"Foo" cannot include {"type":"array","items":"int"} because it is not a record',
  },
  {
    rule: 'an included field is not redefined',
    good: `${BAR} { "type": "record", "name": "Foo", "namespace": "test", "include": [ "Bar" ], "fields": [ { "name": "f1", "type": "double" } ] }`,
    bad: `${BAR} { "type": "record", "name": "Foo", "namespace": "test", "include": [ "Bar" ], "fields": [ { "name": "b1", "type": "double" } ] }`,
    message:
      'Field "b1" defined more than once, with "int" defined in "test.Bar" and "double" defined in "test.Foo"',
  },
  {
    // one text can only hold a cycle through a forward reference; across files, see schema-resolver.test.ts
    rule: 'includes are not cyclic',
    good: `${BAR} { "type": "record", "name": "Foo", "namespace": "test", "include": [ "Bar" ], "fields": [ { "name": "next", "type": "Foo", "optional": true } ] }`,
    bad: '{ "type": "record", "name": "A", "include": [ "B" ], "fields": [] } { "type": "record", "name": "B", "include": [ "A" ], "fields": [] }',
    message: 'circular reference involving includes (A -> B -> A)',
    options: { allowForwardReferences: true },
  },
  {
    rule: 'an included name is defined',
    good: `${BAR} { "type": "record", "name": "Foo", "namespace": "test", "include": [ "test.Bar" ], "fields": [] }`,
    bad: '{ "type": "record", "name": "foo", "include": [ "crap" ], "fields": [] }',
    message: '"crap" cannot be resolved',
  },
  // ---- unions ----
  {
    rule: 'a union has at most one null member',
    good: record(field('[ "null", "int" ]')),
    bad: record(field('[ "null", "int", "null" ]')),
    message: 'null appears more than once in a union; a union has at most one null member',
  },
  {
    rule: 'a member type appears once without aliases',
    good: record(field('[ "int", "string" ]')),
    bad: record(field('[ "int", "string", "int" ]')),
    message: 'int appears more than once in a union',
  },
  {
    rule: 'a named member appears once without aliases',
    good: `${MD5} ${record(field('[ "MD5", "string" ]'))}`,
    bad: `${MD5} ${record(field('[ "MD5", "string", "test.MD5" ]'))}`,
    message: 'test.MD5 appears more than once in a union',
  },
  {
    rule: 'a typeref member counts as the type it refers to',
    good: `${URN} ${record(field('[ "Urn", "int" ]'))}`,
    bad: `${URN} ${record(field('[ "Urn", "string" ]'))}`,
    message: 'string appears more than once in a union',
  },
  {
    rule: 'a member type may repeat with aliases',
    good: record(field('[ { "alias": "success", "type": "int" }, { "alias": "failure", "type": "int" } ]')),
    bad: record(field('[ { "alias": "count", "type": "int" }, { "alias": "count", "type": "long" } ]')),
    message: 'alias count appears more than once in a union',
  },
  {
    rule: 'aliases are on all members or on none',
    good: record(
      field('[ "null", { "alias": "number", "type": "int" }, { "alias": "text", "type": "string" } ]'),
    ),
    bad: record(field('[ "long", "string", { "alias": "count", "type": "int" } ]')),
    message: 'Union definition should have aliases specified for either all or zero members.',
  },
  {
    rule: 'the null member has no alias',
    good: record(field('[ "null", { "alias": "n", "type": "int" } ]')),
    bad: record(field('[ { "alias": "nothing", "type": "null" }, { "alias": "n", "type": "int" } ]')),
    message: 'null member should not have an alias',
  },
  {
    rule: 'an alias is an identifier',
    good: record(field('[ { "alias": "a_1", "type": "int" } ]')),
    bad: record(field('[ { "alias": "$aL!@s", "type": "int" } ]')),
    message: '"$aL!@s" is an invalid member alias',
  },
  {
    rule: 'an alias is not empty',
    good: record(field('[ { "alias": "a", "type": "int" } ]')),
    bad: record(field('[ { "alias": "", "type": "int" } ]')),
    message: '"" is an invalid member alias',
  },
  {
    rule: 'fieldDiscriminator is not an alias',
    good: record(field('[ { "alias": "discriminator", "type": "int" } ]')),
    bad: record(field('[ { "alias": "fieldDiscriminator", "type": "string" } ]')),
    message: '"fieldDiscriminator" is restricted keyword for a member alias',
  },
  {
    rule: 'an aliased member has a type',
    good: record(field('[ { "alias": "a", "type": "int" } ]')),
    bad: record(field('[ { "alias": "a", "doc": "x" } ]')),
    message: 'type of the union member is required but it is not present',
  },
  {
    rule: 'a union is not a member of a union',
    good: record(field('[ "null", "int", { "type": "array", "items": "string" } ]')),
    bad: record(field('[ "null", "int", [ "null", "string" ] ]')),
    message: 'union cannot be inside another union',
  },
  {
    rule: 'a typeref of a union is not a member of a union',
    good: record(field('[ { "type": "typeref", "name": "IntRef", "ref": "int" }, "double" ]')),
    bad: record(field('[ { "type": "typeref", "name": "unionRef", "ref": [ "int", "string" ] }, "int" ]')),
    message: '"test.unionRef" is a union; a union cannot be inside another union',
  },
  {
    rule: 'named members without aliases differ in simple name (Avro)',
    good: record(
      field(
        '[ { "type": "fixed", "name": "a.X", "size": 1 }, { "type": "fixed", "name": "b.Y", "size": 1 } ]',
      ),
    ),
    bad: record(
      field(
        '[ { "type": "fixed", "name": "a.X", "size": 1 }, { "type": "fixed", "name": "b.X", "size": 1 } ]',
      ),
    ),
    message:
      'has name X that appears more than once in a union, this may cause compatibility problems with Avro',
  },
  // ---- defaults ----
  {
    rule: 'an int default is an integer (strict)',
    good: record(field('"int"', '"default": -2147483648')),
    bad: record(field('"int"', '"default": 1.5')),
    message: 'default value 1.5 is not an integer',
    options: STRICT,
  },
  {
    rule: 'an int default is a number',
    good: record(field('"int"', '"default": 0')),
    bad: record(field('"int"', '"default": "1"')),
    message: 'default value "1" does not match type int',
  },
  {
    rule: 'an int default is in the int32 range',
    good: record(field('"int"', '"default": 2147483647')),
    bad: record(field('"int"', '"default": 2147483648')),
    message: 'default value 2147483648 is out of range for type int',
  },
  {
    rule: 'a long default is an integer, exact beyond 2^53',
    good: record(field('"long"', '"default": 9223372036854775807')),
    bad: record(field('"long"', '"default": "12"')),
    message: 'default value "12" does not match type long',
  },
  {
    rule: 'a float default is a number in the float range',
    good: record(field('"float"', '"default": 52.5')),
    bad: record(field('"float"', '"default": 1e39')),
    message: 'default value 1e+39 is out of range for type float',
  },
  {
    rule: 'a double default is a number',
    good: record(field('"double"', '"default": 1')),
    bad: record(field('"double"', '"default": true')),
    message: 'default value true does not match type double',
  },
  {
    rule: 'a boolean default is a boolean',
    good: record(field('"boolean"', '"default": false')),
    bad: record(field('"boolean"', '"default": "true"')),
    message: 'default value "true" does not match type boolean',
  },
  {
    rule: 'a string default is a string',
    good: record(field('"string"', '"default": ""')),
    bad: record(field('"string"', '"default": 5')),
    message: 'default value 5 does not match type string',
  },
  {
    rule: 'a bytes default holds chars up to U+00FF',
    good: record(field('"bytes"', '"default": "\\u0000\\u00ff"')),
    bad: record(field('"bytes"', '"default": "\\u0100"')),
    message: 'default value "Ā" is not a valid string representation of bytes',
  },
  {
    rule: 'a fixed default has the fixed size',
    good: `${MD5} ${record(field('"MD5"', '"default": "abcd"'))}`,
    bad: `${MD5} ${record(field('"MD5"', '"default": "abc"'))}`,
    message: 'default value "abc" has length 3, but fixed test.MD5 has size 4',
  },
  {
    rule: 'an enum default is a declared symbol',
    good: `${FRUIT} ${record(field('"Fruit"', '"default": "PEAR"'))}`,
    bad: `${FRUIT} ${record(field('"Fruit"', '"default": "PLUM"'))}`,
    message: 'default value "PLUM" is not a symbol of enum test.Fruit',
  },
  {
    rule: 'an array default has valid items',
    good: record(field('{ "type": "array", "items": "int" }', '"default": [ 1, 3, 5 ]')),
    bad: record(field('{ "type": "array", "items": "int" }', '"default": [ 1, "x" ]')),
    message: 'default value "x" does not match type int',
  },
  {
    rule: 'a map default has valid values',
    good: record(field('{ "type": "map", "values": "int" }', '"default": { "a": 1 }')),
    bad: record(field('{ "type": "map", "values": "int" }', '"default": [ 1 ]')),
    message: 'default value [1] does not match type map',
  },
  {
    rule: 'a record default has the required fields',
    good: `${BAR} ${record(field('"Bar"', '"default": { "b1": 1 }'))}`,
    bad: `${BAR} ${record(field('"Bar"', '"default": { "b2": "y" }'))}`,
    message: 'default value is missing required field "b1" of record test.Bar',
  },
  {
    rule: 'a record default has only declared fields (strict)',
    good: `${BAR} ${record(field('"Bar"', '"default": { "b1": 1, "b2": "z" }'))}`,
    bad: `${BAR} ${record(field('"Bar"', '"default": { "b1": 1, "b3": 2 }'))}`,
    message: 'default value has field "b3", which record test.Bar does not declare',
    options: STRICT,
  },
  {
    rule: 'a union default names the member type',
    good: record(field('[ "int", "string" ]', '"default": { "int": 1 }')),
    bad: record(field('[ "int", "string" ]', '"default": 1')),
    message:
      'default value 1 of a union must be null or an object with one entry, the member discriminator and its value',
  },
  {
    rule: 'a union default names a named member by full name',
    good: `${FRUIT} ${record(field('[ "int", "Fruit" ]', '"default": { "test.Fruit": "APPLE" }'))}`,
    bad: `${FRUIT} ${record(field('[ "int", "Fruit" ]', '"default": { "Fruit": "APPLE" }'))}`,
    message:
      'default value has member key "Fruit", which is not a member of the union (members: int, test.Fruit)',
  },
  {
    rule: 'a union default names an aliased member by alias',
    good: record(
      field('[ { "alias": "a", "type": "int" }, { "alias": "b", "type": "int" } ]', '"default": { "b": 2 }'),
    ),
    bad: record(
      field(
        '[ { "alias": "a", "type": "int" }, { "alias": "b", "type": "int" } ]',
        '"default": { "int": 2 }',
      ),
    ),
    message: 'default value has member key "int", which is not a member of the union (members: a, b)',
  },
  {
    rule: 'a union default names a typeref member by the referenced type',
    good: `${URN} ${record(field('[ "Urn", "int" ]', '"default": { "string": "urn:x" }'))}`,
    bad: `${URN} ${record(field('[ "Urn", "int" ]', '"default": { "test.Urn": "urn:x" }'))}`,
    message:
      'default value has member key "test.Urn", which is not a member of the union (members: string, int)',
  },
  {
    rule: 'a union default has one entry',
    good: record(field('[ "int", "string" ]', '"default": { "string": "s" }')),
    bad: record(field('[ "int", "string" ]', '"default": { "int": 1, "string": "s" }')),
    message: 'default value of a union must have exactly one entry',
  },
  {
    rule: 'a null union default needs a null member',
    good: record(field('[ "null", "int" ]', '"default": null')),
    bad: record(field('[ "int", "string" ]', '"default": null')),
    message: 'default value null is not allowed: the union has no null member (members: int, string)',
  },
  {
    rule: 'a null default is written as null',
    good: record(field('[ "null", "int" ]', '"default": null')),
    bad: record(field('[ "null", "int" ]', '"default": { "null": null }')),
    message: 'default value of the null member is written as null',
  },
  {
    rule: 'a union member default is valid for the member',
    good: record(field('[ "int", "string" ]', '"default": { "int": 7 }')),
    bad: record(field('[ "int", "string" ]', '"default": { "int": "7" }')),
    message: 'default value "7" does not match type int',
  },
  {
    rule: 'a non-union default is not null',
    good: record(field('"string"', '"default": "x"')),
    bad: record(field('"string"', '"default": null')),
    message: 'default value null does not match type string',
  },
  {
    rule: 'a typeref default is checked against the referenced type',
    good: `${URN} ${record(field('"Urn"', '"default": "urn:x"'))}`,
    bad: `${URN} ${record(field('"Urn"', '"default": 5'))}`,
    message: 'default value 5 does not match type string',
  },
];

describe('the schema language rules', () => {
  describe.each(rules)('$rule', ({ good, bad, message, options }) => {
    it('accepts a schema that follows it', () => {
      expect(schemaProblems(() => parseSchema(good, options))).toEqual([]);
    });

    it('rejects a schema that breaks it, with the expected message', () => {
      const problems = schemaProblems(() => parseSchema(bad, options));
      expect(problems.map((p) => p.message)).toEqual([expect.stringContaining(message)]);
    });
  });
});

describe('optionality', () => {
  it('makes a field optional only through optional: true', () => {
    const foo = parseSchema(
      record(
        '{ "name": "a", "type": "int", "optional": true }',
        '{ "name": "b", "type": "int", "optional": false }',
        '{ "name": "c", "type": "int" }',
      ),
    );
    expect(['a', 'b', 'c'].map((n) => (foo as RecordDataSchema).getField(n)!.getOptional())).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('keeps a field typed as a union with null required (the union does not mark it optional)', () => {
    const foo = parseSchema(record(field('[ "null", "int" ]', '"default": null'))) as RecordDataSchema;
    expect(foo.getField('f')!.getOptional()).toBe(false);
    expect(foo.getField('f')!.getDefault()).toBe(Data.NULL);
  });

  it('accepts an optional field whose type is a union with null (as Rest.li does)', () => {
    expect(schemaProblems(() => parseSchema(record(field('[ "null", "int" ]', '"optional": true'))))).toEqual(
      [],
    );
  });
});

describe('name resolution', () => {
  it('resolves a simple name in the current namespace first, then as given', () => {
    const text =
      '{ "type": "typeref", "name": "Ref", "ref": "string" }\n' +
      '{ "type": "typeref", "name": "a.b.Ref", "ref": "int" }\n' +
      '{ "type": "record", "name": "a.b.Record", "fields": [ { "name": "ref", "type": "Ref" } ] }';
    const rec = parseSchema(text) as RecordDataSchema;
    expect((rec.getField('ref')!.getType() as NamedDataSchema).getFullName()).toBe('a.b.Ref');
  });

  it('falls back to the name as given when the current namespace has no such name', () => {
    const text =
      '{ "type": "typeref", "name": "Ref", "ref": "string" }\n{ "type": "record", "name": "a.b.Record", "fields": [ { "name": "ref", "type": "Ref" } ] }';
    const rec = parseSchema(text) as RecordDataSchema;
    expect((rec.getField('ref')!.getType() as NamedDataSchema).getFullName()).toBe('Ref');
  });

  it('lets nested named schemas inherit the enclosing namespace unless they declare their own', () => {
    const text =
      '{ "type": "record", "name": "Outer", "namespace": "x.y", "fields": [' +
      ' { "name": "a", "type": { "type": "fixed", "name": "Inherits", "size": 1 } },' +
      ' { "name": "b", "type": { "type": "fixed", "name": "Own", "namespace": "z", "size": 1 } },' +
      ' { "name": "c", "type": { "type": "fixed", "name": "q.Full", "size": 1 } } ] }';
    const rec = parseSchema(text) as RecordDataSchema;
    const names = rec.getFields().map((f) => (f.getType() as NamedDataSchema).getFullName());
    expect(names).toEqual(['x.y.Inherits', 'z.Own', 'q.Full']);
  });

  it('resolves a reference to a schema defined earlier in the same text', () => {
    const text =
      '{ "type": "record", "name": "B", "fields": [ { "name": "a", "type": "A", "optional": true } ] } { "type": "record", "name": "A", "fields": [ { "name": "b", "type": "B" } ] }';
    expect(schemaProblems(() => parseSchema(text))).toEqual([
      expect.objectContaining({
        path: '/fields/0/type',
        message: expect.stringContaining('"A" cannot be resolved'),
      }),
    ]);
    const mutual =
      '{ "type": "record", "name": "A", "fields": [ { "name": "b", "type": { "type": "record", "name": "B", "fields": [ { "name": "a", "type": "A", "optional": true } ] } } ] }';
    expect(schemaProblems(() => parseSchema(mutual))).toEqual([]);
  });

  it('lets include refer to a type that the fields define inline when the fields come first', () => {
    const text =
      '{ "type": "record", "name": "Foo", "fields": [ { "name": "b1", "type": { "type": "record", "name": "Bar", "fields": [] } } ], "include": [ "Bar" ] }';
    expect(schemaProblems(() => parseSchema(text))).toEqual([]);
  });
});
