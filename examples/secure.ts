/**
 * The example's secure mode (`SVC_SECURE=1 npm start`, issue 25): HTTPS and HTTP/2 (ALPN fallback to
 * HTTP/1.1) with a certificate made at the first start into `<data dir>/tls`, bearer JWTs signed by a
 * local ES256 key whose key set the service serves at `/.well-known/jwks.json`, every write and the jobs
 * resource behind a token (reads stay open), `/metrics` and OPTIONS behind one too, and a demo token for
 * each of two roles (`viewer`, `editor`). What is generated is kept and reused at the next start (and by
 * every worker of `WORKERS=2`), so tokens printed once stay valid for their hour.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type JWK, SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose';
import {
  type AccessFunction,
  type Authenticator,
  type ResourceDefinition,
  type SvcTlsOptions,
  authentication,
  localhostCertificates,
  secured,
} from 'svc-framework';

/** What the secure mode runs with. */
export interface ExampleSecurity {
  readonly tls: SvcTlsOptions;
  /** The CA that signed the server certificate (`curl --cacert`). */
  readonly caFile: string;
  readonly auth: Authenticator;
  /** The public key set, served at `/.well-known/jwks.json`. */
  readonly jwks: { readonly keys: readonly JWK[] };
  /** The example's resources with their access rules. */
  secure(resources: readonly ResourceDefinition[]): ResourceDefinition[];
  /** A token for `role`, valid for an hour. */
  token(role: 'viewer' | 'editor' | 'metrics'): Promise<string>;
}

export const EXAMPLE_ISSUER = 'urn:svc-example:issuer';
export const EXAMPLE_AUDIENCE = 'svc-example';

const READS: ReadonlySet<string> = new Set(['get', 'batch_get', 'get_all', 'finder', 'batch_finder']);

/** Reads for anyone, writes (and actions) for editors. */
const readsOpenWritesForEditors: AccessFunction = Object.assign(
  (identity: { roles: readonly string[] } | undefined, inv: { method: string }) =>
    READS.has(inv.method) || (identity?.roles.includes('editor') ?? false),
  { doc: 'reads: anyone; writes and actions: the editor role' },
);

/** Reads the key pair and certificate of `dir`, making them first when absent. */
async function material(
  dir: string,
): Promise<{ tls: SvcTlsOptions; caFile: string; jwk: JWK; privateJwk: JWK }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (name: string): string => path.join(dir, name);
  if (!existsSync(file('server.key'))) {
    const { ca, server } = localhostCertificates();
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    writeFileSync(file('ca.crt'), ca.cert);
    writeFileSync(file('server.crt'), server.cert);
    writeFileSync(
      file('jwt-key.json'),
      JSON.stringify({ ...(await exportJWK(privateKey)), kid: 'example-1' }),
      {
        mode: 0o600,
      },
    );
    // written last: its presence says the rest is there
    writeFileSync(file('server.key'), server.key, { mode: 0o600 });
  }
  const privateJwk = JSON.parse(readFileSync(file('jwt-key.json'), 'utf8')) as JWK;
  const { d: _d, ...jwk } = privateJwk;
  return {
    tls: { key: readFileSync(file('server.key')), cert: readFileSync(file('server.crt')) },
    caFile: file('ca.crt'),
    jwk: { ...jwk, alg: 'ES256', use: 'sig' },
    privateJwk,
  };
}

/** The secure mode's setup, its material under `<dataDir>/tls`. */
export async function exampleSecurity(dataDir: string): Promise<ExampleSecurity> {
  const m = await material(path.join(dataDir, 'tls'));
  const privateKey = await importJWK(m.privateJwk, 'ES256');
  const auth = authentication({
    // the service verifies with the key set it serves (a static copy: no fetch of its own URL)
    jwt: { jwks: { keys: [m.jwk] }, issuer: EXAMPLE_ISSUER, audience: EXAMPLE_AUDIENCE },
    required: false,
  });
  return {
    tls: m.tls,
    caFile: m.caFile,
    auth,
    jwks: { keys: [m.jwk] },
    secure: (resources) =>
      resources.map((def) =>
        def.name === 'jobs'
          ? secured(def, { default: 'authenticated' })
          : secured(def, { default: readsOpenWritesForEditors }),
      ),
    token: (role) =>
      new SignJWT({ roles: [role] })
        .setProtectedHeader({ alg: 'ES256', kid: m.jwk.kid! })
        .setSubject(`demo-${role}`)
        .setIssuer(EXAMPLE_ISSUER)
        .setAudience(EXAMPLE_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
  };
}

/** What `SVC_SECURE=1 npm start` prints: the tokens, and curl lines that use them. */
export async function secureBanner(security: ExampleSecurity, base: string, pid: number): Promise<string> {
  const viewer = await security.token('viewer');
  const editor = await security.token('editor');
  const scraper = await security.token('metrics');
  const curl = `curl -s --cacert ${security.caFile}`;
  const json = "-H 'Content-Type: application/json'";
  return [
    `Photo library (secure mode) listening on ${base}, HTTPS and HTTP/2 (pid ${pid}; Ctrl-C or \`kill ${pid}\` stops it).`,
    `Its certificate is signed by the CA in ${security.caFile}; its key set is ${base}/.well-known/jwks.json.`,
    '',
    'Demo tokens (one hour):',
    `  viewer:  ${viewer}`,
    `  editor:  ${editor}`,
    `  metrics: ${scraper}   (the scraper's credential for /metrics)`,
    '',
    'Reads are open; writes need the editor role, the jobs resource any token:',
    `  ${curl} --http2 ${base}/photos/1`,
    `  ${curl} -X POST ${json} -d '{"title":"Harbour at dusk","format":"JPEG","tags":["bay"]}' ${base}/photos   # 401`,
    `  ${curl} -X POST ${json} -H 'Authorization: Bearer ${viewer}' -d '{"title":"Harbour at dusk","format":"JPEG","tags":["bay"]}' ${base}/photos   # 403`,
    `  ${curl} -X POST ${json} -H 'Authorization: Bearer ${editor}' -d '{"title":"Harbour at dusk","format":"JPEG","tags":["bay"]}' ${base}/photos   # 201`,
    `  ${curl} -H 'Authorization: Bearer ${viewer}' '${base}/jobs?q=byState&state=COMPLETED'`,
    `  ${curl} -H 'Authorization: Bearer ${scraper}' ${base}/metrics | head -3`,
    `Probes stay open: ${base}/health/live and ${base}/health/ready.`,
    '',
  ].join('\n');
}
