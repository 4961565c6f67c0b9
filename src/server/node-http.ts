import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawPathOf, rawQueryOf } from '../protocol';
import { HttpClientError, RequestBodyError, SvcPluginOptionsError } from '../resources/errors';
import {
  EMPTY_ATTRIBUTES,
  beyondAscii,
  ASCII_HEADERS,
  hasNoKeys,
  setHeaders,
  answerExpectations,
  answerHalfClosedRequests,
  isPromise,
} from './http-adapter';
import { optionsAnswerOf } from '../resources/options-answers';
import { responseBodyBytes, responseBodyToWrite } from '../resources/response-facts';
import { nodeDocumentationHandler } from './documentation-adapters';
import {
  type SvcPluginOptions,
  type ResolvedSvcOptions,
  createResourcePipeline,
  resolveSvcOptions,
} from './fastify-plugin';
import {
  type EncodedResponse,
  type ResourceRequest,
  type SvcLogger,
  responseCompleted,
} from '../resources/request';
import type { ResourcePipeline } from './pipeline';
import { DEFAULT_SERVER_TIMEOUTS, svcClientErrorHandler } from './server-options';
import { pacedBody, pacedBytes } from './paced-body';
import { closeIdleConnectionsAfter } from './idle-connections';
import { type SvcCorsOptions, corsHandler } from './cors';
import { requestLoggers } from './request-logger';
import { SvcIncomingMessage } from './incoming-headers';

/**
 * The resource server without fastify: the same pipeline, filters and wire behaviour as `svcPlugin`, run
 * directly on Node's `http.Server`, for services that want nothing else from a web framework (issue 23: a
 * bare `node:http` adapter leaves out fastify's routing, hooks and reply machinery, ~10-20% of a small
 * request's cost; bench/resources.bench.ts measures both).
 *
 * ```ts
 * const server = createSvcServer({ resources: [photos], prefix: '/api' });
 * await listen(server, { port: 8080, host: '127.0.0.1' });
 * ```
 *
 * Or, in an HTTP server of one's own, `svcRequestListener(options)` as its request listener (below the
 * prefix it answers every request: a path that names no resource is the protocol's 404).
 */

/** Options of {@link createSvcServer} and {@link svcRequestListener}: the plugin's, and these. */
export interface SvcHttpServerOptions extends SvcPluginOptions {
  /** Path prefix the resources are served under (`/api`); requests outside it are 404. Default ''. */
  readonly prefix?: string;
  /**
   * Cross-origin calls from web pages (preflights answered 204 before any resource; see cors.ts and
   * src/client/README.md, "CORS"). Default: none (no CORS header is written).
   */
  readonly cors?: SvcCorsOptions;
}

/** A request listener serving resources, with the pipeline it runs. */
export interface SvcRequestListener {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly pipeline: ResourcePipeline;
  readonly options: ResolvedSvcOptions;
}

const SILENT: SvcLogger = Object.freeze({
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
});

/**
 * A request listener for Node's `http.createServer` that serves the resources of `options`. Options are
 * checked and every resource registered here.
 * @throws SvcPluginOptionsError, ResourceDefinitionError
 */
