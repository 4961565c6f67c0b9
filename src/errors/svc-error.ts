import type { ErrorCode } from './error-codes';
// the table without the summaries, so that a browser page that throws errors does not carry them
import { ERROR_TABLE } from './error-table';

/**
 * Base class of every error Svc throws on purpose.
 *
 * `name` is the stable class name from the registry and `code` the stable `SVC_ERR_*` code; check those
 * (see {@link isSvcError}) rather than `instanceof`, since two copies of the package may be loaded.
 */
export class SvcError extends Error {
  readonly code: ErrorCode;
  /** HTTP status this error maps to at the edge. */
  readonly statusCode: number;
  /**
   * True when the message is written for clients (it names no internals: no paths, no stack): it is then
   * shown even for a 5xx in production (e.g. "the queue is unavailable, retry later"). Default false.
   */
  readonly publicMessage: boolean = false;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    const [errorName, status] = ERROR_TABLE[code];
    this.code = code;
    this.statusCode = status;
    this.name = errorName;
  }
}

/** True when `err` is an error Svc raised with the given name (and, if given, code); survives duplicate package copies. */
export function isSvcError(err: unknown, name?: string, code?: ErrorCode): err is SvcError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown };
  if (typeof e.code !== 'string' || !e.code.startsWith('SVC_ERR_') || !(e.code in ERROR_TABLE)) return false;
  if (name !== undefined && e.name !== name) return false;
  if (code !== undefined && e.code !== code) return false;
  return true;
}
