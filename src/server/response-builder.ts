import { type DataList, DataMap, type DataValue } from '../data';
import {
  type CreateStatus,
  DEFAULT_SUCCESS_STATUS,
  type ErrorResponseOptions,
  type ProtocolHeaders,
  type ResourceKey,
  ServiceError,
  type UpdateStatus,
  BATCH_FINDER_MISSING_RESULT_MESSAGE,
  type BatchFinderCriteriaResult,
  type CollectionMetadata,
  actionResponse,
  applyProjection,
  batchFinderCriterionUri,
  batchFinderResponse,
  batchCreateResponse,
  BatchGetBodyBuilder,
  batchUpdateResponse,
  buildErrorResponse,
  collectionMetadataMap,
  encodeKeyForBody,
  encodeKeyForHeader,
  toHeaderValue,
  encodeKeyForPath,
  entityNotFoundMessage,
  isServiceError,
  locationFor,
  pagingLinks,
} from '../protocol';
import { collectionResponseOf } from '../protocol/envelopes';
import { CoercionMode, fillInDefaults, validate } from '../schema';
import type { RecordTemplate } from '../templates';
import { isBatchFinderResult } from '../resources/batch-finder-result';
import type { BoundCall } from './bind';
import { criteriaKey } from '../resources/criteria-key';
import { type CriterionOutcome, CriterionOutcomes } from './per-criterion';
import { InvalidResultError, NullResultError } from '../resources/errors';
import type { ResourceResponse } from '../resources/request';

/**
 * Response building (wire facts §3.5, the reference's `*ResponseBuilder`s): from what a handler returned,
 * the status, headers and body of each method. Handler results are checked for shape here; a null where a
 * result is required is a {@link NullResultError} (500), except get, whose null is a 404.
 */

/** What the builder needs of the server. */
export interface BuildOptions {
  readonly headers: ProtocolHeaders;
  readonly errors: ErrorResponseOptions;
}

const NO_HEADERS: { readonly [name: string]: string } = Object.freeze({});

