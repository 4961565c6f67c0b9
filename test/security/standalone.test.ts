/**
 * The standalone server (createSvcSecureServer) over TLS, HTTP/2 and HTTP/1.1 on one port: the same
 * authentication filter, OPTIONS behind it, an upload whose attachment streams in over either protocol;
 * client certificates (mTLS: trusted, missing, from an untrusted CA) over both protocols; the Redis rate
 * limiter shared by two limiters (two instances); access rules as IDL annotations.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:https';
import type { Http2SecureServer } from 'node:http2';
import { Readable } from 'node:stream';
import { Redis } from 'ioredis';
import { type KeyLike, SignJWT, generateKeyPair } from 'jose';
import { concatMap, from, lastValueFrom } from 'rxjs';
import {
  LONG_KEY,
  RateLimitedError,
  type SecureFetch,
  attachmentChunks$,
  attachments$,
  authentication,
  collection,
  createCertificateAuthority,
  createClient,
  createSvcSecureServer,
  exportIdl,
  identityOf,
  issueCertificate,
  localhostCertificates,
  rateLimit,
  secureFetch,
  secured,
  toAsyncIterable,
  withAttachments,
  writerFromAsyncIterable,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { makePhoto } from '../resources/support/photos';

const uploads: Array<{ subject: string | undefined; bytes: number }> = [];
const deleted: Array<{ subject: string | undefined; via: string | undefined; roles: readonly string[] }> = [];

const files = secured(
  collection({
    name: 'files',
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: (id) => makePhoto(id, 'file'),
      delete: (_id, ctx) => {
        const who = identityOf(ctx);
        deleted.push({ subject: who?.subject, via: who?.via, roles: who?.roles ?? [] });
      },
      create: withAttachments(async (attachments, _photo, ctx) => {
        let bytes = 0;
        await lastValueFrom(
          attachments$(attachments!).pipe(
            concatMap((a) =>
              from(
                (async () => {
                  for await (const c of Readable.from(
                    toAsyncIterable((d$) => attachmentChunks$(a.reader, d$)),
                  ))
                    bytes += (c as Buffer).length;
                })(),
              ),
            ),
          ),
          { defaultValue: undefined },
        );
        uploads.push({
          subject: identityOf(ctx)?.subject,
          bytes,
        });
        return { id: 1 };
      }),
    },
  }),
  { get: 'public', create: { scopes: ['files:write'] }, delete: { roles: ['operator'] } },
);

let server: Http2SecureServer | Server;
let base: string;
let key: KeyLike;
const fetchers: SecureFetch[] = [];
/** Per protocol (HTTP/1.1, HTTP/2): a fetch with no client certificate, a trusted one, an untrusted one. */
const certFetchers: Array<Record<'none' | 'trusted' | 'untrusted', SecureFetch>> = [];

beforeAll(async () => {
  const { ca, server: pair } = localhostCertificates();
  const operator = issueCertificate(ca, { commonName: 'backup-robot', organizationalUnits: ['operator'] });
  // the same subject and OU, signed by a CA the server does not trust
  const stranger = issueCertificate(createCertificateAuthority('Elsewhere CA'), {
    commonName: 'backup-robot',
    organizationalUnits: ['operator'],
  });
  const keys = await generateKeyPair('ES256');
  key = keys.privateKey;
  const auth = authentication({
    jwt: { key: keys.publicKey, issuer: 'https://issuer.test', audience: 'files', algorithms: ['ES256'] },
    mtls: true,
    required: false,
  });
  // `ca`: client certificates signed by it are trusted (mTLS)
  server = createSvcSecureServer({ resources: [files], filters: [auth.filter] }, { ...pair, ca: ca.cert });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
  for (const http2 of [false, true]) {
    fetchers.push(secureFetch({ ca: ca.cert, http2 }));
    certFetchers.push({
      none: secureFetch({ ca: ca.cert, http2 }),
      trusted: secureFetch({ ca: ca.cert, http2, ...operator }),
      untrusted: secureFetch({ ca: ca.cert, http2, ...stranger }),
    });
  }
}, 20000);

afterAll(async () => {
  for (const f of [...fetchers, ...certFetchers.flatMap((c) => Object.values(c))]) f.close();
  await new Promise((resolve) => server?.close(resolve));
});

const token = (scope: string): Promise<string> =>
  new SignJWT({ sub: 'uploader', scope })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer('https://issuer.test')
    .setAudience('files')
    .setExpirationTime('5m')
    .sign(key);

/** 4 MiB in 64 KiB chunks. */
async function* fourMiB(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < 64; i++) yield await Promise.resolve(new Uint8Array(64 * 1024).fill(i));
}

