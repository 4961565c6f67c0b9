/**
 * Validation and coercion of data against schemas (brief, "Validation"): explicit, never automatic on
 * decoding; messages worded like the reference's.
 */
export { validate, compileValidator, type Validator } from './validate';
export { ValidationResult } from './validation-result';
export { ValidationMessage, messagesToString, type ValidationPath } from './validation-message';
export {
  DEFAULT_VALIDATION_OPTIONS,
  ValidationOptionsError,
  resolveValidationOptions,
  type ValidationOptions,
  type ResolvedValidationOptions,
} from './validation-options';
export { RequiredMode, REQUIRED_MODES } from './required-mode';
export { CoercionMode, COERCION_MODES } from './coercion-mode';
export { UnrecognizedFieldMode, UNRECOGNIZED_FIELD_MODES } from './unrecognized-field-mode';
export { DataValidationError } from './validation-error';
