import type { NodeReadable } from '../streams/node-readable';
import type { Observable } from 'rxjs';
import type { DataMap } from '../data';
import type { Paging, ProtocolVersion, ResourceMethod } from '../protocol';
import type { MethodModel, ResourceModel } from './registration';
import type { ResponseAttachments } from './response-attachments';

/**
 * The descriptions the request path passes along (docs/architecture.md, "The request path"), and the filter contract.
 *
 * ```
 * ResourceRequest ─request filters─▶ decode ─▶ route ─▶ bind ─invocation filters─▶ invoke ─▶ build
 *            ─response filters─▶ encode ─▶ EncodedResponse
 * ```
 *
 * Descriptions are immutable: a filter returns a new one (spread the old) instead of changing it.
 */

/** Request headers as Node gives them: lower-case names. */
export type RequestHeaders = { readonly [name: string]: string | readonly string[] | undefined };

/** What the server knows of an HTTP request before decoding it. */
export interface ResourceRequest {
  /** HTTP method, upper case. */
  readonly method: string;
  /** The raw request target as received (`/api/photos/1?fields=id`), prefix included; for messages and links. */
  readonly url: string;
  /** The raw (still percent-encoded) path below the plugin's prefix: `/photos/1`. */
  readonly path: string;
  /** The raw query (no `?`), undefined when the target has none. */
  readonly query: string | undefined;
  readonly headers: RequestHeaders;
  /** The body bytes (undefined when there is none). */
  readonly body: Uint8Array | undefined;
  /**
   * The body as a stream, for bodies the HTTP layer does not buffer (`multipart/related`: attachments are
   * read as they arrive); the pipeline decodes it before routing. Undefined otherwise.
   */
  readonly bodyStream?: NodeReadable;
  /**
   * Values filters attach for later stages and handlers (e.g. an attachment reader); keys are symbols or
   * namespaced strings. Handlers read them as `ctx.attributes`.
   */
  readonly attributes: ReadonlyMap<string | symbol, unknown>;
  /**
   * The HTTP response's lifecycle (Node's `ServerResponse` fits), so that a client that goes away aborts
   * `ctx.signal` and cancels the handler's Observables; undefined when the HTTP layer gives none.
   */
  readonly connection?: ConnectionEvents;
  /**
   * The connection's socket as far as filters need it: the peer's address (rate limits of anonymous
   * callers) and, over TLS, the client certificate (mTLS authentication, src/security/). Undefined when
   * the HTTP layer gives none.
   */
  readonly socket?: RequestSocket;
  /**
   * Headers an observer adds to the response (a request id's echo, src/runtime/request-id.ts), which the
   * HTTP adapter writes with the rest; undefined when the adapter takes none. Both adapters give one (the
   * standalone server only when observers are configured): a header set on the raw response before the
   * adapter writes its own made Node merge every header one by one (~9% of a small request's throughput
   * under fastify; the standalone server's single `writeHead` would have been lost the same way).
   */
  readonly responseHeaders?: { [name: string]: string };
}

/** What filters may read of a request's socket (a `net.Socket`, a `tls.TLSSocket` or HTTP/2's proxy of one fits). */
export interface RequestSocket {
  readonly remoteAddress?: string | undefined;
  /** TLS only: true when the client's certificate was verified against the server's trusted CAs. */
  readonly authorized?: boolean;
  /** TLS only: the client's certificate (an empty object when it sent none). */
  getPeerCertificate?(detailed?: boolean): object;
}

/** What the pipeline watches of a response to notice that the client went away. */
export interface ConnectionEvents {
  /** True once the response was written completely (a close then is no disconnect). */
  readonly writableFinished: boolean;
  /** True once the response was ended (`end()` called); see `responseCompleted`. */
  readonly writableEnded?: boolean;
  /** True once the connection closed. */
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Whether the response was written whole (a close then is no disconnect). `writableFinished` alone does not
 * say so over HTTP/2: Node's compatibility response (Node 20) reports it true once its stream closed, also
 * when the client reset the stream before any answer, so the handler of a request the client abandoned
 * was never cancelled. A response is complete only if it was ended too.
 */
export function responseCompleted(connection: ConnectionEvents): boolean {
  return connection.writableFinished && connection.writableEnded !== false;
}

/** A response before encoding: status, headers and the body as data (undefined for no body). */
export interface ResourceResponse {
  readonly status: number;
  /** Header name → value, besides Content-Type and the protocol version header, which encode adds. */
  readonly headers: { readonly [name: string]: string };
  readonly body: DataMap | undefined;
  /** Set when the response is an error response: the error it stands for. */
  readonly error?: unknown;
}

/** A response ready for the socket. */
export interface EncodedResponse {
  readonly status: number;
  readonly headers: { readonly [name: string]: string };
  /**
   * The body: bytes, or for text codecs (JSON) the text itself, which Node writes in one go with the
   * headers (a Buffer body costs a second write; see bench/resources.bench.ts).
   */
  readonly body: Uint8Array | string | undefined;
  /**
   * A body written as a stream instead (a `multipart/related` response with attachments, pulled by the
   * socket); `body` is then undefined.
   */
  readonly stream?: NodeReadable;
}

/** A logger (fastify's pino logger fits). */
export interface SvcLogger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
}

/**
 * What a handler gets as its last argument: the request-scoped context, passed explicitly (never through
 * globals or AsyncLocalStorage). Everything but the response-header sink is read-only.
 */