/** A value for messages. */
function show(v: unknown): string {
  if (typeof v !== 'object' || v === null) return String(v);
  try {
    return JSON.stringify(v) ?? typeof v;
  } catch {
    return typeof v;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function methodLabel(call: BoundCall): string {
  return `${call.route.resource.path} ${call.route.target.label}`;
}

/** No key or index for {@link entityData}'s message. */
const NOTHING = Symbol('nothing');

/**
 * The data of an entity a handler returned: a generated record (its data) or a DataMap. The message names
 * `what` followed by `of` (a key or an index), built only on failure: a batch or a page calls this once
 * per entity.
 */
function entityData(call: BoundCall, v: unknown, what: string, of: unknown = NOTHING): DataMap {
  // a generated record first: what handlers return most
  if (isObject(v) && typeof v.data === 'function') {
    const d: unknown = (v.data as () => unknown)();
    if (d instanceof DataMap) return d;
  }
  if (v instanceof DataMap) return v;
  const label = of === NOTHING ? what : `${what} ${show(of)}`;
  if (v === null || v === undefined) throw new NullResultError(`${methodLabel(call)} (${label})`);
  throw new InvalidResultError(
    methodLabel(call),
    `${label} must be a ${call.route.resource.valueClass.name}`,
  );
}

function statusOf(call: BoundCall, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599) {
    throw new InvalidResultError(methodLabel(call), `status ${show(v)} is not an HTTP status`);
  }
  return v;
}

function protocolKey(call: BoundCall, key: unknown): ResourceKey {
  if (key === undefined || key === null)
    throw new InvalidResultError(methodLabel(call), 'a result key is missing');
  try {
    return call.route.keyType!.toProtocol(key);
  } catch (err) {
    throw new InvalidResultError(methodLabel(call), `bad key ${show(key)}: ${(err as Error).message}`);
  }
}

function bodyKey(call: BoundCall, key: unknown): string {
  return encodeKeyForBody(protocolKey(call, key));
}

/** A per-item error body (no error-response header for items, wire facts §3.4). */
function itemError(err: unknown, options: BuildOptions): DataMap {
  return buildErrorResponse(err, options.errors).body ?? new DataMap();
}

function entries<K, V>(v: unknown, call: BoundCall, what: string): Iterable<readonly [K, V]> {
  if (v instanceof Map) return v as Map<K, V>;
  if (isObject(v) && typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function') {
    return v as unknown as Iterable<readonly [K, V]>;
  }
  throw new InvalidResultError(methodLabel(call), `${what} must be a Map (or iterable of [key, value])`);
}

/**
 * Calls `f` for each entry of a handler's map result (see {@link entries}), value first as `Map.forEach`
 * has it: a Map goes through `forEach`, which hands over key and value without the `[key, value]` array
 * its iterator makes per entry.
 */
function eachEntry(
  v: unknown,
  call: BoundCall,
  what: string,
  f: (value: unknown, key: unknown) => void,
): void {
  if (v instanceof Map) {
    (v as Map<unknown, unknown>).forEach(f);
    return;
  }
  for (const [key, value] of entries<unknown, unknown>(v, call, what)) f(value, key);
}

/**
 * Whether {@link project} changes anything for this call: whether defaults are filled in or a projection
 * applies. The methods that send many entities ask once, not through a call to project per entity.
 */
function projects(call: BoundCall): boolean {
  return call.fillInDefaults || call.invocation.ctx.projection !== undefined;
}

/** A returned entity as sent: defaults filled in when asked (`$fillInDefaults`), then projected. */
function project(call: BoundCall, data: DataMap): DataMap {
  const filled = call.fillInDefaults ? fillInDefaults(call.route.resource.valueSchema, data) : data;
  return applyProjection(filled, call.invocation.ctx.projection);
}

/**
 * One element of a streamed finder or get_all answer as sent (streamed-collection.ts): the entity's data,
 * defaults filled in when asked, projected.
 */
export function streamedElement(call: BoundCall, v: unknown, index: number): DataMap {
  return project(call, entityData(call, v, 'element', index));
}

function ok(
  status: number,
  body: DataMap | undefined,
  headers: { readonly [name: string]: string } = NO_HEADERS,
): ResourceResponse {
  return { status, headers, body };
}

/** The response of a successful handler call. */
export function buildResponse(call: BoundCall, result: unknown, options: BuildOptions): ResourceResponse {
  const method = call.route.method;
  switch (method) {
    case 'get':
      if (result === null || result === undefined) throw new ServiceError(404, entityNotFoundMessage(method));
      return ok(200, project(call, entityData(call, result, 'the entity')));
    case 'create':
      return buildCreate(call, result, options);
    case 'batch_create':
      return buildBatchCreate(call, result, options);
    case 'update':
    case 'delete':
    case 'partial_update':
      return buildUpdate(call, result);
    case 'batch_get':
      return buildBatchGet(call, result, options);
    case 'batch_update':
    case 'batch_partial_update':
    case 'batch_delete':
      return buildBatchUpdate(call, result, options);
    case 'get_all':
    case 'finder':
      return buildCollection(call, result);
    case 'batch_finder':
      return buildBatchFinder(call, result, options);
    case 'action':
      return buildAction(call, result);
    default:
      throw new InvalidResultError(methodLabel(call), `method ${String(method)} has no response builder`);
  }
}

function buildCreate(call: BoundCall, result: unknown, options: BuildOptions): ResourceResponse {
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  if (!isObject(result))
    throw new InvalidResultError(methodLabel(call), 'create must return { id, entity?, status? }');
  const key = protocolKey(call, result.id);
  const status = statusOf(call, result.status, DEFAULT_SUCCESS_STATUS.create);
  const ctx = call.invocation.ctx;
  const headers = {
    [options.headers.idHeader(ctx.protocolVersion)]: toHeaderValue(encodeKeyForHeader(key)),
    Location: locationFor(ctx.requestUri, encodeKeyForPath(key), call.route.altKey),
  };
  const body =
    result.entity !== undefined && call.returnEntity
      ? project(call, entityData(call, result.entity, 'the created entity'))
      : undefined;
  return ok(status, body, headers);
}

function buildBatchCreate(call: BoundCall, result: unknown, options: BuildOptions): ResourceResponse {
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  if (!Array.isArray(result))
    throw new InvalidResultError(methodLabel(call), 'batch_create must return a list');
  const uri = call.invocation.ctx.requestUri;
  const items: CreateStatus[] = (result as unknown[]).map((item, i) => {
    if (isServiceError(item)) return { status: item.status, error: itemError(item, options) };
    if (!isObject(item)) {
      if (item === null || item === undefined)
        throw new NullResultError(`${methodLabel(call)} (element ${i})`);
      throw new InvalidResultError(
        methodLabel(call),
        `element ${i} must be { id, entity?, status? } or a ServiceError`,
      );
    }
    const key = protocolKey(call, item.id);
    const s: { -readonly [K in keyof CreateStatus]: CreateStatus[K] } = {
      status: statusOf(call, item.status, 201),
      id: encodeKeyForBody(key),
      location: locationFor(uri, encodeKeyForPath(key), call.route.altKey),
    };
    if (item.entity !== undefined && call.returnEntity)
      s.entity = project(call, entityData(call, item.entity, 'the entity of element', i));
    return s;
  });
  return ok(200, batchCreateResponse(items));
}

function buildUpdate(call: BoundCall, result: unknown): ResourceResponse {
  const method = call.route.method;
  const fallback = DEFAULT_SUCCESS_STATUS[method];
  if (result === null || result === undefined) return ok(fallback, undefined);
  if (!isObject(result)) throw new InvalidResultError(methodLabel(call), 'expected nothing or { status }');
  if (method === 'partial_update' && result.entity !== undefined) {
    const status = statusOf(call, result.status, 200);
    return ok(
      status,
      call.returnEntity ? project(call, entityData(call, result.entity, 'the patched entity')) : undefined,
    );
  }
  return ok(statusOf(call, result.status, fallback), undefined);
}

function buildBatchGet(call: BoundCall, result: unknown, options: BuildOptions): ResourceResponse {
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  // one pass over the handler's maps, straight into the body
  const body = new BatchGetBodyBuilder();
  // no call to project per entity when nothing is filled in or projected (as a finder page's elements)
  const projected = projects(call);
  if (isKeyOrderedList(result)) keyOrderedEntries(call, result, body, projected, options);
  else byKeyEntries(call, result, body, projected, options);
  for (const e of call.keyErrors) body.error(e.key, itemError(e.error, options));
  return ok(200, body.build());
}

/** A batch_get's Map (or iterable of pairs, or {@link BatchGetOutcome}) answer into the body. */
function byKeyEntries(
  call: BoundCall,
  result: unknown,
  body: BatchGetBodyBuilder,
  projected: boolean,
  options: BuildOptions,
): void {
  let resultMap: unknown = result;
  let what = 'batch_get result';
  if (isObject(result) && !(result instanceof Map) && 'results' in result) {
    resultMap = result.results;
    what = 'results';
    entries(resultMap, call, 'results'); // its shape error comes first
    if (result.statuses !== undefined) {
      eachEntry(result.statuses, call, 'statuses', (s, k) => {
        body.status(bodyKey(call, k), statusOf(call, s, 200));
      });
    }
    if (result.errors !== undefined) {
      eachEntry(result.errors, call, 'errors', (e, k) => {
        body.error(bodyKey(call, k), itemError(e, options));
      });
    }
  }
  eachEntry(resultMap, call, what, (v, k) => putBatchGetEntry(call, body, k, v, projected, options));
}

/** One key's answer into a batch_get body: its entity (projected when asked), or its error. */
function putBatchGetEntry(
  call: BoundCall,
  body: BatchGetBodyBuilder,
  key: unknown,
  v: unknown,
  projected: boolean,
  options: BuildOptions,
): void {
  if (isServiceError(v)) {
    body.error(bodyKey(call, key), itemError(v, options));
    return;
  }
  const data = entityData(call, v, 'the entity of key', key);
  body.result(bodyKey(call, key), projected ? project(call, data) : data);
}

/**
 * Whether a batch_get result is a list answering the keys in order (definition.ts `BatchGetReturn`) rather
 * than a list of `[key, value]` pairs, which {@link entries} takes as any iterable: an entity is never an
 * array, a pair always is. An empty list answers nothing either way (as it did before lists in key order).
 */
function isKeyOrderedList(result: unknown): result is readonly unknown[] {
  return Array.isArray(result) && result.length > 0 && !Array.isArray(result[0]);
}

/**
 * A batch_get's list answer into the body: entry i answers the handler's key i. No Map for the handler to
 * build and no entry per key to walk: the example's batch_get of 10 built its Map in ~3k instructions
 * (growing it twice) of ~169k (callgrind over HTTP, svcPlugin).
 */
function keyOrderedEntries(
  call: BoundCall,
  list: readonly unknown[],
  body: BatchGetBodyBuilder,
  projected: boolean,
  options: BuildOptions,
): void {
  const keys = call.invocation.args[0] as readonly unknown[];
  if (list.length !== keys.length) {
    throw new InvalidResultError(
      methodLabel(call),
      `a list answers the ${keys.length} keys in their order, one entry each, but has ${list.length}`,
    );
  }
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (v !== undefined && v !== null) putBatchGetEntry(call, body, keys[i], v, projected, options);
  }
}

