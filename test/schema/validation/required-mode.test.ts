/**
 * Every RequiredMode × CoercionMode cell of the brief's tables, on the reference's record with required,
 * defaulted and optional fields (TestValidation.testRecordValidation's `barType`).
 */
import {
  CoercionMode,
  COERCION_MODES,
  Data,
  DataMap,
  parseSchema,
  RequiredMode,
  REQUIRED_MODES,
  validate,
  type JsValue,
} from '../../../src';

const SCHEMA = parseSchema(`{ "type": "record", "name": "foo", "fields": [
  { "name": "bar", "type": { "name": "barType", "type": "record", "fields": [
    { "name": "requiredInt", "type": "int" },
    { "name": "requiredString", "type": "string" },
    { "name": "defaultString", "type": "string", "default": "apple" },
    { "name": "optionalBoolean", "type": "boolean", "optional": true },
    { "name": "optionalDouble", "type": "double", "optional": true },
    { "name": "optionalWithDefaultString", "type": "string", "optional": true, "default": "orange" }
  ] } }
] }`);

const { IGNORE, MUST_BE_PRESENT, CAN_BE_ABSENT_IF_HAS_DEFAULT, FIXUP_ABSENT_WITH_DEFAULT } = RequiredMode;

interface Expected {
  readonly valid: boolean;
  readonly hasFix: boolean;
  /** The messages, one per line. */
  readonly messages: readonly string[];
  /** `bar` after validation (plain JS). */
  readonly after: JsValue;
}

interface Row {
  readonly label: string;
  readonly bar: JsValue;
  readonly expect: (required: RequiredMode, coercion: CoercionMode) => Expected;
}

const ok = (after: JsValue): Expected => ({ valid: true, hasFix: false, messages: [], after });
const missing = (field: string): string => `ERROR :: /bar/${field} :: field is required but not found`;
const noDefault = (field: string): string =>
  `ERROR :: /bar/${field} :: field is required but not found and has no default value`;

const FULL = { requiredInt: 12, requiredString: 'dog', defaultString: 'cow' };

