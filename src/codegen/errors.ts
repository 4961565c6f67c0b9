import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { CODEGEN_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(CODEGEN_ERRORS_CODES);

/** A schema set the generator cannot turn into classes; the message names the schemas involved. */
export class CodegenError extends SvcError {
  constructor(
    code:
      | 'SVC_ERR_CODEGEN_INPUT'
      | 'SVC_ERR_CODEGEN_NAME_CONFLICT'
      | 'SVC_ERR_CODEGEN_UNSUPPORTED'
      | 'SVC_ERR_CODEGEN_BAD_BINDING',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