function buildBatchUpdate(call: BoundCall, result: unknown, options: BuildOptions): ResourceResponse {
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  const method = call.route.method;
  const results: Array<[string, UpdateStatus]> = [];
  const errors: Array<[string, DataMap]> = [];
  let outcomes: Iterable<readonly [unknown, unknown]>;
  if (isObject(result) && !(result instanceof Map) && 'results' in result) {
    outcomes = entries(result.results, call, 'results');
    if (result.errors !== undefined) {
      for (const [k, e] of entries<unknown, unknown>(result.errors, call, 'errors'))
        errors.push([bodyKey(call, k), itemError(e, options)]);
    }
  } else {
    outcomes = entries(result, call, `${method} result`);
  }
  for (const [k, v] of outcomes) {
    const key = bodyKey(call, k);
    if (isServiceError(v)) {
      errors.push([key, itemError(v, options)]);
      continue;
    }
    if (v === null || v === undefined) {
      results.push([key, { status: 204 }]);
      continue;
    }
    if (!isObject(v))
      throw new InvalidResultError(
        methodLabel(call),
        `the outcome of key ${key} must be { status } or a ServiceError`,
      );
    if (method === 'batch_partial_update' && v.entity !== undefined) {
      const status = statusOf(call, v.status, 200);
      results.push([
        key,
        call.returnEntity
          ? { status, entity: project(call, entityData(call, v.entity, 'the entity of key', key)) }
          : { status },
      ]);
    } else {
      results.push([key, { status: statusOf(call, v.status, 204) }]);
    }
  }
  for (const e of call.keyErrors) errors.push([e.key, itemError(e.error, options)]);
  return ok(200, batchUpdateResponse({ results, errors }));
}