export function svcRequestListener(options: SvcHttpServerOptions): SvcRequestListener {
  if (typeof options !== 'object' || options === null)
    throw new SvcPluginOptionsError('options', 'must be an object');
  const { prefix: prefixOption, cors: corsOption, ...pluginOptions } = options;
  const prefix = prefixOption ?? '';
  if (typeof prefix !== 'string' || (prefix !== '' && (!prefix.startsWith('/') || prefix.endsWith('/'))))
    throw new SvcPluginOptionsError(
      'prefix',
      "must be '' or a path starting with '/' and not ending with it",
    );
  const resolved = resolveSvcOptions(pluginOptions);
  // each request's logger, its id bound when an observer keeps ids (request-logger.ts)
  const loggers = requestLoggers(resolved.logger, resolved.observers);
  const pipeline = createResourcePipeline(resolved);
  const maxBodyBytes = resolved.maxBodyBytes;
  const documentation = nodeDocumentationHandler(
    resolved.resources,
    prefix,
    resolved.headers.names.prefix,
    pluginOptions.openapi,
  );
  const cors = corsOption === undefined ? undefined : corsHandler(corsOption, resolved.headers.names.prefix);
  const observed = resolved.observers.length > 0;

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    // a request target has no fragment (RFC 9112), but rawPathOf and rawQueryOf cut one off if sent: take
    // the scan for '?' and '#' they make only when there is a '#'
    const q = url.indexOf('?');
    const plain = url.indexOf('#') === -1;
    const rawPath = plain ? (q === -1 ? url : url.slice(0, q)) : rawPathOf(url);
    let path = rawPath;
    if (prefix !== '') {
      const inside =
        rawPath.startsWith(prefix) && (rawPath.length === prefix.length || rawPath[prefix.length] === '/');
      path = inside ? rawPath.slice(prefix.length) : `/${'\u0000'}outside`;
    }
    const headers = req.headers;
    const log = loggers === undefined ? SILENT : loggers(headers);
    const request: ResourceRequest = {
      // HEAD is answered like GET (Node writes no body for it)
      method: head ? 'GET' : method,
      url,
      path,
      query: plain ? (q === -1 ? undefined : url.slice(q + 1)) : rawQueryOf(url),
      headers,
      body: undefined,
      attributes: EMPTY_ATTRIBUTES,
      connection: res,
      socket: req.socket,
      // where observers put headers of their own (a request id's echo): only when there are observers
      responseHeaders: observed ? {} : undefined,
    };
    // HTTP/1.1 requires Host (RFC 9112 §3.2): refused in the protocol's form
    if (headers.host === undefined && req.httpVersion === '1.1') {
      const error = new HttpClientError(
        'SVC_ERR_PROTOCOL_MALFORMED_HTTP',
        'Malformed HTTP request: an HTTP/1.1 request needs a Host header',
        undefined,
      );
      refuse(req, res, pipeline, request, log, error);
      return;
    }
    // a preflight is answered before anything else (it carries no credential); other requests of an
    // allowed origin go on with the CORS headers set
    if (cors !== undefined && cors(req, res)) return;
    if (
      documentation.answers(method, path) &&
      serveDocumentation(req, res, path, documentation, pipeline, request, log)
    )
      return;
    if (method === 'OPTIONS' && answerOptions(req, res, path, pipeline, request, log)) return;
    const length = headers['content-length'];
    // an HTTP/2 body needs neither header (its end is the stream's): only a HEADERS frame that ended the
    // stream says there is none (the TLS server of src/security/ runs this listener over HTTP/2)
    const chunked =
      headers['transfer-encoding'] !== undefined ||
      (length === undefined &&
        req.httpVersionMajor === 2 &&
        (req as { stream?: { endAfterHeaders?: boolean } }).stream?.endAfterHeaders !== true);
    if (!chunked && (length === undefined || length === '0')) {
      respond(res, pipeline.handle(request, log, true), request);
      return;
    }
    serveWithBody(req, res, chunked, maxBodyBytes, pipeline, request, log);
  };
  return Object.assign(listener, { pipeline, options: resolved });
}

/**
 * Answers `error` in the protocol's form, before the pipeline ran, and discards the rest of the request (an
 * HTTP/1.1 request without Host, a body too large).
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  pipeline: ResourcePipeline,
  request: ResourceRequest,
  log: SvcLogger,
  error: Error,
): void {
  respond(res, pipeline.handleError(request, error, log), request);
  req.resume();
}

/**
 * The documentation page or document at `path`; false when it is not one of them. Once authentication is
 * configured, the documentation needs a credential too, as OPTIONS does.
 */
function serveDocumentation(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  documentation: ReturnType<typeof nodeDocumentationHandler>,
  pipeline: ResourcePipeline,
  request: ResourceRequest,
  log: SvcLogger,
): boolean {
  return documentation(req, res, path, () => {
    const refused = pipeline.admit(request, log);
    if (refused === undefined) return false;
    return Promise.resolve(refused).then((r) => {
      if (r === undefined) return false;
      write(res, r);
      return true;
    });
  });
}

/** The OPTIONS description of the root resource at `path`; false when the path names none. */
function answerOptions(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  pipeline: ResourcePipeline,
  request: ResourceRequest,
  log: SvcLogger,
): boolean {
  const answer = optionsOf(pipeline, path);
  if (answer === undefined) return false;
  const describe = (): void => {
    res.writeHead(answer.status, {
      'content-type': answer.contentType,
      'content-length': Buffer.byteLength(answer.body),
    });
    res.end(answer.body);
  };
  // once authentication is configured, a description needs a credential too (src/security/)
  const refused = pipeline.admit(request, log);
  if (refused === undefined) describe();
  else void Promise.resolve(refused).then((r) => (r === undefined ? describe() : write(res, r)));
  req.resume();
  return true;
}

/**
 * A request with a body: a `multipart/related` one streamed (attachments are read as they arrive, never
 * buffered), any other read whole up to `maxBodyBytes` (413 beyond it, then the connection closes).
 */
