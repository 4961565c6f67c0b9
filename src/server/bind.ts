import { DataList, DataMap, type DataValue } from '../data';
import {
  isHttpToken,
  toHeaderValue,
  type BatchIds,
  type BatchKeyError,
  DEFAULT_PAGING,
  InvalidKeyError,
  type Paging,
  type ProtocolVersion,
  QueryParam,
  type KeySpec,
  type ResourceKey,
  type ResourceMethod,
  decodeBatchIds,
  decodeKeyFromBody,
  encodeKeyForBody,
  parsePagingParams,
  parseProjectionParam,
  parseReturnEntity,
  parseFillInDefaults,
} from '../protocol';
import { type AttachmentReader, AttachmentStateError } from '../streams';
import { ResponseAttachments } from '../resources/response-attachments';
import type { RecordTemplate } from '../templates';
import { RequestBodyError } from '../resources/errors';
import {
  batchLimitOf,
  batchParamOf,
  batchSizeOf,
  checkBatchSize,
  countsIds,
  itemsOf,
} from '../resources/batch-limit';
import { keyAsIs } from '../resources/key-types';
import { PatchRequest } from '../resources/patch';
import type { RouteResult } from './router';
import { ITEMS_PER_STEP, type Steps, runNow } from '../resources/slices';
import type {
  BoundInput,
  Invocation,
  RequestHeaders,
  ResourceContext,
  SvcLogger,
} from '../resources/request';

/**
 * Argument binding (the reference's `ArgumentBuilder`): from the routed request, the handler's arguments
 * (keys, entities from the body, patches, parameters) and its context. Request data is not validated here
 * (brief, "Validation": explicit only); keys and parameters are coerced from their wire strings, and a
 * body must have the method's shape.
 */

/** What binding reads of the decoded request. */
export interface BindingRequest {
  readonly url: string;
  readonly headers: RequestHeaders;
  readonly query: DataMap;
  readonly protocolVersion: ProtocolVersion;
  readonly responseType: string;
  readonly attributes: ReadonlyMap<string | symbol, unknown>;
  /**
   * The decoded body map (the decode stage ran before binding, for methods that take a body); undefined when
   * the request has none or the method takes none.
   */
  readonly body: DataMap | undefined;
  /** The attachments of a `multipart/related` request; undefined when it carried none. */
  readonly attachments: AttachmentReader | undefined;
  readonly log: SvcLogger;
  /** The server's `maxBatchSize`: the most items of a batch request whose method sets no limit itself. */
  readonly maxBatchSize: number;
}

/** A bound call: the invocation plus what the response builder needs beyond it. */
export interface BoundCall {
  readonly route: RouteResult;
  readonly invocation: Invocation;
  /** Batch keys that did not decode: each gets a 400 in the response's `errors`. */
  readonly keyErrors: readonly BatchKeyError[];
  /** `$returnEntity` (absent means true). */
  readonly returnEntity: boolean;
  /** `$fillInDefaults=true`: returned entities get their absent defaulted fields (absent means false). */
  readonly fillInDefaults: boolean;
  /** Items of a batch request (ids, elements, criteria), as counted before binding; 0 for other methods. */
  readonly batchSize: number;
}

const MULTIPART_RELATED = 'multipart/related';

