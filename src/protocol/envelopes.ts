import { DataList, DataMap, type DataValue } from '../data';
import { adoptRootMap } from '../data/adopt';
import { setOwn, type Store } from '../data/internal';
import { checkValueForFreshStore, containerForFreshStore } from '../data/value-check';
import { type ErrorResponse, errorResponseToDataMap, readErrorResponse } from './error-response';
import { InvalidParameterError, ResponseFormatError } from './errors';
import { QueryParam, encodeQueryParams, rawPathOf, rawQueryOf } from './query-string';
import type { ResourceMethod } from './resource-method';
import { percentDecode } from './uri-component-encoding';

/**
 * Response bodies per resource method (wire facts §3.5, §7.2): builders for the server, readers for the
 * client. Map keys of batch bodies are keys in body form (`encodeKeyForBody`). Readers check the shape and
 * throw {@link ResponseFormatError} (`SVC_ERR_PROTOCOL_BAD_RESPONSE`) where it is off.
 */

/** The success status of each method when the resource does not choose one. */
export const DEFAULT_SUCCESS_STATUS: Readonly<Record<ResourceMethod, number>> = {
  get: 200,
  batch_get: 200,
  create: 201,
  batch_create: 200,
  update: 204,
  batch_update: 200,
  partial_update: 204,
  batch_partial_update: 200,
  delete: 204,
  batch_delete: 200,
  get_all: 200,
  finder: 200,
  batch_finder: 200,
  action: 200,
};

/** The 404 message when a get (or update-with-entity) handler returns nothing. */
export function entityNotFoundMessage(method: ResourceMethod): string {
  return `Requested entity not found: ${method}`;
}

/** An ErrorResponse given as fields or as its DataMap. */
export type ErrorBody = ErrorResponse | DataMap;

function errorMap(e: ErrorBody): DataMap {
  return e instanceof DataMap ? e : errorResponseToDataMap(e);
}

function mapOf<V>(
  entries: Iterable<readonly [string, V]> | undefined,
  convert: (v: V) => DataValue,
): DataMap {
  const map = new DataMap();
  // set, not put: nothing here needs the previous value, which put looks up (and wraps)
  if (entries !== undefined) for (const [k, v] of entries) map.set(k, convert(v));
  return map;
}

// ---------------------------------------------------------------------------------------------------------
// Reading helpers

function need(body: DataValue | undefined, path: string): DataMap {
  if (!(body instanceof DataMap)) throw new ResponseFormatError(path, 'expected a map');
  return body;
}

function field(map: DataMap, name: string, path: string): DataValue {
  const v = map.get(name);
  if (v === undefined) throw new ResponseFormatError(`${path}/${name}`, `'${name}' is missing`);
  return v;
}

function intField(map: DataMap, name: string, path: string, optional: true): number | undefined;
function intField(map: DataMap, name: string, path: string, optional?: false): number;
function intField(map: DataMap, name: string, path: string, optional = false): number | undefined {
  const v = map.get(name);
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new ResponseFormatError(`${path}/${name}`, `'${name}' must be an int`);
  }
  return v;
}