function serveWithBody(
  req: IncomingMessage,
  res: ServerResponse,
  chunked: boolean,
  maxBodyBytes: number,
  pipeline: ResourcePipeline,
  request: ResourceRequest,
  log: SvcLogger,
): void {
  const type = req.headers['content-type'];
  if (type !== undefined && /^\s*multipart\/related\s*(;|$)/i.test(type)) {
    respond(res, pipeline.handle({ ...request, bodyStream: req }, log, true), request);
    return;
  }
  if (!chunked && Number(req.headers['content-length']) > maxBodyBytes) {
    refuseBody(req, res, pipeline, request, log);
    return;
  }
  readBody(req, maxBodyBytes, (error, body) => {
    if (error === 'too large') refuseBody(req, res, pipeline, request, log);
    // a body broken off: the client is gone, there is nobody to answer
    else if (error === 'aborted') res.destroy();
    else respond(res, pipeline.handle({ ...request, body }, log, true), request);
  });
}

/** The OPTIONS answer when the path names a root resource (`/<name>` or `/<name>/...`). */
function optionsOf(pipeline: ResourcePipeline, path: string): ReturnType<typeof optionsAnswerOf> {
  const end = path.indexOf('/', 1);
  const name = end === -1 ? path.slice(1) : path.slice(1, end);
  const root = pipeline.roots.get(name);
  return root === undefined ? undefined : optionsAnswerOf(root.definition);
}

