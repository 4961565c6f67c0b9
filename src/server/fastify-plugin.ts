import { Readable } from 'node:stream';
import { pacedBody, pacedBytes } from './paced-body';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { CodecRegistry, createDefaultCodecRegistry } from '../data';
import {
  DEFAULT_HEADER_PREFIX,
  DEFAULT_INTERNAL_ERROR_MESSAGE,
  type ErrorMode,
  ErrorResponseFormat,
  ProtocolHeaders,
  RESTLI_HEADER_PREFIX,
  ServiceError,
  rawPathOf,
  rawQueryOf,
} from '../protocol';
import type { ResourceDefinition } from '../resources/definition';
import { HttpClientError, RequestBodyError, SvcPluginOptionsError } from '../resources/errors';
import { DEFAULT_MAX_BATCH_SIZE } from '../resources/batch-limit';
import { registerResources } from '../resources/registration';
import type { EncodedResponse, RequestFilter, ResourceRequest, SvcLogger } from '../resources/request';
import { isSvcLogger, requestLoggers } from './request-logger';
import { ResourcePipeline } from './pipeline';
import { type RequestObserver, composeRequestObservers } from '../resources/observer';
import { type ValidationFilterOptions, validationFilter } from './validation-filter';
import { tunnelingFilter } from './tunneling-filter';
import { type CompressionOptions, type ResolvedCompression, compressionOption } from './compression';
import { type MuxOptions, type ResolvedMux, muxOption } from './mux';
import {
  EMPTY_ATTRIBUTES,
  setHeaders,
  answerExpectations,
  answerHalfClosedRequests,
  isPromise,
} from './http-adapter';
import { optionsAnswerOf } from '../resources/options-answers';
import type { DocumentationOptions } from '../resources/documentation-routes';
import { addFastifyDocumentationRoutes } from './documentation-adapters';
import { sendDirect } from './fastify-direct-send';
import { takeOverConnectionTimeout } from './idle-connections';
import { knowHeaderNames } from './incoming-headers';

/**
 * The resource server as a fastify plugin, so that a service keeps fastify's ecosystem (pino logging,
 * hooks, CORS, rate limits...):
 *
 * ```ts
 * const app = fastify({ logger: true });
 * await app.register(svcPlugin, { prefix: '/api', resources: [photos, albums] });
 * await app.listen({ port: 8080, host: '127.0.0.1' });
 * ```
 *
 * The plugin is encapsulated on purpose (no `fastify-plugin` skip-override): its raw-body content-type
 * parser, its not-found handler and its error handler apply below its prefix only, and fastify's
 * `prefix` option works only for encapsulated plugins. Each root resource gets two routes (`/<name>` and
 * `/<name>/*`, for GET, POST, PUT, DELETE and PATCH; HEAD answers like GET); any other path below the
 * prefix reaches the not-found handler, which answers the protocol's 404 ErrorResponse.
 */

