import { DataMap, type DataValue } from '../data';
import { isSvcError } from '../errors';
import { ResponseFormatError } from './errors';
import { ServiceError, isServiceError } from './service-error';

/**
 * The ErrorResponse record (wire facts §4) and how an error thrown while serving a request becomes one.
 */

/** Parts an error response may show (the reference's `ErrorResponsePart`). */
export const ErrorResponsePart = {
  /** The error-response header (`X-Svc-Error-Response: true`). */
  HEADERS: 'HEADERS',
  STATUS_CODE_IN_BODY: 'STATUS_CODE_IN_BODY',
  MESSAGE: 'MESSAGE',
  DOC_URL: 'DOC_URL',
  REQUEST_ID: 'REQUEST_ID',
  EXCEPTION_CLASS: 'EXCEPTION_CLASS',
  STACKTRACE: 'STACKTRACE',
  DETAILS: 'DETAILS',
  /** `code` and the deprecated `serviceErrorCode`. */
  SERVICE_ERROR_CODE: 'SERVICE_ERROR_CODE',
} as const;

export type ErrorResponsePart = (typeof ErrorResponsePart)[keyof typeof ErrorResponsePart];

const ALL_PARTS = /* @__PURE__ */ Object.values(ErrorResponsePart);
const FORMAT_PARTS = Symbol('svc.errorResponseFormat.parts');

/**
 * Which parts an error response shows. The built-in formats are the reference's; {@link FULL} is the
 * default. Whatever the format, production mode never shows stack traces or exception classes (see
 * {@link buildErrorResponse}).
 */
export class ErrorResponseFormat {
  /** Every part. The default. */
  static readonly FULL = /* @__PURE__ */ new ErrorResponseFormat(ALL_PARTS);
  /** Message, details and the header. */
  static readonly MESSAGE_AND_DETAILS = /* @__PURE__ */ new ErrorResponseFormat([
    'MESSAGE',
    'DETAILS',
    'HEADERS',
  ]);
  /** Status, message, codes and the header. */
  static readonly MESSAGE_AND_SERVICECODE = /* @__PURE__ */ new ErrorResponseFormat([
    'STATUS_CODE_IN_BODY',
    'MESSAGE',
    'SERVICE_ERROR_CODE',
    'HEADERS',
  ]);
  /** Status, message, codes, exception class and the header. */
  static readonly MESSAGE_AND_SERVICECODE_AND_EXCEPTIONCLASS = /* @__PURE__ */ new ErrorResponseFormat([
    'STATUS_CODE_IN_BODY',
    'MESSAGE',
    'SERVICE_ERROR_CODE',
    'EXCEPTION_CLASS',
    'HEADERS',
  ]);
  /** Message and the header. */
  static readonly MESSAGE_ONLY = /* @__PURE__ */ new ErrorResponseFormat(['MESSAGE', 'HEADERS']);
  /** Only the header: the body is `{}`. */
  static readonly MINIMAL = /* @__PURE__ */ new ErrorResponseFormat(['HEADERS']);

  // declared, set by the constructor: a class field with a computed key keeps the class in every bundle
  /** @internal */ declare readonly [FORMAT_PARTS]: ReadonlySet<ErrorResponsePart>;

  constructor(parts: Iterable<ErrorResponsePart>) {
    const set = new Set<ErrorResponsePart>();
    for (const p of parts) {
      if (!ALL_PARTS.includes(p)) throw new TypeError(`unknown error response part '${String(p)}'`);
      set.add(p);
    }
    this[FORMAT_PARTS] = set;
  }

  has(part: ErrorResponsePart): boolean {
    return this[FORMAT_PARTS].has(part);
  }

  get parts(): readonly ErrorResponsePart[] {
    return ALL_PARTS.filter((p) => this[FORMAT_PARTS].has(p));
  }
}

/** The fields of an ErrorResponse record; all optional. */
export interface ErrorResponse {
  readonly status?: number;
  /** Deprecated; use `code`. */
  readonly serviceErrorCode?: number;
  readonly code?: string;
  readonly message?: string;
  readonly docUrl?: string;
  readonly requestId?: string;
  readonly exceptionClass?: string;
  readonly stackTrace?: string;
  readonly errorDetailType?: string;
  readonly errorDetails?: DataMap;
}

