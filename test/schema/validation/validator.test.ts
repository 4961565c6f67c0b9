/**
 * The validator as a whole: options and their defaults, compile-once caching, the generated fast path
 * (names that could break generated code, code generation disabled), deep data, and validation being an
 * explicit step.
 */
import {
  CoercionMode,
  compileValidator,
  DataList,
  DataMap,
  DEFAULT_VALIDATION_OPTIONS,
  EnumDataSchema,
  IntDataSchema,
  RecordDataSchema,
  RecordField,
  StringDataSchema,
  UnionDataSchema,
  UnionMember,
  isSvcError,
  JsonCodec,
  parseSchema,
  RequiredMode,
  resolveValidationOptions,
  UnrecognizedFieldMode,
  validate,
  type ValidationOptions,
} from '../../../src';
import { generatedCheckSource, generateCheck } from '../../../src/schema/validation/check-codegen';
import { nodeFor } from '../../../src/schema/validation/compile-validator';
import { decimalIntegerPart } from '../../../src/schema/validation/coerce';
import { optionsIndex } from '../../../src/schema/validation/validation-options';
import { withoutCodeFromStrings } from '../../support/no-code-from-strings';

const json = new JsonCodec();

describe('options', () => {
  it('default to the reference’s: CAN_BE_ABSENT_IF_HAS_DEFAULT, NORMAL, IGNORE', () => {
    expect(DEFAULT_VALIDATION_OPTIONS).toEqual({
      requiredMode: RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
      coercionMode: CoercionMode.NORMAL,
      unrecognizedFieldMode: UnrecognizedFieldMode.IGNORE,
    });
    expect(resolveValidationOptions(undefined)).toBe(DEFAULT_VALIDATION_OPTIONS);
    expect(resolveValidationOptions({})).toEqual(DEFAULT_VALIDATION_OPTIONS);
    expect(resolveValidationOptions({ coercionMode: CoercionMode.OFF })).toEqual({
      ...DEFAULT_VALIDATION_OPTIONS,
      coercionMode: CoercionMode.OFF,
    });
  });

  it('resolve frozen options once, and alike, and refuse a frozen unknown mode every time', () => {
    const frozen = Object.freeze({ coercionMode: CoercionMode.STRING_TO_PRIMITIVE });
    const first = resolveValidationOptions(frozen);
    expect(first).toEqual(resolveValidationOptions({ coercionMode: CoercionMode.STRING_TO_PRIMITIVE }));
    expect(resolveValidationOptions(frozen)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // options that may still change are resolved at each call
    const open = { coercionMode: CoercionMode.OFF };
    expect(resolveValidationOptions(open)).not.toBe(resolveValidationOptions(open));
    const bad = Object.freeze({ coercionMode: 'normal' }) as unknown as ValidationOptions;
    for (let i = 0; i < 2; i++) expect(() => resolveValidationOptions(bad)).toThrow('coercionMode must be');
  });

  it('give every combination its own cache slot', () => {
    const seen = new Set<number>();
    for (const requiredMode of Object.values(RequiredMode))
      for (const coercionMode of Object.values(CoercionMode))
        for (const unrecognizedFieldMode of Object.values(UnrecognizedFieldMode))
          seen.add(optionsIndex({ requiredMode, coercionMode, unrecognizedFieldMode }));
    expect(seen.size).toBe(36);
  });

  it.each([
    [
      { requiredMode: 'SOMETIMES' },
      'requiredMode must be one of IGNORE, MUST_BE_PRESENT, CAN_BE_ABSENT_IF_HAS_DEFAULT, FIXUP_ABSENT_WITH_DEFAULT; got "SOMETIMES"',
    ],
    [
      { coercionMode: 'normal' },
      'coercionMode must be one of OFF, NORMAL, STRING_TO_PRIMITIVE; got "normal"',
    ],
    [{ unrecognizedFieldMode: 3 }, 'unrecognizedFieldMode must be one of IGNORE, DISALLOW, TRIM; got 3'],
  ])('refuse an unknown mode %j', (options, message) => {
    const schema = parseSchema('"int"');
    let caught: unknown;
    try {
      validate(1, schema, options as unknown as ValidationOptions);
    } catch (err) {
      caught = err;
    }
    expect(isSvcError(caught, 'ValidationOptionsError', 'SVC_ERR_VALIDATE_BAD_OPTIONS')).toBe(true);
    expect((caught as Error).message).toBe(message);
  });
});

describe('compiling', () => {
  const schema = parseSchema(`{ "type": "record", "name": "Node", "fields": [
    { "name": "value", "type": "int" },
    { "name": "children", "type": { "type": "array", "items": "Node" }, "optional": true }
  ] }`);

  it('compiles a schema once per option combination and reuses it', () => {
    const o = DEFAULT_VALIDATION_OPTIONS;
    const i = optionsIndex(o);
    expect(nodeFor(schema, o, i)).toBe(nodeFor(schema, o, i));
    const strict = resolveValidationOptions({ requiredMode: RequiredMode.MUST_BE_PRESENT });
    expect(nodeFor(schema, strict, optionsIndex(strict))).not.toBe(nodeFor(schema, o, i));
  });

  it('gives the same results through compileValidator as through validate', () => {
    const validator = compileValidator(schema, { coercionMode: CoercionMode.OFF });
    expect(validator.options.coercionMode).toBe(CoercionMode.OFF);
    for (const text of [
      '{"value": 1}',
      '{"value": 1.5}',
      '{"children": [{"value": "x"}]}',
      '{"value": 1, "children": [{}]}',
    ]) {
      const a = validator.validate(json.stringToMap(text));
      const b = validate(json.stringToMap(text), schema, { coercionMode: CoercionMode.OFF });
      expect([a.isValid(), a.hasFix(), a.getMessage()]).toEqual([b.isValid(), b.hasFix(), b.getMessage()]);
    }
  });

  it('handles recursive records', () => {
    const ok = json.stringToMap('{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}');
    expect(validate(ok, schema).isValid()).toBe(true);
    const bad = json.stringToMap('{"value": 1, "children": [{"value": 2, "children": [{}]}]}');
    expect(validate(bad, schema).getMessage()).toBe(
      'ERROR :: /children/0/children/0/value :: field is required but not found and has no default value\n',
    );
  });

  it('stops at MAX_NESTING_DEPTH with a message at the first container too deep (see nesting-depth.test.ts)', () => {
    // record, list, record, list...: `depth` records nest 2 * depth - 1 levels
    const nest = (depth: number): DataMap => {
      let node = new DataMap([['value', 0]]);
      for (let i = 1; i < depth; i++)
        node = new DataMap([
          ['value', i],
          ['children', new DataList([node])],
        ]);
      return node;
    };
    expect(validate(nest(500), schema).isValid()).toBe(true);
    for (const depth of [501, 200_000]) {
      const result = validate(nest(depth), schema);
      expect(result.isValid()).toBe(false);
      expect(result.getMessages()).toHaveLength(1);
      expect(result.getMessages()[0]!.getPath()).toHaveLength(1000);
      expect(result.getMessage()).toMatch(
        /^ERROR :: (\/children\/0){500} :: nested deeper than the maximum depth of 1000 \(MAX_NESTING_DEPTH\); not validated below this point\n$/,
      );
    }
  });
});

describe('the generated fast path', () => {
  // The parser refuses such names, but schemas built with the constructors may hold any string.
  const awkward = [
    'a"b',
    'c\\d',
    '*/ x /*',
    '\u2028',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '0',
    '',
  ];
  const schema = new RecordDataSchema({
    name: 'Awkward',
    fields: [
      ...awkward.map((name) => new RecordField({ name, type: IntDataSchema.INSTANCE })),
      new RecordField({
        name: 'e',
        type: new EnumDataSchema({ name: 'E', symbols: ['A', '"*/'] }),
        optional: true,
      }),
      new RecordField({
        name: 'u',
        type: new UnionDataSchema([
          new UnionMember({ alias: 'x"y', type: IntDataSchema.INSTANCE }),
          new UnionMember({ alias: 'z', type: StringDataSchema.INSTANCE }),
        ]),
        optional: true,
      }),
    ],
  });

  it('embeds names as string literals only', () => {
    const source = generatedCheckSource(schema, DEFAULT_VALIDATION_OPTIONS);
    for (const name of awkward) expect(source).toContain(JSON.stringify(name));
    expect(source).toContain('"x\\"y"');
  });

  it('validates records whose field names are Object.prototype members or odd characters', () => {
    const full = new DataMap(awkward.map((name, i) => [name, i] as const));
    expect(validate(full, schema).getMessage()).toBe('');
    const missing = new DataMap(
      awkward.filter((n) => n !== 'toString' && n !== '__proto__').map((n) => [n, 1] as const),
    );
    expect(validate(missing, schema).getMessage()).toBe(
      'ERROR :: /__proto__ :: field is required but not found and has no default value\n' +
        'ERROR :: /toString :: field is required but not found and has no default value\n',
    );
    expect(validate(missing, schema, { requiredMode: RequiredMode.IGNORE }).isValid()).toBe(true);
  });

  it('agrees with the closures on a few values', () => {
    const check = generateCheck(schema, DEFAULT_VALIDATION_OPTIONS)!;
    const node = nodeFor(schema, DEFAULT_VALIDATION_OPTIONS, optionsIndex(DEFAULT_VALIDATION_OPTIONS));
    const raw = (m: DataMap): unknown => m.toJSON();
    const full = new DataMap(awkward.map((name, i) => [name, i] as const));
    const variants = [
      full,
      full.clone().set('e', 'A'),
      full.clone().set('e', '"*/'),
      full.clone().set('e', 'C'),
      full.clone().set('u', new DataMap([['x"y', 1]])),
      full.clone().set('u', new DataMap([['x"y', 'no']])),
      full.clone().set('u', new DataMap([['z', 'yes']])),
    ];
    expect(variants.map((v) => check(raw(v)))).toEqual([true, true, true, false, true, false, true]);
    for (const v of variants) expect(check(raw(v))).toBe(node.closureCheck(raw(v)));
  });

  it('falls back to the closures where code generation from strings is not allowed', () => {
    withoutCodeFromStrings(() => {
      expect(generateCheck(schema, DEFAULT_VALIDATION_OPTIONS)).toBeUndefined();
      // a schema never compiled before, so validate has to decide now
      const fresh = parseSchema(
        '{ "type": "record", "name": "Fresh", "fields": [ { "name": "i", "type": "int" } ] }',
      );
      expect(validate(new DataMap([['i', 1]]), fresh).isValid()).toBe(true);
      expect(validate(new DataMap([['i', 'x']]), fresh).isValid()).toBe(false);
    });
  });
});

describe('validation is explicit', () => {
  it('is never applied by decoding: data stays as it was sent until validate is called', () => {
    const schema = parseSchema(
      '{ "type": "record", "name": "R", "fields": [ { "name": "i", "type": "int" }, { "name": "b", "type": "bytes" } ] }',
    );
    const data = json.stringToMap('{"i": 1.5, "b": "abc"}');
    expect([data.get('i'), data.get('b')]).toEqual([1.5, 'abc']);
    validate(data, schema);
    expect(data.get('i')).toBe(1);
  });
});

describe('decimal text', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['123', 123n],
    ['+123', 123n],
    ['-123.999', -123n],
    ['.5', 0n],
    ['5.', 5n],
    ['1e3', 1000n],
    ['1E+3', 1000n],
    ['12345e-2', 123n],
    ['9223372036854775807', 9223372036854775807n],
    ['1e24', 10n ** 24n],
    ['0.000000000000000000000000000001e30', 1n],
  ])('takes the exact integer part of %s', (text, expected) => {
    expect(decimalIntegerPart(text)).toBe(expected);
  });

  it.each([
    '',
    '.',
    '-',
    'e5',
    '1e',
    '1e+',
    '0x10',
    ' 1',
    '1 ',
    'NaN',
    'Infinity',
    '1_000',
    '١',
    '1e99999999999',
  ])('refuses %j (or finds it beyond any long)', (text) => {
    expect(decimalIntegerPart(text)).toBeUndefined();
  });
});
