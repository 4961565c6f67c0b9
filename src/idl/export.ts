import { ByteString, DataList, DataMap, type DataValue } from '../data';
import type { ArrayDataSchema } from '../schema/array-schema';
import type { DataSchema } from '../schema/data-schema';
import type { MapDataSchema } from '../schema/map-schema';
import type { NamedDataSchema } from '../schema/named-schema';
import type { RecordDataSchema } from '../schema/record-schema';
import { parseSchema } from '../schema/schema-resolver';
import { schemaToJson, schemasToJson } from '../schema/schema-to-json';
import type { UnionDataSchema } from '../schema/union-schema';
import { dataToJson } from '../schema/value-text';
import { type DefinitionLocation, ResourceDefinitionError } from '../resources/errors';
import { interfaceOf } from '../resources/interface';
import { COLLECTION_METHODS } from '../resources/registration';
import { type KeyType, isKeyType } from '../resources/key-types';
import { type CompiledParam, type ParamSource, compileParams } from '../resources/params';
import { type ValueType, isValueType } from '../resources/value-types';
import { type IdlJsonValue, idlJsonText, inlineJsonText, orderedBySchema } from './idl-json';
import {
  type ActionSchema,
  type AlternativeKeySchema,
  type AssocKeySchema,
  type BatchFinderSchema,
  type EntitySchema,
  type FinderSchema,
  type IdlJsonObject,
  type IdentifierSchema,
  type OptionsResponse,
  type ParameterSchema,
  type ResourceSchema,
  type RestMethodSchema,
  type RestSpec,
  type Snapshot,
  type SnapshotModel,
  REST_METHOD_ORDER,
  RESTSPEC_SUFFIX,
  SNAPSHOT_SUFFIX,
  idlFileName,
} from './restspec-model';
import { restspecSchemas, validateRestSpec } from './validate-restspec';
import { withMethodAnnotations } from './method-annotations';

/**
 * Export of the interface description: Svc resource definitions (or interfaces: anything with their
 * shape, handlers or not) to Rest.li's `ResourceSchema` (`.restspec.json`) and snapshot (`.snapshot.json`),
 * written as Rest.li's tools write them: members in the order of the format's records, `supports` sorted,
 * methods in Rest.li's order (create, get, update, partial_update, delete, then the batch ones, get_all),
 * finders, batch finders, actions and subresources by name, association keys by name, unnamed parameter
 * types as one-line schema JSON text.
 *
 * What Svc has no counterpart for is left out (`javaMethodName`, `resourceClass`, `throws`); what every Svc
 * finder, batch finder and get_all can do is said (`pagingSupported`: the framework pages when the handler
 * does not).
 */

/** Options of {@link exportIdl}. */
export interface ExportIdlOptions {
  /**
   * The namespace of root resources that declare none (their subresources inherit their parent's). Default:
   * none: such a resource's IDL has no `namespace` and its file is `<name>.restspec.json`.
   */
  readonly namespace?: string;
  /**
   * Validate every exported resource against the format's schemas (default false: the exporter's output is
   * checked by its tests; turn it on to check a new kind of definition).
   * @throws IdlFormatError when a resource does not validate
   */
  readonly validate?: boolean;
}

/** What {@link exportIdl} produces: file name → content, per kind of file. */
export interface IdlExport {
  /** `<namespace>.<name>.restspec.json` → the root resource. */
  readonly restspecs: ReadonlyMap<string, RestSpec>;
  /** `<namespace>.<name>.snapshot.json` → the resource and every named schema it uses. */
  readonly snapshots: ReadonlyMap<string, Snapshot>;
}

/** One root resource exported: its `ResourceSchema` and the named schemas it refers to (sorted by full name). */
export interface ExportedResource {
  readonly schema: ResourceSchema;
  /** Every named schema the resource uses, directly or through other schemas, by full name. */
  readonly models: readonly NamedDataSchema[];
}

type Json = IdlJsonValue;
type Def = { readonly [key: string]: unknown };