export interface ResourceContext {
  /** The resource's path of names (`photos`, `photos/comments` for a subresource). */
  readonly resource: string;
  readonly method: ResourceMethod;
  /** The finder or action name, when the method has one. */
  readonly methodName: string | undefined;
  readonly requestUri: string;
  readonly headers: RequestHeaders;
  readonly protocolVersion: ProtocolVersion;
  /**
   * Keys of the path by name: `<resource>Id` (or the resource's `keyName`) for collections, each part's name
   * for associations (partial keys of association finders included), for this resource and its parents.
   */
  readonly pathKeys: ReadonlyMap<string, unknown>;
  /**
   * The parsed query parameters (values as URI elements: strings, lists and maps of strings). Read them only:
   * a request without a query shares one read-only empty map, and a query of strings and lists of strings
   * sent before may be read-only and the same map as an earlier request's with the same query text.
   */
  readonly query: DataMap;
  /** The `fields` projection mask (mask.ts), undefined when the request has none. */
  readonly projection: DataMap | undefined;
  /** The `metadataFields` projection mask. */
  readonly metadataProjection: DataMap | undefined;
  /** The `pagingFields` projection mask. */
  readonly pagingProjection: DataMap | undefined;
  /** `start` and `count` of finders and get_all (defaults 0 and 10); the defaults elsewhere. */
  readonly paging: Paging;
  /** The negotiated response media type (`application/json`, `application/x-pson`). */
  readonly responseType: string;
  /** Values request filters attached (attachment readers, tunneling flags...). */
  readonly attributes: ReadonlyMap<string | symbol, unknown>;
  readonly log: SvcLogger;
  /**
   * Aborts when the client closes the connection (reason: a `ClientClosedError`) or the method's `timeout`
   * expires (a `HandlerTimeoutError`, answered 504): hand it to downstream calls (`fetch`, the typed client)
   * so that they stop too. Observables a handler returns are unsubscribed at the same moment.
   */
  readonly signal: AbortSignal;
  /** Adds a header to the response (success and error alike). */
  setResponseHeader(name: string, value: string): void;
  /** True when the request's `Accept` lists `multipart/related`: response attachments may be set. */
  responseAttachmentsSupported(): boolean;
  /**
   * Sends these attachments with the response (as `multipart/related`, when at least one was added).
   * @throws AttachmentStateError when the client did not accept response attachments
   */
  setResponseAttachments(attachments: ResponseAttachments): void;
}

/**
 * What a handler may return: a value, a promise of one, or an Observable of it (one value; finders and
 * get_all take an Observable as a stream of entities, see `CollectionAnswer`). Observables are unsubscribed
 * when the client goes away or the `timeout` expires.
 */
export type MaybeAsync<T> = T | PromiseLike<T> | Observable<T>;

/** A routed and bound call, as invocation filters see it. */
export interface Invocation {
  /** The registered resource (its value schema, key type, methods...). */
  readonly resource: ResourceModel;
  /** The registered method (its compiled parameters, return type...). */
  readonly target: MethodModel;
  readonly method: ResourceMethod;
  readonly methodName: string | undefined;
  readonly ctx: ResourceContext;
  /** The handler's arguments, context excluded. */
  readonly args: readonly unknown[];
  /** What was bound, by role (for filters such as validation). */
  readonly input: BoundInput;
}

/** The inputs of an invocation by role; only those the method takes are set. */
export interface BoundInput {
  /** The entity key (typed), for entity-level methods. */
  readonly key?: unknown;
  /** The batch keys (typed), in request order. */
  readonly keys?: readonly unknown[];
  /** The body entity of create and update. */
  readonly entity?: { data(): DataMap };
  /** The body entities of batch_create. */
  readonly entities?: ReadonlyArray<{ data(): DataMap }>;
  /** The body entities of batch_update: body key text → entity. */
  readonly entitiesByKey?: ReadonlyMap<string, { data(): DataMap }>;
  /** The patch of partial_update. */
  readonly patch?: DataMap;
  /** The patches of batch_partial_update: body key text → patch. */
  readonly patchesByKey?: ReadonlyMap<string, DataMap>;
  /** Finder or action parameters, bound. */
  readonly params?: { readonly [name: string]: unknown };
}

/**
 * A filter on the request path: any of three operators, each optional. Filters run in list order for
 * requests and invocations, in reverse order for responses (like nested middleware). A filter fails a
 * request by throwing (a `ServiceError` for a chosen status).
 *
 * - `request` runs before decoding and routing, on the raw request: tunneling (restore the real method,
 *   query and body) and attachments (split a multipart body into the payload and an attachment reader) go
 *   here. Per-resource filters have no `request` stage (the resource is not known yet).
 * - `invocation` runs after binding, before the handler: validation goes here.
 * - `response` runs after the response is built (errors included), before encoding: response attachments,
 *   output validation. It also gets the invocation, when the request got as far as binding.
 */
export interface RequestFilter {
  readonly name: string;
  /**
   * Runs before the answers the adapters give outside the pipeline (`OPTIONS` interface descriptions) and
   * refuses one by throwing: an authentication filter has it, so that once authentication is configured a
   * description needs a caller too. Server filters only.
   */
  readonly guard?: (request: ResourceRequest) => MaybeAsync<unknown>;
  readonly request?: (request: ResourceRequest) => MaybeAsync<ResourceRequest>;
  /**
   * When set (a lower-case header name), `request` runs only for requests that carry this header; the
   * pipeline skips the call for the others. The tunneling filter has it (`x-http-method-override`): most
   * requests are not tunneled, and calling its stage anyway cost ~0.7 µs of a small request's ~10 µs in a
   * real server (profile of GET /photos/3 under load). Default: `request` runs for every request.
   */
  readonly requestOnlyWith?: string;
  readonly invocation?: (invocation: Invocation) => MaybeAsync<Invocation>;
  readonly response?: (
    response: ResourceResponse,
    request: ResourceRequest,
    invocation: Invocation | undefined,
  ) => MaybeAsync<ResourceResponse>;
}
