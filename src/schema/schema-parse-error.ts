import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { SCHEMA_SCHEMA_PARSE_ERROR_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SCHEMA_SCHEMA_PARSE_ERROR_CODES);

/** One problem found in schema text. */
export interface SchemaProblem {
  /** The file the text came from, when there is one. */
  readonly file?: string;
  /**
   * Where in the JSON value the problem is, JSON-pointer-like (`/fields/2/type`); empty for the value itself.
   * In a text holding several JSON values, the path is relative to the value that holds the problem.
   */
  readonly path: string;
  /** 1-based line, when the problem has a place in text. */
  readonly line?: number;
  /** 1-based column (UTF-16 code units), when the problem has a place in text. */
  readonly column?: number;
  readonly message: string;
}

/** One line for a problem: `file:line:column /path: message`. */
export function formatSchemaProblem(p: SchemaProblem): string {
  let where = p.file ?? '';
  if (p.line !== undefined) where += `${where === '' ? '' : ':'}${p.line}:${p.column ?? 1}`;
  const path = p.path === '' ? '' : p.path;
  const head = [where, path].filter((s) => s !== '').join(' ');
  return head === '' ? p.message : `${head}: ${p.message}`;
}

/**
 * Thrown when schema text, a schema file or a name lookup fails. It holds every problem found (a parse
 * collects them all rather than stopping at the first); `message` lists them one per line, e.g.
 * `com/acme/Foo.pdsc:12:7 /fields/2/default: default value 1.5 does not match type int`.
 *
 * @example
 * ```ts
 * try { parseSchema(text); } catch (err) {
 *   if (isSvcError(err, 'SchemaParseError')) for (const p of (err as SchemaParseError).problems) console.log(p.line, p.message);
 * }
 * ```
 */
export class SchemaParseError extends SvcError {
  readonly problems: readonly SchemaProblem[];

  constructor(
    problems: readonly SchemaProblem[],
    code: 'SVC_ERR_SCHEMA_PARSE' | 'SVC_ERR_SCHEMA_NOT_FOUND' = 'SVC_ERR_SCHEMA_PARSE',
  ) {
    super(code, problems.map(formatSchemaProblem).join('\n'));
    this.problems = problems;
  }
}
