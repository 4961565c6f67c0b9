import type { Agent } from 'node:https';
import {
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type KeyLike,
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
} from 'jose';
import { SecurityOptionsError } from './errors';
import { type Identity, stringList } from './identity';

/**
 * Bearer tokens verified as JWTs with `jose`: the signature against a key set (a JWKS URL fetched, cached
 * and refreshed by jose's `createRemoteJWKSet`, a static JWKS, or one key), then issuer, audience, expiry
 * and not-before with a clock skew. Only the listed asymmetric algorithms are accepted, so `alg: none` and
 * an HMAC token made with a public key (algorithm confusion) never verify.
 */

/** Options of {@link jwtVerifier}. */
export interface JwtOptions {
  /** The issuer's key set URL (`https://issuer/.well-known/jwks.json`); fetched on first use, then cached. */
  readonly jwksUrl?: string | URL;
  /** Or a static key set. */
  readonly jwks?: JSONWebKeySet;
  /** Or one key (a `KeyObject`/`CryptoKey`, or the secret of an HMAC algorithm listed in `algorithms`). */
  readonly key?: KeyLike | Uint8Array;
  /** The required `iss` (one, or any of several). Required: a token for another issuer is refused. */
  readonly issuer: string | readonly string[];
  /** The required `aud` (the token must name this service). Required. */
  readonly audience: string | readonly string[];
  /** Seconds of clock skew allowed on `exp` and `nbf`. Default 30. */
  readonly clockToleranceSeconds?: number;
  /** Accepted algorithms. Default `RS256`, `PS256`, `ES256`, `ES384`, `EdDSA` (never `none`). */
  readonly algorithms?: readonly string[];
  /** Claim holding the roles. Default `roles`. */
  readonly rolesClaim?: string;
  /** For `jwksUrl`: how long a fetched key set is used before it is fetched again, ms. Default 10 min (jose's). */
  readonly jwksCacheMaxAgeMs?: number;
  /** For `jwksUrl`: the `https.Agent` to fetch it with (a private CA's trust, a proxy). Default Node's global one. */
  readonly jwksAgent?: Agent;
  /**
   * Tokens verified recently are remembered (the token text → its identity) for up to this many ms, so a
   * client reusing its token costs a map lookup instead of a signature check (`npm run bench -- security`).
   * A remembered token is admitted only while jose would still admit it: never past its `exp` plus the
   * clock skew; `nbf` was passed when it was verified, and stays passed. Failures are never remembered (a
   * token refused before its `nbf`, or before the key set had its key, is verified afresh next time).
   * The trade-off: a key withdrawn from the key set keeps admitting the tokens already remembered for up to
   * this long, so with `jwksUrl` it is capped at `jwksCacheMaxAgeMs` (a rotation is then noticed by the
   * remembered tokens no later than by jose's key set cache). 0 turns it off. Default 60 000.
   */
  readonly cacheTtlMs?: number;
  /**
   * Most tokens remembered; the least recently used goes first. Default 10 000 (an entry holds the
   * token text and its frozen identity: ~2 KB, so ~20 MB at most).
   */
  readonly cacheSize?: number;
}

/**
 * Verifies a bearer token: its identity (synchronously when it is known already), or a rejection (the
 * reason is jose's, for logs only).
 */
export type TokenVerifier = ((token: string) => Identity | Promise<Identity>) & {
  /**
   * The identity of a token verified and remembered already, or undefined (then call the verifier). Lets
   * authentication answer a remembered `Bearer <token>` before parsing the header (jwtVerifier's own).
   */
  readonly cached?: (token: string) => Identity | undefined;
};

/** The JWT signature algorithms accepted unless configured otherwise (asymmetric ones only). */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'PS256',
  'ES256',
  'ES384',
  'EdDSA',
]);

