import { Data, DataMap, type DataValue } from '../data';
import { CompoundKey, type ResourceKey, type SimpleKey, encodeKeyForBody } from '../protocol';
import type { KeyType } from '../resources/key-types';
import type { AttachmentSources } from '../streams/related/encoder';
import type { ValueType } from '../resources/value-types';
import {
  type RequestKind,
  actionRequestKind,
  batchCreateRequestKind,
  batchDeleteRequestKind,
  batchFinderRequestKind,
  batchGetRequestKind,
  batchPartialUpdateRequestKind,
  batchUpdateRequestKind,
  createRequestKind,
  deleteRequestKind,
  finderRequestKind,
  getAllRequestKind,
  getRequestKind,
  iterate,
  partialUpdateRequestKind,
  updateRequestKind,
} from './build-request';
import type { CoreClient } from './core-client';
import {
  type ResponseKind,
  actionResponseKind,
  batchCreateResponseKind,
  batchFinderResponseKind,
  batchGetResponseKind,
  batchStatusResponseKind,
  collectionResponseKind,
  createResponseKind,
  decodeResponseOf,
  getResponseKind,
  noEntityResponseKind,
  partialUpdateResponseKind,
  withAttachmentAccessors,
} from './decode-response';
import { RequestBuildError, ResponseDecodingError } from './errors';
import { KeyMap } from './key-map';
import type { Entity, EntityClass, ParamValue, ParamsInit, RequestDescription } from './request-description';
import type {
  BatchFinderContract,
  CallOptions,
  CollectionOptions,
  FinderContract,
  GetOptions,
  PatchInput,
  ResourceContract,
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

/**
 * One call per method kind, on a core client and a resource target: what the typed facade
 * (`resource-client.ts`) binds as `api.photos.get` and what the per-method functions (`modular.ts`,
 * `get(client, photosInterface, 1)`) call, so that both send the same requests. Each call names only its
 * own kind's request building and response reading (`build-request.ts`, `decode-response.ts`), so that a
 * page importing `get` carries no other method (README.md, "Size").
 */

// ---------------------------------------------------------------------------------------------------------
// Targets

/** An alternative key a client addresses entities by: its `altkey` name and wire key type. */
export interface AltKeyBinding {
  readonly name: string;
  readonly key: KeyType<unknown>;
}

/** A resource as calls address it: its definition, path, parent keys, alternative key and key type. */
export interface CallTarget {
  readonly def: ResourceContract;
  /** The value class entities are wrapped in (undefined for an actions set). */
  readonly template: EntityClass<unknown>;
  /** The typed keys of a collection or association; undefined for a simple resource or actions set. */
  readonly keys: TypedKeys | undefined;
  /** The request fields every call to the target has. */
  readonly base: {
    readonly resource: string;
    readonly pathKeys: { readonly [name: string]: ResourceKey };
    readonly altKey?: string;
  };
  /** `photos.get`, `photos.alt(urn).get`: where an error happened, for messages. */
  readonly at: (what: string) => string;
}

/** The target of `def` at `path` (its parents' keys in `pathKeys`), by an alternative key if given. */
export function callTarget(
  def: ResourceContract,
  path: string,
  pathKeys: { readonly [name: string]: ResourceKey },
  alt?: AltKeyBinding,
): CallTarget {
  return {
    def,
    template: (def as { value?: unknown }).value as EntityClass<unknown>,
    keys:
      def.kind === 'simple' || def.kind === 'actionsSet'
        ? undefined
        : new TypedKeys(alt?.key ?? def.key, def.name),
    base: { resource: path, pathKeys, ...(alt === undefined ? {} : { altKey: alt.name }) },
    at: (what) => `${def.name}${alt === undefined ? '' : `.alt(${alt.name})`}.${what}`,
  };
}

/**
 * `def` if it is a resource interface or definition (read by shape: a second copy of the package may have
 * made it).
 *
 * @throws TypeError naming `where`
 */
export function checkContract(def: unknown, where: string): asserts def is ResourceContract {
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
// Sending

type Fail = (message: string, cause?: unknown) => Error;

/**
 * Sends a description of one kind and decodes the response; `then` rebuilds it with typed keys (given the
 * response and a maker of decoding errors carrying the raw response).
 */
async function sendOf<D extends RequestDescription, T = SvcResponse>(
  core: CoreClient,
  desc: D,
  requestKind: RequestKind<D>,
  responseKind: ResponseKind<D>,
  then?: (res: SvcResponse, fail: Fail) => T,
): Promise<T> {
  const request = await core.prepareOf(desc, requestKind);
  const raw = await core.execute(request, desc);
  const res = decodeResponseOf(
    desc,
    raw,
    core.options,
    { method: request.resourceMethod, url: request.url },
    responseKind,
  );
  if (then === undefined) return res as T;
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
}

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

function pagingOf(o: CollectionOptions | undefined): object {
  return {
    ...(o?.start === undefined ? {} : { start: o.start }),
    ...(o?.count === undefined ? {} : { count: o.count }),
  };
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

/** The target's typed keys. @throws RequestBuildError for a simple resource or an actions set */
function keysOf(t: CallTarget, what: string): TypedKeys {
  if (t.keys === undefined) throw new RequestBuildError(`${t.at(what)}: '${t.def.name}' has no keys`);
  return t.keys;
}

// ---------------------------------------------------------------------------------------------------------
// Entity methods (a simple resource's get, update, partialUpdate and delete take no key: `key` undefined)

export type EntityLike = DataMap | { data(): DataMap };

export function getCall(core: CoreClient, t: CallTarget, key: unknown, o: GetOptions | undefined) {
  return sendOf(
    core,
    {
      method: 'get',
      ...t.base,
      ...common(o),
      ...(t.keys === undefined ? {} : { key: t.keys.out(key) }),
      template: t.template,
      ...projections(o),
    },
    getRequestKind,
    getResponseKind,
  );
}

export function updateCall(
  core: CoreClient,
  t: CallTarget,
  key: unknown,
  entity: EntityLike,
  o: CallOptions | undefined,
) {
  return sendOf(
    core,
    {
      method: 'update',
      ...t.base,
      ...common(o),
      ...(t.keys === undefined ? {} : { key: t.keys.out(key) }),
      body: entity,
    },
    updateRequestKind,
    noEntityResponseKind,
  );
}

export function partialUpdateCall(
  core: CoreClient,
  t: CallTarget,
  key: unknown,
  patch: PatchInput,
  o: ReturnEntityOptions | undefined,
) {
  return sendOf(
    core,
    {
      method: 'partial_update',
      ...t.base,
      ...common(o),
      ...(t.keys === undefined ? {} : { key: t.keys.out(key) }),
      patch: patchData(patch, t.at('partialUpdate')),
      template: t.template,
      ...returnEntity(o),
      ...projections(o),
    },
    partialUpdateRequestKind,
    partialUpdateResponseKind,
  );
}

export function deleteCall(core: CoreClient, t: CallTarget, key: unknown, o: CallOptions | undefined) {
  return sendOf(
    core,
    {
      method: 'delete',
      ...t.base,
      ...common(o),
      ...(t.keys === undefined ? {} : { key: t.keys.out(key) }),
    },
    deleteRequestKind,
    noEntityResponseKind,
  );
}

export function batchGetCall(
  core: CoreClient,
  t: CallTarget,
  keys: Iterable<unknown>,
  o: GetOptions | undefined,
) {
  const k = keysOf(t, 'batchGet');
  const ids = requested(k, keys, t.at('batchGet'));
  return sendOf(
    core,
    {
      method: 'batch_get',
      ...t.base,
      ...common(o),
      ids: ids.protocol,
      keySpec: k.type.spec,
      template: t.template,
      ...projections(o),
    },
    batchGetRequestKind,
    batchGetResponseKind,
    (res, fail) => {
      const r = res as BatchEntityResponse<ResourceKey, unknown>;
      return {
        status: r.status,
        headers: r.headers,
        results: typedMap(k, r.results, ids, fail),
        statuses: typedMap(k, r.statuses, ids, fail),
        errors: typedMap(k, r.errors, ids, fail),
      } satisfies WithoutAttachmentAccessors<BatchEntityResponse<unknown, unknown>>;
    },
  );
}

export function createCall(
  core: CoreClient,
  t: CallTarget,
  entity: EntityLike,
  o: ReturnEntityOptions | undefined,
) {
  const k = keysOf(t, 'create');
  return sendOf(
    core,
    {
      method: 'create',
      ...t.base,
      ...common(o),
      body: entity,
      keySpec: k.type.spec,
      template: t.template,
      ...returnEntity(o),
      ...projections(o),
    },
    createRequestKind,
    createResponseKind,
    (res, fail) => {
      const r = res as CreateResponse<unknown>;
      return { ...r, id: typed(k, r.id, fail) } satisfies WithoutAttachmentAccessors<
        CreateResponse<unknown, unknown>
      >;
    },
  );
}

export function batchCreateCall(
  core: CoreClient,
  t: CallTarget,
  entities: Iterable<EntityLike>,
  o: ReturnEntityOptions | undefined,
) {
  const k = keysOf(t, 'batchCreate');
  return sendOf(
    core,
    {
      method: 'batch_create',
      ...t.base,
      ...common(o),
      bodies: [...iterate(entities, t.at('batchCreate'))],
      keySpec: k.type.spec,
      template: t.template,
      ...returnEntity(o),
      ...projections(o),
    },
    batchCreateRequestKind,
    batchCreateResponseKind,
    (res, fail) => {
      const r = res as BatchCreateResponse<unknown>;
      return {
        status: r.status,
        headers: r.headers,
        elements: r.elements.map((e): BatchCreateItem<unknown, unknown> => ({
          ...e,
          id: typed(k, e.id, fail),
        })),
      } satisfies WithoutAttachmentAccessors<BatchCreateResponse<unknown, unknown>>;
    },
  );
}

function batchStatus(
  k: TypedKeys,
  r: SvcResponse,
  ids: RequestedKeys,
  fail: Fail,
): WithoutAttachmentAccessors<BatchStatusResponse<unknown, unknown>> {
  const b = r as BatchStatusResponse<ResourceKey, unknown>;
  return {
    status: b.status,
    headers: b.headers,
    results: typedMap(k, b.results, ids, fail),
    errors: typedMap(k, b.errors, ids, fail),
  };
}

export function batchUpdateCall(
  core: CoreClient,
  t: CallTarget,
  entities: Iterable<readonly [unknown, EntityLike]>,
  o: CallOptions | undefined,
) {
  const k = keysOf(t, 'batchUpdate');
  const { ids, entries } = keyedEntries(k, entities, t.at('batchUpdate'), (e) => e);
  return sendOf(
    core,
    { method: 'batch_update', ...t.base, ...common(o), entities: entries, keySpec: k.type.spec },
    batchUpdateRequestKind,
    batchStatusResponseKind,
    (res, fail) => batchStatus(k, res, ids, fail),
  );
}

export function batchPartialUpdateCall(
  core: CoreClient,
  t: CallTarget,
  patches: Iterable<readonly [unknown, PatchInput]>,
  o: ReturnEntityOptions | undefined,
) {
  const k = keysOf(t, 'batchPartialUpdate');
  const { ids, entries } = keyedEntries(k, patches, t.at('batchPartialUpdate'), (p) =>
    patchData(p, t.at('batchPartialUpdate')),
  );
  return sendOf(
    core,
    {
      method: 'batch_partial_update',
      ...t.base,
      ...common(o),
      patches: entries,
      keySpec: k.type.spec,
      template: t.template,
      ...returnEntity(o),
      ...projections(o),
    },
    batchPartialUpdateRequestKind,
    batchStatusResponseKind,
    (res, fail) => batchStatus(k, res, ids, fail),
  );
}

export function batchDeleteCall(
  core: CoreClient,
  t: CallTarget,
  keys: Iterable<unknown>,
  o: CallOptions | undefined,
) {
  const k = keysOf(t, 'batchDelete');
  const ids = requested(k, keys, t.at('batchDelete'));
  return sendOf(
    core,
    { method: 'batch_delete', ...t.base, ...common(o), ids: ids.protocol, keySpec: k.type.spec },
    batchDeleteRequestKind,
    batchStatusResponseKind,
    (res, fail) => batchStatus(k, res, ids, fail),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Parameters of finders, batch finders and actions

interface ParamPlan {
  readonly name: string;
  readonly type: ValueType<unknown>;
  /** The association key part a finder parameter binds in the path. */
  readonly assocPart: string | undefined;
}

/** A finder, batch finder or action as calls send it: its name, parameter plans and classes. */
export interface MethodPlan {
  /** The method's name; undefined for a get_all. */
  readonly name: string | undefined;
  readonly where: string;
  readonly params: readonly ParamPlan[];
  /** A finder's or batch finder's metadata class. */
  readonly metadataTemplate: EntityClass<unknown> | undefined;
  /** A batch finder's batch parameter. */
  readonly batchParam: string;
  /** An action's return type. */
  readonly returns: ValueType<unknown> | undefined;
}

/** Whether a method spec is a finder's (a get_all declared with parameters is one). */
export function isFinder(v: unknown): v is FinderContract {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'finder';
}

/**
 * The plan of a finder (`spec` undefined: a get_all without parameters), batch finder or action, read by
 * shape as registration does.
 *
 * @throws TypeError for a parameter without a type, or a batch finder without a batch parameter
 */
export function methodPlan(
  kind: 'finder' | 'batchFinder' | 'action',
  name: string | undefined,
  spec: FinderContract | BatchFinderContract | ActionSpecLike | undefined,
  where: string,
): MethodPlan {
  let params = spec?.params;
  let batchParam = '';
  if (kind === 'batchFinder') {
    const b = spec as BatchFinderContract;
    batchParam = b.batchParam;
    if (typeof batchParam !== 'string' || typeof b.params !== 'object' || b.params === null)
      throw new TypeError(`${where}: not a batch finder (no batchParam or params)`);
    // the batch parameter is sent from the criteria argument; the others as a finder's parameters
    params = Object.fromEntries(Object.entries(b.params).filter(([n]) => n !== batchParam));
  }
  return {
    name,
    where,
    params: paramPlans(params, where),
    metadataTemplate: (spec as { readonly metadata?: EntityClass<unknown> } | undefined)?.metadata,
    batchParam,
    returns: (spec as { readonly returns?: ValueType<unknown> } | undefined)?.returns,
  };
}

export interface ActionSpecLike {
  readonly params: object;
  readonly returns?: ValueType<unknown> | undefined;
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
// Collections, batch finders, actions

/** A get_all (`plan.name` undefined), or a finder. */
export function collectionCall(
  core: CoreClient,
  t: CallTarget,
  plan: MethodPlan,
  values: Record<string, unknown> | undefined,
  o: CollectionOptions | undefined,
) {
  const { params, assoc } = encodeParams(plan.params, values, plan.where);
  const c = common(o);
  const rest = {
    ...t.base,
    ...c,
    params: withQuery(params, c.params, plan.where),
    paging: pagingOf(o),
    template: t.template,
    ...(plan.metadataTemplate === undefined ? {} : { metadataTemplate: plan.metadataTemplate }),
    ...projections(o),
  };
  return plan.name === undefined
    ? sendOf(core, { method: 'get_all', ...rest }, getAllRequestKind, collectionResponseKind)
    : sendOf(
        core,
        {
          method: 'finder',
          name: plan.name,
          ...(assoc === undefined ? {} : { key: assoc }),
          ...rest,
        },
        finderRequestKind,
        collectionResponseKind,
      );
}

export function batchFinderCall(
  core: CoreClient,
  t: CallTarget,
  plan: MethodPlan,
  criteria: Iterable<Entity>,
  values: Record<string, unknown> | undefined,
  o: CollectionOptions | undefined,
) {
  const list = [...iterate(criteria, plan.where)];
  const { params, assoc } = encodeParams(plan.params, values, plan.where);
  const c = common(o);
  return sendOf(
    core,
    {
      method: 'batch_finder',
      name: plan.name!,
      batchParam: plan.batchParam,
      criteria: list,
      ...(assoc === undefined ? {} : { key: assoc }),
      ...t.base,
      ...c,
      params: withQuery(params, c.params, plan.where),
      paging: pagingOf(o),
      template: t.template,
      ...(plan.metadataTemplate === undefined ? {} : { metadataTemplate: plan.metadataTemplate }),
      ...projections(o),
    },
    batchFinderRequestKind,
    batchFinderResponseKind,
  );
}

/** An action (`entity` false), or an entity action on the entity of `key`. */
export function actionCall(
  core: CoreClient,
  t: CallTarget,
  plan: MethodPlan,
  entity: boolean,
  key: unknown,
  values: Record<string, unknown> | undefined,
  o: CallOptions | undefined,
) {
  const { params } = encodeParams(plan.params, values, plan.where);
  const name = plan.name!;
  return sendOf(
    core,
    {
      method: 'action',
      ...t.base,
      ...common(o),
      name,
      ...(entity ? { key: keysOf(t, 'entityActions').out(key) } : {}),
      actionParams: params,
    },
    actionRequestKind,
    actionResponseKind,
    (res, fail) => {
      const r = res as { status: number; headers: SvcResponse['headers']; value: DataValue | undefined };
      let value: unknown;
      const returns = plan.returns;
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
}

// ---------------------------------------------------------------------------------------------------------
// Typed keys

/** The keys a batch request names: protocol keys to send, and typed keys by wire form to answer with. */
interface RequestedKeys {
  readonly protocol: readonly ResourceKey[];
  readonly byWire: ReadonlyMap<string, unknown>;
}

/** Typed keys ↔ protocol keys for one resource's key type. */
export class TypedKeys {
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
}

function requested(k: TypedKeys, keys: Iterable<unknown>, where: string): RequestedKeys {
  const protocol: ResourceKey[] = [];
  const byWire = new Map<string, unknown>();
  for (const key of iterate(keys, where)) {
    const p = k.out(key);
    const w = encodeKeyForBody(p);
    if (byWire.has(w)) continue;
    byWire.set(w, key);
    protocol.push(p);
  }
  return { protocol, byWire };
}

function keyedEntries<I, O>(
  k: TypedKeys,
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
    const p = k.out(key);
    byWire.set(encodeKeyForBody(p), key);
    out.push([p, value(v)]);
  }
  return { ids: { protocol: out.map(([p]) => p), byWire }, entries: out };
}

/** A typed key of a response's protocol key: the caller's own when it asked for it. */
function typed(
  k: TypedKeys,
  key: ResourceKey | undefined,
  fail: Fail,
  byWire?: ReadonlyMap<string, unknown>,
): unknown {
  if (key === undefined) return undefined;
  const known = byWire?.get(encodeKeyForBody(key));
  if (known !== undefined) return known;
  try {
    return k.type.fromProtocol(key);
  } catch (err) {
    throw fail(`The response names a key that is not a ${k.type.typeName}`, err);
  }
}

function typedMap<V>(
  k: TypedKeys,
  map: KeyMap<ResourceKey, V>,
  ids: RequestedKeys,
  fail: Fail,
): KeyMap<unknown, V> {
  const out: Array<readonly [unknown, V]> = [];
  for (const [key, v] of map) out.push([typed(k, key, fail, ids.byWire), v]);
  return new KeyMap(out, k.wire);
}
