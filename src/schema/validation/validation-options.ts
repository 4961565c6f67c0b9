import { SvcError, registerErrorCodes } from '../../errors/svc-error';
import { COERCION_MODES, CoercionMode } from './coercion-mode';
import { REQUIRED_MODES, RequiredMode } from './required-mode';
import { UNRECOGNIZED_FIELD_MODES, UnrecognizedFieldMode } from './unrecognized-field-mode';
import { SCHEMA_VALIDATION_VALIDATION_OPTIONS_CODES } from '../../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SCHEMA_VALIDATION_VALIDATION_OPTIONS_CODES);

/**
 * Options of {@link validate}. Every option may be left out; {@link DEFAULT_VALIDATION_OPTIONS} holds the
 * defaults, which are the reference's (`new ValidationOptions()`).
 *
 * @example
 * ```ts
 * validate(data, schema, { requiredMode: RequiredMode.FIXUP_ABSENT_WITH_DEFAULT });
 * validate(data, schema, { coercionMode: 'STRING_TO_PRIMITIVE' }); // query-string-like input
 * ```
 */
export interface ValidationOptions {
  /** Absent required fields; default {@link RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT}. */
  readonly requiredMode?: RequiredMode;
  /** Conversion of primitives to their stored form; default {@link CoercionMode.NORMAL}. */
  readonly coercionMode?: CoercionMode;
  /** Record keys the schema does not declare; default {@link UnrecognizedFieldMode.IGNORE}. */
  readonly unrecognizedFieldMode?: UnrecognizedFieldMode;
}

/** {@link ValidationOptions} with every option set. */
export type ResolvedValidationOptions = Required<ValidationOptions>;

/** The defaults, in one place. */
export const DEFAULT_VALIDATION_OPTIONS: ResolvedValidationOptions = Object.freeze({
  requiredMode: RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
  coercionMode: CoercionMode.NORMAL,
  unrecognizedFieldMode: UnrecognizedFieldMode.IGNORE,
});

/** Thrown by {@link validate} for an option value that is not one of the modes. */
export class ValidationOptionsError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_VALIDATE_BAD_OPTIONS', message);
  }
}

function pick<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    throw new ValidationOptionsError(
      `${name} must be one of ${allowed.join(', ')}; got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  }
  return value;
}

/**
 * Frozen options resolved before (a caller's constant: they cannot change). A large batch finder validates
 * each of its 1 000 criteria with the same options, twice; a resolved object per call was ~140 KB of its
 * ~2.9 MB allocated per request (sampling heap profiler, batch-stall's criteria).
 */
const resolvedFrozen = new WeakMap<ValidationOptions, ResolvedValidationOptions>();

/** The options with defaults filled in; throws {@link ValidationOptionsError} for an unknown mode. */
export function resolveValidationOptions(options: ValidationOptions | undefined): ResolvedValidationOptions {
  if (options === undefined) return DEFAULT_VALIDATION_OPTIONS;
  const frozen = Object.isFrozen(options);
  if (frozen) {
    const known = resolvedFrozen.get(options);
    if (known !== undefined) return known;
  }
  const resolved = resolve(options);
  if (frozen) resolvedFrozen.set(options, Object.freeze(resolved));
  return resolved;
}

function resolve(options: ValidationOptions): ResolvedValidationOptions {
  const d = DEFAULT_VALIDATION_OPTIONS;
  return {
    requiredMode: pick('requiredMode', options.requiredMode, REQUIRED_MODES, d.requiredMode),
    coercionMode: pick('coercionMode', options.coercionMode, COERCION_MODES, d.coercionMode),
    unrecognizedFieldMode: pick(
      'unrecognizedFieldMode',
      options.unrecognizedFieldMode,
      UNRECOGNIZED_FIELD_MODES,
      d.unrecognizedFieldMode,
    ),
  };
}

/** Index of a resolved option combination (0..35), the key of the compiled-validator cache. */
export function optionsIndex(o: ResolvedValidationOptions): number {
  return (
    (REQUIRED_MODES.indexOf(o.requiredMode) * COERCION_MODES.length +
      COERCION_MODES.indexOf(o.coercionMode)) *
      UNRECOGNIZED_FIELD_MODES.length +
    UNRECOGNIZED_FIELD_MODES.indexOf(o.unrecognizedFieldMode)
  );
}