function buildCollection(call: BoundCall, result: unknown): ResourceResponse {
  return ok(200, collectionBody(call, result, call.invocation.ctx.requestUri));
}

/**
 * The `{elements, paging, metadata?}` of a finder's answer (or one batch finder criterion's): the page cut
 * by the framework unless the method pages itself, paging links built on `linkUri`.
 */
function collectionBody(call: BoundCall, result: unknown, linkUri: string | (() => string)): DataMap {
  return collectionBodyOf(call, collectionPage(call, result, linkUri));
}

/** The body of a page (the request's paging projection applied). */
export function collectionBodyOf(call: BoundCall, page: CollectionPage): DataMap {
  const body = collectionResponseOf(page.elements, page.paging, page.metadata);
  const projection = call.invocation.ctx.pagingProjection;
  if (projection !== undefined)
    body.put('paging', applyProjection(collectionMetadataMap(page.paging), projection));
  return body;
}

/** What {@link collectionBody} puts in a body (paging before its projection), for a writer of text. */
export interface CollectionPage {
  readonly elements: DataMap[];
  readonly paging: CollectionMetadata;
  readonly metadata: DataMap | undefined;
}

function collectionPage(call: BoundCall, result: unknown, linkUri: string | (() => string)): CollectionPage {
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  let elements: readonly unknown[];
  let total: number | undefined;
  let metadata: DataMap | undefined;
  if (Array.isArray(result)) {
    elements = result;
  } else if (isObject(result) && Array.isArray(result.elements)) {
    elements = result.elements as unknown[];
    if (result.total !== undefined) {
      if (typeof result.total !== 'number' || !Number.isInteger(result.total) || result.total < 0) {
        throw new InvalidResultError(methodLabel(call), 'total must be a non-negative integer');
      }
      total = result.total;
    }
    if (result.metadata !== undefined && result.metadata !== null) {
      metadata = applyProjection(
        entityDataAny(call, result.metadata),
        call.invocation.ctx.metadataProjection,
      );
    }
  } else if (isObject(result) && result.elements === null) {
    throw new NullResultError(`${methodLabel(call)} (elements)`);
  } else {
    throw new InvalidResultError(
      methodLabel(call),
      'a finder must return a list or { elements, total?, metadata? }',
    );
  }
  const ctx = call.invocation.ctx;
  const { start, count } = ctx.paging;
  // the page: every element the method returned when it pages itself; else the handler returned every
  // match, and the framework cuts the page (read in place: no copy of it) and knows the total
  let from = 0;
  let to = elements.length;
  if (!call.route.target.selfPaging) {
    total ??= elements.length;
    from = Math.min(start, to);
    to = Math.min(to, start + count);
  }
  // each element as it is when there is nothing to fill in or project (most finders): a plain loop, no
  // closure and no call to project per element (~0.5k instructions of the example's finder page of 10)
  const projected = projects(call);
  const data: DataMap[] = [];
  for (let i = from; i < to; i++) {
    const d = entityData(call, elements[i], 'element', i - from);
    data.push(projected ? project(call, d) : d);
  }
  // a batch finder criterion's link URI is built only when there is a link (pagingLinks' rule): building
  // it for every criterion was an eighth of a 100-criteria request's time
  const n = data.length;
  const linked = count > 0 && (start > 0 || (total !== undefined && start + n < total) || n === count);
  const links = pagingLinks({
    requestUri: typeof linkUri === 'string' ? linkUri : linked ? linkUri() : '',
    start,
    count,
    elementCount: data.length,
    total,
    type: ctx.responseType,
  });
  return {
    elements: data,
    paging: total === undefined ? { start, count, links } : { start, count, total, links },
    metadata,
  };
}

