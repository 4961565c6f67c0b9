import type { ResourceKey } from '../protocol';
import type { KeyType } from '../resources/key-types';
import {
  type ActionSpecLike,
  type AltKeyBinding,
  type EntityLike,
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
import { RequestBuildError } from './errors';
import type { ClientOptions } from './options';
import type { Entity } from './request-description';
import type {
  BatchFinderContract,
  CallOptions,
  CollectionOptions,
  FinderContract,
  GetOptions,
  PatchInput,
  ResourceClientOf,
  ResourceClients,
  ResourceContract,
  ResourceContracts,
  ReturnEntityOptions,
} from './resource-client-types';
import { type RxForms, rxForms } from './rx';
import { SvcClient } from './svc-client';

/**
 * The typed resource client: request builders derived from resource interfaces (`collectionInterface(...)`,
 * all a client needs) or from the definitions the server registers (the same types either way), so that `client.photos.batchGet([1, 2, 3])` is typed end to end (keys in, `KeyMap<number | bigint,
 * Photo>` out) while the core client (`SvcClient`) does all the wire work. A definition's handlers are never
 * called or read: the client reads the name, key type, value class, which methods exist, finder and action
 * parameter specs, finder metadata classes and action return types.
 *
 * @example
 * ```ts
 * const api = createResourceClient({ baseUrl: 'http://127.0.0.1:8080' }, { photos, albumEntries });
 * const { results } = await api.photos.batchGet([1, 2, 3], { fields: 'title' });
 * results.get(1)?.getTitle();
 * const page = await api.photos.finders.byTag({ tag: 'sea' }, { count: 5 });
 * const { value } = await api.photos.entityActions.addTag(1, { tag: 'favourite' }); // number
 * await api.albumEntries.finders.byAlbum({ albumId: 1 }); // GET /albumEntries/(albumId:1)?q=byAlbum
 * const { results } = await api.photos.batchFinders.searchPhotos([c1, c2]); // results[i] for criteria[i]
 * api.photos.rx.get(1).pipe(entity()); // cold: sent on subscribe, aborted on unsubscribe
 * ```
 */
export type ResourceClient<R extends ResourceContracts, Rx = true> = ResourceClients<R, Rx> & {
  /** The core client underneath (options, `send` for hand-written descriptions). */
  readonly $client: SvcClient;
};

/**
 * A typed client over resource interfaces or definitions (`{ photos: photosInterface, ... }`, by the
 * properties it should have), on a new core client with `options` or on an existing one. This is the
 * package root's: every resource client has its Observable forms (`rx`). `svc-framework/client` exports
 * the same function with the `rx` forms opt-in (`web-resource-client.ts`).
 *
 * @throws ClientOptionsError for bad options; TypeError for a value that is not a resource definition
 */
export function createResourceClient<const R extends ResourceContracts>(
  client: SvcClient | ClientOptions,
  resources: R,
): ResourceClient<R> {
  return bindResources(client, resources, { rx: rxForms }) as ResourceClient<R>;
}

/** The typed client of one resource (a top-level one; see `sub` for children), with its `rx` forms. */
export function resourceClient<const D extends ResourceContract>(
  client: SvcClient | ClientOptions,
  definition: D,
): ResourceClientOf<D> {
  return bindOne(client, definition, { rx: rxForms }) as ResourceClientOf<D>;
}

/**
 * The faces a bound client has beside its promise calls: `rx`, when given, builds each resource client's
 * Observable forms (`rx.ts`); without it the client has no `rx` and the page carries no RxJS.
 */
export interface ClientForms {
  readonly rx?: RxForms | undefined;
}

/** {@link createResourceClient}'s work, with the given forms. */
export function bindResources(
  client: SvcClient | ClientOptions,
  resources: ResourceContracts,
  forms: ClientForms,
): object {
  const core = client instanceof SvcClient ? client : new SvcClient(client);
  const out: Record<string, unknown> = { $client: core };
  for (const [property, def] of Object.entries(resources)) {
    checkContract(def, property);
    out[property] = bindResource(core, def, def.name, {}, 0, forms.rx);
  }
  return Object.freeze(out);
}

/** {@link resourceClient}'s work, with the given forms. */
export function bindOne(
  client: SvcClient | ClientOptions,
  definition: ResourceContract,
  forms: ClientForms,
): object {
  const core = client instanceof SvcClient ? client : new SvcClient(client);
  checkContract(definition, 'definition');
  return bindResource(core, definition, definition.name, {}, 0, forms.rx);
}

function bindResource(
  core: SvcClient,
  def: ResourceContract,
  path: string,
  pathKeys: { readonly [name: string]: ResourceKey },
  depth: number,
  rx: RxForms | undefined,
  alt?: AltKeyBinding,
): object {
  // an actions set has no entities: only its actions are bound
  const t = callTarget(def, path, pathKeys, alt);
  const methods = def.methods as MethodsRecord;
  const has = (name: string): boolean => methods[name] !== undefined;
  const at = t.at;
  const keyed = t.keys;

  const client: Record<string, unknown> = { path, pathKeys, altKey: alt?.name };

  // entity methods: the calls of calls.ts, which the per-method functions (modular.ts) call too ---------
  if (keyed !== undefined) {
    if (has('get')) client['get'] = async (key: unknown, o?: GetOptions) => getCall(core, t, key, o);
    if (has('update'))
      client['update'] = async (key: unknown, entity: EntityLike, o?: CallOptions) =>
        updateCall(core, t, key, entity, o);
    if (has('partialUpdate'))
      client['partialUpdate'] = async (key: unknown, patch: PatchInput, o?: ReturnEntityOptions) =>
        partialUpdateCall(core, t, key, patch, o);
    if (has('delete'))
      client['delete'] = async (key: unknown, o?: CallOptions) => deleteCall(core, t, key, o);
    if (has('batchGet'))
      client['batchGet'] = async (keys: Iterable<unknown>, o?: GetOptions) => batchGetCall(core, t, keys, o);
    if (has('create'))
      client['create'] = async (entity: EntityLike, o?: ReturnEntityOptions) =>
        createCall(core, t, entity, o);
    if (has('batchCreate'))
      client['batchCreate'] = async (entities: Iterable<EntityLike>, o?: ReturnEntityOptions) =>
        batchCreateCall(core, t, entities, o);
    if (has('batchUpdate'))
      client['batchUpdate'] = async (entities: Iterable<readonly [unknown, EntityLike]>, o?: CallOptions) =>
        batchUpdateCall(core, t, entities, o);
    if (has('batchPartialUpdate'))
      client['batchPartialUpdate'] = async (
        patches: Iterable<readonly [unknown, PatchInput]>,
        o?: ReturnEntityOptions,
      ) => batchPartialUpdateCall(core, t, patches, o);
    if (has('batchDelete'))
      client['batchDelete'] = async (keys: Iterable<unknown>, o?: CallOptions) =>
        batchDeleteCall(core, t, keys, o);
  } else {
    if (has('get')) client['get'] = async (o?: GetOptions) => getCall(core, t, undefined, o);
    if (has('update'))
      client['update'] = async (entity: EntityLike, o?: CallOptions) =>
        updateCall(core, t, undefined, entity, o);
    if (has('partialUpdate'))
      client['partialUpdate'] = async (patch: PatchInput, o?: ReturnEntityOptions) =>
        partialUpdateCall(core, t, undefined, patch, o);
    if (has('delete')) client['delete'] = async (o?: CallOptions) => deleteCall(core, t, undefined, o);
  }

  // collections -----------------------------------------------------------------------------------------
  const finderCall = (
    name: string | undefined,
    spec: FinderContract | undefined,
    where: string,
  ): ((values?: Record<string, unknown>, o?: CollectionOptions) => Promise<unknown>) => {
    const plan = methodPlan('finder', name, spec, where);
    return async (values, o) => collectionCall(core, t, plan, values, o);
  };
  const batchFinder = (name: string, spec: BatchFinderContract, where: string): unknown => {
    const plan = methodPlan('batchFinder', name, spec, where);
    const call = async (
      criteria: Iterable<Entity>,
      values?: Record<string, unknown>,
      o?: CollectionOptions,
    ): Promise<unknown> => batchFinderCall(core, t, plan, criteria, values, o);
    const builder = (criteria: readonly Entity[]): object => {
      const send = (values?: Record<string, unknown>, o?: CollectionOptions): Promise<unknown> =>
        call(criteria, values, o);
      return Object.freeze({
        criteria,
        add: (...more: Entity[]) => builder(Object.freeze([...criteria, ...more])),
        send,
        ...(rx === undefined ? {} : { rx: rx.coldCall(send, 1) }),
      });
    };
    return Object.assign(call, { builder: () => builder(Object.freeze([])) });
  };
  const getAll = alt === undefined ? methods['getAll'] : undefined;
  if (getAll !== undefined) {
    if (isFinder(getAll)) client['getAll'] = finderCall(undefined, getAll, at('getAll'));
    else {
      const call = finderCall(undefined, undefined, at('getAll'));
      client['getAll'] = async (o?: CollectionOptions) => call(undefined, o);
    }
  }
  const finders =
    alt === undefined
      ? (methods['finders'] as { readonly [n: string]: FinderContract } | undefined)
      : undefined;
  if (finders !== undefined) {
    const calls: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(finders))
      calls[name] = finderCall(name, spec, at(`finders.${name}`));
    client['finders'] = Object.freeze(calls);
  }

  // batch finders -------------------------------------------------------------------------------------
  const batchFinders =
    alt === undefined
      ? (methods['batchFinders'] as { readonly [n: string]: BatchFinderContract } | undefined)
      : undefined;
  if (batchFinders !== undefined) {
    const calls: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(batchFinders))
      calls[name] = batchFinder(name, spec, at(`batchFinders.${name}`));
    client['batchFinders'] = Object.freeze(calls);
  }

  // actions ---------------------------------------------------------------------------------------------
  const action = (name: string, spec: ActionSpecLike, entity: boolean) => {
    const plan = methodPlan('action', name, spec, at(`${entity ? 'entityActions' : 'actions'}.${name}`));
    return async (...args: unknown[]): Promise<unknown> => {
      const [k, values, o] = (entity ? args : [undefined, ...args]) as [
        unknown,
        Record<string, unknown> | undefined,
        CallOptions | undefined,
      ];
      return actionCall(core, t, plan, entity, k, values, o);
    };
  };
  const actions =
    alt === undefined
      ? (methods['actions'] as { readonly [n: string]: ActionSpecLike } | undefined)
      : undefined;
  if (actions !== undefined) {
    const calls: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(actions)) calls[name] = action(name, spec, false);
    client['actions'] = Object.freeze(calls);
  }
  const entityActions = methods['entityActions'] as { readonly [n: string]: ActionSpecLike } | undefined;
  if (entityActions !== undefined && keyed !== undefined) {
    const calls: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(entityActions)) calls[name] = action(name, spec, true);
    client['entityActions'] = Object.freeze(calls);
  }

  // alternative keys ------------------------------------------------------------------------------------
  const alternatives = (def as { readonly alternativeKeys?: unknown }).alternativeKeys;
  if (keyed !== undefined && alt === undefined && typeof alternatives === 'object' && alternatives !== null) {
    client['alt'] = (name: string) => {
      const a = (alternatives as { readonly [n: string]: { readonly key?: KeyType<unknown> } | undefined })[
        name
      ];
      if (a?.key === undefined || typeof a.key.toProtocol !== 'function')
        throw new RequestBuildError(`'${def.name}' has no alternative key named '${String(name)}'`);
      return bindResource(core, def, path, pathKeys, depth, rx, { name, key: a.key });
    };
  }

  // children --------------------------------------------------------------------------------------------
  const children = alt === undefined ? (def.subresources ?? []) : [];
  if (alt === undefined) {
    const child = (c: unknown, where: string): ResourceContract => {
      checkContract(c, where);
      if (!children.includes(c) && !children.some((d) => d.name === c.name && d.kind === c.kind)) {
        throw new RequestBuildError(`'${c.name}' is not a subresource of '${def.name}'`);
      }
      return c;
    };
    client['sub'] =
      keyed === undefined
        ? (c: unknown) => {
            const d = child(c, at('sub'));
            return bindResource(core, d, `${path}/${d.name}`, pathKeys, depth + 1, rx);
          }
        : (parentKey: unknown, c: unknown) => {
            const d = child(c, at('sub'));
            const placeholder = `$${depth}`;
            return bindResource(
              core,
              d,
              `${path}/{${placeholder}}/${d.name}`,
              { ...pathKeys, [placeholder]: keyed.out(parentKey) },
              depth + 1,
              rx,
            );
          };
  }
  if (rx !== undefined) client['rx'] = rx.namespace(client, keyed === undefined, isFinder(getAll));
  return Object.freeze(client);
}

type MethodsRecord = { readonly [name: string]: unknown };
