import http2 from 'node:http2';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type SvcHttpServerOptions, svcRequestListener } from '../server/node-http';
import { answerExpectations, answerHalfClosedRequests } from '../server/http-adapter';
import type { FastifyHttp2SecureOptions } from 'fastify';
import { DEFAULT_SERVER_TIMEOUTS, type SvcServerOptions, svcServerOptions } from '../server/server-options';
import { SecurityOptionsError } from './errors';
import { SvcIncomingMessage } from '../server/incoming-headers';

/**
 * TLS and HTTP/2 for both adapters. With `http2` (the default) the server speaks HTTP/2 to clients that
 * offer it in ALPN and HTTP/1.1 to the rest (`allowHTTP1`); either way every request goes through the
 * same pipeline, and attachments stream with demand (an HTTP/2 stream is a Node stream with flow control,
 * as an HTTP/1.1 body is).
 *
 * fastify:    `fastify(svcSecureServerOptions(tls))` (`svcHttpsServerOptions(tls)` for HTTP/1.1 only)
 * standalone: `createSvcSecureServer({ resources }, tls)`
 */

type Pem = string | Buffer;

/** The server's certificate, and the CAs trusted for client certificates (mTLS). */
export interface SvcTlsOptions {
  readonly key: Pem;
  readonly cert: Pem;
  /**
   * CAs whose client certificates are trusted (mTLS). With them the server asks every client for a
   * certificate but lets the handshake complete without one, so that authentication answers a missing or
   * untrusted one with a 401 ErrorResponse (src/security/mtls.ts). Default: no client certificates.
   */
  readonly ca?: Pem | readonly Pem[];
  /** The standalone server: HTTP/2 with ALPN fallback to HTTP/1.1 (`true`, default), or HTTPS over HTTP/1.1 only. */
  readonly http2?: boolean;
}

function secureContextOptions(tls: SvcTlsOptions): https.ServerOptions {
  if (tls.key === undefined || tls.cert === undefined)
    throw new SecurityOptionsError('tls', "needs the server's 'key' and 'cert' (PEM)");
  const ca: Pem[] | undefined =
    tls.ca === undefined
      ? undefined
      : typeof tls.ca === 'string' || Buffer.isBuffer(tls.ca)
        ? [tls.ca]
        : [...tls.ca];
  return {
    key: tls.key,
    cert: tls.cert,
    ...(ca === undefined ? {} : { ca, requestCert: true, rejectUnauthorized: false }),
    // HTTP/2 requires TLS 1.2 at least (RFC 9113 §9.2)
    minVersion: 'TLSv1.2',
  };
}

/**
 * fastify's server options over TLS, with `svcServerOptions`' own (timeouts, the errors raised before any
 * plugin runs): HTTP/2 with ALPN fallback to HTTP/1.1 (`{ http2: true, https: { allowHTTP1: true } }`).
 *
 * ```ts
 * const app = fastify(svcSecureServerOptions({ key, cert }));
 * ```
 */
export function svcSecureServerOptions(
  tls: SvcTlsOptions,
  svc: SvcServerOptions = {},
): FastifyHttp2SecureOptions<http2.Http2SecureServer> {
  const context = secureContextOptions(tls);
  // `http` holds node:http's own server options, which an HTTP/2 server does not take
  const { http: _http, frameworkErrors, ...rest } = svcServerOptions(svc);
  return {
    ...rest,
    frameworkErrors:
      frameworkErrors as unknown as FastifyHttp2SecureOptions<http2.Http2SecureServer>['frameworkErrors'],
    http2: true,
    https: { ...context, allowHTTP1: true },
  };
}

/** The same for HTTPS over HTTP/1.1 only: `{ https, ...svcServerOptions() }`. */
export function svcHttpsServerOptions(
  tls: SvcTlsOptions,
  svc: SvcServerOptions = {},
): ReturnType<typeof svcServerOptions> & { readonly https: https.ServerOptions } {
  // Node's request with a quicker `headers` over HTTPS too (src/server/incoming-headers.ts)
  return {
    ...svcServerOptions(svc),
    https: { ...secureContextOptions(tls), IncomingMessage: SvcIncomingMessage },
  };
}

/**
 * The standalone server (`createSvcServer`) over TLS: HTTP/2 with HTTP/1.1 fallback, or HTTPS only
 * (`http2: false`). Not listening yet (`listenOn(server)` works on it).
 */
export function createSvcSecureServer(
  options: SvcHttpServerOptions,
  tls: SvcTlsOptions,
): https.Server | http2.Http2SecureServer {
  const listener = svcRequestListener(options);
  const context = secureContextOptions(tls);
  const log = options.logger ?? { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
  if (tls.http2 === false) {
    const server = https.createServer(
      {
        ...context,
        requestTimeout: DEFAULT_SERVER_TIMEOUTS.requestTimeout,
        headersTimeout: DEFAULT_SERVER_TIMEOUTS.headersTimeout,
        keepAliveTimeout: DEFAULT_SERVER_TIMEOUTS.keepAliveTimeout,
        requireHostHeader: false,
        IncomingMessage: SvcIncomingMessage,
      },
      listener,
    );
    server.setTimeout(DEFAULT_SERVER_TIMEOUTS.connectionTimeout);
    server.on('timeout', (socket: Socket) => socket.destroy());
    answerExpectations(server, listener.pipeline, log);
    answerHalfClosedRequests(server);
    return server;
  }
  // the compatibility API's request and response fit what the listener uses of node:http's (url, method,
  // headers, the body stream; setHeader, writeHead, end, 'close')
  const server = http2.createSecureServer(
    { ...context, allowHTTP1: true } as http2.SecureServerOptions,
    listener as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
  );
  server.setTimeout(DEFAULT_SERVER_TIMEOUTS.connectionTimeout);
  answerExpectations(server as never, listener.pipeline, log);
  // a stream the client resets closes at once (its handler cancelled, its attachments aborted)
  answerHalfClosedRequests(server as never);
  return server;
}

/** The protocol a request came over: `h2` or `http/1.1`. */
export function httpVersionOf(req: IncomingMessage): 'h2' | 'http/1.1' {
  return req.httpVersionMajor === 2 ? 'h2' : 'http/1.1';
}