/** The request-scoped context handlers receive (see {@link ResourceContext}). */
export class Context implements ResourceContext {
  // `declare`: the constructor sets every field; a plain declaration would also define each as undefined
  // first (class fields), one store more per field on every request
  declare readonly resource: string;
  declare readonly method: ResourceMethod;
  declare readonly methodName: string | undefined;
  declare readonly requestUri: string;
  declare readonly headers: RequestHeaders;
  declare readonly protocolVersion: ProtocolVersion;
  declare readonly pathKeys: ReadonlyMap<string, unknown>;
  declare readonly query: DataMap;
  declare readonly projection: DataMap | undefined;
  declare readonly metadataProjection: DataMap | undefined;
  declare readonly pagingProjection: DataMap | undefined;
  declare readonly paging: Paging;
  declare readonly responseType: string;
  declare readonly attributes: ReadonlyMap<string | symbol, unknown>;
  declare readonly log: SvcLogger;
  /** Headers handlers set, added to the response. */
  declare responseHeaders: Record<string, string> | undefined;
  /** Made on first use of {@link signal} (most requests never need one). */
  declare abortController: AbortController | undefined;
  /** What `setResponseAttachments` was given. */
  declare responseAttachments: ResponseAttachments | undefined;
  /**
   * The parameters as the binder made them (a finder's, an action's, a batch finder's): the validation
   * filter trusts the values of types valid when bound (`ValueType.validWhenBound`) only in this object, not
   * in parameters a filter put in their place.
   */
  declare boundParams: Readonly<Record<string, unknown>> | undefined;

  constructor(route: RouteResult, req: BindingRequest, paging: Paging, facts: QueryFacts) {
    this.resource = route.resource.path;
    this.method = route.method;
    this.methodName = route.target.name;
    this.requestUri = req.url;
    this.headers = req.headers;
    this.protocolVersion = req.protocolVersion;
    this.pathKeys = route.pathKeys;
    this.query = req.query;
    const { fields, metadataFields, pagingFields } = facts;
    this.projection = fields === undefined ? undefined : parseProjectionParam(fields);
    this.metadataProjection = metadataFields === undefined ? undefined : parseProjectionParam(metadataFields);
    this.pagingProjection = pagingFields === undefined ? undefined : parseProjectionParam(pagingFields);
    this.paging = paging;
    this.responseType = req.responseType;
    this.attributes = req.attributes;
    this.log = req.log;
    this.responseHeaders = undefined;
    this.abortController = undefined;
    this.responseAttachments = undefined;
    this.boundParams = undefined;
  }

  responseAttachmentsSupported(): boolean {
    const accept = this.headers.accept;
    const text = typeof accept === 'string' ? accept : Array.isArray(accept) ? accept.join(',') : '';
    // an Accept shorter than `multipart/related` cannot name it: no regular expression for the usual
    // `application/json` or none (the example's get asks on every request)
    if (text.length < MULTIPART_RELATED.length) return false;
    // any q counts (wire facts §6.4)
    return /(^|,)\s*multipart\/related\s*(;|,|$)/i.test(text);
  }

  setResponseAttachments(attachments: ResponseAttachments): void {
    if (!this.responseAttachmentsSupported()) {
      throw new AttachmentStateError(
        'Response attachments can only be set if the client request indicates permissibility',
      );
    }
    if (!(attachments instanceof ResponseAttachments))
      throw new TypeError('setResponseAttachments takes ResponseAttachments.builder()...build()');
    this.responseAttachments = attachments;
  }

  get signal(): AbortSignal {
    return (this.abortController ??= new AbortController()).signal;
  }

  setResponseHeader(name: string, value: string): void {
    if (!isHttpToken(name)) throw new TypeError(`'${name}' is not a header name`);
    if (typeof value !== 'string') throw new TypeError(`header '${name}' value must be a string`);
    // non-ASCII text goes out as UTF-8 bytes, control characters as %XX: Node would refuse either at write
    // time, after the handler's work is done
    (this.responseHeaders ??= {})[name] = toHeaderValue(value);
  }
}

function requireBody(req: BindingRequest, label: string): DataMap {
  const body = req.body;
  if (body === undefined) throw new RequestBodyError(`A request body is required for ${label}`);
  return body;
}

function mapField(body: DataMap, name: string, label: string): DataMap {
  const v = body.get(name);
  if (!(v instanceof DataMap)) throw new RequestBodyError(`The body of ${label} must be {"${name}":{...}}`);
  return v;
}

function entityOf(route: RouteResult, data: DataValue, what: string): RecordTemplate {
  if (!(data instanceof DataMap)) throw new RequestBodyError(`${what} must be a record (a map)`);
  return new route.resource.valueClass(data);
}

