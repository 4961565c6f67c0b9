import {
  DEFAULT_PAGING,
  InvalidKeyError,
  type Paging,
  type ResourceKey,
  type ResourceMethod,
  isServiceError,
} from '../protocol';
import type { RecordDataSchema } from '../schema/record-schema';
import type { RecordTemplate } from '../templates';
import type { ResourceDefinition } from './definition';
import { type DefinitionLocation, ResourceDefinitionError } from './errors';
import { type AlternativeKey, type KeyType, isKeyType } from './key-types';
import { attachmentsHandler } from './attachments-param';
import { BATCH_METHOD_PROPERTIES, isBatchLimit, maxBatchSizeOf } from './batch-limit';
import { checkImplementation } from './interface';
import { type FieldRules, compileFieldRules } from './field-annotations';
import { type CompiledCriteria, type CompiledParams, compileParams } from './params';
import type { RequestFilter } from './request';
import { type RecordClass, type ValueType, isValueType, keyPartTypeOf } from './value-types';
import { installFullValidation } from '../schema/validation/full-validation';

// a server coerces keys and parameters with the validator (schema/validation/type-coercion.ts says why it
// is installed rather than imported where used)
installFullValidation();

/**
 * Registration: a resource definition checked once and compiled into the model the request path uses
 * (method table, compiled parameter binders, schemas). Every problem is a {@link ResourceDefinitionError}
 * naming the resource, the method and the parameter; nothing is checked per request.
 */

/** A handler as the request path calls it (arguments, then the context). */
export type AnyHandler = (...args: never[]) => unknown;

/** One method of a resource, compiled. */
export interface MethodModel {
  readonly method: ResourceMethod;
  /** Finder or action name. */
  readonly name: string | undefined;
  /** For messages: `get`, `finder 'byTitle'`. */
  readonly label: string;
  readonly handler: AnyHandler;
  /** Finder, get_all and action parameters. */
  readonly params: CompiledParams | undefined;
  /** Finders and get_all: whether the handler pages itself, and the paging defaults. */
  readonly selfPaging: boolean;
  readonly pagingDefaults: Paging;
  /** Actions: the return type (undefined for void). */
  readonly returns: ValueType<unknown> | undefined;
  /** Batch finders: the batch parameter and how the handler is called. */
  readonly batch?: BatchFinderModel;
  /**
   * How the method takes request attachments: `param` (its `attachmentsParam()` parameter), `argument`
   * (a `withAttachments` handler: the first argument), or undefined (a request with attachments is a 400).
   */
  readonly attachments?: 'param' | 'argument';
  /**
   * Batch methods (batch_get, batch_create, ...): the method's own limit on the items of one request
   * (`withMaxBatchSize`); undefined follows the server's `maxBatchSize`. A batch finder's is in `batch`.
   */
  readonly maxBatchSize?: number;
}

/** What a batch finder adds to its {@link MethodModel}. */
export interface BatchFinderModel {
  /** The batch parameter's name. */
  readonly param: string;
  readonly criteria: CompiledCriteria;
  /** `batch`: one call with every criterion; `perCriterion`: one call per criterion, `concurrency` at once. */
  readonly form: 'batch' | 'perCriterion';
  readonly concurrency: number;
  readonly maxBatchSize: number | undefined;
}