function isObject(v: unknown): v is Def {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function docOf(v: unknown): string | undefined {
  const doc = (typeof v === 'object' || typeof v === 'function') && v !== null ? (v as Def).doc : undefined;
  return typeof doc === 'string' && doc !== '' ? doc : undefined;
}

/** The `deprecated` custom annotation Rest.li writes for `@Deprecated` / `@deprecated` (doc when given). */
function annotationsOf(v: unknown): { annotations?: Readonly<Record<string, IdlJsonObject>> } {
  if (!isObject(v) && typeof v !== 'function') return {};
  const d = (v as Def).deprecated;
  if (d === undefined || d === false) return {};
  return { annotations: { deprecated: typeof d === 'string' && d !== '' ? { doc: d } : {} } };
}

/**
 * A resource's annotations: `deprecated`, and its read-only and create-only fields as Rest.li writes its
 * `@ReadOnly` / `@CreateOnly` (`"readOnly": { "value": ["id"] }`), by name as its writer orders them.
 */
function resourceAnnotationsOf(v: unknown): { annotations?: Readonly<Record<string, IdlJsonObject>> } {
  const own: Record<string, IdlJsonObject> = { ...(annotationsOf(v).annotations ?? {}) };
  if (isObject(v)) {
    for (const name of ['readOnly', 'createOnly'] as const) {
      const paths = v[name];
      if (Array.isArray(paths) && paths.length > 0)
        own[name] = { value: paths.filter((p): p is string => typeof p === 'string') };
    }
  }
  const names = Object.keys(own).sort();
  if (names.length === 0) return {};
  return { annotations: Object.fromEntries(names.map((n) => [n, own[n]!])) };
}

/** Handler property → the method as the IDL names it (the server's own table). */
const METHOD_OF_PROPERTY: ReadonlyMap<string, string> = COLLECTION_METHODS;
const SIMPLE_METHODS: ReadonlySet<string> = new Set(['get', 'update', 'partial_update', 'delete']);
const NAMED_GROUPS: ReadonlySet<string> = new Set(['finders', 'batchFinders', 'actions', 'entityActions']);

/** The complex-key params record Rest.li writes when a complex key has none (`ComplexResourceKey<K, EmptyRecord>`). */
let emptyRecord: NamedDataSchema | undefined;
function emptyRecordSchema(): NamedDataSchema {
  emptyRecord ??= parseSchema(
    '{"type":"record","name":"EmptyRecord","namespace":"com.linkedin.restli.common","doc":"An empty record: the parameters of a complex key that takes none.","fields":[]}',
  ) as NamedDataSchema;
  return emptyRecord;
}

function byName<T>(entries: [string, T][]): [string, T][] {
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The export of one resource tree, collecting the named schemas it refers to. */
class Encoder {
  readonly refs = new Set<NamedDataSchema>();

  /** A type as the IDL writes it: a name, or the one-line JSON of an unnamed schema. */
  typeOf(schema: DataSchema): string {
    if (schema.isPrimitive()) return schema.getUnionMemberKey();
    const json = this.typeJson(schema);
    return typeof json === 'string' ? json : inlineJsonText(json);
  }

  private typeJson(schema: DataSchema): Json {
    if (schema.isPrimitive()) return schema.getUnionMemberKey();
    switch (schema.getType()) {
      case 'ARRAY':
        return { type: 'array', items: this.typeJson((schema as ArrayDataSchema).getItems()) };
      case 'MAP':
        return { type: 'map', values: this.typeJson((schema as MapDataSchema).getValues()) };
      case 'UNION':
        return (schema as UnionDataSchema).getMembers().map((m) => this.typeJson(m.getType()));
      default: {
        const named = schema as NamedDataSchema;
        this.refs.add(named);
        return named.getFullName();
      }
    }
  }

  valueTypeOf(type: ValueType<unknown>): string {
    return this.typeOf(type.schema());
  }

  keyTypeOf(key: KeyType<unknown>): string {
    const spec = key.spec as { kind: string; type?: unknown };
    const valueType = (key as { valueType?: unknown }).valueType;
    if (spec.kind === 'simple' && isValueType(valueType)) return this.valueTypeOf(valueType);
    if (spec.kind === 'simple') {
      const t = spec.type;
      return typeof t === 'string' ? t : this.typeOf(t as DataSchema);
    }
    const cls = (key as { keyClass?: new () => { schema(): DataSchema } }).keyClass;
    if (cls !== undefined) return this.typeOf(new cls().schema());
    return key.typeName;
  }

  params(
    specs: unknown,
    at: DefinitionLocation,
    source: ParamSource,
    extra: { assocParts?: ReadonlyMap<string, ValueType<unknown>>; batchParam?: string } = {},
  ): { parameters?: ParameterSchema[]; assocKeys?: string[] } {
    const compiled = compileParams(specs ?? {}, { at, source, ...extra });
    const parameters: ParameterSchema[] = [];
    const assocKeys: string[] = [];
    for (const p of compiled.params) {
      if (p.attachments === true) continue; // attachments travel beside the request, not as a parameter
      if (p.assocPart !== undefined) {
        assocKeys.push(p.assocPart);
        continue;
      }
      parameters.push(this.param(p));
    }
    return {
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(assocKeys.length > 0 ? { assocKeys } : {}),
    };
  }

  private param(p: CompiledParam): ParameterSchema {
    const type = this.valueTypeOf(p.type);
    if (p.defaultValue !== undefined) return { name: p.name, type, default: defaultText(p) };
    return p.optional ? { name: p.name, type, optional: true } : { name: p.name, type };
  }

  metadata(v: unknown): { metadata?: { type: string } } {
    if (typeof v !== 'function') return {};
    return { metadata: { type: this.typeOf(new (v as new () => { schema(): DataSchema })().schema()) } };
  }

  finder(name: string, f: unknown, at: DefinitionLocation, assocParts: AssocParts): FinderSchema {
    const def = isObject(f) ? f : {};
    const fat = { ...at, method: `finder '${name}'` };
    return {
      ...annotationsOf(f),
      name,
      ...optionalDoc(f),
      ...this.params(def.params, fat, 'query', assocParts === undefined ? {} : { assocParts }),
      ...this.metadata(def.metadata),
      pagingSupported: true,
    };
  }

  batchFinder(name: string, f: unknown, at: DefinitionLocation, assocParts: AssocParts): BatchFinderSchema {
    const def = isObject(f) ? f : {};
    const fat = { ...at, method: `batch finder '${name}'` };
    const batchParam = typeof def.batchParam === 'string' ? def.batchParam : '';
    if (batchParam === '') throw new ResourceDefinitionError(fat, "a batch finder needs its 'batchParam'");
    const max = def.maxBatchSize;
    return {
      ...annotationsOf(f),
      name,
      ...optionalDoc(f),
      ...this.params(def.params, fat, 'query', {
        ...(assocParts === undefined ? {} : { assocParts }),
        batchParam,
      }),
      ...this.metadata(def.metadata),
      pagingSupported: true,
      batchParam,
      // Svc refuses larger batches: the limit is validated
      ...(typeof max === 'number' ? { maxBatchSize: { value: max, validate: true } } : {}),
    };
  }

  action(name: string, a: unknown, at: DefinitionLocation, label: string): ActionSchema {
    const def = isObject(a) ? a : {};
    const returns = def.returns;
    return {
      ...annotationsOf(a),
      name,
      ...(def.readOnly === true ? { readOnly: true } : {}),
      ...optionalDoc(a),
      ...this.params(def.params, { ...at, method: `${label} '${name}'` }, 'body'),
      ...(isValueType(returns) ? { returns: this.valueTypeOf(returns) } : {}),
      // kept when an interface imported from a Java service's IDL carries them
      ...(Array.isArray(def.throws) && def.throws.every((t) => typeof t === 'string') && def.throws.length > 0
        ? { throws: [...def.throws] }
        : {}),
    };
  }

  actions(group: unknown, at: DefinitionLocation, label: string): ActionSchema[] {
    if (!isObject(group)) return [];
    return byName(Object.entries(group).filter(([, v]) => v !== undefined)).map(([n, a]) =>
      this.action(n, a, at, label),
    );
  }

  /** The `ResourceSchema` of `def`, mounted at `parentPath` (the parent's entity path; '' for a root). */
  resource(given: unknown, parentPath: string, inherited: string | undefined): ResourceSchema {
    // annotations a definition offers per method (access rules: src/security/) are merged in afterwards
    return withMethodAnnotations(this.resourceOf(given, parentPath, inherited), given);
  }

  private resourceOf(given: unknown, parentPath: string, inherited: string | undefined): ResourceSchema {
    const def = interfaceView(given);
    const name = isObject(def) && typeof def.name === 'string' ? def.name : '';
    const path = `${parentPath}/${name}`;
    const at: DefinitionLocation = { resource: path.slice(1) || '?' };
    if (!isObject(def) || name === '')
      throw new ResourceDefinitionError(at, 'not a resource definition or interface (it has no name)');
    const ownNamespace =
      typeof def.namespace === 'string' && def.namespace !== '' ? def.namespace : undefined;
    const namespace = ownNamespace ?? inherited;
    const head = {
      ...resourceAnnotationsOf(def),
      name,
      ...(namespace === undefined ? {} : { namespace }),
      path,
    };
    const kind = def.kind;
    if (kind === 'actionsSet') {
      return {
        ...head,
        ...optionalDoc(def),
        // an actionsSetInterface holds its actions as `methods.actions`, as the client reads them
        actionsSet: {
          actions: this.actions(
            def.actions ?? (isObject(def.methods) ? def.methods.actions : undefined),
            at,
            'action',
          ),
        },
      };
    }
    if (kind !== 'collection' && kind !== 'association' && kind !== 'simple')
      throw new ResourceDefinitionError(at, `unknown resource kind '${String(kind)}'`);
    const value = this.valueSchema(def.value, at);
    const top = { ...head, schema: this.typeOf(value), ...optionalDoc(def) };
    const methods = isObject(def.methods) ? def.methods : {};
    const present = presentMethods(def.methods, kind);

    if (kind === 'simple') {
      const actions = this.actions(methods.actions, at, 'action');
      return {
        ...top,
        simple: {
          supports: [...present.keys()].sort(),
          ...this.restMethods(present, at, undefined),
          ...(actions.length > 0 ? { actions } : {}),
          entity: this.entity(path, undefined, def, namespace),
        },
      };
    }

    let assocParts: Map<string, ValueType<unknown>> | undefined;
    let keyPart: { identifier: IdentifierSchema } | { identifier: string; assocKeys: AssocKeySchema[] };
    let keyName: string;
    if (kind === 'collection') {
      if (!isKeyType(def.key))
        throw new ResourceDefinitionError({ ...at, parameter: 'key' }, "'key' must be a key type");
      keyName = typeof def.keyName === 'string' && def.keyName !== '' ? def.keyName : `${name}Id`;
      keyPart = { identifier: this.identifier(keyName, def.key) };
    } else {
      if (!isObject(def.assocKeys))
        throw new ResourceDefinitionError(at, "'assocKeys' must name the key parts");
      assocParts = new Map();
      const assocKeys: AssocKeySchema[] = [];
      for (const [part, type] of byName(Object.entries(def.assocKeys))) {
        if (!isValueType(type))
          throw new ResourceDefinitionError({ ...at, parameter: part }, 'a key part must be a value type');
        assocParts.set(part, type);
        assocKeys.push({ name: part, type: this.valueTypeOf(type) });
      }
      // Svc names an association's key by its parts; the IDL by one identifier, `<name>Id` as Rest.li's default
      const own =
        typeof def.keyName === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(def.keyName) ? def.keyName : '';
      keyName = own !== '' ? own : `${name}Id`;
      keyPart = { identifier: keyName, assocKeys };
    }
    const alternativeKeys = this.alternativeKeys(def.alternativeKeys, at);
    const finders = isObject(methods.finders)
      ? byName(Object.entries(methods.finders).filter(([, v]) => v !== undefined)).map(([n, f]) =>
          this.finder(n, f, at, assocParts),
        )
      : [];
    const batchFinders = isObject(methods.batchFinders)
      ? byName(Object.entries(methods.batchFinders).filter(([, v]) => v !== undefined)).map(([n, f]) =>
          this.batchFinder(n, f, at, assocParts),
        )
      : [];
    const actions = this.actions(methods.actions, at, 'action');
    const body = {
      ...keyPart,
      ...(alternativeKeys.length > 0 ? { alternativeKeys } : {}),
      supports: [...present.keys()].sort(),
      ...this.restMethods(present, at, assocParts),
      ...(finders.length > 0 ? { finders } : {}),
      ...(batchFinders.length > 0 ? { batchFinders } : {}),
      ...(actions.length > 0 ? { actions } : {}),
      entity: this.entity(`${path}/{${keyName}}`, methods.entityActions, def, namespace),
    };
    return kind === 'collection'
      ? { ...top, collection: body as ResourceSchema['collection'] & object }
      : { ...top, association: body as ResourceSchema['association'] & object };
  }

  private valueSchema(cls: unknown, at: DefinitionLocation): RecordDataSchema {
    let schema: unknown;
    try {
      schema =
        typeof cls === 'function' ? new (cls as new () => { schema(): unknown })().schema() : undefined;
    } catch {
      schema = undefined;
    }
    if (typeof (schema as RecordDataSchema | undefined)?.getFields !== 'function')
      throw new ResourceDefinitionError(
        { ...at, parameter: 'value' },
        "'value' must be a generated record class",
      );
    return schema as RecordDataSchema;
  }

  private identifier(name: string, key: KeyType<unknown>): IdentifierSchema {
    if (key.kind !== 'complex') return { name, type: this.keyTypeOf(key) };
    const paramsClass = (key as { paramsClass?: new () => { schema(): DataSchema } }).paramsClass;
    const params = paramsClass !== undefined ? new paramsClass().schema() : emptyRecordSchema();
    return { name, type: this.keyTypeOf(key), params: this.typeOf(params) };
  }

  private alternativeKeys(v: unknown, at: DefinitionLocation): AlternativeKeySchema[] {
    if (!isObject(v)) return [];
    return byName(Object.entries(v)).map(([name, alt]) => {
      const key = isObject(alt) ? alt.key : undefined;
      if (!isKeyType(key))
        throw new ResourceDefinitionError(
          { ...at, parameter: name },
          'an alternative key needs its key type',
        );
      // Rest.li names the Java class that converts keys; in Svc the conversion is the definition's own
      return {
        name,
        ...optionalDoc(alt),
        type: this.keyTypeOf(key),
        keyCoercer: `svc:${at.resource}.${name}`,
      };
    });
  }

  private restMethods(
    present: ReadonlyMap<string, unknown>,
    at: DefinitionLocation,
    assocParts: AssocParts,
  ): { methods?: RestMethodSchema[] } {
    const out: RestMethodSchema[] = [];
    for (const method of REST_METHOD_ORDER) {
      if (!present.has(method)) continue;
      const v = present.get(method);
      const m: RestMethodSchema = { ...annotationsOf(v), method, ...optionalDoc(v) };
      if (method === 'get_all') {
        const def = isObject(v) ? v : {};
        out.push({
          ...m,
          ...this.params(
            def.params,
            { ...at, method: 'get_all' },
            'query',
            assocParts === undefined ? {} : { assocParts },
          ),
          ...this.metadata(def.metadata),
          pagingSupported: true,
        });
      } else {
        // a batch method's own limit (the server-wide default is the server's, not the interface's); Svc
        // refuses larger batches: the limit is validated
        const max = method.startsWith('batch_') && isObject(v) ? v.maxBatchSize : undefined;
        out.push(typeof max === 'number' ? { ...m, maxBatchSize: { value: max, validate: true } } : m);
      }
    }
    return out.length > 0 ? { methods: out } : {};
  }

  private entity(
    path: string,
    entityActions: unknown,
    def: Def,
    namespace: string | undefined,
  ): EntitySchema {
    const actions = this.actions(entityActions, { resource: path }, 'entity action');
    const subs = Array.isArray(def.subresources) ? (def.subresources as unknown[]) : [];
    const subresources = subs
      .map((s) => this.resource(s, path, namespace))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      path,
      ...(actions.length > 0 ? { actions } : {}),
      ...(subresources.length > 0 ? { subresources } : {}),
    };
  }
}

type AssocParts = ReadonlyMap<string, ValueType<unknown>> | undefined;

/** The kinds the interface layer knows (it has no actions-only resource). */
const VIEWED_KINDS: ReadonlySet<unknown> = new Set(['collection', 'association', 'simple']);

/**
 * What to describe: an implementation's interface (where the docs and method specs are), an interface as it
 * is, or the definition itself when it is not one the interface layer knows.
 */
function interfaceView(def: unknown): unknown {
  if (!isObject(def) || !VIEWED_KINDS.has(def.kind)) return def;
  try {
    return interfaceOf(def as unknown as Parameters<typeof interfaceOf>[0]);
  } catch {
    return def;
  }
}

function optionalDoc(v: unknown): { doc?: string } {
  const doc = docOf(v);
  return doc === undefined ? {} : { doc };
}

/** The standard methods a definition or interface has, by IDL name, with what it holds for each. */
function presentMethods(
  methods: unknown,
  kind: 'collection' | 'association' | 'simple',
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const add = (prop: string, value: unknown): void => {
    const method = METHOD_OF_PROPERTY.get(prop);
    if (method === undefined || value === undefined || value === false) return;
    if (kind === 'simple' && !SIMPLE_METHODS.has(method)) return;
    if (kind === 'association' && (method === 'create' || method === 'batch_create')) return;
    out.set(method, value);
  };
  if (Array.isArray(methods)) for (const m of methods) if (typeof m === 'string') add(m, true);
  if (isObject(methods))
    for (const [prop, value] of Object.entries(methods)) if (!NAMED_GROUPS.has(prop)) add(prop, value);
  return out;
}

/** A parameter's default as the IDL writes it: a string as it is, anything else as JSON text. */
function defaultText(p: CompiledParam): string {
  const data: DataValue = p.type.toData(p.defaultValue);
  if (typeof data === 'string') return data;
  if (data instanceof DataMap || data instanceof DataList || data instanceof ByteString)
    return dataToJson(data);
  return String(data);
}

/**
 * Every named schema `roots` use, as Rest.li's snapshot generator finds them: records through their
 * includes and fields, typerefs through what they finally refer to, arrays, maps and unions through their
 * members; sorted by full name.
 */
export function referencedSchemas(roots: Iterable<NamedDataSchema>): NamedDataSchema[] {
  const found = new Map<string, NamedDataSchema>();
  const visit = (schema: DataSchema): void => {
    switch (schema.getType()) {
      case 'ARRAY':
        visit((schema as ArrayDataSchema).getItems());
        return;
      case 'MAP':
        visit((schema as MapDataSchema).getValues());
        return;
      case 'UNION':
        for (const m of (schema as UnionDataSchema).getMembers()) visit(m.getType());
        return;
      default:
        if (schema.isPrimitive()) return;
    }
    const named = schema as NamedDataSchema;
    if (found.has(named.getFullName())) return;
    found.set(named.getFullName(), named);
    if (schema.getType() === 'RECORD') {
      const r = schema as RecordDataSchema;
      for (const inc of r.getInclude()) visit(inc);
      for (const f of r.getFields()) visit(f.getType());
    } else if (schema.getType() === 'TYPEREF') visit(schema.getDereferencedSchema());
  };
  for (const r of roots) visit(r);
  return [...found.values()].sort((a, b) =>
    a.getFullName() < b.getFullName() ? -1 : a.getFullName() > b.getFullName() ? 1 : 0,
  );
}

/** Key order of the format's records, applied to a resource. */
function ordered(resource: ResourceSchema): ResourceSchema {
  return orderedBySchema(
    resource as unknown as Json,
    restspecSchemas().get('ResourceSchema')!,
  ) as unknown as ResourceSchema;
}

/**
 * The `ResourceSchema` of one root resource (a definition or an interface) and the named schemas it uses.
 * @throws ResourceDefinitionError for a definition that cannot be described (naming resource and method)
 */
export function exportResource(resource: unknown, options: ExportIdlOptions = {}): ExportedResource {
  const encoder = new Encoder();
  const schema = ordered(encoder.resource(resource, '', options.namespace));
  return { schema, models: referencedSchemas(encoder.refs) };
}

/**
 * A snapshot's `models`: each schema in full where it first appears (nested ones inside their first user),
 * by full name afterwards, in one writing session as Rest.li's snapshot generator writes them.
 */
export function snapshotModels(models: readonly NamedDataSchema[]): SnapshotModel[] {
  if (models.length === 0) return [];
  return schemasToJson(models)
    .split('\n')
    .map((line) => {
      const model = JSON.parse(line) as SnapshotModel;
      return typeof model === 'string' ? model : (shortNames(model, '') as IdlJsonObject);
    });
}

const NAMED_KINDS: ReadonlySet<unknown> = new Set(['record', 'error', 'enum', 'fixed', 'typeref']);

/**
 * Schema JSON with references to schemas of the enclosing namespace by simple name, as Rest.li's writer
 * has them (`"type" : "Exif"` inside `com.example.photos`); ours writes full names. Both read the same:
 * a simple name is looked up in the enclosing namespace first.
 */
function shortNames(node: unknown, scope: string): unknown {
  if (typeof node === 'string') {
    const dot = node.lastIndexOf('.');
    return dot > 0 && node.slice(0, dot) === scope ? node.slice(dot + 1) : node;
  }
  if (Array.isArray(node)) {
    return node.map((m: unknown) =>
      isObject(m) && typeof m.alias === 'string'
        ? { ...m, type: shortNames(m.type, scope) }
        : shortNames(m, scope),
    );
  }
  if (!isObject(node)) return node;
  const kind = node.type;
  const inner = NAMED_KINDS.has(kind) && typeof node.namespace === 'string' ? node.namespace : scope;
  const out: Record<string, unknown> = { ...node };
  if (kind === 'array') out.items = shortNames(node.items, scope);
  else if (kind === 'map') out.values = shortNames(node.values, scope);
  else if (kind === 'typeref') out.ref = shortNames(node.ref, inner);
  else if (kind === 'record' || kind === 'error') {
    if (Array.isArray(node.include)) out.include = node.include.map((i: unknown) => shortNames(i, inner));
    if (Array.isArray(node.fields))
      out.fields = node.fields.map((f: unknown) =>
        isObject(f) ? { ...f, type: shortNames(f.type, inner) } : f,
      );
  }
  return out;
}

/**
 * Exports root resources (definitions or interfaces) to IDL files: one `.restspec.json` and one
 * `.snapshot.json` per root resource, named as Rest.li names them.
 *
 * @example
 * ```ts
 * const { restspecs, snapshots } = exportIdl([photos, albums], { namespace: 'com.example.photos' });
 * restspecs.get('com.example.photos.photos.restspec.json'); // the ResourceSchema
 * ```
 * @throws ResourceDefinitionError for a definition that cannot be described; IdlFormatError with
 *   `validate` when an exported resource does not fit the format
 */
export function exportIdl(resources: readonly unknown[], options: ExportIdlOptions = {}): IdlExport {
  const restspecs = new Map<string, RestSpec>();
  const snapshots = new Map<string, Snapshot>();
  for (const resource of resources) {
    const { schema, models } = exportResource(resource, options);
    const file = idlFileName(schema, RESTSPEC_SUFFIX);
    if (restspecs.has(file))
      throw new ResourceDefinitionError(
        { resource: schema.name },
        `two root resources would be written to ${file}`,
      );
    if (options.validate === true) validateRestSpec(schema, file);
    restspecs.set(file, schema);
    snapshots.set(idlFileName(schema, SNAPSHOT_SUFFIX), { models: snapshotModels(models), schema });
  }
  return { restspecs, snapshots };
}

/**
 * The files of an export as text, by path relative to the output directory: `idl/<file>.restspec.json`
 * and `snapshot/<file>.snapshot.json` (Rest.li's `src/main/idl` and `src/main/snapshot` layout).
 */
export function idlFileTexts(exported: IdlExport): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, spec] of exported.restspecs) out.set(`idl/${file}`, idlJsonText(spec as unknown as Json));
  for (const [file, snap] of exported.snapshots)
    out.set(`snapshot/${file}`, idlJsonText(snap as unknown as Json));
  return out;
}

/**
 * The body of an `OPTIONS /<resource>` answer for one root resource: it and each of its subresources by
 * full name (`<namespace>.<name>`), and every named schema they use by full name, each written whole (as
 * Rest.li's documentation handler renders them).
 */
export function optionsBody(resource: unknown, options: ExportIdlOptions = {}): OptionsResponse {
  const { schema, models } = exportResource(resource, options);
  const resources: Record<string, ResourceSchema> = {};
  const add = (r: ResourceSchema): void => {
    resources[idlFileName(r, '')] = r;
    for (const kind of ['collection', 'association', 'simple'] as const) {
      for (const sub of r[kind]?.entity.subresources ?? []) add(sub);
    }
  };
  add(schema);
  const out: Record<string, IdlJsonObject> = {};
  for (const m of models) out[m.getFullName()] = shortNames(JSON.parse(schemaToJson(m)), '') as IdlJsonObject;
  return { resources, models: out };
}