function patchOf(route: RouteResult, data: DataValue, what: string): PatchRequest<RecordTemplate> {
  if (!(data instanceof DataMap)) throw new RequestBodyError(`${what} must be {"patch":{...}}`);
  const patch = data.get('patch');
  if (patch === undefined) throw new RequestBodyError(`${what} must be {"patch":{...}}`);
  // the constructor checks the patch (checkPatch: a PatchError for anything but a well-formed map)
  return new PatchRequest(patch as DataMap, route.resource.valueClass);
}

/**
 * The query parameters binding reads beyond a method's own, as `DataMap.get` finds them. Each is a keyed
 * load on a store whose shape varies from query to query (a megamorphic load, ~0.1-0.15k instructions; most
 * miss): six of them on every finder page, the example's ~0.8k instructions (callgrind over HTTP).
 */
interface QueryFacts {
  readonly start: DataValue | undefined;
  readonly count: DataValue | undefined;
  readonly ids: DataValue | undefined;
  readonly fields: DataValue | undefined;
  readonly metadataFields: DataValue | undefined;
  readonly pagingFields: DataValue | undefined;
  readonly fillIn: DataValue | undefined;
}

const NO_FACTS: QueryFacts = Object.freeze({
  start: undefined,
  count: undefined,
  ids: undefined,
  fields: undefined,
  metadataFields: undefined,
  pagingFields: undefined,
  fillIn: undefined,
});

/**
 * The facts of a read-only query (a kept one, pipeline.ts `parsedQuery`: the same map comes back request
 * after request), found once. A read-only map cannot change, so what `get` found stays what it finds.
 */
const KEPT_FACTS = new WeakMap<DataMap, QueryFacts>();

function queryFacts(query: DataMap, paged: boolean, keyed: boolean): QueryFacts {
  // no query (a get by id): nothing to look for, and no look-up in the WeakMap either
  if (query.isEmpty()) return NO_FACTS;
  // a query of this request only: `start` and `count` looked for only by the methods that page, `ids` by
  // those keyed by them
  if (!query.isReadOnly()) return readFacts(query, paged, keyed);
  let facts = KEPT_FACTS.get(query);
  if (facts === undefined) KEPT_FACTS.set(query, (facts = readFacts(query, true, true)));
  return facts;
}

function readFacts(q: DataMap, paged: boolean, keyed: boolean): QueryFacts {
  return {
    start: paged ? q.get(QueryParam.START) : undefined,
    count: paged ? q.get(QueryParam.COUNT) : undefined,
    ids: keyed ? q.get(QueryParam.IDS) : undefined,
    fields: q.get(QueryParam.FIELDS),
    metadataFields: q.get(QueryParam.METADATA_FIELDS),
    pagingFields: q.get(QueryParam.PAGING_FIELDS),
    fillIn: q.get(QueryParam.FILL_IN_DEFAULTS),
  };
}

/**
 * The `ids` of a kept query (read-only, and shared by the requests that send the same text: pipeline.ts,
 * `parsedQuery`) as decoded for a key spec, when they all decoded to primitives; by the query's list.
 * Decoding the example's 10 long ids cost ~2.3k instructions of its batch_get (callgrind over HTTP).
 */
const KEPT_IDS = new WeakMap<
  object,
  { readonly spec: KeySpec; readonly protocol1: boolean; readonly keys: readonly ResourceKey[] }
>();

/**
 * `decodeBatchIds` of the query's `ids` (`list`, as the query's facts found it); each call gets arrays of its
 * own (a handler may change them).
 */
function batchIdsOf(
  query: DataMap,
  list: DataValue | undefined,
  spec: KeySpec,
  protocol1: boolean,
): BatchIds | undefined {
  if (!(list instanceof DataList) || !query.isReadOnly()) return decodeBatchIds(list, spec, protocol1);
  const kept = KEPT_IDS.get(list);
  if (kept !== undefined && kept.spec === spec && kept.protocol1 === protocol1)
    return { keys: kept.keys.slice(), errors: [] };
  const ids = decodeBatchIds(list, spec, protocol1);
  if (ids !== undefined && ids.errors.length === 0 && ids.keys.every((k) => typeof k !== 'object'))
    KEPT_IDS.set(list, { spec, protocol1, keys: ids.keys.slice() });
  return ids;
}