/** A registered resource. */
export interface ResourceModel {
  readonly kind: 'collection' | 'association' | 'simple';
  readonly name: string;
  /** Names from the root: `photos`, `photos/comments`. */
  readonly path: string;
  readonly keyType: KeyType<unknown> | undefined;
  readonly keyName: string | undefined;
  /** Association key parts and their types. */
  readonly assocParts: ReadonlyMap<string, ValueType<unknown>> | undefined;
  readonly valueClass: RecordClass<RecordTemplate>;
  /** The value record's schema (parsed when the resource was registered). */
  readonly valueSchema: RecordDataSchema;
  /** Unnamed methods (get, create, batch_get, get_all, ...). */
  readonly methods: ReadonlyMap<ResourceMethod, MethodModel>;
  readonly finders: ReadonlyMap<string, MethodModel>;
  /** Batch finders by name (`bq`). */
  readonly batchFinders: ReadonlyMap<string, MethodModel>;
  /** Collection-level actions (entity-level ones for a simple resource, whose path is its entity). */
  readonly actions: ReadonlyMap<string, MethodModel>;
  readonly entityActions: ReadonlyMap<string, MethodModel>;
  readonly subresources: ReadonlyMap<string, ResourceModel>;
  /** Invocation and response filters of this resource (the server's come first). */
  readonly filters: readonly RequestFilter[];
  /** The resource's own choice of the validation filter; undefined follows the server's `validation` option. */
  readonly validation: boolean | undefined;
  /** The resource's own `timeout` (ms); undefined follows the server's. */
  readonly timeout: number | undefined;
  /** Its read-only and create-only fields (`readOnly`, `createOnly`); undefined when it declares none. */
  readonly fieldRules: FieldRules | undefined;
  /**
   * Key types for `?altkey=<name>`: each reads the alternative key on the wire and gives handlers the
   * resource's own key (and turns response keys back).
   */
  readonly alternativeKeys: ReadonlyMap<string, AlternativeKeyType>;
  readonly definition: ResourceDefinition;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const METHOD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Handler property → resource method, per resource kind (the IDL export names methods by it too). */
export const COLLECTION_METHODS: ReadonlyMap<string, ResourceMethod> = new Map<string, ResourceMethod>([
  ['get', 'get'],
  ['batchGet', 'batch_get'],
  ['create', 'create'],
  ['batchCreate', 'batch_create'],
  ['update', 'update'],
  ['batchUpdate', 'batch_update'],
  ['partialUpdate', 'partial_update'],
  ['batchPartialUpdate', 'batch_partial_update'],
  ['delete', 'delete'],
  ['batchDelete', 'batch_delete'],
  ['getAll', 'get_all'],
]);
const ASSOCIATION_METHODS: ReadonlyMap<string, ResourceMethod> = new Map(
  [...COLLECTION_METHODS].filter(([k]) => k !== 'create' && k !== 'batchCreate'),
);
const SIMPLE_METHODS: ReadonlyMap<string, ResourceMethod> = new Map<string, ResourceMethod>([
  ['get', 'get'],
  ['update', 'update'],
  ['partialUpdate', 'partial_update'],
  ['delete', 'delete'],
]);
const NAMED = new Set(['finders', 'batchFinders', 'actions', 'entityActions']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pagingOf(spec: unknown, at: DefinitionLocation): { self: boolean; defaults: Paging } {
  if (spec === undefined || spec === false) return { self: false, defaults: DEFAULT_PAGING };
  if (spec === true) return { self: true, defaults: DEFAULT_PAGING };
  if (isObject(spec)) {
    const start = spec.start ?? DEFAULT_PAGING.start;
    const count = spec.count ?? DEFAULT_PAGING.count;
    for (const [n, v] of [
      ['start', start],
      ['count', count],
    ] as const) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
        throw new ResourceDefinitionError(at, `paging ${n} must be a non-negative integer`);
      }
    }
    return { self: true, defaults: Object.freeze({ start: start as number, count: count as number }) };
  }
  throw new ResourceDefinitionError(at, "'paging' must be true, false or { start, count }");
}

function valueSchemaOf(cls: unknown, at: DefinitionLocation): RecordDataSchema {
  if (typeof cls !== 'function') {
    throw new ResourceDefinitionError(at, "'value' must be a generated record class (e.g. Photo)");
  }
  let schema: unknown;
  try {
    schema = new (cls as new () => RecordTemplate)().schema();
  } catch (err) {
    throw new ResourceDefinitionError(
      at,
      `'value' is not a usable generated record class: ${(err as Error).message}`,
    );
  }
  if (typeof (schema as RecordDataSchema | undefined)?.getFields !== 'function') {
    throw new ResourceDefinitionError(
      at,
      "'value' must be a generated record class whose schema is a record",
    );
  }
  return schema as RecordDataSchema;
}

function returnsOf(v: unknown, at: DefinitionLocation): ValueType<unknown> | undefined {
  if (v === undefined) return undefined;
  if (!isValueType(v))
    throw new ResourceDefinitionError(at, "'returns' must be a value type (INT, recordOf(R), ...)");
  return v;
}

/** A finder, batch finder or action name: letters, digits and _, not starting with a digit. */
function checkMethodName(name: string, at: DefinitionLocation): void {
  if (!METHOD_NAME.test(name)) {
    throw new ResourceDefinitionError(
      at,
      'a method name must be letters, digits and _, not starting with a digit',
    );
  }
}

