import type { DataMap } from '../data';
import type { ErrorResponseFormat } from './error-response';

/** Options of a {@link ServiceError}, mirroring the optional fields of an ErrorResponse. */
export interface ServiceErrorOptions {
  /** Canonical error code, e.g. `INPUT_VALIDATION_FAILED` (ErrorResponse `code`). */
  readonly code?: string;
  /** Deprecated numeric code (ErrorResponse `serviceErrorCode`). */
  readonly serviceErrorCode?: number;
  /** Structured details (ErrorResponse `errorDetails`). */
  readonly details?: DataMap;
  /**
   * Fully qualified name of the details record (ErrorResponse `errorDetailType`); defaults to
   * `com.linkedin.restli.common.ErrorDetails` when details are given.
   */
  readonly errorDetailType?: string;
  readonly docUrl?: string;
  readonly requestId?: string;
  /** Format for this error only, overriding the server's. */
  readonly format?: ErrorResponseFormat;
  readonly cause?: unknown;
}

/** `errorDetailType` of details given as a raw DataMap (as the reference names it). */
export const DEFAULT_ERROR_DETAIL_TYPE = 'com.linkedin.restli.common.ErrorDetails';

/**
 * What a resource handler throws to answer with an error (the reference's `RestLiServiceException`): an
 * HTTP status, a message, and optionally a code, details and a cause. The server turns it into an
 * ErrorResponse (error-response.ts); a client turns an ErrorResponse back into one (`serviceErrorFromResponse`).
 *
 * Not an `SvcError`: those are the framework's own errors with registry codes, while `code` here is the
 * application's code from the ErrorResponse. Check it with {@link isServiceError} (by `name` and shape),
 * not `instanceof`, since two copies of the package may be loaded.
 *
 * @example
 * ```ts
 * throw new ServiceError(404, 'No greeting 42', { code: 'GREETING_NOT_FOUND' });
 * ```
 */
export class ServiceError extends Error {
  /** HTTP status (an integer 100..599; anything else becomes 500). */
  readonly status: number;
  readonly code: string | undefined;
  readonly serviceErrorCode: number | undefined;
  readonly details: DataMap | undefined;
  readonly errorDetailType: string | undefined;
  readonly docUrl: string | undefined;
  readonly requestId: string | undefined;
  readonly format: ErrorResponseFormat | undefined;

  constructor(status: number, message?: string, options: ServiceErrorOptions = {}) {
    super(message ?? '', options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.status = Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
    this.code = options.code;
    this.serviceErrorCode = options.serviceErrorCode;
    this.details = options.details;
    this.errorDetailType =
      options.errorDetailType ?? (options.details === undefined ? undefined : DEFAULT_ERROR_DETAIL_TYPE);
    this.docUrl = options.docUrl;
    this.requestId = options.requestId;
    this.format = options.format;
  }
}

/** True for a {@link ServiceError} (by name and shape; survives duplicate package copies). */
export function isServiceError(err: unknown): err is ServiceError {
  return (
    err instanceof Error &&
    err.name === 'ServiceError' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}