/**
 * batch_finder (wire facts §7.2): one entry per request criterion, in request order, duplicates included.
 * A whole-batch handler's {@link BatchFinderResult} is matched to the criteria by {@link criteriaKey}; the
 * per-criterion form's outcomes are in order already. A criterion without a result or an error gets the
 * reference's made-up 404; errors honour the server's error format and mode like any error body.
 */
function buildBatchFinder(call: BoundCall, result: unknown, options: BuildOptions): ResourceResponse {
  const outcomes = batchFinderOutcomes(call, result);
  return ok(200, batchFinderResponse(outcomes.map(batchFinderEntry(call, options))));
}

/** Criteria entries built between two awaits of `between` by {@link buildBatchFinderInParts}. */
const BATCH_FINDER_ENTRIES_PER_PART = 250;

/**
 * A large batch finder's response (issue 22) as {@link buildResponse} builds it, in parts: the handler's
 * results matched to the criteria, then the criteria's entries {@link BATCH_FINDER_ENTRIES_PER_PART} at a
 * time, awaiting `between()` (the server's next turn of the event loop) after each part. Building 1 000
 * entries in one piece took ~5.5 ms, the largest slice of a batch finder.
 */
export async function buildBatchFinderInParts(
  call: BoundCall,
  result: unknown,
  options: BuildOptions,
  between: () => Promise<void>,
): Promise<ResourceResponse> {
  const outcomes = batchFinderOutcomes(call, result);
  const entry = batchFinderEntry(call, options);
  const items: BatchFinderCriteriaResult[] = [];
  for (let i = 0; i < outcomes.length; i++) {
    if (i % BATCH_FINDER_ENTRIES_PER_PART === 0) await between();
    items.push(entry(outcomes[i]!, i));
  }
  return ok(200, batchFinderResponse(items));
}

/** A batch finder's outcome per request criterion, in request order. */
export function batchFinderOutcomes(call: BoundCall, result: unknown): readonly CriterionOutcome[] {
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  const batch = call.route.target.batch!;
  const criteria = call.invocation.args[0] as readonly RecordTemplate[];
  if (result instanceof CriterionOutcomes) {
    return result.items;
  } else if (isBatchFinderResult(result)) {
    const byKey = new Map<string, CriterionOutcome>();
    // each request criterion's key once; a handler putting the criteria it was given (the usual case)
    // reuses them instead of computing its own (the keys were a quarter of a 100-criteria request's time)
    const requestKeys = new Map<DataMap, string>();
    for (const c of criteria) {
      const data = c.data();
      if (!requestKeys.has(data)) requestKeys.set(data, criteriaKey(batch.criteria.schema, data));
    }
    const keyOf = (c: unknown, what: string): string => {
      const data =
        c instanceof DataMap
          ? c
          : isObject(c) && typeof c.data === 'function'
            ? (c.data as () => unknown)()
            : undefined;
      if (!(data instanceof DataMap)) {
        throw new InvalidResultError(
          methodLabel(call),
          `${what} criterion ${show(c)} must be a ${batch.criteria.recordClass.name}`,
        );
      }
      return requestKeys.get(data) ?? criteriaKey(batch.criteria.schema, data);
    };
    // a criterion put both ways is answered with its result, as the reference looks results up first
    for (const [c, error] of result.errors) byKey.set(keyOf(c, 'an error'), { kind: 'error', error });
    for (const [c, value] of result.results) {
      if (value === null || value === undefined) throw new NullResultError(`${methodLabel(call)} (a result)`);
      byKey.set(keyOf(c, 'a result'), { kind: 'result', value });
    }
    return criteria.map((c) => byKey.get(requestKeys.get(c.data())!) ?? MISSING_OUTCOME);
  }
  throw new InvalidResultError(methodLabel(call), 'a batch finder must return a BatchFinderResult');
}

