/**
 * Who may call what, over real TLS (certificates made by the test) with HTTP/1.1 and HTTP/2 on one
 * fastify server (ALPN): bearer JWTs signed and verified by jose (the key set fetched from the server's
 * own JWKS URL), client certificates, access rules per method, the guard of /metrics, OPTIONS behind
 * authentication, 429 under a burst, the typed client's auth hook.
 */
import https from 'node:https';
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import fastify, { type FastifyInstance } from 'fastify';
import { type JWK, SignJWT, exportJWK, generateKeyPair } from 'jose';
import {
  LONG_KEY,
  STRING,
  type SecureFetch,
  action,
  authentication,
  batchFinder,
  collection,
  createCertificateAuthority,
  createResourceClient,
  criteriaOf,
  finder,
  guardRoute,
  identityOf,
  issueCertificate,
  localhostCertificates,
  rateLimit,
  secureFetch,
  secured,
  svcPlugin,
  svcSecureServerOptions,
  BatchFinderResult,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoCriteria } from '../generated/fixtures/com/example/photos/PhotoCriteria';
import { makePhoto } from '../resources/support/photos';
import { freePort } from '../support/redis-server';

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'svc-photos';
const BURST_LIMIT = 30;

const calls: string[] = [];

const photos = secured(
  collection({
    name: 'photos',
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: (id) => makePhoto(id, 'Dusk'),
      create: (_photo, ctx) => {
        calls.push(`create by ${identityOf(ctx)?.subject ?? '?'}`);
        return { id: 7 };
      },
      finders: {
        byTitle: finder({ params: { title: STRING } }, ({ title }) => [makePhoto(1, title)]),
      },
      batchFinders: {
        search: batchFinder(
          { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } },
          (criteria) => {
            calls.push(`search of ${criteria.length}`);
            const result = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria) result.putResult(c, [makePhoto(1, String(c.data().get('title')))]);
            return result;
          },
        ),
      },
      actions: {
        whoami: action({ returns: STRING }, (_params, ctx) => identityOf(ctx)?.subject ?? 'anonymous'),
        purge: action({}, () => {
          calls.push('purge');
        }),
      },
    },
  }),
  {
    default: 'public',
    create: { roles: ['editor'] },
    batchFinders: { search: { roles: ['editor'] } },
    actions: { whoami: 'authenticated', purge: { scopes: ['photos:admin'] } },
  },
);

type Proto = 'h1' | 'h2';
type Cert = 'none' | 'trusted' | 'untrusted';

let app: FastifyInstance<Http2SecureServer, Http2ServerRequest, Http2ServerResponse>;
let base: string;
const fetchers = new Map<string, SecureFetch>();
let sign: (
  claims: Record<string, unknown>,
  opts?: { exp?: string; iss?: string; aud?: string },
) => Promise<string>;
let signWithOtherKey: () => Promise<string>;
let agent: https.Agent;

beforeAll(async () => {
  const { ca, server } = localhostCertificates();
  const otherCa = createCertificateAuthority('Someone else');
  const robot = issueCertificate(ca, { commonName: 'robot', organizationalUnits: ['editor'] });
  const stranger = issueCertificate(otherCa, { commonName: 'stranger', organizationalUnits: ['editor'] });
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const other = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const make =
    (key: typeof privateKey) =>
    async (
      claims: Record<string, unknown>,
      opts: { exp?: string; iss?: string; aud?: string } = {},
    ): Promise<string> =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(opts.iss ?? ISSUER)
        .setAudience(opts.aud ?? AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? '5m')
        .sign(key);
  sign = make(privateKey);
  signWithOtherKey = () => make(other.privateKey)({ sub: 'mallory', roles: ['editor'] });

  agent = new https.Agent({ ca: ca.cert });
  // the key set is served by the server itself and fetched by jose over the same TLS: its URL (so the port)
  // is known before the routes are
  const port = await freePort();
  base = `https://localhost:${port}`;
  const auth = authentication({
    jwt: { jwksUrl: `${base}/.well-known/jwks.json`, jwksAgent: agent, issuer: ISSUER, audience: AUDIENCE },
    mtls: true,
    required: false,
  });
  const limit = rateLimit({ points: BURST_LIMIT, durationSeconds: 60 });
  app = fastify(svcSecureServerOptions({ ...server, ca: ca.cert }));
  app.get('/.well-known/jwks.json', () => Promise.resolve({ keys: [jwk] }));
  app.get('/version', (request) => Promise.resolve({ version: request.raw.httpVersion }));
  app.get('/metrics', { onRequest: guardRoute(auth, { roles: ['metrics'] }) }, () =>
    Promise.resolve('up 1\n'),
  );
  await app.register(svcPlugin, { resources: [photos], filters: [auth.filter, limit.filter] });
  await app.listen({ port, host: '127.0.0.1' });
  for (const proto of ['h1', 'h2'] as const)
    for (const cert of ['none', 'trusted', 'untrusted'] as const) {
      const pair = cert === 'trusted' ? robot : cert === 'untrusted' ? stranger : undefined;
      fetchers.set(`${proto} ${cert}`, secureFetch({ ca: ca.cert, http2: proto === 'h2', ...pair }));
    }
}, 20000);