/** The spec keys of a batch finder definition (`batchFinder(...)` makes exactly these). */
const BATCH_FINDER_KEYS = new Set([
  'kind',
  'form',
  'batchParam',
  'params',
  'paging',
  'metadata',
  'maxBatchSize',
  'concurrency',
  'doc',
  'handler',
]);

/** Compiles the `batchFinders` map (brief, "BATCH_FINDER" 1–8). */
function compileBatchFinders(
  value: unknown,
  at: DefinitionLocation,
  model: { assocParts: ReadonlyMap<string, ValueType<unknown>> | undefined },
): Map<string, MethodModel> {
  const out = new Map<string, MethodModel>();
  if (value === undefined) return out;
  if (!isObject(value))
    throw new ResourceDefinitionError(at, "'batchFinders' must be an object of name to definition");
  for (const [name, def] of Object.entries(value)) {
    const label = `batch finder '${name}'`;
    const mat = { ...at, method: label };
    checkMethodName(name, mat);
    if (
      !isObject(def) ||
      def.kind !== 'batchFinder' ||
      (def.form !== 'batch' && def.form !== 'perCriterion') ||
      typeof def.handler !== 'function'
    ) {
      throw new ResourceDefinitionError(
        mat,
        'must be declared with batchFinder(...) or batchFinder.perCriterion(...)',
      );
    }
    for (const key of Object.keys(def)) {
      if (!BATCH_FINDER_KEYS.has(key)) {
        throw new ResourceDefinitionError(
          { ...mat, parameter: key },
          `unknown option '${key}': a batch finder's only context is paging (ctx.paging), its parameters are in 'params'`,
        );
      }
    }
    if (typeof def.batchParam !== 'string' || def.batchParam === '') {
      throw new ResourceDefinitionError(mat, "'batchParam' is required: the name of the batch parameter");
    }
    const params = compileParams(def.params, {
      at: mat,
      source: 'query',
      batchParam: def.batchParam,
      ...(model.assocParts !== undefined ? { assocParts: model.assocParts } : {}),
    });
    const paging = pagingOf(def.paging, mat);
    const concurrency = def.form === 'perCriterion' ? def.concurrency : 1;
    if (
      typeof concurrency !== 'number' ||
      !(concurrency >= 1) ||
      (!Number.isInteger(concurrency) && concurrency !== Infinity)
    ) {
      throw new ResourceDefinitionError(
        { ...mat, parameter: 'concurrency' },
        "'concurrency' must be a positive integer (or Infinity)",
      );
    }
    const max = def.maxBatchSize;
    if (max !== undefined && !isBatchLimit(max)) {
      throw new ResourceDefinitionError(
        { ...mat, parameter: 'maxBatchSize' },
        "'maxBatchSize' must be a positive integer",
      );
    }
    if (def.metadata !== undefined) valueSchemaOf(def.metadata, { ...mat, parameter: 'metadata' });
    out.set(name, {
      method: 'batch_finder',
      name,
      label,
      handler: (def.handler as AnyHandler).bind(def),
      params,
      selfPaging: paging.self,
      pagingDefaults: paging.defaults,
      returns: undefined,
      ...(params.attachments === undefined ? {} : { attachments: 'param' as const }),
      batch: Object.freeze({
        param: def.batchParam,
        criteria: params.criteria!.criteria!,
        form: def.form,
        concurrency,
        maxBatchSize: max,
      }),
    });
  }
  return out;
}

