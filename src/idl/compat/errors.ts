import { SvcError, registerErrorCodes } from '../../errors/svc-error';
import { IDL_COMPAT_ERRORS_CODES } from '../../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(IDL_COMPAT_ERRORS_CODES);

/**
 * An input of the compatibility checker that cannot be read or is malformed (`SVC_ERR_COMPAT_INPUT`): a
 * missing file, text that is not JSON, a snapshot that does not fit the IDL format, a schema tree that does
 * not parse. `file` names the input; `path` is the JSON path inside it when one is known (`/models/3`).
 */
export class CompatInputError extends SvcError {
  readonly file: string;
  readonly path: string | undefined;

  constructor(file: string, message: string, options?: { path?: string; cause?: unknown }) {
    const where = options?.path !== undefined && options.path !== '' ? `${file} at ${options.path}` : file;
    super('SVC_ERR_COMPAT_INPUT', `${where}: ${message}`, options);
    this.file = file;
    this.path = options?.path;
  }
}

/**
 * The check ran and found changes the requested level does not allow (`SVC_ERR_COMPAT_FAILED`); the CLI
 * exits 1 with it after printing the report.
 */
export class CompatCheckFailedError extends SvcError {
  /** How many changes made the level fail. */
  readonly failing: number;

  constructor(level: string, failing: number) {
    super(
      'SVC_ERR_COMPAT_FAILED',
      `the compatibility check failed at level ${level}: ${failing} change${failing === 1 ? '' : 's'} not allowed`,
    );
    this.failing = failing;
  }
}
