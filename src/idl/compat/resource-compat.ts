import type { ArrayDataSchema } from '../../schema/array-schema';
import type { DataSchema } from '../../schema/data-schema';
import type { MapDataSchema } from '../../schema/map-schema';
import { NamedDataSchema } from '../../schema/named-schema';
import { primitiveSchema } from '../../schema/primitive-schemas';
import type { RecordDataSchema, RecordField } from '../../schema/record-schema';
import { SchemaResolver } from '../../schema/schema-resolver';
import type { TyperefDataSchema } from '../../schema/typeref-schema';
import type { UnionDataSchema } from '../../schema/union-schema';
import { isSvcError } from '../../errors/svc-error';
import type {
  ActionSchema,
  AlternativeKeySchema,
  BatchFinderSchema,
  CollectionSchema,
  EntitySchema,
  FinderSchema,
  IdlJson,
  MaxBatchSizeSchema,
  ParameterSchema,
  ResourceSchema,
  RestMethodSchema,
  ServiceErrorSchema,
  Snapshot,
} from '../restspec-model';
import { resourceKind } from '../restspec-model';
import { CompatInputError } from './errors';
import {
  isErrorImpact,
  SchemaComparison,
  type SchemaChange,
  type SchemaChangeKind,
  type SchemaImpact,
} from './schema-compat';

/**
 * The compatibility of two versions of a resource's IDL, classified as Rest.li's IDL checker
 * (`CompatibilityInfo.Type` and its level) does.
 */

/** Rest.li's three levels of a change. */
export type CompatClass = 'compatible' | 'wire-compatible' | 'breaking';

/** Rest.li's `CompatibilityInfo.Type` names used by this checker, with their level. */
export const COMPAT_KINDS = {
  FINDER_ASSOCKEYS_DOWNGRADE: 'breaking',
  ANNOTATION_CHANGE_BREAKS_NEW_SERVER: 'breaking',
  ANNOTATION_CHANGE_BREAKS_OLD_CLIENT: 'breaking',
  ANNOTATION_CHANGE_MAY_REQUIRE_CLIENT_CODE_CHANGE: 'breaking',
  ARRAY_NOT_CONTAIN: 'breaking',
  ARRAY_NOT_EQUAL: 'breaking',
  ARRAY_MISSING_ELEMENT: 'breaking',
  PARAMETER_NEW_REQUIRED: 'breaking',
  PARAMETER_WRONG_OPTIONALITY: 'breaking',
  RESOURCE_MISSING: 'breaking',
  TYPE_MISSING: 'breaking',
  TYPE_UNKNOWN: 'breaking',
  TYPE_ERROR: 'breaking',
  VALUE_NOT_EQUAL: 'breaking',
  VALUE_WRONG_OPTIONALITY: 'breaking',
  ENUM_VALUE_ADDED: 'wire-compatible',
  TYPE_BREAKS_OLD_READER: 'breaking',
  TYPE_BREAKS_NEW_READER: 'breaking',
  TYPE_BREAKS_NEW_AND_OLD_READERS: 'breaking',
  BREAK_OLD_CLIENTS: 'breaking',
  DOC_NOT_EQUAL: 'compatible',
  ANNOTATIONS_CHANGED: 'compatible',
  DEPRECATED: 'compatible',
  PARAMETER_NEW_OPTIONAL: 'compatible',
  OPTIONAL_PARAMETER: 'compatible',
  OPTIONAL_VALUE: 'compatible',
  RESOURCE_NEW: 'compatible',
  SUPERSET: 'compatible',
  VALUE_DIFFERENT: 'compatible',
  TYPE_INFO: 'compatible',
  PAGING_ADDED: 'compatible',
  PAGING_REMOVED: 'breaking',
  SERVICE_ERROR_ADDED: 'breaking',
  SERVICE_ERROR_REMOVED: 'compatible',
  MAX_BATCH_SIZE_ADDED_WITH_VALIDATION_ON: 'breaking',
  MAX_BATCH_SIZE_ADDED_WITH_VALIDATION_OFF: 'compatible',
  MAX_BATCH_SIZE_REMOVED: 'compatible',
  MAX_BATCH_SIZE_VALUE_INCREASED: 'compatible',
  MAX_BATCH_SIZE_VALUE_DECREASED_WITH_VALIDATION_OFF: 'compatible',
  MAX_BATCH_SIZE_VALUE_DECREASED_WITH_VALIDATION_ON: 'breaking',
  MAX_BATCH_SIZE_TURN_ON_VALIDATION: 'breaking',
  MAX_BATCH_SIZE_TURN_OFF_VALIDATION: 'compatible',
} as const satisfies Record<string, CompatClass>;

/** The kind of a change the compatibility checker reports (a key of `COMPAT_KINDS`, which classifies each). */
export type CompatKind = keyof typeof COMPAT_KINDS;

/** Who reads data of a type: the server (request), the client (response), or both. */
export type TypeUsage = 'request' | 'response' | 'request and response';

/** One change found by the checker. */
export interface CompatChange {
  /** E.g. `/photos/finders/search/parameters/q`; model changes are under `/models/<full name>`. */
  readonly path: string;
  readonly kind: CompatKind;
  readonly class: CompatClass;
  readonly message: string;
  /** For changes of a data type: the schema checker's impact and rule. */
  readonly impact?: SchemaImpact;
  readonly schemaKind?: SchemaChangeKind;
  /** For changes of a data type: who reads data of that type. */
  readonly usage?: TypeUsage;
}

