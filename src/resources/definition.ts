import type { ServiceError } from '../protocol';
import type { RecordTemplate } from '../templates';
import {
  type AlternativeKey,
  type AssocKeyOf,
  type AssocKeyParts,
  type KeyType,
  compoundKey,
} from './key-types';
import type { Observable } from 'rxjs';
import type { BatchFinderResult } from './batch-finder-result';
import type { CriteriaOf, OtherParamsOf, ParamSpecs, ParamsOf } from './params';
import type { PatchRequest } from './patch';
import type { MaybeAsync, RequestFilter, ResourceContext } from './request';
import type { RecordClass, ValueType } from './value-types';

/**
 * The declarative resource definition API: `collection`, `association` and `simple` resources, their
 * methods, finders and actions. Definitions are plain data plus handlers; nothing is checked or compiled
 * until the resource is registered with the server (`svcPlugin`), which validates it then
 * (registration.ts). Handler types come from the key type and the generated value class:
 *
 * ```ts
 * const photos = collection({
 *   name: 'photos',
 *   key: LONG_KEY,
 *   value: Photo,
 *   methods: {
 *     get: (id, ctx) => store.get(id),                       // id: number | bigint; Photo | undefined
 *     create: (photo) => ({ id: store.add(photo) }),         // 201 + X-Svc-Id + Location
 *     finders: {
 *       byTitle: finder({ params: { title: STRING } }, ({ title }) => store.byTitle(title)),
 *     },
 *     actions: { purge: action({ returns: INT }, () => store.purge()) },
 *   },
 * });
 * ```
 *
 * The definition types keep every finder's and action's parameter and return types, so that a typed client
 * can be derived from `typeof photos`.
 */

// ---------------------------------------------------------------------------------------------------------
// Results handlers return

/** The status of an update, partial update or delete (default: the method's, 204). */
export interface UpdateOutcome {
  readonly status?: number;
}

/** A partial update that returns the patched entity (sent when `$returnEntity` is not false; default 200). */
export interface UpdateEntityOutcome<V> {
  readonly status?: number;
  readonly entity: V;
}

/** What update and delete handlers return: nothing (the default status) or a status. */
export type UpdateReturn = void | UpdateOutcome;

/** What partial update handlers return: nothing, a status, or the entity as patched. */
export type PartialUpdateReturn<V> = void | UpdateOutcome | UpdateEntityOutcome<V>;

/** A created entity's id, with the entity when the handler wants it returned (`$returnEntity`). */
export interface CreateOutcome<K, V> {
  readonly id: K;
  /** Sent as the body when the request did not say `$returnEntity=false`. */
  readonly entity?: V;
  /** Default 201. */
  readonly status?: number;
}

/** What batch_create returns: one item per request element, in order; a `ServiceError` for a failed one. */
export type BatchCreateReturn<K, V> = ReadonlyArray<CreateOutcome<K, V> | ServiceError>;

/** A batch_get result with explicit statuses and per-key errors (wire facts §3.5). */
export interface BatchGetOutcome<K, V> {
  readonly results: Iterable<readonly [K, V]>;
  /** Only the statuses the resource chooses to give (`statuses` map). */
  readonly statuses?: Iterable<readonly [K, number]>;
  readonly errors?: Iterable<readonly [K, ServiceError]>;
}

/**
 * What batch_get returns: entities by key (missing keys stay missing), a {@link BatchGetOutcome}, or a list
 * answering the keys the handler was given in their order, one entry per key (as a DataLoader batch
 * function answers): the key's entity, `undefined` or `null` for a key with none (left out of the response,
 * as a key missing from a Map), or a `ServiceError` for that key alone. A list of another length is a
 * handler error (500).
 */
export type BatchGetReturn<K, V> =
  ReadonlyMap<K, V> | BatchGetOutcome<K, V> | ReadonlyArray<V | ServiceError | null | undefined>;

/** One key's outcome in a batch update, partial update or delete. */
export type BatchItemOutcome<V> = UpdateOutcome | UpdateEntityOutcome<V> | ServiceError;

/** A batch update result with separate per-key errors. */
export interface BatchUpdateOutcome<K, V> {
  readonly results: Iterable<readonly [K, UpdateOutcome | UpdateEntityOutcome<V>]>;
  readonly errors?: Iterable<readonly [K, ServiceError]>;
}

