import type { RecordTemplate } from '../templates';
import {
  type ActionDef,
  type AlternativeKeys,
  type AssociationMethods,
  type BatchFinderDef,
  type BatchFinderReturn,
  type CollectionAnswer,
  type CollectionMethods,
  type CollectionReturn,
  type EntityActionDef,
  type FinderDef,
  type GetAllHandler,
  type PagingSpec,
  type ResourceDefinition,
  type SimpleMethods,
  action,
  association,
  batchFinder,
  collection,
  entityAction,
  finder,
  simple,
} from './definition';
import { maxBatchSizeOf, withMaxBatchSize } from './batch-limit';
import { type DefinitionLocation, ResourceDefinitionError } from './errors';
import { fieldAnnotationsOf } from './field-annotations';
import {
  type AlternativeKey,
  type AssocKeyOf,
  type AssocKeyParts,
  type KeyType,
  alternativeKey,
  compoundKey,
} from './key-types';
import type { CriteriaOf, OtherParamsOf, ParamSpecs, ParamsOf } from './params';
import type { MaybeAsync, RequestFilter, ResourceContext } from './request';
import type { RecordClass, ValueType } from './value-types';

/**
 * Resource interfaces: what a resource offers (name, namespace, keys, value class, methods, finders, batch
 * finders, actions, their parameters, paging and metadata, subresources, docs) declared without handlers, so
 * that a client can be built from it without the server's code, and the server implements it:
 *
 * ```ts
 * // api.ts: shared with clients
 * export const photosApi = collectionInterface({
 *   name: 'photos',
 *   namespace: 'com.example.photos',
 *   key: LONG_KEY,
 *   value: Photo,
 *   methods: ['get', 'create', 'getAll'],
 *   finders: { byTag: finderSpec({ params: { tag: STRING } }) },
 *   entityActions: { addTag: actionSpec({ params: { tag: STRING }, returns: INT }) },
 * });
 * // server.ts
 * const photos = implement(photosApi, {
 *   get: (id) => store.get(id),            // id: number | bigint, as the interface's key says
 *   create: (photo) => ({ id: store.add(photo) }),
 *   getAll: () => store.all(),
 *   finders: { byTag: ({ tag }) => store.tagged(tag) },
 *   entityActions: { addTag: (id, { tag }) => store.tag(id, tag) },
 * });
 * // client.ts
 * const api = createResourceClient({ baseUrl }, { photos: photosApi });
 * ```
 *
 * An interface has the shape the typed client reads (`kind`, `name`, `key`, `value`, `methods` with a
 * member per method and the finder / action specs), so the client takes it as it takes a definition.
 * `implement` gives the same {@link ResourceDefinition} `collection({...})` gives; registration then checks
 * that it matches its interface (a handler missing or one the interface lacks: {@link ResourceDefinitionError}).
 */

// ---------------------------------------------------------------------------------------------------------
// Method specs without handlers

/** What an interface holds for a plain method (get, create, ...): its documentation, if any. */
export interface MethodSpec {
  readonly doc?: string;
  /** Marks the method deprecated in the interface description (`true`, or the reason). */
  readonly deprecated?: boolean | string;
}

/**
 * What an interface holds for a batch method (batchGet, batchCreate, batchUpdate, batchPartialUpdate,
 * batchDelete): its documentation, and its own limit on the items of one request (instead of the server's
 * `maxBatchSize`), written to the interface description as `maxBatchSize: { value, validate: true }`.
 */
export interface BatchMethodSpec extends MethodSpec {
  readonly maxBatchSize?: number;
}

/** A finder (or a get_all with parameters) without its handler. */
export interface FinderInterface<
  P extends ParamSpecs = ParamSpecs,
  M extends RecordTemplate = RecordTemplate,
> {
  readonly kind: 'finder';
  readonly params: P;
  readonly paging: PagingSpec;
  readonly metadata: RecordClass<M> | undefined;
  readonly doc?: string | undefined;
  readonly deprecated?: boolean | string;
}

/** A batch finder without its handler. */
export interface BatchFinderInterface<
  P extends ParamSpecs = ParamSpecs,
  M extends RecordTemplate = RecordTemplate,
> {
  readonly kind: 'batchFinder';
  readonly batchParam: string;
  readonly params: P;
  readonly paging: PagingSpec;
  readonly metadata: RecordClass<M> | undefined;
  readonly maxBatchSize: number | undefined;
  readonly doc?: string | undefined;
  readonly deprecated?: boolean | string;
}

/** An action (collection- or entity-level) without its handler. */
export interface ActionInterface<P extends ParamSpecs = ParamSpecs, R = unknown> {
  readonly kind: 'action';
  readonly params: P;
  /** The return type; undefined for a void action. */
  readonly returns: ValueType<R> | undefined;
  readonly doc?: string | undefined;
  /** The action changes nothing (the IDL's `readOnly`). */
  readonly readOnly?: boolean;
  readonly deprecated?: boolean | string;
  /** Exception classes the IDL lists for the action (`throws`), kept for Java tools; Svc ignores them. */
  readonly throws?: readonly string[];
}

function withDoc(doc: string | undefined): { readonly doc?: string } {
  return doc === undefined ? {} : { doc };
}

/** The optional marks of a spec, copied only when given (so that specs compare as before). */
function marks(spec: { readonly deprecated?: boolean | string; readonly readOnly?: boolean }): {
  readonly deprecated?: boolean | string;
  readonly readOnly?: boolean;
} {
  return {
    ...(spec.deprecated === undefined || spec.deprecated === false ? {} : { deprecated: spec.deprecated }),
    ...(spec.readOnly === true ? { readOnly: true } : {}),
  };
}

/**
 * Declares a finder of an interface: its query parameters, paging and metadata record (as `finder(spec,
 * handler)` does, without the handler).
 *
 * @example
 * ```ts
 * finders: { byTag: finderSpec({ params: { tag: STRING }, paging: true, doc: 'Photos with a tag.' }) },
 * ```
 */
