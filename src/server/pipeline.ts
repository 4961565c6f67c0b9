import { type Observable, firstValueFrom, isObservable } from 'rxjs';
import { type CodecRegistry, type DataCodec, DataList, DataMap, JSON_CONTENT_TYPE, JsonCodec } from '../data';
import { isSvcError } from '../errors';
import { ProtocolHeaders } from '../protocol';
import { encodeBatchFinderInParts, encodedBatchFinderResponse } from './batch-finder-text';
import { withElementsText } from './elements-text';
import {
  type ErrorResponseOptions,
  type ProtocolVersion,
  ProtocolVersionError,
  type RequestProtocolVersion,
  ServiceError,
  buildErrorResponse,
  getHeader,
  negotiateResponseType,
  findLongList,
  parseQueryParams,
  resolveRequestProtocolVersion,
  isHttpToken,
  toHeaderValue,
} from '../protocol';
import type { Context } from './bind';
import { type BoundCall, type BindingRequest, bindDeferred } from './bind';
import {
  DEFAULT_MAX_BATCH_SIZE,
  batchLimitOf,
  batchParamOf,
  checkBatchSize,
  largestBatchLimit,
} from '../resources/batch-limit';
import { ClientClosedError, HandlerTimeoutError, NullResultError } from '../resources/errors';
import { type AnswerMode, awaitAnswer, isAsyncAnswer, isPromiseLike } from './handler-answer';
import {
  type AttachmentReader,
  AttachmentAbortedError,
  type RelatedRequest,
  demandSourceOf,
  encodeRelated,
} from '../streams';
import { streamCollection } from './streamed-collection';
import { DEFAULT_PAYLOAD_BYTES, decodeBody, decodeRelatedContent } from './decode';
import { runPerCriterion } from './per-criterion';
import {
  type CriteriaText,
  type LazyPlan,
  batchFinderJson,
  checkCriteria,
  criteriaTextOf,
  lazyBatchFinderText,
  lazyPlanOf,
} from './lazy-criteria';
import { urlPathOf } from './tunneling-filter';
import type { ResourceModel } from '../resources/registration';
import { buildBatchFinderInParts, buildResponse } from './response-builder';
import type {
  EncodedResponse,
  Invocation,
  MaybeAsync,
  RequestFilter,
  RequestHeaders,
  SvcLogger,
  ResourceRequest,
  ResourceResponse,
} from '../resources/request';
import { responseCompleted } from '../resources/request';
import { type RouteResult, type RoutingRequest, route, routeEntityGet } from './router';
import {
  SLICED_BATCH_SIZE,
  SLICE_BUDGET_MS,
  type SliceOwner,
  nextSlice,
  runNow,
  runSliced,
} from '../resources/slices';
import { type RequestObserver, type RequestProbe, observeResponse } from '../resources/observer';
import { type ResolvedCompression, compressResponse, inflateRequest, requestEncoding } from './compression';
import { MUX_PATH, type MuxHost, type ResolvedMux, serveMux } from './mux';
import { hasNoKeys, sharedHeaders } from './http-adapter';
import { type FirstPresentRead, type FirstValueRead, firstPresentRead, firstValueRead } from './header-reads';
import { SecondSightings } from './second-sightings';

/**
 * The request path (docs/architecture.md, "The request path") as one pipeline of small functions:
 *
 *   request filters → decode → route → bind → invocation filters → invoke → build → response filters → encode
 *
 * Each stage takes the previous stage's (immutable) description. The pipeline stays synchronous until
 * something is asynchronous (a filter or a handler returning a Promise or an Observable): a synchronous
 * handler costs no promise, which keeps the framework within reach of a bare fastify route
 * (bench/resources.bench.ts). Any error becomes an ErrorResponse (error-response.ts) with the same headers.
 */

/** What the pipeline is configured with (resolved once from the plugin options). */
export interface PipelineConfig {
  readonly headers: ProtocolHeaders;
  readonly codecs: CodecRegistry;
  readonly errors: ErrorResponseOptions;
  /** Server-level filters (all three stages). */
  readonly filters: readonly RequestFilter[];
  /** Milliseconds a handler may take before the request is answered 504 (resources may set their own). */
  readonly timeout?: number;
  /** Largest request body (the first part of a `multipart/related` one), bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Most items of a batch request whose method sets no limit itself. Default 1 000. */
  readonly maxBatchSize?: number;
  /** Watches every request (metrics, traces, access logs: src/runtime/); observer.ts. Default none. */
  readonly observer?: RequestObserver;
  /** Request inflating and response compression (compression.ts). Default none. */
  readonly compression?: ResolvedCompression;
  /** `POST /mux`, multiplexed requests (mux.ts). Default none. */
  readonly mux?: ResolvedMux;
}

/** Aborts every response data source a handler set (the request failed, or its response has no body). */
function abortResponseAttachments(ctx: unknown, cause: unknown): void {
  const attachments = (ctx as Context | undefined)?.responseAttachments;
  if (attachments === undefined) return;
  (ctx as Context).responseAttachments = undefined;
  const reason = new AttachmentAbortedError('the response failed; its attachments are not sent', { cause });
  for (const s of attachments.sources) {
    try {
      if ('registerDataSourceReaderCallback' in s) s.abandonAllDataSources();
      else s.onAbort(reason);
    } catch {
      // a source failing to clean up cannot change the error response
    }
  }
}

/** A value, a promise or an Observable (its first value; undefined when it completes empty) → value or promise. */
export function settle<T>(v: MaybeAsync<T>): T | Promise<T | undefined> {
  if (isObservable(v)) return firstValueFrom(v, { defaultValue: undefined });
  if (isPromiseLike(v)) return Promise.resolve(v);
  return v;
}

/** Elements encoded together between two looks at the clock when a long list is encoded in parts. */
const ENCODE_GROUP = 16;

/** Applies `f` now to a value, or later to a promise's value. */
function then<A, B>(v: A | Promise<A>, f: (a: A) => B | Promise<B>): B | Promise<B> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/**
 * Runs `stage` of each filter in order over `value`, from filter `from` on. Synchronous until a filter
 * answers asynchronously: the rest then runs when it settles. (Was one `then` closure per filter per
 * request; the loop saves those for the common all-synchronous case, the tunneling and validation filters
 * on a get: ~0.05 µs per request in-process, more in the real server's colder caches.)
 */
function runStage<T>(
  value: T,
  filters: readonly RequestFilter[],
  stage: (f: RequestFilter, v: T) => MaybeAsync<T> | undefined,
  from = 0,
): T | Promise<T> {
  let current = value;
  for (let i = from; i < filters.length; i++) {
    const out = stage(filters[i]!, current);
    // undefined, or the value itself (a filter with nothing to change): no need to ask whether it is a
    // Promise or an Observable (rxjs's isObservable looks for `lift` along the prototype chain)
    if (out === undefined || out === current) continue;
    const settled = settle(out) as T | Promise<T>;
    if (settled instanceof Promise) {
      if (i + 1 === filters.length) return settled;
      return settled.then((v) => runStage(v, filters, stage, i + 1));
    }
    current = settled;
  }
  return current;
}

/**
 * The response with header values Node can write: response filters build header objects themselves, and a
 * value Node refuses (a character beyond Latin-1, a line break) would fail only when the response is
 * written, after everything else succeeded. Values go through `toHeaderValue`; a name that is not a token
 * is the filter's bug and fails the request (500) here instead.
 */
