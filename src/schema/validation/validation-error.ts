import { SvcError, registerErrorCodes } from '../../errors/svc-error';
import type { ValidationResult } from './validation-result';
import { SCHEMA_VALIDATION_VALIDATION_ERROR_CODES } from '../../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SCHEMA_VALIDATION_VALIDATION_ERROR_CODES);

/**
 * Thrown (by callers that want an exception, such as `svc validate` or a server's input filter) when data
 * does not conform to its schema. The message is the validation messages, one per line, after a summary
 * line; at the HTTP edge it becomes a 422, as the reference's validation filter answers.
 */
export class DataValidationError extends SvcError {
  /** The result that failed. */
  readonly result: ValidationResult;

  constructor(result: ValidationResult, what = 'the data') {
    const messages = result.getMessages();
    const count = messages.length === 1 ? '1 message' : `${messages.length} messages`;
    super('SVC_ERR_VALIDATE_INVALID', `${what} is not valid (${count}):\n${result.getMessage().trimEnd()}`);
    this.result = result;
  }
}
