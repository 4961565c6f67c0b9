import type { DataMap } from '../data';
import { SvcError, registerErrorCodes, registeredError } from '../errors/svc-error';
import { type ErrorResponse, ServiceError, errorResponseToDataMap } from '../protocol';
import { CLIENT_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(CLIENT_ERRORS_CODES);

/**
 * Errors of the client (`SVC_ERR_CLIENT_*`, see `docs/errors.md`). Every failure of a call is one of these,
 * except an abort, which rejects with the abort signal's `reason` as `fetch` does.
 *
 * `statusCode` is the registry status (what the error becomes if it reaches a server's HTTP edge, e.g. 502
 * for a peer's error response); the peer's own HTTP status is {@link ServiceResponseError.status}.
 */

/** Response headers as the client exposes them: lower-case names, repeated values joined with `, `. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/** The client was created with an option it cannot use; the message names the option. */
export class ClientOptionsError extends SvcError {
  readonly option: string;
  constructor(option: string, message: string) {
    super('SVC_ERR_CLIENT_BAD_OPTIONS', `Invalid client option '${option}': ${message}`);
    this.option = option;
  }
}

/**
 * The protocol version the client was configured with, or the one a server announces, cannot be encoded:
 * the client writes the 2.0.0 URI grammar only (1.0.0 differs in keys, lists and records; wire facts §3.2).
 */
export class UnsupportedProtocolVersionError extends SvcError {
  readonly version: string;
  constructor(version: string, message: string) {
    super('SVC_ERR_CLIENT_VERSION_UNSUPPORTED', message);
    this.version = version;
  }
}

/** A request description cannot be turned into a request (a programming error, found before sending). */
export class RequestBuildError extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_CLIENT_BAD_REQUEST', message, options);
  }
}

/** What a {@link ServiceResponseError} is made from. */
export interface ServiceResponseErrorInit {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The decoded ErrorResponse, when the body is one. */
  readonly errorResponse: ErrorResponse | undefined;
  /** The raw body (possibly empty). */
  readonly body: Uint8Array;
  /** The body decoded as a map, when it could be (an ErrorResponse, or e.g. an action's value). */
  readonly data: DataMap | undefined;
  /** Whether the error-response header (`X-Svc-Error-Response: true`) was present. */
  readonly isErrorResponse: boolean;
  /** The resource method of the request. */
  readonly method: string;
  readonly url: string;
  /** Why the body could not be read as an ErrorResponse, when it could not. */
  readonly cause?: unknown;
}

/**
 * The server answered with a status outside 2xx. Carries the status, the response headers and, when the
 * body is an ErrorResponse (wire facts §4), its fields (`message`, `code`, `errorDetails`, ...). Per-item
 * errors inside a successful batch response are not thrown; they are in the response's `errors` map.
 *
 * @example
 * ```ts
 * try { await client.send({ method: 'get', resource: 'photos', key: 7 }); }
 * catch (e) { if (isSvcError(e, 'ServiceResponseError') && e.status === 404) ...; }
 * ```
 */
export class ServiceResponseError extends SvcError {
  /** The HTTP status of the response. */
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly errorResponse: ErrorResponse | undefined;
  readonly body: Uint8Array;
  readonly data: DataMap | undefined;
  readonly isErrorResponse: boolean;
  readonly method: string;
  readonly url: string;

