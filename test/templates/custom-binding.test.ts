/** Custom bindings of typerefs of primitives: the shipped epoch-millis ↔ Date coercer and a module's class. */
import {
  ClassCastException,
  Coercers,
  DataMap,
  EPOCH_MILLIS_DATE_COERCER,
  GetMode,
  IllegalArgumentException,
  MissingCoercerException,
  TemplateOutputCastException,
  getCoercer,
  registerCoercer,
  type DirectCoercer,
} from '../../src';
import { Event } from '../generated/binding/com/example/binding/Event';
import { JavaUri } from '../generated/binding/com/example/binding/JavaUri';
import { Timestamp } from '../generated/binding/com/example/binding/Timestamp';
import { TimestampArray } from '../generated/binding/com/example/binding/TimestampArray';
import { Urn } from './support/urn';

describe('the shipped Date binding (typescript: { class: "Date" })', () => {
  it('stores epoch milliseconds and returns a Date', () => {
    const e = new Event().setAt(new Date(1700000000000));
    expect(e.data().get('at')).toBe(1700000000000);
    const at = e.getAt();
    expect(at).toBeInstanceOf(Date);
    expect(at.getTime()).toBe(1700000000000);
  });

  it('never shares a Date with the data', () => {
    const d = new Date(1000);
    const e = new Event().setAt(d);
    d.setTime(5);
    expect(e.getAt().getTime()).toBe(1000);
    e.getAt().setTime(7);
    expect(e.getAt().getTime()).toBe(1000);
    expect(e.getAt()).not.toBe(e.getAt());
  });

  it('gives the default as a Date', () => {
    expect(new Event().getCreated().getTime()).toBe(86400000);
    expect(new Event().getCreated(GetMode.NULL)).toBeUndefined();
  });

  it('refuses what is not a Date, and an invalid Date, with ClassCastException', () => {
    const e = new Event();
    expect(() => e.setAt(1000 as unknown as Date)).toThrow(ClassCastException);
    expect(() => e.setAt(new Date(NaN))).toThrow('An invalid Date cannot be stored');
    expect(e.data().size).toBe(0);
  });

  it('refuses stored data it cannot convert with TemplateOutputCastException', () => {
    expect(() => new Event(new DataMap({ at: 'yesterday' })).getAt()).toThrow(TemplateOutputCastException);
    expect(() => new Event(new DataMap({ at: 2n ** 62n })).getAt()).toThrow(TemplateOutputCastException);
  });

  it('maps the brief java attribute for java.util.Date to the same binding', () => {
    const e = new Event().setLegacy(new Date(5));
    expect(e.getLegacy()!.getTime()).toBe(5);
  });

  it('names arrays after the typeref and keeps their items direct', () => {
    const times = new TimestampArray([new Date(1), new Date(2)]);
    expect(times.data().toArray()).toEqual([1, 2]);
    expect(times.get(1)).toEqual(new Date(2));
    expect(new Event().setTimes(times).getTimes()!.length).toBe(2);
  });

  it('is registered with the runtime and exported', () => {
    expect(getCoercer(Date)).toBe(EPOCH_MILLIS_DATE_COERCER);
    expect(Timestamp.schema().getFullName()).toBe('com.example.binding.Timestamp');
  });
});

describe('a java binding without a TypeScript class', () => {
  it('leaves the values primitive', () => {
    const e = new Event().setUri('https://example.com');
    expect(e.getUri()).toBe('https://example.com');
    expect(JavaUri.schema().getJavaBinding()?.className).toBe('java.net.URI');
  });
});

describe('a class of a module (typescript: { class, module })', () => {
  it('converts through the coercer the module registered', () => {
    const e = new Event().setSubject(new Urn('li', 'photo:1'));
    expect(e.data().get('subject')).toBe('urn:li:photo:1');
    const urn = e.getSubject()!;
    expect(urn).toBeInstanceOf(Urn);
    expect([urn.namespace, urn.specific]).toEqual(['li', 'photo:1']);
  });

  it('turns the coercer refusals into the brief errors', () => {
    expect(() => new Event().setSubject(new Urn('li', ''))).toThrow(ClassCastException);
    expect(() => new Event(new DataMap({ subject: 'not a urn' })).getSubject()).toThrow(
      TemplateOutputCastException,
    );
  });
});

describe('the coercer registry', () => {
  class Celsius {
    constructor(readonly degrees: number) {}
  }
  const coercer: DirectCoercer<Celsius> = {
    coerceInput: (v) => v.degrees,
    coerceOutput: (d) => new Celsius(d as number),
  };

  it('needs a coercer before a value is converted', () => {
    const c = Coercers.custom(() => Celsius, Coercers.DOUBLE);
    expect(() => c.fromData(1)).toThrow(MissingCoercerException);
    registerCoercer(Celsius, coercer);
    expect(c.fromData(1)).toEqual(new Celsius(1));
    expect(c.toData(new Celsius(2))).toBe(2);
  });

  it('keeps one coercer per class', () => {
    registerCoercer(Celsius, coercer); // the same one again is fine
    expect(() => registerCoercer(Celsius, { ...coercer })).toThrow(IllegalArgumentException);
  });

  it('refuses a coercer that returns another class', () => {
    class Kelvin {}
    registerCoercer(Kelvin, { coerceInput: () => 0, coerceOutput: () => new Date() as unknown as Kelvin });
    expect(() => Coercers.custom(() => Kelvin, Coercers.INT).fromData(1)).toThrow(
      TemplateOutputCastException,
    );
  });

  it('wraps other errors of a coercer', () => {
    class Odd {}
    registerCoercer(Odd, {
      coerceInput: () => {
        throw new RangeError('no');
      },
      coerceOutput: () => {
        throw new RangeError('no');
      },
    });
    const c = Coercers.custom(() => Odd, Coercers.INT);
    expect(() => c.toData(new Odd())).toThrow(ClassCastException);
    expect(() => c.fromData(1)).toThrow(TemplateOutputCastException);
  });
});
