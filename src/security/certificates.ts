import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SecurityOptionsError } from './errors';

/**
 * Certificates made on the spot with the `openssl` command (Node's crypto makes keys, not X.509
 * certificates): a certificate authority, server and client certificates it signs. For tests, benches
 * and the example's secure mode (`SVC_SECURE=1 npm start`), never for production, where certificates
 * come from the organisation's CA or ACME.
 */

/** A PEM key and certificate. */
export interface PemPair {
  readonly key: string;
  readonly cert: string;
}

/** Options of {@link issueCertificate}. */
export interface IssueOptions {
  /** Subject common name (a client's identity under mTLS; `localhost` for a server). */
  readonly commonName: string;
  /** Subject organisational units (roles of an mTLS client, by default). */
  readonly organizationalUnits?: readonly string[];
  /** Subject alternative names, e.g. `DNS:localhost`, `IP:127.0.0.1` (servers). */
  readonly altNames?: readonly string[];
  /** Days of validity. Default 2. */
  readonly days?: number;
}

function openssl(args: readonly string[], cwd: string): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0)
    throw new SecurityOptionsError(
      'openssl',
      `openssl ${args[0]} failed: ${r.error?.message ?? r.stderr.trim()} (install Debian's 'openssl' package)`,
    );
}

/** Runs `fn` in a fresh temporary directory, removed afterwards. */
function inTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-certs-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function subjectOf(o: IssueOptions): string {
  const esc = (s: string): string => s.replace(/[/\\=+]/g, (c) => `\\${c}`);
  return [`/CN=${esc(o.commonName)}`, ...(o.organizationalUnits ?? []).map((u) => `/OU=${esc(u)}`)].join('');
}

/** A self-signed certificate authority (P-256). */
export function createCertificateAuthority(commonName = 'Svc test CA', days = 2): PemPair {
  return inTempDir((dir) => {
    openssl(
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        String(days),
        '-subj',
        subjectOf({ commonName }),
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ],
      dir,
    );
    return pemPairIn(dir, 'ca');
  });
}

/** The `<name>.key` and `<name>.crt` that openssl wrote into `dir`. */
function pemPairIn(dir: string, name: string): PemPair {
  return {
    key: readFileSync(path.join(dir, `${name}.key`), 'utf8'),
    cert: readFileSync(path.join(dir, `${name}.crt`), 'utf8'),
  };
}

/** A certificate signed by `ca` (P-256), for a server (`altNames`) or a client. */
export function issueCertificate(ca: PemPair, options: IssueOptions): PemPair {
  return inTempDir((dir) => {
    writeFileSync(path.join(dir, 'ca.key'), ca.key, { mode: 0o600 });
    writeFileSync(path.join(dir, 'ca.crt'), ca.cert);
    const ext = [
      'basicConstraints=CA:FALSE',
      ...(options.altNames !== undefined && options.altNames.length > 0
        ? [`subjectAltName=${options.altNames.join(',')}`]
        : []),
    ];
    writeFileSync(path.join(dir, 'ext.cnf'), `${ext.join('\n')}\n`);
    openssl(
      [
        'req',
        '-new',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'leaf.key',
        '-out',
        'leaf.csr',
        '-subj',
        subjectOf(options),
      ],
      dir,
    );
    openssl(
      [
        'x509',
        '-req',
        '-in',
        'leaf.csr',
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        'leaf.crt',
        '-days',
        String(options.days ?? 2),
        '-extfile',
        'ext.cnf',
      ],
      dir,
    );
    return pemPairIn(dir, 'leaf');
  });
}

/** A CA and a server certificate for `localhost` / 127.0.0.1 / ::1 signed by it. */
export function localhostCertificates(): { readonly ca: PemPair; readonly server: PemPair } {
  const ca = createCertificateAuthority();
  const server = issueCertificate(ca, {
    commonName: 'localhost',
    altNames: ['DNS:localhost', 'IP:127.0.0.1', 'IP:::1'],
  });
  return { ca, server };
}
