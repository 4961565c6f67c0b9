import type { DataMap, JsValue } from '../data';
import type { ResourceKey } from '../protocol';
import type { KeyType } from '../resources/key-types';
import type { AttachmentsParam } from '../resources/attachments-param';
import type { AttachmentSources } from '../streams/related/encoder';
import type { AssocKeyParam, CriteriaParam, OptionalParam } from '../resources/params';
import type { Observable } from 'rxjs';
import type { ValueType } from '../resources/value-types';
import type { RecordTemplate } from '../templates';
import type { ParamsInit, Projection } from './request-description';
import type {
  BatchCreateResponse,
  BatchEntityResponse,
  BatchFinderResponse,
  BatchStatusResponse,
  CollectionPageResponse,
  CreateResponse,
  EntityResponse,
  ResponseCommon,
  UpdateResponse,
} from './responses';

/**
 * The types of the typed resource client (resource-client.ts): a resource's key type, value class, methods,
 * finders and actions become the signatures of `client.photos.batchGet([1, 2, 3])`. Only the type-level
 * half lives here; resources are read structurally (handlers are never looked at), so a client takes a
 * resource interface (`collectionInterface(...)`: handler-free, what a client team is handed) or the
 * definition the server registers, with the same types.
 */

// ---------------------------------------------------------------------------------------------------------
// What the client reads of a definition

/** A generated record class (`Photo`). */
export type RecordClassLike = (new (data?: DataMap) => RecordTemplate) & { readonly name: string };

/** What the client reads of a finder (or of a get_all declared with `finder(...)`). */
export interface FinderContract {
  readonly params: object;
  readonly metadata?: RecordClassLike | undefined;
}

/**
 * What the client reads of a batch finder: its batch parameter's name, its parameters (the batch parameter,
 * a `criteriaOf(...)` spec, among them) and its metadata class.
 */
export interface BatchFinderContract {
  readonly batchParam: string;
  readonly params: object;
  readonly metadata?: RecordClassLike | undefined;
}

/** What the client reads of an action or entity action. */
export interface ActionContract {
  readonly params: object;
  readonly returns?: ValueType<unknown> | undefined;
}

/** What the client reads of a definition's `methods`: which are there, and finders and actions. */
export interface MethodsContract {
  readonly getAll?: unknown;
  readonly finders?: { readonly [name: string]: FinderContract };
  readonly batchFinders?: { readonly [name: string]: BatchFinderContract };
  readonly actions?: { readonly [name: string]: ActionContract };
  readonly entityActions?: { readonly [name: string]: ActionContract };
}

/** A collection or association resource, as the client reads it. */
export interface KeyedResourceContract {
  readonly kind: 'collection' | 'association';
  readonly name: string;
  readonly value: RecordClassLike;
  readonly key: KeyType<unknown>;
  /** Read as a {@link MethodsContract} (typed `object`: a definition's methods share no required member). */
  readonly methods: object;
  readonly subresources?: readonly ResourceContract[];
}

/** A simple (singleton) resource, as the client reads it. */
export interface SimpleResourceContract {
  readonly kind: 'simple';
  readonly name: string;
  readonly value: RecordClassLike;
  readonly methods: object;
  readonly subresources?: readonly ResourceContract[];
}

/** An actions set (`actionsSetInterface(...)`): only actions, called as a simple resource's are. */
export interface ActionsSetContract {
  readonly kind: 'actionsSet';
  readonly name: string;
  readonly methods: object;
  readonly subresources?: readonly ResourceContract[];
}

/**
 * Any resource interface (`collectionInterface(...)`, ...) or definition (`collection(...)`, ...), as the
 * client reads it.
 */
export type ResourceContract = KeyedResourceContract | SimpleResourceContract | ActionsSetContract;

/** Resources by the property the client exposes them as: `{ photos, albums }`. */
export type ResourceContracts = { readonly [property: string]: ResourceContract };

// ---------------------------------------------------------------------------------------------------------
// Per-call options