/** Options of {@link svcPlugin}; every default is in {@link resolveSvcOptions}. */
export interface SvcPluginOptions {
  /** The resources to serve (validated when the plugin is registered). */
  readonly resources: readonly ResourceDefinition[];
  /** Prefix of the protocol headers written and read. Default `X-Svc`. */
  readonly headerPrefix?: string;
  /**
   * Also read protocol headers under other prefixes: `true` reads `X-RestLi-*` (Rest.li clients), or give
   * the prefixes; `false` reads `headerPrefix` only. Each response names its protocol headers in the family
   * its request used (a request with `X-RestLi-Protocol-Version` gets `X-RestLi-Id`,
   * `X-RestLi-Error-Response` and `X-RestLi-Protocol-Version` back); a request with neither family gets
   * `headerPrefix`'s. Default true, so that Rest.li clients work against a server as it comes (issue 26).
   */
  readonly acceptLegacyHeaderPrefix?: boolean | readonly string[];
  /** `production` (default) hides stack traces and internal messages; `development` shows them. */
  readonly mode?: ErrorMode;
  /** Which parts error bodies show. Default `ErrorResponseFormat.FULL`. */
  readonly errorResponseFormat?: ErrorResponseFormat;
  /** Message of a 500 from an unexpected error in production. Default `INTERNAL SERVER ERROR`. */
  readonly internalErrorMessage?: string;
  /**
   * The validation filter (validation-filter.ts), on by default so that no request can store data that later
   * reads cannot answer: request bodies (create, update, their batch forms, and the patched result of partial
   * updates) answer 422 naming every failing path, parameters and complex keys 400. `false` turns it off for
   * every resource that does not ask for it itself (`validation: true` on the resource); options tune it,
   * e.g. `{ outputs: true }` also checks what handlers return (500 naming the path), which is on by default in
   * `development` mode. Default `true`.
   */
  readonly validation?: boolean | ValidationFilterOptions;
  /** Server filters, in order (tunneling, attachments...); the validation filter, if on, comes after them. */
  readonly filters?: readonly RequestFilter[];
  /** Codecs for request and response bodies. Default JSON and PSON (`createDefaultCodecRegistry()`). */
  readonly codecs?: CodecRegistry;
  /** Largest request body accepted, in bytes (413 above). Default 1 MiB (fastify's). */
  readonly maxBodyBytes?: number;
  /**
   * Most items one batch request may carry: ids of batch_get, batch_delete, batch_update and
   * batch_partial_update, elements of batch_create, criteria of a batch finder. A larger batch is a 400
   * (`The request batch size: N is larger than the allowed max batch size: M for method: batch_get`),
   * refused before any item is bound. A method's own `maxBatchSize` wins. Default 1 000; `Infinity` turns
   * the server-wide limit off (Rest.li leaves it to each method).
   */
  readonly maxBatchSize?: number;
  /**
   * Milliseconds a handler may take (from its call until its promise or Observable settles) before the
   * request is answered 504 and `ctx.signal` aborts, unsubscribing the handler's Observables; a resource's
   * own `timeout` wins. Default: none.
   */
  readonly timeout?: number;
  /**
   * Watchers of every request, in order (metrics, traces, access logs and request ids from
   * `src/runtime/`; observer.ts says what they see). Default none, which costs nothing.
   */
  readonly observers?: readonly RequestObserver[];
  /**
   * Where the server's own lines go (unexpected errors, 5xx; rejected requests at info) and what handlers
   * get as `ctx.log`; each request's lines carry its id as `reqId` when an observer keeps ids
   * (`requestIds`) and the logger binds (pino's `child`, made on a request's first line).
   * `svcPlugin` default: fastify's `request.log`. Giving the plugin the logger lets fastify run without one,
   * which saves fastify's per-request work for its logger (a child logger, two response listeners: ~4.4k
   * instructions of a get by id; request-logger.ts). `createSvcServer` default: nothing is logged.
   */
  readonly logger?: SvcLogger;
  /**
   * `GET /openapi.json` and `GET /docs` (src/openapi/README.md): their paths, title, guard; `false` serves
   * neither. Default: both, at those paths.
   */
  readonly openapi?: DocumentationOptions | false;
  /**
   * Response compression per `Accept-Encoding` (gzip, deflate, br) above a threshold, and compressed request
   * bodies inflated (bounded by `maxBodyBytes`): compression.ts. Default on, threshold 1024 bytes; false: off.
   */
  readonly compression?: CompressionOptions | boolean;
  /**
   * `POST /mux`: multiplexed requests as the reference's multiplexer answers them (mux.ts; limits, the
   * concurrency cap, allowed individual headers). Default on (the reference always serves it), at most 20
   * requests per envelope, 8 at once; false: off (`/mux` is then an unknown resource, 404).
   */
  readonly mux?: MuxOptions | boolean;
}

