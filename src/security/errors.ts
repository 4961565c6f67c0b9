import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { ErrorResponseFormat, ServiceError } from '../protocol';
import { SECURITY_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SECURITY_ERRORS_CODES);

/**
 * The errors of authentication, authorization and rate limits. Each is a registry `SvcError`; at the HTTP
 * edge {@link toWireError} turns it into a `ServiceError` whose ErrorResponse shows status, code and the
 * (fixed, public) message and never a stack or exception class, not even in development mode: a refusal
 * must not tell a caller more than RFC 6750 allows about why its credential failed.
 */

/** What the `WWW-Authenticate` challenge of a refusal says (RFC 6750 §3). */
export interface Challenge {
  /** `invalid_request` (400), `invalid_token` (401), `insufficient_scope` (403); none when no credential was sent. */
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** Scopes the method needs (`insufficient_scope` only). */
  readonly scope?: readonly string[];
}

/** No credential, or one that does not verify (401), or a malformed Authorization header (400). */
export class AuthenticationError extends SvcError {
  override readonly publicMessage = true;
  readonly challenge: Challenge;
  constructor(challenge: Challenge, options?: { cause?: unknown }) {
    const malformed = challenge.error === 'invalid_request';
    super(
      malformed ? 'SVC_ERR_AUTH_MALFORMED' : 'SVC_ERR_AUTH_UNAUTHENTICATED',
      malformed
        ? 'The Authorization header is malformed'
        : challenge.error === undefined
          ? 'Authentication is required'
          : 'The credential is not valid',
      options,
    );
    this.challenge = challenge;
  }
}

/** The caller is known but may not call this method (403). */
export class AccessDeniedError extends SvcError {
  override readonly publicMessage = true;
  readonly challenge: Challenge;
  constructor(scope?: readonly string[]) {
    super('SVC_ERR_AUTH_FORBIDDEN', 'The caller may not call this method');
    this.challenge = { error: 'insufficient_scope', ...(scope === undefined ? {} : { scope }) };
  }
}

/** Too many requests from one caller (429, `Retry-After`). */
export class RateLimitedError extends SvcError {
  override readonly publicMessage = true;
  /** Seconds until the caller may try again (`Retry-After`), at least 1. */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('SVC_ERR_AUTH_RATE_LIMITED', 'Too many requests; retry later');
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** Bad options of a security setting; names the option. */
export class SecurityOptionsError extends SvcError {
  readonly option: string;
  constructor(option: string, problem: string) {
    super('SVC_ERR_AUTH_OPTIONS', `security option '${option}': ${problem}`);
    this.option = option;
  }
}

/** The response headers a refusal adds: the challenge, or `Retry-After`. */
const REFUSAL_HEADERS = new WeakMap<object, Readonly<Record<string, string>>>();

/** Status, code and message only: never a stack or exception class, whatever the server's mode. */
const REFUSAL_FORMAT = ErrorResponseFormat.MESSAGE_AND_SERVICECODE;

/**
 * The error a filter throws for a security refusal: a `ServiceError` (so the pipeline shows only its
 * status, code and message) remembered with the headers {@link refusalHeadersOf} gives back.
 */
export function toWireError(
  err: AuthenticationError | AccessDeniedError | RateLimitedError,
  realm: string,
): ServiceError {
  const wire = new ServiceError(err.statusCode, err.message, { code: err.code, format: REFUSAL_FORMAT });
  REFUSAL_HEADERS.set(
    wire,
    err instanceof RateLimitedError
      ? { 'retry-after': String(err.retryAfterSeconds) }
      : { 'www-authenticate': challengeHeader(realm, err.challenge) },
  );
  return wire;
}

/** The headers to add to the response for `error`, when it is a security refusal. */
export function refusalHeadersOf(error: unknown): Readonly<Record<string, string>> | undefined {
  return typeof error === 'object' && error !== null ? REFUSAL_HEADERS.get(error) : undefined;
}

/**
 * `Bearer realm="...", error="..."` (RFC 6750 §3): no `error` when the request had no credential (§3.1),
 * and no `error_description`, which would tell which check failed.
 */
export function challengeHeader(realm: string, challenge: Challenge): string {
  const parts = [`Bearer realm="${quoted(realm)}"`];
  if (challenge.error !== undefined) parts.push(`error="${challenge.error}"`);
  if (challenge.scope !== undefined && challenge.scope.length > 0)
    parts.push(`scope="${quoted(challenge.scope.join(' '))}"`);
  return parts.join(', ');
}

function quoted(s: string): string {
  return s.replace(/[\\"]/g, (c) => `\\${c}`);
}
