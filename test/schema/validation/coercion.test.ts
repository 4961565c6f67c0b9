/**
 * Per type and per coercion mode: which values are valid as they are, which are fixed (and into what), and
 * which are rejected with which message (the reference's wording, restli-wire-facts §9.2). Each value sits in
 * field `bar` of a one-field record, as the reference's TestValidation does.
 */
import {
  ByteString,
  CoercionMode,
  Data,
  DataList,
  DataMap,
  parseSchema,
  validate,
  type DataSchema,
  type DataValue,
  type JsValue,
} from '../../../src';

const { OFF, NORMAL, STRING_TO_PRIMITIVE } = CoercionMode;
const ALL = [OFF, NORMAL, STRING_TO_PRIMITIVE] as const;
const COERCING = [NORMAL, STRING_TO_PRIMITIVE] as const;

const bytes = (s: string): ByteString => ByteString.fromAvroString(s);
const BIG = 2n ** 60n; // a long beyond ±2^53: held as a bigint
const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);

interface Table {
  /** The field's type, as schema JSON. */
  readonly type: string;
  readonly modes: readonly CoercionMode[];
  /** Valid as they are: no fix, nothing changed. */
  readonly valid?: readonly JsValue[];
  /** [input, the value it is fixed into]. */
  readonly fixed?: ReadonlyArray<readonly [JsValue, JsValue]>;
  /** [input, the whole message text]; a text without `ERROR ::` is the reason of a message at `/bar`. */
  readonly invalid?: ReadonlyArray<readonly [JsValue, string]>;
}

const notBacked = (v: string, cls: string): string => `${v} is not backed by a ${cls}`;
const notCoerced = (v: string, cls: string): string => `${v} cannot be coerced to ${cls}`;

/** Values no primitive type accepts, with how the reference prints them. */
const FOREIGN: ReadonlyArray<readonly [JsValue, string]> = [
  [bytes('bytes'), 'ByteString(length=5, bytes=6279746573)'],
  [{}, '{}'],
  [[], '[]'],
  [null, 'null'],
];

function foreign(cls: string, mode: CoercionMode): Array<readonly [JsValue, string]> {
  const say = mode === OFF ? notBacked : notCoerced;
  return FOREIGN.map(([v, text]) => [v, say(text, cls)] as const);
}

const FRUITS = '{ "type": "enum", "name": "Fruits", "symbols": [ "APPLE", "ORANGE" ] }';
const UNION = `[ "null", "int", "string", ${FRUITS} ]`;
const UNION_TEXT =
  '[ "null", "int", "string", { "type" : "enum", "name" : "Fruits", "symbols" : [ "APPLE", "ORANGE" ] } ]';