/** `production` (default) hides stack traces and exception classes; `development` shows them. */
export type ErrorMode = 'production' | 'development';

/** Options of {@link buildErrorResponse}. */
export interface ErrorResponseOptions {
  /** Default {@link ErrorResponseFormat.FULL}; a ServiceError's own `format` wins. */
  readonly format?: ErrorResponseFormat;
  /** Default `production`. */
  readonly mode?: ErrorMode;
  /** Message of a 500 made from an unexpected error; default `INTERNAL SERVER ERROR` (the reference's). */
  readonly internalErrorMessage?: string;
}

/** The reference's default message for unexpected errors. */
export const DEFAULT_INTERNAL_ERROR_MESSAGE = 'INTERNAL SERVER ERROR';

/** An error response ready to send. */
export interface BuiltErrorResponse {
  readonly status: number;
  /** The ErrorResponse body; undefined for status 204, whose body must be empty. */
  readonly body: DataMap | undefined;
  /** Whether to send the error-response header (the format shows HEADERS). */
  readonly errorHeader: boolean;
}

/**
 * The {@link ServiceError} an error stands for at the edge:
 * - a ServiceError as it is;
 * - an `SvcError` (a framework error such as a URI syntax error) with its registry status and message; in
 *   production a 5xx one gets the internal message instead, since it may describe internals (unless the
 *   error says its message is written for clients: `publicMessage`);
 * - anything else is a 500 with `internalErrorMessage` (production) or `Name: message` (development).
 * The original error is the `cause` of a made-up ServiceError.
 */
export function toServiceError(error: unknown, options: ErrorResponseOptions = {}): ServiceError {
  if (isServiceError(error)) return error;
  const development = options.mode === 'development';
  const internal = options.internalErrorMessage ?? DEFAULT_INTERNAL_ERROR_MESSAGE;
  if (isSvcError(error)) {
    const status = error.statusCode;
    const message = status >= 500 && !development && error.publicMessage !== true ? internal : error.message;
    return new ServiceError(status, message, { code: error.code, cause: error });
  }
  const message = development && error instanceof Error ? `${error.name}: ${error.message}` : internal;
  return new ServiceError(500, message, { cause: error });
}

function describeThrown(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      try {
        return JSON.stringify(v) ?? typeof v;
      } catch {
        return typeof v;
      }
  }
}

/** `stack` of an error and its causes, Java style (`Caused by: ...`). */
export function stackTraceText(error: unknown): string {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  let e: unknown = error;
  let first = true;
  while (e !== undefined && e !== null && !seen.has(e)) {
    seen.add(e);
    const text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : describeThrown(e);
    lines.push(first ? text : `Caused by: ${text}`);
    first = false;
    e = e instanceof Error ? e.cause : undefined;
  }
  return lines.join('\n');
}

/** The class name shown in `exceptionClass`: the name of the error that reached the edge (its cause's for a made-up ServiceError). */
function exceptionClassOf(original: unknown, service: ServiceError): string {
  if (original === service) return service.name;
  return original instanceof Error ? original.name : typeof original;
}

/**
 * Builds the ErrorResponse for an error thrown while serving a request (wire facts §4.1, §4.2): the status
 * from the error (see {@link toServiceError}), the fields the format shows. Unlike the reference, whose
 * FULL default puts a stack trace and exception class in every error body, production mode never shows
 * them; development mode shows them when the format does. A status of 204 gets no body.
 *
 * @example
 * ```ts
 * const r = buildErrorResponse(new ServiceError(404, 'no such greeting'));
 * r.status; // 404
 * Data.toJS(r.body!); // { status: 404, message: 'no such greeting' }
 * ```
 */
