import type { ResourceKey } from '../protocol';
import {
  type ActionSpecLike,
  type CallTarget,
  type EntityLike,
  type MethodPlan,
  actionCall,
  batchCreateCall,
  batchDeleteCall,
  batchFinderCall,
  batchGetCall,
  batchPartialUpdateCall,
  batchUpdateCall,
  callTarget,
  checkContract,
  collectionCall,
  createCall,
  deleteCall,
  getCall,
  isFinder,
  methodPlan,
  partialUpdateCall,
  updateCall,
} from './calls';
import type { CoreClient } from './core-client';
import { RequestBuildError } from './errors';
import type {
  BatchFinderContract,
  CallOptions,
  CollectionOptions,
  FinderContract,
  GetOptions,
  PatchInput,
  ResourceClientOf,
  ResourceContract,
  ReturnEntityOptions,
} from './resource-client-types';
import type { Entity } from './request-description';

/**
 * The per-method calls, imported one by one (the modular form of the typed client, as in modular SDKs):
 * `get(client, photosInterface, 1)` sends what `api.photos.get(1)` sends, typed from the same interface,
 * and a bundler keeps only the methods a page imports. The facade (`createResourceClient`) binds the same
 * calls (`calls.ts`). `client` is a {@link CoreClient} (`createCoreClient(options)`, or a facade's
 * `$client`). They address top-level resources; a child resource or an alternative key is reached through
 * the facade (`api.albums.sub(1, entries)`, `api.photos.alt('urn')`).
 *
 * @example
 * ```ts
 * const client = createCoreClient({ baseUrl: 'https://api.example.com' });
 * const { entity } = await get(client, photosInterface, 1); // entity: Photo
 * const page = await find(client, photosInterface, 'byTag', { tag: 'sea' }, { count: 5 });
 * ```
 */

/** The facade's call `N` of resource `D` (without the rx forms): what the per-method function mirrors. */
type FacadeCall<D, N extends string> =
  ResourceClientOf<D, false> extends { readonly [P in N]: infer F } ? F : never;

/** The calls of the facade's group `G` (`finders`, `actions`...) of resource `D`. */
type FacadeGroup<D, G extends string> =
  ResourceClientOf<D, false> extends { readonly [P in G]: infer F } ? F : never;

type ArgsOf<F> = F extends (...args: infer A) => unknown ? A : never;
type ResultOf<F> = F extends (...args: never[]) => infer R ? R : never;
/** What a per-method function resolves to: the facade call's answer (a bad argument rejects, as there). */
type Answer<F> = Promise<Awaited<ResultOf<F>>>;

/** The target of a top-level resource, checked by shape, and that it has the method `method`. */
function target(resource: unknown, method: string): CallTarget {
  checkContract(resource, method);
  const methods = resource.methods as { readonly [name: string]: unknown };
  if (methods[method] === undefined)
    throw new RequestBuildError(`'${resource.name}' has no ${method} method`);
  return callTarget(resource, resource.name, NO_PATH_KEYS);
}

const NO_PATH_KEYS: { readonly [name: string]: ResourceKey } = Object.freeze({});

/** Splits `(key?, ...rest)` by whether the resource is keyed: a simple resource's calls take no key. */
function keyAnd(t: CallTarget, args: readonly unknown[]): [unknown, unknown[]] {
  return t.keys === undefined ? [undefined, [...args]] : [args[0], args.slice(1)];
}

/**
 * `get(client, photosInterface, 1, options?)`, `get(client, settingsInterface, options?)` for a simple
 * resource: as `api.photos.get(1)`.
 */
export async function get<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'get'>>
): Answer<FacadeCall<D, 'get'>> {
  const t = target(resource, 'get');
  const [key, [o]] = keyAnd(t, args);
  return getCall(client, t, key, o as GetOptions | undefined) as Answer<FacadeCall<D, 'get'>>;
}

/** `batchGet(client, photosInterface, [1, 2, 3], options?)`: as `api.photos.batchGet([1, 2, 3])`. */
export async function batchGet<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'batchGet'>>
): Answer<FacadeCall<D, 'batchGet'>> {
  const [keys, o] = args as unknown as [Iterable<unknown>, GetOptions | undefined];
  return batchGetCall(client, target(resource, 'batchGet'), keys, o) as Answer<FacadeCall<D, 'batchGet'>>;
}

/** `create(client, photosInterface, photo, options?)`: as `api.photos.create(photo)`. */
export async function create<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'create'>>
): Answer<FacadeCall<D, 'create'>> {
  const [entity, o] = args as unknown as [EntityLike, ReturnEntityOptions | undefined];
  return createCall(client, target(resource, 'create'), entity, o) as Answer<FacadeCall<D, 'create'>>;
}