/** What batch update, partial update and delete return: an outcome per key. */
export type BatchUpdateReturn<K, V> = ReadonlyMap<K, BatchItemOutcome<V>> | BatchUpdateOutcome<K, V>;

/** A page of a finder or get_all, with the total and metadata when the resource knows them. */
export interface CollectionPage<V, M extends RecordTemplate = RecordTemplate> {
  readonly elements: readonly V[];
  /** The number of entities over all pages (`paging.total`). */
  readonly total?: number;
  readonly metadata?: M;
}

/**
 * What finders and get_all return: the entities or a {@link CollectionPage}. Unless the method declares
 * `paging: true`, the handler returns every match and the framework cuts the page (`start`, `count`) and
 * reports the total; with `paging: true` the handler reads `ctx.paging` and returns the page itself.
 */
export type CollectionReturn<V, M extends RecordTemplate = RecordTemplate> =
  readonly V[] | CollectionPage<V, M>;

// ---------------------------------------------------------------------------------------------------------
// Finders and actions

/** Paging of a finder or get_all: `true` = the handler pages; an object also sets the defaults. */
export type PagingSpec = boolean | { readonly start?: number; readonly count?: number };

/** A finder: `GET /r?q=<name>&<params>`. */
export interface FinderDef<P extends ParamSpecs, V, M extends RecordTemplate = RecordTemplate> {
  readonly kind: 'finder';
  readonly params: P;
  readonly paging: PagingSpec;
  readonly metadata: RecordClass<M> | undefined;
  /** Documentation, for clients and interface descriptions. */
  readonly doc?: string | undefined;
  handler(params: ParamsOf<P>, ctx: ResourceContext): CollectionAnswer<V, M>;
}

/**
 * What a finder, get_all or per-criterion batch finder handler gives: a {@link CollectionReturn}, a promise
 * of one, or an Observable that is a **stream of entities** (every value is an element, in order; a single
 * list or page value is taken as the whole answer, so `of(page)` works too). Unsubscribed when the caller
 * goes away or the method's `timeout` expires.
 */
export type CollectionAnswer<V, M extends RecordTemplate = RecordTemplate> =
  CollectionReturn<V, M> | PromiseLike<CollectionReturn<V, M>> | Observable<V | CollectionReturn<V, M>>;

/** The spec of a finder: parameters, paging and the metadata record. */
export interface FinderSpec<P extends ParamSpecs, M extends RecordTemplate = RecordTemplate> {
  readonly params?: P;
  readonly paging?: PagingSpec;
  readonly metadata?: RecordClass<M>;
  /** Documentation, for clients and interface descriptions. */
  readonly doc?: string;
}

/**
 * Declares a finder. `params` are query parameters (`q` and the framework's names are reserved).
 *
 * @example
 * ```ts
 * titleAndOrFormat: finder(
 *   { params: { title: optional(STRING), format: optional(enumOf(PhotoFormat)) } },
 *   ({ title, format }, ctx) => store.find(title, format),
 * ),
 * ```
 */
export function finder<const P extends ParamSpecs, V = never, M extends RecordTemplate = RecordTemplate>(
  spec: FinderSpec<P, M>,
  handler: (params: ParamsOf<P>, ctx: ResourceContext) => CollectionAnswer<V, M>,
): FinderDef<P, V, M> {
  return Object.freeze({
    kind: 'finder' as const,
    params: spec.params ?? ({} as P),
    paging: spec.paging ?? false,
    metadata: spec.metadata,
    ...(spec.doc === undefined ? {} : { doc: spec.doc }),
    handler,
  });
}

/** The default number of criteria a per-criterion batch finder runs at once. */
export const DEFAULT_BATCH_FINDER_CONCURRENCY = 256;