describe.each([
  ['HTTP/1.1', 0],
  ['HTTP/2', 1],
] as const)('the standalone server over %s', (_name, index) => {
  const fetch = (): SecureFetch => fetchers[index]!;

  it('answers reads openly, and OPTIONS only to a caller', async () => {
    const get = await fetch()(`${base}/files/3`, {
      method: 'GET',
      headers: {},
      signal: AbortSignal.timeout(5000),
    });
    expect(get.status).toBe(200);
    const options = await fetch()(`${base}/files`, {
      method: 'OPTIONS',
      headers: {},
      signal: AbortSignal.timeout(5000),
    });
    expect(options.status).toBe(401);
    const described = await fetch()(`${base}/files`, {
      method: 'OPTIONS',
      headers: { authorization: `Bearer ${await token('files:read')}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(described.status).toBe(200);
    // the documentation routes as well, once authentication is configured
    const docs = await fetch()(`${base}/openapi.json`, {
      method: 'GET',
      headers: {},
      signal: AbortSignal.timeout(5000),
    });
    expect(docs.status).toBe(401);
    const documented = await fetch()(`${base}/openapi.json`, {
      method: 'GET',
      headers: { authorization: `Bearer ${await token('files:read')}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(documented.status).toBe(200);
  });

  it('streams an upload in to the handler for a caller with the scope, refuses one without', async () => {
    const client = (scope: string) =>
      createClient({ baseUrl: base, fetch: fetch(), auth: () => token(scope) });
    const send = (scope: string) =>
      client(scope).send({
        method: 'create',
        resource: 'files',
        body: makePhoto(1, 'upload'),
        keySpec: LONG_KEY.spec,
        attachments: [writerFromAsyncIterable('file', fourMiB())],
      });
    uploads.length = 0;
    await expect(send('files:read')).rejects.toMatchObject({ status: 403 });
    const created = await send('files:write');
    expect(created.status).toBe(201);
    expect(uploads).toEqual([{ subject: 'uploader', bytes: 4 * 1024 * 1024 }]);
  });
});

describe.each([
  ['HTTP/1.1', 0],
  ['HTTP/2', 1],
] as const)('client certificates on the standalone server over %s', (_name, index) => {
  const call = async (cert: 'none' | 'trusted' | 'untrusted', method: string, path: string) => {
    const r = await certFetchers[index]![cert](`${base}${path}`, {
      method,
      headers: { 'x-restli-protocol-version': '2.0.0' },
      signal: AbortSignal.timeout(5000),
    });
    let challenge: string | undefined;
    r.headers.forEach((v, n) => {
      if (n === 'www-authenticate') challenge = v;
    });
    const text = Buffer.from(await r.arrayBuffer()).toString();
    return { status: r.status, challenge, text };
  };

  it.each([
    ['a trusted certificate with the role', 'trusted', 204, undefined, undefined],
    ['no certificate', 'none', 401, 'Bearer realm="svc"', 'Authentication is required'],
    [
      'a certificate from an untrusted CA',
      'untrusted',
      401,
      'Bearer realm="svc", error="invalid_token"',
      // the same refusal as a token that does not verify: no hint of which check failed (RFC 6750)
      'The credential is not valid',
    ],
  ] as const)(
    'answers a delete that needs a role, sent with %s',
    async (_n, cert, status, challenge, message) => {
      deleted.length = 0;
      const r = await call(cert, 'DELETE', '/files/7');
      expect({ status: r.status, challenge: r.challenge }).toEqual({ status, challenge });
      if (message === undefined)
        expect(deleted).toEqual([{ subject: 'backup-robot', via: 'mtls', roles: ['operator'] }]);
      else {
        expect(deleted).toEqual([]);
        expect(JSON.parse(r.text)).toEqual({ status: 401, code: 'SVC_ERR_AUTH_UNAUTHENTICATED', message });
      }
    },
  );

  it('describes the resource (OPTIONS) to a trusted certificate only', async () => {
    expect((await call('trusted', 'OPTIONS', '/files')).status).toBe(200);
    expect((await call('none', 'OPTIONS', '/files')).status).toBe(401);
    expect((await call('untrusted', 'OPTIONS', '/files')).status).toBe(401);
  });
});

it('shares the counts of a Redis rate limit between instances', async () => {
  const url = process.env.SVC_TEST_REDIS_URL;
  if (url === undefined) throw new Error('SVC_TEST_REDIS_URL is not set: the jest global setup starts Redis');
  const a = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const b = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  try {
    const prefix = `svc-rl-test-${process.pid}-${Date.now()}`;
    const one = rateLimit({ points: 4, durationSeconds: 30, redis: a, keyPrefix: prefix });
    const two = rateLimit({ points: 4, durationSeconds: 30, redis: b, keyPrefix: prefix });
    for (const limiter of [one, two, one, two]) await limiter.consume('id:jwt:alice');
    const refused = await two.consume('id:jwt:alice').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await one.consume('id:jwt:bob');
  } finally {
    a.disconnect();
    b.disconnect();
  }
});

it('exports each method access rule as an IDL annotation', () => {
  const { restspecs } = exportIdl([files]);
  const spec = [...restspecs.values()][0]!;
  const methods = spec.collection!.methods!;
  expect(methods.find((m) => m.method === 'create')!.annotations).toEqual({
    authorization: { access: 'authenticated', scopes: ['files:write'] },
  });
  expect(methods.find((m) => m.method === 'get')!.annotations).toEqual({
    authorization: { access: 'public' },
  });
});