function withWritableHeaders(response: ResourceResponse): ResourceResponse {
  let fixed: { [name: string]: string } | undefined;
  for (const name in response.headers) {
    const value = response.headers[name];
    if (!isHttpToken(name)) throw new TypeError(`A response filter set a header named '${name}'`);
    if (typeof value !== 'string')
      throw new TypeError(`A response filter set header '${name}' to a ${typeof value}, not a string`);
    const safe = toHeaderValue(value);
    if (safe !== value) (fixed ??= { ...response.headers })[name] = safe;
  }
  return fixed === undefined ? response : { ...response, headers: fixed };
}

/** Per-request state the error path needs (never handed to filters or handlers). */
class RequestState {
  request: ResourceRequest;
  readonly log: SvcLogger;
  /** The request's protocol version, once known. */
  version: ProtocolVersion | undefined;
  /** What the version header of the response says. */
  responseVersion: string | undefined;
  responseType: string | undefined;
  codec: DataCodec | undefined;
  call: BoundCall | undefined;
  /** The parsed query, once routed. */
  query: DataMap | undefined;
  /** A `multipart/related` request: its decoder (to drain what is left) and its attachments, if any. */
  related: RelatedRequest | undefined;
  attachments: AttachmentReader | undefined;
  /** Headers known to have lower-case names only (Node's), so a missing header needs no case-insensitive scan. */
  readonly lowerCaseHeaders: RequestHeaders | undefined;
  /**
   * The header family the request used (an index into the accepted prefixes: 0 is the written one): the
   * response's protocol headers are named in it (issue 26: a Rest.li client reads `X-RestLi-Id` back).
   */
  family = 0;
  /** The observers' probe of this request (observer.ts), and the error an error response stands for. */
  readonly probe: RequestProbe | undefined;
  error: unknown;
  constructor(request: ResourceRequest, log: SvcLogger, lowerCaseHeaders: boolean, probe?: RequestProbe) {
    this.request = request;
    this.log = log;
    this.lowerCaseHeaders = lowerCaseHeaders ? request.headers : undefined;
    this.probe = probe;
  }
}

const NO_FILTERS: readonly RequestFilter[] = [];

/** The parsed query of every request without one: shared, so read-only (`ctx.query` is for reading). */
const EMPTY_QUERY = new DataMap();
EMPTY_QUERY.makeReadOnly();

/** The methods whose handlers take the request body (the decode stage decodes it for these only). */
const BODY_METHODS: ReadonlySet<string> = new Set([
  'create',
  'update',
  'partial_update',
  'batch_create',
  'batch_update',
  'batch_partial_update',
  'action',
]);

/**
 * A query or body of at least this many characters or bytes is parsed and bound in slices ({@link
 * ResourcePipeline.serveLarge}): ~16 KB of JSON or of a query decode in ~0.3 ms.
 */
const LARGE_INPUT = 16 * 1024;

/** Most query texts {@link ResourcePipeline} keeps parsed, and the longest it keeps. */
const QUERY_CACHE_LIMIT = 256;
const QUERY_CACHE_TEXT = 1024;
/** Most texts it remembers having seen once (a text is kept when it comes a second time). */
const QUERY_SEEN_LIMIT = 1024;

/** Accept header → negotiated type; headers repeat, so the answers are kept (bounded). */
const ACCEPT_CACHE_LIMIT = 256;

/** The server side of the protocol: routes, binds, invokes and answers requests for registered resources. */
export class ResourcePipeline {
  readonly roots: ReadonlyMap<string, ResourceModel>;
  readonly config: PipelineConfig;
  private readonly requestFilters: readonly RequestFilter[];
  private readonly responseTypes: readonly string[];
  private readonly acceptCache = new Map<string, string>();
  private readonly versionCache = new Map<string, RequestProtocolVersion>();
  /** Per accepted header family, its protocol version header (lower case): read, and written back. */
  private readonly versionHeaders: readonly string[];
  private readonly methodHeaders: readonly string[];
  /** The version and method headers' reads, each name at a load of its own (header-reads.ts). */
  private readonly versionValue: FirstValueRead;
  private readonly methodValue: FirstValueRead;
  private readonly versionPresent: FirstPresentRead;
  private readonly methodPresent: FirstPresentRead;
  /** Per request filter (by index), the read of its `requestOnlyWith` header (header-reads.ts). */
  private readonly onlyWithPresent: ReadonlyArray<FirstPresentRead | undefined>;
  private readonly json: DataCodec;
  /** Response-stage filters in running (reverse) order, per filter list (a resource's or the server's). */
  private readonly responseFilterCache = new WeakMap<readonly RequestFilter[], readonly RequestFilter[]>();
  private lastFilters: readonly RequestFilter[] | undefined;
  private lastResponseFilters: readonly RequestFilter[] = NO_FILTERS;
  /** Response version → content type ('' for none) → the shared headers of {@link plainHeaders}. */
  private readonly plainHeaderCache = new Map<string, Map<string, { readonly [name: string]: string }>>();
  /** Per accepted header family (0: the configured one), the config whose headers write that family. */
  private readonly families: readonly PipelineConfig[];
  /** The server's `maxBatchSize`, and the largest limit of any method (lists longer are counted first). */
  private readonly maxBatchSize: number;
  private readonly largestBatch: number;
  private muxHostCache: MuxHost | undefined;
  private lastPlain:
    | {
        readonly family: number;
        readonly version: string;
        readonly type: string | undefined;
        readonly headers: { readonly [name: string]: string };
      }
    | undefined;
  /** Per kept query map, the last keyless route a request with it took, and what that request routed by. */
  private readonly routeCache = new WeakMap<
    DataMap,
    {
      readonly path: string;
      readonly httpMethod: string;
      readonly methodHeader: string | undefined;
      readonly route: RouteResult;
    }
  >();
  /** Queries of strings and string lists by text, as {@link parsedQuery} keeps them (read-only); 1.0.0's apart. */
  private readonly queryCache = new Map<string, DataMap>();
  private readonly queryCache1 = new Map<string, DataMap>();
  /** The kept query {@link parsedQuery} answered last (and its text), for each protocol. */
  private lastKeptQuery: { readonly raw: string; readonly query: DataMap } | undefined;
  private lastKeptQuery1: { readonly raw: string; readonly query: DataMap } | undefined;
  /** Texts seen once and not kept yet, 1.0.0's apart: {@link parsedQuery} keeps a text the second time. */
  private readonly querySeen = new SecondSightings(QUERY_SEEN_LIMIT);
  private readonly querySeen1 = new SecondSightings(QUERY_SEEN_LIMIT);
  /** The last version header value and what it resolved to: clients send the same one every time. */
  private lastVersion:
    { readonly header: string | undefined; readonly version: RequestProtocolVersion } | undefined;

