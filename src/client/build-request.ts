import { ByteString, DataList, DataMap, DataNull, type DataCodec, type DataValue } from '../data';
import {
  HTTP_METHOD_OF,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
  QueryParam,
  RESOURCE_METHODS,
  type MaskPath,
  type ResourceKey,
  type ResourceMethod,
  batchIdsData,
  contextualEncode,
  encodeKeyForBody,
  encodeKeyForPath,
  encodeQueryParams,
  isComplexKey,
  isCompoundKey,
  maskFromPaths,
  methodHeaderValue,
} from '../protocol';
import type { AttachmentSources } from '../streams/related/encoder';
import { ClientOptionsError, RequestBuildError } from './errors';
import {
  type ClientOptions,
  type ResolvedClientOptions,
  checkEncodable,
  resolveClientOptions,
  validateHeaders,
} from './options';
import type {
  ActionRequest,
  BatchCreateRequest,
  BatchDeleteRequest,
  BatchFinderRequest,
  BatchGetRequest,
  BatchPartialUpdateRequest,
  BatchUpdateRequest,
  CollectionRequestCommon,
  CreateRequest,
  DeleteRequest,
  Entity,
  FinderRequest,
  GetAllRequest,
  GetRequest,
  PageRequest,
  ParamValue,
  ParamsInit,
  PartialUpdateRequest,
  Projection,
  RequestDescription,
  UpdateRequest,
} from './request-description';

/** An HTTP request ready to send: what {@link buildRequest} makes of a request description. */
export interface HttpRequest {
  /** The resource method it stands for. */
  readonly resourceMethod: ResourceMethod;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The absolute URL. */
  readonly url: string;
  /** The URL relative to the base URL (`photos/1?fields=id`), as the reference's tests write URIs. */
  readonly uri: string;
  /** Header names as written (`X-Svc-Protocol-Version`, `Content-Type`...). */
  readonly headers: Readonly<Record<string, string>>;
  /** The encoded body; undefined for methods without one. */
  readonly body: Uint8Array | undefined;
  /** The body's data, before encoding (for logging and tests). */
  readonly bodyData: DataMap | undefined;
  /** Attachments sent after the body as `multipart/related` (the transport writes the envelope). */
  readonly attachments?: AttachmentSources;
}

/** Query parameter names the client writes itself; `params` may not use them. */
const RESERVED_PARAMS: ReadonlySet<string> = /* @__PURE__ */ new Set(
  /* @__PURE__ */ Object.values(QueryParam),
);

const KNOWN_METHODS: ReadonlySet<string> = /* @__PURE__ */ new Set(RESOURCE_METHODS);

/**
 * Builds the HTTP request for a request description (wire facts §2, §3.3), a pure function:
 *
 * - path: base URL, the resource path (sub-resource `{name}` segments filled with `pathKeys`), then the
 *   entity key for entity methods (`encodeKeyForPath`);
 * - query: the method's framework parameters (`q`, `bq`, `action`, `ids=List(...)`, `start`, `count`,
 *   `fields`..., `$returnEntity`) and the caller's `params`, names sorted (`encodeQueryParams`);
 * - headers: the client's headers, the request's, `Accept` (unless given), `Content-Type` with a body,
 *   `X-LI-R2-W-MsgType: REST` to Rest.li peers (unless given; `RESTLI_CLIENT_HEADERS`), then the protocol
 *   version (always) and the method header (on POST, or always with `methodHeader: 'always'`),
 *   lower-case as the reference's client sends it;
 * - body: the entity, `{"elements":[...]}`, `{"patch":...}`, `{"entities":{<key>:...}}` (keys in body form
 *   with `$params`), or the action parameters (`{}` when none), encoded with the client's codec or the one
 *   a request's own `Content-Type` header names.
 *
 * `version` is the protocol version to write (default: the client's fixed version, else the latest);
 * only 2.0.0 can be encoded.
 *
 * @example
 * ```ts
 * buildRequest({ method: 'batch_get', resource: 'photos', ids: [1, 2, 3], fields: 'id,title' },
 *   { baseUrl: 'http://127.0.0.1:8080' }).uri;
 * // 'photos?fields=id,title&ids=List(1,2,3)'
 * ```
 * @throws RequestBuildError for a description that cannot be sent
 * @throws ClientOptionsError, UnsupportedProtocolVersionError for bad options
 */