/** What every call takes. */
export interface CallOptions {
  /** Headers for this request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Aborts the request; the call rejects with the signal's `reason`. */
  readonly signal?: AbortSignal;
  /** Overrides the client's timeout. */
  readonly timeoutMs?: number;
  /** Sends the call tunneled whatever its query length (`FORCE_QUERY_TUNNEL`); see `RequestCommon`. */
  readonly forceQueryTunnel?: boolean;
  /** Overrides the client's `queryTunnelThreshold` for this call (`false`: never by length). */
  readonly queryTunnelThreshold?: number | false;
  /** Further query parameters the definition does not declare (framework names are reserved). */
  readonly query?: ParamsInit;
  /** `$fillInDefaults=true`: returned entities come with their absent defaulted fields filled in. */
  readonly fillInDefaults?: boolean;
  /**
   * Attachments sent with the body as `multipart/related` (the reference's `appendSingleAttachment` /
   * `appendMultipleAttachments`): writers, or iterators such as an incoming `AttachmentReader`, forwarded.
   */
  readonly attachments?: AttachmentSources;
  /** Lets the server answer with attachments (`response.getAttachmentReader()`). Default false. */
  readonly acceptResponseAttachments?: boolean;
}

/** get and batch_get. */
export interface GetOptions extends CallOptions {
  /** Projection of the returned entities (`fields=`). */
  readonly fields?: Projection;
}

/** create, batch_create, partial_update and batch_partial_update. */
export interface ReturnEntityOptions extends CallOptions {
  /** `$returnEntity`; absent: the server's default (return it when the resource does). */
  readonly returnEntity?: boolean;
  /** Projection of the returned entities. */
  readonly fields?: Projection;
}

/** get_all and finders. */
export interface CollectionOptions extends CallOptions {
  /** First element (default: the server's, 0). */
  readonly start?: number;
  /** Page size (default: the server's, 10). */
  readonly count?: number;
  readonly fields?: Projection;
  readonly metadataFields?: Projection;
  readonly pagingFields?: Projection;
}

/**
 * A patch for partial_update: a patch DataMap (`{"$set":{...},"$delete":[...],"nested":{...}}`), a plain
 * object of the same shape, or anything with a `patch` DataMap (`PatchRequest`, or `diffPatch`'s result
 * wrapped). See `diffPatch` to compute one from two versions of an entity.
 */
export type PatchInput = DataMap | { readonly patch: DataMap } | { readonly [op: string]: JsValue };

// ---------------------------------------------------------------------------------------------------------
// From definitions to signatures

/** The entity class's instances (`Photo`). */
export type EntityOf<D> = D extends { readonly value: new (...args: never[]) => infer V } ? V : DataMap;

/** The typed key of a keyed resource (`number | bigint`, `{ albumId, photoId }`, a complex key). */
export type KeyOfResource<D> = D extends { readonly key: KeyType<infer K> } ? K : never;

/** What a caller passes for one parameter spec (optional parameters may be left out). */
export type ParamInputOf<S> =
  S extends OptionalParam<infer T, unknown>
    ? T
    : S extends AssocKeyParam<infer T>
      ? T
      : S extends ValueType<infer T>
        ? T
        : never;

type IsOptional<S> = S extends { readonly paramKind: 'optional' } ? true : false;

/** The parameters object of a finder or action: required parameters required, optional ones optional. */
export type ParamsInput<P> = Simplify<
  {
    readonly [
      N in keyof P as IsOptional<P[N]> extends true ? never : IsSent<P[N]> extends true ? N : never
    ]: ParamInputOf<P[N]>;
  } & {
    readonly [N in keyof P as IsOptional<P[N]> extends true ? N : never]?: ParamInputOf<P[N]> | undefined;
  }
>;

/** False for the attachments parameter: attachments go as the call's `attachments` option. */
type IsSent<S> = S extends AttachmentsParam ? false : true;

/** One object type instead of an intersection, for readable signatures in editors. */
type Simplify<T> = { [K in keyof T]: T[K] };

/** `(params, options?)`, with `params` optional when every parameter is. */
export type ParamsArgs<P, O> =
  Record<never, never> extends ParamsInput<P>
    ? [params?: ParamsInput<P>, options?: O]
    : [params: ParamsInput<P>, options?: O];

/** The metadata type of a finder: its `metadata` class's instances, else the raw DataMap. */
export type MetadataOf<F> = F extends { readonly metadata: (new (data?: DataMap) => infer M) | undefined }
  ? RecordTemplate extends M
    ? DataMap
    : M
  : DataMap;

/** The return type of an action (`void` without `returns`). */
export type ActionReturnOf<A> = A extends { readonly returns: ValueType<infer R> | undefined } ? R : void;

