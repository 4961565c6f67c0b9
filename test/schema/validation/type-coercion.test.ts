/**
 * The coercion a page of `svc-framework/client` runs when no validator is installed
 * (src/schema/validation/type-coercion.ts): for the schemas it coerces (primitives, null, bytes, fixed,
 * enums) it gives what `validate` gives, result, fix and message, in every coercion mode; any other schema's
 * value passes as it is. The installed validator is what `coerceToSchema` runs on Node.
 */
import {
  ByteString,
  CoercionMode,
  Data,
  DataMap,
  type DataSchema,
  type DataValue,
  parseSchema,
  primitiveSchema,
  validate,
} from '../../../src';
import {
  coerceToSchema,
  coerceWithoutValidator,
  isValidationInstalled,
} from '../../../src/schema/validation/type-coercion';

const schema = (text: string): DataSchema => parseSchema(text);
const p = (name: string): DataSchema => primitiveSchema(name)!;
const COLOR = schema('{ "type": "enum", "name": "Color", "symbols": ["RED", "GREEN"] }');
const MD5 = schema('{ "type": "fixed", "name": "Md5", "size": 4 }');
const SKU = schema('{ "type": "typeref", "name": "Sku", "ref": "long" }');

const CASES: ReadonlyArray<readonly [string, DataSchema, readonly DataValue[]]> = [
  ['int', p('int'), [1, -7, 1.5, 2 ** 31, '12', '1.0', 'x', true, 12n]],
  ['long', p('long'), [1, 2 ** 53, 2n ** 62n, 2n ** 64n, 1.5, '9007199254740993', '-3', 'x']],
  ['float', p('float'), [1.5, 1e39, Number.NaN, 'NaN', '2.5', 'x', 3n]],
  ['double', p('double'), [1.5, Number.POSITIVE_INFINITY, '-Infinity', '1e400', 'x', 2n ** 70n]],
  ['boolean', p('boolean'), [true, 'true', 'false', 'TRUE', 1]],
  ['string', p('string'), ['a', '', 1, true]],
  ['null', p('null'), [Data.NULL, 'null', 0]],
  ['bytes', p('bytes'), ['abc', '\u00ff', '\u0100', ByteString.fromAvroString('xy'), 5]],
  ['fixed', MD5, ['abcd', 'abc', ByteString.fromAvroString('abcd'), ByteString.fromAvroString('a'), 1]],
  ['enum', COLOR, ['RED', 'BLUE', 3]],
  ['typeref to long', SKU, [7, '7', 'x']],
];
const MODES = [CoercionMode.OFF, CoercionMode.NORMAL, CoercionMode.STRING_TO_PRIMITIVE];

describe('coercion without the validator', () => {
  describe.each(CASES)('gives what validate gives for %s', (_name, s, values) => {
    it.each(MODES)('in coercion mode %s', (coercionMode) => {
      for (const value of values) {
        const expected = validate(value, s, { coercionMode });
        const got = coerceWithoutValidator(value, s, { coercionMode });
        expect([value, got.isValid(), got.hasFix(), got.getFixed(), got.getMessage()]).toEqual([
          value,
          expected.isValid(),
          expected.hasFix(),
          expected.getFixed(),
          expected.getMessage(),
        ]);
      }
    });
  });

  it('passes records, arrays, maps and unions on unvalidated', () => {
    const record = schema('{ "type": "record", "name": "R", "fields": [{ "name": "n", "type": "int" }] }');
    const data = new DataMap({ n: 'not an int' });
    const r = coerceWithoutValidator(data, record, { coercionMode: CoercionMode.NORMAL });
    expect([r.isValid(), r.getFixed()]).toEqual([true, data]);
  });

  it('is not what runs on Node: the package installs validate', () => {
    const record = schema('{ "type": "record", "name": "R2", "fields": [{ "name": "n", "type": "int" }] }');
    const r = coerceToSchema(new DataMap({ n: 'x' }), record, { coercionMode: CoercionMode.NORMAL });
    expect([isValidationInstalled(), r.isValid()]).toEqual([true, false]);
  });
});