interface Reply {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read the wire JSON freely
  json: any;
}

async function call(
  proto: Proto,
  method: string,
  path: string,
  init: {
    token?: string;
    authorization?: string;
    cert?: Cert;
    json?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  let body: Uint8Array | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = new TextEncoder().encode(JSON.stringify(init.json));
  }
  const res = await fetchers.get(`${proto} ${init.cert ?? 'none'}`)!(`${base}${path}`, {
    method,
    headers,
    signal: AbortSignal.timeout(10000),
    ...(body === undefined ? {} : { body }),
  });
  const out: Record<string, string> = {};
  res.headers.forEach((v, n) => (out[n] = v));
  const text = new TextDecoder().decode(await res.arrayBuffer());
  return {
    status: res.status,
    headers: out,
    json: out['content-type']?.startsWith('application/json') ? (JSON.parse(text) as unknown) : text,
  };
}

afterAll(async () => {
  for (const f of fetchers.values()) f.close();
  agent?.destroy();
  await app?.close();
});

/** An unsigned token (`alg: none`) with good claims. */
function unsecured(claims: Record<string, unknown>): string {
  const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: 'none' })}.${b64({ iss: ISSUER, aud: AUDIENCE, exp: now + 300, iat: now, ...claims })}.`;
}

const CREATE = { title: 'Harbour', format: 'JPEG', id: 0, urn: 'urn:li:photo:0', time: 1, actor: 'a' };

describe.each(['h1', 'h2'] as const)('over %s', (proto) => {
  it('speaks the protocol asked for in ALPN', async () => {
    const r = await call(proto, 'GET', '/photos/1');
    expect(r.status).toBe(200);
    expect(r.json.title).toBe('Dusk');
    expect((await call(proto, 'GET', '/version')).json.version).toBe(proto === 'h2' ? '2.0' : '1.1');
  });

  type Case = {
    readonly name: string;
    readonly token?: () => Promise<string>;
    readonly authorization?: string;
    readonly cert?: Cert;
    readonly status: number;
    readonly challenge?: string;
  };
  const refusals: readonly Case[] = [
    { name: 'no credential', status: 401, challenge: 'Bearer realm="svc"' },
    {
      name: 'an expired token',
      token: () => sign({ sub: 'alice', roles: ['editor'] }, { exp: '-2m' }),
      status: 401,
      challenge: 'Bearer realm="svc", error="invalid_token"',
    },
    {
      name: 'a token of another issuer',
      token: () => sign({ sub: 'alice', roles: ['editor'] }, { iss: 'https://evil.test' }),
      status: 401,
      challenge: 'Bearer realm="svc", error="invalid_token"',
    },
    {
      name: 'a token for another audience',
      token: () => sign({ sub: 'alice', roles: ['editor'] }, { aud: 'other' }),
      status: 401,
      challenge: 'Bearer realm="svc", error="invalid_token"',
    },
    {
      name: 'a token signed by another key',
      token: () => signWithOtherKey(),
      status: 401,
      challenge: 'Bearer realm="svc", error="invalid_token"',
    },
    {
      name: 'an unsigned token (alg none)',
      token: () => Promise.resolve(unsecured({ sub: 'alice', roles: ['editor'] })),
      status: 401,
      challenge: 'Bearer realm="svc", error="invalid_token"',
    },
    {
      name: 'a Bearer scheme without a token',
      authorization: 'Bearer !!',
      status: 400,
      challenge: 'Bearer realm="svc", error="invalid_request"',
    },
    {
      name: 'a token for another role',
      token: () => sign({ sub: 'victor', roles: ['viewer'] }),
      status: 403,
      challenge: 'Bearer realm="svc", error="insufficient_scope"',
    },
    {
      name: 'an untrusted client certificate',
      cert: 'untrusted',
      status: 401,
      challenge: 'Bearer realm="svc", error="invalid_token"',
    },
  ];

  it.each(refusals)('refuses a create with $name, saying no more than RFC 6750 allows', async (c) => {
    calls.length = 0;
    const r = await call(proto, 'POST', '/photos', {
      json: CREATE,
      ...(c.token === undefined ? {} : { token: await c.token() }),
      ...(c.authorization === undefined ? {} : { authorization: c.authorization }),
      ...(c.cert === undefined ? {} : { cert: c.cert }),
    });
    expect(r.status).toBe(c.status);
    expect(r.headers['www-authenticate']).toBe(c.challenge);
    expect(r.json.status).toBe(c.status);
    expect(r.json.stackTrace).toBeUndefined();
    expect(r.json.exceptionClass).toBeUndefined();
    expect(JSON.stringify(r.json)).not.toMatch(/expired|issuer|audience|signature|exp|iss|aud/i);
    expect(calls).toEqual([]);
  });

  it('admits a create with an editor token and a trusted client certificate, the identity reaching the handler', async () => {
    calls.length = 0;
    const viaToken = await call(proto, 'POST', '/photos', {
      json: CREATE,
      token: await sign({ sub: 'alice', roles: ['editor'] }),
    });
    const viaCert = await call(proto, 'POST', '/photos', { json: CREATE, cert: 'trusted' });
    expect([viaToken.status, viaCert.status]).toEqual([201, 201]);
    expect(calls).toEqual(['create by alice', 'create by robot']);
  });

  it('judges a batch finder once, before any criterion reaches the handler', async () => {
    calls.length = 0;
    const path = '/photos?bq=search&criteria=List((title:a,format:JPEG),(title:b,format:PNG))';
    const headers = { 'x-restli-protocol-version': '2.0.0' };
    const denied = await call(proto, 'GET', path, {
      headers,
      token: await sign({ sub: 'v', roles: ['viewer'] }),
    });
    expect(denied.status).toBe(403);
    expect(calls).toEqual([]);
    const allowed = await call(proto, 'GET', path, {
      headers,
      token: await sign({ sub: 'e', roles: ['editor'] }),
    });
    expect(allowed.status).toBe(200);
    expect(calls).toEqual(['search of 2']);
  });

  it('names the missing scope of an action, and lets anonymous callers read', async () => {
    const purge = await call(proto, 'POST', '/photos?action=purge', {
      json: {},
      token: await sign({ sub: 'e', roles: ['editor'], scope: 'photos:read' }),
    });
    expect(purge.status).toBe(403);
    expect(purge.headers['www-authenticate']).toBe(
      'Bearer realm="svc", error="insufficient_scope", scope="photos:admin"',
    );
    const admin = await call(proto, 'POST', '/photos?action=purge', {
      json: {},
      token: await sign({ sub: 'root', scope: 'photos:read photos:admin' }),
    });
    expect(admin.status).toBe(200);
    const find = await call(proto, 'GET', '/photos?q=byTitle&title=Dawn');
    expect(find.status).toBe(200);
    const anonymousWhoami = await call(proto, 'POST', '/photos?action=whoami', { json: {} });
    expect(anonymousWhoami.status).toBe(401);
    const whoami = await call(proto, 'POST', '/photos?action=whoami', { json: {}, cert: 'trusted' });
    expect(whoami.json.value).toBe('robot');
  });

  it('puts OPTIONS, /openapi.json, /docs and /metrics behind authentication, /metrics behind its role', async () => {
    expect((await call(proto, 'OPTIONS', '/photos')).status).toBe(401);
    for (const path of ['/openapi.json', '/docs']) {
      const refused = await call(proto, 'GET', path);
      expect([path, refused.status, refused.headers['www-authenticate']]).toEqual([
        path,
        401,
        'Bearer realm="svc"',
      ]);
      expect([path, (await call(proto, 'GET', path, { cert: 'trusted' })).status]).toEqual([path, 200]);
    }
    const described = await call(proto, 'OPTIONS', '/photos', { cert: 'trusted' });
    expect(described.status).toBe(200);
    expect(JSON.stringify(described.json)).toContain('"authorization"');
    const anonymous = await call(proto, 'GET', '/metrics');
    expect([anonymous.status, anonymous.headers['www-authenticate']]).toEqual([401, 'Bearer realm="svc"']);
    const editor = await call(proto, 'GET', '/metrics', {
      token: await sign({ sub: 'e', roles: ['editor'] }),
    });
    expect(editor.status).toBe(403);
    const scraper = await call(proto, 'GET', '/metrics', {
      token: await sign({ sub: 'prometheus', roles: ['metrics'] }),
    });
    expect(scraper.status).toBe(200);
  });

  it('answers 429 with Retry-After once a caller goes over its limit', async () => {
    const token = await sign({ sub: `burst-${proto}` });
    const statuses = await Promise.all(
      Array.from({ length: BURST_LIMIT + 5 }, () => call(proto, 'GET', '/photos/1', { token })),
    );
    const limited = statuses.filter((r) => r.status === 429);
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(BURST_LIMIT);
    expect(limited).toHaveLength(5);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.json.code).toBe('SVC_ERR_AUTH_RATE_LIMITED');
  });

  it('sends the typed client credential from its auth hook, refreshed after an invalid_token refusal', async () => {
    const asked: boolean[] = [];
    const client = createResourceClient(
      {
        baseUrl: base,
        fetch: fetchers.get(`${proto} none`)!,
        auth: async ({ refresh }) => {
          asked.push(refresh);
          return refresh ? sign({ sub: 'carol' }) : sign({ sub: 'carol' }, { exp: '-5m' });
        },
      },
      { photos },
    );
    const who = await client.photos.actions.whoami({});
    expect(who.value).toBe('carol');
    expect(asked).toEqual([false, true]);
  });
});
