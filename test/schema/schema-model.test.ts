import type { DataList, DataMap, NamedDataSchema } from '../../src';
import {
  ArrayDataSchema,
  ByteString,
  Data,
  DataSchemaType,
  EnumDataSchema,
  FixedDataSchema,
  IntDataSchema,
  MapDataSchema,
  NullDataSchema,
  parseSchema,
  primitiveSchema,
  PRIMITIVE_TYPE_NAMES,
  RecordDataSchema,
  RecordField,
  StringDataSchema,
  TyperefDataSchema,
  UnionDataSchema,
  UnionMember,
  UnsupportedOperationException,
  type DataSchema,
} from '../../src';

const TEXT = `
{ "type": "enum", "name": "com.acme.Fruit", "symbols": [ "APPLE", "ORANGE", "BANANA" ],
  "symbolDocs": { "BANANA": "yellow", "APPLE": "red" }, "deprecatedSymbols": { "ORANGE": "out of season" } }
{ "type": "fixed", "name": "com.acme.MD5", "size": 16, "doc": "digest" }
{ "type": "typeref", "name": "com.acme.Urn", "ref": "string", "java": { "class": "com.acme.UrnClass" } }
{ "type": "record", "name": "com.acme.Base", "fields": [ { "name": "id", "type": "long" } ] }
{ "type": "typeref", "name": "com.acme.BaseRef", "ref": "com.acme.Base" }
{
  "type": "error",
  "name": "Main",
  "namespace": "com.acme",
  "package": "com.acme.api",
  "doc": "main doc",
  "aliases": [ "Principal", "x.Other" ],
  "deprecated": "use Next",
  "include": [ "BaseRef" ],
  "validate": { "custom": { "max": 3 } },
  "fields": [
    { "name": "int", "type": "int", "default": -1, "doc": "an int", "validate": { "range": { "min": 0 } } },
    { "name": "long", "type": "long", "optional": true, "default": 1234567890123456789 },
    { "name": "bytes", "type": "bytes", "default": "\\u0001\\u00ff" },
    { "name": "fruits", "type": { "type": "array", "items": "Fruit", "p": 1 }, "default": [ "APPLE" ] },
    { "name": "counts", "type": { "type": "map", "values": "int" }, "default": { "a": 1 } },
    { "name": "md5", "type": "MD5", "deprecated": true, "order": "descending", "aliases": [ "digest" ] },
    { "name": "urn", "type": "Urn" },
    { "name": "u", "type": [ "null", "int", "Fruit", { "type": "array", "items": "string" }, "Urn", "Base" ], "default": { "com.acme.Fruit": "APPLE" } },
    { "name": "a", "type": [ { "alias": "count", "type": "int", "doc": "how many", "p": true }, { "alias": "when", "type": "long" } ] }
  ]
}`;

