import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { RESOURCES_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(RESOURCES_ERRORS_CODES);

/**
 * Errors of the resource server (`SVC_ERR_ROUTE_*`, `SVC_ERR_BIND_*`, `SVC_ERR_INVOKE_*`; see
 * `docs/errors.md`). Messages follow the reference's wording where it has one, so a peer reading an
 * ErrorResponse sees what a Rest.li server would say.
 */

/** Where in a resource definition a problem was found: resource, method, parameter. */
export interface DefinitionLocation {
  readonly resource: string;
  /** e.g. `get`, `finder 'byTitle'`, `action 'purge'`. */
  readonly method?: string;
  readonly parameter?: string;
}

function where(at: DefinitionLocation): string {
  let s = `resource '${at.resource}'`;
  if (at.method !== undefined) s += `, ${at.method}`;
  if (at.parameter !== undefined) s += `, parameter '${at.parameter}'`;
  return s;
}

/**
 * A resource definition is invalid; thrown when the resource is registered (never while serving). The
 * message starts with where: `resource 'photos', finder 'byTitle', parameter 'q': the name q is reserved...`.
 */
export class ResourceDefinitionError extends SvcError {
  readonly location: DefinitionLocation;
  constructor(at: DefinitionLocation, problem: string) {
    super('SVC_ERR_ROUTE_BAD_DEFINITION', `${where(at)}: ${problem}`);
    this.location = at;
  }
}

/** An option of `svcPlugin` is invalid (`option`: its name). */
export class SvcPluginOptionsError extends SvcError {
  readonly option: string;
  constructor(option: string, problem: string) {
    super('SVC_ERR_ROUTE_BAD_OPTIONS', `svcPlugin option '${option}': ${problem}`);
    this.option = option;
  }
}

/** No resource answers the path (404). */
export class ResourceNotFoundError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_ROUTE_NOT_FOUND', message);
  }
}

/** A parameter is missing or cannot be coerced to its type (400); `parameter` names it. */
export class ParameterBindingError extends SvcError {
  readonly parameter: string;
  constructor(
    code: 'SVC_ERR_BIND_MISSING_PARAMETER' | 'SVC_ERR_BIND_BAD_PARAMETER' | 'SVC_ERR_BIND_BATCH_TOO_LARGE',
    parameter: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.parameter = parameter;
  }
}

/** The request body is missing, malformed, of the wrong shape (400) or too large (413). */
export class RequestBodyError extends SvcError {
  constructor(
    message: string,
    code:
      | 'SVC_ERR_BIND_BAD_BODY'
      | 'SVC_ERR_BIND_BODY_TOO_LARGE'
      | 'SVC_ERR_ATTACH_NOT_ACCEPTED'
      | 'SVC_ERR_ATTACH_BAD_PAYLOAD'
      | 'SVC_ERR_ATTACH_UNKNOWN_PAYLOAD_TYPE' = 'SVC_ERR_BIND_BAD_BODY',
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** A patch is malformed or does not fit its target (400). `path` is where, e.g. `/exif/$set`. */
export class PatchError extends SvcError {
  readonly path: string;
  constructor(path: string, message: string) {
    super('SVC_ERR_BIND_BAD_PATCH', path === '' ? message : `${message} (at ${path})`);
    this.path = path;
  }
}

/** The validation filter rejected the request: a body or patched result (422), or a parameter or key (400). */
export class RequestValidationError extends SvcError {
  constructor(code: 'SVC_ERR_BIND_INPUT_VALIDATION' | 'SVC_ERR_BIND_PARAMETER_VALIDATION', message: string) {
    super(code, message);
  }
}

/**
 * A tunneled request (`X-HTTP-Method-Override`) cannot be restored to the request it stands for: a bad
 * override (400), a malformed envelope (400), a body of another type (415), a part over the limit (413).
 */
export class TunnelingError extends SvcError {
  constructor(
    code:
      | 'SVC_ERR_TUNNEL_BAD_OVERRIDE'
      | 'SVC_ERR_TUNNEL_MALFORMED'
      | 'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE'
      | 'SVC_ERR_TUNNEL_TOO_LARGE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** What Node's HTTP layer refused before any route ran: malformed framing, huge headers, a stalled request. */
export class HttpClientError extends SvcError {
  constructor(
    code:
      | 'SVC_ERR_PROTOCOL_MALFORMED_HTTP'
      | 'SVC_ERR_PROTOCOL_HEADERS_TOO_LARGE'
      | 'SVC_ERR_PROTOCOL_REQUEST_TIMEOUT',
    message: string,
    cause: unknown,
  ) {
    super(code, message, { cause });
  }
}

/** What a handler returned does not fit its schema (500; the validation filter's `outputs` option). */
export class OutputValidationError extends SvcError {
  constructor(resource: string, method: string, messages: string) {
    super('SVC_ERR_INVOKE_OUTPUT_VALIDATION', `Invalid output of ${resource} ${method}: ${messages}`);
  }
}

/**
 * A handler returned null or undefined (or an empty Observable) where a result is required (500). Its
 * message is the framework's own text, never the handler's, so it is shown in production mode too.
 */
export class NullResultError extends SvcError {
  constructor(method: string) {
    super(
      'SVC_ERR_INVOKE_NULL_RESULT',
      `Unexpected null encountered. Null returned by the resource method: ${method}`,
    );
  }
}

/**
 * A request took longer than its `timeout` (504): `ctx.signal` aborted with this error as its reason, and
 * every subscription the framework made to handler Observables was unsubscribed.
 */
export class HandlerTimeoutError extends SvcError {
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super('SVC_ERR_INVOKE_TIMEOUT', `The resource method ${method} did not complete within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The client closed the connection before its response was ready: `ctx.signal`'s reason (nothing is sent). */
export class ClientClosedError extends SvcError {
  constructor(method: string) {
    super('SVC_ERR_INVOKE_CLIENT_CLOSED', `The client closed the connection during ${method}`);
  }
}

/** A handler returned a value of the wrong shape (500). */
export class InvalidResultError extends SvcError {
  constructor(method: string, problem: string) {
    super(
      'SVC_ERR_INVOKE_BAD_RESULT',
      `Invalid result returned by the resource method ${method}: ${problem}`,
    );
  }
}