/** {@link SvcPluginOptions} with every default applied. */
export interface ResolvedSvcOptions {
  readonly resources: readonly ResourceDefinition[];
  readonly headers: ProtocolHeaders;
  readonly mode: ErrorMode;
  readonly errorResponseFormat: ErrorResponseFormat;
  readonly internalErrorMessage: string;
  readonly filters: readonly RequestFilter[];
  /** The validation filter's options, or false when the server does not validate (resources may still ask). */
  readonly validation: ValidationFilterOptions | false;
  readonly codecs: CodecRegistry;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly timeout: number | undefined;
  readonly observers: readonly RequestObserver[];
  /** The server's own logger, when given (see {@link SvcPluginOptions.logger}). */
  readonly logger: SvcLogger | undefined;
  /** Response compression and request inflating (compression.ts); undefined when off. */
  readonly compression: ResolvedCompression | undefined;
  /** The multiplexer (mux.ts); undefined when off. */
  readonly mux: ResolvedMux | undefined;
}

/** The default largest request body: 1 MiB, as fastify's `bodyLimit`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const KNOWN_OPTIONS = new Set([
  'resources',
  'headerPrefix',
  'acceptLegacyHeaderPrefix',
  'mode',
  'errorResponseFormat',
  'internalErrorMessage',
  'validation',
  'filters',
  'codecs',
  'maxBodyBytes',
  'maxBatchSize',
  'timeout',
  'observers',
  'logger',
  'openapi',
  'compression',
  'mux',
  // fastify's own register options
  'prefix',
  'logLevel',
  'logSerializers',
]);

/**
 * Checks the options once and fills in every default (the one place defaults live).
 * @throws SvcPluginOptionsError naming the option
 */
