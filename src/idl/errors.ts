import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { IDL_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(IDL_ERRORS_CODES);

/** One problem in an IDL file: where (a JSON pointer-like path, `/collection/finders/0/name`) and what. */
export interface IdlProblem {
  /** Path from the file's root: property names and array indices, each after a `/`; empty for the root. */
  readonly path: string;
  readonly message: string;
}

/**
 * An IDL file (`.restspec.json`, `.snapshot.json`) or IDL object that does not fit the format
 * (`SVC_ERR_IDL_FORMAT`): not JSON, a required field missing, a value of the wrong type, no resource kind.
 * The message names the file and lists every problem with its JSON path; `file` and `problems` carry the same
 * as data.
 */
export class IdlFormatError extends SvcError {
  /** The file as the caller named it (or a description such as `OPTIONS /photos`). */
  readonly file: string;
  readonly problems: readonly IdlProblem[];

  constructor(file: string, problems: readonly IdlProblem[], options?: { cause?: unknown }) {
    const lines = problems.map((p) => `  ${p.path === '' ? '/' : p.path}: ${p.message}`);
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super('SVC_ERR_IDL_FORMAT', `${file} is not a valid IDL file (${count}):\n${lines.join('\n')}`, options);
    this.file = file;
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * An IDL file that is valid but cannot be imported (`SVC_ERR_IDL_IMPORT`): a type names no schema on the
 * resolver path or in the snapshots, or a key or criteria type has no Svc form. Names the file, the JSON
 * path and the reason.
 */
export class IdlImportError extends SvcError {
  readonly file: string;
  readonly path: string;

  constructor(file: string, path: string, reason: string, options?: { cause?: unknown }) {
    super('SVC_ERR_IDL_IMPORT', `${file}${path === '' ? '' : ` at ${path}`}: ${reason}`, options);
    this.file = file;
    this.path = path;
  }
}
