/**
 * The shared schema tree in test/fixtures/pegasus: it all parses, and every schema survives a round trip
 * through its canonical JSON. Later issues (code generator, Avro translation, the example service) reuse it.
 */
import { join } from 'node:path';
import {
  parseSchema,
  SchemaResolver,
  schemaToJson,
  type ArrayDataSchema,
  type EnumDataSchema,
  type NamedDataSchema,
  type RecordDataSchema,
  type TyperefDataSchema,
  type UnionDataSchema,
} from '../../src';

const ROOT = join(__dirname, '../fixtures/pegasus');

describe('the fixture tree', () => {
  const resolver = new SchemaResolver({ resolverPath: [ROOT] });
  const tops = resolver.parseDirectory(ROOT);
  const named = [...resolver.bindings().values()];

  it('holds 30 or more schema files, which all parse without problems', () => {
    expect(resolver.parsedFiles().length).toBeGreaterThanOrEqual(30);
    expect(tops.length).toBe(resolver.parsedFiles().length);
  });

  it('defines each top-level schema in the file its full name maps to', () => {
    for (const schema of tops as NamedDataSchema[]) {
      expect(schema.getLocation()!.file).toBe(join(ROOT, ...schema.getFullName().split('.')) + '.pdsc');
    }
  });

  it('resolves every schema by name from a fresh resolver, file by file', () => {
    const fresh = new SchemaResolver({ resolverPath: [ROOT] });
    for (const schema of tops as NamedDataSchema[])
      expect(fresh.resolve(schema.getFullName()).equals(schema)).toBe(true);
  });

  it.each(named.map((s) => [s.getFullName(), s] as const))(
    'round-trips %s through its canonical JSON',
    (_name, schema) => {
      const text = schema.toString();
      const again = parseSchema(text);
      expect(again.equals(schema)).toBe(true);
      expect(again.toString()).toBe(text);
      expect(parseSchema(schemaToJson(schema, { indent: 2 })).equals(schema)).toBe(true);
    },
  );

  it('has the features later issues rely on', () => {
    const get = <T extends NamedDataSchema>(name: string): T => resolver.getBinding(name) as T;
    const photo = get<RecordDataSchema>('com.example.photos.Photo');
    expect(
      photo
        .getFields()
        .slice(0, 3)
        .map((f) => f.getName()),
    ).toEqual(['time', 'actor', 'impersonator']);
    expect(photo.getField('legacyId')!.isDeprecated()).toBe(true);
    expect(get<EnumDataSchema>('com.example.photos.PhotoFormat').getDeprecatedSymbols().get('BMP')).toBe(
      'Convert to PNG on upload.',
    );
    expect(get<NamedDataSchema>('com.example.photos.exif.Lens').getNamespace()).toBe(
      'com.example.photos.exif',
    );
    expect(get<NamedDataSchema>('org.acme.hr.AccessLevel').getBindingName()).toBe(
      'org.acme.hr.api.AccessLevel',
    );
    expect(get<NamedDataSchema>('org.acme.hr.sites.Site').getBindingName()).toBe(
      'org.acme.hr.api.sites.Site',
    );
    const media = get<TyperefDataSchema>('com.example.photos.MediaContent').getRef() as UnionDataSchema;
    expect(media.areMembersAliased()).toBe(true);
    const event = get<TyperefDataSchema>('com.example.photos.PhotoEvent').getRef() as UnionDataSchema;
    expect(event.hasNullMember()).toBe(true);
    expect(get<RecordDataSchema>('com.example.photos.PhotoNotFoundError').isErrorRecord()).toBe(true);
    const tree = get<RecordDataSchema>('org.acme.graph.TreeNode');
    expect((tree.getField('children')!.getType() as ArrayDataSchema).getItems()).toBe(tree);
    const employee = get<RecordDataSchema>('org.acme.hr.Employee');
    expect(get<RecordDataSchema>('org.acme.hr.Department').getField('head')!.getType()).toBe(employee);
    expect(get<RecordDataSchema>('org.acme.graph.AllDefaults').getField('aLong')!.getDefault()).toBe(
      9223372036854775807n,
    );
    expect(get<TyperefDataSchema>('com.example.common.Url').getJavaBinding()).toEqual({
      className: 'java.net.URI',
      coercerClass: 'com.example.common.UriCoercer',
    });
  });
});
