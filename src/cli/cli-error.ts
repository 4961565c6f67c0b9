import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { CLI_CLI_ERROR_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(CLI_CLI_ERROR_CODES);

/** Exit codes of the `svc` command. */
export const EXIT_OK = 0;
/** The input was read but is not valid (bad data, validation failed). */
export const EXIT_INVALID = 1;
/** Usage error, unreadable file, or schema error. */
export const EXIT_USAGE = 2;

/** A CLI usage problem (bad flag value, missing file); exits with {@link EXIT_USAGE}. */
export class CliUsageError extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_CLI_USAGE', message, options);
  }
}