/** Compiles the `finders`, `actions`, `entityActions` maps. */
function compileNamed(
  kind: 'finders' | 'actions' | 'entityActions',
  value: unknown,
  at: DefinitionLocation,
  model: {
    assocParts: ReadonlyMap<string, ValueType<unknown>> | undefined;
    keyType: KeyType<unknown> | undefined;
  },
): Map<string, MethodModel> {
  const out = new Map<string, MethodModel>();
  if (value === undefined) return out;
  if (!isObject(value))
    throw new ResourceDefinitionError(at, `'${kind}' must be an object of name to definition`);
  const expected = kind === 'finders' ? 'finder' : kind === 'actions' ? 'action' : 'entityAction';
  const helper =
    kind === 'finders' ? 'finder(...)' : kind === 'actions' ? 'action(...)' : 'entityAction(...)';
  for (const [name, def] of Object.entries(value)) {
    const label = `${expected === 'entityAction' ? 'entity action' : expected} '${name}'`;
    const mat = { ...at, method: label };
    checkMethodName(name, mat);
    if (!isObject(def) || def.kind !== expected || typeof def.handler !== 'function') {
      throw new ResourceDefinitionError(mat, `must be declared with ${helper}`);
    }
    if (kind === 'entityActions' && def.key !== undefined && def.key !== model.keyType) {
      if (!isKeyType(def.key) || model.keyType === undefined || def.key.typeName !== model.keyType.typeName) {
        throw new ResourceDefinitionError(
          mat,
          `'key' is not the resource's key type (${model.keyType?.typeName ?? 'none'})`,
        );
      }
    }
    const params = compileParams(def.params, {
      at: mat,
      source: kind === 'finders' ? 'query' : 'body',
      ...(kind === 'finders' && model.assocParts !== undefined ? { assocParts: model.assocParts } : {}),
    });
    const paging = kind === 'finders' ? pagingOf(def.paging, mat) : { self: false, defaults: DEFAULT_PAGING };
    out.set(name, {
      method: kind === 'finders' ? 'finder' : 'action',
      name,
      label,
      handler: (def.handler as AnyHandler).bind(def),
      params,
      selfPaging: paging.self,
      pagingDefaults: paging.defaults,
      returns: kind === 'finders' ? undefined : returnsOf(def.returns, mat),
      ...(params.attachments === undefined ? {} : { attachments: 'param' as const }),
    });
  }
  return out;
}

type ResourceKind = ResourceModel['kind'];

/** A resource's keys, compiled: its key type and name, its association's parts, the key names in its path. */
interface CompiledKeys {
  readonly keyType: KeyType<unknown> | undefined;
  readonly keyName: string | undefined;
  readonly assocParts: Map<string, ValueType<unknown>> | undefined;
  /** The parents' key names and this resource's own: a subresource may use none of them again. */
  readonly keyNames: ReadonlySet<string>;
}

/** A resource's methods, compiled: the unnamed ones by method, the named ones by name. */
interface CompiledMethods {
  readonly methods: Map<ResourceMethod, MethodModel>;
  readonly finders: Map<string, MethodModel>;
  readonly batchFinders: Map<string, MethodModel>;
  readonly actions: Map<string, MethodModel>;
  readonly entityActions: Map<string, MethodModel>;
}

/**
 * Checks a resource definition and compiles it (subresources too). `parentPath` and `pathKeyNames` are the
 * parent's, for subresources.
 * @throws ResourceDefinitionError
 */
export function registerResource(
  definition: unknown,
  serverFilters: readonly RequestFilter[] = [],
  parentPath = '',
  pathKeyNames: ReadonlySet<string> = new Set(),
): ResourceModel {
  const rawName = isObject(definition) && typeof definition.name === 'string' ? definition.name : '';
  const path = parentPath === '' ? rawName : `${parentPath}/${rawName}`;
  const at: DefinitionLocation = { resource: path === '' ? '?' : path };
  const { def, kind } = checkedDefinition(definition, rawName, at);
  const valueSchema = valueSchemaOf(def.value, at);
  const keys = compileKeys(def, kind, rawName, pathKeyNames, at);
  const { keyType, keyName, assocParts } = keys;
  // one problem at a time: a definition with several is always refused for the first in this order
  const methods = compileMethods(def.methods, kind, keys, at);
  const filters = compileFilters(def.filters, serverFilters, at);
  const subresources = compileSubresources(def.subresources, serverFilters, path, keys.keyNames, at);
  const alternativeKeys = compileAlternativeKeys(def.alternativeKeys, keyType, at);
  return Object.freeze({
    kind,
    name: rawName,
    path,
    keyType,
    keyName,
    alternativeKeys,
    assocParts,
    valueClass: def.value as RecordClass<RecordTemplate>,
    valueSchema,
    ...methods,
    subresources,
    filters,
    validation: validationChoice(def.validation, at),
    timeout: timeoutOption(def.timeout, at),
    fieldRules: compileFieldRules(def, valueSchema, at),
    definition: def as unknown as ResourceDefinition,
  });
}