/** Typed batch keys of `ids`, and the items that did not decode. */
function batchKeys(
  route: RouteResult,
  req: BindingRequest,
  facts: QueryFacts,
): { typed: unknown[]; wire: ResourceKey[]; errors: BatchKeyError[] } {
  const keyType = route.keyType!;
  const protocol1 = req.protocolVersion.major < 2;
  const ids = batchIdsOf(req.query, facts.ids, keyType.spec, protocol1) ?? { keys: [], errors: [] };
  if (keyType.kind === 'simple') {
    // a bad simple id fails the whole request (in decoding, or here in the key type): no per-key errors
    const typed = keyType.fromProtocol === keyAsIs ? ids.keys : ids.keys.map((k) => keyType.fromProtocol(k));
    return { typed, wire: ids.keys, errors: ids.errors };
  }
  const typed: unknown[] = [];
  const wire: ResourceKey[] = [];
  const errors = [...ids.errors];
  for (const k of ids.keys) {
    try {
      typed.push(keyType.fromProtocol(k));
      wire.push(k);
    } catch (err) {
      if (!(err instanceof InvalidKeyError)) throw err;
      errors.push({ key: encodeKeyForBody(k, true), error: err });
    }
  }
  return { typed, wire, errors };
}

/**
 * The `{"entities":{key: value}}` body of batch_update and batch_partial_update, matched against `ids`: every
 * body key must be one of the ids and every id must have a body entry (the reference's messages), except
 * ids that did not decode. Fills `byTyped` (typed key → converted value) and `byText` (canonical key text →
 * `keep` of the value), yielding between groups of entities (slices.ts).
 */
function* batchEntities<T, K>(
  route: RouteResult,
  body: DataMap,
  ids: { typed: unknown[]; wire: ResourceKey[]; errors: BatchKeyError[] },
  label: string,
  convert: (data: DataValue, what: string) => T,
  keep: (data: DataValue) => K,
  byTyped: Map<unknown, T>,
  byText: Map<string, K>,
): Steps<void> {
  const keyType = route.keyType!;
  const entities = mapField(body, 'entities', label);
  const wanted = new Map<string, number>();
  ids.wire.forEach((k, i) => wanted.set(encodeKeyForBody(k, true), i));
  const failed = new Set(ids.errors.map((e) => e.key));
  const found = new Map<number, DataValue>();
  const texts: string[] = [];
  let n = 0;
  for (const [text, value] of entities) {
    if (++n % ITEMS_PER_STEP === 0) yield;
    if (failed.has(text)) continue;
    let canonical: string;
    try {
      canonical = encodeKeyForBody(decodeKeyFromBody(text, keyType.spec), true);
    } catch (err) {
      if (err instanceof InvalidKeyError) {
        throw new RequestBodyError(
          `Batch request mismatch. Entity key '${text}' not found in the query parameter.`,
          'SVC_ERR_BIND_BAD_BODY',
          { cause: err },
        );
      }
      throw err;
    }
    const index = wanted.get(canonical);
    if (index === undefined) {
      throw new RequestBodyError(
        `Batch request mismatch. Entity key '${text}' not found in the query parameter.`,
      );
    }
    if (found.has(index)) throw new RequestBodyError(`Duplicate key in batch request body: '${text}'`);
    found.set(index, value);
    texts.push(canonical);
    byText.set(canonical, keep(value));
  }
  if (found.size !== ids.wire.length) {
    const uriKeys = ids.wire.map((k) => encodeKeyForBody(k, true));
    throw new RequestBodyError(
      `Batch request mismatch. URI keys: '[${uriKeys.join(', ')}]' Entity keys: '[${texts.join(', ')}]'`,
    );
  }
  for (let i = 0; i < ids.typed.length; i++) {
    if ((i + 1) % ITEMS_PER_STEP === 0) yield;
    byTyped.set(
      ids.typed[i],
      convert(found.get(i)!, `The entity of key '${encodeKeyForBody(ids.wire[i]!, true)}'`),
    );
  }
}