/** Builds one criterion's entry of a batch finder's response from its outcome. */
export function batchFinderEntry(
  call: BoundCall,
  options: BuildOptions,
): (o: CriterionOutcome, i: number) => BatchFinderCriteriaResult {
  return batchFinderEntryOf(call, options, collectionBody);
}

/**
 * {@link batchFinderEntry} with a result's page as is (batch-finder-text.ts writes most as text). `lazy`:
 * criteria not in the parsed query (lazy-criteria.ts), each criterion's data as sent and the request's path.
 */
export function batchFinderPage(
  call: BoundCall,
  options: BuildOptions,
  lazy?: { readonly criterion: (i: number) => DataValue; readonly path: string },
): (o: CriterionOutcome, i: number) => CollectionPage | { readonly error: DataMap } {
  return batchFinderEntryOf(call, options, collectionPage, lazy);
}

function batchFinderEntryOf<T>(
  call: BoundCall,
  options: BuildOptions,
  page: (call: BoundCall, result: unknown, linkUri: () => string) => T,
  lazy?: { readonly criterion: (i: number) => DataValue; readonly path: string },
): (o: CriterionOutcome, i: number) => T | { readonly error: DataMap } {
  const batch = call.route.target.batch!;
  const ctx = call.invocation.ctx;
  const rawCriteria = lazy === undefined ? (ctx.query.get(batch.param) as DataList) : undefined;
  const path = lazy === undefined ? pathOf(ctx.requestUri) : lazy.path;
  return (o, i) => {
    if (o.kind === 'result') {
      return page(call, o.value, () =>
        batchFinderCriterionUri(
          path,
          ctx.query,
          batch.param,
          rawCriteria === undefined ? lazy!.criterion(i) : rawCriteria.get(i),
        ),
      );
    }
    const error = o.kind === 'error' ? o.error : new ServiceError(404, BATCH_FINDER_MISSING_RESULT_MESSAGE);
    if (!isServiceError(error)) ctx.log.error({ err: error }, `${methodLabel(call)}: criterion ${i} failed`);
    return { error: itemError(error, options) };
  };
}

const MISSING_OUTCOME: CriterionOutcome = Object.freeze({ kind: 'missing' });

/** The path of a request target (what comes before `?`). */
function pathOf(uri: string): string {
  const q = uri.indexOf('?');
  return q === -1 ? uri : uri.slice(0, q);
}

function entityDataAny(call: BoundCall, v: unknown): DataMap {
  if (v instanceof DataMap) return v;
  if (isObject(v) && typeof v.data === 'function') {
    const d: unknown = (v.data as () => unknown)();
    if (d instanceof DataMap) return d;
  }
  throw new InvalidResultError(methodLabel(call), 'metadata must be a generated record');
}

function buildAction(call: BoundCall, result: unknown): ResourceResponse {
  const returns = call.route.target.returns;
  if (returns === undefined) return ok(200, undefined);
  if (result === null || result === undefined) throw new NullResultError(methodLabel(call));
  let data: DataValue;
  try {
    data = returns.toData(result);
  } catch (err) {
    throw new InvalidResultError(
      methodLabel(call),
      `the value is not a ${returns.typeName}: ${(err as Error).message}`,
    );
  }
  if (returns.kind === 'primitive' || returns.kind === 'enum') {
    // a handler's number for a long, a string for an enum...: checked, as TypeScript's types vanish at run time
    const check = validate(data, returns.schema(), { coercionMode: CoercionMode.NORMAL });
    if (!check.isValid()) {
      throw new InvalidResultError(
        methodLabel(call),
        `the value is not a ${returns.typeName}: ${check.getMessage().trimEnd()}`,
      );
    }
    data = check.getFixed();
  } else if (call.fillInDefaults && data instanceof DataMap) {
    data = fillInDefaults(returns.schema(), data);
  }
  return ok(200, actionResponse(data));
}