export function buildRequest(
  desc: RequestDescription,
  options: ClientOptions | ResolvedClientOptions,
  version?: ProtocolVersion,
): HttpRequest {
  return buildRequestOf(desc, options, version, requestKindOf(desc));
}

/** The {@link RequestKind} of a description's method; undefined for an unknown method (or not a description). */
export function requestKindOf<D extends RequestDescription>(desc: D): RequestKind<D> | undefined {
  const method = (desc as { method?: unknown } | null)?.method;
  return typeof desc === 'object' && desc !== null && KNOWN_METHODS.has(method as string)
    ? (REQUEST_KINDS[method as ResourceMethod] as RequestKind<D>)
    : undefined;
}

/**
 * What one method kind adds to a request: its entity path key, its query parameters and its body. The
 * per-method calls (`calls.ts`) name their kind's function, so that a page calling only `get` carries no
 * other kind's request building (README.md, "Size").
 */
export type RequestKind<D extends RequestDescription> = (desc: D, parts: RequestParts) => void;

/** The request being built, as a {@link RequestKind} fills it. */
export interface RequestParts {
  /** The query parameters so far (the caller's `params` first). */
  readonly query: Array<[string, DataValue]>;
  /** The body's data; undefined for a method without one. */
  bodyData: DataMap | undefined;
  /** Adds a query parameter unless `value` is undefined. */
  set(name: string, value: DataValue | undefined): void;
  /** Appends the entity key to the path (nothing for an undefined key). */
  entityPath(key: ResourceKey | undefined): void;
}

/**
 * {@link buildRequest} for a description of a known kind: `kind` fills in what the method adds (undefined:
 * the description's method is unknown, refused after the options and version are checked, as before).
 */
