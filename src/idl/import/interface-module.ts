/**
 * One root resource of an IDL file → one TypeScript module declaring its interface (and its subresources'),
 * as a developer would write it by hand: `collectionInterface({...})`, `associationInterface({...})`,
 * `simpleInterface({...})` or `actionsSetInterface({...})` over the generated data templates, with
 * finders, batch finders and actions declared by `finderSpec`, `batchFinderSpec` and `actionSpec`.
 * `createResourceClient` over the exported constant is the typed client of the service.
 */
import type { ArrayDataSchema } from '../../schema/array-schema';
import type { DataSchema } from '../../schema/data-schema';
import type { NamedDataSchema } from '../../schema/named-schema';
import { GENERATOR_NAME } from '../../codegen/emit';
import type { GeneratedClassRef, GeneratedFile } from '../../codegen/generate';
import { quote } from '../../codegen/model';
import { SourceFile } from '../../codegen/printer';
import { COLLECTION_METHODS } from '../../resources/registration';
import { IdlImportError } from '../errors';
import {
  type ActionSchema,
  type BatchFinderSchema,
  type FinderSchema,
  type ParameterSchema,
  type ResourceSchema,
  type RestMethodSchema,
  resourceKind,
} from '../restspec-model';
import type { IdlResourceSource } from './idl-sources';
import { type TypeReader, type TypeSite, ValueTypeCode } from './type-reader';

/** What emitting a module needs. */
export interface ModuleContext {
  readonly reader: TypeReader;
  readonly classOf: (schema: NamedDataSchema) => GeneratedClassRef;
  readonly runtimeModule: string;
  readonly importExtension: string;
  /** Told of what is passed over (a method Svc does not know, a non-record metadata type...). */
  readonly warn: (file: string, path: string, message: string) => void;
}

/** IDL method name → the property interfaces and clients use (`batch_get` → `batchGet`). */
const PROPERTY_OF_METHOD: ReadonlyMap<string, string> = new Map(
  [...COLLECTION_METHODS].map(([property, method]) => [method, property]),
);
const SIMPLE_METHODS: ReadonlySet<string> = new Set(['get', 'update', 'partial_update', 'delete']);
const NOT_ASSOCIATION: ReadonlySet<string> = new Set(['create', 'batch_create']);

/** The output path (without `.ts`) of a root resource's module: `com/example/photos/photos.interface`. */
export function interfaceModulePath(resource: ResourceSchema): string {
  const dir =
    resource.namespace === undefined || resource.namespace === ''
      ? ''
      : `${resource.namespace.replace(/\./g, '/')}/`;
  return `${dir}${resource.name}.interface`;
}

/** The exported constant of a resource: `photosInterface`, a subresource `greetingsSubgreetingsInterface`. */
function constName(chain: readonly string[]): string {
  const words = chain.flatMap((n) => n.split(/[^A-Za-z0-9]+/).filter((w) => w !== ''));
  const camel = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
  const safe = /^[0-9]/.test(camel) || camel === '' ? `r${camel}` : camel;
  return `${safe}Interface`;
}

/** `deprecated: true` (or its reason) for what the IDL annotates `deprecated`. */
function deprecatedEntry(x: {
  readonly annotations?: Readonly<Record<string, unknown>>;
}): [string, string][] {
  const d = x.annotations?.deprecated;
  if (d === undefined) return [];
  const reason = (d as { doc?: unknown }).doc;
  return [['deprecated', typeof reason === 'string' && reason !== '' ? quote(reason) : 'true']];
}

