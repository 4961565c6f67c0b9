import { getHeader } from '../protocol';
import type {
  RequestFilter,
  RequestHeaders,
  RequestSocket,
  ResourceRequest,
  ResourceResponse,
} from '../resources/request';
import { AuthenticationError, SecurityOptionsError, refusalHeadersOf, toWireError } from './errors';
import { type Identity, IDENTITY, withIdentity } from './identity';
import { type JwtOptions, type TokenVerifier, jwtVerifier } from './jwt';
import { type MtlsOptions, certificateIdentity } from './mtls';

/**
 * Authentication as a server request filter: the caller's credential (a bearer JWT, or a client
 * certificate) is verified before decoding and routing, and the identity put on the request
 * (`identityOf(ctx)` in handlers). A missing or bad credential is a 401 ErrorResponse with an RFC 6750
 * `WWW-Authenticate` challenge.
 *
 * ```ts
 * const auth = authentication({ jwt: { jwksUrl, issuer, audience } });
 * await app.register(svcPlugin, { resources, filters: [auth.filter] });
 * ```
 *
 * Per resource: `required: false` lets anonymous requests through, and each resource's access rules
 * (`secured(def, rules)`, authorize.ts) say which methods need a caller.
 */

/** Options of {@link authentication}. */
export interface AuthenticationOptions {
  /** Bearer JWTs: jose verification options, or a verifier of one's own. */
  readonly jwt?: JwtOptions | TokenVerifier;
  /** Client certificates (mTLS): `true` for the default identity (CN, OU as roles), or options. */
  readonly mtls?: boolean | MtlsOptions;
  /**
   * `true` (default): every request needs a valid credential (401 without one). `false`: a request without
   * one goes on anonymous, and access rules decide; a credential that is sent must still verify.
   */
  readonly required?: boolean;
  /** The `realm` of the challenge. Default `svc`. */
  readonly realm?: string;
}

/** Authentication, configured: the filter, and the same check for routes outside the resources. */
export interface Authenticator {
  /** The server filter (put it first among `filters`, before rate limits). */
  readonly filter: RequestFilter;
  readonly realm: string;
  readonly required: boolean;
  /**
   * The caller of a request with these headers on this socket: its identity, undefined when it sent no
   * credential (and none is required), or a rejection with an {@link AuthenticationError}. Synchronous
   * when the answer is known at once (no credential, a token verified recently).
   */
  authenticate(
    headers: RequestHeaders,
    socket: RequestSocket | undefined,
  ): Identity | undefined | Promise<Identity | undefined>;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The response with the headers of a security refusal added (the challenge, `Retry-After`). */
export function addRefusalHeaders(response: ResourceResponse): ResourceResponse {
  const extra = refusalHeadersOf(response.error);
  return extra === undefined ? response : { ...response, headers: { ...response.headers, ...extra } };
}

/** Authentication with these options. @throws SecurityOptionsError */
export function authentication(options: AuthenticationOptions): Authenticator {
  if (typeof options !== 'object' || options === null)
    throw new SecurityOptionsError('authentication', 'must be an object');
  const verify: TokenVerifier | undefined =
    options.jwt === undefined
      ? undefined
      : typeof options.jwt === 'function'
        ? options.jwt
        : jwtVerifier(options.jwt);
  const cached = verify?.cached;
  const mtls: MtlsOptions | undefined =
    options.mtls === undefined || options.mtls === false
      ? undefined
      : options.mtls === true
        ? {}
        : options.mtls;
  if (verify === undefined && mtls === undefined)
    throw new SecurityOptionsError('authentication', "give 'jwt', 'mtls' or both");
  const required = options.required ?? true;
  const realm = options.realm ?? 'svc';
  if (typeof realm !== 'string' || /[\r\n]/.test(realm))
    throw new SecurityOptionsError('realm', 'a one-line string');

  const refuse = (err: AuthenticationError): never => {
    throw toWireError(err, realm);
  };

  const authenticate = (
    headers: RequestHeaders,
    socket: RequestSocket | undefined,
  ): Identity | undefined | Promise<Identity | undefined> => {
    const raw = headers.authorization ?? getHeader(headers, 'authorization');
    // the usual header, `Bearer <a token remembered>`: the token passed the parsing below when it was
    // verified, so the lookup alone decides (no regular expression over ~300 characters per request)
    if (typeof raw === 'string' && cached !== undefined && raw.startsWith('Bearer ')) {
      const hit = cached(raw.slice(7));
      if (hit !== undefined) return hit;
    }
    if (raw !== undefined && verify !== undefined) {
      // two Authorization headers: which one counts would be a guess
      if (typeof raw !== 'string') return refuse(new AuthenticationError({ error: 'invalid_request' }));
      const m = BEARER.exec(raw);
      if (m !== null) {
        const fail = (cause: unknown): never =>
          refuse(new AuthenticationError({ error: 'invalid_token' }, { cause }));
        try {
          const out = verify(m[1]!);
          return out instanceof Promise ? out.catch(fail) : out;
        } catch (err) {
          return fail(err);
        }
      }
      // a Bearer scheme without a token is malformed; another scheme (Basic...) is no bearer credential
      if (/^Bearer(\s|$)/i.test(raw)) return refuse(new AuthenticationError({ error: 'invalid_request' }));
    }
    if (mtls !== undefined) {
      const cert = certificateIdentity(socket, mtls);
      if (cert.kind === 'trusted') return cert.identity;
      if (cert.kind === 'untrusted') return refuse(new AuthenticationError({ error: 'invalid_token' }));
    }
    return required ? refuse(new AuthenticationError({})) : undefined;
  };

  const attach = (request: ResourceRequest, identity: Identity | undefined): ResourceRequest =>
    identity === undefined ? request : { ...request, attributes: withIdentity(request.attributes, identity) };

  const filter: RequestFilter = Object.freeze({
    name: 'authentication',
    // a description (OPTIONS) needs a caller even when the resources admit anonymous ones
    guard: (request: ResourceRequest) => {
      const out = authenticate(request.headers, request.socket);
      const need = (id: Identity | undefined): Identity => id ?? refuse(new AuthenticationError({}));
      return out instanceof Promise ? out.then(need) : need(out);
    },
    request: (request: ResourceRequest) => {
      // a filter ahead of this one may have authenticated already
      if (request.attributes.has(IDENTITY)) return request;
      const out = authenticate(request.headers, request.socket);
      return out instanceof Promise ? out.then((id) => attach(request, id)) : attach(request, out);
    },
    response: addRefusalHeaders,
  });
  return Object.freeze({ filter, realm, required, authenticate });
}
