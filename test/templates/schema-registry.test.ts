/** The registry generated modules register their schema texts with, and SchemaRef navigation. */
import {
  type RecordDataSchema,
  SchemaRef,
  SchemaRegistry,
  TemplateSchemaException,
  UnionDataSchema,
  isSvcError,
} from '../../src';
import { Employee } from '../generated/fixtures/org/acme/hr/Employee';
import { Department } from '../generated/fixtures/org/acme/hr/Department';
import { Caption, Caption_Text } from '../generated/fixtures/com/example/photos/Caption';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { MultiLocaleString } from '../generated/fixtures/com/example/common/MultiLocaleString';

describe('the schema registry', () => {
  it('parses a registered schema on first use, with the schemas it refers to', () => {
    const r = new SchemaRegistry();
    r.register('a.B', '{"type":"record","name":"B","namespace":"a","fields":[{"name":"c","type":"a.C"}]}');
    r.register('a.C', '{"type":"enum","name":"C","namespace":"a","symbols":["X"]}');
    const b = r.resolve('a.B') as RecordDataSchema;
    expect(b.getField('c')!.getType()).toBe(r.resolve('a.C'));
    expect(r.has('a.B') && !r.has('a.D')).toBe(true);
  });

  it('ignores a second registration of the same text and refuses another text', () => {
    const r = new SchemaRegistry();
    const text = '{"type":"fixed","name":"F","size":1}';
    r.register('F', text);
    r.register('F', text);
    let err: unknown;
    try {
      r.register('F', '{"type":"fixed","name":"F","size":2}');
    } catch (e) {
      err = e;
    }
    expect(isSvcError(err, 'TemplateSchemaException', 'SVC_ERR_TEMPLATE_SCHEMA_CONFLICT')).toBe(true);
  });

  it('says which schema is missing', () => {
    const r = new SchemaRegistry();
    r.register(
      'a.B',
      '{"type":"record","name":"B","namespace":"a","fields":[{"name":"c","type":"a.Missing"}]}',
    );
    let err: unknown;
    try {
      r.resolve('a.B');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TemplateSchemaException);
    expect(isSvcError(err, 'TemplateSchemaException', 'SVC_ERR_TEMPLATE_SCHEMA_MISSING')).toBe(true);
    expect((err as Error).message).toContain('a.Missing');
  });

  it('shares one schema object per name between generated classes', () => {
    const caption = new Caption().schema();
    expect(caption.getField('language')!.getType()).toBe(new Locale().schema());
    const text = new Caption_Text().schema();
    expect(text).toBe(caption.getField('text')!.getType());
    expect(text.getTypeByMemberKey('com.example.common.MultiLocaleString')).toBe(
      new MultiLocaleString().schema(),
    );
  });

  it('resolves records that refer to each other across modules', () => {
    const employee = new Employee().schema();
    const department = new Department().schema();
    expect(employee.getField('department')!.getType()).toBe(department);
    expect(department.getField('head')!.getType()).toBe(employee);
  });
});

describe('SchemaRef', () => {
  const r = new SchemaRegistry();
  r.register(
    'n.R',
    '{"type":"record","name":"R","namespace":"n","fields":[{"name":"u","type":[{"type":"array","items":["int","string"]},{"type":"map","values":"long"}]}]}',
  );
  const R = SchemaRef.named<RecordDataSchema>('n.R', r);

  it('navigates fields, members, items and values', () => {
    const u = R.field<UnionDataSchema>('u');
    expect(u.get()).toBeInstanceOf(UnionDataSchema);
    expect(u.member('array').items<UnionDataSchema>().get().getMembers().length).toBe(2);
    expect(u.member('map').values().get().getType()).toBe('LONG');
    expect(SchemaRef.arrayOf(SchemaRef.primitive('int')).get().getItems().getType()).toBe('INT');
    expect(SchemaRef.mapOf(R).get().getValues()).toBe(R.get());
  });

  it('computes once', () => {
    expect(R.field('u').get()).toBe(R.field('u').get());
    const ref = R.field('u');
    expect(ref.get()).toBe(ref.get());
  });

  it('refuses paths the schema does not have', () => {
    expect(() => R.field('nope').get()).toThrow(TemplateSchemaException);
    expect(() => R.field('u').member('nope').get()).toThrow(TemplateSchemaException);
    expect(() => R.items().get()).toThrow(TemplateSchemaException);
    expect(() => R.values().get()).toThrow(TemplateSchemaException);
    expect(() => SchemaRef.primitive('integer').get()).toThrow(TemplateSchemaException);
  });
});