/** The spec of a batch finder (`@BatchFinder(value, batchParam)`). */
export interface BatchFinderSpec<P extends ParamSpecs, M extends RecordTemplate = RecordTemplate> {
  /**
   * The name of the batch parameter, which `params` declares with `criteriaOf(CriteriaRecord)`: the criteria
   * go on the wire as `<batchParam>=List((...),(...))`.
   */
  readonly batchParam: string;
  /** The batch parameter and the other query parameters (`optional`, `assocKey` as for finders). */
  readonly params: P;
  /** As for finders: `true` = the handler pages (per criterion, reading `ctx.paging`). Default false. */
  readonly paging?: PagingSpec;
  /** The metadata record each criterion's result may carry. */
  readonly metadata?: RecordClass<M>;
  /**
   * Most criteria in one request (the reference's `@MaxBatchSize(validate = true)`): more is a 400 naming
   * the limit. Default: no limit beyond the request's size.
   */
  readonly maxBatchSize?: number;
  /** Documentation, for clients and interface descriptions. */
  readonly doc?: string;
}

/** The spec of a per-criterion batch finder: also how many criteria run at once. */
export interface PerCriterionBatchFinderSpec<
  P extends ParamSpecs,
  M extends RecordTemplate = RecordTemplate,
> extends BatchFinderSpec<P, M> {
  /**
   * How many criteria run at once (their handler Observables subscribed together; RxJS `mergeMap`'s
   * concurrency). Default {@link DEFAULT_BATCH_FINDER_CONCURRENCY} (256).
   */
  readonly concurrency?: number;
}

/** What a whole-batch handler returns: a result per criterion it answers (see {@link BatchFinderResult}). */
export type BatchFinderReturn<C, V, M extends RecordTemplate = RecordTemplate> = MaybeAsync<
  BatchFinderResult<C, V, M>
>;

/** A batch finder whose handler answers every criterion at once. */
export interface WholeBatchFinderDef<P extends ParamSpecs, V, M extends RecordTemplate = RecordTemplate> {
  readonly kind: 'batchFinder';
  readonly form: 'batch';
  readonly batchParam: string;
  readonly params: P;
  readonly paging: PagingSpec;
  readonly metadata: RecordClass<M> | undefined;
  readonly maxBatchSize: number | undefined;
  readonly doc?: string | undefined;
  handler(
    criteria: readonly CriteriaOf<P>[],
    params: OtherParamsOf<P>,
    ctx: ResourceContext,
  ): BatchFinderReturn<CriteriaOf<P>, V, M>;
}

/** A batch finder whose handler is called once per criterion, the criteria run as parallel streams. */
export interface PerCriterionBatchFinderDef<
  P extends ParamSpecs,
  V,
  M extends RecordTemplate = RecordTemplate,
> {
  readonly kind: 'batchFinder';
  readonly form: 'perCriterion';
  readonly batchParam: string;
  readonly params: P;
  readonly paging: PagingSpec;
  readonly metadata: RecordClass<M> | undefined;
  readonly maxBatchSize: number | undefined;
  readonly doc?: string | undefined;
  readonly concurrency: number;
  /**
   * One criterion's answer; `undefined` or `null` means none was found (the framework's 404 entry), a thrown
   * error (or an erroring Observable) is that criterion's error entry.
   */
  handler(
    criterion: CriteriaOf<P>,
    params: OtherParamsOf<P>,
    ctx: ResourceContext,
  ): CollectionAnswer<V, M> | null | undefined | PromiseLike<CollectionReturn<V, M> | null | undefined>;
}

/** Either form of batch finder. */
export type BatchFinderDef<P extends ParamSpecs, V, M extends RecordTemplate = RecordTemplate> =
  WholeBatchFinderDef<P, V, M> | PerCriterionBatchFinderDef<P, V, M>;

function batchFinderBase<P extends ParamSpecs, M extends RecordTemplate>(spec: BatchFinderSpec<P, M>) {
  return {
    kind: 'batchFinder' as const,
    batchParam: spec.batchParam,
    params: spec.params,
    paging: spec.paging ?? false,
    metadata: spec.metadata,
    maxBatchSize: spec.maxBatchSize,
    ...(spec.doc === undefined ? {} : { doc: spec.doc }),
  };
}

