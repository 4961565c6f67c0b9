import type { HttpRequest } from './build-request';
import type { RawResponse } from './transport';

/**
 * The client's credential (issue 25): a bearer token sent as `Authorization: Bearer <token>` on every
 * exchange. A fixed token, or a function asked before each exchange, which may return a cached token and
 * get a fresh one when asked to (`refresh`): when a call is answered 401 with `error="invalid_token"` the
 * function is asked again with `refresh: true` and the call repeated once (a call whose attachments were
 * already streamed is not repeated). A relay forwards its caller's credential or exchanges it here.
 *
 * ```ts
 * createResourceClient({ baseUrl, auth: ({ refresh }) => tokens.get({ refresh }) }, { photos });
 * ```
 *
 * Applied next to the transport, after the client's filters: a logging filter never sees the token.
 * No Node built-ins: it works in browsers as the rest of the client.
 */
export type ClientAuth = string | ClientTokenSource;

/** Called before each exchange: the token, or undefined to send the request without one. */
export type ClientTokenSource = (request: {
  readonly url: string;
  readonly method: string;
  /** True when the last token was refused (401 `invalid_token`): get a new one. */
  readonly refresh: boolean;
}) => string | undefined | PromiseLike<string | undefined>;

/** True for a value the `auth` option takes. */
export function isClientAuth(v: unknown): v is ClientAuth {
  return (typeof v === 'string' && v !== '' && !/[\r\n\0\s]/.test(v)) || typeof v === 'function';
}

function withToken(request: HttpRequest, token: string | undefined): HttpRequest {
  if (token === undefined) return request;
  if (/[\r\n\0\s]/.test(token) || token === '')
    throw new TypeError('the auth token is not a header-safe string');
  const headers: Record<string, string> = {};
  // one Authorization header: the token replaces one set by a header option
  for (const [name, value] of Object.entries(request.headers))
    if (name.toLowerCase() !== 'authorization') headers[name] = value;
  headers['Authorization'] = `Bearer ${token}`;
  return { ...request, headers };
}

/** `send` with the credential of `auth` added (and one retry with a refreshed token, for a function). */
export function withAuth(
  auth: ClientAuth,
  send: (request: HttpRequest) => Promise<RawResponse>,
): (request: HttpRequest) => Promise<RawResponse> {
  if (typeof auth === 'string') return (request) => send(withToken(request, auth));
  return async (request) => {
    const ask = { url: request.url, method: request.method };
    const first = await send(withToken(request, await auth({ ...ask, refresh: false })));
    const challenge = first.headers['www-authenticate'];
    if (
      first.status !== 401 ||
      challenge === undefined ||
      !/error="invalid_token"/.test(challenge) ||
      (request.attachments !== undefined && request.attachments.length > 0)
    )
      return first;
    // the refused response is read whole already; its attachments (none for a 401) need no draining
    return send(withToken(request, await auth({ ...ask, refresh: true })));
  };
}
