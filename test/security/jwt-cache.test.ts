/**
 * The verified-token cache of jwtVerifier: a hit is answered synchronously (no signature check), but only
 * while jose would still admit the token (exp plus the skew); different tokens never share an identity; the
 * cache is bounded and evicts the least recently used; refusals are not remembered; and a key withdrawn
 * from a JWKS URL stops admitting its remembered tokens once the key set's cache time is over. The clock is
 * jest's (Date only: timers, sockets and promises run for real).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JWK, type KeyLike, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { type Identity, type TokenVerifier, jwtVerifier } from '../../src';

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'cache-test';
const T0 = Date.parse('2026-01-01T00:00:00Z');

let keyA: { privateKey: KeyLike; jwk: JWK };
let keyB: { privateKey: KeyLike; jwk: JWK };

beforeAll(async () => {
  const make = async (kid: string) => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
  };
  [keyA, keyB] = await Promise.all([make('a'), make('b')]);
});

beforeEach(() => {
  jest.useFakeTimers({
    now: T0,
    doNotFake: [
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'setImmediate',
      'clearImmediate',
      'nextTick',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
  });
});
afterEach(() => jest.useRealTimers());

/** A token of `sub`, valid from now (Date's now: jest's clock) for `seconds`, or from `nbf`. */
function token(
  sub: string,
  seconds: number,
  key = keyA,
  extra: { nbfSeconds?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ roles: [sub] })
    .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid! })
    .setSubject(sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + seconds);
  if (extra.nbfSeconds !== undefined) jwt.setNotBefore(now + extra.nbfSeconds);
  return jwt.sign(key.privateKey);
}

const staticVerifier = (
  o: { cacheTtlMs?: number; cacheSize?: number; clockToleranceSeconds?: number } = {},
) => jwtVerifier({ jwks: { keys: [keyA.jwk, keyB.jwk] }, issuer: ISSUER, audience: AUDIENCE, ...o });

/** 'hit' when answered from the cache (synchronously), else 'verified' (a promise), or 'refused'. */
async function outcome(verify: TokenVerifier, t: string): Promise<string> {
  let out: Identity | Promise<Identity>;
  try {
    out = verify(t);
  } catch {
    return 'refused';
  }
  if (!(out instanceof Promise)) return `hit ${out.subject}`;
  return out.then(
    (id) => `verified ${id.subject}`,
    () => 'refused',
  );
}

describe('the verified-token cache', () => {
  it('answers a token it verified from memory, and each token with its own identity', async () => {
    const verify = staticVerifier();
    const [alice, bob] = await Promise.all([token('alice', 600), token('bob', 600)]);
    expect(await outcome(verify, alice)).toBe('verified alice');
    expect(await outcome(verify, bob)).toBe('verified bob');
    expect(await outcome(verify, alice)).toBe('hit alice');
    expect(await outcome(verify, bob)).toBe('hit bob');
    // one character off is another token: verified (and refused: the signature no longer matches)
    const forged = `${alice.slice(0, -2)}${alice.endsWith('A') ? 'B' : 'A'}${alice.slice(-1)}`;
    expect(await outcome(verify, forged)).toBe('refused');
  });

  it('honours exp (plus the skew) while the token is remembered', async () => {
    const verify = staticVerifier({ cacheTtlMs: 3_600_000, clockToleranceSeconds: 30 });
    const t = await token('alice', 60);
    expect(await outcome(verify, t)).toBe('verified alice');
    jest.setSystemTime(T0 + 60_000 + 29_000);
    expect(await outcome(verify, t)).toBe('hit alice');
    jest.setSystemTime(T0 + 60_000 + 30_001);
    expect(await outcome(verify, t)).toBe('refused');
  });

  it('forgets a token after cacheTtlMs, and verifies it again', async () => {
    const verify = staticVerifier({ cacheTtlMs: 1000 });
    const t = await token('alice', 600);
    expect(await outcome(verify, t)).toBe('verified alice');
    jest.setSystemTime(T0 + 999);
    expect(await outcome(verify, t)).toBe('hit alice');
    jest.setSystemTime(T0 + 1000);
    expect(await outcome(verify, t)).toBe('verified alice');
  });

  it('holds at most cacheSize tokens, evicting the least recently used', async () => {
    const verify = staticVerifier({ cacheSize: 2 });
    const [a, b, c] = await Promise.all([token('a', 600), token('b', 600), token('c', 600)]);
    expect(await outcome(verify, a)).toBe('verified a');
    expect(await outcome(verify, b)).toBe('verified b');
    expect(await outcome(verify, a)).toBe('hit a'); // a is now the most recently used
    expect(await outcome(verify, c)).toBe('verified c'); // evicts b
    expect(await outcome(verify, a)).toBe('hit a');
    expect(await outcome(verify, c)).toBe('hit c');
    expect(await outcome(verify, b)).toBe('verified b'); // evicts a
    expect(await outcome(verify, a)).toBe('verified a');
  });

  it('never remembers a refusal: a token refused before its nbf is admitted once it is due', async () => {
    const verify = staticVerifier({ clockToleranceSeconds: 0 });
    const t = await token('alice', 600, keyA, { nbfSeconds: 60 });
    expect(await outcome(verify, t)).toBe('refused');
    expect(await outcome(verify, t)).toBe('refused');
    jest.setSystemTime(T0 + 60_000);
    expect(await outcome(verify, t)).toBe('verified alice');
    expect(await outcome(verify, t)).toBe('hit alice');
  });

  it('verifies a token once when many requests bring it at the same time', async () => {
    const verify = staticVerifier();
    const t = await token('alice', 600);
    const first = [verify(t), verify(t), verify(t)];
    expect(first.every((p) => p instanceof Promise)).toBe(true);
    expect(new Set(first).size).toBe(1);
    expect((await first[0]!).subject).toBe('alice');
    expect(await outcome(verify, t)).toBe('hit alice');
  });

  it('stops admitting remembered tokens of a key withdrawn from a JWKS URL within the key set cache time', async () => {
    // the key set the issuer publishes: A, then (rotated) B only
    let published: JWK[] = [keyA.jwk];
    const issuer = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    try {
      const verify = jwtVerifier({
        jwksUrl: `http://127.0.0.1:${(issuer.address() as AddressInfo).port}/jwks.json`,
        jwksCacheMaxAgeMs: 5_000,
        cacheTtlMs: 600_000, // longer than the key set's cache time: capped to it
        issuer: ISSUER,
        audience: AUDIENCE,
      });
      const old = await token('alice', 3600, keyA);
      expect(await outcome(verify, old)).toBe('verified alice');
      published = [keyB.jwk];
      jest.setSystemTime(T0 + 4_999);
      expect(await outcome(verify, old)).toBe('hit alice');
      jest.setSystemTime(T0 + 5_000);
      expect(await outcome(verify, old)).toBe('refused');
      expect(await outcome(verify, await token('bob', 3600, keyB))).toBe('verified bob');
    } finally {
      await new Promise((resolve) => issuer.close(resolve));
    }
  });
});
