import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RequestFilter, ResourceRequest } from '../resources/request';
import { RateLimitedError, SecurityOptionsError, toWireError } from './errors';
import { identityOf } from './identity';
import { addRefusalHeaders } from './authenticate';

/**
 * Rate limits per caller through `rate-limiter-flexible`: a server request filter (so it works alike under
 * the fastify plugin and the standalone server, which share the pipeline; `@fastify/rate-limit` would
 * cover fastify only), keyed by the identity authentication found, else by the peer's address. Over the
 * limit, a 429 ErrorResponse with `Retry-After`. Counts live in this process by default, or in Redis
 * (`redis`) so that several instances share them; should Redis fail, an in-memory limiter of the same
 * size stands in (the library's insurance limiter) rather than refusing or admitting everyone.
 *
 * Put it after the authentication filter: `filters: [auth.filter, rateLimit({ points: 100, durationSeconds: 1 })]`.
 */

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests allowed per caller per window. Required. */
  readonly points: number;
  /** The window, seconds. Required. */
  readonly durationSeconds: number;
  /** Share the counts through Redis (an `ioredis` client the caller owns and closes). Default: in memory. */
  readonly redis?: Redis;
  /** Prefix of the Redis keys (and the memory limiter's). Default `svc-rl`. */
  readonly keyPrefix?: string;
  /**
   * The caller's key; default `id:<subject>` for an authenticated request, `ip:<address>` otherwise
   * (behind a proxy, derive it from a header the proxy sets and clients cannot).
   */
  readonly key?: (request: ResourceRequest) => string;
}

/** The consumer of one request's point: resolves, or rejects with the refusal. */
export interface RateLimiter {
  readonly filter: RequestFilter;
  /** Takes one point for `key`; rejects with a {@link RateLimitedError} over the limit. */
  consume(key: string): Promise<void>;
}

function defaultKey(request: ResourceRequest): string {
  const identity = identityOf(request);
  if (identity !== undefined) return `id:${identity.via}:${identity.subject}`;
  return `ip:${request.socket?.remoteAddress ?? 'unknown'}`;
}

/** A rate limit with these options. @throws SecurityOptionsError */
export function rateLimit(options: RateLimitOptions): RateLimiter {
  const { points, durationSeconds } = options;
  if (!Number.isSafeInteger(points) || points <= 0)
    throw new SecurityOptionsError('rateLimit.points', 'a positive integer');
  if (!Number.isSafeInteger(durationSeconds) || durationSeconds <= 0)
    throw new SecurityOptionsError('rateLimit.durationSeconds', 'a positive integer of seconds');
  const keyPrefix = options.keyPrefix ?? 'svc-rl';
  const memory = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
  const limiter =
    options.redis === undefined
      ? memory
      : new RateLimiterRedis({
          storeClient: options.redis,
          points,
          duration: durationSeconds,
          keyPrefix,
          insuranceLimiter: memory,
        });
  const keyOf = options.key ?? defaultKey;
  const consume = (key: string): Promise<void> =>
    limiter.consume(key).then(
      () => undefined,
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) throw new RateLimitedError(rejection.msBeforeNext / 1000);
        throw rejection;
      },
    );
  const filter: RequestFilter = Object.freeze({
    name: 'rate-limit',
    request: (request: ResourceRequest) =>
      consume(keyOf(request)).then(
        () => request,
        (err: unknown) => {
          throw err instanceof RateLimitedError ? toWireError(err, 'svc') : err;
        },
      ),
    response: addRefusalHeaders,
  });
  return Object.freeze({ filter, consume });
}