export function buildRequestOf<D extends RequestDescription>(
  desc: D,
  options: ClientOptions | ResolvedClientOptions,
  version: ProtocolVersion | undefined,
  kind: RequestKind<D> | undefined,
): HttpRequest {
  const o = resolveClientOptions(options);
  const v =
    version ?? (o.protocolVersion.kind === 'fixed' ? o.protocolVersion.version : LATEST_PROTOCOL_VERSION);
  checkEncodable(v, v.toString());
  if (kind === undefined) {
    throw new RequestBuildError(
      `Unknown resource method '${String((desc as { method?: unknown } | null)?.method)}'; expected one of ${RESOURCE_METHODS.join(', ')}`,
    );
  }
  const method = desc.method;
  let path = expandResourcePath(desc.resource, desc.pathKeys);
  const query: Array<[string, DataValue]> = customParams(desc.params);
  const set = (name: string, value: DataValue | undefined): void => {
    if (value !== undefined) query.push([name, value]);
  };
  const parts: RequestParts = {
    query,
    bodyData: undefined,
    set,
    entityPath: (key) => {
      if (key === undefined) return;
      if (key === '' || (key instanceof ByteString && key.length === 0)) {
        // wire facts §8: servers only percent-decode a simple path key, so '' would arrive as the
        // two-character string "''": refuse rather than address another entity
        throw new RequestBuildError(
          "An empty string key cannot be sent in a path: a Rest.li server reads a simple path key without the URI grammar, so '' would arrive as the two-character string \"''\"; use a batch method (ids=List('')) for it",
        );
      }
      path += `/${encodeKeyForPath(checkKey(key, 'key'))}`;
    },
  };
  kind(desc, parts);
  const bodyData = parts.bodyData;

  if (desc.altKey !== undefined) {
    if (typeof desc.altKey !== 'string' || desc.altKey === '')
      throw new RequestBuildError(`'altKey' must be a non-empty string, got ${describe(desc.altKey)}`);
    set(QueryParam.ALT_KEY, desc.altKey);
  }
  if (desc.fillInDefaults === true) set(QueryParam.FILL_IN_DEFAULTS, true);
  else if (desc.fillInDefaults !== undefined && desc.fillInDefaults !== false) {
    throw new RequestBuildError(`'fillInDefaults' must be a boolean, got ${describe(desc.fillInDefaults)}`);
  }

  let queryText: string;
  try {
    queryText = encodeQueryParams(query);
  } catch (err) {
    throw new RequestBuildError(`Cannot encode the query parameters: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const uri = queryText === '' ? path : `${path}?${queryText}`;
  const httpMethod = HTTP_METHOD_OF[method];

  const headers = new HeaderList();
  headers.setAll(o.headers);
  if (desc.headers !== undefined) {
    try {
      headers.setAll(validateHeaders(desc.headers, 'headers'));
    } catch (err) {
      if (err instanceof ClientOptionsError) throw new RequestBuildError(err.message);
      throw err;
    }
  }
  if (o.acceptHeader !== undefined && !headers.has('accept')) headers.set('Accept', o.acceptHeader);
  if (desc.acceptResponseAttachments === true) {
    const accept = headers.get('accept');
    headers.set('Accept', `${accept ?? o.contentType}, ${MULTIPART_RELATED}`);
  }
  const attachments =
    desc.attachments !== undefined && desc.attachments.length > 0 ? desc.attachments : undefined;
  if (attachments !== undefined && bodyData === undefined) {
    throw new RequestBuildError(`A ${method} request has no body to carry attachments (the first part)`);
  }
  let body: Uint8Array | undefined;
  if (bodyData !== undefined) {
    const codec = requestCodec(o, headers.get('content-type'));
    try {
      body = codec.mapToBytes(bodyData);
    } catch (err) {
      throw new RequestBuildError(
        `Cannot encode the ${method} body as ${codec.contentType}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    if (!headers.has('content-type')) headers.set('Content-Type', o.contentType);
  }
  for (const [name, value] of Object.entries(o.peerHeaders)) {
    if (!headers.has(name.toLowerCase())) headers.set(name, value);
  }
  headers.set(o.headerNames.protocolVersion, v.toString());
  if (httpMethod === 'POST' || o.methodHeader === 'always') {
    headers.set(o.headerNames.method, methodHeaderValue(method));
  } else {
    headers.delete(o.headerNames.method);
  }

  return Object.freeze({
    resourceMethod: method,
    method: httpMethod,
    url: `${o.baseUrl}/${uri}`,
    uri,
    headers: headers.toRecord(),
    body,
    bodyData,
    ...(attachments === undefined ? {} : { attachments }),
  });
}

const MULTIPART_RELATED = 'multipart/related';

// ---------------------------------------------------------------------------------------------------------
// Method kinds: what each adds to the request (one function each, so that a bundler keeps only those called)

export const getRequestKind: RequestKind<GetRequest<unknown>> = (desc, r) => {
  r.entityPath(desc.key);
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
};

export const batchGetRequestKind: RequestKind<BatchGetRequest<ResourceKey, unknown>> = (desc, r) => {
  r.set(QueryParam.IDS, ids(desc.ids));
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
};

export const createRequestKind: RequestKind<CreateRequest<unknown>> = (desc, r) => {
  r.bodyData = entityData(desc.body, 'body');
  r.set(QueryParam.RETURN_ENTITY, returnEntity(desc.returnEntity));
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
};

export const batchCreateRequestKind: RequestKind<BatchCreateRequest<unknown>> = (desc, r) => {
  const elements = new DataList();
  let i = 0;
  for (const e of iterate(desc.bodies, 'bodies')) elements.add(entityData(e, `bodies[${i++}]`));
  r.bodyData = new DataMap([['elements', elements]]);
  r.set(QueryParam.RETURN_ENTITY, returnEntity(desc.returnEntity));
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
};

export const updateRequestKind: RequestKind<UpdateRequest> = (desc, r) => {
  r.entityPath(desc.key);
  r.bodyData = entityData(desc.body, 'body');
};

export const batchUpdateRequestKind: RequestKind<BatchUpdateRequest> = (desc, r) => {
  const { keys, entities } = keyedBodies(desc.entities, 'entities', (e, where) => entityData(e, where));
  r.set(QueryParam.IDS, ids(keys));
  r.bodyData = new DataMap([['entities', entities]]);
};

export const partialUpdateRequestKind: RequestKind<PartialUpdateRequest<unknown>> = (desc, r) => {
  r.entityPath(desc.key);
  r.bodyData = patchBody(desc.patch, 'patch');
  r.set(QueryParam.RETURN_ENTITY, returnEntity(desc.returnEntity));
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
};

export const batchPartialUpdateRequestKind: RequestKind<BatchPartialUpdateRequest<ResourceKey, unknown>> = (
  desc,
  r,
) => {
  const { keys, entities } = keyedBodies(desc.patches, 'patches', (p, where) => patchBody(p, where));
  r.set(QueryParam.IDS, ids(keys));
  r.bodyData = new DataMap([['entities', entities]]);
  r.set(QueryParam.RETURN_ENTITY, returnEntity(desc.returnEntity));
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
};

export const deleteRequestKind: RequestKind<DeleteRequest> = (desc, r) => {
  r.entityPath(desc.key);
};

export const batchDeleteRequestKind: RequestKind<BatchDeleteRequest> = (desc, r) => {
  r.set(QueryParam.IDS, ids(desc.ids));
};

/** Paging and the three projections, after a collection method's own parameters. */
function collectionQuery(desc: CollectionRequestCommon<unknown, unknown>, r: RequestParts): void {
  const { start, count } = paging(desc.paging);
  r.set(QueryParam.START, start);
  r.set(QueryParam.COUNT, count);
  r.set(QueryParam.FIELDS, projection(desc.fields, 'fields'));
  r.set(QueryParam.METADATA_FIELDS, projection(desc.metadataFields, 'metadataFields'));
  r.set(QueryParam.PAGING_FIELDS, projection(desc.pagingFields, 'pagingFields'));
}

export const getAllRequestKind: RequestKind<GetAllRequest<unknown, unknown>> = (desc, r) => {
  collectionQuery(desc, r);
};

export const finderRequestKind: RequestKind<FinderRequest<unknown, unknown>> = (desc, r) => {
  r.entityPath(desc.key);
  r.set(QueryParam.FINDER, methodName(desc.name, 'name'));
  collectionQuery(desc, r);
};

export const batchFinderRequestKind: RequestKind<BatchFinderRequest<unknown, unknown>> = (desc, r) => {
  r.entityPath(desc.key);
  r.set(QueryParam.BATCH_FINDER, methodName(desc.name, 'name'));
  const batchParam = methodName(desc.batchParam, 'batchParam');
  if (RESERVED_PARAMS.has(batchParam) || r.query.some(([n]) => n === batchParam)) {
    throw new RequestBuildError(
      `batchParam '${batchParam}' clashes with ${RESERVED_PARAMS.has(batchParam) ? 'a reserved parameter' : 'a parameter in params'}`,
    );
  }
  const criteria = new DataList();
  let i = 0;
  for (const c of iterate(desc.criteria, 'criteria')) criteria.add(entityData(c, `criteria[${i++}]`));
  r.set(batchParam, criteria);
  collectionQuery(desc, r);
};

export const actionRequestKind: RequestKind<ActionRequest<unknown>> = (desc, r) => {
  r.entityPath(desc.key);
  r.set(QueryParam.ACTION, methodName(desc.name, 'name'));
  r.bodyData = paramsMap(desc.actionParams, 'actionParams');
};

/** Every kind by method name, for {@link buildRequest}, which takes any description. */
const REQUEST_KINDS: {
  readonly [M in ResourceMethod]: RequestKind<Extract<RequestDescription, { method: M }>>;
} = {
  get: getRequestKind,
  batch_get: batchGetRequestKind,
  create: createRequestKind,
  batch_create: batchCreateRequestKind,
  update: updateRequestKind,
  batch_update: batchUpdateRequestKind,
  partial_update: partialUpdateRequestKind,
  batch_partial_update: batchPartialUpdateRequestKind,
  delete: deleteRequestKind,
  batch_delete: batchDeleteRequestKind,
  get_all: getAllRequestKind,
  finder: finderRequestKind,
  batch_finder: batchFinderRequestKind,
  action: actionRequestKind,
};

/** The codec of a request's own `Content-Type` header, or the client's. */
function requestCodec(o: ResolvedClientOptions, contentType: string | undefined): DataCodec {
  if (contentType === undefined) return o.requestCodec;
  const codec = o.codecs.find(contentType);
  if (codec === undefined) {
    throw new RequestBuildError(
      `The request's Content-Type '${contentType}' names no codec (${o.codecs.contentTypes().join(', ')})`,
    );
  }
  return codec;
}

/** Header names compared case-insensitively, written as first given. */
class HeaderList {
  private readonly byLower = new Map<string, [string, string]>();
  set(name: string, value: string): void {
    const lower = name.toLowerCase();
    this.byLower.delete(lower);
    this.byLower.set(lower, [name, value]);
  }
  setAll(headers: Readonly<Record<string, string>>): void {
    for (const [n, v] of Object.entries(headers)) this.set(n, v);
  }
  has(lower: string): boolean {
    return this.byLower.has(lower);
  }
  get(lower: string): string | undefined {
    return this.byLower.get(lower)?.[1];
  }
  delete(name: string): void {
    this.byLower.delete(name.toLowerCase());
  }
  toRecord(): Readonly<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [name, value] of this.byLower.values()) out[name] = value;
    return Object.freeze(out);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Path

const PLACEHOLDER = /^\{([^{}]+)\}$/;

/**
 * The resource path with `{name}` segments replaced by the path keys (path form): `albums/{albumId}/entries`
 * with `{ albumId: 7 }` → `albums/7/entries`. Literal segments are percent-encoded for a path segment.
 *
 * @throws RequestBuildError for an empty segment, a stray brace, a missing or an unused path key
 */
export function expandResourcePath(
  resource: string,
  pathKeys: { readonly [name: string]: ResourceKey } | undefined,
): string {
  if (typeof resource !== 'string' || resource.replace(/^\/+|\/+$/g, '') === '') {
    throw new RequestBuildError(
      `'resource' must be a non-empty path such as 'photos', got '${String(resource)}'`,
    );
  }
  const segments = resource.replace(/^\/+|\/+$/g, '').split('/');
  const used = new Set<string>();
  const out = segments.map((seg) => {
    if (seg === '') throw new RequestBuildError(`Resource path '${resource}' has an empty segment`);
    const m = PLACEHOLDER.exec(seg);
    if (m !== null) {
      const name = m[1]!;
      if (pathKeys === undefined || !Object.prototype.hasOwnProperty.call(pathKeys, name)) {
        throw new RequestBuildError(`Resource path '${resource}' needs the path key '${name}'`);
      }
      used.add(name);
      return encodeKeyForPath(checkKey(pathKeys[name], `pathKeys.${name}`));
    }
    if (seg.includes('{') || seg.includes('}')) {
      throw new RequestBuildError(
        `Resource path '${resource}': '${seg}' must be a name or a whole '{key}' segment`,
      );
    }
    return contextualEncode(seg, 'path');
  });
  if (pathKeys !== undefined) {
    const unused = Object.keys(pathKeys).filter((k) => !used.has(k));
    if (unused.length > 0) {
      throw new RequestBuildError(
        `Resource path '${resource}' has no segment for path key(s) ${unused.join(', ')}`,
      );
    }
  }
  return out.join('/');
}

// ---------------------------------------------------------------------------------------------------------
// Keys, bodies, parameters

/**
 * `key` if it is a resource key (a string, finite number, bigint, boolean, ByteString, CompoundKey or
 * ComplexKey).
 *
 * @throws RequestBuildError
 */
function checkKey(key: unknown, where: string): ResourceKey {
  switch (typeof key) {
    case 'string':
    case 'bigint':
    case 'boolean':
      return key;
    case 'number':
      if (Number.isFinite(key)) return key;
      break;
    case 'object':
      if (key instanceof ByteString || isCompoundKey(key) || isComplexKey(key)) return key;
      break;
    default:
      break;
  }
  throw new RequestBuildError(`'${where}' is not a resource key: ${describe(key)}`);
}

function ids(keys: Iterable<ResourceKey>): DataList {
  const checked: ResourceKey[] = [];
  let i = 0;
  for (const k of iterate(keys, 'ids')) checked.push(checkKey(k, `ids[${i++}]`));
  return batchIdsData(checked);
}

/** `{"entities": {<key in body form, $params included>: value}}` and the keys in order. */
function keyedBodies<V>(
  entries: Iterable<readonly [ResourceKey, V]>,
  where: string,
  convert: (v: V, where: string) => DataMap,
): { keys: ResourceKey[]; entities: DataMap } {
  const keys: ResourceKey[] = [];
  const entities = new DataMap();
  let i = 0;
  for (const entry of iterate(entries, where)) {
    if (!Array.isArray(entry) || entry.length !== 2) {
      throw new RequestBuildError(`'${where}[${i}]' must be a [key, value] pair`);
    }
    const key = checkKey(entry[0], `${where}[${i}] key`);
    const text = encodeKeyForBody(key, true);
    if (entities.containsKey(text)) throw new RequestBuildError(`'${where}' names the key '${text}' twice`);
    entities.put(text, convert(entry[1], `${where}[${i}]`));
    keys.push(key);
    i++;
  }
  return { keys, entities };
}

function entityData(e: Entity, where: string): DataMap {
  if (e instanceof DataMap) return e;
  if (typeof e === 'object' && e !== null && typeof (e as { data?: unknown }).data === 'function') {
    const d = (e as { data(): unknown }).data();
    if (d instanceof DataMap) return d;
  }
  throw new RequestBuildError(`'${where}' must be a DataMap or a record template, got ${describe(e)}`);
}

function patchBody(patch: DataMap, where: string): DataMap {
  if (!(patch instanceof DataMap)) {
    throw new RequestBuildError(
      `'${where}' must be a DataMap such as {"$set": {...}}, got ${describe(patch)}`,
    );
  }
  return new DataMap([['patch', patch]]);
}

function returnEntity(v: boolean | undefined): DataValue | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean')
    throw new RequestBuildError(`'returnEntity' must be a boolean, got ${describe(v)}`);
  return v;
}

