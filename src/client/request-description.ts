import type { AttachmentSources } from '../streams/related/encoder';
import type { DataList, DataMap, DataValue } from '../data';
import type { KeySpec, MaskPath, ResourceKey } from '../protocol';

/**
 * What a request asks for, one shape per resource method: plain, immutable descriptions that
 * {@link buildRequest} turns into HTTP requests and {@link SvcClient.send} sends. The typed facade over
 * resource definitions produces these; they can also be written by hand.
 */

/** A record to send: a DataMap, or anything with `data()` (a generated `RecordTemplate`). */
export type Entity = DataMap | { data(): DataMap };

/** A class wrapping a record's DataMap (a generated `RecordTemplate` subclass: `new Photo(map)`). */
export type EntityClass<T> = new (data: DataMap) => T;

/** A class wrapping any complex value (a record, array or map template), for action return values. */
export type ValueClass<T> = new (data: never) => T;

/**
 * A value of a query parameter or action parameter: data values, records (`data()`), arrays of these
 * (become `List(...)`), and plain objects of these (become records, `(k:v)`). `undefined` leaves the
 * parameter (or field) out.
 */
export type ParamValue =
  | DataValue
  | { data(): DataMap | DataList }
  | readonly ParamValue[]
  | { readonly [field: string]: ParamValue }
  | undefined;

/** Parameters by name: a plain object, a Map or a DataMap. */
export type ParamsInit = { readonly [name: string]: ParamValue } | ReadonlyMap<string, ParamValue> | DataMap;

/**
 * A projection (`fields`, `metadataFields`, `pagingFields`): mask text (`id,message`,
 * `a:(b,c)`), a mask DataMap, or paths (`[Photo.fields().title(), ['exif', 'iso']]`).
 */
export type Projection = string | DataMap | readonly MaskPath[];

/** Which page of a collection to get; absent values are left to the server (start 0, count 10). */
export interface PageRequest {
  readonly start?: number;
  readonly count?: number;
}

/** What every request has. */
export interface RequestCommon {
  /**
   * The resource's path below the base URL: `photos`, or for a sub-resource a template whose
   * `{name}` segments take keys from {@link pathKeys}: `albums/{albumId}/entries`.
   */
  readonly resource: string;
  /** Keys of the parent resources, by the names the template uses. */
  readonly pathKeys?: { readonly [name: string]: ResourceKey };
  /** Further query parameters (finder parameters, entity-method parameters...); framework names are reserved. */
  readonly params?: ParamsInit;
  /** Headers for this request (the protocol headers the client computes take precedence). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Aborts this request; the call rejects with the signal's `reason`. */
  readonly signal?: AbortSignal;
  /** Overrides the client's timeout for this request. */
  readonly timeoutMs?: number;
  /**
   * Sends this request tunneled (`POST` + `X-HTTP-Method-Override`) whatever its query length, when it has
   * a query; the reference's request-context attribute `FORCE_QUERY_TUNNEL`. Default false.
   */
  readonly forceQueryTunnel?: boolean;
  /** Overrides the client's `queryTunnelThreshold` for this request (`false`: never by length). */
  readonly queryTunnelThreshold?: number | false;
  /**
   * `$fillInDefaults=true`: the server fills absent fields that have schema defaults into the entities it
   * returns (get, batch_get, finders, get_all, returned created or patched entities, action records).
   */
  readonly fillInDefaults?: boolean;
  /**
   * `altkey=<name>`: the request's keys (path key, `ids`, batch body keys) are the resource's alternative
   * key of that name, and so are the keys of the response.
   */
  readonly altKey?: string;
  /**
   * Attachments sent with the body as `multipart/related` (the body is the first part): writers, one
   * attachment each, or data source iterators (an incoming `AttachmentReader` forwards all of its own), in
   * order. The body part points at them with `cid:<id>`. Streamed as the socket drains.
   */
  readonly attachments?: AttachmentSources;
  /**
   * Adds `multipart/related` to `Accept`, so that the server may answer with response attachments
   * (`response.getAttachmentReader()`). Default false.
   */
  readonly acceptResponseAttachments?: boolean;
}

/** Wraps returned entities in a template class; without it they are DataMaps. */
export interface WithTemplate<T> {
  readonly template?: EntityClass<T>;
}

/**
 * How to decode keys the response names (the id header of a create, ids of a batch create, keys of batch
 * maps the request did not name). Batch responses keyed by the request's own keys give back the
 * caller's key objects whatever the spec. Without a spec, such keys are strings (simple keys), compound
 * keys with string parts, or complex keys as data.
 */
export interface WithKeySpec {
  readonly keySpec?: KeySpec;
}

export interface GetRequest<T = DataMap> extends RequestCommon, WithTemplate<T> {
  readonly method: 'get';
  /** The entity's key; absent for a simple (singleton) resource. */
  readonly key?: ResourceKey;
  readonly fields?: Projection;
}

export interface BatchGetRequest<K extends ResourceKey = ResourceKey, T = DataMap>
  extends RequestCommon, WithTemplate<T>, WithKeySpec {
  readonly method: 'batch_get';
  /** Keys, sent in this order (duplicates by wire form dropped). */
  readonly ids: Iterable<K>;
  readonly fields?: Projection;
}