export function finderSpec<
  const P extends ParamSpecs = Record<never, never>,
  M extends RecordTemplate = RecordTemplate,
>(
  spec: {
    readonly params?: P;
    readonly paging?: PagingSpec;
    readonly metadata?: RecordClass<M>;
    readonly doc?: string;
    readonly deprecated?: boolean | string;
  } = {},
): FinderInterface<P, M> {
  return Object.freeze({
    kind: 'finder' as const,
    params: spec.params ?? ({} as P),
    paging: spec.paging ?? false,
    metadata: spec.metadata,
    ...withDoc(spec.doc),
    ...marks(spec),
  });
}

/**
 * Declares a batch finder of an interface (as `batchFinder(spec, handler)` does, without the handler; whether
 * the implementation answers all criteria at once or one at a time is the server's choice).
 */
export function batchFinderSpec<const P extends ParamSpecs, M extends RecordTemplate = RecordTemplate>(spec: {
  readonly batchParam: string;
  readonly params: P;
  readonly paging?: PagingSpec;
  readonly metadata?: RecordClass<M>;
  readonly maxBatchSize?: number;
  readonly doc?: string;
  readonly deprecated?: boolean | string;
}): BatchFinderInterface<P, M> {
  return Object.freeze({
    kind: 'batchFinder' as const,
    batchParam: spec.batchParam,
    params: spec.params,
    paging: spec.paging ?? false,
    metadata: spec.metadata,
    maxBatchSize: spec.maxBatchSize,
    ...withDoc(spec.doc),
    ...marks(spec),
  });
}

/**
 * Declares an action of an interface, collection- or entity-level (the key type is the resource's): body
 * parameters and the return type (none: a void action).
 *
 * @example
 * ```ts
 * actions: { purge: actionSpec({ params: { takenBefore: optional(LONG, 0) }, returns: INT }) },
 * ```
 */