function methodName(name: string, where: string): string {
  if (typeof name !== 'string' || name === '') {
    throw new RequestBuildError(`'${where}' must be a non-empty string, got ${describe(name)}`);
  }
  return name;
}

function paging(p: PageRequest | undefined): { start: number | undefined; count: number | undefined } {
  if (p === undefined) return { start: undefined, count: undefined };
  const check = (n: number | undefined, name: string): number | undefined => {
    if (n === undefined) return undefined;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 2147483647) {
      throw new RequestBuildError(`'paging.${name}' must be an int from 0 to 2147483647, got ${describe(n)}`);
    }
    return n;
  };
  return { start: check(p.start, 'start'), count: check(p.count, 'count') };
}

function projection(p: Projection | undefined, where: string): DataValue | undefined {
  if (p === undefined) return undefined;
  if (typeof p === 'string' || p instanceof DataMap) return p;
  if (Array.isArray(p)) {
    try {
      return maskFromPaths(p as readonly MaskPath[]);
    } catch (err) {
      throw new RequestBuildError(`'${where}': ${(err as Error).message}`, { cause: err });
    }
  }
  throw new RequestBuildError(
    `'${where}' must be mask text, a mask DataMap or an array of paths, got ${describe(p)}`,
  );
}

function entriesOf(params: ParamsInit, where: string): Iterable<readonly [string, ParamValue]> {
  if (params instanceof DataMap || params instanceof Map) return params as Iterable<[string, ParamValue]>;
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
    return Object.entries(params as { readonly [name: string]: ParamValue });
  }
  throw new RequestBuildError(`'${where}' must be an object, a Map or a DataMap, got ${describe(params)}`);
}

