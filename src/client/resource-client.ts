import { Data, DataMap, type DataValue } from '../data';
import { CompoundKey, type ResourceKey, type SimpleKey, encodeKeyForBody } from '../protocol';
import type { KeyType } from '../resources/key-types';
import type { AttachmentSources } from '../streams/related/encoder';
import type { ValueType } from '../resources/value-types';
import { iterate } from './build-request';
import { decodeResponse, withAttachmentAccessors } from './decode-response';
import { RequestBuildError, ResponseDecodingError } from './errors';
import { KeyMap } from './key-map';
import type { ClientOptions } from './options';
import type { Entity, EntityClass, ParamValue, ParamsInit, RequestDescription } from './request-description';
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
import type {
  BatchCreateItem,
  BatchCreateResponse,
  BatchEntityResponse,
  BatchStatusResponse,
  CreateResponse,
  SvcResponse,
  WithoutAttachmentAccessors,
} from './responses';
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

function checkContract(def: unknown, where: string): asserts def is ResourceContract {
  const d = def as Partial<ResourceContract> | null;
  if (
    typeof d !== 'object' ||
    d === null ||
    (d.kind !== 'collection' && d.kind !== 'association' && d.kind !== 'simple' && d.kind !== 'actionsSet') ||
    typeof d.name !== 'string' ||
    (d.kind !== 'actionsSet' && typeof (d as { value?: unknown }).value !== 'function') ||
    typeof d.methods !== 'object' ||
    d.methods === null ||
    ((d.kind === 'collection' || d.kind === 'association') && typeof d.key?.toProtocol !== 'function')
  ) {
    throw new TypeError(
      `${where}: not a resource interface or definition (use collectionInterface(...), associationInterface(...), simpleInterface(...), or a collection(...), association(...), simple(...) definition)`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Parameters

interface ParamPlan {
  readonly name: string;
  readonly type: ValueType<unknown>;
  /** The association key part a finder parameter binds in the path. */
  readonly assocPart: string | undefined;
}

/** The parameter specs of a finder or action, read by shape as registration does. */
function paramPlans(params: object | undefined, where: string): readonly ParamPlan[] {
  if (params === undefined) return [];
  // the attachments parameter is not a query or body parameter: attachments go as the call's `attachments`
  const sent = Object.entries(params).filter(
    ([, spec]) => (spec as { paramKind?: unknown } | undefined)?.paramKind !== 'attachments',
  );
  return sent.map(([name, spec]: [string, unknown]): ParamPlan => {
    const s = spec as {
      paramKind?: unknown;
      type?: ValueType<unknown>;
      part?: string;
      toData?: unknown;
    };
    if (s.paramKind === 'optional' && s.type !== undefined)
      return { name, type: s.type, assocPart: undefined };
    if (s.paramKind === 'assocKey' && s.type !== undefined)
      return { name, type: s.type, assocPart: s.part ?? name };
    if (typeof s.toData === 'function')
      return { name, type: spec as ValueType<unknown>, assocPart: undefined };
    throw new TypeError(`${where}: parameter '${name}' has no type`);
  });
}

/** Finder or action parameters as data: query parameters (or the action body) and the path's key parts. */
function encodeParams(
  plans: readonly ParamPlan[],
  values: { readonly [name: string]: unknown } | undefined,
  where: string,
): { params: DataMap; assoc: CompoundKey | undefined } {
  if (values !== undefined && (typeof values !== 'object' || values === null)) {
    throw new RequestBuildError(`${where}: the parameters must be an object`);
  }
  const params = new DataMap();
  let assoc: CompoundKey | undefined;
  for (const p of plans) {
    const v = values?.[p.name];
    if (v === undefined) continue;
    let data: DataValue;
    try {
      data = p.type.toData(v);
    } catch (err) {
      throw new RequestBuildError(
        `${where}: parameter '${p.name}' is not a ${p.type.typeName}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    if (p.assocPart !== undefined) (assoc ??= new CompoundKey()).append(p.assocPart, data as SimpleKey);
    else params.put(p.name, data);
  }
  return { params, assoc };
}

/** The caller's extra query parameters next to the declared ones (declared ones win a clash: none may). */
function withQuery(params: DataMap, query: ParamsInit | undefined, where: string): ParamsInit {
  if (query === undefined) return params;
  const merged = new Map<string, ParamValue>(
    query instanceof DataMap || query instanceof Map
      ? (query as ReadonlyMap<string, ParamValue>)
      : Object.entries(query as { readonly [name: string]: ParamValue }),
  );
  for (const [name, value] of params) {
    if (merged.has(name)) {
      throw new RequestBuildError(`${where}: query parameter '${name}' is also a declared parameter`);
    }
    merged.set(name, value);
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------------------
// Binding one resource

/** The request fields every call shares, from its options. */
function common(options: CallOptions | undefined): {
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  timeoutMs?: number;
  forceQueryTunnel?: boolean;
  queryTunnelThreshold?: number | false;
  params?: ParamsInit;
  fillInDefaults?: boolean;
  attachments?: AttachmentSources;
  acceptResponseAttachments?: boolean;
} {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null)
    throw new RequestBuildError('call options must be an object');
  return {
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.forceQueryTunnel === undefined ? {} : { forceQueryTunnel: options.forceQueryTunnel }),
    ...(options.queryTunnelThreshold === undefined
      ? {}
      : { queryTunnelThreshold: options.queryTunnelThreshold }),
    ...(options.query === undefined ? {} : { params: options.query }),
    ...(options.fillInDefaults === undefined ? {} : { fillInDefaults: options.fillInDefaults }),
    ...(options.attachments === undefined ? {} : { attachments: options.attachments }),
    ...(options.acceptResponseAttachments === undefined
      ? {}
      : { acceptResponseAttachments: options.acceptResponseAttachments }),
  };
}

function projections(o: CollectionOptions | GetOptions | undefined): object {
  const c = (o ?? {}) as CollectionOptions;
  return {
    ...(c.fields === undefined ? {} : { fields: c.fields }),
    ...(c.metadataFields === undefined ? {} : { metadataFields: c.metadataFields }),
    ...(c.pagingFields === undefined ? {} : { pagingFields: c.pagingFields }),
  };
}

function returnEntity(o: ReturnEntityOptions | undefined): object {
  return o?.returnEntity === undefined ? {} : { returnEntity: o.returnEntity };
}

function patchData(patch: PatchInput, where: string): DataMap {
  if (patch instanceof DataMap) return patch;
  if (typeof patch === 'object' && patch !== null) {
    const inner = (patch as { patch?: unknown }).patch;
    if (inner instanceof DataMap) return inner;
    try {
      const data = Data.fromJS(patch);
      if (data instanceof DataMap) return data;
    } catch (err) {
      throw new RequestBuildError(`${where}: the patch is not data: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  throw new RequestBuildError(`${where}: a patch must be a DataMap or an object like {"$set": {...}}`);
}

/** An alternative key a client addresses entities by: its `altkey` name and wire key type. */
interface AltKeyBinding {
  readonly name: string;
  readonly key: KeyType<unknown>;
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
  const template = (def as { value?: unknown }).value as EntityClass<unknown>;
  const methods = def.methods as MethodsRecord;
  const has = (name: string): boolean => methods[name] !== undefined;
  const at = (what: string): string => `${def.name}${alt === undefined ? '' : `.alt(${alt.name})`}.${what}`;
  const keyed =
    def.kind === 'simple' || def.kind === 'actionsSet'
      ? undefined
      : new TypedKeys(alt?.key ?? def.key, def.name);
  const base = { resource: path, pathKeys, ...(alt === undefined ? {} : { altKey: alt.name }) };

  /** Sends a description and decodes the response, keeping the raw response for typed decoding errors. */
  const send = async <T>(
    desc: RequestDescription,
    then: (res: SvcResponse, fail: (message: string, cause?: unknown) => Error) => T,
  ): Promise<T> => {
    const request = await core.prepare(desc);
    const raw = await core.execute(request, desc);
    const res = decodeResponse(desc, raw, core.options, { method: request.resourceMethod, url: request.url });
    const out = then(
      res,
      (message, cause) =>
        new ResponseDecodingError(message, {
          status: raw.status,
          headers: raw.headers,
          body: raw.body,
          ...(cause === undefined ? {} : { cause }),
        }),
    );
    // responses rebuilt with typed keys get the attachment accessors back
    return typeof out === 'object' && out !== null && (out as unknown) !== res
      ? withAttachmentAccessors(out, raw.attachments)
      : out;
  };
  const plain = <T>(desc: RequestDescription): Promise<T> => send(desc, (r) => r as T);

  const client: Record<string, unknown> = { path, pathKeys, altKey: alt?.name };

  // entity methods ------------------------------------------------------------------------------------
  if (keyed !== undefined) {
    const k = keyed;
    if (has('get'))
      client['get'] = async (key: unknown, o?: GetOptions) =>
        plain({ method: 'get', ...base, ...common(o), key: k.out(key), template, ...projections(o) });
    if (has('update'))
      client['update'] = async (key: unknown, entity: EntityLike, o?: CallOptions) =>
        plain({ method: 'update', ...base, ...common(o), key: k.out(key), body: entity });
    if (has('partialUpdate'))
      client['partialUpdate'] = async (key: unknown, patch: PatchInput, o?: ReturnEntityOptions) =>
        plain({
          method: 'partial_update',
          ...base,
          ...common(o),
          key: k.out(key),
          patch: patchData(patch, at('partialUpdate')),
          template,
          ...returnEntity(o),
          ...projections(o),
        });
    if (has('delete'))
      client['delete'] = async (key: unknown, o?: CallOptions) =>
        plain({ method: 'delete', ...base, ...common(o), key: k.out(key) });

    if (has('batchGet'))
      client['batchGet'] = async (keys: Iterable<unknown>, o?: GetOptions) => {
        const ids = k.requested(keys, at('batchGet'));
        return send(
          {
            method: 'batch_get',
            ...base,
            ...common(o),
            ids: ids.protocol,
            keySpec: k.type.spec,
            template,
            ...projections(o),
          },
          (res, fail) => {
            const r = res as BatchEntityResponse<ResourceKey, unknown>;
            return {
              status: r.status,
              headers: r.headers,
              results: k.typedMap(r.results, ids, fail),
              statuses: k.typedMap(r.statuses, ids, fail),
              errors: k.typedMap(r.errors, ids, fail),
            } satisfies WithoutAttachmentAccessors<BatchEntityResponse<unknown, unknown>>;
          },
        );
      };
    if (has('create'))
      client['create'] = async (entity: EntityLike, o?: ReturnEntityOptions) =>
        send(
          {
            method: 'create',
            ...base,
            ...common(o),
            body: entity,
            keySpec: k.type.spec,
            template,
            ...returnEntity(o),
            ...projections(o),
          },
          (res, fail) => {
            const r = res as CreateResponse<unknown>;
            return { ...r, id: k.typed(r.id, fail) } satisfies WithoutAttachmentAccessors<
              CreateResponse<unknown, unknown>
            >;
          },
        );
    if (has('batchCreate'))
      client['batchCreate'] = async (entities: Iterable<EntityLike>, o?: ReturnEntityOptions) =>
        send(
          {
            method: 'batch_create',
            ...base,
            ...common(o),
            bodies: [...iterate(entities, at('batchCreate'))],
            keySpec: k.type.spec,
            template,
            ...returnEntity(o),
            ...projections(o),
          },
          (res, fail) => {
            const r = res as BatchCreateResponse<unknown>;
            return {
              status: r.status,
              headers: r.headers,
              elements: r.elements.map((e): BatchCreateItem<unknown, unknown> => ({
                ...e,
                id: k.typed(e.id, fail),
              })),
            } satisfies WithoutAttachmentAccessors<BatchCreateResponse<unknown, unknown>>;
          },
        );
    const batchStatus = (
      r: SvcResponse,
      ids: RequestedKeys,
      fail: Fail,
    ): WithoutAttachmentAccessors<BatchStatusResponse<unknown, unknown>> => {
      const b = r as BatchStatusResponse<ResourceKey, unknown>;
      return {
        status: b.status,
        headers: b.headers,
        results: k.typedMap(b.results, ids, fail),
        errors: k.typedMap(b.errors, ids, fail),
      };
    };
    if (has('batchUpdate'))
      client['batchUpdate'] = async (entities: Iterable<readonly [unknown, EntityLike]>, o?: CallOptions) => {
        const { ids, entries } = k.entries(entities, at('batchUpdate'), (e) => e);
        return send(
          { method: 'batch_update', ...base, ...common(o), entities: entries, keySpec: k.type.spec },
          (res, fail) => batchStatus(res, ids, fail),
        );
      };
    if (has('batchPartialUpdate'))
      client['batchPartialUpdate'] = async (
        patches: Iterable<readonly [unknown, PatchInput]>,
        o?: ReturnEntityOptions,
      ) => {
        const { ids, entries } = k.entries(patches, at('batchPartialUpdate'), (p) =>
          patchData(p, at('batchPartialUpdate')),
        );
        return send(
          {
            method: 'batch_partial_update',
            ...base,
            ...common(o),
            patches: entries,
            keySpec: k.type.spec,
            template,
            ...returnEntity(o),
            ...projections(o),
          },
          (res, fail) => batchStatus(res, ids, fail),
        );
      };
    if (has('batchDelete'))
      client['batchDelete'] = async (keys: Iterable<unknown>, o?: CallOptions) => {
        const ids = k.requested(keys, at('batchDelete'));
        return send(
          { method: 'batch_delete', ...base, ...common(o), ids: ids.protocol, keySpec: k.type.spec },
          (res, fail) => batchStatus(res, ids, fail),
        );
      };
  } else {
    if (has('get'))
      client['get'] = async (o?: GetOptions) =>
        plain({ method: 'get', ...base, ...common(o), template, ...projections(o) });
    if (has('update'))
      client['update'] = async (entity: EntityLike, o?: CallOptions) =>
        plain({ method: 'update', ...base, ...common(o), body: entity });
    if (has('partialUpdate'))
      client['partialUpdate'] = async (patch: PatchInput, o?: ReturnEntityOptions) =>
        plain({
          method: 'partial_update',
          ...base,
          ...common(o),
          patch: patchData(patch, at('partialUpdate')),
          template,
          ...returnEntity(o),
          ...projections(o),
        });
    if (has('delete'))
      client['delete'] = async (o?: CallOptions) => plain({ method: 'delete', ...base, ...common(o) });
  }

  // collections -----------------------------------------------------------------------------------------
  const pagingOf = (o: CollectionOptions | undefined): object => ({
    ...(o?.start === undefined ? {} : { start: o.start }),
    ...(o?.count === undefined ? {} : { count: o.count }),
  });
  const collectionCall = (
    name: string | undefined,
    spec: FinderContract | undefined,
    where: string,
  ): ((values?: Record<string, unknown>, o?: CollectionOptions) => Promise<unknown>) => {
    const plans = paramPlans(spec?.params, where);
    const metadataTemplate = spec?.metadata as EntityClass<unknown> | undefined;
    return async (values, o) => {
      const { params, assoc } = encodeParams(plans, values, where);
      const c = common(o);
      const paging = pagingOf(o);
      return plain({
        ...(name === undefined
          ? { method: 'get_all' as const }
          : { method: 'finder' as const, name, ...(assoc === undefined ? {} : { key: assoc }) }),
        ...base,
        ...c,
        params: withQuery(params, c.params, where),
        paging,
        template,
        ...(metadataTemplate === undefined ? {} : { metadataTemplate }),
        ...projections(o),
      });
    };
  };
  const batchFinderCall = (name: string, spec: BatchFinderContract, where: string): unknown => {
    const batchParam = spec.batchParam;
    if (typeof batchParam !== 'string' || typeof spec.params !== 'object' || spec.params === null)
      throw new TypeError(`${where}: not a batch finder (no batchParam or params)`);
    // the batch parameter is sent from the criteria argument; the others as a finder's parameters
    const others = Object.fromEntries(Object.entries(spec.params).filter(([n]) => n !== batchParam));
    const plans = paramPlans(others, where);
    const metadataTemplate = spec.metadata as EntityClass<unknown> | undefined;
    const call = async (
      criteria: Iterable<Entity>,
      values?: Record<string, unknown>,
      o?: CollectionOptions,
    ): Promise<unknown> => {
      const list = [...iterate(criteria, where)];
      const { params, assoc } = encodeParams(plans, values, where);
      const c = common(o);
      return plain({
        method: 'batch_finder',
        name,
        batchParam,
        criteria: list,
        ...(assoc === undefined ? {} : { key: assoc }),
        ...base,
        ...c,
        params: withQuery(params, c.params, where),
        paging: pagingOf(o),
        template,
        ...(metadataTemplate === undefined ? {} : { metadataTemplate }),
        ...projections(o),
      });
    };
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
    if (isFinder(getAll)) client['getAll'] = collectionCall(undefined, getAll, at('getAll'));
    else {
      const call = collectionCall(undefined, undefined, at('getAll'));
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
      calls[name] = collectionCall(name, spec, at(`finders.${name}`));
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
      calls[name] = batchFinderCall(name, spec, at(`batchFinders.${name}`));
    client['batchFinders'] = Object.freeze(calls);
  }

  // actions ---------------------------------------------------------------------------------------------
  const actionCall = (name: string, spec: ActionSpecLike, key: ((k: unknown) => ResourceKey) | undefined) => {
    const where = at(`${key === undefined ? 'actions' : 'entityActions'}.${name}`);
    const plans = paramPlans(spec.params, where);
    const returns = spec.returns;
    return async (...args: unknown[]): Promise<unknown> => {
      const [k, values, o] = (key === undefined ? [undefined, ...args] : args) as [
        unknown,
        Record<string, unknown> | undefined,
        CallOptions | undefined,
      ];
      const { params } = encodeParams(plans, values, where);
      return send(
        {
          method: 'action',
          ...base,
          ...common(o),
          name,
          ...(key === undefined ? {} : { key: key(k) }),
          actionParams: params,
        },
        (res, fail) => {
          const r = res as { status: number; headers: SvcResponse['headers']; value: DataValue | undefined };
          let value: unknown;
          if (returns !== undefined) {
            if (r.value === undefined) throw fail(`The response of action '${name}' has no value`);
            try {
              value = returns.fromBody(r.value);
            } catch (err) {
              throw fail(`The value of action '${name}' is not a ${returns.typeName}`, err);
            }
          }
          return { status: r.status, headers: r.headers, value };
        },
      );
    };
  };
  const actions =
    alt === undefined
      ? (methods['actions'] as { readonly [n: string]: ActionSpecLike } | undefined)
      : undefined;
  if (actions !== undefined) {
    const calls: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(actions)) calls[name] = actionCall(name, spec, undefined);
    client['actions'] = Object.freeze(calls);
  }
  const entityActions = methods['entityActions'] as { readonly [n: string]: ActionSpecLike } | undefined;
  if (entityActions !== undefined && keyed !== undefined) {
    const calls: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(entityActions))
      calls[name] = actionCall(name, spec, (k) => keyed.out(k));
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
type EntityLike = DataMap | { data(): DataMap };
type Fail = (message: string, cause?: unknown) => Error;
interface ActionSpecLike {
  readonly params: object;
  readonly returns?: ValueType<unknown> | undefined;
}

function isFinder(v: unknown): v is FinderContract {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'finder';
}

/** The keys a batch request names: protocol keys to send, and typed keys by wire form to answer with. */
interface RequestedKeys {
  readonly protocol: readonly ResourceKey[];
  readonly byWire: ReadonlyMap<string, unknown>;
}

/** Typed keys ↔ protocol keys for one resource's key type. */
class TypedKeys {
  readonly wire: (key: unknown) => string;
  constructor(
    readonly type: KeyType<unknown>,
    private readonly resource: string,
  ) {
    this.wire = (key) => encodeKeyForBody(this.out(key));
  }

  /** The protocol key of a typed key (a protocol key passes as it is). */
  out(key: unknown): ResourceKey {
    if (key === undefined || key === null)
      throw new RequestBuildError(`${this.resource}: a key is required (got ${String(key)})`);
    try {
      return this.type.toProtocol(key);
    } catch (err) {
      throw new RequestBuildError(
        `${this.resource}: not a ${this.type.typeName} key: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }

  requested(keys: Iterable<unknown>, where: string): RequestedKeys {
    const protocol: ResourceKey[] = [];
    const byWire = new Map<string, unknown>();
    for (const key of iterate(keys, where)) {
      const p = this.out(key);
      const w = encodeKeyForBody(p);
      if (byWire.has(w)) continue;
      byWire.set(w, key);
      protocol.push(p);
    }
    return { protocol, byWire };
  }

  entries<I, O>(
    entries: Iterable<readonly [unknown, I]>,
    where: string,
    value: (v: I) => O,
  ): { ids: RequestedKeys; entries: Array<readonly [ResourceKey, O]> } {
    const out: Array<readonly [ResourceKey, O]> = [];
    const byWire = new Map<string, unknown>();
    for (const entry of iterate(entries, where)) {
      if (!Array.isArray(entry) || entry.length !== 2)
        throw new RequestBuildError(`${where}: expected [key, value] entries (an array of pairs or a Map)`);
      const [key, v] = entry as readonly [unknown, I];
      const p = this.out(key);
      byWire.set(encodeKeyForBody(p), key);
      out.push([p, value(v)]);
    }
    return { ids: { protocol: out.map(([p]) => p), byWire }, entries: out };
  }

  /** A typed key of a response's protocol key: the caller's own when it asked for it. */
  typed(key: ResourceKey | undefined, fail: Fail, byWire?: ReadonlyMap<string, unknown>): unknown {
    if (key === undefined) return undefined;
    const known = byWire?.get(encodeKeyForBody(key));
    if (known !== undefined) return known;
    try {
      return this.type.fromProtocol(key);
    } catch (err) {
      throw fail(`The response names a key that is not a ${this.type.typeName}`, err);
    }
  }

  typedMap<V>(map: KeyMap<ResourceKey, V>, ids: RequestedKeys, fail: Fail): KeyMap<unknown, V> {
    const out: Array<readonly [unknown, V]> = [];
    for (const [key, v] of map) out.push([this.typed(key, fail, ids.byWire), v]);
    return new KeyMap(out, this.wire);
  }
}