/** Builds the verifier; the key set of `jwksUrl` is fetched on the first token. */
export function jwtVerifier(options: JwtOptions): TokenVerifier {
  const sources = [options.jwksUrl, options.jwks, options.key].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new SecurityOptionsError('jwt', "give exactly one of 'jwksUrl', 'jwks' or 'key'");
  const nonEmpty = (v: unknown): boolean =>
    (typeof v === 'string' && v !== '') ||
    (Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s !== ''));
  if (!nonEmpty(options.issuer)) throw new SecurityOptionsError('jwt.issuer', 'required: the expected iss');
  if (!nonEmpty(options.audience))
    throw new SecurityOptionsError('jwt.audience', 'required: the expected aud');
  const algorithms = [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)];
  if (algorithms.length === 0 || algorithms.some((a) => typeof a !== 'string' || a.toLowerCase() === 'none'))
    throw new SecurityOptionsError('jwt.algorithms', "a non-empty list of algorithms, never 'none'");
  const tolerance = options.clockToleranceSeconds ?? 30;
  const ttl = options.cacheTtlMs ?? 60_000;
  const size = options.cacheSize ?? 10_000;
  for (const [name, v] of [
    ['clockToleranceSeconds', tolerance],
    ['cacheTtlMs', ttl],
    ['cacheSize', size],
  ] as const)
    if (!Number.isFinite(v) || v < 0) throw new SecurityOptionsError(`jwt.${name}`, 'a non-negative number');
  let key: KeyLike | Uint8Array | JWTVerifyGetKey;
  if (options.jwksUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.jwksUrl.toString());
    } catch {
      throw new SecurityOptionsError('jwt.jwksUrl', 'not an absolute URL');
    }
    key = createRemoteJWKSet(url, {
      ...(options.jwksCacheMaxAgeMs === undefined ? {} : { cacheMaxAge: options.jwksCacheMaxAgeMs }),
      ...(options.jwksAgent === undefined ? {} : { agent: options.jwksAgent }),
    });
  } else if (options.jwks !== undefined) key = createLocalJWKSet(options.jwks);
  else key = options.key!;
  const verifyOptions = {
    issuer: typeof options.issuer === 'string' ? options.issuer : [...options.issuer],
    audience: typeof options.audience === 'string' ? options.audience : [...options.audience],
    clockTolerance: tolerance,
    algorithms,
    // a token without an expiry would be good forever
    requiredClaims: ['exp'],
  };
  const rolesClaim = options.rolesClaim ?? 'roles';
  const verify = async (token: string): Promise<Identity> => {
    const { payload } = await jwtVerify(token, key as KeyLike, verifyOptions);
    return identityOfPayload(payload, rolesClaim);
  };
  // a remembered token must not outlive the key set it was checked against (key rotation, see cacheTtlMs)
  const keySetAge = options.jwksUrl === undefined ? Infinity : (options.jwksCacheMaxAgeMs ?? 600_000);
  const lifetime = Math.min(ttl, keySetAge);
  if (lifetime === 0 || size === 0) return verify;
  return cachingVerifier(verify, { ttlMs: lifetime, size, toleranceMs: tolerance * 1000 });
}

/** Options of {@link cachingVerifier}. */
interface TokenCacheOptions {
  readonly ttlMs: number;
  readonly size: number;
  /** The clock skew jose allows past `exp`, ms. */
  readonly toleranceMs: number;
}

/**
 * `verify` with a bounded memory of the tokens it admitted. A hit answers synchronously (no promise per
 * request: pipeline.ts keeps such a request on its synchronous path) and costs one map lookup: a hit only
 * marks its entry as used, and eviction gives used entries a second chance (the CLOCK approximation of
 * least-recently-used), since moving the entry to the map's end on every hit (delete and set) cost more
 * than the rest of the lookup (profiled). Concurrent first uses of one token share one verification; a
 * refusal is not remembered.
 */
function cachingVerifier(
  verify: (token: string) => Promise<Identity>,
  options: TokenCacheOptions,
): TokenVerifier {
  interface Entry {
    readonly identity: Identity;
    readonly until: number;
    used: boolean;
  }
  // a Map iterates in insertion order: the oldest entries (or those re-queued longest ago) come first
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<Identity>>();
  const evictOne = (): void => {
    // at most one pass over used entries, each re-queued once with its mark cleared
    for (const [token, entry] of cache) {
      cache.delete(token);
      if (!entry.used || entry.until <= Date.now()) return;
      entry.used = false;
      cache.set(token, entry);
    }
  };
  const remember = (token: string, identity: Identity): Identity => {
    const now = Date.now();
    const exp = identity.claims.exp;
    // jwtVerify requires exp; a token admitted within the skew past it is admitted until the skew ends
    const expiry = typeof exp === 'number' ? exp * 1000 + options.toleranceMs : now;
    const until = Math.min(now + options.ttlMs, expiry);
    if (until > now) {
      cache.delete(token);
      if (cache.size >= options.size) evictOne();
      cache.set(token, { identity, until, used: false });
    }
    return identity;
  };
  const cached = (token: string): Identity | undefined => {
    const hit = cache.get(token);
    if (hit === undefined) return undefined;
    if (hit.until > Date.now()) {
      hit.used = true;
      return hit.identity;
    }
    cache.delete(token);
    return undefined;
  };
  const verifier = (token: string): Identity | Promise<Identity> => {
    const hit = cached(token);
    if (hit !== undefined) return hit;
    const inFlight = pending.get(token);
    if (inFlight !== undefined) return inFlight;
    const out = verify(token).then(
      (identity) => {
        pending.delete(token);
        return remember(token, identity);
      },
      (err: unknown) => {
        pending.delete(token);
        throw err;
      },
    );
    pending.set(token, out);
    return out;
  };
  return Object.assign(verifier, { cached });
}

function identityOfPayload(payload: JWTPayload, rolesClaim: string): Identity {
  const scopes = payload.scope !== undefined ? stringList(payload.scope) : stringList(payload.scp);
  return Object.freeze({
    subject: typeof payload.sub === 'string' ? payload.sub : '',
    via: 'jwt' as const,
    scopes: Object.freeze([...scopes]),
    roles: Object.freeze([...stringList(payload[rolesClaim])]),
    claims: Object.freeze({ ...payload }),
  });
}