  constructor(init: ServiceResponseErrorInit) {
    const er = init.errorResponse;
    const what = er?.message !== undefined && er.message !== '' ? `: ${er.message}` : '';
    super(
      'SVC_ERR_CLIENT_ERROR_RESPONSE',
      `${init.method} ${init.url} failed with status ${init.status}${what}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.status = init.status;
    this.headers = init.headers;
    this.errorResponse = er;
    this.body = init.body;
    this.data = init.data;
    this.isErrorResponse = init.isErrorResponse;
    this.method = init.method;
    this.url = init.url;
  }

  /** The ErrorResponse's `message`, if any. */
  get serviceMessage(): string | undefined {
    return this.errorResponse?.message;
  }

  /** The ErrorResponse's `code` (the application's code, e.g. `INPUT_VALIDATION_FAILED`), if any. */
  get serviceCode(): string | undefined {
    return this.errorResponse?.code;
  }

  /** The ErrorResponse's `errorDetails`, if any. */
  get details(): DataMap | undefined {
    return this.errorResponse?.errorDetails;
  }

  /**
   * The error as a {@link ServiceError} with the same status, message, code and details, for a service that
   * passes a downstream error on to its own caller unchanged.
   */
  toServiceError(): ServiceError {
    const er = this.errorResponse ?? {};
    return new ServiceError(this.status, er.message ?? '', {
      ...(er.code === undefined ? {} : { code: er.code }),
      ...(er.serviceErrorCode === undefined ? {} : { serviceErrorCode: er.serviceErrorCode }),
      ...(er.errorDetails === undefined ? {} : { details: er.errorDetails }),
      ...(er.errorDetailType === undefined ? {} : { errorDetailType: er.errorDetailType }),
      ...(er.docUrl === undefined ? {} : { docUrl: er.docUrl }),
      ...(er.requestId === undefined ? {} : { requestId: er.requestId }),
      cause: this,
    });
  }

  /** The ErrorResponse as a DataMap (empty when the body was none). */
  errorResponseData(): DataMap {
    return errorResponseToDataMap(this.errorResponse ?? {});
  }
}

/** No complete response arrived within `timeoutMs` (the timer covers sending, waiting and reading the body). */
export class RequestTimeoutError extends SvcError {
  readonly timeoutMs: number;
  readonly url: string;
  constructor(url: string, timeoutMs: number) {
    super('SVC_ERR_CLIENT_TIMEOUT', `No response from ${url} within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
    this.url = url;
  }
}

/** The request could not be sent or the response not read (connection refused or reset, DNS...); see `cause`. */
export class TransportError extends SvcError {
  readonly url: string;
  constructor(url: string, cause: unknown) {
    super('SVC_ERR_CLIENT_TRANSPORT', `Request to ${url} failed: ${describe(cause)}`, { cause });
    this.url = url;
  }
}

/**
 * A success response cannot be read: malformed JSON or PSON (`cause` is the data layer's
 * `DataDecodingException`, with its byte `offset`), a `Content-Type` no codec reads, or a body not shaped like
 * the method's envelope (`cause` is the protocol's `ResponseFormatError`).
 */
/** A response body larger than the client's `maxResponseBytes`; the connection is dropped. */
export class ResponseTooLargeError extends SvcError {
  readonly url: string;
  readonly maxResponseBytes: number;
  constructor(url: string, maxResponseBytes: number) {
    super(
      'SVC_ERR_CLIENT_RESPONSE_TOO_LARGE',
      `The response of ${url} is larger than maxResponseBytes (${maxResponseBytes} bytes)`,
    );
    this.url = url;
    this.maxResponseBytes = maxResponseBytes;
  }
}

/**
 * A compressed response that inflates past the limit (`compressedFetch`'s `maxInflatedBytes`); inflating
 * stopped there, so no more than that was ever held. A {@link ResponseTooLargeError} (so the transport hands
 * it on as it does the raw limit's), with its own name and code.
 */
export class InflatedResponseTooLargeError extends ResponseTooLargeError {
  readonly maxInflatedBytes: number;
  constructor(url: string, maxInflatedBytes: number) {
    super(url, maxInflatedBytes);
    const code = 'SVC_ERR_CLIENT_INFLATED_TOO_LARGE';
    // the base class set its own: this is the same failure, one layer in
    Object.defineProperty(this, 'code', { value: code, enumerable: true });
    this.name = registeredError(code)![0];
    this.message = `The response of ${url} inflates past maxInflatedBytes (${maxInflatedBytes} bytes)`;
    this.maxInflatedBytes = maxInflatedBytes;
  }
}

export class ResponseDecodingError extends SvcError {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: Uint8Array;
  /** Byte offset of a codec error, when the cause has one. */
  readonly offset: number | undefined;
  constructor(
    message: string,
    init: { status: number; headers: ResponseHeaders; body: Uint8Array; cause?: unknown },
  ) {
    const cause = init.cause;
    super(
      'SVC_ERR_CLIENT_RESPONSE_DECODE',
      cause === undefined ? message : `${message}: ${describe(cause)}`,
      cause === undefined ? undefined : { cause },
    );
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    const offset = (cause as { offset?: unknown } | undefined)?.offset;
    this.offset = typeof offset === 'number' ? offset : undefined;
  }
}

/** An error's message, and its cause's (undici's "fetch failed" hides the useful part there). */
function describe(cause: unknown): string {
  // by shape, not instanceof: errors from Node's fetch may come from another realm (e.g. under jest)
  const message = messageOf(cause);
  if (message === undefined) return String(cause);
  const inner = messageOf((cause as { cause?: unknown }).cause);
  return inner === undefined ? message : `${message} (${inner})`;
}

function messageOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string'
    ? (e as { message: string }).message
    : undefined;
}
