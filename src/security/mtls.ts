import type { PeerCertificate } from 'node:tls';
import type { RequestSocket } from '../resources/request';
import { type Identity, stringList } from './identity';

/**
 * Client certificates (mTLS) as a second way to authenticate: the TLS server asks for a certificate
 * (`requestCert`) and checks it against the CAs it trusts (`ca`), but does not break off the handshake
 * for a missing or untrusted one (`rejectUnauthorized: false`, as `svcTlsOptions` sets it), so that the
 * request is answered a 401 ErrorResponse the client can read. Only a certificate the socket reports as
 * `authorized` (verified against those CAs) becomes an identity.
 */

/** Options of mTLS authentication. */
export interface MtlsOptions {
  /**
   * The identity of a trusted certificate; default: subject = the certificate's subject CN, roles = its
   * OU values, no scopes. Return undefined to refuse a trusted certificate all the same.
   */
  readonly identity?: (certificate: PeerCertificate) => Omit<Identity, 'via' | 'claims'> | undefined;
}

/** What a request's socket says of its client certificate. */
export type CertificateOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'untrusted' }
  | { readonly kind: 'trusted'; readonly identity: Identity };

/** The identity of the request's client certificate, if it sent a trusted one. */
export function certificateIdentity(
  socket: RequestSocket | undefined,
  options: MtlsOptions,
): CertificateOutcome {
  if (socket === undefined || typeof socket.getPeerCertificate !== 'function') return { kind: 'none' };
  const cert = socket.getPeerCertificate(false) as PeerCertificate;
  if (cert === null || typeof cert !== 'object' || Object.keys(cert).length === 0) return { kind: 'none' };
  if (socket.authorized !== true) return { kind: 'untrusted' };
  const base = (options.identity ?? defaultCertificateIdentity)(cert);
  if (base === undefined) return { kind: 'untrusted' };
  return {
    kind: 'trusted',
    identity: Object.freeze({
      subject: base.subject,
      via: 'mtls' as const,
      scopes: Object.freeze([...base.scopes]),
      roles: Object.freeze([...base.roles]),
      claims: Object.freeze({
        subject: { ...cert.subject },
        issuer: { ...cert.issuer },
        serialNumber: cert.serialNumber,
        fingerprint256: cert.fingerprint256,
        validTo: cert.valid_to,
      }),
    }),
  };
}

function defaultCertificateIdentity(cert: PeerCertificate): Omit<Identity, 'via' | 'claims'> | undefined {
  const cn = cert.subject?.CN;
  const subject = Array.isArray(cn) ? cn[0] : cn;
  if (typeof subject !== 'string' || subject === '') return undefined;
  return { subject, scopes: [], roles: stringList(cert.subject?.OU) };
}