/** Reads a whole body of at most `max` bytes. */
function readBody(
  req: IncomingMessage,
  max: number,
  done: (error: 'too large' | 'aborted' | undefined, body: Uint8Array | undefined) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (error: 'too large' | 'aborted' | undefined, body: Uint8Array | undefined): void => {
    if (finished) return;
    finished = true;
    req.off('data', onData);
    done(error, body);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > max) {
      chunks.length = 0;
      finish('too large', undefined);
      return;
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.once('end', () => {
    finish(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
  req.once('error', () => finish('aborted', undefined));
  req.once('aborted', () => finish('aborted', undefined));
  req.once('close', () => {
    if (!req.complete) finish('aborted', undefined);
  });
}

/** 413, then the connection closes: what is left of the body is discarded as it comes, not read. */
function refuseBody(
  req: IncomingMessage,
  res: ServerResponse,
  pipeline: ResourcePipeline,
  request: ResourceRequest,
  log: SvcLogger,
): void {
  res.shouldKeepAlive = false;
  refuse(
    req,
    res,
    pipeline,
    request,
    log,
    new RequestBodyError('Request body is too large', 'SVC_ERR_BIND_BODY_TOO_LARGE'),
  );
}

function respond(
  res: ServerResponse,
  out: EncodedResponse | Promise<EncodedResponse>,
  request?: ResourceRequest,
): void {
  const extra = request?.responseHeaders;
  if (isPromise(out)) void out.then((r) => write(res, r, extra));
  else write(res, out, extra);
}

// Vary adds to what is set (CORS's `Vary: Origin` and compression's `Vary: Accept-Encoding` both hold)
const setResponseHeader = (res: ServerResponse, name: string, value: string): unknown =>
  name.length === 4 && name.toLowerCase() === 'vary' && res.hasHeader('vary')
    ? res.appendHeader('vary', value)
    : res.setHeader(name, value);

/**
 * The common response (no body, or a text body in ASCII headers, nothing streamed, no `Vary` set before
 * by CORS) written with one `writeHead(status, headers)`: with no header set before, Node then formats the
 * header block straight from that object instead of storing each `setHeader` in its own map first (~0.3 µs
 * less per response for the example's 5 headers, in-process; the wire is the same: same names, order and
 * values, `Content-Length` last). False, having written nothing, for any other response.
 */
function writeAtOnce(
  res: ServerResponse,
  out: EncodedResponse,
  extra: { readonly [name: string]: string } | undefined,
): boolean {
  const { status, headers, body } = out;
  if (body !== undefined && typeof body !== 'string') return false;
  // CORS may have set `Vary: Origin`, which a response's own Vary adds to (setResponseHeader)
  if (res.hasHeader('vary')) return false;
  const length = body === undefined ? '0' : responseBodyBytes(out);
  if (extra !== undefined) {
    for (const name in extra) {
      // a header an observer added, after the response's own (a name both set: the observer's, as
      // setHeader after setHeader would leave it); a value the observer knew ASCII is not tested again
      if (beyondAscii(extra[name]!) || (name.length === 4 && name.toLowerCase() === 'vary')) return false;
    }
  }
  // the pipeline's shared headers (known ASCII) are copied as they are, not in a loop testing each value;
  // the observers' headers come after them (a request id's echo), then the length
  const copy = ASCII_HEADERS.get(headers);
  let all: { [name: string]: string | number };
  if (copy !== undefined) all = copy();
  else {
    all = {};
    for (const name in headers) {
      const value = headers[name]!;
      if (beyondAscii(value)) return false;
      all[name] = value;
    }
  }
  if (extra !== undefined) for (const name in extra) all[name] = extra[name]!;
  all['content-length'] = length;
  res.writeHead(status, all);
  if (body === undefined) res.end();
  // a two-byte text of 1-8k chars as its UTF-8 bytes, made once with its length; any other as text
  // (response-facts.ts)
  else res.end(responseBodyToWrite(out, body));
  return true;
}

/** Writes an encoded response: headers and body in one write when the body is text (one syscall). */
function write(res: ServerResponse, out: EncodedResponse, extra?: { readonly [name: string]: string }): void {
  if (res.destroyed) {
    out.stream?.destroy();
    return;
  }
  const body = out.body;
  const added = extra === undefined || hasNoKeys(extra) ? undefined : extra;
  const paced = out.stream !== undefined || body === undefined ? undefined : pacedBytes(body);
  if (paced === undefined && out.stream === undefined && writeAtOnce(res, out, added)) return;
  let latin1 = setHeaders(out.headers, res, setResponseHeader);
  // what observers added (a request id's echo)
  if (added !== undefined && setHeaders(added, res, setResponseHeader)) latin1 = true;
  if (paced !== undefined) res.setHeader('content-length', paced.length);
  const stream = paced === undefined ? out.stream : pacedBody(paced);
  if (stream !== undefined) {
    res.statusCode = out.status;
    stream.once('error', () => res.destroy());
    res.once('close', () => {
      if (!responseCompleted(res)) stream.destroy();
    });
    stream.pipe(res);
    return;
  }
  if (body === undefined) {
    res.setHeader('content-length', '0');
    res.writeHead(out.status);
    res.end();
  } else if (typeof body === 'string' && !latin1) {
    // a string body is written in one go with the headers, in the body's encoding: Node would then send a
    // header's Latin-1 characters (a raw key in the id header) as UTF-8, so such responses send bytes
    res.setHeader('content-length', Buffer.byteLength(body));
    res.writeHead(out.status);
    res.end(body);
  } else {
    const bytes =
      typeof body === 'string'
        ? Buffer.from(body, 'utf8')
        : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    res.setHeader('content-length', bytes.length);
    res.writeHead(out.status);
    res.end(bytes);
  }
}

/** The connection limits of {@link createSvcServer}; defaults in `DEFAULT_SERVER_TIMEOUTS` (server-options.ts). */
export type SvcServerTimeouts = Partial<Record<keyof typeof DEFAULT_SERVER_TIMEOUTS, number>>;

/**
 * A Node `http.Server` serving the resources of `options` (not listening yet): the request listener of
 * {@link svcRequestListener}, `Expect` and half-close answered as by the plugin, the same connection limits
 * as `svcServerOptions` gives fastify (a request must arrive whole within `requestTimeout`...), and requests
 * Node's parser refuses (malformed, headers too large, too slow) answered with an ErrorResponse before the
 * connection closes (`svcClientErrorHandler`).
 */
export function createSvcServer(options: SvcHttpServerOptions, timeouts: SvcServerTimeouts = {}): Server {
  const listener = svcRequestListener(options);
  const t: Record<keyof typeof DEFAULT_SERVER_TIMEOUTS, number> = { ...DEFAULT_SERVER_TIMEOUTS };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!(name in t)) throw new SvcPluginOptionsError(name, 'unknown server timeout');
    if (!Number.isSafeInteger(value) || value < 0)
      throw new SvcPluginOptionsError(name, 'must be a non-negative integer of milliseconds');
    t[name as keyof typeof t] = value;
  }
  const server = http.createServer(
    {
      requestTimeout: t.requestTimeout,
      // Node refuses a headers timeout longer than the request timeout
      headersTimeout:
        t.requestTimeout === 0 ? t.headersTimeout : Math.min(t.headersTimeout, t.requestTimeout),
      keepAliveTimeout: t.keepAliveTimeout,
      connectionsCheckingInterval: t.connectionsCheckingInterval,
      // refused by the listener itself, as an ErrorResponse (Node's 400 has no body)
      requireHostHeader: false,
      // Node's request, with a quicker `headers` (incoming-headers.ts)
      IncomingMessage: SvcIncomingMessage,
    },
    listener,
  );
  // not server.setTimeout: a timer per socket, re-armed at every request (see idle-connections.ts)
  closeIdleConnectionsAfter(server, t.connectionTimeout);
  const log = listener.options.logger ?? SILENT;
  answerExpectations(server, listener.pipeline, log);
  answerHalfClosedRequests(server);
  const { prefix: _prefix, logger: _logger, cors: _cors, resources: _resources, ...errorOptions } = options;
  server.on('clientError', svcClientErrorHandler(errorOptions));
  return server;
}

/** `server.listen` as a promise of the bound address. */
export function listenOn(
  server: Server,
  options: { port?: number; host?: string } = {},
): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