/** `readOnly: [...]`, `createOnly: [...]` for the resource annotations Rest.li writes for `@ReadOnly` / `@CreateOnly`. */
function fieldAnnotationEntries(x: {
  readonly annotations?: Readonly<Record<string, unknown>>;
}): [string, string][] {
  const out: [string, string][] = [];
  for (const name of ['readOnly', 'createOnly'] as const) {
    const value = (x.annotations?.[name] as { value?: unknown } | undefined)?.value;
    if (!Array.isArray(value)) continue;
    const paths = value.filter((p): p is string => typeof p === 'string');
    if (paths.length > 0) out.push([name, `[${paths.map(quote).join(', ')}]`]);
  }
  return out;
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

function obj(entries: readonly [string, string][], indent: string): string {
  if (entries.length === 0) return '{}';
  const inner = `${indent}  `;
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${v},\n`).join('')}${indent}}`;
}

/** The complex key's params record, which Rest.li names `EmptyRecord` when the key has none. */
function readOptional(reader: TypeReader, type: string, site: TypeSite): DataSchema | undefined {
  try {
    return reader.read(type, site);
  } catch (err) {
    if (type === 'com.linkedin.restli.common.EmptyRecord') return undefined; // no params: nothing to import
    throw err;
  }
}

/** A parameter's type text; the older spelling `"type": "array", "items": "X"` as the array's JSON. */
function paramTypeText(p: ParameterSchema): string {
  if (p.type === 'array' && p.items !== undefined) return JSON.stringify({ type: 'array', items: p.items });
  return p.type;
}

/** Emits the module of one root resource. */
export function interfaceModule(source: IdlResourceSource, ctx: ModuleContext): GeneratedFile {
  const path = interfaceModulePath(source.resource);
  const file = new SourceFile(path, {
    runtimeModule: ctx.runtimeModule,
    importExtension: ctx.importExtension,
    header: [
      `Generated by ${GENERATOR_NAME} from ${source.file}.`,
      'Do not edit: change the interface description and generate again.',
    ],
  });
  const code = new ValueTypeCode(file, ctx.classOf);
  const blocks: string[] = [];
  const emitResource = (r: ResourceSchema, at: string, chain: readonly string[]): string => {
    const name = constName(chain);
    file.declareLocal(name);
    const site = (p: string): TypeSite => ({ file: source.file, path: at + p });
    const kind = resourceKind(r);
    if (kind === undefined)
      throw new IdlImportError(source.file, at, 'a resource of no kind has nothing to call');
    const body = r[kind] as unknown as KindBody;
    const subs = (body.entity?.subresources ?? []).map((s, i) =>
      emitResource(s, `${at}/${kind}/entity/subresources/${i}`, [...chain, s.name]),
    );
    const entries: [string, string][] = [['name', quote(r.name)]];
    if (r.namespace !== undefined && r.namespace !== '') entries.push(['namespace', quote(r.namespace)]);
    if (r.doc !== undefined && r.doc !== '') entries.push(['doc', quote(r.doc)]);
    if (kind !== 'actionsSet') entries.push(...deprecatedEntry(r), ...fieldAnnotationEntries(r));
    if (r.entityType === 'UNSTRUCTURED_DATA')
      ctx.warn(
        source.file,
        `${at}/entityType`,
        'unstructured data (raw bytes) is not supported: its methods are read as records',
      );
    const emitter = new KindEmitter(code, ctx, source.file, `${at}/${kind}`, kind);
    let factory: string;
    if (kind === 'actionsSet') {
      factory = 'actionsSetInterface';
      entries.push(['actions', emitter.actions(body.actions, '/actions')]);
    } else {
      const value = r.schema === undefined ? undefined : ctx.reader.read(r.schema, site('/schema'));
      const record = value?.getType() === 'TYPEREF' ? value.getDereferencedSchema() : value;
      if (record === undefined || record.getType() !== 'RECORD')
        throw new IdlImportError(source.file, `${at}/schema`, 'the value of a resource must be a record');
      if (kind === 'collection') {
        factory = 'collectionInterface';
        entries.push(['key', emitter.identifierKey(body.identifier)]);
        entries.push(['keyName', quote((body.identifier as { name: string }).name)]);
      } else if (kind === 'association') {
        factory = 'associationInterface';
        entries.push(['assocKeys', emitter.assocKeys(body.assocKeys ?? [])]);
      } else factory = 'simpleInterface';
      entries.push(['value', code.cls(record as NamedDataSchema)]);
      entries.push(['methods', emitter.methods(body.supports ?? [], body.methods ?? [])]);
      if (kind !== 'simple') {
        if ((body.finders ?? []).length > 0) entries.push(['finders', emitter.finders(body.finders!)]);
        if ((body.batchFinders ?? []).length > 0)
          entries.push(['batchFinders', emitter.batchFinders(body.batchFinders!)]);
      }
      const actions =
        kind === 'simple' ? [...(body.actions ?? []), ...(body.entity?.actions ?? [])] : body.actions;
      if ((actions ?? []).length > 0) entries.push(['actions', emitter.actions(actions, '/actions')]);
      if (kind !== 'simple' && (body.entity?.actions ?? []).length > 0)
        entries.push(['entityActions', emitter.actions(body.entity!.actions, '/entity/actions')]);
      if (kind !== 'simple' && (body.alternativeKeys ?? []).length > 0)
        entries.push(['alternativeKeys', emitter.alternativeKeys(body.alternativeKeys!)]);
      if (subs.length > 0) entries.push(['subresources', `[${subs.join(', ')}]`]);
    }
    const doc = r.doc !== undefined && r.doc !== '' ? r.doc : `The ${kind} resource ${r.path}.`;
    const deprecated = r.annotations?.deprecated !== undefined;
    blocks.push(
      [
        '/**',
        ...doc.split('\n').map((l) => ` * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()),
        ...(deprecated ? [' * @deprecated'] : []),
        ' */',
        // pure: a bundler drops the interfaces a page does not import (README.md of src/client, "Size")
        `export const ${name} = /* @__PURE__ */ ${code.rt(factory)}(${obj(entries, '')});`,
      ].join('\n'),
    );
    return name;
  };
  emitResource(source.resource, '', [source.resource.name]);
  file.push(blocks.join('\n\n'));
  return { path: `${path}.ts`, text: file.render() };
}

interface KindBody {
  readonly identifier?: unknown;
  readonly assocKeys?: readonly { readonly name: string; readonly type: string }[];
  readonly alternativeKeys?: readonly { readonly name: string; readonly type: string }[];
  readonly supports?: readonly string[];
  readonly methods?: readonly RestMethodSchema[];
  readonly finders?: readonly FinderSchema[];
  readonly batchFinders?: readonly BatchFinderSchema[];
  readonly actions?: readonly ActionSchema[];
  readonly entity?: {
    readonly actions?: readonly ActionSchema[];
    readonly subresources?: readonly ResourceSchema[];
  };
}

/** The members of one resource kind's body, as code. */
class KindEmitter {
  readonly #assocParts = new Map<string, string>();

  constructor(
    private readonly code: ValueTypeCode,
    private readonly ctx: ModuleContext,
    private readonly file: string,
    private readonly at: string,
    private readonly kind: string,
  ) {}

  #site(path: string): TypeSite {
    return { file: this.file, path: this.at + path };
  }

  /** A simple key type: the key constants for int, long and string, `simpleKey(...)` otherwise. */
  #simpleKey(schema: DataSchema, path: string): string {
    const target = schema.getType() === 'TYPEREF' ? schema.getDereferencedSchema() : schema;
    // a typeref'd key keeps its typeref (simpleKey(typerefOf(...))), so an exported IDL names it
    const constant =
      schema === target
        ? { INT: 'INT_KEY', LONG: 'LONG_KEY', STRING: 'STRING_KEY' }[target.getType() as string]
        : undefined;
    if (constant !== undefined) return this.code.rt(constant);
    if (!target.isPrimitive() && target.getType() !== 'ENUM')
      throw new IdlImportError(
        this.file,
        this.at + path,
        `a ${target.getType().toLowerCase()} cannot be a simple key`,
      );
    return `${this.code.rt('simpleKey')}(${this.code.of(schema, this.#site(path))})`;
  }

  identifierKey(identifier: unknown): string {
    const id = identifier as { type: string; params?: string };
    const schema = this.ctx.reader.read(id.type, this.#site('/identifier/type'));
    const target = schema.getType() === 'TYPEREF' ? schema.getDereferencedSchema() : schema;
    if (target.getType() !== 'RECORD') return this.#simpleKey(schema, '/identifier/type');
    const params =
      id.params === undefined
        ? undefined
        : readOptional(this.ctx.reader, id.params, this.#site('/identifier/params'));
    const args = [this.code.cls(target as NamedDataSchema)];
    if (params !== undefined) {
      const p = params.getType() === 'TYPEREF' ? params.getDereferencedSchema() : params;
      if (p.getType() !== 'RECORD')
        throw new IdlImportError(
          this.file,
          `${this.at}/identifier/params`,
          'the params of a complex key must be a record',
        );
      args.push(this.code.cls(p as NamedDataSchema));
    }
    return `${this.code.rt('complexKey')}(${args.join(', ')})`;
  }

  assocKeys(parts: readonly { readonly name: string; readonly type: string }[]): string {
    const entries: [string, string][] = parts.map((p, i) => {
      const path = `/assocKeys/${i}/type`;
      const schema = this.ctx.reader.read(p.type, this.#site(path));
      const target = schema.getType() === 'TYPEREF' ? schema.getDereferencedSchema() : schema;
      if (!target.isPrimitive() && target.getType() !== 'ENUM')
        throw new IdlImportError(
          this.file,
          this.at + path,
          'an association key part must be a primitive or an enum',
        );
      const expr = this.code.of(schema, this.#site(path));
      this.#assocParts.set(p.name, expr);
      return [p.name, expr];
    });
    return obj(entries, '  ');
  }

  alternativeKeys(keys: readonly { readonly name: string; readonly type: string }[]): string {
    return obj(
      keys.map((k, i) => {
        const path = `/alternativeKeys/${i}/type`;
        return [k.name, this.#simpleKey(this.ctx.reader.read(k.type, this.#site(path)), path)];
      }),
      '  ',
    );
  }

  methods(supports: readonly string[], described: readonly RestMethodSchema[]): string {
    const byName = new Map(described.map((m, i) => [m.method, { m, i }]));
    const entries: [string, string][] = [];
    supports.forEach((method, i) => {
      const property = PROPERTY_OF_METHOD.get(method);
      const unsupported =
        property === undefined ||
        (this.kind === 'simple' && !SIMPLE_METHODS.has(method)) ||
        (this.kind === 'association' && NOT_ASSOCIATION.has(method));
      if (unsupported) {
        this.ctx.warn(
          this.file,
          `${this.at}/supports/${i}`,
          `the method ${method} is not one a ${this.kind} has: passed over`,
        );
        return;
      }
      const found = byName.get(method);
      const spec = found?.m;
      const docEntry: [string, string][] = [
        ...(spec?.doc !== undefined && spec.doc !== ''
          ? ([['doc', quote(spec.doc)]] as [string, string][])
          : []),
        ...(spec === undefined ? [] : deprecatedEntry(spec)),
        // a batch method's own limit (Svc enforces it whatever `validate` says, as for batch finders)
        ...(spec?.maxBatchSize !== undefined && method.startsWith('batch_')
          ? ([['maxBatchSize', String(spec.maxBatchSize.value)]] as [string, string][])
          : []),
      ];
      if (
        method === 'get_all' &&
        spec !== undefined &&
        ((spec.parameters ?? []).length > 0 || spec.metadata !== undefined)
      ) {
        entries.push([property, this.#finderSpec(spec, `/methods/${found!.i}`)]);
      } else {
        entries.push([property, obj(docEntry, '    ')]);
        if (spec !== undefined && (spec.parameters ?? []).length > 0) this.#passOverParams(spec, found!.i);
      }
    });
    return obj(entries, '  ');
  }

  /**
   * Query parameters of a method other than get_all (Rest.li allows them on `get`, ...) have no place in a
   * method spec: their types are still read (a type that names nothing is an error, as elsewhere), then
   * passed over with a warning.
   */
  #passOverParams(spec: RestMethodSchema, index: number): void {
    const path = `/methods/${index}/parameters`;
    spec.parameters!.forEach((p, i) =>
      this.ctx.reader.read(paramTypeText(p), this.#site(`${path}/${i}/type`)),
    );
    this.ctx.warn(
      this.file,
      this.at + path,
      `the parameters of ${spec.method} have no place in Svc's method specs: passed over`,
    );
  }

  finders(list: readonly FinderSchema[]): string {
    return obj(
      list
        .map((f, i) => [f.name ?? '', this.#finderSpec(f, `/finders/${i}`)] as [string, string])
        .filter(([n], i) => {
          if (n !== '') return true;
          this.ctx.warn(
            this.file,
            `${this.at}/finders/${i}`,
            'a finder without a name (a legacy default finder): passed over',
          );
          return false;
        }),
      '  ',
    );
  }

  #metadata(f: { metadata?: { type: string } }, path: string): [string, string][] {
    if (f.metadata === undefined) return [];
    const schema = this.ctx.reader.read(f.metadata.type, this.#site(`${path}/metadata/type`));
    const target = schema.getType() === 'TYPEREF' ? schema.getDereferencedSchema() : schema;
    if (target.getType() !== 'RECORD') {
      this.ctx.warn(
        this.file,
        `${this.at}${path}/metadata/type`,
        'metadata that is not a record is read as plain data',
      );
      return [];
    }
    return [['metadata', this.code.cls(target as NamedDataSchema)]];
  }

  #assocParams(f: FinderSchema, path: string): [string, string][] {
    const names = [...(f.assocKeys ?? []), ...(f.assocKey === undefined ? [] : [f.assocKey])];
    return names.map((n) => {
      const part = this.#assocParts.get(n);
      if (part === undefined)
        throw new IdlImportError(
          this.file,
          `${this.at}${path}/assocKeys`,
          `'${n}' is not a key part of the association`,
        );
      return [n, `${this.code.rt('assocKey')}(${part})`];
    });
  }

  #finderSpec(f: FinderSchema | RestMethodSchema, path: string): string {
    const params = [
      ...this.params(f.parameters, path),
      ...('assocKeys' in f || 'assocKey' in f ? this.#assocParams(f, path) : []),
    ];
    const entries: [string, string][] = [];
    if (params.length > 0) entries.push(['params', obj(params, '      ')]);
    if (f.pagingSupported === true) entries.push(['paging', 'true']);
    entries.push(...this.#metadata(f, path));
    if (f.doc !== undefined && f.doc !== '') entries.push(['doc', quote(f.doc)]);
    entries.push(...deprecatedEntry(f));
    return `${this.code.rt('finderSpec')}(${obj(entries, '    ')})`;
  }

  batchFinders(list: readonly BatchFinderSchema[]): string {
    return obj(
      list.map((f, i) => {
        const path = `/batchFinders/${i}`;
        const at = (f.parameters ?? []).findIndex((p) => p.name === f.batchParam);
        if (at < 0)
          throw new IdlImportError(
            this.file,
            `${this.at}${path}/batchParam`,
            `the batch parameter '${f.batchParam}' is not among the parameters`,
          );
        const criteria = f.parameters![at]!;
        const cpath = `${path}/parameters/${at}/type`;
        const schema = this.ctx.reader.read(paramTypeText(criteria), this.#site(cpath));
        const items = schema.getType() === 'ARRAY' ? (schema as ArrayDataSchema).getItems() : schema;
        const record = items.getType() === 'TYPEREF' ? items.getDereferencedSchema() : items;
        if (record.getType() !== 'RECORD')
          throw new IdlImportError(
            this.file,
            this.at + cpath,
            'batch finder criteria must be an array of records',
          );
        const others = this.params(
          f.parameters!.filter((p) => p.name !== f.batchParam),
          path,
          (p) => f.parameters!.indexOf(p),
        );
        const params: [string, string][] = [
          [f.batchParam, `${this.code.rt('criteriaOf')}(${this.code.cls(record as NamedDataSchema)})`],
          ...others,
          ...this.#assocParams(f, path),
        ];
        const entries: [string, string][] = [
          ['batchParam', quote(f.batchParam)],
          ['params', obj(params, '      ')],
        ];
        if (f.pagingSupported === true) entries.push(['paging', 'true']);
        entries.push(...this.#metadata(f, path));
        if (f.maxBatchSize !== undefined) entries.push(['maxBatchSize', String(f.maxBatchSize.value)]);
        if (f.doc !== undefined && f.doc !== '') entries.push(['doc', quote(f.doc)]);
        entries.push(...deprecatedEntry(f));
        return [f.name ?? '', `${this.code.rt('batchFinderSpec')}(${obj(entries, '    ')})`] as [
          string,
          string,
        ];
      }),
      '  ',
    );
  }

  actions(list: readonly ActionSchema[] | undefined, path: string): string {
    return obj(
      (list ?? []).map((a, i) => {
        const apath = `${path}/${i}`;
        const entries: [string, string][] = [];
        const params = this.params(a.parameters, apath);
        if (params.length > 0) entries.push(['params', obj(params, '      ')]);
        if (a.returns !== undefined)
          entries.push([
            'returns',
            this.code.of(
              this.ctx.reader.read(a.returns, this.#site(`${apath}/returns`)),
              this.#site(`${apath}/returns`),
            ),
          ]);
        if (a.doc !== undefined && a.doc !== '') entries.push(['doc', quote(a.doc)]);
        if (a.readOnly === true) entries.push(['readOnly', 'true']);
        if (a.throws !== undefined && a.throws.length > 0)
          entries.push(['throws', `[${a.throws.map((t) => quote(t)).join(', ')}]`]);
        entries.push(...deprecatedEntry(a));
        return [a.name, `${this.code.rt('actionSpec')}(${obj(entries, '    ')})`] as [string, string];
      }),
      '  ',
    );
  }

  /** Parameter specs: the type, `optional(type)`, or `optional(type, default)` for a primitive or enum default. */
  params(
    list: readonly ParameterSchema[] | undefined,
    path: string,
    indexOf: (p: ParameterSchema) => number = (p) => list!.indexOf(p),
  ): [string, string][] {
    return (list ?? []).map((p) => {
      const ppath = `${path}/parameters/${indexOf(p)}`;
      const site = this.#site(`${ppath}/type`);
      const schema = this.ctx.reader.read(paramTypeText(p), site);
      const type = this.code.of(schema, site);
      if (p.default !== undefined) {
        const literal = this.code.literal(schema, p.default);
        // a record or array default is the server's: the client sends nothing for it
        return [
          p.name,
          literal === undefined
            ? `${this.code.rt('optional')}(${type})`
            : `${this.code.rt('optional')}(${type}, ${literal})`,
        ];
      }
      return [p.name, p.optional === true ? `${this.code.rt('optional')}(${type})` : type];
    });
  }
}