/**
 * Binds a routed request.
 * @throws RequestBodyError, ParameterBindingError, InvalidKeyError, PatchError, InvalidParameterError,
 *   MaskSyntaxError (all 400)
 */
export function bind(route: RouteResult, req: BindingRequest): BoundCall {
  const { call, items } = bindDeferred(route, req);
  if (items !== undefined) runNow(items);
  return call;
}

/**
 * Binds a routed request but for the items of a batch (entities, patches, criteria), which `items` binds
 * into the call's arguments when run, so that a large batch binds in slices (slices.ts, issue 22). The call
 * is not to be used before `items` has run to its end.
 */
export function bindDeferred(
  route: RouteResult,
  req: BindingRequest,
): { readonly call: BoundCall; readonly items: Steps<void> | undefined } {
  const { target, method } = route;
  const reader = req.attachments;
  // brief, "Request attachment handling": attachments to a method that takes none are refused (and drained
  // by the error path); a method that takes them and got none gets null
  if (reader !== undefined && target.attachments === undefined) {
    throw new RequestBodyError(
      'Resource method endpoint invoked does not accept any request attachments.',
      'SVC_ERR_ATTACH_NOT_ACCEPTED',
    );
  }
  const paged = method === 'finder' || method === 'get_all' || method === 'batch_finder';
  const keyed = countsIds(method);
  const facts = queryFacts(req.query, paged, keyed);
  const paging = paged ? parsePagingParams(facts.start, facts.count, target.pagingDefaults) : DEFAULT_PAGING;
  // a batch over its limit is refused before any item is bound (issue 22)
  const batchSize = keyed
    ? itemsOf(facts.ids)
    : (batchSizeOf(method, req.query, req.body, target.batch?.param) ?? 0);
  if (batchSize > 0)
    checkBatchSize(
      batchSize,
      batchLimitOf(target, req.maxBatchSize),
      target.name ?? method,
      batchParamOf(target) ?? QueryParam.IDS,
    );
  const ctx = new Context(route, req, paging, facts);
  const binder = ARGUMENT_BINDERS[method];
  if (binder === undefined) throw new RequestBodyError(`Method ${String(method)} is not supported`);
  const bound = binder(route, req, ctx, facts);
  const fillIn = facts.fillIn;
  const call: BoundCall = {
    route,
    keyErrors: bound.keyErrors ?? NO_KEY_ERRORS,
    returnEntity: bound.returnEntity ?? true,
    fillInDefaults: fillIn === undefined ? false : parseFillInDefaults(fillIn),
    batchSize,
    invocation: {
      resource: route.resource,
      target,
      method,
      methodName: target.name,
      ctx,
      args: target.attachments === 'argument' ? [reader ?? null, ...bound.args] : bound.args,
      input: bound.input,
    },
  };
  return { call, items: bound.items };
}

const NO_KEY_ERRORS: readonly BatchKeyError[] = Object.freeze([]);

/** A method's arguments, bound: the handler's, and the filters' view of them (`Invocation.input`). */
interface MethodArguments {
  readonly args: unknown[];
  readonly input: BoundInput;
  /** Batch keys that did not decode (absent: none). */
  readonly keyErrors?: readonly BatchKeyError[];
  /** `$returnEntity`, for the methods that read it (absent: true). */
  readonly returnEntity?: boolean;
  /** The batch items, bound when run (absent: all bound already). */
  readonly items?: Steps<void>;
}

/** Binds one method's arguments; the context is the call's (a binder notes the parameters it bound). */
type ArgumentBinder = (
  route: RouteResult,
  req: BindingRequest,
  ctx: Context,
  facts: QueryFacts,
) => MethodArguments;