describe('the schema model', () => {
  const main = parseSchema(TEXT) as RecordDataSchema;
  const field = (name: string): RecordField => main.getField(name)!;
  const typeOf = (name: string): DataSchema => field(name).getType();

  describe('DataSchema (base)', () => {
    it('reports each type', () => {
      const types = main.getFields().map((f) => f.getType().getType());
      expect(types).toEqual([
        'LONG',
        'INT',
        'LONG',
        'BYTES',
        'ARRAY',
        'MAP',
        'FIXED',
        'TYPEREF',
        'UNION',
        'UNION',
      ]);
      expect(main.getType()).toBe(DataSchemaType.RECORD);
      const fruit = (typeOf('fruits') as ArrayDataSchema).getItems();
      expect(fruit.getType()).toBe('ENUM');
      expect(primitiveSchema('null')!.getType()).toBe('NULL');
      expect(primitiveSchema('boolean')!.getType()).toBe('BOOLEAN');
      expect(primitiveSchema('float')!.getType()).toBe('FLOAT');
      expect(primitiveSchema('double')!.getType()).toBe('DOUBLE');
      expect(primitiveSchema('string')!.getType()).toBe('STRING');
    });

    it('dereferences typerefs (and leaves other schemas as they are)', () => {
      const urn = typeOf('urn') as TyperefDataSchema;
      expect(urn.getType()).toBe('TYPEREF');
      expect(urn.getDereferencedType()).toBe('STRING');
      expect(urn.getDereferencedSchema()).toBe(StringDataSchema.INSTANCE);
      expect(main.getDereferencedSchema()).toBe(main);
      expect(main.getDereferencedType()).toBe('RECORD');
      const chain = parseSchema(
        '{ "type": "typeref", "name": "A", "ref": { "type": "typeref", "name": "B", "ref": "int" } }',
      );
      expect(chain.getDereferencedSchema()).toBe(IntDataSchema.INSTANCE);
    });

    it('tells primitive from complex', () => {
      for (const name of PRIMITIVE_TYPE_NAMES) {
        expect(primitiveSchema(name)!.isPrimitive()).toBe(true);
        expect(primitiveSchema(name)!.isComplex()).toBe(false);
      }
      for (const name of ['fruits', 'counts', 'md5', 'urn', 'u']) expect(typeOf(name).isComplex()).toBe(true);
    });

    it('has no errors in a schema a parse returned', () => {
      expect(main.hasError()).toBe(false);
      expect(main.getFields().every((f) => !f.getType().hasError())).toBe(true);
      expect(IntDataSchema.INSTANCE.hasError()).toBe(false);
    });

    it('keeps unknown attributes as read-only properties (empty for primitives)', () => {
      expect(Data.toJS(main.getProperties())).toEqual({ validate: { custom: { max: 3 } } });
      expect(Data.toJS(typeOf('fruits').getProperties())).toEqual({ p: 1 });
      expect(() => main.getProperties().put('x', 1)).toThrow(UnsupportedOperationException);
      expect(() => (main.getProperties().get('validate') as DataMap).put('x', 1)).toThrow(
        UnsupportedOperationException,
      );
      expect(IntDataSchema.INSTANCE.getProperties().size).toBe(0);
      expect(() => IntDataSchema.INSTANCE.getProperties().put('x', 1)).toThrow(UnsupportedOperationException);
    });

    it('does not treat deprecated, deprecatedSymbols and java as properties (the parser interprets them)', () => {
      const fruit = (typeOf('fruits') as ArrayDataSchema).getItems();
      expect(fruit.getProperties().size).toBe(0);
      expect(typeOf('urn').getProperties().size).toBe(0);
      expect(main.getProperties().has('deprecated')).toBe(false);
    });

    it('gives union member keys: type names, array, map, union, full names, and the referenced type for typerefs', () => {
      const keys = main.getFields().map((f) => f.getType().getUnionMemberKey());
      expect(keys).toEqual([
        'long',
        'int',
        'long',
        'bytes',
        'array',
        'map',
        'com.acme.MD5',
        'string',
        'union',
        'union',
      ]);
      expect(main.getUnionMemberKey()).toBe('com.acme.Main');
      expect(NullDataSchema.INSTANCE.getUnionMemberKey()).toBe('null');
    });

    it('compares structurally, across parses', () => {
      const again = parseSchema(TEXT);
      expect(again).not.toBe(main);
      expect(again.equals(main)).toBe(true);
      expect(main.equals(parseSchema(TEXT.replace('"main doc"', '"other doc"')))).toBe(false);
      expect(main.equals(parseSchema(TEXT.replace('"default": -1', '"default": -2')))).toBe(false);
      expect(main.equals('not a schema')).toBe(false);
      expect(IntDataSchema.INSTANCE.equals(primitiveSchema('int'))).toBe(true);
      expect(IntDataSchema.INSTANCE.equals(primitiveSchema('long'))).toBe(false);
    });

    it('compares recursive schemas without looping', () => {
      const text =
        '{ "type": "record", "name": "List", "fields": [ { "name": "next", "type": "List", "optional": true } ] }';
      expect(parseSchema(text).equals(parseSchema(text))).toBe(true);
      expect(
        parseSchema(text).equals(parseSchema(text.replace('"optional": true', '"optional": false'))),
      ).toBe(false);
    });
  });

  describe('NamedDataSchema', () => {
    it('has a name, namespace, full name, package, doc, aliases and deprecation', () => {
      expect(main.getName()).toBe('Main');
      expect(main.getNamespace()).toBe('com.acme');
      expect(main.getFullName()).toBe('com.acme.Main');
      expect(main.getPackage()).toBe('com.acme.api');
      expect(main.getBindingNamespace()).toBe('com.acme.api');
      expect(main.getBindingName()).toBe('com.acme.api.Main');
      expect(main.getDoc()).toBe('main doc');
      expect(main.getAliases()).toEqual(['com.acme.Principal', 'x.Other']);
      expect(main.getDeprecated()).toBe('use Next');
      expect(main.isDeprecated()).toBe(true);
      expect(main.getLocation()).toEqual({ line: 8, column: 1 });
      const md5 = typeOf('md5') as FixedDataSchema;
      expect(md5.getPackage()).toBeUndefined();
      expect(md5.getBindingName()).toBe('com.acme.MD5');
      expect(md5.isDeprecated()).toBe(false);
    });

    it('lets a nested schema inherit the package, extended by its sub-namespace', () => {
      const text =
        '{ "type": "record", "name": "a.Outer", "package": "p", "fields": [' +
        ' { "name": "x", "type": { "type": "fixed", "name": "X", "size": 1 } },' +
        ' { "name": "y", "type": { "type": "fixed", "name": "a.b.Y", "size": 1 } },' +
        ' { "name": "z", "type": { "type": "fixed", "name": "c.Z", "size": 1 } } ] }';
      const outer = parseSchema(text) as RecordDataSchema;
      expect(outer.getFields().map((f) => (f.getType() as NamedDataSchema).getBindingName())).toEqual([
        'p.X',
        'p.b.Y',
        'p.Z',
      ]);
    });
  });

  describe('EnumDataSchema', () => {
    const fruit = (typeOf('fruits') as ArrayDataSchema).getItems() as EnumDataSchema;

    it('has symbols, their index and membership', () => {
      expect(fruit.getSymbols()).toEqual(['APPLE', 'ORANGE', 'BANANA']);
      expect(fruit.index('BANANA')).toBe(2);
      expect(fruit.index('PLUM')).toBe(-1);
      expect(fruit.contains('ORANGE')).toBe(true);
      expect(fruit.contains('orange')).toBe(false);
    });

    it('has symbol docs and deprecated symbols in symbol order', () => {
      expect([...fruit.getSymbolDocs()]).toEqual([
        ['APPLE', 'red'],
        ['BANANA', 'yellow'],
      ]);
      expect([...fruit.getDeprecatedSymbols()]).toEqual([['ORANGE', 'out of season']]);
    });
  });

  describe('FixedDataSchema', () => {
    it('has a size', () => {
      expect((typeOf('md5') as FixedDataSchema).getSize()).toBe(16);
      expect((typeOf('md5') as FixedDataSchema).getDoc()).toBe('digest');
    });
  });

  describe('ArrayDataSchema and MapDataSchema', () => {
    it('have items and values', () => {
      expect((typeOf('fruits') as ArrayDataSchema).getItems().getUnionMemberKey()).toBe('com.acme.Fruit');
      expect((typeOf('fruits') as ArrayDataSchema).isItemsDeclaredInline()).toBe(false);
      expect((typeOf('counts') as MapDataSchema).getValues()).toBe(IntDataSchema.INSTANCE);
    });
  });

  describe('TyperefDataSchema', () => {
    it('has a ref and a java binding', () => {
      const urn = typeOf('urn') as TyperefDataSchema;
      expect(urn.getRef()).toBe(StringDataSchema.INSTANCE);
      expect(urn.isRefDeclaredInline()).toBe(false);
      expect(urn.getJavaBinding()).toEqual({ className: 'com.acme.UrnClass' });
    });
  });

  describe('RecordDataSchema', () => {
    it('is a record or an error', () => {
      expect(main.getRecordType()).toBe('error');
      expect(main.isErrorRecord()).toBe(true);
      expect(
        (
          (typeOf('u') as UnionDataSchema).getTypeByMemberKey('com.acme.Base') as RecordDataSchema
        ).getRecordType(),
      ).toBe('record');
    });

    it('lists included fields first, then its own; index, contains and lookup cover both', () => {
      expect(main.getFields().map((f) => f.getName())).toEqual([
        'id',
        'int',
        'long',
        'bytes',
        'fruits',
        'counts',
        'md5',
        'urn',
        'u',
        'a',
      ]);
      expect(main.getOwnFields()).toHaveLength(9);
      expect(main.index('id')).toBe(0);
      expect(main.index('a')).toBe(9);
      expect(main.index('nope')).toBe(-1);
      expect(main.contains('id')).toBe(true);
      expect(main.contains('nope')).toBe(false);
      expect(main.getField('nope')).toBeUndefined();
      const id = main.getField('id')!;
      expect(main.isFieldFromIncludes(id)).toBe(true);
      expect(id.getRecord()!.getFullName()).toBe('com.acme.Base');
      expect(main.isFieldFromIncludes(field('int'))).toBe(false);
      expect(main.getInclude().map((s) => s.getFullName())).toEqual(['com.acme.BaseRef']);
      expect(main.isIncludeDeclaredInline(main.getInclude()[0]!)).toBe(false);
    });

    it('copies included fields only, no other attribute', () => {
      const text =
        '{ "type": "record", "name": "A", "doc": "a", "p": 1, "fields": [ { "name": "x", "type": "int" } ] } { "type": "record", "name": "B", "include": [ "A" ], "fields": [] }';
      const b = parseSchema(text) as RecordDataSchema;
      expect(b.getDoc()).toBe('');
      expect(b.getProperties().size).toBe(0);
      expect(b.getFields().map((f) => f.getName())).toEqual(['x']);
    });

    it('includes transitively', () => {
      const text =
        '{ "type": "record", "name": "A", "fields": [ { "name": "a", "type": "int" } ] }' +
        '{ "type": "record", "name": "B", "include": [ "A" ], "fields": [ { "name": "b", "type": "int" } ] }' +
        '{ "type": "record", "name": "C", "include": [ "B" ], "fields": [ { "name": "c", "type": "int" } ] }';
      expect((parseSchema(text) as RecordDataSchema).getFields().map((f) => f.getName())).toEqual([
        'a',
        'b',
        'c',
      ]);
    });
  });

  describe('RecordField', () => {
    it('has a name, type, optionality, default, doc, deprecation, order, aliases and properties', () => {
      const f = field('int');
      expect(f.getName()).toBe('int');
      expect(f.getType()).toBe(IntDataSchema.INSTANCE);
      expect(f.getOptional()).toBe(false);
      expect(f.isOptional()).toBe(false);
      expect(f.hasDefault()).toBe(true);
      expect(f.getDefault()).toBe(-1);
      expect(f.getDoc()).toBe('an int');
      expect(f.getOrder()).toBe('ascending');
      expect(Data.toJS(f.getProperties())).toEqual({ validate: { range: { min: 0 } } });
      expect(f.getRecord()).toBe(main);
      expect(f.getLocation()).toEqual({ line: 19, column: 5 });
      const md5 = field('md5');
      expect(md5.getDeprecated()).toBe(true);
      expect(md5.isDeprecated()).toBe(true);
      expect(md5.getOrder()).toBe('descending');
      expect(md5.getAliases()).toEqual(['digest']);
      expect(md5.hasDefault()).toBe(false);
      expect(md5.getDefault()).toBeUndefined();
      expect(field('long').getOptional()).toBe(true);
    });

    it('keeps defaults as read-only data: exact longs, ByteStrings for bytes, containers', () => {
      expect(field('long').getDefault()).toBe(1234567890123456789n);
      expect((field('bytes').getDefault() as ByteString).equals(ByteString.copy([1, 255]))).toBe(true);
      const fruits = field('fruits').getDefault() as DataList;
      expect(Data.toJS(fruits)).toEqual(['APPLE']);
      expect(fruits.isMadeReadOnly()).toBe(true);
      expect(() => fruits.add('x')).toThrow(UnsupportedOperationException);
      expect((field('counts').getDefault() as DataMap).isMadeReadOnly()).toBe(true);
      expect(Data.toJS(field('u').getDefault()!)).toEqual({ 'com.acme.Fruit': 'APPLE' });
    });

    it('compares fields structurally', () => {
      expect(field('int').equals((parseSchema(TEXT) as RecordDataSchema).getField('int'))).toBe(true);
      expect(field('int').equals(field('long'))).toBe(false);
    });

    it('knows whether its type was declared inline', () => {
      expect(field('fruits').isDeclaredInline()).toBe(true);
      expect(field('md5').isDeclaredInline()).toBe(false);
    });
  });

  describe('UnionDataSchema', () => {
    const u = typeOf('u') as UnionDataSchema;
    const a = typeOf('a') as UnionDataSchema;

    it('lists members in order', () => {
      expect(u.getMembers().map((m) => m.getUnionMemberKey())).toEqual([
        'null',
        'int',
        'com.acme.Fruit',
        'array',
        'string',
        'com.acme.Base',
      ]);
      expect(u.getMembers()[4]!.getType().getType()).toBe('TYPEREF');
    });

    it('finds members by key', () => {
      expect(u.contains('null')).toBe(true);
      expect(u.contains('com.acme.Urn')).toBe(false);
      expect(u.getTypeByMemberKey('string')!.getType()).toBe('TYPEREF');
      expect(u.getTypeByMemberKey('int')).toBe(IntDataSchema.INSTANCE);
      expect(u.getTypeByMemberKey('long')).toBeUndefined();
      expect(u.getMemberByMemberKey('array')!.isDeclaredInline()).toBe(true);
      expect(u.hasNullMember()).toBe(true);
      expect(a.hasNullMember()).toBe(false);
    });

    it('knows whether members are aliased', () => {
      expect(u.areMembersAliased()).toBe(false);
      expect(a.areMembersAliased()).toBe(true);
      expect(a.contains('count')).toBe(true);
      expect(a.contains('int')).toBe(false);
      expect(a.getTypeByMemberKey('when')!.getType()).toBe('LONG');
    });

    it('gives members their alias, doc and properties', () => {
      const count: UnionMember = a.getMemberByMemberKey('count')!;
      expect(count.getAlias()).toBe('count');
      expect(count.hasAlias()).toBe(true);
      expect(count.getDoc()).toBe('how many');
      expect(Data.toJS(count.getProperties())).toEqual({ p: true });
      expect(u.getMembers()[0]!.getAlias()).toBeUndefined();
      expect(u.getMembers()[0]!.getDoc()).toBe('');
      expect(count.equals(a.getMembers()[0])).toBe(true);
      expect(count.equals(a.getMembers()[1])).toBe(false);
    });
  });

  describe('constructors', () => {
    it('build schemas in code that equal parsed ones', () => {
      const fruit = new EnumDataSchema({ name: 'com.acme.Fruit', symbols: ['APPLE', 'PEAR'] });
      const point = new RecordDataSchema({
        name: 'Point',
        namespace: 'com.acme',
        fields: [
          new RecordField({ name: 'x', type: IntDataSchema.INSTANCE, default: 0 }),
          new RecordField({ name: 'tags', type: new ArrayDataSchema(fruit), optional: true }),
          new RecordField({
            name: 'u',
            type: new UnionDataSchema([
              new UnionMember({ type: NullDataSchema.INSTANCE }),
              new UnionMember({ type: new MapDataSchema(fruit) }),
            ]),
          }),
          new RecordField({
            name: 'f',
            type: new TyperefDataSchema({
              name: 'com.acme.F',
              ref: new FixedDataSchema({ name: 'com.acme.F4', size: 4 }),
            }),
          }),
        ],
      });
      const parsed = parseSchema(point.toString());
      expect(parsed.equals(point)).toBe(true);
      expect(point.getField('x')!.getRecord()).toBe(point);
      expect((point.getField('u')!.getType() as UnionDataSchema).contains('map')).toBe(true);
    });

    it('copy the fields of included records', () => {
      const base = new RecordDataSchema({
        name: 'Base',
        fields: [new RecordField({ name: 'id', type: IntDataSchema.INSTANCE })],
      });
      const derived = new RecordDataSchema({
        name: 'Derived',
        include: [base],
        fields: [new RecordField({ name: 'x', type: IntDataSchema.INSTANCE })],
      });
      expect(derived.getFields().map((f) => f.getName())).toEqual(['id', 'x']);
      expect(parseSchema(derived.toString()).equals(derived)).toBe(true);
    });
  });
});
