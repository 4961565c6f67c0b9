import { ByteString, type DataValue } from '../../data';
import { KIND, KIND_BYTES, KIND_NULL, kindOf } from '../../data/internal';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import type { EnumDataSchema } from '../enum-schema';
import type { FixedDataSchema } from '../fixed-schema';
import { CoercionMode } from './coercion-mode';
import {
  isDoubleValue,
  isFloatValue,
  isIntValue,
  isLongValue,
  toBoolean,
  toDouble,
  toFloat,
  toInt,
  toLong,
} from './coerce';
import { valueText } from './message-text';
import type { ValidationOptions } from './validation-options';
import { ValidationResult } from './validation-result';
import { ValidationMessage } from './validation-message';

/**
 * How value types, keys and parameters (`resources/value-types.ts`, `resources/key-types.ts`,
 * `resources/params.ts`, `protocol/keys.ts`) coerce values: through {@link coerceToSchema}, which runs the
 * installed validator. Why a slot and not `validate` itself: `validate` brings the validator compiler and
 * its code generation (~6 KB of a gzipped page), and a browser page that only calls a service does not
 * need it. The server (`resources/registration.ts`) and the Node client (`client/node-platform.ts`)
 * install `validate` ({@link installValidation}), so on Node every coercion is `validate`'s, as before. In
 * a page of `svc-framework/client` nothing is installed unless the page calls `installFullValidation()`
 * (`full-validation.ts`); without it, {@link coerceWithoutValidator} runs: the same coercions for
 * primitives, bytes, fixed and enums (the same results and messages), and records, arrays, maps and unions
 * passed on unvalidated (what a client receives from its service: action returns, keys of batch responses).
 */
export type SchemaCoercion = (
  data: DataValue,
  schema: DataSchema,
  options: ValidationOptions,
) => ValidationResult;

let installed: SchemaCoercion | undefined;

/** Makes `coercion` (the package installs `validate`) what {@link coerceToSchema} runs. */
export function installValidation(coercion: SchemaCoercion): void {
  installed = coercion;
}

/** True when a validator is installed (else value types coerce with {@link coerceWithoutValidator}). */
export function isValidationInstalled(): boolean {
  return installed !== undefined;
}

/** `data` coerced to `schema` by the installed validator, else by {@link coerceWithoutValidator}. */
export function coerceToSchema(
  data: DataValue,
  schema: DataSchema,
  options: ValidationOptions,
): ValidationResult {
  return installed === undefined
    ? coerceWithoutValidator(data, schema, options)
    : installed(data, schema, options);
}

const PRIMITIVES: Partial<
  Record<
    DataSchemaType,
    readonly [(v: unknown) => boolean, ((v: unknown, fromStrings: boolean) => unknown) | undefined, string]
  >
> = {
  [DataSchemaType.INT]: [isIntValue, toInt, 'Integer'],
  [DataSchemaType.LONG]: [isLongValue, toLong, 'Long'],
  [DataSchemaType.FLOAT]: [isFloatValue, toFloat, 'Float'],
  [DataSchemaType.DOUBLE]: [isDoubleValue, toDouble, 'Double'],
  [DataSchemaType.BOOLEAN]: [(v) => typeof v === 'boolean', toBoolean, 'Boolean'],
  [DataSchemaType.STRING]: [(v) => typeof v === 'string', undefined, 'String'],
};

function failed(value: DataValue, text: string): ValidationResult {
  return new ValidationResult(value, false, false, false, [new ValidationMessage([], text)]);
}

/**
 * The validator's root coercion of a primitive (null too), bytes, fixed or enum value, interpreted (the
 * same checks, results and messages as `compile-validator.ts`'s nodes for a root value); any other schema's
 * value is passed on as it is, valid. Used where no validator is installed (see above).
 */
export function coerceWithoutValidator(
  data: DataValue,
  schema: DataSchema,
  options: ValidationOptions,
): ValidationResult {
  const s = schema.getDereferencedSchema();
  const mode = options.coercionMode ?? CoercionMode.NORMAL;
  const type = s.getType();
  const primitive = PRIMITIVES[type];
  if (primitive !== undefined) {
    const [valid, convert, className] = primitive;
    if (valid(data)) return new ValidationResult(data, true, false, false);
    if (mode === CoercionMode.OFF) return failed(data, `${valueText(data)} is not backed by a ${className}`);
    const converted = convert?.(data, mode === CoercionMode.STRING_TO_PRIMITIVE);
    if (converted === undefined) return failed(data, `${valueText(data)} cannot be coerced to ${className}`);
    return new ValidationResult(converted as DataValue, true, converted !== data, false);
  }
  if (type === DataSchemaType.NULL) {
    if (kindOf(data) === KIND_NULL) return new ValidationResult(data, true, false, false);
    const off = mode === CoercionMode.OFF;
    return failed(data, `${valueText(data)} ${off ? 'is not backed by a' : 'cannot be coerced to'} Null`);
  }
  if (type === DataSchemaType.ENUM) {
    if (typeof data !== 'string') return failed(data, 'enum type is not backed by a String');
    if (!(s as EnumDataSchema).getSymbols().includes(data))
      return failed(data, `"${data}" is not an enum symbol`);
    return new ValidationResult(data, true, false, false);
  }
  if (type === DataSchemaType.BYTES || type === DataSchemaType.FIXED) {
    const size = type === DataSchemaType.FIXED ? (s as FixedDataSchema).getSize() : undefined;
    const off = mode === CoercionMode.OFF;
    if (typeof data === 'string') {
      if (size !== undefined && data.length !== size) {
        return failed(
          data,
          `"${data}" length (${data.length}) is inconsistent with expected fixed size of ${size}`,
        );
      }
      if (!ByteString.isAvroString(data))
        return failed(data, `"${data}" is not a valid string representation of bytes`);
      if (off) return new ValidationResult(data, true, false, false);
      return new ValidationResult(ByteString.fromAvroString(data), true, true, false);
    }
    if ((data as { readonly [KIND]?: number } | null)?.[KIND] === KIND_BYTES) {
      const length = (data as ByteString).length;
      if (size !== undefined && length !== size) {
        return failed(
          data,
          `"${valueText(data)}" length (${length}) is inconsistent with expected fixed size of ${size}`,
        );
      }
      return new ValidationResult(data, true, false, false);
    }
    return failed(
      data,
      `${size === undefined ? 'bytes' : 'fixed'} type is not backed by a String or ByteString`,
    );
  }
  return new ValidationResult(data, true, false, false);
}
