import { MAX_NESTING_DEPTH } from '../data/limits';
import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { SCHEMA_NESTING_DEPTH_ERROR_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SCHEMA_NESTING_DEPTH_ERROR_CODES);

/** The codes a {@link NestingDepthError} carries: which walk met the too-deep data. */
export type NestingDepthErrorCode = 'SVC_ERR_SCHEMA_DATA_TOO_DEEP' | 'SVC_ERR_AVRO_DATA_TOO_DEEP';

/**
 * Data nested deeper than {@link MAX_NESTING_DEPTH} met a walk that follows its schema (filling in defaults,
 * translating to or from Avro). Those walks recurse, so they stop at the one nesting limit of the product
 * (data/limits.ts) instead of running out of stack; `code` says which walk it was.
 *
 * @example
 * ```ts
 * try { fillInDefaults(schema, data); } catch (err) {
 *   if (isSvcError(err, 'NestingDepthError')) reply(500, err.message);
 * }
 * ```
 */
export class NestingDepthError extends SvcError {
  /** The limit that was passed: {@link MAX_NESTING_DEPTH}. */
  readonly limit: number = MAX_NESTING_DEPTH;

  /** @param what the walk, for the message (`filling in defaults`) */
  constructor(code: NestingDepthErrorCode, what: string) {
    super(
      code,
      `${what}: the data is nested deeper than the maximum depth of ${MAX_NESTING_DEPTH} (MAX_NESTING_DEPTH)`,
    );
  }
}