export interface CreateRequest<T = DataMap> extends RequestCommon, WithTemplate<T>, WithKeySpec {
  readonly method: 'create';
  readonly body: Entity;
  /** `$returnEntity`: ask for the created entity in the response (absent: the server's default). */
  readonly returnEntity?: boolean;
  /** Projection of the returned entity. */
  readonly fields?: Projection;
}

export interface BatchCreateRequest<T = DataMap> extends RequestCommon, WithTemplate<T>, WithKeySpec {
  readonly method: 'batch_create';
  readonly bodies: Iterable<Entity>;
  readonly returnEntity?: boolean;
  readonly fields?: Projection;
}

export interface UpdateRequest extends RequestCommon {
  readonly method: 'update';
  readonly key?: ResourceKey;
  readonly body: Entity;
}

export interface BatchUpdateRequest<K extends ResourceKey = ResourceKey> extends RequestCommon, WithKeySpec {
  readonly method: 'batch_update';
  /** Key → new entity; keys are also sent as `ids`. */
  readonly entities: Iterable<readonly [K, Entity]>;
}

export interface PartialUpdateRequest<T = DataMap> extends RequestCommon, WithTemplate<T> {
  readonly method: 'partial_update';
  readonly key?: ResourceKey;
  /**
   * The patch: `{"$set": {...}, "$delete": [...]}`, nested per field for nested records. The client sends
   * it as `{"patch": <patch>}`.
   */
  readonly patch: DataMap;
  readonly returnEntity?: boolean;
  readonly fields?: Projection;
}

export interface BatchPartialUpdateRequest<K extends ResourceKey = ResourceKey, T = DataMap>
  extends RequestCommon, WithTemplate<T>, WithKeySpec {
  readonly method: 'batch_partial_update';
  /** Key → patch (as in {@link PartialUpdateRequest.patch}). */
  readonly patches: Iterable<readonly [K, DataMap]>;
  readonly returnEntity?: boolean;
  readonly fields?: Projection;
}

export interface DeleteRequest extends RequestCommon {
  readonly method: 'delete';
  readonly key?: ResourceKey;
}

export interface BatchDeleteRequest<K extends ResourceKey = ResourceKey> extends RequestCommon, WithKeySpec {
  readonly method: 'batch_delete';
  readonly ids: Iterable<K>;
}

/** What get_all, finder and batch_finder share. */
export interface CollectionRequestCommon<T, M> extends RequestCommon, WithTemplate<T> {
  readonly paging?: PageRequest;
  readonly fields?: Projection;
  readonly metadataFields?: Projection;
  readonly pagingFields?: Projection;
  /** Wraps the collection's custom `metadata`. */
  readonly metadataTemplate?: EntityClass<M>;
}

export interface GetAllRequest<T = DataMap, M = DataMap> extends CollectionRequestCommon<T, M> {
  readonly method: 'get_all';
}

export interface FinderRequest<T = DataMap, M = DataMap> extends CollectionRequestCommon<T, M> {
  readonly method: 'finder';
  /** The finder's name (`q`). Its parameters go in `params`. */
  readonly name: string;
  /**
   * An association finder's key parts bound in the path (`@AssocKey`): a partial `CompoundKey`, sent as
   * `/albumEntries/(albumId:1)?q=byAlbum`.
   */
  readonly key?: ResourceKey;
}

export interface BatchFinderRequest<T = DataMap, M = DataMap> extends CollectionRequestCommon<T, M> {
  readonly method: 'batch_finder';
  /** The batch finder's name (`bq`). */
  readonly name: string;
  /** Association key parts bound in the path, as for {@link FinderRequest.key}. */
  readonly key?: ResourceKey;
  /** The name of its criteria parameter. */
  readonly batchParam: string;
  /** The criteria records, sent as `<batchParam>=List(...)`; results come back in this order. */
  readonly criteria: Iterable<Entity>;
}

export interface ActionRequest<V = DataValue> extends RequestCommon {
  readonly method: 'action';
  readonly name: string;
  /** The entity's key for an entity-level action; absent for a collection-level one. */
  readonly key?: ResourceKey;
  /** The action's parameters, sent as the body (`{}` when none). */
  readonly actionParams?: ParamsInit;
  /** Wraps a complex return value (a record, array or map template). */
  readonly template?: ValueClass<V>;
}

/** Any request. */
export type RequestDescription =
  | GetRequest<unknown>
  | BatchGetRequest<ResourceKey, unknown>
  | CreateRequest<unknown>
  | BatchCreateRequest<unknown>
  | UpdateRequest
  | BatchUpdateRequest
  | PartialUpdateRequest<unknown>
  | BatchPartialUpdateRequest<ResourceKey, unknown>
  | DeleteRequest
  | BatchDeleteRequest
  | GetAllRequest<unknown, unknown>
  | FinderRequest<unknown, unknown>
  | BatchFinderRequest<unknown, unknown>
  | ActionRequest<unknown>;
