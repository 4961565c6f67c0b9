/**
 * Every cell of the brief's GetMode and SetMode tables, for the four kinds of field (required or optional,
 * with or without default), through the generated class com.example.binding.Modes.
 */
import {
  DataMap,
  GetMode,
  IllegalArgumentException,
  NullValueException,
  RequiredFieldNotPresentException,
  SetMode,
  UnsupportedOperationException,
  isSvcError,
} from '../../src';
import { Modes } from '../generated/binding/com/example/binding/Modes';
import { Point } from '../generated/binding/com/example/binding/Point';

type Kind = 'required' | 'requiredWithDefault' | 'optional' | 'optionalWithDefault';
const KINDS: readonly Kind[] = ['required', 'requiredWithDefault', 'optional', 'optionalWithDefault'];
const accessor = (k: Kind): string => k[0]!.toUpperCase() + k.slice(1);

/** Calls a generated accessor by name, bypassing the overloads (the tests try what the types forbid). */
function call(m: Modes, method: string, ...args: unknown[]): unknown {
  const fn = (m as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!;
  return fn.apply(m, args);
}

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe('GetMode on an absent field', () => {
  // brief, "Record class": NULL → null even with a default; DEFAULT → default if any; STRICT → default if
  // any, else RequiredFieldNotPresentException if required, else null
  const expected: Record<Kind, Record<GetMode, unknown>> = {
    required: { NULL: undefined, DEFAULT: undefined, STRICT: 'throws' },
    requiredWithDefault: { NULL: undefined, DEFAULT: 7, STRICT: 7 },
    optional: { NULL: undefined, DEFAULT: undefined, STRICT: undefined },
    optionalWithDefault: { NULL: undefined, DEFAULT: 9, STRICT: 9 },
  };
  for (const kind of KINDS) {
    for (const mode of [GetMode.NULL, GetMode.DEFAULT, GetMode.STRICT]) {
      const want = expected[kind][mode];
      it(`gives ${want === 'throws' ? 'RequiredFieldNotPresentException' : String(want)} for ${kind} in ${mode}`, () => {
        const m = new Modes();
        if (want === 'throws') {
          const err = thrown(() => call(m, `get${accessor(kind)}`, mode));
          expect(err).toBeInstanceOf(RequiredFieldNotPresentException);
          expect(
            isSvcError(err, 'RequiredFieldNotPresentException', 'SVC_ERR_TEMPLATE_REQUIRED_FIELD_MISSING'),
          ).toBe(true);
          expect((err as RequiredFieldNotPresentException).fieldName).toBe('required');
        } else {
          expect(call(m, `get${accessor(kind)}`, mode)).toBe(want);
        }
        expect(m.data().size).toBe(0); // defaults are used by getters only, never stored
      });
    }
  }

  it('treats getX() as getX(GetMode.STRICT)', () => {
    const m = new Modes();
    expect(() => m.getRequired()).toThrow(RequiredFieldNotPresentException);
    expect(m.getRequiredWithDefault()).toBe(7);
    expect(m.getOptional()).toBeUndefined();
    expect(m.getOptionalWithDefault()).toBe(9);
  });
});

describe('GetMode on a present field', () => {
  for (const kind of KINDS) {
    it(`gives the stored value of ${kind} in every mode`, () => {
      const m = new Modes(new DataMap({ [kind]: 42 }));
      for (const mode of [undefined, GetMode.NULL, GetMode.DEFAULT, GetMode.STRICT]) {
        expect(call(m, `get${accessor(kind)}`, mode)).toBe(42);
      }
    });
  }
});

describe('SetMode with a null or undefined value', () => {
  type Outcome = 'unchanged' | 'removed' | 'IllegalArgumentException' | 'NullValueException';
  const expected: Record<Kind, Record<SetMode, Outcome>> = {
    required: {
      IGNORE_NULL: 'unchanged',
      REMOVE_IF_NULL: 'removed',
      REMOVE_OPTIONAL_IF_NULL: 'IllegalArgumentException',
      DISALLOW_NULL: 'NullValueException',
    },
    requiredWithDefault: {
      IGNORE_NULL: 'unchanged',
      REMOVE_IF_NULL: 'removed',
      REMOVE_OPTIONAL_IF_NULL: 'IllegalArgumentException',
      DISALLOW_NULL: 'NullValueException',
    },
    optional: {
      IGNORE_NULL: 'unchanged',
      REMOVE_IF_NULL: 'removed',
      REMOVE_OPTIONAL_IF_NULL: 'removed',
      DISALLOW_NULL: 'NullValueException',
    },
    optionalWithDefault: {
      IGNORE_NULL: 'unchanged',
      REMOVE_IF_NULL: 'removed',
      REMOVE_OPTIONAL_IF_NULL: 'removed',
      DISALLOW_NULL: 'NullValueException',
    },
  };
  const modes = [
    SetMode.IGNORE_NULL,
    SetMode.REMOVE_IF_NULL,
    SetMode.REMOVE_OPTIONAL_IF_NULL,
    SetMode.DISALLOW_NULL,
  ];
  for (const kind of KINDS) {
    for (const mode of modes) {
      for (const value of [null, undefined]) {
        const want = expected[kind][mode];
        it(`${want === 'unchanged' || want === 'removed' ? `leaves ${kind} ${want}` : `throws ${want} for ${kind}`} when set to ${String(value)} in ${mode}`, () => {
          const m = new Modes(new DataMap({ [kind]: 1 }));
          const err = thrown(() => call(m, `set${accessor(kind)}`, value, mode));
          switch (want) {
            case 'unchanged':
              expect(err).toBeUndefined();
              expect(m.data().get(kind)).toBe(1);
              break;
            case 'removed':
              expect(err).toBeUndefined();
              expect(m.data().has(kind)).toBe(false);
              break;
            case 'IllegalArgumentException':
              expect(err).toBeInstanceOf(IllegalArgumentException);
              expect((err as Error).message).toContain(`required field "${kind}"`);
              expect(m.data().get(kind)).toBe(1);
              break;
            case 'NullValueException':
              expect(err).toBeInstanceOf(NullValueException);
              expect(isSvcError(err, 'NullValueException', 'SVC_ERR_TEMPLATE_NULL_VALUE')).toBe(true);
              expect(m.data().get(kind)).toBe(1);
              break;
          }
        });
      }
    }
  }

  it('treats setX(null) as DISALLOW_NULL', () => {
    const m = new Modes();
    expect(() => call(m, 'setOptional', null)).toThrow(NullValueException);
  });
});

describe('SetMode with a value', () => {
  const modes = [
    undefined,
    SetMode.IGNORE_NULL,
    SetMode.REMOVE_IF_NULL,
    SetMode.REMOVE_OPTIONAL_IF_NULL,
    SetMode.DISALLOW_NULL,
  ];
  for (const kind of KINDS) {
    it(`sets ${kind} in every mode`, () => {
      for (const mode of modes) {
        const m = new Modes();
        expect(call(m, `set${accessor(kind)}`, 5, mode)).toBe(m);
        expect(m.data().get(kind)).toBe(5);
      }
    });
  }
});

describe('a generated record', () => {
  it('wraps the DataMap it is given without copying it', () => {
    const data = new DataMap({ required: 1 });
    const m = new Modes(data);
    expect(m.data()).toBe(data);
    m.setOptional(3);
    expect(data.get('optional')).toBe(3);
    data.put('required', 2);
    expect(m.getRequired()).toBe(2);
  });

  it('starts empty without a DataMap (required fields absent)', () => {
    const m = new Modes();
    expect(m.data().size).toBe(0);
    expect(m.hasRequired()).toBe(false);
  });

  it('chains setters and reports presence, removal and its data text', () => {
    const m = new Modes().setRequired(1).setOptional(2);
    expect(m.hasRequired() && m.hasOptional()).toBe(true);
    expect(m.removeOptional()).toBe(m);
    expect(m.hasOptional()).toBe(false);
    expect(m.toString()).toBe('{"required":1}');
    expect(m.toString()).toBe(m.data().toString());
  });

  it('gives its schema and the static path specs', () => {
    expect(new Modes().schema().getFullName()).toBe('com.example.binding.Modes');
    expect(Modes.fields().requiredWithDefault().toString()).toBe('/requiredWithDefault');
    expect(Modes.fields().point().x().toString()).toBe('/point/x');
  });

  it('gives a record default as a read-only template', () => {
    const m = new Modes();
    const p = m.getPoint();
    expect(p).toBeInstanceOf(Point);
    expect([p.getX(), p.getY()]).toEqual([1, 2]);
    expect(() => p.setX(3)).toThrow(UnsupportedOperationException);
    expect(m.getPoint(GetMode.NULL)).toBeUndefined();
    expect(m.hasPoint()).toBe(false);
  });

  it('writes through a nested record it returned', () => {
    const m = new Modes().setPoint(new Point().setX(1).setY(1));
    m.getPoint().setX(10);
    expect(m.data().getDataMap('point')!.get('x')).toBe(10);
  });

  it('clones shallowly into the same class and copies deeply', () => {
    const m = new Modes().setRequired(1).setPoint(new Point().setX(1).setY(2));
    const clone = m.clone();
    expect(clone).toBeInstanceOf(Modes);
    expect(clone.data()).not.toBe(m.data());
    expect(clone.data().get('point')).toBe(m.data().get('point')); // shallow
    expect(clone.equals(m)).toBe(true);
    clone.setRequired(2);
    expect(m.getRequired()).toBe(1);
    const copy = m.copy();
    expect(copy.data().get('point')).not.toBe(m.data().get('point'));
    expect(copy.equals(m)).toBe(true);
  });
});