  constructor(roots: ReadonlyMap<string, ResourceModel>, config: PipelineConfig) {
    this.roots = roots;
    this.config = config;
    this.requestFilters = config.filters.filter((f) => f.request !== undefined);
    const types = config.codecs.contentTypes();
    this.responseTypes = types.includes(JSON_CONTENT_TYPE)
      ? [JSON_CONTENT_TYPE, ...types.filter((t) => t !== JSON_CONTENT_TYPE)]
      : types;
    this.json = config.codecs.find(JSON_CONTENT_TYPE) ?? config.codecs.get(this.responseTypes[0]!);
    this.versionHeaders = config.headers.accepted.map((n) => n.protocolVersion.toLowerCase());
    const prefixes = config.headers.accepted.map((n) => n.prefix);
    this.families = config.headers.accepted.map((names, i) =>
      i === 0
        ? config
        : {
            ...config,
            headers: new ProtocolHeaders({ headerPrefix: names.prefix, acceptPrefixes: prefixes }),
          },
    );
    this.methodHeaders = config.headers.accepted.map((n) => n.method.toLowerCase());
    this.versionValue = firstValueRead(this.versionHeaders);
    this.methodValue = firstValueRead(this.methodHeaders);
    this.versionPresent = firstPresentRead(this.versionHeaders);
    this.methodPresent = firstPresentRead(this.methodHeaders);
    this.onlyWithPresent = this.requestFilters.map((f) =>
      f.requestOnlyWith === undefined ? undefined : firstPresentRead([f.requestOnlyWith]),
    );
    this.maxBatchSize = config.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    this.largestBatch = largestBatchLimit(roots.values(), this.maxBatchSize);
  }

  /**
   * Serves one request; never throws or rejects: errors become error responses. `lowerCaseHeaders` says
   * that every header name of `request` is lower case, as Node gives them (the plugin's requests): a header
   * that is not there is then known absent without a case-insensitive scan, which cost ~0.1 µs per
   * absent header (`Accept`, the method header) per request. Headers a request filter replaces lose it.
   */
  handle(
    request: ResourceRequest,
    log: SvcLogger,
    lowerCaseHeaders = false,
  ): EncodedResponse | Promise<EncodedResponse> {
    const compression = this.config.compression;
    if (compression === undefined) {
      // nothing to compress nor observe (the common configuration): one call less per request
      if (this.config.observer === undefined)
        return this.handleState(new RequestState(request, log, lowerCaseHeaders), request);
      return this.handlePlain(request, log, lowerCaseHeaders);
    }
    // compressed bodies are inflated before anything reads them, responses compressed last (compression.ts)
    const encoding = requestEncoding(request, lowerCaseHeaders);
    if (encoding === undefined) {
      // the common case: no closure for the compression step of a synchronous answer
      const plain = this.handlePlain(request, log, lowerCaseHeaders);
      return plain instanceof Promise
        ? plain.then((r) => compressResponse(request, r, compression, lowerCaseHeaders))
        : compressResponse(request, plain, compression, lowerCaseHeaders);
    }
    const out = inflateRequest(
      request,
      encoding,
      compression,
      this.config.maxBodyBytes ?? DEFAULT_PAYLOAD_BYTES,
    ).then(
      (r) => this.handlePlain(r, log, lowerCaseHeaders),
      (err: unknown) => this.handleError(request, err, log),
    );
    return then(out, (r) => compressResponse(request, r, compression, lowerCaseHeaders));
  }

  private handlePlain(
    request: ResourceRequest,
    log: SvcLogger,
    lowerCaseHeaders: boolean,
  ): EncodedResponse | Promise<EncodedResponse> {
    const probe = this.config.observer === undefined ? undefined : this.config.observer.start(request);
    if (probe === undefined)
      return this.handleState(new RequestState(request, log, lowerCaseHeaders), request);
    const state = new RequestState(request, log, lowerCaseHeaders, probe);
    // a probe without a context of its own (an access log, metrics) needs no closure around the rest
    const out =
      probe.run === undefined
        ? this.handleState(state, request)
        : probe.run(() => this.handleState(state, request));
    return observeResponse(probe, out, state);
  }

  private handleState(
    state: RequestState,
    request: ResourceRequest,
  ): EncodedResponse | Promise<EncodedResponse> {
    if (this.families.length > 1)
      state.family = this.familyOf(request.headers, state.lowerCaseHeaders !== undefined);
    if (this.config.mux !== undefined && request.path === MUX_PATH)
      return serveMux(this.muxHost(), this.config.mux, request, state.log, (err) => this.fail(state, err));
    try {
      const filters = this.requestFiltersFor(request, state.lowerCaseHeaders !== undefined);
      // no request filter has work for it (the common case: only tunneling, no override): straight to the
      // stages, without the calls that dispatch the general case (their frames and closures cost ~0.3-0.6 µs
      // of a small request's server time under load: a profile of GET /photos/3 with autocannon)
      const out =
        filters.length === 0
          ? request.bodyStream === undefined
            ? this.serve(state, request)
            : this.start(state, request)
          : then(
              runStage(request, filters, (f, r) => f.request!(r)),
              (r) => this.start(state, r),
            );
      return out instanceof Promise ? out.catch((err: unknown) => this.fail(state, err)) : out;
    } catch (err) {
      return this.fail(state, err);
    }
  }

  /**
   * The request filters whose `request` stage runs for `request`: those without `requestOnlyWith`, and
   * those whose header the request carries. The same array when all run; none (the common case: only the
   * tunneling filter, and no override header) without allocating.
   */
  private requestFiltersFor(request: ResourceRequest, lowerCase: boolean): readonly RequestFilter[] {
    const filters = this.requestFilters;
    let skipped = 0;
    for (let i = 0; i < filters.length; i++) if (this.skipsRequest(i, request, lowerCase)) skipped++;
    if (skipped === 0) return filters;
    if (skipped === filters.length) return NO_FILTERS;
    return filters.filter((_, i) => !this.skipsRequest(i, request, lowerCase));
  }

  /** Whether request filter `i` (of `requestFilters`) skips `request`: its `requestOnlyWith` header is absent. */
  private skipsRequest(i: number, request: ResourceRequest, lowerCase: boolean): boolean {
    const present = this.onlyWithPresent[i];
    if (present === undefined || present(request.headers) === 0) return false;
    return lowerCase || getHeader(request.headers, this.requestFilters[i]!.requestOnlyWith!) === undefined;
  }

  /**
   * Runs the `guard` stage of the server filters (an authentication filter's) for a request the adapter
   * answers outside the pipeline (`OPTIONS`): undefined when they let it through (or there are none), else
   * the error response to send.
   */
  admit(
    request: ResourceRequest,
    log: SvcLogger,
  ): EncodedResponse | undefined | Promise<EncodedResponse | undefined> {
    const guards = this.config.filters.filter((f) => f.guard !== undefined);
    if (guards.length === 0) return undefined;
    const state = new RequestState(request, log, false);
    try {
      const out = runStage(request, guards, (f, r) => then(settle(f.guard!(r)), () => r));
      return out instanceof Promise
        ? out.then(
            () => undefined,
            (err: unknown) => this.fail(state, err),
          )
        : undefined;
    } catch (err) {
      return this.fail(state, err);
    }
  }

  /** What the multiplexer (mux.ts) serves its individual requests with: this pipeline, without compression. */
  private muxHost(): MuxHost {
    return (this.muxHostCache ??= {
      codecs: this.config.codecs,
      json: this.json,
      maxBodyBytes: this.config.maxBodyBytes ?? DEFAULT_PAYLOAD_BYTES,
      methodHeaders: this.methodHeaders,
      serve: (request, log) => this.handlePlain(request, log, true),
      fail: (request, err, log) => {
        // answered in the header family the individual request used, as it would be on its own
        const state = new RequestState(request, log, true);
        if (this.families.length > 1) state.family = this.familyOf(request.headers, true);
        return this.fail(state, err);
      },
    });
  }