const TABLES: Readonly<Record<string, readonly Table[]>> = {
  int: [
    {
      type: '"int"',
      modes: [OFF],
      valid: [1, -1, 0, 2147483647, -2147483648],
      invalid: [
        [true, notBacked('true', 'Integer')],
        [1.5, notBacked('1.5', 'Integer')],
        [2147483648, notBacked('2147483648', 'Integer')],
        [BIG, notBacked('1152921504606846976', 'Integer')],
        ['1', notBacked('1', 'Integer')],
        ...foreign('Integer', OFF),
      ],
    },
    {
      type: '"int"',
      modes: COERCING,
      valid: [1, -1, 2147483647, -2147483648],
      fixed: [
        [1.5, 1],
        [-1.5, -1],
        [-0.25, 0],
        [2147483647.9, 2147483647],
      ],
      invalid: [
        [true, notCoerced('true', 'Integer')],
        [2147483648, notCoerced('2147483648', 'Integer')],
        [-2147483649, notCoerced('-2147483649', 'Integer')],
        [BIG, notCoerced('1152921504606846976', 'Integer')],
        ['abc', notCoerced('abc', 'Integer')],
        ...foreign('Integer', NORMAL),
      ],
    },
    {
      type: '"int"',
      modes: [NORMAL],
      invalid: [
        ['1', notCoerced('1', 'Integer')],
        ['NaN', notCoerced('NaN', 'Integer')],
      ],
    },
    {
      type: '"int"',
      modes: [STRING_TO_PRIMITIVE],
      fixed: [
        ['1', 1],
        ['-1', -1],
        ['2147483647', 2147483647],
        ['-2147483648', -2147483648],
        ['1.5', 1],
        ['-1.5', -1],
        ['+7', 7],
        ['.9', 0],
        ['1e3', 1000],
        ['12.5E1', 125],
        ['000042', 42],
      ],
      invalid: [
        ['2147483648', notCoerced('2147483648', 'Integer')],
        ['1e10', notCoerced('1e10', 'Integer')],
        ['NaN', notCoerced('NaN', 'Integer')],
        ['Infinity', notCoerced('Infinity', 'Integer')],
        [' 1', notCoerced(' 1', 'Integer')],
        ['0x10', notCoerced('0x10', 'Integer')],
        ['', notCoerced('', 'Integer')],
        ['.', notCoerced('.', 'Integer')],
        ['1e', notCoerced('1e', 'Integer')],
      ],
    },
  ],
  long: [
    {
      type: '"long"',
      modes: ALL,
      valid: [1, -1, 9007199254740991, -9007199254740991, BIG, -BIG, LONG_MAX, LONG_MIN],
    },
    {
      type: '"long"',
      modes: [OFF],
      invalid: [
        [1.5, notBacked('1.5', 'Long')],
        [1e17, notBacked('100000000000000000', 'Long')],
        ['12', notBacked('12', 'Long')],
        [true, notBacked('true', 'Long')],
        ...foreign('Long', OFF),
      ],
    },
    {
      type: '"long"',
      modes: COERCING,
      fixed: [
        [1.5, 1],
        [-1.5, -1],
        [1e17, 100000000000000000n],
        [-(2 ** 60), -BIG],
      ],
      invalid: [
        [1e19, notCoerced('10000000000000000000', 'Long')],
        [true, notCoerced('true', 'Long')],
        ['x', notCoerced('x', 'Long')],
        ...foreign('Long', NORMAL),
      ],
    },
    { type: '"long"', modes: [NORMAL], invalid: [['12', notCoerced('12', 'Long')]] },
    {
      type: '"long"',
      modes: [STRING_TO_PRIMITIVE],
      fixed: [
        ['12', 12],
        ['9223372036854775807', LONG_MAX],
        ['-9223372036854775808', LONG_MIN],
        ['9007199254740993', 9007199254740993n],
        ['1.5', 1],
        ['-1.5', -1],
        ['1e18', 10n ** 18n],
      ],
      invalid: [
        ['9223372036854775808', notCoerced('9223372036854775808', 'Long')],
        ['1e400', notCoerced('1e400', 'Long')],
        ['NaN', notCoerced('NaN', 'Long')],
        ['abc', notCoerced('abc', 'Long')],
      ],
    },
  ],
  float: [
    {
      type: '"float"',
      modes: ALL,
      valid: [1, -1, 1.5, 0.1, 3.4028234663852886e38, -3.4e38, 1e-45, NaN, Infinity, -Infinity],
    },
    {
      type: '"float"',
      modes: [OFF],
      invalid: [
        [BIG, notBacked('1152921504606846976', 'Float')],
        [1e39, notBacked('1e+39', 'Float')],
        ['1.5', notBacked('1.5', 'Float')],
        ['NaN', notBacked('NaN', 'Float')],
        [true, notBacked('true', 'Float')],
        ...foreign('Float', OFF),
      ],
    },
    {
      type: '"float"',
      modes: COERCING,
      // the three strings JSON writes NaN and ±Infinity as, which the reference's float coercer reads
      fixed: [
        [BIG, 1152921504606846976],
        ['NaN', NaN],
        ['Infinity', Infinity],
        ['-Infinity', -Infinity],
      ],
      invalid: [
        [1e39, notCoerced('1e+39', 'Float')],
        ['nan', notCoerced('nan', 'Float')],
        ['+Infinity', notCoerced('+Infinity', 'Float')],
        ['Infinity ', notCoerced('Infinity ', 'Float')],
        ['inf', notCoerced('inf', 'Float')],
        [true, notCoerced('true', 'Float')],
        ...foreign('Float', NORMAL),
      ],
    },
    { type: '"float"', modes: [NORMAL], invalid: [['1.5', notCoerced('1.5', 'Float')]] },
    {
      type: '"float"',
      modes: [STRING_TO_PRIMITIVE],
      fixed: [
        ['1.5', 1.5],
        ['-1', -1],
        ['1.01', 1.01],
        ['3.4028235e38', 3.4028235e38],
      ],
      invalid: [
        ['3.5e38', notCoerced('3.5e38', 'Float')],
        ['3.4028235677973366e38', notCoerced('3.4028235677973366e38', 'Float')],
        ['abc', notCoerced('abc', 'Float')],
      ],
    },
  ],
  double: [
    {
      type: '"double"',
      modes: ALL,
      valid: [1, -1, 1.5, 1e300, -1e-300, Number.MAX_VALUE, NaN, Infinity, -Infinity],
    },
    {
      type: '"double"',
      modes: [OFF],
      invalid: [
        [BIG, notBacked('1152921504606846976', 'Double')],
        ['1.5', notBacked('1.5', 'Double')],
        ['-Infinity', notBacked('-Infinity', 'Double')],
        [false, notBacked('false', 'Double')],
        ...foreign('Double', OFF),
      ],
    },
    {
      type: '"double"',
      modes: COERCING,
      fixed: [
        [BIG, 1152921504606846976],
        [LONG_MIN, -9223372036854775808],
        ['NaN', NaN],
        ['Infinity', Infinity],
        ['-Infinity', -Infinity],
      ],
      invalid: [
        ['NAN', notCoerced('NAN', 'Double')],
        ['-NaN', notCoerced('-NaN', 'Double')],
        ['infinity', notCoerced('infinity', 'Double')],
        [false, notCoerced('false', 'Double')],
        ...foreign('Double', NORMAL),
      ],
    },
    { type: '"double"', modes: [NORMAL], invalid: [['1.5', notCoerced('1.5', 'Double')]] },
    {
      type: '"double"',
      modes: [STRING_TO_PRIMITIVE],
      fixed: [
        ['1.5', 1.5],
        ['1e300', 1e300],
        ['-0.000001', -0.000001],
        // beyond the double range, as Java's Double.valueOf reads it
        ['1e400', Infinity],
        ['-1e400', -Infinity],
      ],
      invalid: [['1e400x', notCoerced('1e400x', 'Double')]],
    },
  ],
  boolean: [
    { type: '"boolean"', modes: ALL, valid: [true, false] },
    {
      type: '"boolean"',
      modes: [OFF],
      invalid: [
        ['true', notBacked('true', 'Boolean')],
        [1, notBacked('1', 'Boolean')],
        ...foreign('Boolean', OFF),
      ],
    },
    {
      type: '"boolean"',
      modes: [NORMAL],
      invalid: [
        ['true', notCoerced('true', 'Boolean')],
        [0, notCoerced('0', 'Boolean')],
        ...foreign('Boolean', NORMAL),
      ],
    },
    {
      type: '"boolean"',
      modes: [STRING_TO_PRIMITIVE],
      fixed: [
        ['true', true],
        ['false', false],
        ['TRUE', true],
        ['False', false],
      ],
      invalid: [
        ['yes', notCoerced('yes', 'Boolean')],
        ['1', notCoerced('1', 'Boolean')],
        [' true', notCoerced(' true', 'Boolean')],
        [1, notCoerced('1', 'Boolean')],
      ],
    },
  ],
  string: [
    { type: '"string"', modes: ALL, valid: ['a valid string', '', 'é ☺ 😀'] },
    {
      type: '"string"',
      modes: [OFF],
      invalid: [
        [false, notBacked('false', 'String')],
        [5, notBacked('5', 'String')],
        [BIG, notBacked('1152921504606846976', 'String')],
        [1.5, notBacked('1.5', 'String')],
        ...foreign('String', OFF),
      ],
    },
    {
      type: '"string"',
      modes: COERCING,
      invalid: [
        [false, notCoerced('false', 'String')],
        [5, notCoerced('5', 'String')],
        ...foreign('String', NORMAL),
      ],
    },
  ],
  bytes: [
    { type: '"bytes"', modes: ALL, valid: [bytes('bytes'), ByteString.EMPTY, bytes('\u0000\u00ff')] },
    { type: '"bytes"', modes: [OFF], valid: ['abc', '', '\u0000\u00ff'] },
    {
      type: '"bytes"',
      modes: COERCING,
      fixed: [
        ['abc', bytes('abc')],
        ['', ByteString.EMPTY],
        ['\u0000\u00ff', bytes('\u0000\u00ff')],
      ],
    },
    {
      type: '"bytes"',
      modes: ALL,
      invalid: [
        ['\u0100', '"\u0100" is not a valid string representation of bytes'],
        ['ab\u0100c', '"ab\u0100c" is not a valid string representation of bytes'],
        ['😀', '"😀" is not a valid string representation of bytes'],
        [true, 'bytes type is not backed by a String or ByteString'],
        [1, 'bytes type is not backed by a String or ByteString'],
        [{}, 'bytes type is not backed by a String or ByteString'],
        [[], 'bytes type is not backed by a String or ByteString'],
        [null, 'bytes type is not backed by a String or ByteString'],
      ],
    },
  ],
  fixed: [
    {
      type: '{ "type": "fixed", "name": "fixed4", "size": 4 }',
      modes: ALL,
      valid: [bytes('abcd'), bytes('\u0001\u0002\u00ff\u00fe')],
      invalid: [
        ['abc', '"abc" length (3) is inconsistent with expected fixed size of 4'],
        ['', '"" length (0) is inconsistent with expected fixed size of 4'],
        ['12345', '"12345" length (5) is inconsistent with expected fixed size of 4'],
        ['ab\u0100c', '"ab\u0100c" is not a valid string representation of bytes'],
        [
          bytes('123'),
          '"ByteString(length=3, bytes=313233)" length (3) is inconsistent with expected fixed size of 4',
        ],
        [
          ByteString.EMPTY,
          '"ByteString(length=0, bytes=)" length (0) is inconsistent with expected fixed size of 4',
        ],
        [1, 'fixed type is not backed by a String or ByteString'],
        [{}, 'fixed type is not backed by a String or ByteString'],
        [null, 'fixed type is not backed by a String or ByteString'],
      ],
    },
    {
      type: '{ "type": "fixed", "name": "fixed4", "size": 4 }',
      modes: [OFF],
      valid: ['abcd', '\u0001\u0002\u00ff\u00fe'],
    },
    {
      type: '{ "type": "fixed", "name": "fixed4", "size": 4 }',
      modes: COERCING,
      fixed: [
        ['abcd', bytes('abcd')],
        ['\u0001\u0002\u00ff\u00fe', bytes('\u0001\u0002\u00ff\u00fe')],
      ],
    },
  ],
  enum: [
    {
      type: '{ "type": "enum", "name": "fruits", "symbols": [ "apple", "orange", "banana" ] }',
      modes: ALL,
      valid: ['apple', 'orange', 'banana'],
      invalid: [
        ['', '"" is not an enum symbol'],
        ['foobar', '"foobar" is not an enum symbol'],
        ['Apple', '"Apple" is not an enum symbol'],
        [1, 'enum type is not backed by a String'],
        [true, 'enum type is not backed by a String'],
        [{}, 'enum type is not backed by a String'],
        [[], 'enum type is not backed by a String'],
        [null, 'enum type is not backed by a String'],
      ],
    },
  ],
  array: [
    {
      type: '{ "type": "array", "items": "int" }',
      modes: ALL,
      valid: [[], [1], [2, 3]],
      invalid: [
        [true, 'array type is not backed by a DataList'],
        [1, 'array type is not backed by a DataList'],
        ['', 'array type is not backed by a DataList'],
        [{}, 'array type is not backed by a DataList'],
        [null, 'array type is not backed by a DataList'],
      ],
    },
    {
      type: '{ "type": "array", "items": "int" }',
      modes: COERCING,
      invalid: [
        [[{}], 'ERROR :: /bar/0 :: {} cannot be coerced to Integer'],
        [
          [1, [], 3, true],
          'ERROR :: /bar/1 :: [] cannot be coerced to Integer\nERROR :: /bar/3 :: true cannot be coerced to Integer',
        ],
      ],
    },
    {
      type: '{ "type": "array", "items": "int" }',
      modes: [OFF],
      invalid: [
        [
          [1, [], 3, true],
          'ERROR :: /bar/1 :: [] is not backed by a Integer\nERROR :: /bar/3 :: true is not backed by a Integer',
        ],
        [[1.5], 'ERROR :: /bar/0 :: 1.5 is not backed by a Integer'],
        [['1'], 'ERROR :: /bar/0 :: 1 is not backed by a Integer'],
      ],
    },
    {
      type: '{ "type": "array", "items": "int" }',
      modes: COERCING,
      fixed: [
        [
          [1.5, 2, -3.5],
          [1, 2, -3],
        ],
      ],
    },
    {
      type: '{ "type": "array", "items": "int" }',
      modes: [STRING_TO_PRIMITIVE],
      fixed: [
        [
          ['1', '2', 3],
          [1, 2, 3],
        ],
      ],
    },
  ],
  map: [
    {
      type: '{ "type": "map", "values": "int" }',
      modes: ALL,
      valid: [{}, { key1: 1 }, { key1: 1, key2: 2 }],
      invalid: [
        [true, 'map type is not backed by a DataMap'],
        [[], 'map type is not backed by a DataMap'],
        [null, 'map type is not backed by a DataMap'],
      ],
    },
    {
      type: '{ "type": "map", "values": "int" }',
      modes: [OFF],
      invalid: [[{ key1: 1, key2: 2.5 }, 'ERROR :: /bar/key2 :: 2.5 is not backed by a Integer']],
    },
    {
      type: '{ "type": "map", "values": "int" }',
      modes: COERCING,
      fixed: [
        [
          { key1: 1, key2: 2.5 },
          { key1: 1, key2: 2 },
        ],
      ],
      invalid: [
        [
          { key1: true, key2: {} },
          'ERROR :: /bar/key1 :: true cannot be coerced to Integer\nERROR :: /bar/key2 :: {} cannot be coerced to Integer',
        ],
      ],
    },
  ],
  union: [
    {
      type: UNION,
      modes: ALL,
      valid: [null, { int: 1 }, { string: 'x' }, { Fruits: 'APPLE' }, { Fruits: 'ORANGE' }],
      invalid: [
        [true, 'union type is not backed by a DataMap or null'],
        [1, 'union type is not backed by a DataMap or null'],
        ['', 'union type is not backed by a DataMap or null'],
        [[], 'union type is not backed by a DataMap or null'],
        [{}, 'DataMap should have at least one entry for a union type'],
        [{ int: 1, string: 'x' }, 'DataMap should have no more than one entry for a union type'],
        [{ x: 1, y: 1 }, 'DataMap should have no more than one entry for a union type'],
        [{ boolean: true }, `"boolean" is not a member type of union ${UNION_TEXT}`],
        [{ Fruits: 'foobar' }, 'ERROR :: /bar/Fruits :: "foobar" is not an enum symbol'],
        [{ Fruits: 1 }, 'ERROR :: /bar/Fruits :: enum type is not backed by a String'],
      ],
    },
    {
      type: UNION,
      modes: [OFF],
      invalid: [
        [{ int: 1.5 }, 'ERROR :: /bar/int :: 1.5 is not backed by a Integer'],
        [{ string: {} }, 'ERROR :: /bar/string :: {} is not backed by a String'],
      ],
    },
    {
      type: UNION,
      modes: COERCING,
      fixed: [[{ int: 1.5 }, { int: 1 }]],
      invalid: [[{ string: {} }, 'ERROR :: /bar/string :: {} cannot be coerced to String']],
    },
    {
      type: '[ "int", "string" ]',
      modes: ALL,
      invalid: [[null, 'null is not a member type of union [ "int", "string" ]']],
    },
  ],
};

