import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { PROTOCOL_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(PROTOCOL_ERRORS_CODES);

/**
 * Errors of the protocol layer. Each carries a stable `SVC_ERR_PROTOCOL_*` code (see `docs/errors.md`) whose
 * registry entry gives the HTTP status the server answers with. Messages follow the reference's wording
 * where it has one, so that a peer reading an ErrorResponse sees what a Rest.li server would say.
 */

/**
 * The Rest.li 2.0 URI grammar was violated (thrown by {@link parseElement}). `column` is the 0-based
 * offset in the raw (still percent-encoded) text: of the offending token, of the bad percent-escape, or
 * the text's length for `unexpected end of input`.
 */
export class UriElementParseError extends SvcError {
  readonly column: number;
  /** The text nests deeper than the parser's `maxDepth` (messages built on it then name the limit). */
  readonly tooDeep: boolean;
  constructor(message: string, column: number, tooDeep = false) {
    super('SVC_ERR_PROTOCOL_URI_SYNTAX', message);
    this.column = column;
    this.tooDeep = tooDeep;
  }
}

/**
 * A query string cannot be read. `reason` is the reference's inner message (`unexpected repeated query param
 * in URI: ids`, `error while parsing query param 'q'\n...`); `message` is `Invalid query parameters syntax:
 * <uri>` when the request URI was given, else the reason. `param` names the parameter when one is at fault.
 */
export class QuerySyntaxError extends SvcError {
  readonly reason: string;
  readonly param: string | undefined;
  constructor(message: string, reason: string, param?: string, options?: { cause?: unknown }) {
    super('SVC_ERR_PROTOCOL_QUERY_SYNTAX', message, options);
    this.reason = reason;
    this.param = param;
  }
}

/** A resource key is malformed or does not fit its key type. `reason` holds the underlying problem. */
export class InvalidKeyError extends SvcError {
  readonly reason: string;
  constructor(message: string, reason: string = message, options?: { cause?: unknown }) {
    super('SVC_ERR_PROTOCOL_INVALID_KEY', message, options);
    this.reason = reason;
  }
}

/** A projection mask is malformed (`Malformed mask syntax: ...`); `column` is where the problem was found. */
export class MaskSyntaxError extends SvcError {
  readonly column: number;
  constructor(message: string, column: number) {
    super('SVC_ERR_PROTOCOL_MASK_SYNTAX', message);
    this.column = column;
  }
}

/**
 * The protocol version header is malformed or out of range. `responseVersion` is the value the server
 * echoes in its version header on the 400 response.
 */
export class ProtocolVersionError extends SvcError {
  readonly responseVersion: string;
  constructor(
    code: 'SVC_ERR_PROTOCOL_VERSION_MALFORMED' | 'SVC_ERR_PROTOCOL_VERSION_UNSUPPORTED',
    message: string,
    responseVersion: string,
  ) {
    super(code, message);
    this.responseVersion = responseVersion;
  }
}

/** The request names no resource method (method routing table, §3.3). */
export class MethodRoutingError extends SvcError {
  constructor(
    code:
      | 'SVC_ERR_PROTOCOL_METHOD_NOT_SUPPORTED'
      | 'SVC_ERR_PROTOCOL_ACTION_NOT_POST'
      | 'SVC_ERR_PROTOCOL_AMBIGUOUS_METHOD',
    message: string,
  ) {
    super(code, message);
  }
}

/** Content negotiation failed: a malformed Accept (400), nothing acceptable (406), unreadable Content-Type (415). */
export class ContentNegotiationError extends SvcError {
  constructor(
    code:
      | 'SVC_ERR_PROTOCOL_BAD_ACCEPT'
      | 'SVC_ERR_PROTOCOL_NOT_ACCEPTABLE'
      | 'SVC_ERR_PROTOCOL_UNSUPPORTED_MEDIA_TYPE',
    message: string,
  ) {
    super(code, message);
  }
}

/** A framework query parameter (`start`, `count`, `$returnEntity`) has a bad value. */
export class InvalidParameterError extends SvcError {
  readonly param: string;
  constructor(param: string, message: string) {
    super('SVC_ERR_PROTOCOL_BAD_PARAMETER', message);
    this.param = param;
  }
}

/** A response body does not have its envelope's shape (client side); `path` says where, e.g. `/paging/start`. */
export class ResponseFormatError extends SvcError {
  readonly path: string;
  constructor(path: string, message: string) {
    super('SVC_ERR_PROTOCOL_BAD_RESPONSE', `${message} (at ${path === '' ? '/' : path})`);
    this.path = path;
  }
}
