/**
 * Union classes: members, createWith/is/get/set, memberType and memberIs, the null-union state rules of the
 * brief's state table, aliased members, unions nested in records, typeref'd unions with typerefInfo().
 */
import {
  ClassCastException,
  Data,
  DataMap,
  GetMode,
  NullDataSchema,
  NullUnionUnsupportedOperationException,
  NullValueException,
  StringArray,
  TemplateOutputCastException,
  UnionDataSchema,
  isSvcError,
} from '../../src';
import { Base_Tag } from '../generated/binding/com/example/binding/Base';
import { Circle } from '../generated/binding/com/example/binding/Circle';
import {
  Holder,
  Holder_Aliased,
  Holder_Events,
  Holder_EventsArray,
  Holder_FieldsUnion,
  Holder_Nested,
  Holder_Nested_Array,
  Holder_Nested_ArrayArray,
  Holder_Nullable,
  Holder_Plain,
  Holder_When,
} from '../generated/binding/com/example/binding/Holder';
import { Point } from '../generated/binding/com/example/binding/Point';
import { Shape } from '../generated/binding/com/example/binding/Shape';
import { Square } from '../generated/binding/com/example/binding/Square';

describe('a union without typeref', () => {
  it('is named from its field and nested in the record file', () => {
    expect(new Holder_Plain().schema()).toBeInstanceOf(UnionDataSchema);
    expect(new Holder_Plain().schema()).toBe(new Holder().schema().getField('plain')!.getType());
  });

  it('creates, tests, gets and sets each member', () => {
    const u = Holder_Plain.createWithInt(3);
    expect(u.isInt()).toBe(true);
    expect(u.isString()).toBe(false);
    expect(u.getInt()).toBe(3);
    expect(Data.toJS(u.data())).toEqual({ int: 3 });
    expect(u.setString('x')).toBe(u);
    expect(Data.toJS(u.data())).toEqual({ string: 'x' }); // the previous member is gone
    const point = new Point().setX(1).setY(2);
    u.setPoint(point);
    expect(u.memberIs('com.example.binding.Point')).toBe(true);
    expect(u.getPoint().getX()).toBe(1);
    expect(u.getPoint().data()).toBe(point.data());
    u.setArray(new StringArray(['a']));
    expect(u.getArray().toArray()).toEqual(['a']);
  });

  it('throws TemplateOutputCastException from the getter of another member', () => {
    const u = Holder_Plain.createWithInt(3);
    let err: unknown;
    try {
      u.getString();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TemplateOutputCastException);
    expect(isSvcError(err, 'TemplateOutputCastException', 'SVC_ERR_TEMPLATE_OUTPUT_CAST')).toBe(true);
    expect((err as Error).message).toBe('The union holds member "int", not member "string"');
  });

  it('gives memberType() and memberKeyName() of the member it holds', () => {
    const u = Holder_Plain.createWithString('s');
    expect(u.memberType().getType()).toBe('STRING');
    expect(u.memberKeyName()).toBe('string');
    expect(Holder_Plain.createWithPoint(new Point()).memberType().getUnionMemberKey()).toBe(
      'com.example.binding.Point',
    );
  });

  it('throws TemplateOutputCastException from memberType() when the member cannot be determined', () => {
    expect(() => new Holder_Plain(new DataMap({ int: 1, string: 'x' })).memberType()).toThrow(
      'does not have exactly one entry',
    );
    expect(() => new Holder_Plain(new DataMap()).memberType()).toThrow(TemplateOutputCastException);
    expect(() => new Holder_Plain(new DataMap({ long: 1 })).memberType()).toThrow('"long" is not a member');
    expect(new Holder_Plain(new DataMap({ int: 1, string: 'x' })).memberIs('int')).toBe(false);
  });

  it('refuses a value of the wrong type, and null, in setters', () => {
    const u = Holder_Plain.createWithInt(1);
    expect(() => (u.setInt as (v: unknown) => unknown)('1')).toThrow(ClassCastException);
    expect(() => (u.setPoint as (v: unknown) => unknown)(new Circle())).toThrow(ClassCastException);
    expect(() => (u.setInt as (v: unknown) => unknown)(null)).toThrow(NullValueException);
    expect(u.getInt()).toBe(1);
  });

  it('is the value of its field in the record', () => {
    const h = new Holder().setPlain(Holder_Plain.createWithString('hi'));
    expect(Data.toJS(h.data().get('plain')!)).toEqual({ string: 'hi' });
    expect(h.getPlain()!.getString()).toBe('hi');
    h.getPlain()!.setInt(4); // live: writes through
    expect(h.data().getDataMap('plain')!.get('int')).toBe(4);
    expect(() => h.setPlain(Holder_Aliased.createWithCount(1) as unknown as Holder_Plain)).toThrow(
      ClassCastException,
    );
  });

  it('clones and copies into the same class', () => {
    const u = Holder_Plain.createWithInt(1);
    const c = u.clone();
    expect(c).toBeInstanceOf(Holder_Plain);
    expect(c.data()).not.toBe(u.data());
    expect(c.equals(u)).toBe(true);
    expect(u.copy().equals(u)).toBe(true);
    expect(new Holder_Plain().clone().isNull()).toBe(true);
  });
});

