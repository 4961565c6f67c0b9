import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonCodec } from '../data';
import { BASELINE_PROTOCOL_VERSION, buildErrorResponse, protocolHeaderNames } from '../protocol';
import type { RequestHeaders, RequestSocket } from '../resources/request';
import type { Authenticator } from './authenticate';
import { AccessDeniedError, AuthenticationError, refusalHeadersOf, toWireError } from './errors';
import type { Identity } from './identity';
import type { ScopeRule } from './authorize';

/**
 * The guard of routes that are not resources (`/metrics`, `/docs`, `/openapi.json`): the same
 * authentication as the resources, and optionally scopes or roles, answered in the same form (a 401 or 403
 * ErrorResponse with the challenge). Health probes are answered before any route (src/runtime/front-door.ts)
 * and stay open.
 *
 * ```ts
 * app.get('/metrics', { onRequest: guardRoute(auth, { roles: ['metrics'] }) }, metrics.route);
 * ```
 */

/** What a guarded route needs besides a verified caller. Default: any caller. */
export type RouteRule = 'authenticated' | ScopeRule;

/** Options of {@link guardRoute}. */
export interface RouteGuardOptions {
  /** Prefix of the protocol headers on refusals (as svcPlugin's `headerPrefix`). Default `X-Svc`. */
  readonly headerPrefix?: string;
}

/** The check alone: the caller, or a rejection with the wire error of the refusal. */
export async function checkRoute(
  auth: Authenticator,
  rule: RouteRule,
  headers: RequestHeaders,
  socket: RequestSocket | undefined,
): Promise<Identity> {
  const identity = await auth.authenticate(headers, socket);
  // a guarded route needs a caller even when the resources admit anonymous ones
  if (identity === undefined) throw toWireError(new AuthenticationError({}), auth.realm);
  if (rule === 'authenticated') return identity;
  const hasScopes = (rule.scopes ?? []).every((s) => identity.scopes.includes(s));
  const hasRole = rule.roles === undefined || rule.roles.some((r) => identity.roles.includes(r));
  if (!hasScopes || !hasRole) throw toWireError(new AccessDeniedError(rule.scopes), auth.realm);
  return identity;
}

/** The refusal of `err` as status, headers and body (an ErrorResponse, JSON). */
function refusal(
  err: unknown,
  headerPrefix: string | undefined,
): { status: number; headers: Record<string, string>; body: string } {
  const built = buildErrorResponse(err, { mode: 'production' });
  const names = protocolHeaderNames(headerPrefix);
  const body = built.body === undefined ? '' : new JsonCodec().mapToString(built.body);
  return {
    status: built.status,
    headers: {
      [names.protocolVersion.toLowerCase()]: BASELINE_PROTOCOL_VERSION.toString(),
      ...(built.errorHeader ? { [names.errorResponse.toLowerCase()]: 'true' } : {}),
      'content-type': 'application/json',
      ...refusalHeadersOf(err),
    },
    body,
  };
}

/** The fastify reply as the guard uses it. */
interface ReplyLike {
  code(status: number): ReplyLike;
  header(name: string, value: string): ReplyLike;
  send(body: string): unknown;
}

/**
 * A fastify `onRequest` (or `preHandler`) hook that lets only callers `auth` verifies (and `rule` admits)
 * reach the route.
 */
export function guardRoute(
  auth: Authenticator,
  rule: RouteRule = 'authenticated',
  options: RouteGuardOptions = {},
): (
  request: { headers: RequestHeaders; raw: { socket: RequestSocket } },
  reply: ReplyLike,
) => Promise<unknown> {
  return async (request, reply) => {
    try {
      await checkRoute(auth, rule, request.headers, request.raw.socket);
      return undefined;
    } catch (err) {
      const r = refusal(err, options.headerPrefix);
      reply.code(r.status);
      for (const [name, value] of Object.entries(r.headers)) reply.header(name, value);
      reply.send(r.body);
      return reply;
    }
  };
}

/**
 * The same guard for a `node:http` request listener: resolves true once it has answered a refusal (the
 * listener then does nothing more), false when the caller may go on.
 */
export function guardNodeRequest(
  auth: Authenticator,
  rule: RouteRule = 'authenticated',
  options: RouteGuardOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    try {
      await checkRoute(auth, rule, req.headers, req.socket);
      return false;
    } catch (err) {
      const r = refusal(err, options.headerPrefix);
      res.writeHead(r.status, { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) });
      res.end(r.body);
      req.resume();
      return true;
    }
  };
}