export function resolveSvcOptions(options: SvcPluginOptions): ResolvedSvcOptions {
  if (typeof options !== 'object' || options === null)
    throw new SvcPluginOptionsError('options', 'must be an object');
  for (const name of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(name)) throw new SvcPluginOptionsError(name, 'unknown option');
  }
  if (!Array.isArray(options.resources))
    throw new SvcPluginOptionsError('resources', 'must be a list of resource definitions');
  const headerPrefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  const legacy = options.acceptLegacyHeaderPrefix ?? true;
  let acceptPrefixes: readonly string[];
  if (legacy === true) acceptPrefixes = [RESTLI_HEADER_PREFIX];
  else if (legacy === false) acceptPrefixes = [];
  else if (Array.isArray(legacy) && legacy.every((p) => typeof p === 'string')) acceptPrefixes = legacy;
  else throw new SvcPluginOptionsError('acceptLegacyHeaderPrefix', 'must be a boolean or a list of prefixes');
  let headers: ProtocolHeaders;
  try {
    headers = new ProtocolHeaders({ headerPrefix });
  } catch (err) {
    throw new SvcPluginOptionsError('headerPrefix', (err as Error).message);
  }
  try {
    headers = new ProtocolHeaders({ headerPrefix, acceptPrefixes });
  } catch (err) {
    throw new SvcPluginOptionsError('acceptLegacyHeaderPrefix', (err as Error).message);
  }
  const mode = options.mode ?? 'production';
  if (mode !== 'production' && mode !== 'development')
    throw new SvcPluginOptionsError('mode', "must be 'production' or 'development'");
  const format = options.errorResponseFormat ?? ErrorResponseFormat.FULL;
  if (!(format instanceof ErrorResponseFormat))
    throw new SvcPluginOptionsError('errorResponseFormat', 'must be an ErrorResponseFormat');
  const internalErrorMessage = options.internalErrorMessage ?? DEFAULT_INTERNAL_ERROR_MESSAGE;
  if (typeof internalErrorMessage !== 'string')
    throw new SvcPluginOptionsError('internalErrorMessage', 'must be a string');
  const filters: RequestFilter[] = [];
  for (const f of options.filters ?? []) {
    if (typeof f !== 'object' || f === null || typeof f.name !== 'string')
      throw new SvcPluginOptionsError('filters', 'each filter needs a name');
    filters.push(f);
  }
  const validationOption = options.validation ?? true;
  if (
    typeof validationOption !== 'boolean' &&
    (typeof validationOption !== 'object' || validationOption === null || Array.isArray(validationOption))
  ) {
    throw new SvcPluginOptionsError('validation', 'must be a boolean or validation filter options');
  }
  // outputs are checked in development mode unless the options say otherwise
  const outputsByMode = { outputs: mode === 'development' };
  const validation: ValidationFilterOptions | false =
    validationOption === false
      ? false
      : validationOption === true
        ? outputsByMode
        : { ...outputsByMode, ...validationOption };
  if (validation !== false) {
    try {
      validationFilter(validation);
    } catch (err) {
      throw new SvcPluginOptionsError('validation', (err as Error).message);
    }
  }
  const codecs = options.codecs ?? createDefaultCodecRegistry();
  if (!(codecs instanceof CodecRegistry) || codecs.contentTypes().length === 0) {
    throw new SvcPluginOptionsError('codecs', 'must be a CodecRegistry with at least one codec');
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new SvcPluginOptionsError('maxBodyBytes', 'must be a positive integer');
  const maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  if (maxBatchSize !== Infinity && (!Number.isSafeInteger(maxBatchSize) || maxBatchSize <= 0))
    throw new SvcPluginOptionsError('maxBatchSize', 'must be a positive integer (or Infinity)');
  const timeout = options.timeout;
  if (
    timeout !== undefined &&
    (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 2 ** 31 - 1)
  )
    throw new SvcPluginOptionsError('timeout', 'must be a positive number of milliseconds');
  const observers = options.observers ?? [];
  if (
    !Array.isArray(observers) ||
    !observers.every((o) => typeof (o as RequestObserver)?.start === 'function')
  )
    throw new SvcPluginOptionsError('observers', 'must be a list of request observers (with a start method)');
  const logger = options.logger;
  if (logger !== undefined && !isSvcLogger(logger))
    throw new SvcPluginOptionsError('logger', 'must be a logger with error, warn, info and debug methods');
  return Object.freeze({
    observers,
    logger,
    timeout,
    resources: options.resources,
    headers,
    mode,
    errorResponseFormat: format,
    internalErrorMessage,
    filters,
    validation,
    codecs,
    maxBodyBytes,
    maxBatchSize,
    compression: compressionOption(options.compression),
    mux: muxOption(options.mux),
  });
}

/**
 * Builds the request pipeline from resolved options: registers (and so validates) every resource. The
 * fastify plugin calls it; tests and other HTTP layers may too.
 * @throws ResourceDefinitionError for a bad resource definition
 */
export function createResourcePipeline(options: ResolvedSvcOptions): ResourcePipeline {
  const roots = registerResources(options.resources, options.filters);
  // the protocol's request headers are matched as constants by the servers' requests (incoming-headers.ts)
  const names = options.headers.names;
  knowHeaderNames([names.protocolVersion, names.method]);
  // a validation filter among the server's own filters replaces the built-in one
  const custom = options.filters.some((f) => f.name === 'validation');
  const onServer = custom
    ? undefined
    : validationFilter(options.validation === false ? {} : options.validation);
  const serverDefault = options.validation !== false;
  const withValidation = new Map(
    [...roots].map(([name, model]) => [name, addValidation(model, onServer, serverDefault)] as const),
  );
  return new ResourcePipeline(withValidation, {
    headers: options.headers,
    codecs: options.codecs,
    errors: {
      format: options.errorResponseFormat,
      mode: options.mode,
      internalErrorMessage: options.internalErrorMessage,
    },
    // tunneled requests are restored before anything else sees them (always on, as in the reference)
    filters: [tunnelingFilter({ maxBodyBytes: options.maxBodyBytes }), ...options.filters],
    maxBodyBytes: options.maxBodyBytes,
    maxBatchSize: options.maxBatchSize,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    observer: composeRequestObservers(options.observers),
    ...(options.compression === undefined ? {} : { compression: options.compression }),
    ...(options.mux === undefined ? {} : { mux: options.mux }),
  });
}