export function actionSpec<const P extends ParamSpecs = Record<never, never>, R = void>(
  spec: {
    readonly params?: P;
    readonly returns?: ValueType<R>;
    readonly doc?: string;
    readonly readOnly?: boolean;
    readonly deprecated?: boolean | string;
    readonly throws?: readonly string[];
  } = {},
): ActionInterface<P, R> {
  return Object.freeze({
    kind: 'action' as const,
    params: spec.params ?? ({} as P),
    returns: spec.returns,
    ...withDoc(spec.doc),
    ...marks(spec),
    ...(spec.throws === undefined || spec.throws.length === 0
      ? {}
      : { throws: Object.freeze([...spec.throws]) }),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Interfaces

/** The plain methods of a collection, by the name definitions and clients use. */
export type CollectionMethodName =
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
  | 'getAll';
/** An association's plain methods: a collection's but create and batch_create. */
export type AssociationMethodName = Exclude<CollectionMethodName, 'create' | 'batchCreate'>;
/** A simple resource's plain methods. */
export type SimpleMethodName = 'get' | 'update' | 'partialUpdate' | 'delete';

/**
 * The plain methods an interface declares: a list (`['get', 'create']`), or an object giving each its
 * documentation (`{ get: { doc: '...' } }`), where `getAll` may also be a {@link finderSpec} (get_all with
 * parameters or paging).
 */
export type MethodsInput<N extends string> =
  | readonly N[]
  | {
      readonly [M in N]?: M extends 'getAll'
        ? MethodSpec | FinderInterface
        : M extends BatchMethodName
          ? BatchMethodSpec
          : MethodSpec;
    };

/** The plain batch methods, which may have a `maxBatchSize` of their own. */
export type BatchMethodName =
  'batchGet' | 'batchCreate' | 'batchUpdate' | 'batchPartialUpdate' | 'batchDelete';

type Empty = Record<never, never>;
// only the kind: a constraint naming the spec's type parameters would be inferred into a spec call left
// without them (`actionSpec()` would become `ActionInterface<ParamSpecs, unknown>`, not a void action)
type FinderInterfaces = { readonly [name: string]: { readonly kind: 'finder' } };
type BatchFinderInterfaces = { readonly [name: string]: { readonly kind: 'batchFinder' } };
type ActionInterfaces = { readonly [name: string]: { readonly kind: 'action' } };
/** An interface's alternative keys: name → the key type requests give in `?altkey=<name>`. */
export type AlternativeKeyTypes = { readonly [name: string]: KeyType<unknown> };

/** The declared plain methods, as an object of specs. */
type DeclaredMethods<Ms> = Ms extends readonly (infer N extends string)[]
  ? { readonly [M in N]: MethodSpec }
  : { readonly [M in keyof Ms]-?: Exclude<Ms[M], undefined> };

type Group<Name extends string, G> = [keyof G] extends [never] ? unknown : { readonly [K in Name]: G };

type Simplify<T> = { [K in keyof T]: T[K] };

/**
 * An interface's `methods`, in the shape a definition's has (what the typed client reads): a member per
 * plain method, then `finders`, `batchFinders`, `actions` and `entityActions` when declared.
 */
export type InterfaceMethods<Ms, F, B, A, E> = Simplify<
  DeclaredMethods<Ms> &
    Group<'finders', F> &
    Group<'batchFinders', B> &
    Group<'actions', A> &
    Group<'entityActions', E>
>;

/** An interface's alternative keys as the client reads them (`{ urn: { key: STRING_KEY } }`). */
export type AlternativeKeySpecs<AK> = { readonly [N in keyof AK]: { readonly key: AK[N] } };

/** Marks interfaces (a registry symbol: two copies of the package agree on it). Internal. */
export const INTERFACE: unique symbol = Symbol.for('svc.resourceInterface') as never;
/** Links an implementation to its interface and to the handlers it was given. Internal. */
export const IMPLEMENTS: unique symbol = Symbol.for('svc.implements') as never;

interface InterfaceBase<V extends RecordTemplate> {
  readonly [INTERFACE]: true;
  readonly name: string;
  readonly namespace: string | undefined;
  readonly doc: string | undefined;
  readonly value: RecordClass<V>;
  readonly subresources: readonly ResourceInterface[];
  /** Read-only field paths (the reference's `@ReadOnly`), when declared. */
  readonly readOnly?: readonly string[];
  /** Create-only field paths (the reference's `@CreateOnly`), when declared. */
  readonly createOnly?: readonly string[];
}

/** A collection's interface. */
export interface CollectionInterface<K, V extends RecordTemplate, M, AK = Empty> extends InterfaceBase<V> {
  readonly kind: 'collection';
  readonly key: KeyType<K>;
  /** The name of the key in the path (`<name>Id` unless given). */
  readonly keyName: string;
  readonly methods: M;
  readonly alternativeKeys?: AlternativeKeySpecs<AK>;
}

/** An association's interface. */
export interface AssociationInterface<
  P extends AssocKeyParts,
  V extends RecordTemplate,
  M,
  AK = Empty,
> extends InterfaceBase<V> {
  readonly kind: 'association';
  readonly assocKeys: P;
  readonly key: KeyType<AssocKeyOf<P>>;
  readonly keyName: string;
  readonly methods: M;
  readonly alternativeKeys?: AlternativeKeySpecs<AK>;
}

/** A simple resource's interface. */
export interface SimpleInterface<V extends RecordTemplate, M> extends InterfaceBase<V> {
  readonly kind: 'simple';
  readonly methods: M;
}

/** Any resource interface. */
export type ResourceInterface =
  | CollectionInterface<unknown, RecordTemplate, object, object>
  | AssociationInterface<AssocKeyParts, RecordTemplate, object, object>
  | SimpleInterface<RecordTemplate, object>;

/** What every interface input shares. */
interface InterfaceInputBase<V extends RecordTemplate> {
  /** The path segment: `/photos`. */
  readonly name: string;
  /** Qualifies the name in the interface description (`com.example.photos`). Default: none. */
  readonly namespace?: string;
  readonly doc?: string;
  /** The generated record class of the entities. */
  readonly value: RecordClass<V>;
  /** Child resources' interfaces: `/photos/{id}/comments`. */
  readonly subresources?: readonly ResourceInterface[];
  /** Marks the resource deprecated in the interface description (`true`, or the reason). */
  readonly deprecated?: boolean | string;
  /**
   * Paths of fields clients cannot set (the reference's `@ReadOnly`, written to the IDL as the `readOnly`
   * annotation): `['id']` lets a create leave out a required server-assigned id and refuses one sent.
   */
  readonly readOnly?: readonly string[];
  /** Paths of fields clients may set on create only (the reference's `@CreateOnly`). */
  readonly createOnly?: readonly string[];
}

/** The input of {@link collectionInterface}. */
export interface CollectionInterfaceInput<
  K,
  V extends RecordTemplate,
  Ms extends MethodsInput<CollectionMethodName>,
  F extends FinderInterfaces,
  B extends BatchFinderInterfaces,
  A extends ActionInterfaces,
  E extends ActionInterfaces,
  AK extends AlternativeKeyTypes,
> extends InterfaceInputBase<V> {
  readonly key: KeyType<K>;
  /** Default `<name>Id`. */
  readonly keyName?: string;
  readonly methods?: Ms;
  readonly finders?: F;
  readonly batchFinders?: B;
  readonly actions?: A;
  readonly entityActions?: E;
  /** Other keys requests may name entities by (`?altkey=<name>`); the implementation converts them. */
  readonly alternativeKeys?: AK;
}

/** The input of {@link associationInterface}. */
export interface AssociationInterfaceInput<
  P extends AssocKeyParts,
  V extends RecordTemplate,
  Ms extends MethodsInput<AssociationMethodName>,
  F extends FinderInterfaces,
  B extends BatchFinderInterfaces,
  A extends ActionInterfaces,
  E extends ActionInterfaces,
  AK extends AlternativeKeyTypes,
> extends InterfaceInputBase<V> {
  /** Key part name → part type, e.g. `{ albumId: LONG, photoId: LONG }`. */
  readonly assocKeys: P;
  readonly methods?: Ms;
  readonly finders?: F;
  readonly batchFinders?: B;
  readonly actions?: A;
  readonly entityActions?: E;
  readonly alternativeKeys?: AK;
}

/** The input of {@link simpleInterface}. */
export interface SimpleInterfaceInput<
  V extends RecordTemplate,
  Ms extends MethodsInput<SimpleMethodName>,
  A extends ActionInterfaces,
> extends InterfaceInputBase<V> {
  readonly methods?: Ms;
  /** The entity's actions (`POST /settings?action=<name>`). */
  readonly actions?: A;
}

function methodsObject(
  methods: unknown,
  groups: { readonly [name: string]: object | undefined },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (Array.isArray(methods)) for (const m of methods as unknown[]) out[String(m)] = Object.freeze({});
  else if (typeof methods === 'object' && methods !== null) {
    for (const [m, spec] of Object.entries(methods)) if (spec !== undefined) out[m] = spec;
  }
  for (const [group, value] of Object.entries(groups)) if (value !== undefined) out[group] = value;
  return Object.freeze(out);
}

function altKeySpecs(alternativeKeys: AlternativeKeyTypes | undefined): object | undefined {
  if (alternativeKeys === undefined) return undefined;
  return Object.freeze(
    Object.fromEntries(Object.entries(alternativeKeys).map(([n, key]) => [n, Object.freeze({ key })])),
  );
}

function base<V extends RecordTemplate>(input: InterfaceInputBase<V>) {
  return {
    [INTERFACE]: true as const,
    name: input.name,
    namespace: input.namespace,
    doc: input.doc,
    value: input.value,
    subresources: Object.freeze([...(input.subresources ?? [])]),
    ...(input.deprecated === undefined || input.deprecated === false ? {} : { deprecated: input.deprecated }),
    ...fieldAnnotationsOf(input),
  };
}

/**
 * Declares a collection's interface. Nothing is checked here; the implementation is checked when it is
 * registered, and the client checks what it reads.
 */
export function collectionInterface<
  K,
  V extends RecordTemplate,
  const Ms extends MethodsInput<CollectionMethodName> = readonly [],
  const F extends FinderInterfaces = Empty,
  const B extends BatchFinderInterfaces = Empty,
  const A extends ActionInterfaces = Empty,
  const E extends ActionInterfaces = Empty,
  const AK extends AlternativeKeyTypes = Empty,
>(
  input: CollectionInterfaceInput<K, V, Ms, F, B, A, E, AK>,
): CollectionInterface<K, V, InterfaceMethods<Ms, F, B, A, E>, AK> {
  const alternativeKeys = altKeySpecs(input.alternativeKeys);
  return Object.freeze({
    ...base(input),
    kind: 'collection' as const,
    key: input.key,
    keyName: input.keyName ?? `${input.name}Id`,
    methods: methodsObject(input.methods, {
      finders: input.finders,
      batchFinders: input.batchFinders,
      actions: input.actions,
      entityActions: input.entityActions,
    }) as InterfaceMethods<Ms, F, B, A, E>,
    ...(alternativeKeys === undefined ? {} : { alternativeKeys: alternativeKeys as AlternativeKeySpecs<AK> }),
  });
}

/** Declares an association's interface (keys `{ albumId, photoId }` from `assocKeys`). */
export function associationInterface<
  const P extends AssocKeyParts,
  V extends RecordTemplate,
  const Ms extends MethodsInput<AssociationMethodName> = readonly [],
  const F extends FinderInterfaces = Empty,
  const B extends BatchFinderInterfaces = Empty,
  const A extends ActionInterfaces = Empty,
  const E extends ActionInterfaces = Empty,
  const AK extends AlternativeKeyTypes = Empty,
>(
  input: AssociationInterfaceInput<P, V, Ms, F, B, A, E, AK>,
): AssociationInterface<P, V, InterfaceMethods<Ms, F, B, A, E>, AK> {
  const alternativeKeys = altKeySpecs(input.alternativeKeys);
  return Object.freeze({
    ...base(input),
    kind: 'association' as const,
    assocKeys: input.assocKeys,
    key: compoundKey(input.assocKeys),
    keyName: Object.keys(input.assocKeys).join(','),
    methods: methodsObject(input.methods, {
      finders: input.finders,
      batchFinders: input.batchFinders,
      actions: input.actions,
      entityActions: input.entityActions,
    }) as InterfaceMethods<Ms, F, B, A, E>,
    ...(alternativeKeys === undefined ? {} : { alternativeKeys: alternativeKeys as AlternativeKeySpecs<AK> }),
  });
}

/** Declares a simple resource's interface (one entity at its path). */
export function simpleInterface<
  V extends RecordTemplate,
  const Ms extends MethodsInput<SimpleMethodName> = readonly [],
  const A extends ActionInterfaces = Empty,
>(input: SimpleInterfaceInput<V, Ms, A>): SimpleInterface<V, InterfaceMethods<Ms, Empty, Empty, A, Empty>> {
  return Object.freeze({
    ...base(input),
    kind: 'simple' as const,
    methods: methodsObject(input.methods, { actions: input.actions }) as InterfaceMethods<
      Ms,
      Empty,
      Empty,
      A,
      Empty
    >,
  });
}

/**
 * An actions set's interface: a resource that has only actions (`POST /<name>?action=<action>`), as Rest.li's
 * `actionsSet` (its `@RestLiActions` classes). Clients call it like a simple resource's actions:
 * `api.tools.actions.ping({})`. The server side has no resource kind of its own for it: a `simple({...})`
 * definition with only actions answers the same requests.
 */
export interface ActionsSetInterface<M> {
  readonly [INTERFACE]: true;
  readonly kind: 'actionsSet';
  readonly name: string;
  readonly namespace: string | undefined;
  readonly doc: string | undefined;
  readonly methods: M;
  readonly subresources: readonly [];
}

/** The input of {@link actionsSetInterface}. */
export interface ActionsSetInterfaceInput<A extends ActionInterfaces> {
  /** The path segment: `/tools`. */
  readonly name: string;
  readonly namespace?: string;
  readonly doc?: string;
  readonly actions: A;
}

/** Declares an actions set's interface (a resource with only actions). */
export function actionsSetInterface<const A extends ActionInterfaces>(
  input: ActionsSetInterfaceInput<A>,
): ActionsSetInterface<{ readonly actions: A }> {
  return Object.freeze({
    [INTERFACE]: true as const,
    kind: 'actionsSet' as const,
    name: input.name,
    namespace: input.namespace,
    doc: input.doc,
    methods: Object.freeze({ actions: input.actions }),
    subresources: Object.freeze<[]>([]),
  });
}

/** True for a resource interface (made by `collectionInterface`, `associationInterface`, `simpleInterface`). */
export function isResourceInterface(v: unknown): v is ResourceInterface {
  return typeof v === 'object' && v !== null && (v as { [INTERFACE]?: unknown })[INTERFACE] === true;
}

// ---------------------------------------------------------------------------------------------------------
// Implementations

type SpecParams<S> = S extends { readonly params: infer P extends ParamSpecs } ? P : Empty;
type SpecMetadata<S> = S extends { readonly metadata: RecordClass<infer M> | undefined } ? M : RecordTemplate;
type SpecReturn<S> = S extends { readonly returns: ValueType<infer R> | undefined } ? R : void;

/** A finder's handler, typed by its spec. */
export type FinderHandler<S, V> = (
  params: ParamsOf<SpecParams<S>>,
  ctx: ResourceContext,
) => CollectionAnswer<V, SpecMetadata<S>>;

/** A batch finder's whole-batch handler, typed by its spec. */
export type WholeBatchFinderHandler<S, V> = (
  criteria: readonly CriteriaOf<SpecParams<S>>[],
  params: OtherParamsOf<SpecParams<S>>,
  ctx: ResourceContext,
) => BatchFinderReturn<CriteriaOf<SpecParams<S>>, V, SpecMetadata<S>>;

/**
 * A batch finder implemented one criterion at a time (as `batchFinder.perCriterion`): the criteria run as
 * parallel streams, at most `concurrency` at once (default 256).
 */
export interface PerCriterionImplementation<S, V> {
  perCriterion(
    criterion: CriteriaOf<SpecParams<S>>,
    params: OtherParamsOf<SpecParams<S>>,
    ctx: ResourceContext,
  ):
    | CollectionAnswer<V, SpecMetadata<S>>
    | null
    | undefined
    | PromiseLike<CollectionReturn<V, SpecMetadata<S>> | null | undefined>;
  readonly concurrency?: number;
}

/** An action's handler, typed by its spec. */
export type ActionHandler<S> = (
  params: ParamsOf<SpecParams<S>>,
  ctx: ResourceContext,
) => MaybeAsync<SpecReturn<S>>;

/** An entity action's handler: the key first. */
export type EntityActionHandler<K, S> = (
  key: K,
  params: ParamsOf<SpecParams<S>>,
  ctx: ResourceContext,
) => MaybeAsync<SpecReturn<S>>;

/** How an implementation converts one alternative key (the key type is the interface's). */
export interface AlternativeKeyConversion<K, A> {
  /** The resource's key for an alternative key (throw `ServiceError` for a chosen status). */
  toKey(alt: A): K;
  /** The alternative key of a resource key. */
  fromKey(key: K): A;
}

type KeyOfType<T> = T extends KeyType<infer A> ? A : never;

type GroupImpl<M, G extends string, H> = M extends { readonly [P in G]: unknown }
  ? { readonly [P in G]: H }
  : unknown;

type PlainHandlers<M, All> = { readonly [N in keyof M & keyof All & CollectionMethodName]-?: All[N] };

/** The handlers a keyed resource's implementation gives, by its interface's methods. */
type KeyedHandlers<K, V extends RecordTemplate, M, All, AK> = PlainHandlers<Omit<M, 'getAll'>, All> &
  (M extends { readonly getAll: infer G }
    ? { readonly getAll: G extends { readonly kind: 'finder' } ? FinderHandler<G, V> : GetAllHandler<V> }
    : unknown) &
  (M extends { readonly finders: infer F }
    ? { readonly finders: { readonly [N in keyof F]: FinderHandler<F[N], V> } }
    : unknown) &
  (M extends { readonly batchFinders: infer B }
    ? {
        readonly batchFinders: {
          readonly [N in keyof B]: WholeBatchFinderHandler<B[N], V> | PerCriterionImplementation<B[N], V>;
        };
      }
    : unknown) &
  GroupImpl<M, 'actions', { readonly [N in keyof ActionsOf<M>]: ActionHandler<ActionsOf<M>[N]> }> &
  GroupImpl<
    M,
    'entityActions',
    { readonly [N in keyof EntityActionsOf<M>]: EntityActionHandler<K, EntityActionsOf<M>[N]> }
  > &
  ([keyof AK] extends [never]
    ? unknown
    : {
        /** How each alternative key the interface declares converts to and from the resource's key. */
        readonly alternativeKeys: {
          readonly [N in keyof AK]: AlternativeKeyConversion<K, KeyOfType<AK[N]>>;
        };
      });

type ActionsOf<M> = M extends { readonly actions: infer A } ? A : Empty;
type EntityActionsOf<M> = M extends { readonly entityActions: infer A } ? A : Empty;

/** What the implementation of a subresource-bearing interface adds: the children's implementations. */
interface SubresourceImplementations {
  /** The implementations of the interface's `subresources` (each checked against its interface). */
  readonly subresources?: readonly ResourceDefinition[];
}

/** The handlers `implement(iface, handlers)` takes for an interface: one per declared method, no other. */
export type ImplementationOf<I> =
  I extends CollectionInterface<infer K, infer V, infer M, infer AK>
    ? Simplify<KeyedHandlers<K, V, M, Required<CollectionMethods<K, V>>, AK> & SubresourceImplementations>
    : I extends AssociationInterface<infer P, infer V, infer M, infer AK>
      ? Simplify<
          KeyedHandlers<AssocKeyOf<P>, V, M, Required<AssociationMethods<AssocKeyOf<P>, V>>, AK> &
            SubresourceImplementations
        >
      : I extends SimpleInterface<infer V, infer M>
        ? Simplify<
            PlainHandlers<M, Required<SimpleMethods<V>>> &
              GroupImpl<
                M,
                'actions',
                { readonly [N in keyof ActionsOf<M>]: ActionHandler<ActionsOf<M>[N]> }
              > &
              SubresourceImplementations
          >
        : never;

/** Server-side settings of an implementation (what `collection({...})` takes beside the interface). */
export interface ImplementOptions {
  /** Filters for this resource only (invocation and response stages), after the server's. */
  readonly filters?: readonly RequestFilter[];
  /** Whether the validation filter runs for this resource. Default: the server's `validation` option. */
  readonly validation?: boolean;
  /** Milliseconds before a request to this resource is answered 504. Default: the server's `timeout`. */
  readonly timeout?: number;
}

type FinderDefs<F, V> = { readonly [N in keyof F]: FinderDef<SpecParams<F[N]>, V, SpecMetadata<F[N]>> };

/** A definition's methods as `collection({...})` would type them, from an interface's. */
type ImplementedMethods<K, V extends RecordTemplate, M, All> = {
  readonly [N in keyof M]: N extends 'finders'
    ? FinderDefs<M[N], V>
    : N extends 'batchFinders'
      ? { readonly [B in keyof M[N]]: BatchFinderDef<SpecParams<M[N][B]>, V, SpecMetadata<M[N][B]>> }
      : N extends 'actions'
        ? { readonly [A in keyof M[N]]: ActionDef<SpecParams<M[N][A]>, SpecReturn<M[N][A]>> }
        : N extends 'entityActions'
          ? { readonly [A in keyof M[N]]: EntityActionDef<K, SpecParams<M[N][A]>, SpecReturn<M[N][A]>> }
          : N extends 'getAll'
            ? M[N] extends { readonly kind: 'finder' }
              ? FinderDef<SpecParams<M[N]>, V, SpecMetadata<M[N]>>
              : GetAllHandler<V>
            : N extends keyof All
              ? All[N]
              : never;
};

/**
 * The definition `implement` gives: what the server registers (a {@link ResourceDefinition}), typed as
 * `collection({...})` would type it, so that `createResourceClient` over it is the interface's client.
 */
export type Implementation<I> =
  I extends CollectionInterface<infer K, infer V extends RecordTemplate, infer M, infer AK>
    ? ImplementedResource<
        I,
        'collection',
        V,
        ImplementedMethods<K, V, M, Required<CollectionMethods<K, V>>>
      > & {
        readonly key: KeyType<K>;
        readonly keyName: string;
        readonly alternativeKeys?: { readonly [N in keyof AK]: AlternativeKey<K, KeyOfType<AK[N]>> };
      }
    : I extends AssociationInterface<infer P, infer V extends RecordTemplate, infer M, infer AK>
      ? ImplementedResource<
          I,
          'association',
          V,
          ImplementedMethods<AssocKeyOf<P>, V, M, Required<AssociationMethods<AssocKeyOf<P>, V>>>
        > & {
          readonly assocKeys: P;
          readonly key: KeyType<AssocKeyOf<P>>;
          readonly keyName: string;
          readonly alternativeKeys?: {
            readonly [N in keyof AK]: AlternativeKey<AssocKeyOf<P>, KeyOfType<AK[N]>>;
          };
        }
      : I extends SimpleInterface<infer V extends RecordTemplate, infer M>
        ? ImplementedResource<I, 'simple', V, ImplementedMethods<never, V, M, Required<SimpleMethods<V>>>>
        : never;

/** What `implement(interface, handlers)` gives: a resource definition typed as the inline form would be, which remembers its interface. */
export interface ImplementedResource<I, Kind extends string, V extends RecordTemplate, M> {
  readonly kind: Kind;
  readonly name: string;
  readonly namespace?: string;
  readonly doc?: string;
  readonly value: RecordClass<V>;
  readonly methods: M;
  readonly subresources?: readonly ResourceDefinition[];
  readonly filters?: readonly RequestFilter[];
  readonly validation?: boolean;
  readonly timeout?: number;
  /** The interface this implements (see {@link interfaceOf}). */
  readonly [IMPLEMENTS]: ImplementationRecord<I>;
}

/** The link from an implementation to the interface it implements, and the handlers it was given. */
export interface ImplementationRecord<I> {
  readonly interface: I;
  /** The handlers as given, for registration to compare with the interface (untyped callers). */
  readonly handlers: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Implements an interface: the handlers (one per method the interface declares, typed by it as inline
 * definitions are typed) and server settings give the {@link ResourceDefinition} the server registers. A
 * handler missing, or one for a method the interface lacks, is a type error, and for untyped callers a
 * {@link ResourceDefinitionError} when the resource is registered.
 *
 * @example
 * ```ts
 * const photos = implement(photosApi, {
 *   get: (id) => store.get(id),
 *   finders: { byTag: ({ tag }) => store.tagged(tag) },
 *   batchFinders: { search: { perCriterion: (criterion) => store.search(criterion), concurrency: 16 } },
 * }, { timeout: 5_000 });
 * ```
 */
export function implement<const I extends ResourceInterface>(
  iface: I,
  handlers: ImplementationOf<I>,
  options: ImplementOptions = {},
): Implementation<I> {
  if (!isResourceInterface(iface) || (iface as { kind: string }).kind === 'actionsSet')
    throw new TypeError(
      'implement() takes a resource interface (collectionInterface(...), associationInterface(...), simpleInterface(...)); an actions set is served by a simple({...}) definition with only actions',
    );
  const given: Record<string, unknown> = isObject(handlers) ? handlers : {};
  const spec = iface.methods as Record<string, unknown>;
  const methods: Record<string, unknown> = {};
  for (const [name, h] of Object.entries(given)) {
    if (name === 'alternativeKeys' || name === 'subresources' || h === undefined) continue;
    const declared = spec[name];
    if (name === 'finders' || name === 'batchFinders' || name === 'actions' || name === 'entityActions') {
      methods[name] = implementGroup(
        name,
        isObject(declared) ? declared : {},
        h,
        iface.kind === 'simple' ? undefined : iface.key,
      );
    } else if (name === 'getAll' && isObject(declared) && declared['kind'] === 'finder') {
      methods[name] = finder(
        declared as unknown as FinderInterface,
        h as FinderHandler<unknown, RecordTemplate>,
      );
    } else {
      // a batch method's own limit travels on its handler (withMaxBatchSize), as in an inline definition
      const max = isObject(declared) ? declared['maxBatchSize'] : undefined;
      methods[name] =
        max !== undefined && typeof h === 'function' ? withMaxBatchSize(max as number, h as AnyHandler) : h;
    }
  }
  const record: ImplementationRecord<I> = Object.freeze({ interface: iface, handlers });
  const common = {
    name: iface.name,
    ...(iface.namespace === undefined ? {} : { namespace: iface.namespace }),
    ...(iface.doc === undefined ? {} : { doc: iface.doc }),
    ...fieldAnnotationsOf(iface),
    value: iface.value,
    methods: Object.freeze(methods),
    ...(given['subresources'] === undefined
      ? {}
      : { subresources: given['subresources'] as readonly ResourceDefinition[] }),
    ...options,
  };
  let def: object;
  if (iface.kind === 'simple') def = simple(common as Parameters<typeof simple>[0]);
  else {
    const alternativeKeys = implementAltKeys(
      iface.alternativeKeys as AltKeySpecsAny | undefined,
      given['alternativeKeys'],
    );
    const keyed = { ...common, ...(alternativeKeys === undefined ? {} : { alternativeKeys }) };
    def =
      iface.kind === 'collection'
        ? collection({ ...keyed, key: iface.key, keyName: iface.keyName })
        : association({ ...keyed, assocKeys: iface.assocKeys } as Parameters<typeof association>[0]);
  }
  // non-enumerable: a definition spread into another (`{ ...photos, timeout }`) is a plain definition
  return Object.freeze(Object.defineProperty({ ...def }, IMPLEMENTS, { value: record })) as Implementation<I>;
}

type AnyHandler = (...args: never[]) => unknown;

function implementGroup(
  group: 'finders' | 'batchFinders' | 'actions' | 'entityActions',
  declared: Record<string, unknown>,
  handlers: unknown,
  key: KeyType<unknown> | undefined,
): object {
  const out: Record<string, unknown> = {};
  if (!isObject(handlers)) return handlers as object; // registration names the problem
  for (const [name, h] of Object.entries(handlers)) {
    const spec = declared[name];
    // a handler the interface does not declare: registration reports it (checkImplementation)
    if (!isObject(spec)) continue;
    if (group === 'finders')
      out[name] = finder(spec as unknown as FinderInterface, h as FinderHandler<unknown, RecordTemplate>);
    else if (group === 'batchFinders') {
      const s = spec as unknown as BatchFinderInterface;
      const bspec = {
        batchParam: s.batchParam,
        params: s.params,
        paging: s.paging,
        ...(s.metadata === undefined ? {} : { metadata: s.metadata }),
        ...(s.maxBatchSize === undefined ? {} : { maxBatchSize: s.maxBatchSize }),
        ...(s.doc === undefined ? {} : { doc: s.doc }),
      };
      if (isObject(h) && typeof h['perCriterion'] === 'function') {
        const concurrency = h['concurrency'];
        out[name] = batchFinder.perCriterion(
          { ...bspec, ...(concurrency === undefined ? {} : { concurrency: concurrency as number }) },
          (h['perCriterion'] as AnyHandler).bind(h) as never,
        );
      } else out[name] = batchFinder(bspec, h as never);
    } else {
      const s = spec as unknown as ActionInterface;
      const aspec = {
        params: s.params,
        ...(s.returns === undefined ? {} : { returns: s.returns }),
        ...(s.doc === undefined ? {} : { doc: s.doc }),
      };
      out[name] =
        group === 'actions'
          ? action(aspec, h as never)
          : entityAction({ ...aspec, ...(key === undefined ? {} : { key }) }, h as never);
    }
  }
  return Object.freeze(out);
}

type AltKeySpecsAny = { readonly [name: string]: { readonly key: KeyType<unknown> } };

function implementAltKeys(
  declared: AltKeySpecsAny | undefined,
  given: unknown,
): AlternativeKeys<unknown> | undefined {
  if (declared === undefined) return undefined;
  const out: Record<string, AlternativeKey<unknown, unknown>> = {};
  for (const [name, { key }] of Object.entries(declared)) {
    const conv = isObject(given) ? given[name] : undefined;
    // a missing conversion is reported by registration, which names the key
    if (!isObject(conv) || typeof conv['toKey'] !== 'function' || typeof conv['fromKey'] !== 'function')
      continue;
    const c = conv as unknown as AlternativeKeyConversion<unknown, unknown>;
    out[name] = alternativeKey({ key, toKey: (a) => c.toKey(a), fromKey: (k) => c.fromKey(k) });
  }
  return Object.freeze(out);
}

// ---------------------------------------------------------------------------------------------------------
// Registration check and interfaceOf

const GROUP_LABEL = {
  finders: 'finder',
  batchFinders: 'batch finder',
  actions: 'action',
  entityActions: 'entity action',
} as const;

/**
 * For registration: refuses an interface given in place of a definition, and checks an implementation
 * against its interface: every declared method, finder, batch finder, action, alternative key and
 * subresource implemented, nothing else.
 * @throws ResourceDefinitionError naming the resource and the method
 */
export function checkImplementation(def: unknown, at: DefinitionLocation): void {
  if (isResourceInterface(def)) {
    throw new ResourceDefinitionError(
      at,
      'an interface has no handlers: register its implementation (implement(iface, handlers))',
    );
  }
  if (!isObject(def)) return;
  const record = (def as { [IMPLEMENTS]?: ImplementationRecord<ResourceInterface> })[IMPLEMENTS];
  if (record === undefined) return;
  const iface = record.interface;
  const handlers: Record<string, unknown> = isObject(record.handlers) ? record.handlers : {};
  const declared = iface.methods as Record<string, unknown>;
  const missing = (method: string) =>
    new ResourceDefinitionError(
      { ...at, method },
      `the interface declares it, but the implementation has no handler for it`,
    );
  const extra = (method: string) =>
    new ResourceDefinitionError(
      { ...at, method },
      `not in the interface of '${iface.name}': declare it there first`,
    );
  for (const name of Object.keys(declared)) {
    if (name in GROUP_LABEL) continue;
    if (typeof handlers[name] !== 'function') {
      if (handlers[name] === undefined) throw missing(name);
      throw new ResourceDefinitionError({ ...at, method: name }, 'a method handler must be a function');
    }
  }
  for (const [name, h] of Object.entries(handlers)) {
    if (h === undefined || name === 'alternativeKeys' || name === 'subresources') continue;
    if (name in GROUP_LABEL) continue;
    if (declared[name] === undefined) throw extra(name);
  }
  for (const [group, label] of Object.entries(GROUP_LABEL)) {
    const specs = isObject(declared[group]) ? declared[group] : {};
    const given = handlers[group];
    if (given !== undefined && !isObject(given))
      throw new ResourceDefinitionError(
        { ...at, method: group },
        `'${group}' must be an object of name to handler`,
      );
    const impls = given ?? {};
    for (const name of Object.keys(specs)) {
      const h = impls[name];
      const perCriterion = group === 'batchFinders' && isObject(h) && typeof h['perCriterion'] === 'function';
      if (h === undefined) throw missing(`${label} '${name}'`);
      if (typeof h !== 'function' && !perCriterion)
        throw new ResourceDefinitionError(
          { ...at, method: `${label} '${name}'` },
          group === 'batchFinders'
            ? 'must be a handler function or { perCriterion: handler, concurrency? }'
            : 'a handler must be a function',
        );
    }
    for (const name of Object.keys(impls)) if (specs[name] === undefined) throw extra(`${label} '${name}'`);
  }
  if (iface.kind !== 'simple' && iface.alternativeKeys !== undefined) {
    const conv = handlers['alternativeKeys'];
    for (const name of Object.keys(iface.alternativeKeys)) {
      const c = isObject(conv) ? conv[name] : undefined;
      if (!isObject(c) || typeof c['toKey'] !== 'function' || typeof c['fromKey'] !== 'function')
        throw new ResourceDefinitionError(
          { ...at, parameter: name },
          `the interface declares alternative key '${name}': give its { toKey, fromKey } in 'alternativeKeys'`,
        );
    }
    if (isObject(conv))
      for (const name of Object.keys(conv))
        if (!(name in iface.alternativeKeys))
          throw new ResourceDefinitionError(
            { ...at, parameter: name },
            `alternative key '${name}' is not in the interface of '${iface.name}'`,
          );
  } else if (handlers['alternativeKeys'] !== undefined) {
    throw new ResourceDefinitionError(
      { ...at, parameter: 'alternativeKeys' },
      `the interface of '${iface.name}' declares no alternative keys`,
    );
  }
  const subs = handlers['subresources'];
  const impls: readonly unknown[] = Array.isArray(subs) ? subs : [];
  for (const child of iface.subresources) {
    const found = impls.find((d) => implementsChild(d, child));
    if (found === undefined)
      throw new ResourceDefinitionError(
        at,
        `the interface declares subresource '${child.name}', but the implementation has none: give its implementation in 'subresources'`,
      );
  }
  for (const d of impls) {
    if (!iface.subresources.some((child) => implementsChild(d, child))) {
      const name = isObject(d) && typeof d['name'] === 'string' ? d['name'] : '?';
      throw new ResourceDefinitionError(
        at,
        `subresource '${name}' is not in the interface of '${iface.name}'`,
      );
    }
  }
}

/** Whether `def` serves `child`: its implementation, or (for a plain definition) of its name and kind. */
function implementsChild(def: unknown, child: ResourceInterface): boolean {
  if (!isObject(def)) return false;
  const record = (def as { [IMPLEMENTS]?: ImplementationRecord<ResourceInterface> })[IMPLEMENTS];
  if (record !== undefined) return record.interface === child;
  return def['name'] === child.name && def['kind'] === child.kind;
}

/**
 * The interface of a resource: an interface as it is, an implementation's interface, or one derived from a
 * `collection({...})` / `association({...})` / `simple({...})` definition (its handlers left out, its
 * subresources' interfaces derived too). What the interface description (IDL) and clients are made from.
 */
export function interfaceOf(def: ResourceDefinition | ResourceInterface): ResourceInterface {
  if (isResourceInterface(def)) return def;
  const record = (def as { [IMPLEMENTS]?: ImplementationRecord<ResourceInterface> })[IMPLEMENTS];
  if (record !== undefined) return record.interface;
  const methods: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(def.methods as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (name in GROUP_LABEL) {
      if (!isObject(value)) continue;
      const specs: Record<string, unknown> = {};
      for (const [n, d] of Object.entries(value)) if (isObject(d)) specs[n] = specOf(d);
      methods[name] = Object.freeze(specs);
    } else if (isObject(value)) methods[name] = specOf(value);
    else {
      const max = maxBatchSizeOf(value);
      methods[name] = Object.freeze(max === undefined ? {} : { maxBatchSize: max });
    }
  }
  const subresources = Object.freeze((def.subresources ?? []).map((d) => interfaceOf(d)));
  const common = {
    [INTERFACE]: true as const,
    name: def.name,
    namespace: def.namespace,
    doc: def.doc,
    value: def.value,
    subresources,
    methods: Object.freeze(methods),
    ...fieldAnnotationsOf(def),
  };
  if (def.kind === 'simple') return Object.freeze({ ...common, kind: 'simple' as const });
  const alts =
    def.alternativeKeys === undefined
      ? undefined
      : Object.freeze(
          Object.fromEntries(
            Object.entries(def.alternativeKeys).map(([n, a]) => [n, Object.freeze({ key: a.key })]),
          ),
        );
  const keyed = {
    ...common,
    key: def.key,
    keyName: def.keyName,
    ...(alts === undefined ? {} : { alternativeKeys: alts }),
  };
  if (def.kind === 'collection') return Object.freeze({ ...keyed, kind: 'collection' as const });
  return Object.freeze({
    ...keyed,
    kind: 'association' as const,
    assocKeys: def.assocKeys,
  }) as ResourceInterface;
}

/** A finder's, batch finder's or action's spec without its handler. */
function specOf(d: Record<string, unknown>): object {
  const doc = typeof d['doc'] === 'string' ? { doc: d['doc'] } : {};
  switch (d['kind']) {
    case 'finder':
      return Object.freeze({
        kind: 'finder',
        params: d['params'],
        paging: d['paging'],
        metadata: d['metadata'],
        ...doc,
      });
    case 'batchFinder':
      return Object.freeze({
        kind: 'batchFinder',
        batchParam: d['batchParam'],
        params: d['params'],
        paging: d['paging'],
        metadata: d['metadata'],
        maxBatchSize: d['maxBatchSize'],
        ...doc,
      });
    default:
      return Object.freeze({ kind: 'action', params: d['params'], returns: d['returns'], ...doc });
  }
}