/** get and delete: the key (a simple resource has none). */
function keyArguments(route: RouteResult): MethodArguments {
  return route.resource.kind === 'simple'
    ? { args: [], input: {} }
    : { args: [route.key], input: { key: route.key } };
}

function updateArguments(route: RouteResult, req: BindingRequest): MethodArguments {
  const entity = entityOf(route, requireBody(req, route.target.label), 'The body of update');
  return route.resource.kind === 'simple'
    ? { args: [entity], input: { entity } }
    : { args: [route.key, entity], input: { key: route.key, entity } };
}

function partialUpdateArguments(route: RouteResult, req: BindingRequest): MethodArguments {
  const returnEntity = parseReturnEntity(req.query.get(QueryParam.RETURN_ENTITY));
  const patch = patchOf(route, requireBody(req, route.target.label), 'The body of partial_update');
  return route.resource.kind === 'simple'
    ? { args: [patch], input: { patch: patch.patch }, returnEntity }
    : { args: [route.key, patch], input: { key: route.key, patch: patch.patch }, returnEntity };
}

function createArguments(route: RouteResult, req: BindingRequest): MethodArguments {
  const returnEntity = parseReturnEntity(req.query.get(QueryParam.RETURN_ENTITY));
  const entity = entityOf(route, requireBody(req, route.target.label), 'The body of create');
  return { args: [entity], input: { entity }, returnEntity };
}

function batchCreateArguments(route: RouteResult, req: BindingRequest): MethodArguments {
  const returnEntity = parseReturnEntity(req.query.get(QueryParam.RETURN_ENTITY));
  const elements = requireBody(req, route.target.label).get('elements');
  if (!(elements instanceof DataList))
    throw new RequestBodyError('The body of batch_create must be {"elements":[...]}');
  const entities = elements.toArray().map((e, i) => entityOf(route, e, `Element ${i} of batch_create`));
  return { args: [entities], input: { entities }, returnEntity };
}

/** batch_get and batch_delete: the keys. */
function batchKeyArguments(
  route: RouteResult,
  req: BindingRequest,
  _ctx: Context,
  facts: QueryFacts,
): MethodArguments {
  const ids = batchKeys(route, req, facts);
  return { args: [ids.typed], input: { keys: ids.typed }, keyErrors: ids.errors };
}

/**
 * batch_update and batch_partial_update: the keys, and each key's body entry converted by `convert` into
 * `byTyped` and kept by `keep` into `byKey` as `items` runs (batchEntities).
 */
function batchBodyArguments<T, K>(
  route: RouteResult,
  req: BindingRequest,
  facts: QueryFacts,
  convert: (data: DataValue, what: string) => T,
  keep: (data: DataValue) => K,
): {
  ids: ReturnType<typeof batchKeys>;
  byTyped: Map<unknown, T>;
  byKey: Map<string, K>;
  items: Steps<void>;
} {
  const ids = batchKeys(route, req, facts);
  const label = route.target.label;
  const byTyped = new Map<unknown, T>();
  const byKey = new Map<string, K>();
  const items = batchEntities(route, requireBody(req, label), ids, label, convert, keep, byTyped, byKey);
  return { ids, byTyped, byKey, items };
}

function batchUpdateArguments(
  route: RouteResult,
  req: BindingRequest,
  _ctx: Context,
  facts: QueryFacts,
): MethodArguments {
  const valueClass = route.resource.valueClass;
  const { ids, byTyped, byKey, items } = batchBodyArguments(
    route,
    req,
    facts,
    (d, what) => entityOf(route, d, what),
    // a value that is no map fails in `convert`, before the handler or a filter sees this
    (d) => (d instanceof DataMap ? new valueClass(d) : undefined) as RecordTemplate,
  );
  return { args: [byTyped], input: { keys: ids.typed, entitiesByKey: byKey }, keyErrors: ids.errors, items };
}