/**
 * Declares a batch finder (`GET /r?bq=<name>&<batchParam>=List(...)`) whose handler answers all criteria at
 * once with a {@link BatchFinderResult}. Use {@link batchFinder.perCriterion} to write one criterion's answer
 * and let the framework run the criteria in parallel.
 *
 * @example
 * ```ts
 * searchPhotos: batchFinder(
 *   { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) } },
 *   (criteria, { exif }) => {
 *     const out = new BatchFinderResult<PhotoCriteria, Photo>();
 *     for (const c of criteria) out.putResult(c, store.search(c, exif));
 *     return out;
 *   },
 * ),
 * ```
 */
function wholeBatchFinder<const P extends ParamSpecs, V = never, M extends RecordTemplate = RecordTemplate>(
  spec: BatchFinderSpec<P, M>,
  handler: (
    criteria: readonly CriteriaOf<P>[],
    params: OtherParamsOf<P>,
    ctx: ResourceContext,
  ) => BatchFinderReturn<CriteriaOf<P>, V, M>,
): WholeBatchFinderDef<P, V, M> {
  return Object.freeze({ ...batchFinderBase(spec), form: 'batch' as const, handler });
}

/**
 * Declares a batch finder whose handler is called once per criterion: the criteria run as parallel streams
 * (RxJS `mergeMap`, at most `concurrency` at once) that are merged back into request order. The handler
 * returns what a finder's does (entities, a page, a promise, or an Observable stream of entities).
 *
 * @example
 * ```ts
 * searchPhotos: batchFinder.perCriterion(
 *   { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) }, concurrency: 16 },
 *   (criterion, _params, ctx) => store.search$(criterion, ctx.signal),
 * ),
 * ```
 */
function perCriterionBatchFinder<
  const P extends ParamSpecs,
  V = never,
  M extends RecordTemplate = RecordTemplate,
>(
  spec: PerCriterionBatchFinderSpec<P, M>,
  handler: (
    criterion: CriteriaOf<P>,
    params: OtherParamsOf<P>,
    ctx: ResourceContext,
  ) => CollectionAnswer<V, M> | null | undefined | PromiseLike<CollectionReturn<V, M> | null | undefined>,
): PerCriterionBatchFinderDef<P, V, M> {
  return Object.freeze({
    ...batchFinderBase(spec),
    form: 'perCriterion' as const,
    concurrency: spec.concurrency ?? DEFAULT_BATCH_FINDER_CONCURRENCY,
    handler,
  });
}

/** Declares a batch finder: `batchFinder(spec, wholeBatchHandler)` or `batchFinder.perCriterion(spec, handler)`. */
export const batchFinder: typeof wholeBatchFinder & {
  readonly perCriterion: typeof perCriterionBatchFinder;
} = Object.assign(wholeBatchFinder, { perCriterion: perCriterionBatchFinder });

/** An action: `POST /r?action=<name>` (or `/r/<key>?action=` for an entity action) with a params body. */
export interface ActionDef<P extends ParamSpecs, R> {
  readonly kind: 'action';
  readonly params: P;
  /** The return type; undefined for a void action (no body). */
  readonly returns: ValueType<R> | undefined;
  readonly doc?: string | undefined;
  handler(params: ParamsOf<P>, ctx: ResourceContext): MaybeAsync<R>;
}

/** An entity-level action: the handler also gets the key. */
export interface EntityActionDef<K, P extends ParamSpecs, R> {
  readonly kind: 'entityAction';
  /** The key type the spec named, if any (checked against the resource's at registration). */
  readonly key: KeyType<K> | undefined;
  readonly params: P;
  readonly returns: ValueType<R> | undefined;
  readonly doc?: string | undefined;
  handler(key: K, params: ParamsOf<P>, ctx: ResourceContext): MaybeAsync<R>;
}

/** The spec of an action: body parameters and the return type. */
export interface ActionSpec<P extends ParamSpecs, R> {
  readonly params?: P;
  readonly returns?: ValueType<R>;
  /** Documentation, for clients and interface descriptions. */
  readonly doc?: string;
}

/**
 * The spec of an entity action. `key` names the resource's key type so that the handler's key is typed:
 * TypeScript does not carry the resource's key type into a call nested in the definition. Without it, the
 * key is `unknown` (or annotate the handler's parameter). Registration checks it is the resource's.
 */
export interface EntityActionSpec<K, P extends ParamSpecs, R> extends ActionSpec<P, R> {
  readonly key?: KeyType<K>;
}