/** Appends the validation filter to each resource that validates: its own choice, else the server's. */
function addValidation<
  M extends {
    validation: boolean | undefined;
    filters: readonly RequestFilter[];
    subresources: ReadonlyMap<string, M>;
  },
>(model: M, filter: RequestFilter | undefined, serverDefault: boolean): M {
  const subresources = new Map(
    [...model.subresources].map(([n, s]) => [n, addValidation(s, filter, serverDefault)] as const),
  );
  const on = model.validation ?? serverDefault;
  const filters = filter !== undefined && on ? [...model.filters, filter] : model.filters;
  return Object.freeze({ ...model, filters, subresources });
}

function svcRequest(
  request: FastifyRequest,
  prefix: string,
  reply?: FastifyReply,
  observed = true,
): ResourceRequest {
  const url = request.url;
  // a request target has no fragment (RFC 9112), but rawPathOf and rawQueryOf cut one off if sent: take the
  // scan for '?' and '#' they make only when there is a '#'
  const q = url.indexOf('?');
  const plain = url.indexOf('#') === -1;
  const rawPath = plain ? (q === -1 ? url : url.slice(0, q)) : rawPathOf(url);
  const method = request.method;
  const body = request.body;
  return {
    // HEAD is answered like GET (fastify drops the body)
    method: method === 'HEAD' ? 'GET' : method,
    url,
    path: prefix === '' ? rawPath : rawPath.startsWith(prefix) ? rawPath.slice(prefix.length) : rawPath,
    query: plain ? (q === -1 ? undefined : url.slice(q + 1)) : rawQueryOf(url),
    headers: request.headers,
    body: body instanceof Uint8Array ? body : undefined,
    bodyStream: body instanceof Readable ? body : undefined,
    attributes: EMPTY_ATTRIBUTES,
    connection: reply?.raw,
    socket: request.raw.socket,
    // where observers put headers of their own (a request id's echo): only when there are observers
    responseHeaders: observed ? {} : undefined,
  };
}

/** A request's logger: the server's own (each request's, request-logger.ts) when given, else fastify's. */
function requestLog(loggers: ReturnType<typeof requestLoggers>, request: FastifyRequest): SvcLogger {
  return loggers === undefined ? request.log : loggers(request.headers);
}

const PASS_THROUGH = (payload: unknown): string => payload as string;
const setReplyHeader = (reply: FastifyReply, name: string, value: string): unknown =>
  reply.header(name, value);

/**
 * Sends an encoded response; says whether its body is a stream (still being written when this returns).
 * `direct`: the route handler's responses may skip `reply.send` when it would add nothing
 * (fastify-direct-send.ts); the error and framework-error handlers' go through fastify, whose error path
 * keeps state of its own around them.
 */
function send(reply: FastifyReply, out: EncodedResponse, request?: ResourceRequest, direct = false): boolean {
  const extra = request?.responseHeaders;
  const body = out.body;
  const paced = out.stream !== undefined || body === undefined ? undefined : pacedBytes(body);
  if (direct && paced === undefined && sendDirect(reply, out, extra)) return false;
  reply.code(out.status);
  // reply.header() per name: reply.headers() makes an array of names per response
  let latin1 = setHeaders(out.headers, reply, setReplyHeader);
  // what observers added (a request id's echo)
  if (extra !== undefined && setHeaders(extra, reply, setReplyHeader)) latin1 = true;
  if (out.stream !== undefined) {
    reply.send(out.stream);
    return true;
  }
  if (paced !== undefined) {
    reply.header('content-length', String(paced.length));
    reply.send(pacedBody(paced));
    return true;
  }
  if (body === undefined) reply.send();
  // a string body is written in one go with the headers, in the body's encoding: Node would then send a
  // header's Latin-1 characters (a raw key in the id header) as UTF-8, so such responses send bytes
  else if (typeof body === 'string' && !latin1) reply.serializer(PASS_THROUGH).send(body);
  else if (typeof body === 'string') reply.send(Buffer.from(body, 'utf8'));
  else reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  return false;
}

