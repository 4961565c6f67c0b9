/**
 * Who may call what (issue 25): authentication (bearer JWTs through `jose`, client certificates),
 * authorization declared next to each resource, rate limits, the guard of non-resource routes, TLS and
 * HTTP/2 for both adapters and the client. Built on the request path's filter points; see README.md.
 */
export {
  AccessDeniedError,
  AuthenticationError,
  type Challenge,
  RateLimitedError,
  SecurityOptionsError,
  challengeHeader,
} from './errors';
export { IDENTITY, type Identity, identityOf } from './identity';
export { DEFAULT_JWT_ALGORITHMS, type JwtOptions, type TokenVerifier, jwtVerifier } from './jwt';
export { type CertificateOutcome, type MtlsOptions, certificateIdentity } from './mtls';
export { type AuthenticationOptions, type Authenticator, authentication } from './authenticate';
export {
  type AccessFunction,
  type AccessRule,
  type AccessRules,
  type ScopeRule,
  authorizationFilter,
  describeRule,
  secured,
} from './authorize';
export { type RateLimitOptions, type RateLimiter, rateLimit } from './rate-limit';
export { type RouteGuardOptions, type RouteRule, checkRoute, guardNodeRequest, guardRoute } from './guard';
export {
  type SvcTlsOptions,
  createSvcSecureServer,
  httpVersionOf,
  svcHttpsServerOptions,
  svcSecureServerOptions,
} from './tls';
export { type SecureFetch, type SecureFetchOptions, secureFetch } from './secure-fetch';
export {
  type IssueOptions,
  type PemPair,
  createCertificateAuthority,
  issueCertificate,
  localhostCertificates,
} from './certificates';