/** A definition that has a good name and matches its interface, and its kind. */
function checkedDefinition(
  def: unknown,
  rawName: string,
  at: DefinitionLocation,
): { readonly def: Record<string, unknown>; readonly kind: ResourceKind } {
  if (!isObject(def))
    throw new ResourceDefinitionError(
      at,
      'a resource must be declared with collection(), association() or simple()',
    );
  if (!NAME.test(rawName)) {
    throw new ResourceDefinitionError(
      at,
      `'name' must be letters, digits, _ and -, starting with a letter or _ (got '${rawName}')`,
    );
  }
  // an implementation must match its interface, whatever its handlers' static types said
  checkImplementation(def, at);
  const kind = def.kind;
  if (kind !== 'collection' && kind !== 'association' && kind !== 'simple') {
    throw new ResourceDefinitionError(
      at,
      'a resource must be declared with collection(), association() or simple()',
    );
  }
  return { def, kind };
}

/** A collection's key, an association's key parts (a simple resource has neither). */
function compileKeys(
  def: Record<string, unknown>,
  kind: ResourceKind,
  rawName: string,
  pathKeyNames: ReadonlySet<string>,
  at: DefinitionLocation,
): CompiledKeys {
  const keyNames = new Set(pathKeyNames);
  if (kind === 'collection') {
    if (!isKeyType(def.key) || def.key.kind === 'compound') {
      throw new ResourceDefinitionError(
        { ...at, parameter: 'key' },
        "'key' must be a key type (LONG_KEY, STRING_KEY, simpleKey(T), complexKey(K, P))",
      );
    }
    const keyName = typeof def.keyName === 'string' && def.keyName !== '' ? def.keyName : `${rawName}Id`;
    if (keyNames.has(keyName))
      throw new ResourceDefinitionError(
        { ...at, parameter: keyName },
        'the key name is already used by a parent resource',
      );
    keyNames.add(keyName);
    return { keyType: def.key, keyName, assocParts: undefined, keyNames };
  }
  if (kind === 'simple') return { keyType: undefined, keyName: undefined, assocParts: undefined, keyNames };
  if (!isObject(def.assocKeys) || Object.keys(def.assocKeys).length < 2) {
    throw new ResourceDefinitionError(
      at,
      "'assocKeys' must name at least two key parts (part name → LONG, STRING, enumOf(E), ...)",
    );
  }
  const assocParts = new Map<string, ValueType<unknown>>();
  for (const [part, type] of Object.entries(def.assocKeys)) {
    const pat = { ...at, parameter: part };
    if (!METHOD_NAME.test(part))
      throw new ResourceDefinitionError(pat, 'a key part name must be letters, digits and _');
    if (!isValueType(type) || keyPartTypeOf(type) === undefined) {
      throw new ResourceDefinitionError(pat, 'a key part must be of a primitive or enum type');
    }
    if (keyNames.has(part))
      throw new ResourceDefinitionError(pat, 'the key part name is already used by a parent resource');
    keyNames.add(part);
    assocParts.set(part, type);
  }
  if (!isKeyType(def.key)) throw new ResourceDefinitionError(at, 'declare associations with association()');
  return {
    keyType: def.key,
    keyName: typeof def.keyName === 'string' ? def.keyName : undefined,
    assocParts,
    keyNames,
  };
}