  /** The response for an error raised outside the pipeline (by the HTTP layer: body too large...). */
  handleError(
    request: ResourceRequest,
    err: unknown,
    log: SvcLogger,
  ): EncodedResponse | Promise<EncodedResponse> {
    const probe = this.config.observer === undefined ? undefined : this.config.observer.start(request);
    const state = new RequestState(request, log, false, probe);
    return probe === undefined ? this.fail(state, err) : observeResponse(probe, this.fail(state, err), state);
  }

  /** A streamed body (`multipart/related`) is decoded first: its payload, then whether attachments follow. */
  private start(state: RequestState, request: ResourceRequest): EncodedResponse | Promise<EncodedResponse> {
    if (request.bodyStream === undefined) return this.serve(state, request);
    return decodeRelatedContent(
      request,
      this.config.codecs,
      this.config.maxBodyBytes ?? DEFAULT_PAYLOAD_BYTES,
      (related) => {
        state.related = related;
      },
    ).then((content) => {
      state.attachments = content.attachments;
      return this.serve(state, content.request);
    });
  }

  /** decode → route → bind → invocation filters → invoke → build → response filters → encode. */
  private serve(state: RequestState, request: ResourceRequest): EncodedResponse | Promise<EncodedResponse> {
    state.request = request;
    const headers = request.headers;
    const lowerCase = headers === state.lowerCaseHeaders;
    // request filters may have replaced the headers (a tunneled request's come from its body)
    if (this.families.length > 1 && headers !== state.lowerCaseHeaders)
      state.family = this.familyOf(headers, lowerCase);
    // decode: protocol version, response type
    const version = this.versionOf(
      this.readHeader(headers, this.versionHeaders, this.versionValue, lowerCase),
    );
    state.version = version.version;
    state.responseVersion = version.responseValue;
    const accept = headers.accept;
    this.negotiate(
      state,
      typeof accept === 'string'
        ? accept
        : lowerCase && accept === undefined
          ? undefined
          : getHeader(headers, 'accept'),
    );
    // a large query or body is decoded and bound in slices of its own (issue 22)
    const raw = request.query;
    const bytes = request.body;
    if (
      (raw !== undefined && raw.length >= LARGE_INPUT) ||
      (bytes !== undefined && bytes.byteLength >= LARGE_INPUT)
    )
      return this.serveLarge(state, request, version.version);
    // a GET of /<collection>/<key> with neither query nor method header: routed without the general walk
    const plain =
      raw === undefined && request.method === 'GET' && !this.hasMethodHeader(headers, lowerCase)
        ? routeEntityGet(this.roots, request.path)
        : undefined;
    if (plain !== undefined) state.query = EMPTY_QUERY;
    const routed = plain ?? this.routeOf(state, request, version.version);
    const query = state.query!;
    // decode (the body, for methods that take one), then bind
    const body = BODY_METHODS.has(routed.method) ? this.decodeBody(request) : undefined;
    const { call, items } = bindDeferred(
      routed,
      this.bindingOf(state, request, query, version.version, body),
    );
    if (items !== undefined) runNow(items);
    state.call = call;
    if (state.probe !== undefined) state.probe.routed(call.invocation, call.batchSize);
    // a large batch goes on in slices, so that other requests are served in between (issue 22)
    if (call.batchSize >= SLICED_BATCH_SIZE) return this.serveSliced(state, call);
    return this.invokeFiltered(state, call);
  }

  /** The request routed; its parsed query is left in `state.query` (no pair object per request). */
  private routeOf(state: RequestState, request: ResourceRequest, version: ProtocolVersion): RouteResult {
    const protocol1 = version.major < 2;
    const raw = request.query;
    // a list longer than any batch may be is counted, not parsed, until routing says whose it is (issue 22)
    const long =
      raw !== undefined && raw.length > 2 * this.largestBatch
        ? findLongList(raw, this.largestBatch)
        : undefined;
    // no query (a get, a create...): one shared, read-only empty map rather than a new one per request
    let query =
      raw === undefined || raw === ''
        ? EMPTY_QUERY
        : long === undefined
          ? this.parsedQuery(raw, request.url, protocol1)
          : parseQueryParams(long.query, { requestUri: request.url, protocol1 });
    const routing = this.routingOf(state, request, query);
    let routed = this.routed(routing);
    if (long !== undefined) {
      const target = routed.target;
      if (batchParamOf(target) === long.name) {
        checkBatchSize(
          long.items,
          batchLimitOf(target, this.maxBatchSize),
          target.name ?? routed.method,
          long.name,
        );
      }
      // another parameter's long list (a finder's, say): parsed after all
      query = parseQueryParams(raw, { requestUri: request.url, protocol1 });
      routed = route(this.roots, { ...routing, query });
    }
    state.query = query;
    return routed;
  }

  /**
   * `raw` parsed. A query of strings and lists of strings (a finder's `q=byTitle&title=x&count=10`, a
   * batch_get's `ids=List(1,2,3)`) is kept, read-only, for the next requests with the same text (clients
   * repeat their queries: a page polled, the first page of a search); up to {@link QUERY_CACHE_LIMIT}
   * texts of up to {@link QUERY_CACHE_TEXT} characters each. A query holding a record is parsed per
   * request: binding fixes a record's map in place (a field's `"1"` made a number). Parsing cost ~7.5k
   * instructions of the example's finder page (~142k) and ~6k of its batch_get of 10 (~183k); finding
   * the parse again costs a few hundred (callgrind over HTTP).
   *
   * A text is kept the second time it comes, not the first: keeping costs (the check of its values, making
   * it read-only, and what binding then keeps with it: its ids, its facts, its route), and most texts of a
   * service whose clients vary their queries (a batch_get of other ids each time) never come again. Kept
   * the first time, a batch_get of 10 ids in a new order each request cost 196.4k instructions (bare
   * `node:http` 164.6k); remembering the text costs a Set's look-up and insertion.
   */
  private parsedQuery(raw: string, requestUri: string, protocol1: boolean): DataMap {
    // the last kept query first: a compare of the text costs a fraction of the Map's look-up, which hashes
    // each request's new string (~0.9k instructions of the example's finder page, callgrind over HTTP)
    const last = protocol1 ? this.lastKeptQuery1 : this.lastKeptQuery;
    if (last !== undefined && last.raw === raw) return last.query;
    const cache = protocol1 ? this.queryCache1 : this.queryCache;
    const kept = cache.get(raw);
    if (kept !== undefined) {
      if (protocol1) this.lastKeptQuery1 = { raw, query: kept };
      else this.lastKeptQuery = { raw, query: kept };
      return kept;
    }
    const query = parseQueryParams(raw, { requestUri, protocol1 });
    if (raw.length > QUERY_CACHE_TEXT) return query;
    if (!(protocol1 ? this.querySeen1 : this.querySeen).second(raw)) return query;
    for (const [, value] of query.entries()) if (!flatValue(value)) return query;
    query.makeReadOnly();
    if (cache.size >= QUERY_CACHE_LIMIT) cache.clear();
    cache.set(raw, query);
    return query;
  }