function batchPartialUpdateArguments(
  route: RouteResult,
  req: BindingRequest,
  _ctx: Context,
  facts: QueryFacts,
): MethodArguments {
  const returnEntity = parseReturnEntity(req.query.get(QueryParam.RETURN_ENTITY));
  const { ids, byTyped, byKey, items } = batchBodyArguments(
    route,
    req,
    facts,
    (d, what) => patchOf(route, d, what),
    // a value that is no {"patch":{...}} fails in `convert`, before the handler or a filter sees this
    (d) => (d instanceof DataMap ? d.get('patch') : undefined) as DataMap,
  );
  return {
    args: [byTyped],
    input: { keys: ids.typed, patchesByKey: byKey },
    keyErrors: ids.errors,
    returnEntity,
    items,
  };
}

/** finder and get_all: the parameters, when the method has any. */
function finderArguments(route: RouteResult, req: BindingRequest, ctx: Context): MethodArguments {
  const { target } = route;
  if (target.params === undefined) return { args: [], input: {} };
  const params =
    keptFinderParams(route, req) ?? target.params.bind(req.query, route.pathKeys, req.attachments ?? null);
  ctx.boundParams = params;
  return { args: [params], input: { params } };
}

/**
 * Per kept query (read-only, shared by the requests that send the same text: pipeline.ts, `parsedQuery`),
 * a finder's parameters as bound for it last, when every value is a primitive (no record, no list, no
 * template) and the path gave none: each request gets a copy. Binding the example's finder parameters (an
 * enum, an absent title) cost ~0.8k instructions (callgrind over HTTP).
 */
const KEPT_PARAMS = new WeakMap<
  DataMap,
  { readonly target: RouteResult['target']; readonly params: Readonly<Record<string, unknown>> }
>();

function keptFinderParams(route: RouteResult, req: BindingRequest): Record<string, unknown> | undefined {
  const query = req.query;
  if (!query.isReadOnly() || route.pathKeys.size !== 0 || req.attachments !== undefined) return undefined;
  const kept = KEPT_PARAMS.get(query);
  if (kept !== undefined && kept.target === route.target) return { ...kept.params };
  const params = route.target.params!.bind(query, route.pathKeys, null);
  for (const name in params) {
    const v = params[name];
    if (typeof v === 'object' || typeof v === 'function') return params;
  }
  KEPT_PARAMS.set(query, { target: route.target, params: { ...params } });
  return params;
}

/** An action: its parameters from the body, and the key for an entity-level one. */
function actionArguments(route: RouteResult, req: BindingRequest, ctx: Context): MethodArguments {
  const params = route.target.params!.bind(
    req.body ?? new DataMap(),
    route.pathKeys,
    req.attachments ?? null,
  );
  ctx.boundParams = params;
  return route.key !== undefined && route.resource.kind !== 'simple'
    ? { args: [route.key, params], input: { key: route.key, params } }
    : { args: [params], input: { params } };
}

/** A batch finder: the criteria (bound when `items` runs) and the other parameters. */
function batchFinderArguments(route: RouteResult, req: BindingRequest, ctx: Context): MethodArguments {
  const { target } = route;
  const batch = target.batch!;
  const bound = target.params!.bindDeferred(req.query, route.pathKeys, req.attachments ?? null);
  const params = bound.params;
  ctx.boundParams = params;
  const criteria = params[batch.param] as readonly unknown[];
  const others: Record<string, unknown> = {};
  for (const name of Object.keys(params)) if (name !== batch.param) others[name] = params[name];
  return { args: [criteria, others], input: { params }, items: bound.items };
}

/** Each method's binder. */
const ARGUMENT_BINDERS: { readonly [M in ResourceMethod]: ArgumentBinder | undefined } = {
  get: keyArguments,
  delete: keyArguments,
  update: updateArguments,
  partial_update: partialUpdateArguments,
  create: createArguments,
  batch_create: batchCreateArguments,
  batch_get: batchKeyArguments,
  batch_delete: batchKeyArguments,
  batch_update: batchUpdateArguments,
  batch_partial_update: batchPartialUpdateArguments,
  get_all: finderArguments,
  finder: finderArguments,
  action: actionArguments,
  batch_finder: batchFinderArguments,
};