function recordSchema(type: string): DataSchema {
  return parseSchema(`{ "type": "record", "name": "foo", "fields": [ { "name": "bar", "type": ${type} } ] }`);
}

/** `{bar: value}` with a fresh copy of the value (fixes happen in place). */
function holder(value: JsValue): DataMap {
  return new DataMap([['bar', Data.fromJS(value)]]);
}

/** Equality of data values: containers and ByteStrings by content, the rest by identity (bigint vs number matters). */
function expectSameData(actual: DataValue | undefined, expected: DataValue): void {
  if (typeof expected === 'object') {
    expect(typeof actual).toBe('object');
    expect((expected as { equals(o: unknown): boolean }).equals(actual)).toBe(true);
    expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  } else {
    expect(actual).toBe(expected);
  }
}

function messageOf(text: string): string {
  return (text.startsWith('ERROR ::') ? text : `ERROR :: /bar :: ${text}`) + '\n';
}

/** A short label for a table value (bigints and ByteStrings included). */
function label(v: JsValue): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v); // unquoted, unlike the string "NaN"
  return JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'bigint' ? `${x}n` : x instanceof ByteString ? x.toString() : x,
  );
}

describe.each(Object.entries(TABLES))('validation of %s values', (_type, tables) => {
  for (const table of tables) {
    const schema = recordSchema(table.type);
    for (const mode of table.modes) {
      for (const value of table.valid ?? []) {
        it(`accepts ${label(value)} as it is (${mode})`, () => {
          const data = holder(value);
          const before = data.get('bar');
          const result = validate(data, schema, { coercionMode: mode });
          expect(result.getMessage()).toBe('');
          expect(result.isValid()).toBe(true);
          expect(result.hasFix()).toBe(false);
          expect(result.getFixed()).toBe(data);
          expect(data.get('bar')).toBe(before);
        });
      }

      for (const [value, expected] of table.fixed ?? []) {
        it(`fixes ${label(value)} into ${label(expected)} (${mode})`, () => {
          const data = holder(value);
          const result = validate(data, schema, { coercionMode: mode });
          expect(result.getMessage()).toBe('');
          expect(result.isValid()).toBe(true);
          expect(result.hasFix()).toBe(true);
          expect(result.hasFixupReadOnlyError()).toBe(false);
          expect(result.getFixed()).toBe(data);
          expectSameData(data.get('bar'), Data.fromJS(expected));
          // fixed data is valid without any further fix
          const again = validate(data, schema, { coercionMode: mode });
          expect([again.isValid(), again.hasFix()]).toEqual([true, false]);
        });
      }

      for (const [value, text] of table.invalid ?? []) {
        it(`rejects ${label(value)} (${mode})`, () => {
          const data = holder(value);
          const copy = data.copy();
          const result = validate(data, schema, { coercionMode: mode });
          expect(result.getMessage()).toBe(messageOf(text));
          expect(result.isValid()).toBe(false);
          expect(result.getFixed()).toBe(data);
          expect(data.equals(copy)).toBe(true);
        });
      }
    }
  }
});