  /**
   * `route` for `routing`. A request whose query map is a kept one ({@link parsedQuery}'s, read-only) gets
   * the route of the last request with that query, method, path and method header when that route holds
   * no key (a finder's page, a batch_get: a route is immutable, and keys would be the request's own
   * values): routing the example's finder cost ~2.5k instructions of its ~135k (callgrind over HTTP).
   */
  private routed(routing: RoutingRequest): RouteResult {
    const query = routing.query;
    if (!query.isReadOnly()) return route(this.roots, routing);
    const kept = this.routeCache.get(query);
    if (
      kept !== undefined &&
      kept.path === routing.path &&
      kept.httpMethod === routing.httpMethod &&
      kept.methodHeader === routing.methodHeader
    )
      return kept.route;
    const routed = route(this.roots, routing);
    if (routed.key === undefined && routed.pathKeys.size === 0)
      this.routeCache.set(query, {
        path: routing.path,
        httpMethod: routing.httpMethod,
        methodHeader: routing.methodHeader,
        route: routed,
      });
    return routed;
  }

  /** What the router reads of `request`, its query parsed as `query`. */
  private routingOf(state: RequestState, request: ResourceRequest, query: DataMap): RoutingRequest {
    const headers = request.headers;
    const methodHeader = this.readHeader(
      headers,
      this.methodHeaders,
      this.methodValue,
      headers === state.lowerCaseHeaders,
    );
    return {
      httpMethod: request.method,
      path: request.path,
      requestUri: request.url,
      query,
      methodHeader: methodHeader === '' ? undefined : methodHeader,
      methodHeaderName: this.config.headers.names.method,
    };
  }

  /** What binding reads of the decoded request. */
  private bindingOf(
    state: RequestState,
    request: ResourceRequest,
    query: DataMap,
    protocolVersion: ProtocolVersion,
    body: DataMap | undefined,
  ): BindingRequest {
    return {
      url: request.url,
      headers: request.headers,
      query,
      protocolVersion,
      responseType: state.responseType!,
      attributes: request.attributes,
      body,
      attachments: state.attachments,
      log: state.log,
      maxBatchSize: this.maxBatchSize,
    };
  }

  /** invocation filters → invoke → build → response filters → encode. */
  private invokeFiltered(state: RequestState, call: BoundCall): EncodedResponse | Promise<EncodedResponse> {
    const filters = call.route.resource.filters;
    if (filters.length === 0) return this.invoke(state, call, call.invocation);
    const invocation = runStage<Invocation>(call.invocation, filters, (f, inv) => f.invocation?.(inv));
    return invocation instanceof Promise
      ? invocation.then((inv) => this.invoke(state, call, inv))
      : this.invoke(state, call, invocation);
  }

  /**
   * A request with a large query or body (a tunneled batch finder, a batch_update of 1 000 entities): the
   * query is parsed, the body decoded and the items bound each in turns of their own (issue 22: together
   * they blocked the event loop 3-8 ms). A client that goes away meanwhile stops the work.
   */
  private async serveLarge(
    state: RequestState,
    request: ResourceRequest,
    version: ProtocolVersion,
  ): Promise<EncodedResponse> {
    const owner: SliceOwner = {};
    const label = `${request.method} ${request.path}`;
    const detach = abortOnClose(request.connection, owner, label);
    let call: BoundCall;
    let lazy: CriteriaText | undefined;
    try {
      await nextSlice(owner, label);
      // a per-criterion batch finder's criteria are read from the text as they run (lazy-criteria.ts)
      const lazyCall = await this.lazyCriteriaCall(state, request, version, owner, label);
      if (lazyCall !== undefined) {
        call = lazyCall.call;
        lazy = lazyCall.list;
      } else {
        const routed = this.routeOf(state, request, version);
        const query = state.query!;
        let body: DataMap | undefined;
        if (BODY_METHODS.has(routed.method)) {
          if (request.body !== undefined && request.body.byteLength >= LARGE_INPUT)
            await nextSlice(owner, label);
          body = this.decodeBody(request);
        }
        await nextSlice(owner, label);
        const bound = bindDeferred(routed, this.bindingOf(state, request, query, version, body));
        call = bound.call;
        if (bound.items !== undefined) await runSliced(bound.items, owner, label);
      }
      // the handler's signal is the one the slices watched (made if the client went away meanwhile)
      (call.invocation.ctx as Context).abortController = owner.abortController;
    } finally {
      detach();
    }
    state.call = call;
    if (state.probe !== undefined) state.probe.routed(call.invocation, call.batchSize);
    if (lazy !== undefined) return this.serveLazyCriteria(state, call, lazy);
    if (call.batchSize >= SLICED_BATCH_SIZE) return this.serveSliced(state, call);
    return this.invokeFiltered(state, call);
  }

  /**
   * A large per-criterion batch finder bound but for its criteria, which stay text (lazy-criteria.ts), its
   * invocation filters run and every criterion checked; undefined (the usual path answers, errors included)
   * when the request does not take that path or anything fails.
   */
  private async lazyCriteriaCall(
    state: RequestState,
    request: ResourceRequest,
    version: ProtocolVersion,
    owner: SliceOwner,
    label: string,
  ): Promise<{ readonly call: BoundCall; readonly list: CriteriaText } | undefined> {
    const list = criteriaTextOf(request.query);
    if (list === undefined || !(state.codec instanceof JsonCodec) || state.attachments !== undefined)
      return undefined;
    let call: BoundCall;
    let plan: LazyPlan | undefined;
    try {
      const query = parseQueryParams(list.query, { requestUri: request.url, protocol1: version.major < 2 });
      const routed = route(this.roots, this.routingOf(state, request, query));
      const { target } = routed;
      const filters = routed.resource.filters;
      plan = lazyPlanOf(target, filters, list);
      if (plan === undefined) return undefined;
      checkBatchSize(
        list.items,
        batchLimitOf(target, this.maxBatchSize),
        target.name ?? routed.method,
        list.name,
      );
      const bound = bindDeferred(routed, this.bindingOf(state, request, query, version, undefined));
      if (bound.items !== undefined) runNow(bound.items);
      if ((bound.call.invocation.ctx as Context).responseAttachmentsSupported()) return undefined;
      call = { ...bound.call, batchSize: list.items };
      const inv =
        filters.length === 0
          ? call.invocation
          : await runStage<Invocation>(call.invocation, filters, (f, i) => f.invocation?.(i));
      if (inv !== call.invocation) call = { ...call, invocation: inv };
      state.query = query;
    } catch {
      return undefined;
    }
    if (!(await checkCriteria(call.route.target, plan, list, owner, label))) return undefined;
    return { call, list };
  }

  /** The rest of a request {@link lazyCriteriaCall} bound: the criteria run and written a slice at a time. */
  private async serveLazyCriteria(
    state: RequestState,
    call: BoundCall,
    list: CriteriaText,
  ): Promise<EncodedResponse> {
    const inv = call.invocation;
    const ctx = inv.ctx as Context;
    const label = `${inv.resource.path} ${inv.target.label}`;
    const detach = abortOnClose(state.request.connection, ctx, label);
    try {
      await nextSlice(ctx, label);
      const text = lazyBatchFinderText(
        call,
        list,
        state.codec as JsonCodec,
        this.families[state.family]!,
        urlPathOf(state.request),
      );
      const slices = (await this.awaitHandler(state, inv, text)) as Buffer[];
      // the join and the adapter's copy of it get a turn of their own (as in batch-finder-text.ts)
      await nextSlice(ctx, label);
      return this.encode(state, encodedBatchFinderResponse(), batchFinderJson(slices));
    } finally {
      detach();
    }
  }