/** fastify's own errors (body too large, bad Content-Length...) as the protocol's. */
function fromFastifyError(err: unknown): unknown {
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new RequestBodyError('Request body is too large', 'SVC_ERR_BIND_BODY_TOO_LARGE', { cause: err });
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ServiceError(e.statusCode, typeof e.message === 'string' ? e.message : 'Bad request', {
      cause: err,
    });
  }
  return err;
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/**
 * The resource server plugin: `app.register(svcPlugin, { prefix, resources, ... })`. Options are validated
 * and every resource registered when the plugin loads; a bad one fails `app.ready()` / `listen()` with a
 * {@link SvcPluginOptionsError} or a `ResourceDefinitionError`.
 */
export const svcPlugin: FastifyPluginCallback<SvcPluginOptions> = (
  instance: FastifyInstance,
  options: SvcPluginOptions,
  done: (err?: Error) => void,
) => {
  let pipeline: ResourcePipeline;
  let resolved: ResolvedSvcOptions;
  try {
    resolved = resolveSvcOptions(options);
    pipeline = createResourcePipeline(resolved);
  } catch (err) {
    done(err as Error);
    return;
  }
  const prefix = instance.prefix;
  const observed = resolved.observers.length > 0;
  const loggers = requestLoggers(resolved.logger, resolved.observers);
  const logOf = (request: FastifyRequest): SvcLogger => requestLog(loggers, request);
  // Returns nothing (or a promise of nothing) once the reply is sent: a returned FastifyReply is a thenable,
  // which fastify would await (until the response finishes) and then try to send again (it only warns, but
  // builds an error each time): that cost a third of the throughput (bench/resources.bench.ts)
  const handler = (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> | undefined => {
    const svc = svcRequest(request, prefix, reply, observed);
    // HTTP/1.1 requires Host (RFC 9112 §3.2); svcServerOptions lets such requests through so that they are
    // refused here, in the protocol's form, rather than by Node with an empty 400
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      const error = new HttpClientError(
        'SVC_ERR_PROTOCOL_MALFORMED_HTTP',
        'Malformed HTTP request: an HTTP/1.1 request needs a Host header',
        undefined,
      );
      const out = pipeline.handleError(svc, error, logOf(request));
      if (isPromise(out))
        return out.then((r) => {
          send(reply, r, svc);
          return undefined;
        });
      send(reply, out, svc);
      return undefined;
    }
    // Node's header names are lower case; headers a hook set (`request.headers = ...`) are merged into a copy
    const out = pipeline.handle(svc, logOf(request), svc.headers === request.raw.headers);
    if (isPromise(out)) {
      // a streamed body is still being written when this promise settles: fastify would take the
      // undefined for an empty reply and cut the stream off, so it gets the reply to wait on instead
      return out.then((r) => (send(reply, r, svc, true) ? reply : undefined));
    }
    send(reply, out, svc, true);
    return undefined;
  };

  // bodies stay raw bytes: our codecs decode them (exact longs, PSON), after routing, only when needed
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: resolved.maxBodyBytes },
    (_req, body, parsed) => {
      parsed(null, body);
    },
  );
  // multipart/related bodies stream: attachments are read as they arrive, never buffered (the buffering
  // parser above cost 3-6x the throughput of a raw stream and a full GC every ~30 MB; src/streams/README.md)
  instance.addContentTypeParser('multipart/related', (_req, payload, parsed) => {
    parsed(null, payload);
  });
  for (const [name, root] of pipeline.roots) {
    for (const url of [`/${name}`, `/${name}/*`]) instance.route({ method: [...HTTP_METHODS], url, handler });
    // OPTIONS /<resource>: its interface description, as Rest.li servers answer (src/idl/options-response.ts)
    const describe = (request: FastifyRequest, reply: FastifyReply): unknown => {
      const answer = optionsAnswerOf(root.definition);
      if (answer === undefined) return handler(request, reply);
      reply
        .code(answer.status)
        .header('content-type', answer.contentType)
        .serializer(PASS_THROUGH)
        .send(answer.body);
      return undefined;
    };
    // once authentication is configured, a description needs a credential too (src/security/)
    const options = (request: FastifyRequest, reply: FastifyReply): unknown => {
      const refused = pipeline.admit(svcRequest(request, prefix, reply), logOf(request));
      if (refused === undefined) return describe(request, reply);
      return Promise.resolve(refused).then((r) => {
        if (r === undefined) return describe(request, reply);
        send(reply, r);
        return undefined;
      });
    };
    for (const url of [`/${name}`, `/${name}/*`])
      instance.route({ method: 'OPTIONS', url, handler: options });
  }
  // once authentication is configured, the documentation needs a credential too, as OPTIONS does
  addFastifyDocumentationRoutes(
    instance,
    resolved.resources,
    resolved.headers.names.prefix,
    options.openapi,
    (request, reply) => {
      const refused = pipeline.admit(svcRequest(request, prefix, reply), logOf(request));
      if (refused === undefined) return false;
      return Promise.resolve(refused).then((r) => {
        if (r === undefined) return false;
        send(reply, r);
        return true;
      });
    },
  );
  instance.setNotFoundHandler(handler);
  answerExpectations(instance.server, pipeline, instance.log);
  answerHalfClosedRequests(instance.server);
  takeOverConnectionTimeout(instance.server);
  instance.setErrorHandler((err, request, reply) => {
    // fastify asks to close the connection after some of its errors (a body over the limit): HTTP/2 has no
    // Connection header (RFC 9113 §8.2.2), which Node's compatibility response drops with a warning
    if (request.raw.httpVersionMajor >= 2) reply.removeHeader('connection');
    const svc = svcRequest(request, prefix);
    const out = pipeline.handleError(svc, fromFastifyError(err), logOf(request));
    if (isPromise(out)) {
      return out.then((r) => {
        send(reply, r, svc);
      });
    }
    send(reply, out, svc);
    return undefined;
  });
  done();
};

Object.defineProperty(svcPlugin, Symbol.for('fastify.display-name'), { value: 'svc-resources' });

/**
 * A handler for fastify's server-level `frameworkErrors` option, so that the errors fastify raises before
 * any plugin runs (a path with a malformed percent-escape: `FST_ERR_BAD_URL`; a too-long parameter) are
 * answered with an ErrorResponse and the protocol headers too. Give it the same header and error options
 * as the plugin:
 *
 * ```ts
 * const app = fastify({ frameworkErrors: svcFrameworkErrors({ mode: 'production' }) });
 * ```
 */
export function svcFrameworkErrors(
  options: Omit<SvcPluginOptions, 'resources'> = {},
): (error: Error, request: FastifyRequest, reply: FastifyReply) => void {
  const resolved = resolveSvcOptions({ ...options, resources: [] });
  const pipeline = createResourcePipeline(resolved);
  const loggers = requestLoggers(resolved.logger, resolved.observers);
  return (error, request, reply) => {
    const svc = svcRequest(request, '');
    const out = pipeline.handleError(svc, fromFastifyError(error), requestLog(loggers, request));
    if (isPromise(out)) void out.then((r) => send(reply, r, svc));
    else send(reply, out, svc);
  };
}