/** The `methods` of a definition: each handler checked against the resource kind's methods, and compiled. */
function compileMethods(
  methodsDef: unknown,
  kind: ResourceKind,
  keys: CompiledKeys,
  at: DefinitionLocation,
): CompiledMethods {
  const { assocParts, keyType } = keys;
  const table =
    kind === 'collection'
      ? COLLECTION_METHODS
      : kind === 'association'
        ? ASSOCIATION_METHODS
        : SIMPLE_METHODS;
  if (!isObject(methodsDef)) throw new ResourceDefinitionError(at, "'methods' must be an object of handlers");
  const out: { -readonly [K in keyof CompiledMethods]: CompiledMethods[K] } = {
    methods: new Map(),
    finders: new Map(),
    batchFinders: new Map(),
    actions: new Map(),
    entityActions: new Map(),
  };
  for (const [prop, value] of Object.entries(methodsDef)) {
    if (value === undefined) continue;
    const mat = { ...at, method: prop };
    if (NAMED.has(prop)) {
      if (prop === 'finders' && kind === 'simple')
        throw new ResourceDefinitionError(mat, 'a simple resource has no finders');
      if (prop === 'batchFinders') {
        if (kind === 'simple')
          throw new ResourceDefinitionError(
            mat,
            'a simple resource has no batch finders (only collections and associations do)',
          );
        out.batchFinders = compileBatchFinders(value, at, { assocParts });
        continue;
      }
      if (prop === 'entityActions' && kind === 'simple') {
        throw new ResourceDefinitionError(
          mat,
          "a simple resource's actions are its entity's: declare them in 'actions'",
        );
      }
      const which = prop as 'finders' | 'actions' | 'entityActions';
      out[which] = compileNamed(which, value, at, { assocParts, keyType });
      continue;
    }
    const method = table.get(prop);
    if (method === undefined) {
      const known = [...table.keys(), ...(kind === 'simple' ? ['actions'] : [...NAMED])].join(', ');
      throw new ResourceDefinitionError(
        mat,
        `unknown method '${prop}' for a ${kind} resource (known: ${known})`,
      );
    }
    if (prop === 'getAll' && isObject(value)) {
      // get_all declared with finder(...): parameters and paging
      const compiled = compileNamed('finders', { getAll: value }, at, { assocParts, keyType }).get('getAll')!;
      out.methods.set('get_all', { ...compiled, method: 'get_all', name: undefined, label: 'get_all' });
      continue;
    }
    out.methods.set(method, compilePlainMethod(prop, method, value, mat));
  }
  return out;
}

/** An unnamed method's handler (get, create, batch_get, ...), with its attachments and batch limit. */
function compilePlainMethod(
  prop: string,
  method: ResourceMethod,
  value: unknown,
  mat: DefinitionLocation,
): MethodModel {
  if (typeof value !== 'function')
    throw new ResourceDefinitionError(mat, 'a method handler must be a function');
  const withReader = attachmentsHandler(value);
  const max = maxBatchSizeOf(value);
  if (max !== undefined) {
    if (!BATCH_METHOD_PROPERTIES.has(prop))
      throw new ResourceDefinitionError(
        { ...mat, parameter: 'maxBatchSize' },
        `'maxBatchSize' applies to batch methods only (${[...BATCH_METHOD_PROPERTIES].join(', ')})`,
      );
    if (!isBatchLimit(max))
      throw new ResourceDefinitionError(
        { ...mat, parameter: 'maxBatchSize' },
        "'maxBatchSize' must be a positive integer",
      );
  }
  return {
    method,
    name: undefined,
    label: method,
    handler: (withReader ?? value) as AnyHandler,
    ...(withReader === undefined ? {} : { attachments: 'argument' as const }),
    ...(max === undefined ? {} : { maxBatchSize: max }),
    params: undefined,
    selfPaging: false,
    pagingDefaults: DEFAULT_PAGING,
    returns: undefined,
  };
}

/** The server's filters, then the resource's own (which may not have a request stage). */
function compileFilters(
  filtersDef: unknown,
  serverFilters: readonly RequestFilter[],
  at: DefinitionLocation,
): RequestFilter[] {
  const filters: RequestFilter[] = [...serverFilters];
  if (filtersDef === undefined) return filters;
  if (!Array.isArray(filtersDef))
    throw new ResourceDefinitionError(at, "'filters' must be a list of request filters");
  for (const f of filtersDef as unknown[]) {
    if (!isObject(f) || typeof f.name !== 'string')
      throw new ResourceDefinitionError(at, 'a filter must have a name');
    if (f.request !== undefined) {
      throw new ResourceDefinitionError(
        { ...at, method: `filter '${f.name}'` },
        'a resource filter cannot have a request stage (it runs before routing); give it to the server',
      );
    }
    filters.push(f as unknown as RequestFilter);
  }
  return filters;
}

/** The subresources, registered below `path` (their names unique, their key names new). */
function compileSubresources(
  subresourcesDef: unknown,
  serverFilters: readonly RequestFilter[],
  path: string,
  keyNames: ReadonlySet<string>,
  at: DefinitionLocation,
): Map<string, ResourceModel> {
  const subresources = new Map<string, ResourceModel>();
  if (subresourcesDef === undefined) return subresources;
  if (!Array.isArray(subresourcesDef))
    throw new ResourceDefinitionError(at, "'subresources' must be a list of resources");
  for (const sub of subresourcesDef as unknown[]) {
    const model = registerResource(sub, serverFilters, path, keyNames);
    if (subresources.has(model.name))
      throw new ResourceDefinitionError(
        { resource: model.path },
        'a subresource of this name is already registered',
      );
    subresources.set(model.name, model);
  }
  return subresources;
}