export function buildErrorResponse(error: unknown, options: ErrorResponseOptions = {}): BuiltErrorResponse {
  const service = toServiceError(error, options);
  const format = service.format ?? options.format ?? ErrorResponseFormat.FULL;
  const status = service.status;
  const errorHeader = format.has('HEADERS');
  if (status === 204) return { status, body: undefined, errorHeader };
  const development = options.mode === 'development';
  const body = new DataMap();
  if (format.has('STATUS_CODE_IN_BODY')) body.put('status', status);
  if (format.has('SERVICE_ERROR_CODE')) {
    if (service.code !== undefined) body.put('code', service.code);
    if (service.serviceErrorCode !== undefined) body.put('serviceErrorCode', service.serviceErrorCode);
  }
  if (format.has('MESSAGE') && service.message !== '') body.put('message', service.message);
  if (format.has('DOC_URL') && service.docUrl !== undefined) body.put('docUrl', service.docUrl);
  if (format.has('REQUEST_ID') && service.requestId !== undefined) body.put('requestId', service.requestId);
  if (format.has('DETAILS') && service.details !== undefined) {
    body.put('errorDetails', service.details);
    if (service.errorDetailType !== undefined) body.put('errorDetailType', service.errorDetailType);
  }
  if (development) {
    const original = service === error ? service : error;
    if (format.has('STACKTRACE') || format.has('EXCEPTION_CLASS'))
      body.put('exceptionClass', exceptionClassOf(original, service));
    if (format.has('STACKTRACE')) body.put('stackTrace', stackTraceText(original));
  }
  return { status, body, errorHeader };
}

/** An ErrorResponse as a DataMap (fields that are undefined are left out). */
export function errorResponseToDataMap(response: ErrorResponse): DataMap {
  const map = new DataMap();
  for (const [k, v] of Object.entries(response) as Array<[string, DataValue | undefined]>) {
    if (v !== undefined) map.put(k, v);
  }
  return map;
}

const INT_FIELDS = ['status', 'serviceErrorCode'] as const;
const STRING_FIELDS = [
  'code',
  'message',
  'docUrl',
  'requestId',
  'exceptionClass',
  'stackTrace',
  'errorDetailType',
] as const;

/**
 * Reads an ErrorResponse body (a client). Unknown fields are ignored; a known field of the wrong type is a
 * {@link ResponseFormatError}.
 */
export function readErrorResponse(data: DataValue, path = ''): ErrorResponse {
  if (!(data instanceof DataMap)) throw new ResponseFormatError(path, 'an ErrorResponse must be a map');
  const out: { -readonly [K in keyof ErrorResponse]: ErrorResponse[K] } = {};
  for (const f of INT_FIELDS) {
    const v = data.get(f);
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new ResponseFormatError(`${path}/${f}`, `'${f}' must be an int`);
    out[f] = v;
  }
  for (const f of STRING_FIELDS) {
    const v = data.get(f);
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new ResponseFormatError(`${path}/${f}`, `'${f}' must be a string`);
    out[f] = v;
  }
  const details = data.get('errorDetails');
  if (details !== undefined) {
    if (!(details instanceof DataMap))
      throw new ResponseFormatError(`${path}/errorDetails`, "'errorDetails' must be a map");
    out.errorDetails = details;
  }
  return out;
}

/**
 * The {@link ServiceError} a client raises for an error response: the HTTP status (the body's `status` when
 * the HTTP one is missing), message, codes and details from the body (which may be absent or `{}`).
 */
export function serviceErrorFromResponse(httpStatus: number, body: DataMap | undefined): ServiceError {
  const er = body === undefined ? {} : readErrorResponse(body);
  return new ServiceError(httpStatus > 0 ? httpStatus : (er.status ?? 500), er.message ?? '', {
    ...(er.code === undefined ? {} : { code: er.code }),
    ...(er.serviceErrorCode === undefined ? {} : { serviceErrorCode: er.serviceErrorCode }),
    ...(er.errorDetails === undefined ? {} : { details: er.errorDetails }),
    ...(er.errorDetailType === undefined ? {} : { errorDetailType: er.errorDetailType }),
    ...(er.docUrl === undefined ? {} : { docUrl: er.docUrl }),
    ...(er.requestId === undefined ? {} : { requestId: er.requestId }),
  });
}