/** An action's response: its value typed as the action's return type (undefined for a void action). */
export interface TypedActionResponse<R> extends ResponseCommon {
  readonly value: R;
}

type ParamsOfContract<F> = F extends { readonly params: infer P } ? P : Record<never, never>;

/** A finder's call: `client.photos.finders.byTag({ tag: 'sea' }, { count: 5 })`. */
export type FinderCall<F, V> = (
  ...args: ParamsArgs<ParamsOfContract<F>, CollectionOptions>
) => Promise<CollectionPageResponse<V, MetadataOf<F>>>;

/** The criteria record of a batch finder contract (what its `criteriaOf(...)` names). */
export type CriteriaOfContract<F> = {
  [N in keyof ParamsOfContract<F>]: ParamsOfContract<F>[N] extends CriteriaParam<infer C> ? C : never;
}[keyof ParamsOfContract<F>];

/** A batch finder's parameter specs without its batch parameter. */
export type OtherParamsOfContract<F> = {
  [
    N in keyof ParamsOfContract<F> as ParamsOfContract<F>[N] extends { readonly paramKind: 'criteria' }
      ? never
      : N
  ]: ParamsOfContract<F>[N];
};

/**
 * One criterion at a time: `api.photos.batchFinders.searchPhotos.builder().add(c1).add(c2).send({ exif })`.
 * Immutable: `add` returns a new builder, so one can be kept as a base and extended.
 */
export interface BatchFinderBuilder<C, P, R> extends PlainBatchFinderBuilder<C, P, R> {
  add(...criteria: C[]): BatchFinderBuilder<C, P, R>;
  /** The cold Observable form of {@link send}. */
  rx(...args: ParamsArgs<P, CollectionOptions>): Observable<R>;
}

/** {@link BatchFinderBuilder} of a client without the Observable forms (`svc-framework/client`'s default). */
export interface PlainBatchFinderBuilder<C, P, R> {
  /** The criteria so far, in the order they are sent (and answered). */
  readonly criteria: readonly C[];
  /** A builder with `criterion` appended (duplicates are kept: each gets its own result). */
  add(...criteria: C[]): PlainBatchFinderBuilder<C, P, R>;
  /** Sends the batch finder with the criteria added so far. */
  send(...args: ParamsArgs<P, CollectionOptions>): Promise<R>;
}

/** A builder with its `rx` form when `Rx` is true. */
type BuilderOf<C, P, R, Rx> = Rx extends true
  ? BatchFinderBuilder<C, P, R>
  : PlainBatchFinderBuilder<C, P, R>;

/**
 * A batch finder's call: `client.photos.batchFinders.searchPhotos([c1, c2], { exif }, { count: 5 })`, its
 * `results[i]` answering `criteria[i]`; `.builder()` adds criteria one at a time.
 */
export type BatchFinderCall<F, V, Rx = true> = ((
  criteria: Iterable<CriteriaOfContract<F>>,
  ...args: ParamsArgs<OtherParamsOfContract<F>, CollectionOptions>
) => Promise<BatchFinderResponse<V, MetadataOf<F>>>) & {
  builder(): BuilderOf<
    CriteriaOfContract<F>,
    OtherParamsOfContract<F>,
    BatchFinderResponse<V, MetadataOf<F>>,
    Rx
  >;
};

/** A collection-level action's call. */
export type ActionCall<A> = (
  ...args: ParamsArgs<ParamsOfContract<A>, CallOptions>
) => Promise<TypedActionResponse<ActionReturnOf<A>>>;

/** An entity-level action's call: the key first. */
export type EntityActionCall<K, A> = (
  key: K,
  ...args: ParamsArgs<ParamsOfContract<A>, CallOptions>
) => Promise<TypedActionResponse<ActionReturnOf<A>>>;

type Has<M, N extends string> = M extends { readonly [P in N]: unknown } ? true : false;
type If<C, T> = C extends true ? T : unknown;

type GetAllCall<G, V> = G extends { readonly kind: 'finder' }
  ? FinderCall<G, V>
  : (options?: CollectionOptions) => Promise<CollectionPageResponse<V, DataMap>>;

/**
 * A child resource's client under one parent entity: `api.shelves.sub(4, notes).get('n1')`. The child must
 * be one of the definition's `subresources` (checked when called: definitions do not keep that list's types).
 */
