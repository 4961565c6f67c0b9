/**
 * Misuse of generated classes is a type error. Every `@ts-expect-error` below must see an error, or
 * `npm run typecheck` fails (and test/codegen/compile.test.ts, which type-checks this file with a fresh
 * generation); at run time each misuse still fails, with the brief's error.
 */
import {
  ClassCastException,
  GetMode,
  IllegalArgumentException,
  NullValueException,
  SetMode,
  TemplateOutputCastException,
  type ByteString,
} from '../../src';
import { Color } from '../generated/binding/com/example/binding/Color';
import { Event } from '../generated/binding/com/example/binding/Event';
import { Holder_Plain } from '../generated/binding/com/example/binding/Holder';
import { Modes } from '../generated/binding/com/example/binding/Modes';
import { Palette } from '../generated/binding/com/example/binding/Palette';
import { Point } from '../generated/binding/com/example/binding/Point';
import { PointArray } from '../generated/binding/com/example/binding/PointArray';
import { Primitives } from '../generated/binding/com/example/binding/Primitives';
import { Shape } from '../generated/binding/com/example/binding/Shape';

describe('misuse that is a type error', () => {
  it('setting a string into an int field', () => {
    // @ts-expect-error an int field takes a number
    expect(() => new Modes().setRequired('1')).toThrow(ClassCastException);
  });

  it('setting null without a mode that allows it', () => {
    // @ts-expect-error DISALLOW_NULL is the default
    expect(() => new Modes().setOptional(null)).toThrow(NullValueException);
    // @ts-expect-error DISALLOW_NULL does not take null
    expect(() => new Modes().setOptional(undefined, SetMode.DISALLOW_NULL)).toThrow(NullValueException);
  });

  it('REMOVE_OPTIONAL_IF_NULL with null on a required field', () => {
    // @ts-expect-error a required field cannot be removed in this mode
    expect(() => new Modes().setRequired(null, SetMode.REMOVE_OPTIONAL_IF_NULL)).toThrow(
      IllegalArgumentException,
    );
  });

  it('using a getter that may give undefined as a value', () => {
    const m = new Modes().setRequired(1);
    const strict: number = m.getRequired(); // required: STRICT gives a number
    const withDefault: number = m.getRequiredWithDefault(GetMode.DEFAULT); // DEFAULT gives the default
    // @ts-expect-error NULL mode may give undefined
    const nullMode: number = m.getRequired(GetMode.NULL);
    // @ts-expect-error an optional field without default may be absent
    const optional: number = m.getOptional();
    // @ts-expect-error DEFAULT on a required field without default may give undefined
    const noDefault: number = m.getRequired(GetMode.DEFAULT);
    expect([strict, withDefault, nullMode, optional, noDefault]).toEqual([1, 7, 1, undefined, 1]);
  });

  it('a record of another class', () => {
    // @ts-expect-error a Point is not a Palette
    expect(() => new Modes().setPoint(new Palette())).toThrow(ClassCastException);
    // @ts-expect-error array items are Points
    expect(() => new PointArray([new Palette()])).toThrow(ClassCastException);
  });

  it('a string for an enum, a number for a long that is a bigint-capable type', () => {
    // @ts-expect-error a plain string is not a Color
    expect(() => new Palette().setMain('BLUE')).not.toThrow(); // a known symbol passes at run time
    const long: number | bigint = new Primitives().setALong(2n ** 60n).getALong()!;
    // @ts-expect-error longs may be bigints
    const asNumber: number = long;
    expect(asNumber).toBe(2n ** 60n);
  });

  it('bytes and custom classes', () => {
    // @ts-expect-error bytes are a ByteString
    expect(() => new Primitives().setSomeBytes(1)).toThrow(ClassCastException);
    const bytes: ByteString | undefined = new Primitives().getSomeBytes();
    expect(bytes).toBeUndefined();
    // @ts-expect-error the custom binding takes a Date
    expect(() => new Event().setAt(1000)).toThrow(ClassCastException);
    const at: Date = new Event().setAt(new Date(0)).getAt();
    expect(at.getTime()).toBe(0);
  });

  it('union members', () => {
    const u = Holder_Plain.createWithInt(1);
    // @ts-expect-error the int member takes a number
    expect(() => u.setInt('1')).toThrow(ClassCastException);
    const s: string = Holder_Plain.createWithString('x').getString();
    expect(s).toBe('x');
    expect(() => u.getString()).toThrow(TemplateOutputCastException);
    // @ts-expect-error no null member value
    expect(() => Shape.createWithLabel('a').setLabel(null)).toThrow(NullValueException);
  });

  it('methods that do not exist', () => {
    expect(() => {
      // @ts-expect-error Point has no field z
      new Point().setZ(1);
    }).toThrow(TypeError);
    // @ts-expect-error enums have no $unknown spelled otherwise
    expect(Color.UNKNOWN).toBeUndefined();
  });
});
