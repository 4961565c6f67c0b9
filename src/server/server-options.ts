import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonCodec } from '../data';
import { BASELINE_PROTOCOL_VERSION, buildErrorResponse } from '../protocol';
import { HttpClientError } from '../resources/errors';
import { type SvcPluginOptions, resolveSvcOptions, svcFrameworkErrors } from './fastify-plugin';
import { SvcIncomingMessage } from './incoming-headers';
import { svcQuerystringParser } from './query-string';

/**
 * The fastify server options a Svc service should start with (`fastify(svcServerOptions())`): fastify's
 * defaults hold a connection that sent headers and part of a body open indefinitely (`requestTimeout: 0`),
 * which lets a few slow clients tie up a server; and the errors Node's HTTP parser and fastify raise before
 * any plugin runs (malformed framing, an unknown method such as `BREW`, headers over 16 KiB, a bad
 * percent-escape in the path) would be answered with fastify's generic body, without the protocol headers.
 * Here they are answered as `ErrorResponse`s like every other error.
 *
 * ```ts
 * const app = fastify({ ...svcServerOptions({ requestTimeout: 10_000 }), logger: true });
 * await app.register(svcPlugin, { resources });
 * ```
 */

/** Options of {@link svcServerOptions}: the timeouts, plus the plugin's header and error options. */
export interface SvcServerOptions extends Omit<SvcPluginOptions, 'resources'> {
  /**
   * Milliseconds a client has to send a whole request, headers and body; a request still incomplete then
   * is answered 408 and its connection closed. Default 30 000 (a 1 MiB body at 35 KiB/s). 0 turns it off.
   */
  readonly requestTimeout?: number;
  /** Milliseconds a client has to send the request headers (Node's `headersTimeout`). Default 10 000. */
  readonly headersTimeout?: number;
  /** Milliseconds a connection may stay without any traffic before it is closed. Default 60 000. */
  readonly connectionTimeout?: number;
  /** Milliseconds an idle keep-alive connection is kept. Default 5 000 (Node's). */
  readonly keepAliveTimeout?: number;
  /**
   * How often Node looks for requests past their timeouts, in milliseconds. Default 1 000: Node's 30 000
   * would let a stalled request hold its connection up to 30 s past its timeout.
   */
  readonly connectionsCheckingInterval?: number;
}

/** What {@link svcServerOptions} gives: a part of fastify's server options. */
export interface SvcFastifyServerOptions {
  readonly requestTimeout: number;
  readonly connectionTimeout: number;
  readonly keepAliveTimeout: number;
  readonly http: {
    readonly headersTimeout: number;
    readonly connectionsCheckingInterval: number;
    readonly requireHostHeader: boolean;
    /** Node's request class with a quicker `headers` (src/server/incoming-headers.ts). */
    readonly IncomingMessage: typeof IncomingMessage;
  };
  /**
   * `querystringParser`: fastify's own (fast-querystring's) with a shortcut for query keys sent again and
   * again (src/server/query-string.ts), the same objects. A `routerOptions` given after these replaces
   * them whole; a parser of one's own goes there (fastify 5's place for it, not the top level).
   */
  readonly routerOptions: {
    readonly querystringParser: (input: string) => Record<string, string | string[]>;
  };
  readonly frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => void;
  readonly clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => void;
}

/** The defaults of {@link SvcServerOptions}, in one place. */
export const DEFAULT_SERVER_TIMEOUTS = Object.freeze({
  requestTimeout: 30_000,
  headersTimeout: 10_000,
  connectionTimeout: 60_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
});

const TIMEOUTS = Object.keys(DEFAULT_SERVER_TIMEOUTS) as Array<keyof typeof DEFAULT_SERVER_TIMEOUTS>;

/**
 * fastify server options with request and connection timeouts and protocol-style answers to the errors
 * raised before routing. Spread them into `fastify(...)`; options given after them win.
 * @throws SvcPluginOptionsError for a bad header or error option; TypeError for a bad timeout
 */