describe('a union with aliased members', () => {
  it('keys members by alias, also when two members have one type', () => {
    const u = Holder_Aliased.createWithTotal(7);
    expect(Data.toJS(u.data())).toEqual({ total: 7 });
    expect(u.isCount()).toBe(false);
    expect(u.isTotal()).toBe(true);
    expect(() => u.getCount()).toThrow(TemplateOutputCastException);
    expect(u.memberType().getType()).toBe('INT');
    expect(u.memberIs('total')).toBe(true);
    expect(u.memberIs('int')).toBe(false);
  });
});

describe('a null union (brief, "States and transitions")', () => {
  it('is what the empty constructor, null and Data.NULL give', () => {
    for (const u of [new Shape(), new Shape(null), new Shape(Data.NULL)]) {
      expect(u.isNull()).toBe(true);
      expect(u.data()).toBe(Data.NULL);
      expect(u.memberType()).toBe(NullDataSchema.INSTANCE);
      expect(u.toString()).toBe('null');
      expect(u.memberIs('circle')).toBe(false);
    }
  });

  it('stays null: any assignment throws NullUnionUnsupportedOperationException', () => {
    const u = new Shape();
    let err: unknown;
    try {
      u.setCircle(new Circle().setRadius(1));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NullUnionUnsupportedOperationException);
    expect(isSvcError(err, 'NullUnionUnsupportedOperationException', 'SVC_ERR_TEMPLATE_NULL_UNION')).toBe(
      true,
    );
    expect(u.isNull()).toBe(true);
    expect(() => u.setLabel('x')).toThrow(NullUnionUnsupportedOperationException);
    expect(() => u.memberKeyName()).toThrow(NullUnionUnsupportedOperationException);
  });

  it('has no member to get', () => {
    expect(() => new Shape().getCircle()).toThrow(TemplateOutputCastException);
  });

  it('is stored as Data.NULL in a record and read back as a null union', () => {
    const h = new Holder().setShape(new Shape());
    expect(h.data().get('shape')).toBe(Data.NULL);
    expect(h.getShape()!.isNull()).toBe(true);
  });

  it('reads a null member stored by others', () => {
    const h = new Holder(new DataMap({ nullable: Data.NULL }));
    expect(h.getNullable()!.isNull()).toBe(true);
    expect(new Holder_Nullable(new DataMap({ string: 'x' })).getString()).toBe('x');
  });
});

describe('a non-null union (brief, "States and transitions")', () => {
  it('cannot be assigned null: it stays non-null', () => {
    const u = Shape.createWithLabel('x');
    expect(() => (u.setLabel as (v: unknown) => unknown)(null)).toThrow(NullValueException);
    expect(() => (u.setCircle as (v: unknown) => unknown)(undefined)).toThrow(NullValueException);
    expect(u.isNull()).toBe(false);
    expect(u.getLabel()).toBe('x');
  });

  it('switches between non-null members', () => {
    const u = Shape.createWithCircle(new Circle().setRadius(2));
    u.setSquare(new Square().setSide(3));
    expect(u.isSquare()).toBe(true);
    expect(u.getSquare().getSide()).toBe(3);
  });
});

describe('a union with typeref', () => {
  it('is named after the typeref and carries typerefInfo()', () => {
    const u = new Shape();
    expect(u.typerefInfo()).toBe(Shape.TYPEREF_INFO);
    expect(u.typerefInfo().fullName()).toBe('com.example.binding.Shape');
    expect(u.typerefInfo().schema().getRef()).toBe(u.schema());
    expect(u.schema().hasNullMember()).toBe(true);
  });
});

describe('names of nested unions', () => {
  it('follow the field, the member and the Fields rule', () => {
    expect(Holder_FieldsUnion.createWithLong(1).getLong()).toBe(1);
    expect(Holder_FieldsUnion.createWithBoolean(true).getBoolean()).toBe(true);
    const inner = Holder_Nested_Array.createWithPoint(new Point().setX(1).setY(1));
    const nested = Holder_Nested.createWithArray(new Holder_Nested_ArrayArray([inner]));
    expect(nested.getArray().get(0).getPoint().getX()).toBe(1);
    const events = new Holder_EventsArray([
      Holder_Events.createWithInt(1),
      Holder_Events.createWithString('a'),
    ]);
    const h = new Holder().setEvents(events);
    expect(h.getEvents()!.map((e) => (e.isInt() ? e.getInt() : e.getString()))).toEqual([1, 'a']);
  });

  it('put a union of an included field in the included record', () => {
    const h = new Holder().setTag(Base_Tag.createWithString('t'));
    expect(h.getTag(GetMode.NULL)!.getString()).toBe('t');
  });

  it('name a typeref member after the typeref, keyed by the dereferenced type', () => {
    const at = new Date(1000);
    const u = Holder_When.createWithTimestamp(at);
    expect(Data.toJS(u.data())).toEqual({ long: 1000 });
    expect(u.getTimestamp().getTime()).toBe(1000);
  });
});
