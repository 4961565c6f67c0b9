import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { REPLAY_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(REPLAY_ERRORS_CODES);

/**
 * A recording `svc replay` cannot read (`SVC_ERR_REPLAY_INPUT`): a missing file, text that is neither a HAR
 * file nor a request log, an entry without a method or path. `file` names it; `at` says where (`line 3`,
 * `log.entries[2]`).
 */
export class ReplayInputError extends SvcError {
  readonly file: string;
  readonly at: string | undefined;

  constructor(file: string, message: string, at?: string, options?: { cause?: unknown }) {
    super('SVC_ERR_REPLAY_INPUT', `${file}${at === undefined ? '' : ` (${at})`}: ${message}`, options);
    this.file = file;
    this.at = at;
  }
}

/** The replay ran and some exchanges differ (`SVC_ERR_REPLAY_DIFFERENT`): the CLI exits 1 after its report. */
export class ReplayMismatchError extends SvcError {
  /** How many exchanges differ. */
  readonly differing: number;

  constructor(differing: number, total: number) {
    super(
      'SVC_ERR_REPLAY_DIFFERENT',
      `${differing} of ${total} replayed exchange${total === 1 ? '' : 's'} differ`,
    );
    this.differing = differing;
  }
}