/**
 * Registers the root resources of a server.
 * @throws ResourceDefinitionError for a bad definition or two resources of one name
 */
export function registerResources(
  defs: readonly unknown[],
  serverFilters: readonly RequestFilter[] = [],
): Map<string, ResourceModel> {
  const out = new Map<string, ResourceModel>();
  for (const def of defs) {
    const model = registerResource(def, serverFilters);
    if (out.has(model.name))
      throw new ResourceDefinitionError(
        { resource: model.name },
        'a resource of this name is already registered',
      );
    out.set(model.name, model);
  }
  return out;
}

/** The key type of one alternative key: the wire form of the alternative, the handlers' form of the resource. */
export interface AlternativeKeyType extends KeyType<unknown> {
  /** The `altkey` name. */
  readonly altName: string;
}

const NO_ALTERNATIVE_KEYS: ReadonlyMap<string, AlternativeKeyType> = new Map();

function compileAlternativeKeys(
  defs: unknown,
  keyType: KeyType<unknown> | undefined,
  at: DefinitionLocation,
): ReadonlyMap<string, AlternativeKeyType> {
  if (defs === undefined) return NO_ALTERNATIVE_KEYS;
  if (!isObject(defs) || keyType === undefined) {
    throw new ResourceDefinitionError(
      { ...at, parameter: 'alternativeKeys' },
      keyType === undefined
        ? 'only collections and associations have alternative keys'
        : "'alternativeKeys' must be an object of name → alternativeKey({...})",
    );
  }
  const out = new Map<string, AlternativeKeyType>();
  for (const [name, raw] of Object.entries(defs)) {
    const pat = { ...at, parameter: `alternativeKeys.${name}` };
    const alt = raw as Partial<AlternativeKey<unknown, unknown>> | undefined;
    if (!METHOD_NAME.test(name))
      throw new ResourceDefinitionError(pat, 'an alternative key name must be letters, digits and _');
    if (
      alt?.kind !== 'alternativeKey' ||
      !isKeyType(alt.key) ||
      typeof alt.toKey !== 'function' ||
      typeof alt.fromKey !== 'function'
    ) {
      throw new ResourceDefinitionError(
        pat,
        'declare alternative keys with alternativeKey({ key, toKey, fromKey })',
      );
    }
    if (alt.key.kind === 'compound') {
      throw new ResourceDefinitionError(
        pat,
        'an alternative key is a simple or complex key, not a compound one',
      );
    }
    out.set(name, alternativeKeyType(name, alt as AlternativeKey<unknown, unknown>));
  }
  return out;
}

function alternativeKeyType(name: string, alt: AlternativeKey<unknown, unknown>): AlternativeKeyType {
  const wire = alt.key;
  return Object.freeze({
    altName: name,
    kind: wire.kind,
    typeName: wire.typeName,
    spec: wire.spec,
    fromProtocol(key: ResourceKey): unknown {
      const value = wire.fromProtocol(key);
      let canonical: unknown;
      try {
        canonical = alt.toKey(value);
      } catch (err) {
        if (isServiceError(err)) throw err;
        throw new InvalidKeyError(
          `Invalid alternative key '${name}' value '${String(value)}': ${(err as Error).message}`,
          (err as Error).message,
          { cause: err },
        );
      }
      if (
        canonical === undefined ||
        canonical === null ||
        (typeof canonical === 'number' && Number.isNaN(canonical))
      ) {
        throw new InvalidKeyError(`Invalid alternative key '${name}' value '${String(value)}'`);
      }
      return canonical;
    },
    toProtocol: (key: unknown): ResourceKey => wire.toProtocol(alt.fromKey(key)),
  });
}

function validationChoice(v: unknown, at: DefinitionLocation): boolean | undefined {
  if (v === undefined || typeof v === 'boolean') return v;
  throw new ResourceDefinitionError(at, "'validation' must be true or false");
}

/** A `timeout` option (ms): a positive finite number, or undefined. */
export function timeoutOption(v: unknown, at: DefinitionLocation): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 2 ** 31 - 1) return v;
  throw new ResourceDefinitionError(
    { ...at, parameter: 'timeout' },
    "'timeout' must be a positive number of milliseconds",
  );
}