  /**
   * The rest of the request path for a large batch (issue 22), each stage in its own turn of the event loop:
   * invocation filters (validation of every entity or criterion), the handler, building the response,
   * encoding it. Between stages other requests run; a client that went away meanwhile stops the work (its
   * `ctx.signal` aborts with a `ClientClosedError`). Small requests never come here: they keep the
   * synchronous path, without a single extra hop.
   */
  private async serveSliced(state: RequestState, call: BoundCall): Promise<EncodedResponse> {
    const ctx = call.invocation.ctx as Context;
    const label = `${call.invocation.resource.path} ${call.invocation.target.label}`;
    const detach = abortOnClose(state.request.connection, ctx, label);
    try {
      await nextSlice(ctx, label);
      const filters = call.route.resource.filters;
      const inv =
        filters.length === 0
          ? call.invocation
          : await runStage<Invocation>(call.invocation, filters, (f, i) => f.invocation?.(i));
      await nextSlice(ctx, label);
      const bound = inv === call.invocation ? call : { ...call, invocation: inv };
      const out = this.callHandler(inv);
      const answer = isAsyncAnswer(out) ? await this.awaitHandler(state, inv, out) : out;
      await nextSlice(ctx, label);
      // a batch finder's entries are encoded as they are built, so that only text lives across turns
      const text = await this.batchFinderText(state, bound, answer, () => nextSlice(ctx, label));
      if (text !== undefined) return this.encode(state, encodedBatchFinderResponse(), text);
      // a batch finder's entries are built a part at a time (building 1 000 in one piece was the largest slice)
      const response =
        inv.method === 'batch_finder'
          ? await buildBatchFinderInParts(bound, answer, this.families[state.family]!, () =>
              nextSlice(ctx, label),
            )
          : buildResponse(bound, answer, this.families[state.family]!);
      await nextSlice(ctx, label);
      return await this.respondSliced(state, response, () => nextSlice(ctx, label));
    } finally {
      detach();
    }
  }

  /**
   * A large batch finder's JSON body encoded as its entries are built (batch-finder-text.ts), when nothing
   * needs the response as data: JSON, no response filters, no response attachments. Else undefined.
   */
  private batchFinderText(
    state: RequestState,
    call: BoundCall,
    answer: unknown,
    nextTurn: () => Promise<void>,
  ): Promise<string | undefined> | undefined {
    const codec = state.codec;
    if (call.invocation.method !== 'batch_finder' || !(codec instanceof JsonCodec)) return undefined;
    if (this.responseFiltersOf(state).length > 0) return undefined;
    const attachments = (call.invocation.ctx as Context).responseAttachments;
    if (attachments !== undefined && attachments.sources.length > 0) return undefined;
    return encodeBatchFinderInParts(call, answer, this.families[state.family]!, codec, nextTurn);
  }

  /**
   * {@link respond} for a large batch: a JSON body whose `elements` list is long (a batch finder's
   * per-criterion entries) is encoded a part at a time, each part in its own turn. Encoding 1 000 entries
   * (~180 KB) in one piece was the longest task left beside a tunneled batch finder (bench/batch-stall).
   */
  private async respondSliced(
    state: RequestState,
    response: ResourceResponse,
    nextTurn: () => Promise<void>,
  ): Promise<EncodedResponse> {
    const filters = this.responseFiltersOf(state);
    const r = filters.length === 0 ? response : await this.filteredResponse(state, response, filters);
    return this.encode(state, r, await this.encodeElementsSliced(state, r, nextTurn));
  }

  /** The JSON text of a body with a long `elements` list, encoded in parts; undefined for any other. */
  private async encodeElementsSliced(
    state: RequestState,
    response: ResourceResponse,
    nextTurn: () => Promise<void>,
  ): Promise<string | undefined> {
    const body = response.body;
    const codec = state.codec;
    if (body === undefined || !(codec instanceof JsonCodec)) return undefined;
    const attachments = (state.call?.invocation.ctx as Context | undefined)?.responseAttachments;
    if (attachments !== undefined && attachments.sources.length > 0) return undefined;
    const list = body.get('elements');
    if (!(list instanceof DataList) || list.size < SLICED_BATCH_SIZE) return undefined;
    const maps = list.toArray();
    if (!maps.every((item) => item instanceof DataMap)) return undefined;
    const parts: string[] = [];
    let deadline = performance.now() + SLICE_BUDGET_MS;
    for (let i = 0; i < maps.length; i += ENCODE_GROUP) {
      // mapsToString writes each map as mapToString would, comma-separated: the same bytes as one encode
      parts.push(codec.mapsToString(maps.slice(i, i + ENCODE_GROUP)));
      if (performance.now() >= deadline) {
        await nextTurn();
        deadline = performance.now() + SLICE_BUDGET_MS;
      }
    }
    // the rest of the body (paging, metadata...) around the list
    return withElementsText(codec, body, parts.join(','));
  }

  /** Calls the handler of an invocation (a per-criterion batch finder through its runner). */
  private callHandler(inv: Invocation): unknown {
    const handler = inv.target.handler as (...args: unknown[]) => unknown;
    const args = inv.args;
    const batch = inv.target.batch;
    // the common arities without a spread (an array per call otherwise)
    return batch !== undefined && batch.form === 'perCriterion'
      ? runPerCriterion(handler, args[0] as unknown[], args[1], inv.ctx, batch.concurrency)
      : args.length === 0
        ? handler(inv.ctx)
        : args.length === 1
          ? handler(args[0], inv.ctx)
          : args.length === 2
            ? handler(args[0], args[1], inv.ctx)
            : handler(...args, inv.ctx);
  }

  /** invoke → build → response filters → encode. */
  private invoke(
    state: RequestState,
    call: BoundCall,
    inv: Invocation,
  ): EncodedResponse | Promise<EncodedResponse> {
    const bound = inv === call.invocation ? call : { ...call, invocation: inv };
    const out = this.callHandler(inv);
    if (isAsyncAnswer(out)) {
      const streamed = this.streamedAnswer(state, bound, out);
      if (streamed !== undefined) return streamed;
      return this.awaitHandler(state, inv, out).then((r) =>
        this.respond(state, buildResponse(bound, r, this.families[state.family]!)),
      );
    }
    return this.respond(state, buildResponse(bound, out, this.families[state.family]!));
  }

  /**
   * A finder's or get_all's `withDemand` Observable, written as it is produced (streamed-collection.ts), when
   * nothing needs the whole answer first: JSON, a method that pages itself, no response filters. Else
   * undefined, and the answer is collected as any Observable's.
   */
  private streamedAnswer(
    state: RequestState,
    call: BoundCall,
    out: PromiseLike<unknown> | Observable<unknown>,
  ): Promise<EncodedResponse> | undefined {
    const inv = call.invocation;
    const method = inv.target.method;
    if (method !== 'finder' && method !== 'get_all') return undefined;
    const source = demandSourceOf(out);
    const codec = state.codec;
    if (source === undefined || !(codec instanceof JsonCodec) || !call.route.target.selfPaging)
      return undefined;
    if (this.responseFiltersOf(state).length > 0) return undefined;
    return streamCollection(call, source, {
      codec,
      headers: this.plainHeaders(state.family, state.responseVersion ?? '1.0.0', state.responseType),
      connection: state.request.connection,
      timeoutMs: inv.resource.timeout ?? this.config.timeout,
      label: `${inv.resource.path} ${inv.target.label}`,
    });
  }

