/**
 * Input and output conversion of every primitive binding type, table-driven (avsc style): each valid input
 * is stored in its one data form and read back; each invalid input is a ClassCastException and leaves the
 * record unchanged; stored data that cannot be cast is a TemplateOutputCastException.
 */
import {
  ByteString,
  ClassCastException,
  Coercers,
  DataList,
  DataMap,
  Data,
  TemplateOutputCastException,
  isSvcError,
  type DataValue,
} from '../../src';
import { Primitives } from '../generated/binding/com/example/binding/Primitives';

interface Row {
  readonly field: string;
  /** [input, stored data] */
  readonly valid: ReadonlyArray<readonly [unknown, DataValue]>;
  readonly invalid: readonly unknown[];
  /** [stored data, output] read by the getter (NORMAL coercion) */
  readonly coerced: ReadonlyArray<readonly [DataValue, unknown]>;
  /** stored data a getter refuses */
  readonly badData: readonly DataValue[];
}

const bytes = ByteString.copy([0, 1, 255]);

const TABLE: readonly Row[] = [
  {
    field: 'anInt',
    valid: [
      [0, 0],
      [-0, 0],
      [2147483647, 2147483647],
      [-2147483648, -2147483648],
      [5n, 5],
    ],
    invalid: [1.5, 2147483648, NaN, Infinity, 2n ** 40n, '1', true, null, {}],
    coerced: [
      [1.9, 1],
      [-1.9, -1],
    ],
    badData: ['1', true, 2 ** 40, bytes, Data.NULL, new DataMap()],
  },
  {
    field: 'aLong',
    valid: [
      [0, 0],
      [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      [2 ** 60, 2n ** 60n],
      [2n ** 63n - 1n, 2n ** 63n - 1n],
      [-(2n ** 63n), -(2n ** 63n)],
      [7n, 7],
    ],
    invalid: [1.5, 2 ** 63, 2n ** 63n, NaN, '5', false, undefined],
    coerced: [
      [2.7, 2],
      [1e17, 100000000000000000n],
    ],
    badData: ['5', false, bytes],
  },
  {
    field: 'aFloat',
    valid: [
      [1.5, 1.5],
      [-0.25, -0.25],
      [3.4028234663852886e38, 3.4028234663852886e38],
      [3n, 3],
      [NaN, NaN],
      [Infinity, Infinity],
      [-Infinity, -Infinity],
    ],
    invalid: [1e39, -1e39, 2n ** 60n + 1n, '1.5', 'NaN', null],
    // JSON data holds NaN and ±Infinity as these three strings
    coerced: [
      [2n ** 62n + 1n, 2 ** 62],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ],
    badData: ['1.5', true, 1e39, 'nan', '+Infinity', 'Infinity '],
  },
  {
    field: 'aDouble',
    valid: [
      [1e-300, 1e-300],
      [1e300, 1e300],
      [2n ** 60n, 2 ** 60],
      [NaN, NaN],
      [Infinity, Infinity],
      [-Infinity, -Infinity],
    ],
    invalid: [2n ** 60n + 1n, '1', 'Infinity', []],
    coerced: [
      [2n ** 60n + 1n, 2 ** 60],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ],
    badData: ['1', false, 'NAN', '-NaN', 'infinity'],
  },
  {
    field: 'aBoolean',
    valid: [
      [true, true],
      [false, false],
    ],
    invalid: [0, 1, 'true', null],
    coerced: [],
    badData: ['true', 1],
  },
  {
    field: 'aString',
    valid: [
      ['', ''],
      ['café ☃', 'café ☃'],
    ],
    invalid: [1, true, bytes, new DataMap(), null],
    coerced: [],
    badData: [1, bytes, Data.NULL],
  },
  {
    field: 'someBytes',
    valid: [
      [bytes, bytes],
      ['\u0000\u0001\u00ff', bytes],
      [new Uint8Array([0, 1, 255]), bytes],
    ],
    invalid: ['\u0100', 1, [0, 1], new DataList(), null],
    coerced: [['\u0000\u0001\u00ff', bytes]],
    badData: ['\u2603', 5, new DataList()],
  },
];

function setter(p: Primitives, field: string): (v: unknown) => unknown {
  const name = `set${field[0]!.toUpperCase()}${field.slice(1)}`;
  const fn = (p as unknown as Record<string, (v: unknown) => unknown>)[name]!;
  return (v) => fn.call(p, v);
}

function getter(p: Primitives, field: string): () => unknown {
  const name = `get${field[0]!.toUpperCase()}${field.slice(1)}`;
  const fn = (p as unknown as Record<string, () => unknown>)[name]!;
  return () => fn.call(p);
}

const same = (a: unknown, b: unknown): boolean => (a instanceof ByteString ? a.equals(b) : Object.is(a, b));

describe.each(TABLE)('the $field binding', (row) => {
  it.each(row.valid.map(([v, d]) => [v, d]))('stores %p as %p and reads it back', (input, data) => {
    const p = new Primitives();
    setter(p, row.field)(input);
    const stored = p.data().get(row.field);
    expect(same(stored, data)).toBe(true);
    expect(same(getter(p, row.field)(), data)).toBe(true);
  });

  it.each(row.invalid.filter((v) => v !== null && v !== undefined).map((v) => [v]))(
    'refuses %p with ClassCastException',
    (input) => {
      const p = new Primitives().setAString('keep');
      let err: unknown;
      try {
        setter(p, row.field)(input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ClassCastException);
      expect(isSvcError(err, 'ClassCastException')).toBe(true);
      expect(p.data().has(row.field) && row.field !== 'aString').toBe(false);
    },
  );

  if (row.coerced.length > 0) {
    it.each(row.coerced.map(([d, o]) => [d, o]))('reads stored %p as %p', (data, out) => {
      const p = new Primitives(new DataMap({ [row.field]: data }));
      expect(same(getter(p, row.field)(), out)).toBe(true);
    });
  }

  it.each(row.badData.map((d) => [d]))(
    'refuses to read stored %p with TemplateOutputCastException',
    (data) => {
      const p = new Primitives(new DataMap({ [row.field]: data }));
      expect(getter(p, row.field)).toThrow(TemplateOutputCastException);
    },
  );
});

describe('the primitive coercers', () => {
  it('name their types in messages', () => {
    expect(() => Coercers.INT.toData('x')).toThrow('Input string "x" cannot be stored as int');
    expect(() => Coercers.LONG.fromData('x')).toThrow('Output string "x" cannot be coerced to long');
  });

  it('mark their outputs immutable', () => {
    for (const c of [
      Coercers.INT,
      Coercers.LONG,
      Coercers.FLOAT,
      Coercers.DOUBLE,
      Coercers.BOOLEAN,
      Coercers.STRING,
      Coercers.BYTES,
    ]) {
      expect(c.immutableOutput).toBe(true);
    }
  });
});

describe('a deprecated field', () => {
  it('still works', () => {
    expect(new Primitives().setLegacy('x').getLegacy()).toBe('x');
  });
});