const ROWS: readonly Row[] = [
  {
    label: 'every required field present',
    bar: FULL,
    expect: () => ok(FULL),
  },
  {
    label: 'every field present, optional ones too, and an unknown one',
    bar: {
      ...FULL,
      optionalBoolean: true,
      optionalDouble: 999.5,
      optionalWithDefaultString: 'tag',
      extra1: true,
    },
    expect: () =>
      ok({
        ...FULL,
        optionalBoolean: true,
        optionalDouble: 999.5,
        optionalWithDefaultString: 'tag',
        extra1: true,
      }),
  },
  {
    label: 'the defaulted required field absent',
    bar: { requiredInt: 12, requiredString: 'dog' },
    expect: (required) => {
      const bar = { requiredInt: 12, requiredString: 'dog' };
      switch (required) {
        case MUST_BE_PRESENT:
          return { valid: false, hasFix: false, messages: [missing('defaultString')], after: bar };
        case FIXUP_ABSENT_WITH_DEFAULT:
          return { valid: true, hasFix: true, messages: [], after: { ...bar, defaultString: 'apple' } };
        default:
          return ok(bar);
      }
    },
  },
  {
    label: 'a required field without default absent',
    bar: { requiredString: 'dog', defaultString: 'cow' },
    expect: (required) => {
      const bar = { requiredString: 'dog', defaultString: 'cow' };
      switch (required) {
        case IGNORE:
          return ok(bar);
        case MUST_BE_PRESENT:
          return { valid: false, hasFix: false, messages: [missing('requiredInt')], after: bar };
        default:
          return { valid: false, hasFix: false, messages: [noDefault('requiredInt')], after: bar };
      }
    },
  },
  {
    label: 'an empty record',
    bar: {},
    expect: (required): Expected => {
      switch (required) {
        case IGNORE:
          return ok({});
        case MUST_BE_PRESENT:
          return {
            valid: false,
            hasFix: false,
            messages: [missing('requiredInt'), missing('requiredString'), missing('defaultString')],
            after: {},
          };
        case CAN_BE_ABSENT_IF_HAS_DEFAULT:
          return {
            valid: false,
            hasFix: false,
            messages: [noDefault('requiredInt'), noDefault('requiredString')],
            after: {},
          };
        default:
          return {
            valid: false,
            hasFix: true,
            messages: [noDefault('requiredInt'), noDefault('requiredString')],
            after: { defaultString: 'apple' },
          };
      }
    },
  },
  {
    label: 'a fractional int and the defaulted field absent',
    bar: { requiredInt: 12.5, requiredString: 'dog' },
    expect: (required, coercion) => {
      const off = coercion === CoercionMode.OFF;
      const fixedBar = { requiredInt: off ? 12.5 : 12, requiredString: 'dog' };
      const messages = off ? ['ERROR :: /bar/requiredInt :: 12.5 is not backed by a Integer'] : [];
      switch (required) {
        case MUST_BE_PRESENT:
          return {
            valid: false,
            hasFix: !off,
            messages: [...messages, missing('defaultString')],
            after: fixedBar,
          };
        case FIXUP_ABSENT_WITH_DEFAULT:
          return {
            valid: off ? false : true,
            hasFix: true,
            messages,
            after: { ...fixedBar, defaultString: 'apple' },
          };
        default:
          return { valid: !off, hasFix: !off, messages, after: fixedBar };
      }
    },
  },
  {
    label: 'numeric strings',
    bar: { requiredInt: '7', requiredString: 'dog', defaultString: 'cow', optionalBoolean: 'TRUE' },
    expect: (_required, coercion) => {
      const bar = { requiredInt: '7', requiredString: 'dog', defaultString: 'cow', optionalBoolean: 'TRUE' };
      switch (coercion) {
        case CoercionMode.OFF:
          return {
            valid: false,
            hasFix: false,
            messages: [
              'ERROR :: /bar/requiredInt :: 7 is not backed by a Integer',
              'ERROR :: /bar/optionalBoolean :: TRUE is not backed by a Boolean',
            ],
            after: bar,
          };
        case CoercionMode.NORMAL:
          return {
            valid: false,
            hasFix: false,
            messages: [
              'ERROR :: /bar/requiredInt :: 7 cannot be coerced to Integer',
              'ERROR :: /bar/optionalBoolean :: TRUE cannot be coerced to Boolean',
            ],
            after: bar,
          };
        default:
          return {
            valid: true,
            hasFix: true,
            messages: [],
            after: { ...bar, requiredInt: 7, optionalBoolean: true },
          };
      }
    },
  },
  {
    label: 'a value that is not a record',
    bar: [1],
    expect: () => ({
      valid: false,
      hasFix: false,
      messages: ['ERROR :: /bar :: record type is not backed by a DataMap'],
      after: [1],
    }),
  },
];

describe.each(REQUIRED_MODES.flatMap((r) => COERCION_MODES.map((c) => [r, c] as const)))(
  'RequiredMode %s with CoercionMode %s',
  (requiredMode, coercionMode) => {
    it.each(ROWS.map((row) => [row.label, row] as const))('validates %s', (_label, row) => {
      const bar = Data.fromJS(row.bar);
      const data = new DataMap([['bar', bar]]);
      const result = validate(data, SCHEMA, { requiredMode, coercionMode });
      const expected = row.expect(requiredMode, coercionMode);
      expect({
        valid: result.isValid(),
        hasFix: result.hasFix(),
        messages: result
          .getMessage()
          .split('\n')
          .filter((l) => l !== ''),
        after: Data.toJS(data.get('bar')!),
      }).toEqual(expected);
      expect(result.hasFixupReadOnlyError()).toBe(false);
      expect(result.getFixed()).toBe(data);
      expect(data.get('bar')).toBe(bar); // complex values are fixed in place
    });
  },
);