describe('typerefs', () => {
  const schema = parseSchema(`{ "type": "record", "name": "foo", "fields": [
    { "name": "bar1", "type": { "type": "typeref", "name": "int2", "ref": "int" }, "optional": true },
    { "name": "bar2", "type": "int2", "optional": true },
    { "name": "bar3", "type": { "type": "typeref", "name": "int3", "ref": "int2" }, "optional": true },
    { "name": "bar4", "type": "int3", "optional": true },
    { "name": "bar5", "type": { "type": "typeref", "name": "Stamp", "ref": "long" }, "optional": true }
  ] }`);

  it.each(['bar1', 'bar2', 'bar3', 'bar4'])('follows a typeref chain to int for %s', (field) => {
    expect(validate(new DataMap([[field, 7]]), schema).isValid()).toBe(true);
    const coerced = new DataMap([[field, 7.9]]);
    expect(validate(coerced, schema).hasFix()).toBe(true);
    expect(coerced.get(field)).toBe(7);
    const off = validate(new DataMap([[field, 7.9]]), schema, { coercionMode: OFF });
    expect(off.getMessage()).toBe(`ERROR :: /${field} :: 7.9 is not backed by a Integer\n`);
    const str = validate(new DataMap([[field, 'x']]), schema);
    expect(str.getMessage()).toBe(`ERROR :: /${field} :: x cannot be coerced to Integer\n`);
  });

  it('validates a typeref used as the root schema like the type it refers to', () => {
    const stamp = (schema as unknown as { getField(n: string): { getType(): DataSchema } })
      .getField('bar5')
      .getType();
    expect(validate(BIG, stamp).isValid()).toBe(true);
    expect(validate('12', stamp, { coercionMode: STRING_TO_PRIMITIVE }).getFixed()).toBe(12);
  });
});