interface SubCall<K, Rx> {
  sub<C extends ResourceContract>(parentKey: K, child: C): ResourceClientOf<C, Rx>;
}

/** A child resource's client under a simple resource: `api.settings.sub(comments)`. */
interface SimpleSubCall<Rx> {
  sub<C extends ResourceContract>(child: C): ResourceClientOf<C, Rx>;
}

type ActionsOf<M> = M extends { readonly actions: infer A }
  ? { readonly actions: { readonly [N in keyof A]: ActionCall<A[N]> } }
  : unknown;

/** The wire type of an alternative key (`alternativeKey({ key: STRING_KEY, ... })` → string). */
export type AltKeyOf<X> = X extends { readonly key: KeyType<infer A> } ? A : never;

/** The entity-level and batch methods, which an alternative key can address. */
type KeyedMethodNames =
  | 'get'
  | 'batchGet'
  | 'create'
  | 'batchCreate'
  | 'update'
  | 'batchUpdate'
  | 'partialUpdate'
  | 'batchPartialUpdate'
  | 'delete'
  | 'batchDelete'
  | 'entityActions';

/**
 * `alt(name)`: the same resource addressed by an alternative key (`?altkey=name`): keys in and out are the
 * alternative's (`api.photos.alt('urn').get('urn:li:photo:1')`).
 */
type AltCall<V, M, AK, Rx> = [keyof AK] extends [never]
  ? unknown
  : {
      alt<N extends keyof AK & string>(
        name: N,
      ): KeyedResourceClient<AltKeyOf<AK[N]>, V, Pick<M, KeyedMethodNames & keyof M>, never, Rx>;
    };

/** The calls of a collection or association (without `rx`, `sub`, `alt`). */
export type KeyedClientCalls<K, V, M, Rx = true> = If<
  Has<M, 'get'>,
  { get(key: K, options?: GetOptions): Promise<EntityResponse<V>> }
> &
  If<
    Has<M, 'batchGet'>,
    { batchGet(keys: Iterable<K>, options?: GetOptions): Promise<BatchEntityResponse<K, V>> }
  > &
  If<Has<M, 'create'>, { create(entity: V, options?: ReturnEntityOptions): Promise<CreateResponse<V, K>> }> &
  If<
    Has<M, 'batchCreate'>,
    {
      batchCreate(entities: Iterable<V>, options?: ReturnEntityOptions): Promise<BatchCreateResponse<V, K>>;
    }
  > &
  If<Has<M, 'update'>, { update(key: K, entity: V, options?: CallOptions): Promise<UpdateResponse<never>> }> &
  If<
    Has<M, 'batchUpdate'>,
    {
      batchUpdate(
        entities: Iterable<readonly [K, V]>,
        options?: CallOptions,
      ): Promise<BatchStatusResponse<K, never>>;
    }
  > &
  If<
    Has<M, 'partialUpdate'>,
    {
      partialUpdate(key: K, patch: PatchInput, options?: ReturnEntityOptions): Promise<UpdateResponse<V>>;
    }
  > &
  If<
    Has<M, 'batchPartialUpdate'>,
    {
      batchPartialUpdate(
        patches: Iterable<readonly [K, PatchInput]>,
        options?: ReturnEntityOptions,
      ): Promise<BatchStatusResponse<K, V>>;
    }
  > &
  If<Has<M, 'delete'>, { delete(key: K, options?: CallOptions): Promise<UpdateResponse<never>> }> &
  If<
    Has<M, 'batchDelete'>,
    { batchDelete(keys: Iterable<K>, options?: CallOptions): Promise<BatchStatusResponse<K, never>> }
  > &
  (M extends { readonly getAll: infer G } ? { readonly getAll: GetAllCall<G, V> } : unknown) &
  (M extends { readonly finders: infer F }
    ? { readonly finders: { readonly [N in keyof F]: FinderCall<F[N], V> } }
    : unknown) &
  ActionsOf<M> &
  (M extends { readonly batchFinders: infer B }
    ? { readonly batchFinders: { readonly [N in keyof B]: BatchFinderCall<B[N], V, Rx> } }
    : unknown) &
  (M extends { readonly entityActions: infer A }
    ? { readonly entityActions: { readonly [N in keyof A]: EntityActionCall<K, A[N]> } }
    : unknown);