/** Options of {@link compareSnapshots}. */
export interface ResourceCompatOptions {
  /**
   * Directories searched for named schemas a snapshot's models do not contain (for `.restspec.json`
   * files, which carry no models). Default: none.
   */
  readonly resolverPath?: readonly string[];
  /**
   * Classify type changes by who reads the data (default `false`: Rest.li counts every reader-breaking
   * change as breaking). When `true`, a change that only breaks *old* readers of request-only data (new
   * clients writing to an old server) and one that only breaks *new* readers of response-only data (new
   * clients reading an old server) are compatible, as servers are deployed before clients move on; an
   * added enum symbol in request-only data is compatible.
   */
  readonly directional?: boolean;
  /** Allow numeric promotions (int → long ...). Default `false`, as the IDL checker. */
  readonly allowPromotions?: boolean;
  /** Names used in messages about unreadable types. Default `old` and `new`. */
  readonly files?: { readonly older: string; readonly newer: string };
}

/** The named schemas of one snapshot, and how its type texts become schemas. */
class Types {
  readonly #resolver: SchemaResolver;
  readonly #cache = new Map<string, DataSchema | string>();

  constructor(models: Snapshot['models'] | undefined, resolverPath: readonly string[], file: string) {
    this.#resolver = new SchemaResolver({ resolverPath, allowForwardReferences: true });
    const objects = (models ?? []).filter((m) => typeof m !== 'string');
    if (objects.length === 0) return;
    try {
      this.#resolver.parseText(objects.map((m) => JSON.stringify(m)).join('\n'), `${file} models`);
    } catch (err) {
      if (!isSvcError(err)) throw err;
      throw new CompatInputError(file, `the models do not parse: ${err.message}`, {
        path: '/models',
        cause: err,
      });
    }
  }

  /** Every named schema the models define (including nested ones), by full name. */
  named(): ReadonlyMap<string, NamedDataSchema> {
    return this.#resolver.bindings();
  }

