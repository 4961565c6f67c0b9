/**
 * The errors of the typed binding. Each stands for an exception the brief names (section "Errors"); the
 * brief's `ClassCastException` (an input of the wrong type) is the data layer's {@link ClassCastException},
 * reused as is.
 *
 * | class | brief | thrown when |
 * |---|---|---|
 * | {@link TemplateOutputCastException} | TemplateOutputCastException | stored data cannot be wrapped, cast or coerced to the binding type; a union whose member cannot be determined; a getter of another union member |
 * | {@link RequiredFieldNotPresentException} | RequiredFieldNotPresentException | a STRICT getter finds a required field absent and without default |
 * | {@link IllegalArgumentException} | IllegalArgumentException | null set on a required field in REMOVE_OPTIONAL_IF_NULL mode (and other refused arguments) |
 * | {@link NullValueException} | NullPointerException | null or undefined set in DISALLOW_NULL mode, or as a union member value (JS has no pointers, hence the name) |
 * | {@link NullUnionUnsupportedOperationException} | (state table: a null union stays null) | a member is set on a null union |
 * | {@link TemplateSchemaException} | — | a generated module's schema conflicts with another or cannot be resolved |
 * | {@link MissingCoercerException} | — | a custom-bound field is used before a coercer is registered for its class |
 */
import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { TEMPLATES_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(TEMPLATES_ERRORS_CODES);

/** Stored data cannot be wrapped, cast or coerced to the binding type. */
export class TemplateOutputCastException extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_TEMPLATE_OUTPUT_CAST', message, options);
  }
}

/** A STRICT getter found a required field absent, and the field has no default. */
export class RequiredFieldNotPresentException extends SvcError {
  /** The name of the absent field. */
  readonly fieldName: string;
  constructor(fieldName: string, recordName: string) {
    super(
      'SVC_ERR_TEMPLATE_REQUIRED_FIELD_MISSING',
      `Field "${fieldName}" of ${recordName} is required but it is not present`,
    );
    this.fieldName = fieldName;
  }
}

/** A template operation got an argument it cannot accept (Java's IllegalArgumentException). */
export class IllegalArgumentException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_TEMPLATE_ILLEGAL_ARGUMENT', message);
  }
}

/** `null` or `undefined` where the binding does not allow it (Java's NullPointerException). */
export class NullValueException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_TEMPLATE_NULL_VALUE', message);
  }
}

/** A member was set on a null union; a null union stays null (brief, "States and transitions"). */
export class NullUnionUnsupportedOperationException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_TEMPLATE_NULL_UNION', message);
  }
}

/** A generated module's schema conflicts with one registered before, or cannot be resolved. */
export class TemplateSchemaException extends SvcError {
  constructor(
    message: string,
    code: 'SVC_ERR_TEMPLATE_SCHEMA_CONFLICT' | 'SVC_ERR_TEMPLATE_SCHEMA_MISSING',
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** A custom-bound value was converted before a coercer was registered for its class (see `registerCoercer`). */
export class MissingCoercerException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_TEMPLATE_NO_COERCER', message);
  }
}