/** The client of a collection or association: the methods its definition has, typed by it. */
export type KeyedResourceClient<K, V, M, AK = never, Rx = true> = KeyedClientCalls<K, V, M, Rx> &
  RxOf<KeyedClientCalls<K, V, M>, Rx> &
  SubCall<K, Rx> &
  AltCall<V, M, AK, Rx> &
  ResourceClientBase;

/**
 * `rx`, the cold Observable forms of a client's calls (src/client/rx.ts), when `Rx` is true: always on the
 * package root's clients; on `svc-framework/client`'s only when created with `{ rx: rxForms }`.
 */
type RxOf<C, Rx> = Rx extends true
  ? {
      /** The cold Observable forms of the same calls (src/client/rx.ts). */
      readonly rx: RxClient<C>;
    }
  : unknown;

/** The calls of a simple resource (without `rx`, `sub`). */
export type SimpleClientCalls<V, M> = If<
  Has<M, 'get'>,
  { get(options?: GetOptions): Promise<EntityResponse<V>> }
> &
  If<Has<M, 'update'>, { update(entity: V, options?: CallOptions): Promise<UpdateResponse<never>> }> &
  If<
    Has<M, 'partialUpdate'>,
    { partialUpdate(patch: PatchInput, options?: ReturnEntityOptions): Promise<UpdateResponse<V>> }
  > &
  If<Has<M, 'delete'>, { delete(options?: CallOptions): Promise<UpdateResponse<never>> }> &
  ActionsOf<M>;

/** The client of a simple resource: no keys. */
export type SimpleResourceClient<V, M, Rx = true> = SimpleClientCalls<V, M> &
  RxOf<SimpleClientCalls<V, M>, Rx> &
  SimpleSubCall<Rx> &
  ResourceClientBase;

/** A promise-returning call's cold Observable form: the same parameters, the same response type. */
export type RxCall<F> = F extends (...args: infer A) => Promise<infer R>
  ? (...args: A) => Observable<R>
  : never;

/** The call groups of a client (`finders`, `actions`, ...), whose members become {@link RxCall}s. */
type RxGroupName = 'finders' | 'batchFinders' | 'actions' | 'entityActions';

/**
 * The Observable forms of a client's calls, mirroring it: `rx.get(1)`, `rx.finders.byTag({...})`,
 * `rx.batchFinders.searchPhotos([...])`, `rx.entityActions.addTag(1, {...})`.
 */
export type RxClient<C> = {
  readonly [P in keyof C]: P extends RxGroupName
    ? { readonly [N in keyof C[P]]: RxCall<C[P][N]> }
    : RxCall<C[P]>;
};

/** What every resource client has. */
export interface ResourceClientBase {
  /** The resource's path below the base URL, as the core client takes it (`photos`, `albums/{$0}/entries`). */
  readonly path: string;
  /** The parent keys the path's placeholders take (empty for a top-level resource). */
  readonly pathKeys: { readonly [name: string]: ResourceKey };
  /** The alternative key this client addresses entities by (`alt(name)`), if any. */
  readonly altKey: string | undefined;
}

/**
 * A definition's alternative keys by name, as declared (the definition type's general index signature
 * left out, so that only declared names are accepted).
 */
export type AlternativeKeysOf<D> = D extends { readonly alternativeKeys?: infer AK }
  ? KnownKeys<Exclude<AK, undefined>>
  : never;

type KnownKeys<T> = { [P in keyof T as string extends P ? never : number extends P ? never : P]: T[P] };

/** The typed client of one resource definition (with its `rx` forms unless `Rx` is false). */
export type ResourceClientOf<D, Rx = true> = D extends {
  readonly kind: 'simple' | 'actionsSet';
  readonly methods: infer M;
}
  ? SimpleResourceClient<EntityOf<D>, M, Rx>
  : D extends { readonly kind: 'collection' | 'association'; readonly methods: infer M }
    ? KeyedResourceClient<KeyOfResource<D>, EntityOf<D>, M, AlternativeKeysOf<D>, Rx>
    : never;

/** The typed clients of a map of resource definitions, by the same properties. */
export type ResourceClients<R, Rx = true> = { readonly [P in keyof R]: ResourceClientOf<R[P], Rx> };