  /**
   * Waits for a handler's promise or Observable, with cancellation: the client closing the connection or the
   * method's timeout aborts `ctx.signal`, which unsubscribes what the framework subscribed to (a batch
   * finder's criteria included) and fails the request (a timeout is answered 504).
   */
  private awaitHandler(
    state: RequestState,
    inv: Invocation,
    out: PromiseLike<unknown> | Observable<unknown>,
  ): Promise<unknown> {
    const method = inv.target.method;
    const mode: AnswerMode = method === 'finder' || method === 'get_all' ? 'stream' : 'single';
    const label = `${inv.resource.path} ${inv.target.label}`;
    const timeoutMs = inv.resource.timeout ?? this.config.timeout;
    const connection = state.request.connection;
    if (timeoutMs === undefined && connection === undefined) return awaitAnswer(out, mode, label, undefined);
    const ctx = inv.ctx as Context;
    const controller = (ctx.abortController ??= new AbortController());
    const abort = (reason: Error): void => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => abort(new HandlerTimeoutError(label, timeoutMs)), timeoutMs);
    const onClose = (): void => {
      if (!responseCompleted(connection!)) abort(new ClientClosedError(label));
    };
    if (connection !== undefined) {
      if (connection.destroyed) onClose();
      else connection.once('close', onClose);
    }
    const cleanup = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      connection?.off('close', onClose);
    };
    const answer = awaitAnswer(out, mode, label, controller.signal);
    answer.then(cleanup, cleanup);
    return answer;
  }

  /**
   * The header family a request used: the first accepted prefix under which it sends the protocol version
   * header, else the method header; the configured one (0) when it sends neither.
   */
  private familyOf(headers: RequestHeaders, lowerCase: boolean): number {
    if (lowerCase) {
      const v = this.versionPresent(headers);
      if (v >= 0) return v;
      const m = this.methodPresent(headers);
      return m >= 0 ? m : 0;
    }
    const versions = this.versionHeaders;
    for (let i = 0; i < versions.length; i++) if (hasHeader(headers, versions[i]!, lowerCase)) return i;
    const methods = this.methodHeaders;
    for (let i = 0; i < methods.length; i++) if (hasHeader(headers, methods[i]!, lowerCase)) return i;
    return 0;
  }

  /** Whether the request names its method in a header (an empty value names none, as in routing). */
  private hasMethodHeader(headers: RequestHeaders, lowerCase: boolean): boolean {
    const v = this.readHeader(headers, this.methodHeaders, this.methodValue, lowerCase);
    return v !== undefined && v !== '';
  }

  /**
   * The value of the first accepted header name present (names lower case, as Node gives them); `read`
   * reads `names` as they are (header-reads.ts).
   */
  private readHeader(
    headers: RequestHeaders,
    names: readonly string[],
    read: FirstValueRead,
    lowerCase: boolean,
  ): string | undefined {
    const v = read(headers);
    if (v !== undefined) return typeof v === 'string' ? v : v[0];
    if (lowerCase) return undefined;
    // headers from elsewhere than Node (tests, filters) may not be lower case
    for (const name of names) {
      const v = getHeader(headers, name);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** The protocol version of a header value; parsed once per distinct value (a handful exist). */
  private versionOf(header: string | undefined): RequestProtocolVersion {
    // a string compare rather than hashing a header value that is a new string on every request
    const last = this.lastVersion;
    if (last !== undefined && last.header === header) return last.version;
    // an empty header is malformed, not absent: keep the two apart in the cache
    const key = header ?? '\u0000absent';
    let v = this.versionCache.get(key);
    if (v === undefined) {
      v = resolveRequestProtocolVersion(header);
      if (this.versionCache.size >= ACCEPT_CACHE_LIMIT) this.versionCache.clear();
      this.versionCache.set(key, v);
    }
    this.lastVersion = { header, version: v };
    return v;
  }

  /** Decodes a request body with the codec its Content-Type names (content-decoder.ts). */
  decodeBody(request: ResourceRequest): DataMap | undefined {
    return decodeBody(request, this.config.codecs);
  }

  /** Response filters (in reverse order), then encode. */
  private respond(
    state: RequestState,
    response: ResourceResponse,
  ): EncodedResponse | Promise<EncodedResponse> {
    const filters = this.responseFiltersOf(state);
    if (filters.length === 0) return this.encode(state, response);
    return then(this.filteredResponse(state, response, filters), (r) => this.encode(state, r));
  }

  /** The response through the response filters (in the order {@link responseFiltersOf} gives). */
  private filteredResponse(
    state: RequestState,
    response: ResourceResponse,
    filters: readonly RequestFilter[],
  ): ResourceResponse | Promise<ResourceResponse> {
    return then(
      runStage(response, filters, (f, r) => f.response?.(r, state.request, state.call?.invocation)),
      withWritableHeaders,
    );
  }

  private responseFiltersOf(state: RequestState): readonly RequestFilter[] {
    const filters = state.call?.route.resource.filters ?? this.config.filters;
    if (filters.length === 0) return filters;
    // the last answer first: requests come to the same few resources (one compare, not a WeakMap look-up)
    if (filters === this.lastFilters) return this.lastResponseFilters;
    let out = this.responseFilterCache.get(filters);
    if (out === undefined) {
      const reversed: RequestFilter[] = [];
      for (let i = filters.length - 1; i >= 0; i--)
        if (filters[i]!.response !== undefined) reversed.push(filters[i]!);
      out = reversed;
      this.responseFilterCache.set(filters, out);
    }
    this.lastFilters = filters;
    this.lastResponseFilters = out;
    return out;
  }

  private negotiate(state: RequestState, accept: string | undefined): void {
    if (accept === undefined || accept === '' || accept === '*/*' || accept === JSON_CONTENT_TYPE) {
      state.responseType = JSON_CONTENT_TYPE;
      state.codec = this.json;
      return;
    }
    let type = this.acceptCache.get(accept);
    if (type === undefined) {
      type = negotiateResponseType(accept, this.responseTypes);
      if (this.acceptCache.size >= ACCEPT_CACHE_LIMIT) this.acceptCache.clear();
      this.acceptCache.set(accept, type);
    }
    state.responseType = type;
    state.codec = this.config.codecs.get(type);
  }

  private encode(
    state: RequestState,
    response: ResourceResponse,
    encodedJson?: string | Uint8Array,
  ): EncodedResponse {
    const version = state.responseVersion ?? '1.0.0';
    const type = response.body === undefined ? undefined : state.responseType!;
    const extra = (state.call?.invocation.ctx as { responseHeaders?: Record<string, string> } | undefined)
      ?.responseHeaders;
    let headers: { readonly [name: string]: string };
    if (extra === undefined && hasNoKeys(response.headers)) {
      headers = this.plainHeaders(state.family, version, type);
    } else {
      const h: Record<string, string> = { [this.versionHeaders[state.family]!]: version };
      for (const name of Object.keys(response.headers)) h[name] = response.headers[name]!;
      if (extra !== undefined) for (const name of Object.keys(extra)) h[name] = extra[name]!;
      if (type !== undefined) h['content-type'] = type;
      headers = h;
    }
    // request attachments the handler never looked at are drained, so that the connection can be reused
    if (state.attachments !== undefined && !state.attachments.isRegistered()) state.related?.drain();
    const ctx = state.call?.invocation.ctx as Context | undefined;
    const attachments = ctx?.responseAttachments;
    if (response.body === undefined) {
      if (attachments !== undefined)
        abortResponseAttachments(ctx, new Error('the response has no body part'));
      return { status: response.status, headers, body: undefined };
    }
    const codec = state.codec!;
    if (attachments !== undefined && attachments.sources.length > 0 && response.error === undefined) {
      const message = encodeRelated(
        { contentType: state.responseType!, bytes: codec.mapToBytes(response.body) },
        attachments.sources,
      );
      return {
        status: response.status,
        headers: { ...headers, 'content-type': message.contentType },
        body: undefined,
        stream: message.body,
      };
    }
    // JSON as a string: Node sends a string body with the headers in one write, a Buffer in two (writev);
    // that alone was ~15% of a batch_get's server time under load
    const body =
      encodedJson ??
      (codec instanceof JsonCodec ? codec.mapToString(response.body) : codec.mapToBytes(response.body));
    return { status: response.status, headers, body };
  }

  /**
   * The headers of most responses, just the version and the content type, as one frozen object per pair
   * (a handful exist): the HTTP layer copies them, so a response needs no headers object of its own. Names
   * are lower case, as fastify writes them anyway: it lower-cases each name it is given, and a name that
   * changes becomes a new string that V8 then looks up in its string table on every response.
   */
  private plainHeaders(
    family: number,
    version: string,
    type: string | undefined,
  ): { readonly [name: string]: string } {
    // the last answer first: one client sends the same version, for the same type (three compares)
    const last = this.lastPlain;
    if (last !== undefined && last.family === family && last.version === version && last.type === type)
      return last.headers;
    const cacheKey = family === 0 ? version : `${family} ${version}`;
    let byType = this.plainHeaderCache.get(cacheKey);
    if (byType === undefined) {
      if (this.plainHeaderCache.size >= ACCEPT_CACHE_LIMIT) this.plainHeaderCache.clear();
      byType = new Map();
      this.plainHeaderCache.set(cacheKey, byType);
    }
    const key = type ?? '';
    let headers = byType.get(key);
    if (headers === undefined) {
      const h: Record<string, string> = { [this.versionHeaders[family]!]: version };
      if (type !== undefined) h['content-type'] = type;
      headers = sharedHeaders(h);
      byType.set(key, headers);
    }
    this.lastPlain = { family, version, type, headers };
    return headers;
  }

  /** The error response for `err`, through the response filters; never throws. */
  private fail(state: RequestState, err: unknown): EncodedResponse | Promise<EncodedResponse> {
    state.error = err;
    // wire facts §6.5: unread request attachments are drained, response data sources aborted
    state.related?.drain();
    abortResponseAttachments(state.call?.invocation.ctx, err);
    this.completeForError(state, err);
    const response = this.errorResponse(state, err);
    try {
      const out = this.respond(state, response);
      return out instanceof Promise ? out.catch((e: unknown) => this.lastResort(state, e)) : out;
    } catch (e) {
      return this.lastResort(state, e);
    }
  }

  /** An error in the error path (a response filter, encoding): a bare error response, JSON. */
  private lastResort(state: RequestState, err: unknown): EncodedResponse {
    state.codec = this.json;
    state.responseType = JSON_CONTENT_TYPE;
    state.call = undefined;
    return this.encode(state, this.errorResponse(state, err));
  }

  /** Version and response type for an error that came before they were known. */
  private completeForError(state: RequestState, err: unknown): void {
    if (state.responseVersion === undefined) {
      try {
        const v = resolveRequestProtocolVersion(
          this.config.headers.read(state.request.headers, 'protocolVersion'),
        );
        state.version = v.version;
        state.responseVersion = v.responseValue;
      } catch (e) {
        // a malformed or unsupported version: echo what the error says (the version, or 1.0.0)
        state.responseVersion =
          err instanceof ProtocolVersionError
            ? err.responseVersion
            : e instanceof ProtocolVersionError
              ? e.responseVersion
              : '1.0.0';
      }
    }
    if (state.codec === undefined) {
      try {
        this.negotiate(state, getHeader(state.request.headers, 'accept'));
      } catch {
        state.responseType = JSON_CONTENT_TYPE;
        state.codec = this.json;
      }
    }
  }

  private errorResponse(state: RequestState, err: unknown): ResourceResponse {
    // the null-result message is the framework's own text: shown in production too
    const error =
      err instanceof NullResultError
        ? new ServiceError(500, err.message, { code: err.code, cause: err })
        : err;
    const response = buildErrorResponseSafe(error, this.config.errors);
    if (response.status >= 500) state.log.error({ err }, 'resource request failed');
    else if (!isSvcError(err) && !(err instanceof ServiceError))
      state.log.info({ err }, 'resource request rejected');
    const headers: Record<string, string> = {};
    if (response.errorHeader) {
      const version = state.version;
      const family = this.families[state.family]!.headers;
      headers[version === undefined ? family.names.errorResponse : family.errorResponseHeader(version)] =
        'true';
    }
    return { status: response.status, headers, body: response.body, error: err };
  }
}

/**
 * Aborts `owner`'s controller (made on demand) with a `ClientClosedError` once the client goes away before
 * its response was written, so that the next slice (and the handler's `ctx.signal`) stops; returns the
 * function that stops watching.
 */
function abortOnClose(
  connection: ResourceRequest['connection'],
  owner: SliceOwner,
  label: string,
): () => void {
  if (connection === undefined) return () => undefined;
  const onClose = (): void => {
    if (responseCompleted(connection)) return;
    const controller = (owner.abortController ??= new AbortController());
    if (!controller.signal.aborted) controller.abort(new ClientClosedError(label));
  };
  if (connection.destroyed) onClose();
  else connection.once('close', onClose);
  return () => connection.off('close', onClose);
}

/** Whether `headers` has `name` (lower case): a direct look-up when the names are known lower case. */
function hasHeader(headers: RequestHeaders, name: string, lowerCase: boolean): boolean {
  return headers[name] !== undefined || (!lowerCase && getHeader(headers, name) !== undefined);
}

function buildErrorResponseSafe(
  err: unknown,
  options: ErrorResponseOptions,
): ReturnType<typeof buildErrorResponse> {
  try {
    return buildErrorResponse(err, options);
  } catch {
    return buildErrorResponse(
      new ServiceError(500, options.internalErrorMessage ?? 'INTERNAL SERVER ERROR'),
      options,
    );
  }
}

/** A query value {@link ResourcePipeline.parsedQuery} keeps: a string, or a list of strings (`ids=List(1,2)`). */
function flatValue(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (!(v instanceof DataList)) return false;
  for (const item of v) if (typeof item !== 'string') return false;
  return true;
}