/** `batchCreate(client, photosInterface, [p1, p2], options?)`: as `api.photos.batchCreate([p1, p2])`. */
export async function batchCreate<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'batchCreate'>>
): Answer<FacadeCall<D, 'batchCreate'>> {
  const [entities, o] = args as unknown as [Iterable<EntityLike>, ReturnEntityOptions | undefined];
  return batchCreateCall(client, target(resource, 'batchCreate'), entities, o) as Answer<
    FacadeCall<D, 'batchCreate'>
  >;
}

/** `update(client, photosInterface, 1, photo, options?)`: as `api.photos.update(1, photo)`. */
export async function update<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'update'>>
): Answer<FacadeCall<D, 'update'>> {
  const t = target(resource, 'update');
  const [key, [entity, o]] = keyAnd(t, args);
  return updateCall(client, t, key, entity as EntityLike, o as CallOptions | undefined) as Answer<
    FacadeCall<D, 'update'>
  >;
}

/** `batchUpdate(client, photosInterface, [[1, p1]], options?)`: as `api.photos.batchUpdate([[1, p1]])`. */
export async function batchUpdate<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'batchUpdate'>>
): Answer<FacadeCall<D, 'batchUpdate'>> {
  const [entities, o] = args as unknown as [
    Iterable<readonly [unknown, EntityLike]>,
    CallOptions | undefined,
  ];
  return batchUpdateCall(client, target(resource, 'batchUpdate'), entities, o) as Answer<
    FacadeCall<D, 'batchUpdate'>
  >;
}

/** `partialUpdate(client, photosInterface, 1, patch, options?)`: as `api.photos.partialUpdate(1, patch)`. */
export async function partialUpdate<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'partialUpdate'>>
): Answer<FacadeCall<D, 'partialUpdate'>> {
  const t = target(resource, 'partialUpdate');
  const [key, [patch, o]] = keyAnd(t, args);
  return partialUpdateCall(
    client,
    t,
    key,
    patch as PatchInput,
    o as ReturnEntityOptions | undefined,
  ) as Answer<FacadeCall<D, 'partialUpdate'>>;
}

/** `batchPartialUpdate(client, photosInterface, [[1, patch]], options?)`: as `api.photos.batchPartialUpdate`. */
export async function batchPartialUpdate<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'batchPartialUpdate'>>
): Answer<FacadeCall<D, 'batchPartialUpdate'>> {
  const [patches, o] = args as unknown as [
    Iterable<readonly [unknown, PatchInput]>,
    ReturnEntityOptions | undefined,
  ];
  return batchPartialUpdateCall(client, target(resource, 'batchPartialUpdate'), patches, o) as Answer<
    FacadeCall<D, 'batchPartialUpdate'>
  >;
}

/**
 * `remove(client, photosInterface, 1, options?)`: as `api.photos.delete(1)` (`delete` is a reserved word,
 * so it cannot name a function).
 */
export async function remove<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'delete'>>
): Answer<FacadeCall<D, 'delete'>> {
  const t = target(resource, 'delete');
  const [key, [o]] = keyAnd(t, args);
  return deleteCall(client, t, key, o as CallOptions | undefined) as Answer<FacadeCall<D, 'delete'>>;
}

/** `batchDelete(client, photosInterface, [1, 2], options?)`: as `api.photos.batchDelete([1, 2])`. */
export async function batchDelete<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'batchDelete'>>
): Answer<FacadeCall<D, 'batchDelete'>> {
  const [keys, o] = args as unknown as [Iterable<unknown>, CallOptions | undefined];
  return batchDeleteCall(client, target(resource, 'batchDelete'), keys, o) as Answer<
    FacadeCall<D, 'batchDelete'>
  >;
}

/**
 * `getAll(client, photosInterface, options?)` (or `(params, options?)` for a get_all declared with
 * parameters): as `api.photos.getAll()`.
 */
export async function getAll<const D extends ResourceContract>(
  client: CoreClient,
  resource: D,
  ...args: ArgsOf<FacadeCall<D, 'getAll'>>
): Answer<FacadeCall<D, 'getAll'>> {
  const t = target(resource, 'getAll');
  const spec = (resource.methods as { readonly getAll?: unknown }).getAll;
  const withParams = isFinder(spec);
  const plan = methodPlan('finder', undefined, withParams ? spec : undefined, t.at('getAll'));
  const [values, o] = (withParams ? args : [undefined, ...args]) as unknown as [
    Record<string, unknown> | undefined,
    CollectionOptions | undefined,
  ];
  return collectionCall(client, t, plan, values, o) as Answer<FacadeCall<D, 'getAll'>>;
}