describe('FIXUP_ABSENT_WITH_DEFAULT', () => {
  const schema = parseSchema(`{ "type": "record", "name": "Defaults", "namespace": "t", "fields": [
    { "name": "b", "type": "boolean", "default": true },
    { "name": "i", "type": "int", "default": 1 },
    { "name": "l", "type": "long", "default": 9223372036854775807 },
    { "name": "f", "type": "float", "default": 3.0 },
    { "name": "d", "type": "double", "default": 4.5 },
    { "name": "s", "type": "string", "default": "cow" },
    { "name": "y", "type": "bytes", "default": "dog" },
    { "name": "a", "type": { "type": "array", "items": "int" }, "default": [ -1, -2, -3 ] },
    { "name": "e", "type": { "type": "enum", "name": "E", "symbols": [ "apple", "orange" ] }, "default": "apple" },
    { "name": "x", "type": { "type": "fixed", "name": "X", "size": 4 }, "default": "1234" },
    { "name": "m", "type": { "type": "map", "values": "int" }, "default": { "1": 1, "2": 2 } },
    { "name": "r", "type": { "type": "record", "name": "R", "fields": [ { "name": "int", "type": "int" } ] }, "default": { "int": 1 } },
    { "name": "u", "type": [ "int", "R", "E", "X" ], "default": { "t.E": "orange" } },
    { "name": "n", "type": [ "null", "E" ], "default": null },
    { "name": "optionalInt", "type": "int", "optional": true },
    { "name": "optionalDefaultInt", "type": "int", "optional": true, "default": 42 }
  ] }`);
  const options = { requiredMode: FIXUP_ABSENT_WITH_DEFAULT };

  it('puts the default of every absent required field, and none of an optional one', () => {
    const data = new DataMap();
    const result = validate(data, schema, options);
    expect([result.isValid(), result.hasFix(), result.getMessage()]).toEqual([true, true, '']);
    expect(data.toString()).toBe(
      '{"b":true,"i":1,"l":9223372036854775807,"f":3,"d":4.5,"s":"cow","y":"dog","a":[-1,-2,-3],"e":"apple","x":"1234","m":{"1":1,"2":2},"r":{"int":1},"u":{"t.E":"orange"},"n":null}',
    );
    expect(data.has('optionalInt') || data.has('optionalDefaultInt')).toBe(false);
    // the fixed record is valid as it stands, in the strictest mode
    expect(
      validate(data, schema, { requiredMode: MUST_BE_PRESENT, coercionMode: CoercionMode.OFF }).isValid(),
    ).toBe(true);
  });

  it('puts defaults as read-only copies, never the schema’s own objects', () => {
    const data = new DataMap();
    validate(data, schema, options);
    const record = (schema as unknown as { getField(n: string): { getDefault(): unknown } }).getField('r');
    for (const key of ['a', 'm', 'r', 'u']) {
      const put = data.get(key) as DataMap;
      expect(put.isReadOnly()).toBe(true);
      expect(put.isMadeReadOnly()).toBe(true);
    }
    expect(data.get('r')).not.toBe(record.getDefault());
    expect((data.get('r') as DataMap).equals(record.getDefault())).toBe(true);
    // the map that received them stays mutable
    expect(data.isReadOnly()).toBe(false);
    data.put('i', 2);
  });

  it('leaves present fields alone', () => {
    const data = new DataMap([
      ['i', 5],
      ['s', 'horse'],
    ]);
    validate(data, schema, options);
    expect([data.get('i'), data.get('s'), data.get('b')]).toEqual([5, 'horse', true]);
  });

  it('fixes up with coercion OFF too: the required mode enables its own fix-up', () => {
    const data = new DataMap();
    const result = validate(data, schema, { ...options, coercionMode: CoercionMode.OFF });
    expect([result.isValid(), result.hasFix()]).toEqual([true, true]);
    expect(data.get('s')).toBe('cow');
  });

  it('fails without a change, with hasFixupReadOnlyError, when the record map is read-only', () => {
    const data = new DataMap([['i', 5]]);
    data.setReadOnly();
    const result = validate(data, schema, options);
    expect(result.isValid()).toBe(false);
    expect(result.hasFix()).toBe(true);
    expect(result.hasFixupReadOnlyError()).toBe(true);
    expect(data.toString()).toBe('{"i":5}');
    const lines = result.getMessage().split('\n');
    expect(lines[0]).toBe(
      'ERROR :: /b :: field is required and has default value but not found and cannot be fixed because DataMap of record is read-only',
    );
    expect(lines.length).toBe(14); // 13 absent defaulted fields, then the final empty line
  });
});