/**
 * Declares a collection-level action. Without `returns` it is void: 200 with no body.
 *
 * @example
 * ```ts
 * purge: action({ params: { olderThan: optional(LONG, 0) }, returns: INT }, ({ olderThan }) => store.purge(olderThan)),
 * ```
 */
export function action<const P extends ParamSpecs = Record<never, never>, R = void>(
  spec: ActionSpec<P, R>,
  handler: (params: ParamsOf<P>, ctx: ResourceContext) => MaybeAsync<R>,
): ActionDef<P, R> {
  return Object.freeze({
    kind: 'action' as const,
    params: spec.params ?? ({} as P),
    returns: spec.returns,
    ...(spec.doc === undefined ? {} : { doc: spec.doc }),
    handler,
  });
}

/**
 * Declares an entity-level action (`POST /r/<key>?action=<name>`); the handler gets the key first.
 *
 * @example
 * ```ts
 * rotate: entityAction({ key: LONG_KEY, params: { degrees: INT } }, (id, { degrees }) => store.rotate(id, degrees)),
 * ```
 */
export function entityAction<K = unknown, const P extends ParamSpecs = Record<never, never>, R = void>(
  spec: EntityActionSpec<K, P, R>,
  handler: (key: K, params: ParamsOf<P>, ctx: ResourceContext) => MaybeAsync<R>,
): EntityActionDef<K, P, R> {
  return Object.freeze({
    kind: 'entityAction' as const,
    key: spec.key,
    params: spec.params ?? ({} as P),
    returns: spec.returns,
    ...(spec.doc === undefined ? {} : { doc: spec.doc }),
    handler,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Methods of each resource kind

/** Finders by name. */
export type Finders<V> = { readonly [name: string]: FinderDef<ParamSpecs, V, RecordTemplate> };
/**
 * Any batch finder, as a resource's `batchFinders` map holds it: what `batchFinder(...)` makes, with its
 * handler's types left to the definition (a criteria type is not assignable to another, so no general
 * handler type fits them all; the typed client reads the specific definition).
 */
export interface AnyBatchFinderDef {
  readonly kind: 'batchFinder';
  readonly form: 'batch' | 'perCriterion';
  readonly batchParam: string;
  readonly params: ParamSpecs;
  readonly paging: PagingSpec;
  readonly metadata: RecordClass<RecordTemplate> | undefined;
  readonly maxBatchSize: number | undefined;
  readonly doc?: string | undefined;
  handler(...args: never[]): unknown;
}

/** Batch finders by name (`bq=<name>`). */
export type BatchFinders = { readonly [name: string]: AnyBatchFinderDef };
/** Collection-level actions by name. */
export type Actions = { readonly [name: string]: ActionDef<ParamSpecs, unknown> };
/** Entity-level actions by name. */
export type EntityActions<K> = { readonly [name: string]: EntityActionDef<K, ParamSpecs, unknown> };

/**
 * The methods of a collection (handlers are methods here, so that a definition with specific types is
 * assignable to the general {@link ResourceDefinition}).
 */
export interface CollectionMethods<K, V extends RecordTemplate> {
  get?(key: K, ctx: ResourceContext): MaybeAsync<V | null | undefined>;
  batchGet?(keys: readonly K[], ctx: ResourceContext): MaybeAsync<BatchGetReturn<K, V>>;
  create?(entity: V, ctx: ResourceContext): MaybeAsync<CreateOutcome<K, V>>;
  batchCreate?(entities: readonly V[], ctx: ResourceContext): MaybeAsync<BatchCreateReturn<K, V>>;
  update?(key: K, entity: V, ctx: ResourceContext): MaybeAsync<UpdateReturn>;
  batchUpdate?(entities: ReadonlyMap<K, V>, ctx: ResourceContext): MaybeAsync<BatchUpdateReturn<K, V>>;
  partialUpdate?(key: K, patch: PatchRequest<V>, ctx: ResourceContext): MaybeAsync<PartialUpdateReturn<V>>;
  batchPartialUpdate?(
    patches: ReadonlyMap<K, PatchRequest<V>>,
    ctx: ResourceContext,
  ): MaybeAsync<BatchUpdateReturn<K, V>>;
  delete?(key: K, ctx: ResourceContext): MaybeAsync<UpdateReturn>;
  batchDelete?(keys: readonly K[], ctx: ResourceContext): MaybeAsync<BatchUpdateReturn<K, V>>;
  getAll?: FinderDef<ParamSpecs, V, RecordTemplate> | GetAllHandler<V>;
  readonly finders?: Finders<V>;
  readonly batchFinders?: BatchFinders;
  readonly actions?: Actions;
  readonly entityActions?: EntityActions<K>;
}

/** A get_all handler given as a plain function: no parameters, framework paging. */
export type GetAllHandler<V> = (ctx: ResourceContext) => CollectionAnswer<V>;

/** The methods of an association: a collection's but create and batch_create (as in the reference). */
export type AssociationMethods<K, V extends RecordTemplate> = Omit<
  CollectionMethods<K, V>,
  'create' | 'batchCreate'
>;

/** The methods of a simple resource (one entity, no key). */
export interface SimpleMethods<V extends RecordTemplate> {
  get?(ctx: ResourceContext): MaybeAsync<V | null | undefined>;
  update?(entity: V, ctx: ResourceContext): MaybeAsync<UpdateReturn>;
  partialUpdate?(patch: PatchRequest<V>, ctx: ResourceContext): MaybeAsync<PartialUpdateReturn<V>>;
  delete?(ctx: ResourceContext): MaybeAsync<UpdateReturn>;
  readonly actions?: Actions;
}

// ---------------------------------------------------------------------------------------------------------
// Resources

/** Options every resource kind shares. */
interface ResourceBase<V extends RecordTemplate> {
  /** The path segment: `/photos`. Letters, digits, `_` and `-`, starting with a letter or `_`. */
  readonly name: string;
  /** The generated record class of the entities. */
  readonly value: RecordClass<V>;
  /** Child resources: `/photos/{id}/comments` (`/settings/comments` for a simple parent). */
  readonly subresources?: readonly ResourceDefinition[];
  /** Filters for this resource only (invocation and response stages), after the server's. */
  readonly filters?: readonly RequestFilter[];
  /**
   * Whether the validation filter runs for this resource: `true` even when the server's `validation` option is
   * off, `false` never (the handlers then get unchecked data, and must not store it). Default: the server's.
   */
  readonly validation?: boolean;
  /**
   * Milliseconds a request to this resource may take before it is answered 504 and `ctx.signal` aborts
   * (every handler Observable unsubscribed). Default: the server's `timeout` (none).
   */
  readonly timeout?: number;
  /** Documentation, for clients and interface descriptions. */
  readonly doc?: string;
  /**
   * Paths of fields clients cannot set (the reference's `@ReadOnly`: `['id', 'location/latitude']`): absent
   * from a create or update even when required, refused in a create or patch (422). See field-annotations.ts.
   */
  readonly readOnly?: readonly string[];
  /** Paths of fields clients set on create only (the reference's `@CreateOnly`): refused in a patch (422). */
  readonly createOnly?: readonly string[];
  /**
   * The namespace that qualifies the resource's name in its interface description
   * (`com.example.photos` → `com.example.photos.photos.restspec.json`). Default: none, as Rest.li's
   * `@RestLiCollection(namespace = "")`: the IDL then has no `namespace` field.
   */
  readonly namespace?: string;
}

/** A collection resource definition. */
export interface CollectionResource<
  K,
  V extends RecordTemplate,
  M extends CollectionMethods<K, V>,
> extends ResourceBase<V> {
  readonly kind: 'collection';
  readonly key: KeyType<K>;
  /** The name of the key in `ctx.pathKeys` (default `<name>Id`). */
  readonly keyName: string;
  readonly methods: M;
  readonly alternativeKeys?: AlternativeKeys<K>;
}

/** Alternative keys by the name requests give in `?altkey=` (see {@link AlternativeKey}). */
export type AlternativeKeys<K> = { readonly [name: string]: AlternativeKey<K, unknown> };

/** An association resource definition: entities keyed by a compound key of named parts. */
export interface AssociationResource<
  P extends AssocKeyParts,
  V extends RecordTemplate,
  M extends AssociationMethods<AssocKeyOf<P>, V>,
> extends ResourceBase<V> {
  readonly kind: 'association';
  readonly assocKeys: P;
  readonly key: KeyType<AssocKeyOf<P>>;
  readonly keyName: string;
  readonly methods: M;
  readonly alternativeKeys?: AlternativeKeys<AssocKeyOf<P>>;
}

/** A simple resource definition: one entity at its path. */
export interface SimpleResource<
  V extends RecordTemplate,
  M extends SimpleMethods<V>,
> extends ResourceBase<V> {
  readonly kind: 'simple';
  readonly methods: M;
}

/** Any resource definition, as the server takes it. */
export type ResourceDefinition =
  | CollectionResource<unknown, RecordTemplate, CollectionMethods<unknown, RecordTemplate>>
  | AssociationResource<
      AssocKeyParts,
      RecordTemplate,
      AssociationMethods<AssocKeyOf<AssocKeyParts>, RecordTemplate>
    >
  | SimpleResource<RecordTemplate, SimpleMethods<RecordTemplate>>;

/** The input of {@link collection}. */
export interface CollectionInput<
  K,
  V extends RecordTemplate,
  M extends CollectionMethods<K, V>,
> extends ResourceBase<V> {
  readonly key: KeyType<K>;
  readonly keyName?: string;
  readonly methods: M;
  /** Other keys requests may name entities by (`?altkey=<name>`). */
  readonly alternativeKeys?: AlternativeKeys<K>;
}

/** Declares a collection resource (`/photos`, `/photos/{key}`). */
export function collection<
  K,
  V extends RecordTemplate,
  M extends CollectionMethods<K, V>,
  AK extends AlternativeKeys<K> = Record<never, never>,
>(
  def: CollectionInput<K, V, M> & { readonly alternativeKeys?: AK },
): CollectionResource<K, V, M> & WithAlternativeKeys<AK> {
  return Object.freeze({ ...def, kind: 'collection' as const, keyName: def.keyName ?? `${def.name}Id` });
}

/** A definition's alternative keys with their names and types kept (for the typed client's `alt(name)`). */
export interface WithAlternativeKeys<AK> {
  readonly alternativeKeys?: AK;
}

/** The input of {@link association}. */
export interface AssociationInput<
  P extends AssocKeyParts,
  V extends RecordTemplate,
  M extends AssociationMethods<AssocKeyOf<P>, V>,
> extends ResourceBase<V> {
  /** Key part name → part type (primitive or enum), e.g. `{ albumId: LONG, photoId: LONG }`. */
  readonly assocKeys: P;
  readonly methods: M;
  /** Other keys requests may name entities by (`?altkey=<name>`). */
  readonly alternativeKeys?: AlternativeKeys<AssocKeyOf<P>>;
}

/**
 * Declares an association resource (`/albumEntries/(albumId:1,photoId:2)`); handlers see keys as
 * `{ albumId, photoId }`. Finders may bind key parts of a partial key in the path with `assocKey(T)`
 * (`/albumEntries/(albumId:1)?q=byAlbum`).
 */
export function association<
  const P extends AssocKeyParts,
  V extends RecordTemplate,
  M extends AssociationMethods<AssocKeyOf<P>, V>,
  AK extends AlternativeKeys<AssocKeyOf<P>> = Record<never, never>,
>(
  def: AssociationInput<P, V, M> & { readonly alternativeKeys?: AK },
): AssociationResource<P, V, M> & WithAlternativeKeys<AK> {
  return Object.freeze({
    ...def,
    kind: 'association' as const,
    key: compoundKey(def.assocKeys),
    keyName: Object.keys(def.assocKeys).join(','),
  });
}

/** The input of {@link simple}. */
export interface SimpleInput<V extends RecordTemplate, M extends SimpleMethods<V>> extends ResourceBase<V> {
  readonly methods: M;
}

/** Declares a simple resource: one entity at `/<name>` (get, update, partial_update, delete, actions). */
export function simple<V extends RecordTemplate, M extends SimpleMethods<V>>(
  def: SimpleInput<V, M>,
): SimpleResource<V, M> {
  return Object.freeze({ ...def, kind: 'simple' as const });
}