/** The plan of the group member `name` (`finders.byTag`). @throws RequestBuildError when there is none */
function planOf(
  t: CallTarget,
  group: 'finders' | 'batchFinders' | 'actions' | 'entityActions',
  name: string,
): MethodPlan {
  const specs = (t.def.methods as { readonly [g: string]: { readonly [n: string]: unknown } | undefined })[
    group
  ];
  const spec = specs !== undefined && Object.hasOwn(specs, name) ? specs[name] : undefined;
  if (spec === undefined) throw new RequestBuildError(`'${t.def.name}' has no ${group}.${String(name)}`);
  const where = t.at(`${group}.${name}`);
  return group === 'finders'
    ? methodPlan('finder', name, spec as FinderContract, where)
    : group === 'batchFinders'
      ? methodPlan('batchFinder', name, spec as BatchFinderContract, where)
      : methodPlan('action', name, spec as ActionSpecLike, where);
}

/**
 * `find(client, photosInterface, 'byTag', { tag: 'sea' }, { count: 5 })`: as
 * `api.photos.finders.byTag({ tag: 'sea' }, { count: 5 })`.
 */
export async function find<
  const D extends ResourceContract,
  N extends keyof FacadeGroup<D, 'finders'> & string,
>(
  client: CoreClient,
  resource: D,
  name: N,
  ...args: ArgsOf<FacadeGroup<D, 'finders'>[N]>
): Answer<FacadeGroup<D, 'finders'>[N]> {
  const t = target(resource, 'finders');
  const [values, o] = args as unknown as [Record<string, unknown> | undefined, CollectionOptions | undefined];
  return collectionCall(client, t, planOf(t, 'finders', name), values, o) as Answer<
    FacadeGroup<D, 'finders'>[N]
  >;
}

/**
 * `batchFind(client, photosInterface, 'searchPhotos', [c1, c2], params?, options?)`: as
 * `api.photos.batchFinders.searchPhotos([c1, c2], params?, options?)`, `results[i]` answering `criteria[i]`.
 */
export async function batchFind<
  const D extends ResourceContract,
  N extends keyof FacadeGroup<D, 'batchFinders'> & string,
>(
  client: CoreClient,
  resource: D,
  name: N,
  ...args: ArgsOf<FacadeGroup<D, 'batchFinders'>[N]>
): Answer<FacadeGroup<D, 'batchFinders'>[N]> {
  const t = target(resource, 'batchFinders');
  const [criteria, values, o] = args as unknown as [
    Iterable<Entity>,
    Record<string, unknown> | undefined,
    CollectionOptions | undefined,
  ];
  return batchFinderCall(client, t, planOf(t, 'batchFinders', name), criteria, values, o) as Answer<
    FacadeGroup<D, 'batchFinders'>[N]
  >;
}

/**
 * `callAction(client, photosInterface, 'purge', params?, options?)`: as `api.photos.actions.purge(params)`
 * (`action` names the resource definitions' action declaration).
 */
export async function callAction<
  const D extends ResourceContract,
  N extends keyof FacadeGroup<D, 'actions'> & string,
>(
  client: CoreClient,
  resource: D,
  name: N,
  ...args: ArgsOf<FacadeGroup<D, 'actions'>[N]>
): Answer<FacadeGroup<D, 'actions'>[N]> {
  const t = target(resource, 'actions');
  const [values, o] = args as unknown as [Record<string, unknown> | undefined, CallOptions | undefined];
  return actionCall(client, t, planOf(t, 'actions', name), false, undefined, values, o) as Answer<
    FacadeGroup<D, 'actions'>[N]
  >;
}

/**
 * `callEntityAction(client, photosInterface, 'addTag', 1, params?, options?)`: as
 * `api.photos.entityActions.addTag(1, params)`.
 */
export async function callEntityAction<
  const D extends ResourceContract,
  N extends keyof FacadeGroup<D, 'entityActions'> & string,
>(
  client: CoreClient,
  resource: D,
  name: N,
  ...args: ArgsOf<FacadeGroup<D, 'entityActions'>[N]>
): Answer<FacadeGroup<D, 'entityActions'>[N]> {
  const t = target(resource, 'entityActions');
  const [key, values, o] = args as unknown as [
    unknown,
    Record<string, unknown> | undefined,
    CallOptions | undefined,
  ];
  return actionCall(client, t, planOf(t, 'entityActions', name), true, key, values, o) as Answer<
    FacadeGroup<D, 'entityActions'>[N]
  >;
}