/** The caller's query parameters as data, `undefined` ones left out. */
function customParams(params: ParamsInit | undefined): Array<[string, DataValue]> {
  const out: Array<[string, DataValue]> = [];
  if (params === undefined) return out;
  for (const [name, value] of entriesOf(params, 'params')) {
    if (RESERVED_PARAMS.has(name)) {
      throw new RequestBuildError(
        `Query parameter '${name}' is reserved: the client writes it from the request description`,
      );
    }
    const v = toData(value, `params.${name}`);
    if (v !== undefined) out.push([name, v]);
  }
  return out;
}

/** The action parameters as the body map (`{}` when none). */
function paramsMap(params: ParamsInit | undefined, where: string): DataMap {
  const map = new DataMap();
  if (params === undefined) return map;
  for (const [name, value] of entriesOf(params, where)) {
    const v = toData(value, `${where}.${name}`);
    if (v !== undefined) map.put(name, v);
  }
  return map;
}

/** A parameter value as data: records via `data()`, arrays as DataLists, plain objects as DataMaps. */
function toData(value: ParamValue, where: string): DataValue | undefined {
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'string':
    case 'bigint':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value)) return value;
      throw new RequestBuildError(`'${where}' must be a finite number, got ${String(value)}`);
    case 'object': {
      if (value === null) throw new RequestBuildError(`'${where}' is null; leave it out (undefined) instead`);
      if (
        value instanceof DataMap ||
        value instanceof DataList ||
        value instanceof ByteString ||
        value instanceof DataNull
      ) {
        return value;
      }
      if (typeof (value as { data?: unknown }).data === 'function') {
        const d = (value as { data(): unknown }).data();
        if (d instanceof DataMap || d instanceof DataList) return d;
        throw new RequestBuildError(`'${where}'.data() is not a DataMap or DataList`);
      }
      if (Array.isArray(value)) {
        const list = new DataList();
        (value as readonly ParamValue[]).forEach((item, i) => {
          const d = toData(item, `${where}[${i}]`);
          if (d === undefined) throw new RequestBuildError(`'${where}[${i}]' is undefined`);
          list.add(d);
        });
        return list;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto === Object.prototype || proto === null) {
        const map = new DataMap();
        for (const [k, item] of Object.entries(value as { readonly [field: string]: ParamValue })) {
          const d = toData(item, `${where}.${k}`);
          if (d !== undefined) map.put(k, d);
        }
        return map;
      }
      break;
    }
    default:
      break;
  }
  throw new RequestBuildError(`'${where}' cannot be sent: ${describe(value)}`);
}

/** `items`, checked to be iterable. @throws RequestBuildError naming `where` */
export function iterate<T>(items: Iterable<T>, where: string): Iterable<T> {
  if (
    typeof items !== 'object' ||
    items === null ||
    typeof (items as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function'
  ) {
    throw new RequestBuildError(`'${where}' must be iterable, got ${describe(items)}`);
  }
  return items;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'object':
      return (v.constructor as { name?: string } | undefined)?.name ?? 'object';
    case 'function':
      return 'a function';
    case 'string':
      return `string '${v}'`;
    case 'number':
    case 'bigint':
    case 'boolean':
      return `${typeof v} ${String(v)}`;
    default:
      return typeof v;
  }
}