function stringField(map: DataMap, name: string, path: string): string | undefined {
  const v = map.get(name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new ResponseFormatError(`${path}/${name}`, `'${name}' must be a string`);
  return v;
}

function listField(map: DataMap, name: string, path: string): DataList {
  const v = field(map, name, path);
  if (!(v instanceof DataList)) throw new ResponseFormatError(`${path}/${name}`, `'${name}' must be a list`);
  return v;
}

function optionalMap(map: DataMap, name: string, path: string): DataMap | undefined {
  const v = map.get(name);
  if (v === undefined) return undefined;
  if (!(v instanceof DataMap)) throw new ResponseFormatError(`${path}/${name}`, `'${name}' must be a map`);
  return v;
}

function entriesOfMap<V>(
  map: DataMap | undefined,
  path: string,
  read: (v: DataValue, p: string) => V,
): Map<string, V> {
  const out = new Map<string, V>();
  if (map !== undefined) for (const [k, v] of map) out.set(k, read(v, `${path}/${k}`));
  return out;
}

function entity(v: DataValue, path: string): DataMap {
  return need(v, path);
}

// ---------------------------------------------------------------------------------------------------------
// BATCH_GET

/** What a batch_get handler produced, keys in body form. */
export interface BatchGetResult {
  readonly results: Iterable<readonly [string, DataMap]>;
  /** Only the statuses the resource set explicitly. */
  readonly statuses?: Iterable<readonly [string, number]>;
  readonly errors?: Iterable<readonly [string, ErrorBody]>;
}

/** `{"results":{...},"statuses":{...},"errors":{...}}`: all three maps always present. Missing keys stay missing. */
export function batchGetResponse(r: BatchGetResult): DataMap {
  return batchGetEnvelope(
    mapOf(r.results, (v) => v),
    mapOf(r.statuses, (v) => v),
    mapOf(r.errors, errorMap),
  );
}

/** The batch_get body from its three maps, already keyed in body form. */
function batchGetEnvelope(results: DataMap, statuses: DataMap, errors: DataMap): DataMap {
  return new DataMap().set('results', results).set('statuses', statuses).set('errors', errors);
}

/**
 * Builds a batch_get body in one pass over a handler's result, keys in body form; same body as
 * {@link batchGetResponse}. The three maps are raw stores under the one DataMap that {@link build} returns,
 * as the decoders and the URI parser build data (their wrappers come on first access): a batch answer
 * then makes one map rather than four, which mattered on the server's hot path (bench/resources.bench.ts).
 * Entries are checked as `DataMap.set` checks them; the last of two equal keys wins.
 */
export class BatchGetBodyBuilder {
  private readonly results: Store = {};
  private readonly statuses: Store = {};
  private readonly errors: Store = {};

  result(key: string, entity: DataMap): void {
    // a DataMap (what the server always puts) without checkValue's type tests: ~0.5k instructions of the
    // example's batch_get of 10 (callgrind over HTTP); anything else is checked, and refused, as before
    setOwn(
      this.results,
      key,
      entity instanceof DataMap ? containerForFreshStore(entity) : checkValueForFreshStore(entity, key),
    );
  }

  status(key: string, status: number): void {
    setOwn(this.statuses, key, checkValueForFreshStore(status, key));
  }

  error(key: string, error: ErrorBody): void {
    setOwn(this.errors, key, checkValueForFreshStore(errorMap(error), key));
  }

  /** The body; the builder is spent. */
  build(): DataMap {
    return adoptRootMap({ results: this.results, statuses: this.statuses, errors: this.errors });
  }
}

/** A batch_get response as a client reads it. */
export interface BatchGetResponse {
  readonly results: Map<string, DataMap>;
  readonly statuses: Map<string, number>;
  readonly errors: Map<string, ErrorResponse>;
}

/** Reads a batch_get response body (`results`, `statuses`, `errors` by key). */
export function readBatchGetResponse(body: DataValue | undefined): BatchGetResponse {
  const m = need(body, '');
  return {
    results: entriesOfMap(optionalMap(m, 'results', ''), '/results', entity),
    statuses: entriesOfMap(optionalMap(m, 'statuses', ''), '/statuses', (v, p) => {
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new ResponseFormatError(p, 'a status must be an int');
      return v;
    }),
    errors: entriesOfMap(optionalMap(m, 'errors', ''), '/errors', readErrorResponse),
  };
}

// ---------------------------------------------------------------------------------------------------------
// BATCH_UPDATE, BATCH_PARTIAL_UPDATE, BATCH_DELETE

/** The outcome of one key of a batch update: its status and, for a partial update returning it, the entity. */
export interface UpdateStatus {
  readonly status: number;
  readonly entity?: DataMap;
}

/** What a batch update, partial update or delete handler produced; each key in exactly one map. */
export interface BatchUpdateResult {
  readonly results: Iterable<readonly [string, UpdateStatus]>;
  readonly errors?: Iterable<readonly [string, ErrorBody]>;
}

function updateStatusMap(s: UpdateStatus): DataMap {
  const m = new DataMap();
  m.put('status', s.status);
  if (s.entity !== undefined) m.put('entity', s.entity);
  return m;
}

/** `{"results":{key:{"status":204}},"errors":{key:{...}}}`: no `statuses` map. */
export function batchUpdateResponse(r: BatchUpdateResult): DataMap {
  return new DataMap()
    .set('results', mapOf(r.results, updateStatusMap))
    .set('errors', mapOf(r.errors, errorMap));
}

/** A batch update, partial update or delete response as a client reads it: statuses and errors by key. */
export interface BatchUpdateResponse {
  readonly results: Map<string, UpdateStatus>;
  readonly errors: Map<string, ErrorResponse>;
}

/** Reads a batch update, partial update or delete response body. */
export function readBatchUpdateResponse(body: DataValue | undefined): BatchUpdateResponse {
  const m = need(body, '');
  return {
    results: entriesOfMap(optionalMap(m, 'results', ''), '/results', (v, p) => {
      const s = need(v, p);
      const e = optionalMap(s, 'entity', p);
      return e === undefined
        ? { status: intField(s, 'status', p) }
        : { status: intField(s, 'status', p), entity: e };
    }),
    errors: entriesOfMap(optionalMap(m, 'errors', ''), '/errors', readErrorResponse),
  };
}

// ---------------------------------------------------------------------------------------------------------
// CREATE, BATCH_CREATE

/** One created entity (or failure) of a batch create: the `CreateStatus` record. */
export interface CreateStatus {
  readonly status: number;
  /** The key in body form. */
  readonly id?: string;
  readonly location?: string;
  readonly error?: ErrorBody;
  /** With `$returnEntity`. */
  readonly entity?: DataMap;
}

/** A `CreateStatus` record as a DataMap. */
export function createStatusMap(s: CreateStatus): DataMap {
  const m = new DataMap();
  m.put('status', s.status);
  if (s.id !== undefined) m.put('id', s.id);
  if (s.location !== undefined) m.put('location', s.location);
  if (s.error !== undefined) m.put('error', errorMap(s.error));
  if (s.entity !== undefined) m.put('entity', s.entity);
  return m;
}

/** `{"elements":[CreateStatus, ...]}`, in request order. */
export function batchCreateResponse(items: Iterable<CreateStatus>): DataMap {
  const list = new DataList();
  for (const s of items) list.add(createStatusMap(s));
  return new DataMap([['elements', list]]);
}

/** A `CreateStatus` as a client reads it. */
export interface CreateStatusRead {
  readonly status: number;
  readonly id?: string;
  readonly location?: string;
  readonly error?: ErrorResponse;
  readonly entity?: DataMap;
}

/** Reads a batch_create response body: one status (id, or error) per element, in request order. */
export function readBatchCreateResponse(body: DataValue | undefined): CreateStatusRead[] {
  const m = need(body, '');
  return listField(m, 'elements', '')
    .toArray()
    .map((item, i) => {
      const p = `/elements/${i}`;
      const s = need(item, p);
      const out: { -readonly [K in keyof CreateStatusRead]: CreateStatusRead[K] } = {
        status: intField(s, 'status', p),
      };
      const id = stringField(s, 'id', p);
      if (id !== undefined) out.id = id;
      const location = stringField(s, 'location', p);
      if (location !== undefined) out.location = location;
      const error = s.get('error');
      if (error !== undefined) out.error = readErrorResponse(error, `${p}/error`);
      const e = optionalMap(s, 'entity', p);
      if (e !== undefined) out.entity = e;
      return out;
    });
}

/**
 * The `Location` of a created entity (wire facts §3.4): the request URI's path with the key (path form)
 * appended as a segment, the query dropped, `?altkey=<name>` added when an alternative key was used.
 */
export function locationFor(requestUri: string, keyPathSegment: string, altKey?: string): string {
  const path = rawPathOf(requestUri);
  const base = path.endsWith('/') ? path : `${path}/`;
  return altKey === undefined
    ? `${base}${keyPathSegment}`
    : `${base}${keyPathSegment}?${encodeQueryParams({ [QueryParam.ALT_KEY]: altKey })}`;
}

/**
 * `$returnEntity` as the server reads it: absent means true; otherwise `true` or `false` in any case.
 *
 * @throws InvalidParameterError 400 `Invalid "$returnEntity" parameter: <value>`
 */
export function parseReturnEntity(value: DataValue | undefined): boolean {
  return parseBooleanParam(QueryParam.RETURN_ENTITY, value, true);
}

/**
 * `$fillInDefaults` as the server reads it: absent means false; otherwise `true` or `false` in any case.
 *
 * @throws InvalidParameterError 400 `Invalid "$fillInDefaults" parameter: <value>`
 */
export function parseFillInDefaults(value: DataValue | undefined): boolean {
  return parseBooleanParam(QueryParam.FILL_IN_DEFAULTS, value, false);
}

/** A framework flag parameter: `true` or `false` in any case, `absent` when it is not there. */
function parseBooleanParam(name: string, value: DataValue | undefined, absent: boolean): boolean {
  if (value === undefined) return absent;
  const lower = typeof value === 'string' ? value.toLowerCase() : undefined;
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new InvalidParameterError(
    name,
    `Invalid "${name}" parameter: ${typeof value === 'string' ? value : String(value)}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// FINDER, GET_ALL: collections and paging

/** Paging of a request: where the page starts and how many it may hold. */
export interface Paging {
  readonly start: number;
  readonly count: number;
}

/** The reference's paging defaults: start 0, count 10. */
export const DEFAULT_PAGING: Paging = Object.freeze({ start: 0, count: 10 });

function pagingValue(v: DataValue | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return Number.NaN;
  // the usual value, 1 to 9 plain digits, read by char code: the trim, the regular expression and the two
  // conversions below took ~0.5k instructions a parameter (callgrind over HTTP, the example's finder)
  const n = v.length;
  if (n > 0 && n < 10) {
    let x = 0;
    let i = 0;
    for (; i < n; i++) {
      const d = v.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      x = x * 10 + d;
    }
    if (i === n) return x;
  }
  if (v.trim() === '') return undefined;
  return /^[+-]?\d{1,10}$/.test(v) && Math.abs(Number(v)) <= 2147483647 ? Number(v) : Number.NaN;
}

/**
 * `start` and `count` from the parsed query (strings), with defaults for absent or blank values.
 *
 * @throws InvalidParameterError 400 `Invalid (non-integer) start/count parameters` or `start/count parameters
 *   must be non-negative`
 */
export function parsePagingParams(
  start: DataValue | undefined,
  count: DataValue | undefined,
  defaults: Paging = DEFAULT_PAGING,
): Paging {
  const s = pagingValue(start);
  const c = pagingValue(count);
  if (Number.isNaN(s) || Number.isNaN(c)) {
    throw new InvalidParameterError(
      Number.isNaN(s) ? QueryParam.START : QueryParam.COUNT,
      'Invalid (non-integer) start/count parameters',
    );
  }
  const out = { start: s ?? defaults.start, count: c ?? defaults.count };
  if (out.start < 0 || out.count < 0) {
    throw new InvalidParameterError(
      out.start < 0 ? QueryParam.START : QueryParam.COUNT,
      'start/count parameters must be non-negative',
    );
  }
  return out;
}

/** A paging link. */
export interface Link {
  readonly rel: string;
  readonly href: string;
  /** The response's MIME type. */
  readonly type: string;
}

/** The `paging` record (`CollectionMetadata`). */
export interface CollectionMetadata {
  readonly start: number;
  readonly count: number;
  /** Present only when the resource gives it. */
  readonly total?: number;
  readonly links: readonly Link[];
}

/** Whether a raw name (percent-escapes, `+` for a space) decodes to `start` or `count`. */
function namesStartOrCount(raw: string): boolean {
  let name = raw;
  try {
    name = percentDecode(raw, true);
  } catch {
    // an undecodable name is kept as it is
  }
  return name === QueryParam.START || name === QueryParam.COUNT;
}

/**
 * The request URI with `start` and `count` replaced: other parameters keep their raw text and order, the
 * new `start` and `count` come last (`/greetings?q=search&tone=FRIENDLY&start=10&count=10`).
 */
export function pagedUri(requestUri: string, start: number, count: number): string {
  // the same request URI comes back request after request (a client paging with the same query), and a
  // page with both links builds two from one: its part before `start` is kept for the next call. A
  // compare of the URI's text costs a fraction of the scan below (~1.5k instructions of the example's
  // finder page, callgrind over HTTP)
  if (requestUri !== lastPagedUri) {
    lastPagedPrefix = pagedPrefix(requestUri);
    lastPagedUri = requestUri;
    lastHrefs[0] = lastHrefs[1] = undefined;
  }
  // and the same URI gets the same links: the last two made (a page's prev and next) are answered again.
  // A string built anew is a chain of its parts, which the response's JSON.stringify copies into one flat
  // string on every response; one answered again was flattened once, in place (~0.6k instructions of the
  // example's finder page, callgrind over HTTP)
  for (let i = 0; i < 2; i++) {
    const h = lastHrefs[i];
    if (h !== undefined && h.start === start && h.count === count) return h.href;
  }
  const href = `${lastPagedPrefix}${QueryParam.START}=${start}&${QueryParam.COUNT}=${count}`;
  lastHrefs[1] = lastHrefs[0];
  lastHrefs[0] = { start, count, href };
  return href;
}

/** The request URI {@link pagedUri} last made links for, their common part, and the last two links. */
let lastPagedUri = '';
let lastPagedPrefix = '';
const lastHrefs: Array<
  { readonly start: number; readonly count: number; readonly href: string } | undefined
> = [undefined, undefined];

/** `path?` and the query's parameters but `start` and `count`, each followed by `&`. */
function pagedPrefix(requestUri: string): string {
  const query = rawQueryOf(requestUri) ?? '';
  // one scan by character codes, as splitQuery's (a finder page builds its links on every response; the
  // split-filter-join it replaces cost ~650 ns a link, in-process)
  let kept = '';
  const n = query.length;
  for (let from = 0; from < n;) {
    let i = from;
    let nameEnd = -1;
    let plain = true;
    for (; i < n; i++) {
      const c = query.charCodeAt(i);
      if (c === 0x26 /* & */) break;
      if (nameEnd === -1) {
        if (c === 0x3d /* = */) nameEnd = i;
        else if (c === 0x25 /* % */ || c === 0x2b /* + */) plain = false;
      }
    }
    if (i > from) {
      const raw = query.slice(from, nameEnd === -1 ? i : nameEnd);
      const paging = plain ? raw === QueryParam.START || raw === QueryParam.COUNT : namesStartOrCount(raw);
      if (!paging) kept += `${query.slice(from, i)}&`;
    }
    from = i + 1;
  }
  return `${rawPathOf(requestUri)}?${kept}`;
}

/** What {@link pagingLinks} needs. */
export interface PagingLinksInput extends Paging {
  readonly requestUri: string;
  /** Elements on this page. */
  readonly elementCount: number;
  readonly total?: number;
  /** The response MIME type, for each link's `type`. */
  readonly type: string;
}

/**
 * The paging links (wire facts §3.5): none when count is 0; `prev` when start > 0 (at max(0, start −
 * count)); `next` at start + elements when start + elements < total or the page is full (elements ==
 * count), as the reference's code decides.
 */
export function pagingLinks(input: PagingLinksInput): Link[] {
  const links: Link[] = [];
  const { start, count, elementCount, total, requestUri, type } = input;
  if (count <= 0) return links;
  if (start > 0)
    links.push({ rel: 'prev', href: pagedUri(requestUri, Math.max(0, start - count), count), type });
  if ((total !== undefined && start + elementCount < total) || elementCount === count) {
    links.push({ rel: 'next', href: pagedUri(requestUri, start + elementCount, count), type });
  }
  return links;
}

/** The `paging` record as a DataMap: `{start, count, total?, links}`. */
export function collectionMetadataMap(m: CollectionMetadata): DataMap {
  return adoptRootMap(collectionMetadataStore(m));
}

/**
 * The `paging` record as a fresh raw store, its values checked as `DataMap.put` checks them: a finder page
 * builds it on every response, and raw stores under one adopted root (as {@link BatchGetBodyBuilder}
 * builds batch_get bodies) take a third of the instructions of three DataMaps and a DataList (callgrind over
 * HTTP, the example's finder page: ~6.1k of its ~186k).
 */
function collectionMetadataStore(m: CollectionMetadata, framework = false): Store {
  const links: unknown[] = [];
  for (let i = 0; i < m.links.length; i++) {
    const l = m.links[i]!;
    // paging the framework made (collectionResponseOf) holds its own `rel` and `type` constants and
    // checked integers, taken as they are (~0.3k instructions of the example's finder page); the `href`
    // holds the request URI, which a multiplexed request's JSON may give lone surrogates: checked always
    links.push({
      rel: framework ? l.rel : checkValueForFreshStore(l.rel, 'rel'),
      href: checkValueForFreshStore(l.href, 'href'),
      type: framework ? l.type : checkValueForFreshStore(l.type, 'type'),
    });
  }
  const store: Store = framework
    ? { start: m.start, count: m.count }
    : { start: checkValueForFreshStore(m.start, 'start'), count: checkValueForFreshStore(m.count, 'count') };
  if (m.total !== undefined) store.total = framework ? m.total : checkValueForFreshStore(m.total, 'total');
  store.links = links;
  return store;
}

/** What a finder or get_all handler produced. */
export interface CollectionResult {
  readonly elements: Iterable<DataMap>;
  readonly paging: CollectionMetadata;
  /** Custom metadata, when the resource supplies it. */
  readonly metadata?: DataMap;
}

/** `{"elements":[...],"paging":{...},"metadata"?:{...}}`. */
export function collectionResponse(r: CollectionResult): DataMap {
  // raw stores under one adopted root, as collectionMetadataStore (why there)
  const elements: unknown[] = [];
  let i = 0;
  for (const e of r.elements) elements.push(checkValueForFreshStore(e, i++));
  return collectionBody(elements, r.paging, r.metadata, false);
}

/**
 * {@link collectionResponse} of elements known to be DataMaps (the server's finder page: each came from a
 * record's `data()` or was a DataMap), taken as they are: without the result object around them, the
 * iterator and each element's type tests (~0.8k instructions of the example's finder page of 10, callgrind
 * over HTTP). `paging` is the framework's own (response-builder.ts: `rel` and `type` constants, checked
 * integers), which the body takes as it is but for the links' `href`s.
 * @internal
 */
export function collectionResponseOf(
  elements: readonly DataMap[],
  paging: CollectionMetadata,
  metadata: DataMap | undefined,
): DataMap {
  const stores: unknown[] = [];
  for (let i = 0; i < elements.length; i++) stores.push(containerForFreshStore(elements[i]!));
  return collectionBody(stores, paging, metadata, true);
}

function collectionBody(
  elements: unknown[],
  paging: CollectionMetadata,
  metadata: DataMap | undefined,
  framework: boolean,
): DataMap {
  const body: Store = { elements, paging: collectionMetadataStore(paging, framework) };
  if (metadata !== undefined) body.metadata = checkValueForFreshStore(metadata, 'metadata');
  return adoptRootMap(body);
}

function readPaging(v: DataValue, path: string): CollectionMetadata {
  const p = need(v, path);
  const links = listField(p, 'links', path)
    .toArray()
    .map((l, i) => {
      const lp = `${path}/links/${i}`;
      const m = need(l, lp);
      const rel = stringField(m, 'rel', lp);
      const href = stringField(m, 'href', lp);
      const type = stringField(m, 'type', lp);
      if (rel === undefined || href === undefined || type === undefined) {
        throw new ResponseFormatError(lp, 'a link needs rel, href and type');
      }
      return { rel, href, type };
    });
  const total = intField(p, 'total', path, true);
  const start = intField(p, 'start', path);
  const count = intField(p, 'count', path);
  return total === undefined ? { start, count, links } : { start, count, total, links };
}

/** A finder or get_all response as a client reads it. */
export interface CollectionResponse {
  readonly elements: DataMap[];
  readonly paging: CollectionMetadata | undefined;
  readonly metadata: DataMap | undefined;
}

/** Reads a finder or get_all response body: the elements, paging and metadata. */
export function readCollectionResponse(body: DataValue | undefined): CollectionResponse {
  const m = need(body, '');
  const paging = m.get('paging');
  return {
    elements: listField(m, 'elements', '')
      .toArray()
      .map((e, i) => entity(e, `/elements/${i}`)),
    paging: paging === undefined ? undefined : readPaging(paging, '/paging'),
    metadata: optionalMap(m, 'metadata', ''),
  };
}

// ---------------------------------------------------------------------------------------------------------
// ACTION

/** `{"value": v}`, or no body (undefined) for a void action. */
export function actionResponse(value: DataValue | undefined): DataMap | undefined {
  return value === undefined ? undefined : new DataMap([['value', value]]);
}

/** The value of an action response; undefined for an empty (void) one. */
export function readActionResponse(body: DataValue | undefined): DataValue | undefined {
  if (body === undefined) return undefined;
  return need(body, '').get('value');
}

// ---------------------------------------------------------------------------------------------------------
// BATCH_FINDER

/** The 404 made up for a criterion with neither a result nor an error. */
export const BATCH_FINDER_MISSING_RESULT_MESSAGE =
  "The server didn't find a representation for this criteria";

/** The outcome of one batch finder criterion: a collection (or its body, built already), or an error. */
export type BatchFinderCriteriaResult = CollectionResult | DataMap | { readonly error: ErrorBody };

/**
 * `{"elements":[criteriaResult, ...]}`, one per criterion in request order: a success is a collection
 * (`isError` absent), a failure `{"elements":[],"isError":true,"error":{...}}`.
 */
export function batchFinderResponse(items: Iterable<BatchFinderCriteriaResult>): DataMap {
  const list = new DataList();
  for (const item of items) {
    if (item instanceof DataMap) {
      list.add(item);
    } else if ('error' in item) {
      list.add(
        new DataMap([
          ['elements', new DataList()],
          ['isError', true],
          ['error', errorMap(item.error)],
        ]),
      );
    } else {
      list.add(collectionResponse(item));
    }
  }
  return new DataMap([['elements', list]]);
}

/** One criterion's result as a client reads it. */
export interface BatchFinderCriteriaResponse extends CollectionResponse {
  readonly isError: boolean;
  readonly error: ErrorResponse | undefined;
}

/** Reads a batch finder response body: one result (elements or error) per criterion, in request order. */
export function readBatchFinderResponse(body: DataValue | undefined): BatchFinderCriteriaResponse[] {
  const m = need(body, '');
  return listField(m, 'elements', '')
    .toArray()
    .map((item, i) => {
      const p = `/elements/${i}`;
      const c = need(item, p);
      const isError = c.get('isError');
      if (isError !== undefined && typeof isError !== 'boolean')
        throw new ResponseFormatError(`${p}/isError`, "'isError' must be a boolean");
      const error = c.get('error');
      const paging = c.get('paging');
      return {
        elements: listField(c, 'elements', p)
          .toArray()
          .map((e, j) => entity(e, `${p}/elements/${j}`)),
        paging: paging === undefined ? undefined : readPaging(paging, `${p}/paging`),
        metadata: optionalMap(c, 'metadata', p),
        isError: isError === true,
        error: error === undefined ? undefined : readErrorResponse(error, `${p}/error`),
      };
    });
}

/**
 * The URI behind one criterion's paging links (wire facts §7.2): the path plus all parameters, sorted, with
 * the batch parameter narrowed to that one criterion (`List(<criterion>)`); `pagingLinks` then replaces
 * start and count.
 */
export function batchFinderCriterionUri(
  path: string,
  params: DataMap,
  batchParam: string,
  criterion: DataValue,
): string {
  const narrowed = new DataMap(params);
  narrowed.put(batchParam, new DataList([criterion]));
  const query = encodeQueryParams(narrowed);
  return query === '' ? path : `${path}?${query}`;
}