export function svcServerOptions(options: SvcServerOptions = {}): SvcFastifyServerOptions {
  const t: Record<(typeof TIMEOUTS)[number], number> = { ...DEFAULT_SERVER_TIMEOUTS };
  const plugin: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if ((TIMEOUTS as string[]).includes(name)) {
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        throw new TypeError(`svcServerOptions: ${name} must be a non-negative integer of milliseconds`);
      t[name as (typeof TIMEOUTS)[number]] = value as number;
    } else plugin[name] = value;
  }
  if (t.connectionsCheckingInterval === 0)
    throw new TypeError('svcServerOptions: connectionsCheckingInterval must be positive');
  // Node refuses a headers timeout longer than the request timeout
  const headersTimeout =
    t.requestTimeout === 0 ? t.headersTimeout : Math.min(t.headersTimeout, t.requestTimeout);
  const pluginOptions = plugin as Omit<SvcPluginOptions, 'resources'>;
  return Object.freeze({
    requestTimeout: t.requestTimeout,
    connectionTimeout: t.connectionTimeout,
    keepAliveTimeout: t.keepAliveTimeout,
    // svcPlugin refuses an HTTP/1.1 request without Host itself, as an ErrorResponse (Node's 400 has no body)
    http: Object.freeze({
      headersTimeout,
      connectionsCheckingInterval: t.connectionsCheckingInterval,
      requireHostHeader: false,
      IncomingMessage: SvcIncomingMessage,
    }),
    // fastify's query parser with a shortcut for keys it is sent again and again (query-string.ts)
    routerOptions: Object.freeze({ querystringParser: svcQuerystringParser }),
    frameworkErrors: svcFrameworkErrors(pluginOptions),
    clientErrorHandler: svcClientErrorHandler(pluginOptions),
  });
}

/** The error for a `clientError` Node raised, by its code. */
function clientErrorOf(err: Error & { code?: string; reason?: string }): HttpClientError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpClientError(
        'SVC_ERR_PROTOCOL_REQUEST_TIMEOUT',
        'The request did not arrive in full in time',
        err,
      );
    case 'HPE_HEADER_OVERFLOW':
      return new HttpClientError(
        'SVC_ERR_PROTOCOL_HEADERS_TOO_LARGE',
        'The request headers are too large',
        err,
      );
    case 'HPE_INVALID_METHOD':
      return new HttpClientError('SVC_ERR_PROTOCOL_MALFORMED_HTTP', 'Unknown HTTP method', err);
    default: {
      // llhttp's reason ("Invalid header value char") names the problem without echoing request bytes
      const reason = typeof err.reason === 'string' && err.reason !== '' ? `: ${err.reason}` : '';
      return new HttpClientError('SVC_ERR_PROTOCOL_MALFORMED_HTTP', `Malformed HTTP request${reason}`, err);
    }
  }
}

/**
 * A handler for fastify's `clientErrorHandler` option (Node's `clientError` event): answers what Node's
 * parser refused, and requests past their timeout, with an `ErrorResponse` in JSON and the protocol headers
 * (version 1.0.0, the request's own being unread), then closes the connection. {@link svcServerOptions}
 * sets it.
 */
export function svcClientErrorHandler(
  options: Omit<SvcPluginOptions, 'resources'> = {},
): (err: Error & { code?: string }, socket: Socket) => void {
  const resolved = resolveSvcOptions({ ...options, resources: [] });
  const names = resolved.headers.names;
  const json = new JsonCodec();
  const errors = {
    format: resolved.errorResponseFormat,
    mode: resolved.mode,
    internalErrorMessage: resolved.internalErrorMessage,
  };
  return (err, socket) => {
    // a reset connection has nobody to answer; a destroyed one cannot be written
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const built = buildErrorResponse(clientErrorOf(err), errors);
      const body = built.body === undefined ? '' : json.mapToString(built.body);
      const head = [
        `HTTP/1.1 ${built.status} ${STATUS_TEXT[built.status] ?? 'Error'}`,
        `${names.protocolVersion}: ${BASELINE_PROTOCOL_VERSION.toString()}`,
        ...(built.errorHeader ? [`${names.errorResponse}: true`] : []),
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    }
    // end() flushes the answer first; destroy whatever is left once it has
    socket.once('finish', () => socket.destroy());
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
}

const STATUS_TEXT: { readonly [status: number]: string } = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