  /** The schema a type text names or spells out, or the reason it cannot be resolved. */
  schema(text: string): DataSchema | string {
    const cached = this.#cache.get(text);
    if (cached !== undefined) return cached;
    let out: DataSchema | string;
    try {
      const trimmed = text.trim();
      out =
        primitiveSchema(trimmed) ??
        (/^[{["]/.test(trimmed) ? this.#resolver.parseText(trimmed)[0]! : this.#resolver.resolve(trimmed));
    } catch (err) {
      if (!isSvcError(err)) throw err;
      out = err.message;
    }
    this.#cache.set(text, out);
    return out;
  }
}

/** Full names of the named schemas `schema` refers to, itself included, transitively. */
function reachable(schema: DataSchema, into: Set<string>): void {
  if (schema instanceof NamedDataSchema) {
    if (into.has(schema.getFullName())) return;
    into.add(schema.getFullName());
  }
  switch (schema.getType()) {
    case 'RECORD':
      for (const f of (schema as RecordDataSchema).getFields()) reachable(f.getType(), into);
      break;
    case 'ARRAY':
      reachable((schema as ArrayDataSchema).getItems(), into);
      break;
    case 'MAP':
      reachable((schema as MapDataSchema).getValues(), into);
      break;
    case 'UNION':
      for (const m of (schema as UnionDataSchema).getMembers()) reachable(m.getType(), into);
      break;
    case 'TYPEREF':
      reachable((schema as TyperefDataSchema).getRef(), into);
      break;
    default:
      break;
  }
}

/** The field a Rest.li data-annotation path (`a/b`, `u/com.x.Member/c`) leads to in `schema`, if any. */
function fieldAt(schema: DataSchema, path: string): RecordField | undefined {
  let current: DataSchema = schema;
  let field: RecordField | undefined;
  for (const segment of path.split('/')) {
    // Arrays and maps are crossed without a segment of their own; union members are named by key or alias.
    for (;;) {
      current = current.getDereferencedSchema();
      if (current.getType() === 'ARRAY') current = (current as ArrayDataSchema).getItems();
      else if (current.getType() === 'MAP') current = (current as MapDataSchema).getValues();
      else break;
    }
    if (current.getType() === 'UNION') {
      const union = current as UnionDataSchema;
      const member =
        union.getMemberByMemberKey(segment) ?? union.getMembers().find((m) => m.getAlias() === segment);
      if (member === undefined) return undefined;
      current = member.getType();
      field = undefined;
      continue;
    }
    if (current.getType() !== 'RECORD') return undefined;
    field = (current as RecordDataSchema).getField(segment);
    if (field === undefined) return undefined;
    current = field.getType();
  }
  return field;
}

function typeText(type: IdlJson | undefined): string | undefined {
  if (type === undefined || type === null) return undefined;
  return typeof type === 'string' ? type : JSON.stringify(type);
}

function effectiveOptional(p: ParameterSchema): boolean {
  return p.optional ?? p.default !== undefined;
}

function json(value: IdlJson | undefined): string {
  return JSON.stringify(value ?? null);
}

/** A value as Rest.li's messages show it: strings bare, anything else as JSON. */
function shown(value: IdlJson | undefined): string {
  return typeof value === 'string' ? value : json(value);
}

/** The read-only methods: a resource with only these sends its value type in responses only. */
const READ_METHODS = new Set(['get', 'batch_get', 'get_all']);

const MODEL_KIND: Readonly<Partial<Record<SchemaImpact, CompatKind>>> = {
  BREAKS_NEW_READER: 'TYPE_BREAKS_NEW_READER',
  BREAKS_OLD_READER: 'TYPE_BREAKS_OLD_READER',
  BREAKS_NEW_AND_OLD_READERS: 'TYPE_BREAKS_NEW_AND_OLD_READERS',
  BREAK_OLD_CLIENTS: 'BREAK_OLD_CLIENTS',
  ENUM_VALUE_ADDED: 'ENUM_VALUE_ADDED',
};

const READER_TEXT: Readonly<Partial<Record<SchemaImpact, string>>> = {
  BREAKS_NEW_READER: 'breaks new readers',
  BREAKS_OLD_READER: 'breaks old readers',
  BREAKS_NEW_AND_OLD_READERS: 'breaks new and old readers',
  ENUM_VALUE_ADDED: 'new enum value may break old readers',
};

/**
 * A data-schema change as an IDL change: its impact decides the kind (`TYPE_BREAKS_NEW_READER`,
 * `ENUM_VALUE_ADDED`, `TYPE_INFO` ...) and the class; with `directional`, see
 * {@link ResourceCompatOptions.directional}.
 */
export function schemaChangeToCompat(
  change: SchemaChange,
  usage?: TypeUsage,
  directional = false,
): CompatChange {
  const impact = change.impact;
  let kind: CompatKind = MODEL_KIND[impact] ?? 'TYPE_INFO';
  let note = READER_TEXT[impact];
  if (directional && usage !== undefined && usage !== 'request and response') {
    const harmless =
      (usage === 'request' && (impact === 'BREAKS_OLD_READER' || impact === 'ENUM_VALUE_ADDED')) ||
      (usage === 'response' && impact === 'BREAKS_NEW_READER');
    if (harmless) {
      kind = 'TYPE_INFO';
      note = `${note ?? ''}; harmless for ${usage} data`;
    }
  }
  const base = {
    path: change.path,
    kind,
    class: isErrorImpact(impact) && kind !== 'TYPE_INFO' ? ('breaking' as const) : COMPAT_KINDS[kind],
    message: note === undefined ? change.message : `${change.message}, ${note}`,
    impact,
    schemaKind: change.kind,
  };
  return usage === undefined ? base : { ...base, usage };
}

class ResourceCheck {
  readonly changes: CompatChange[] = [];
  readonly #path: string[] = [];
  readonly #prev: Types;
  readonly #curr: Types;
  readonly #schemas: SchemaComparison;
  readonly #options: ResourceCompatOptions;
  /** Usage of each named schema reached from a type site, by full name. */
  readonly #usage = new Map<string, Set<'request' | 'response'>>();
  /** Type-site changes, held until usages are known (a model's usage may come from a later site). */
  readonly #typeChanges: { change: SchemaChange; usage: TypeUsage }[] = [];
  /**
   * The resource-level service errors of each resource being walked (innermost last): Rest.li's checker
   * judges service errors per method, each method carrying its resource's errors as well as its own.
   */
  readonly #resourceErrors: { prev: readonly ServiceErrorSchema[]; curr: readonly ServiceErrorSchema[] }[] = [];

  constructor(prev: Types, curr: Types, options: ResourceCompatOptions) {
    this.#prev = prev;
    this.#curr = curr;
    this.#options = options;
    this.#schemas = new SchemaComparison({ allowPromotions: options.allowPromotions ?? false });
  }

  #pathText(tail?: string): string {
    const parts = tail === undefined ? this.#path : [...this.#path, tail];
    return parts.map((p) => `/${p}`).join('');
  }

  at(segment: string, fn: () => void): void {
    this.#path.push(segment);
    try {
      fn();
    } finally {
      this.#path.pop();
    }
  }

  add(kind: CompatKind, message: string, tail?: string): void {
    this.changes.push({ path: this.#pathText(tail), kind, class: COMPAT_KINDS[kind], message });
  }

  /** Models first, so that a named type met at a site is reported once, under `/models`. */
  compareModels(): void {
    const prev = this.#prev.named();
    const curr = this.#curr.named();
    for (const name of [...prev.keys()].sort()) {
      const n = curr.get(name);
      if (n !== undefined) this.#schemas.checkAt('/models', prev.get(name)!, n);
    }
  }

  /** `checkType` of Rest.li: a missing type, an unresolvable one, or the schema changes between them. */
  type(
    tail: string,
    prevType: IdlJson | undefined,
    currType: IdlJson | undefined,
    usage: TypeUsage,
    allowNull: boolean,
  ): void {
    // Older files spell an unnamed type as a JSON object rather than as JSON text.
    const prev = typeText(prevType);
    const curr = typeText(currType);
    if (prev === undefined && curr === undefined && allowNull) return;
    if (prev === undefined || curr === undefined) {
      this.add('TYPE_MISSING', 'Type is required but missing', tail);
      return;
    }
    const before = this.#prev.schema(prev);
    const after = this.#curr.schema(curr);
    // Two `.restspec.json` files without a resolver path: the same name on both sides is no change.
    if (typeof before === 'string' && typeof after === 'string' && prev === curr) return;
    this.#compareTypes(tail, prev, curr, before, after, usage);
  }

  /** The schemas of a type site (or why a side cannot be resolved) compared, their usages noted. */
  #compareTypes(
    tail: string,
    prev: string,
    curr: string,
    before: DataSchema | string,
    after: DataSchema | string,
    usage: TypeUsage,
  ): void {
    for (const [side, s, file] of [
      [before, prev, this.#options.files?.older ?? 'old'],
      [after, curr, this.#options.files?.newer ?? 'new'],
    ] as const) {
      if (typeof side === 'string') {
        this.add('TYPE_UNKNOWN', `Type cannot be resolved in ${file}: ${s}: ${side}`, tail);
        return;
      }
    }
    const b = before as DataSchema;
    const a = after as DataSchema;
    for (const [schema, dir] of [
      [b, usage],
      [a, usage],
    ] as const) {
      const names = new Set<string>();
      reachable(schema, names);
      for (const name of names) {
        let set = this.#usage.get(name);
        if (set === undefined) this.#usage.set(name, (set = new Set()));
        if (dir !== 'response') set.add('request');
        if (dir !== 'request') set.add('response');
      }
    }
    for (const change of this.#schemas.checkAt(this.#pathText(tail), b, a))
      this.#typeChanges.push({ change, usage });
  }

  /** Turns the schema changes into IDL changes, once every site's usage is known. */
  finish(): void {
    for (const change of this.#schemas.changes) {
      const site = this.#typeChanges.find((t) => t.change === change);
      let usage: TypeUsage | undefined = site?.usage;
      if (usage === undefined) {
        const name = /^\/models\/([^/]+)/.exec(change.path)?.[1];
        const set = name === undefined ? undefined : this.#usage.get(name);
        if (set !== undefined && set.size > 0)
          usage = set.size === 2 ? 'request and response' : set.has('request') ? 'request' : 'response';
      }
      this.changes.push(this.#typeChange(change, usage));
    }
  }

  #typeChange(change: SchemaChange, usage: TypeUsage | undefined): CompatChange {
    return schemaChangeToCompat(change, usage, this.#options.directional === true);
  }

  /** A single value: equal, added where the format allows it (compatible), removed or changed (breaking). */
  single(tail: string, prev: IdlJson | undefined, curr: IdlJson | undefined): void {
    if (json(prev) === json(curr)) return;
    if (prev === undefined)
      this.add(
        'OPTIONAL_VALUE',
        `Optional field "${tail}" was previously missing but currently present`,
        tail,
      );
    else if (curr === undefined)
      this.add(
        'VALUE_WRONG_OPTIONALITY',
        `"${tail}" may not be removed because it exists in the previous version`,
        tail,
      );
    else
      this.add(
        'VALUE_NOT_EQUAL',
        `Current value "${shown(curr)}" does not match the previous value "${shown(prev)}"`,
        tail,
      );
  }

  /** A value that must not change at all, even from absent (d2ServiceName, entityType, batchParam...). */
  equal(tail: string, prev: IdlJson | undefined, curr: IdlJson | undefined): void {
    if (json(prev) === json(curr)) return;
    this.add(
      'VALUE_NOT_EQUAL',
      `Current value "${shown(curr)}" does not match the previous value "${shown(prev)}"`,
      tail,
    );
  }

  doc(prev: string | undefined, curr: string | undefined): void {
    if ((prev ?? '') !== (curr ?? '')) this.add('DOC_NOT_EQUAL', 'Documentation is updated', 'doc');
  }

  annotations(prev: ResourceSchema['annotations'], curr: ResourceSchema['annotations']): void {
    const p = prev ?? {};
    const c = curr ?? {};
    for (const name of [...new Set([...Object.keys(p), ...Object.keys(c)])].sort()) {
      const what =
        p[name] === undefined
          ? 'added'
          : c[name] === undefined
            ? 'removed'
            : json(p[name]) === json(c[name])
              ? undefined
              : 'changed';
      if (what !== undefined)
        this.at('annotations', () => this.add('ANNOTATIONS_CHANGED', `Annotation ${what}`, name));
    }
  }

  /**
   * Rest.li's data annotations (`readOnly`, `createOnly`: lists of field paths of the value record): adding
   * one to an existing field breaks old clients; removing one from a field still there breaks new servers
   * (a required read-only field) or may need client changes.
   */
  dataAnnotations(prev: ResourceSchema, curr: ResourceSchema): void {
    if (prev.schema === undefined || curr.schema === undefined) return;
    const before = this.#prev.schema(prev.schema);
    const after = this.#curr.schema(curr.schema);
    if (typeof before === 'string' || typeof after === 'string') return;
    const paths = (r: ResourceSchema, name: string): string[] => {
      const value = r.annotations?.[name]?.value;
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    };
    for (const [name, title] of [
      ['readOnly', 'ReadOnly'],
      ['createOnly', 'CreateOnly'],
    ] as const) {
      const was = paths(prev, name);
      const now = paths(curr, name);
      this.at('annotations', () => {
        for (const path of now.filter((p) => !was.includes(p)))
          if (fieldAt(before, path) !== undefined)
            this.add(
              'ANNOTATION_CHANGE_BREAKS_OLD_CLIENT',
              `Cannot add ${title} annotation, old clients' requests will fail validation`,
              path,
            );
        for (const path of was.filter((p) => !now.includes(p))) {
          const field = fieldAt(after, path);
          if (field === undefined) continue;
          if (!field.getOptional() && name === 'readOnly')
            this.add(
              'ANNOTATION_CHANGE_BREAKS_NEW_SERVER',
              `Cannot remove ${title} annotation, breaks new servers`,
              path,
            );
          else
            this.add(
              'ANNOTATION_CHANGE_MAY_REQUIRE_CLIENT_CODE_CHANGE',
              `Cannot remove ${title} annotation, clients may need to change their code`,
              path,
            );
        }
      });
    }
  }

  /**
   * An action's `throws` (exception class names), as Rest.li's checker compares it: the list may only
   * shrink. An exception no longer listed is compatible (`SUPERSET`; the whole list dropped:
   * `OPTIONAL_VALUE`); a newly listed one is breaking (`ARRAY_NOT_CONTAIN`; a list where there was none:
   * `VALUE_WRONG_OPTIONALITY`). An empty list counts as no list (Rest.li's tools never write one).
   */
  throws(p: readonly string[] | undefined, c: readonly string[] | undefined): void {
    const before = p !== undefined && p.length > 0 ? p : undefined;
    const after = c !== undefined && c.length > 0 ? c : undefined;
    if (before === undefined && after === undefined) return;
    if (after === undefined) {
      this.add('OPTIONAL_VALUE', 'The "throws" list has been removed', 'throws');
      return;
    }
    if (before === undefined) {
      this.add(
        'VALUE_WRONG_OPTIONALITY',
        `"throws" may not be added where there was none: ${after.join(', ')}`,
        'throws',
      );
      return;
    }
    const added = after.filter((x) => !before.includes(x));
    const removed = before.filter((x) => !after.includes(x));
    if (added.length > 0)
      this.add(
        'ARRAY_NOT_CONTAIN',
        `Current field must contain only the previous values; newly thrown: ${added.join(', ')}`,
        'throws',
      );
    else if (removed.length > 0)
      this.add('SUPERSET', `Previous values no longer present: ${removed.join(', ')}`, 'throws');
  }

  /** Values that may only grow (`supports`): removed is breaking, added compatible. */
  superset(tail: string, prev: readonly string[] | undefined, curr: readonly string[] | undefined): void {
    const p = prev ?? [];
    const c = curr ?? [];
    const missing = p.filter((x) => !c.includes(x));
    const extra = c.filter((x) => !p.includes(x));
    if (missing.length > 0)
      this.add('ARRAY_NOT_CONTAIN', `Current field must contain these values: ${missing.join(', ')}`, tail);
    if (extra.length > 0)
      this.add('SUPERSET', `Current values have these extra values: ${extra.join(', ')}`, tail);
  }

  /** Elements matched by key: a removed one is breaking, an added one compatible (unless `equalOnly`). */
  byKey<T>(
    tail: string,
    prev: readonly T[] | undefined,
    curr: readonly T[] | undefined,
    key: (t: T) => string,
    each: (p: T, c: T) => void,
    onAdded?: (c: T) => void,
  ): void {
    if (prev === undefined && curr === undefined) return;
    this.at(tail, () => {
      const currByKey = new Map((curr ?? []).map((c) => [key(c), c]));
      for (const p of prev ?? []) {
        const k = key(p);
        const c = currByKey.get(k);
        if (c === undefined) {
          this.add('ARRAY_MISSING_ELEMENT', `"${k}" has been removed from the current field`);
          continue;
        }
        currByKey.delete(k);
        this.at(k, () => each(p, c));
      }
      if (currByKey.size === 0) return;
      if (onAdded !== undefined) for (const c of currByKey.values()) onAdded(c);
      else
        this.add('SUPERSET', `Current values have these extra values: ${[...currByKey.keys()].join(', ')}`);
    });
  }

  resource(prev: ResourceSchema, curr: ResourceSchema, usageOfValue?: TypeUsage): void {
    // A subresource's methods carry its own resource-level errors, not its parent's.
    const errorsOf = (r: ResourceSchema): readonly ServiceErrorSchema[] =>
      (r.collection ?? r.association ?? r.simple ?? r.actionsSet)?.serviceErrors ?? [];
    this.#resourceErrors.push({ prev: errorsOf(prev), curr: errorsOf(curr) });
    try {
      this.#resource(prev, curr, usageOfValue);
    } finally {
      this.#resourceErrors.pop();
    }
  }

  #resource(prev: ResourceSchema, curr: ResourceSchema, usageOfValue?: TypeUsage): void {
    this.single('name', prev.name, curr.name);
    this.doc(prev.doc, curr.doc);
    this.annotations(prev.annotations, curr.annotations);
    this.dataAnnotations(prev, curr);
    this.single('namespace', prev.namespace, curr.namespace);
    this.equal('d2ServiceName', prev.d2ServiceName, curr.d2ServiceName);
    this.single('path', prev.path, curr.path);
    this.equal('entityType', prev.entityType ?? 'STRUCTURED_DATA', curr.entityType ?? 'STRUCTURED_DATA');
    const kind = resourceKind(prev);
    const currKind = resourceKind(curr);
    const supports = [...((curr.collection ?? curr.association ?? curr.simple)?.supports ?? [])];
    const finders = (curr.collection ?? curr.association)?.finders ?? [];
    const readOnly = supports.every((m) => READ_METHODS.has(m));
    const valueUsage: TypeUsage =
      usageOfValue ??
      (readOnly || (finders.length > 0 && supports.length === 0) ? 'response' : 'request and response');
    this.type('schema', prev.schema, curr.schema, valueUsage, true);
    if (kind === undefined || currKind === undefined) return;
    if (kind !== currKind) {
      this.add(
        'VALUE_WRONG_OPTIONALITY',
        `"${kind}" may not be removed because it exists in the previous version`,
        kind,
      );
      return;
    }
    this.at(kind, () => {
      if (kind === 'collection') this.collection(prev.collection!, curr.collection!);
      else if (kind === 'association') {
        const p = prev.association!;
        const c = curr.association!;
        this.single('identifier', p.identifier, c.identifier);
        this.at('assocKeys', () => {
          const currNames = c.assocKeys.map((k) => k.name);
          const prevNames = p.assocKeys.map((k) => k.name);
          for (const k of prevNames.filter((n) => !currNames.includes(n)))
            this.add('ARRAY_MISSING_ELEMENT', `"${k}" has been removed from the current field`);
          if (currNames.some((n) => !prevNames.includes(n)))
            this.add('ARRAY_NOT_EQUAL', `Current field must be these values: ${prevNames.join(', ')}`);
          for (const k of p.assocKeys) {
            const ck = c.assocKeys.find((x) => x.name === k.name);
            if (ck !== undefined)
              this.at(k.name, () => this.type('type', k.type, ck.type, 'request and response', false));
          }
        });
        this.keyed(p, c);
      } else if (kind === 'simple') {
        this.superset('supports', prev.simple!.supports, curr.simple!.supports);
        this.byKey(
          'methods',
          prev.simple!.methods,
          curr.simple!.methods,
          (m) => m.method,
          (p, c) => this.method(p, c),
        );
        this.byKey(
          'actions',
          prev.simple!.actions,
          curr.simple!.actions,
          (a) => a.name,
          (p, c) => this.action(p, c),
        );
        this.at('entity', () => this.entity(prev.simple!.entity, curr.simple!.entity));
      } else {
        this.byKey(
          'actions',
          prev.actionsSet!.actions,
          curr.actionsSet!.actions,
          (a) => a.name,
          (p, c) => this.action(p, c),
        );
      }
    });
  }

  collection(p: CollectionSchema, c: CollectionSchema): void {
    this.at('identifier', () => {
      this.single('name', p.identifier.name, c.identifier.name);
      this.type('type', p.identifier.type, c.identifier.type, 'request and response', false);
      this.type('params', p.identifier.params, c.identifier.params, 'request', true);
    });
    this.keyed(p, c);
  }

  /** What collections and associations share. */
  keyed(p: Omit<CollectionSchema, 'identifier'>, c: Omit<CollectionSchema, 'identifier'>): void {
    this.byKey(
      'alternativeKeys',
      p.alternativeKeys,
      c.alternativeKeys,
      (k) => k.name,
      (a: AlternativeKeySchema, b) => {
        this.doc(a.doc, b.doc);
        this.single('type', a.type, b.type);
        this.single('keyCoercer', a.keyCoercer, b.keyCoercer);
      },
    );
    this.superset('supports', p.supports, c.supports);
    this.byKey(
      'methods',
      p.methods,
      c.methods,
      (m) => m.method,
      (a, b) => this.method(a, b),
    );
    this.byKey(
      'batchFinders',
      p.batchFinders,
      c.batchFinders,
      (f) => f.name ?? '',
      (a, b) => this.batchFinder(a, b),
    );
    this.byKey(
      'finders',
      p.finders,
      c.finders,
      (f) => f.name ?? '',
      (a, b) => this.finder(a, b),
    );
    this.byKey(
      'actions',
      p.actions,
      c.actions,
      (a) => a.name,
      (a, b) => this.action(a, b),
    );
    this.at('entity', () => this.entity(p.entity, c.entity));
  }

  entity(p: EntitySchema, c: EntitySchema): void {
    this.single('path', p.path, c.path);
    this.byKey(
      'actions',
      p.actions,
      c.actions,
      (a) => a.name,
      (a, b) => this.action(a, b),
    );
    this.byKey(
      'subresources',
      p.subresources,
      c.subresources,
      (r) => r.name,
      (a, b) => this.resource(a, b),
    );
  }

  method(p: RestMethodSchema, c: RestMethodSchema): void {
    this.doc(p.doc, c.doc);
    this.annotations(p.annotations, c.annotations);
    this.parameters(p.parameters, c.parameters);
    this.metadata(p.metadata?.type, c.metadata?.type);
    this.paging(p.pagingSupported, c.pagingSupported);
    this.maxBatchSize(p.maxBatchSize, c.maxBatchSize);
    this.errors(p.serviceErrors, c.serviceErrors);
  }

  finder(p: FinderSchema, c: FinderSchema): void {
    this.doc(p.doc, c.doc);
    this.annotations(p.annotations, c.annotations);
    this.parameters(p.parameters, c.parameters);
    this.metadata(p.metadata?.type, c.metadata?.type);
    this.paging(p.pagingSupported, c.pagingSupported);
    this.assocKeys(p, c);
    this.single('linkedBatchFinderName', p.linkedBatchFinderName, c.linkedBatchFinderName);
    this.errors(p.serviceErrors, c.serviceErrors);
  }

  batchFinder(p: BatchFinderSchema, c: BatchFinderSchema): void {
    this.finder({ ...p, linkedBatchFinderName: undefined }, { ...c, linkedBatchFinderName: undefined });
    this.equal('batchParam', p.batchParam, c.batchParam);
    this.maxBatchSize(p.maxBatchSize, c.maxBatchSize);
  }

  assocKeys(p: FinderSchema, c: FinderSchema): void {
    if (p.assocKeys !== undefined && c.assocKeys === undefined && c.assocKey !== undefined) {
      this.add(
        'FINDER_ASSOCKEYS_DOWNGRADE',
        'Finder AssocKeys may not be downgraded to AssocKey',
        'assocKeys',
      );
      return;
    }
    const before = p.assocKeys ?? (p.assocKey !== undefined ? [p.assocKey] : []);
    const after = c.assocKeys ?? (c.assocKey !== undefined ? [c.assocKey] : []);
    if (json(before) !== json(after))
      this.add(
        'VALUE_NOT_EQUAL',
        `Current value "${after.join(', ')}" does not match the previous value "${before.join(', ')}"`,
        c.assocKeys !== undefined ? 'assocKeys' : 'assocKey',
      );
  }

  action(p: ActionSchema, c: ActionSchema): void {
    this.doc(p.doc, c.doc);
    this.annotations(p.annotations, c.annotations);
    this.parameters(p.parameters, c.parameters);
    this.type('returns', p.returns, c.returns, 'response', true);
    this.equal('readOnly', p.readOnly ?? false, c.readOnly ?? false);
    this.throws(p.throws, c.throws);
    this.errors(p.serviceErrors, c.serviceErrors);
  }

  metadata(p: string | undefined, c: string | undefined): void {
    if (p === undefined && c === undefined) return;
    if (p === undefined) {
      this.add(
        'OPTIONAL_VALUE',
        'Optional field "metadata" was previously missing but currently present',
        'metadata',
      );
      return;
    }
    this.at('metadata', () => this.type('type', p, c, 'response', false));
  }

  paging(p: boolean | undefined, c: boolean | undefined): void {
    if ((p ?? false) === (c ?? false)) return;
    if (c === true) this.add('PAGING_ADDED', 'Method added paging support');
    else this.add('PAGING_REMOVED', 'Method removed paging support');
  }

  maxBatchSize(p: MaxBatchSizeSchema | undefined, c: MaxBatchSizeSchema | undefined): void {
    if (p === undefined && c === undefined) return;
    if (p === undefined) {
      if (c!.validate === true)
        this.add('MAX_BATCH_SIZE_ADDED_WITH_VALIDATION_ON', 'Method added MaxBatchSize with validation');
      else
        this.add('MAX_BATCH_SIZE_ADDED_WITH_VALIDATION_OFF', 'Method added MaxBatchSize without validation');
      return;
    }
    if (c === undefined) {
      this.add('MAX_BATCH_SIZE_REMOVED', 'Method removed MaxBatchSize');
      return;
    }
    const pv = p.validate ?? false;
    const cv = c.validate ?? false;
    // One change per method, as Rest.li: a validation switch is the change, whatever the value did.
    if (!pv && cv)
      this.add('MAX_BATCH_SIZE_TURN_ON_VALIDATION', 'Method updated MaxBatchSize validation from off to on');
    else if (pv && !cv)
      this.add('MAX_BATCH_SIZE_TURN_OFF_VALIDATION', 'Method updated MaxBatchSize validation from on to off');
    else if (c.value > p.value)
      this.add('MAX_BATCH_SIZE_VALUE_INCREASED', 'Method increased MaxBatchSize value');
    else if (c.value < p.value) {
      if (cv)
        this.add(
          'MAX_BATCH_SIZE_VALUE_DECREASED_WITH_VALIDATION_ON',
          'Method decreased MaxBatchSize value when validation is on',
        );
      else
        this.add(
          'MAX_BATCH_SIZE_VALUE_DECREASED_WITH_VALIDATION_OFF',
          'Method decreased MaxBatchSize value when validation is off',
        );
    }
  }

  /**
   * The service errors of one method (REST method, finder, batch finder, action), as Rest.li judges them:
   * what applies to the method is its resource's errors plus its own, on each side. So an error moved
   * between the resource and a method changes nothing for a method that has it either way; a method that
   * newly carries an error is `SERVICE_ERROR_ADDED` (breaking), one that no longer does
   * `SERVICE_ERROR_REMOVED`. Resource-level errors are not reported at the resource itself.
   */
  errors(p: readonly ServiceErrorSchema[] | undefined, c: readonly ServiceErrorSchema[] | undefined): void {
    const level = this.#resourceErrors[this.#resourceErrors.length - 1] ?? { prev: [], curr: [] };
    // By code; where the resource and the method both declare a code, the resource's stands (Rest.li's union).
    const union = (...lists: (readonly ServiceErrorSchema[] | undefined)[]): Map<string, ServiceErrorSchema> => {
      const out = new Map<string, ServiceErrorSchema>();
      for (const list of lists) for (const e of list ?? []) if (!out.has(e.code)) out.set(e.code, e);
      return out;
    };
    const before = union(level.prev, p);
    const after = union(level.curr, c);
    if (before.size === 0 && after.size === 0) return;
    this.at('serviceErrors', () => {
      for (const [code, e] of after) {
        const old = before.get(code);
        if (old === undefined) this.add('SERVICE_ERROR_ADDED', `Service error "${code}" now applies`, code);
        else {
          this.at(code, () => {
            this.equal('status', old.status, e.status);
            this.single('errorDetailType', old.errorDetailType, e.errorDetailType);
            this.single('message', old.message, e.message);
          });
          this.superset(`${code}/parameters`, e.parameters, old.parameters);
        }
      }
      for (const code of before.keys())
        if (!after.has(code))
          this.add('SERVICE_ERROR_REMOVED', `Service error "${code}" no longer applies`, code);
    });
  }

  parameters(p: readonly ParameterSchema[] | undefined, c: readonly ParameterSchema[] | undefined): void {
    this.byKey(
      'parameters',
      p,
      c,
      (x) => x.name,
      (a, b) => this.parameter(a, b),
      (added) => {
        if (effectiveOptional(added))
          this.add('PARAMETER_NEW_OPTIONAL', `New optional parameter "${added.name}" is added`, added.name);
        else
          this.add(
            'PARAMETER_NEW_REQUIRED',
            `Unable to add the new required parameter "${added.name}"`,
            added.name,
          );
      },
    );
  }

  parameter(p: ParameterSchema, c: ParameterSchema): void {
    this.doc(p.doc, c.doc);
    this.annotations(p.annotations, c.annotations);
    if (p.items !== undefined || c.items !== undefined) this.#legacyItems(p, c);
    else this.type('type', p.type, c.type, 'request', false);
    const wasOptional = effectiveOptional(p);
    const isOptional = effectiveOptional(c);
    if (wasOptional && !isOptional)
      this.add(
        'PARAMETER_WRONG_OPTIONALITY',
        'Unable to change the previous optional parameter to currently required',
        'optional',
      );
    if (!wasOptional && isOptional)
      this.add('OPTIONAL_PARAMETER', 'Previous required parameter is changed to currently optional');
    if (p.default !== undefined && c.default !== undefined && p.default !== c.default)
      this.add('VALUE_DIFFERENT', `Previous value "${p.default}" is changed to "${c.default}"`, 'default');
    else if (p.default !== undefined && c.default === undefined && p.optional === true)
      this.add(
        'VALUE_WRONG_OPTIONALITY',
        '"default" may not be removed because it exists in the previous version',
        'default',
      );
    else if (p.default === undefined && c.default !== undefined)
      this.add(
        'OPTIONAL_VALUE',
        'Optional field "default" was previously missing but currently present',
        'default',
      );
  }

  /**
   * A parameter written in the legacy form on either side (`"type" : "array", "items" : "boolean"`), as
   * Rest.li's checker compares it: the deprecation is noted (compatible), and the item types are compared,
   * a side without `items` giving the items of its array type (`{ "type" : "array", "items" : "boolean" }`),
   * so the two spellings of one parameter are the same parameter. A side whose type is not an array is a
   * `TYPE_ERROR` (breaking).
   */
  #legacyItems(p: ParameterSchema, c: ParameterSchema): void {
    this.add('DEPRECATED', 'The "items" field is deprecated');
    const sides = [
      [p, this.#prev],
      [c, this.#curr],
    ] as const;
    const items: { text: string; schema: DataSchema | string }[] = [];
    for (const [param, types] of sides) {
      if (param.items !== undefined) {
        const text = typeText(param.items) ?? '';
        items.push({ text, schema: types.schema(text) });
        continue;
      }
      const text = typeText(param.type);
      if (text === undefined) {
        this.add('TYPE_MISSING', 'Type is required but missing', 'type');
        return;
      }
      const array = types.schema(text);
      if (typeof array !== 'string' && array.getType() !== 'ARRAY') {
        this.add('TYPE_ERROR', `expect an array, got ${array.getType()}`, 'type');
        return;
      }
      items.push(
        typeof array === 'string'
          ? { text, schema: array }
          : { text, schema: (array as ArrayDataSchema).getItems() },
      );
    }
    const [before, after] = items as [(typeof items)[number], (typeof items)[number]];
    if (typeof before.schema === 'string' && typeof after.schema === 'string' && before.text === after.text)
      return;
    this.#compareTypes('items', before.text, after.text, before.schema, after.schema, 'request');
  }
}

/** The changes from one snapshot (or `.restspec.json`, without models) to the next, and their summary. */
export interface ResourceCompatResult {
  readonly changes: readonly CompatChange[];
}

/**
 * Compares two versions of a resource's snapshot: the resource (kind, keys, supports, methods, finders,
 * batch finders, actions, parameters, return and metadata types, paging, batch sizes, service errors,
 * subresources) and every named schema of the models, as Rest.li's IDL checker classifies them.
 *
 * @throws CompatInputError when the models of a snapshot do not parse
 */
export function compareSnapshots(
  older: Pick<Snapshot, 'schema'> & { readonly models?: Snapshot['models'] },
  newer: Pick<Snapshot, 'schema'> & { readonly models?: Snapshot['models'] },
  options: ResourceCompatOptions = {},
): ResourceCompatResult {
  const resolverPath = options.resolverPath ?? [];
  // A `.restspec.json` has no models: its names are resolved with the other side's models (Rest.li
  // checks an IDL against a snapshot the same way), then on the resolver path.
  const prev = new Types(older.models ?? newer.models, resolverPath, options.files?.older ?? 'old');
  const curr = new Types(newer.models ?? older.models, resolverPath, options.files?.newer ?? 'new');
  const check = new ResourceCheck(prev, curr, options);
  check.compareModels();
  // The root segment is the resource name, so paths read `/photos/finders/search/parameters/q`.
  check.at(older.schema.name, () => check.resource(older.schema, newer.schema));
  check.finish();
  return { changes: check.changes };
}