describe('float range', () => {
  it('takes every double that rounds to a finite float, as a value and as a default', () => {
    // 3.4028235e38 is how Java prints Float.MAX_VALUE; it rounds to it
    const schema = parseSchema(
      '{ "type": "record", "name": "F", "fields": [ { "name": "f", "type": "float", "default": 3.4028235e38 } ] }',
    );
    expect(validate(new DataMap([['f', 3.4028235e38]]), schema, { coercionMode: OFF }).isValid()).toBe(true);
    expect(validate(new DataMap([['f', 3.4028235677973366e38]]), schema).getMessage()).toBe(
      'ERROR :: /f :: 3.4028235677973366e+38 cannot be coerced to Float\n',
    );
  });
});

describe('values at the root', () => {
  it('replaces an immutable root value that needs a fix and reports the fix', () => {
    const result = validate('abc', parseSchema('"bytes"'));
    expect(result.isValid()).toBe(true);
    expect(result.hasFix()).toBe(true);
    expectSameData(result.getFixed(), bytes('abc'));
  });

  it('keeps a root container and fixes inside it', () => {
    const list = new DataList([1.5, 2]);
    const result = validate(list, parseSchema('{ "type": "array", "items": "int" }'));
    expect(result.getFixed()).toBe(list);
    expect(list.toArray()).toEqual([1, 2]);
  });

  it('reports a root problem with an empty path', () => {
    expect(validate(Data.NULL, parseSchema('"string"')).getMessage()).toBe(
      'ERROR ::  :: null cannot be coerced to String\n',
    );
    expect(validate(new DataMap(), parseSchema('"int"'), { coercionMode: OFF }).getMessage()).toBe(
      'ERROR ::  :: {} is not backed by a Integer\n',
    );
  });

  it('validates Data.NULL against the null type', () => {
    expect(validate(Data.NULL, parseSchema('"null"')).isValid()).toBe(true);
    expect(validate(0, parseSchema('"null"')).getMessage()).toBe(
      'ERROR ::  :: 0 cannot be coerced to Null\n',
    );
    expect(validate(0, parseSchema('"null"'), { coercionMode: OFF }).getMessage()).toBe(
      'ERROR ::  :: 0 is not backed by a Null\n',
    );
  });

  it('takes a long root bigint inside ±2^53 as the long it is, in every mode (7n and 7 are one long)', () => {
    const long = parseSchema('"long"');
    for (const coercionMode of [NORMAL, OFF]) {
      const result = validate(5n, long, { coercionMode });
      expect(result.isValid()).toBe(true);
      expect(result.hasFix()).toBe(false);
      expect(result.getFixed()).toBe(5n);
    }
  });
});
