/**
 * The `.pdsc` parser. One parse session reads one or more texts and runs in three steps:
 *
 * 1. Structure: each text is scanned (json-locations.ts) and walked; every schema object is created and
 *    every named schema is bound to its full name *before* its body is read (so a record may refer to
 *    itself). Type references by name are not looked up yet: each becomes a deferred slot.
 * 2. Names: the deferred references are resolved in order, the current namespace first, then as given;
 *    a name that is not bound yet is looked up on the resolver path, which parses that file (step 1) into
 *    the same session. Deferring every reference is what makes mutual references across files work,
 *    whatever order the files are read in; inside one text a name must be defined before its use (below).
 * 3. Checks that need resolved types: typeref cycles, includes (transitive, cycles, non-records, field
 *    names defined twice), union rules, and defaults against their field types.
 *
 * Problems are collected, not thrown: the session fails at the end with all of them (schema-resolver.ts).
 *
 * Where we differ from plain deferral, to accept exactly what the reference accepts (each rule cites the
 * reference source it follows, rest.li 29.x `data/src/main/java/com/linkedin/data/schema/`):
 * - A name defined later in the same text is refused, as `SchemaParser.java` resolves each name when it reads
 *   it (`AbstractSchemaParser.stringToDataSchema`: `"B" or "a.B" cannot be resolved.`). The
 *   `allowForwardReferences` option accepts it. Names in other files and mutual references across files
 *   are unaffected: the reference loads those from the resolver path when it meets them.
 * - What the reference accepts but is most likely a mistake becomes a *warning* (refused under `strict`):
 *   defaults the reference's default validation fixes or ignores (see default-value-check.ts), and
 *   `deprecatedSymbols` naming a symbol the enum lacks (the .pdsc parser keeps `deprecatedSymbols` as a
 *   plain property and never checks it).
 * - The order of a record's fields follows the text: its own fields first when the `fields` key comes before
 *   `include`, else the included ones first (`SchemaParser.parseRecord` sets
 *   `RecordDataSchema.setFieldsBeforeIncludes` from the JSON locations).
 *
 * Optionality (brief, schema language difference 1): a field is optional only when `optional` is true. A
 * union with a null member is an ordinary type whose value may be null; it never makes a field optional,
 * and a field typed so is required like any other. We do not reject such unions (Rest.li accepts them and
 * so must we, to read its schemas); the rule is enforced by the model instead: `RecordField.getOptional()`
 * reads `optional` and nothing else.
 */
import { DataList, DataMap } from '../data';
import { installSchemaLocations } from './schema-locations';
import { installSchemaText } from './schema-text';
import { ArrayDataSchema } from './array-schema';
import type { DataSchema, SchemaLocation } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { checkDefaultValue, type DefaultValueProblem } from './default-value-check';
import { EnumDataSchema } from './enum-schema';
import { FixedDataSchema } from './fixed-schema';
import { STATE } from './internal';
import {
  LineIndex,
  nodeAt,
  pointerSegment,
  scanJson,
  toData,
  type JsonNode,
  type JsonObject,
} from './json-locations';
import { MapDataSchema } from './map-schema';
import { NamedDataSchema, type Deprecation } from './named-schema';
import { primitiveSchema, UnresolvedDataSchema } from './primitive-schemas';
import { FieldOrder, RecordDataSchema, RecordField, RecordType, setRecordFields } from './record-schema';
import type { SchemaProblem } from './schema-parse-error';
import {
  inheritedPackage,
  isValidIdentifier,
  isValidName,
  isValidNamespace,
  referenceCandidates,
} from './schema-names';
import { schemaToJson } from './schema-to-json';
import { TyperefDataSchema, type JavaBinding } from './typeref-schema';
import { UnionDataSchema, UnionMember } from './union-schema';
import { renderValue } from './value-text';

// where schemas are parsed (Node), toString() is their JSON and generated classes' schemas keep their
// locations, as they always did (schema-text.ts, schema-locations.ts)
installSchemaText();
installSchemaLocations();

const UNRESOLVED: DataSchema = UnresolvedDataSchema.INSTANCE;

/** How lenient a parse session is; both default to false. */
export interface ParseSessionOptions {
  /** Warnings become problems (the session fails). */
  readonly strict?: boolean;
  /** A name may refer to a schema defined later in the same text (the reference refuses it). */
  readonly allowForwardReferences?: boolean;
}

/** What the parser needs from the resolver: the name bindings and the files on the resolver path. */
export interface ParseHost {
  /** The schema bound to `fullName`, if any. */
  lookup(fullName: string): NamedDataSchema | undefined;
  /** Binds `fullName` (the session remembers it, to undo a failed session). */
  bind(fullName: string, schema: NamedDataSchema, session: ParseSession): void;
  /** Reads the resolver-path files that may define `fullName` into the session; the schema if one does. */
  load(fullName: string, session: ParseSession): NamedDataSchema | undefined;
  /** Says where names were looked for, for "cannot be resolved" messages. */
  describeSearch(candidates: readonly string[]): string;
}

/** One text being parsed. */
export interface Source {
  readonly file: string | undefined;
  readonly lines: LineIndex;
  readonly index: number;
}

/** A place in a text: JSON path and char offset. */
export interface Site {
  readonly source: Source;
  readonly path: string;
  readonly offset: number;
}

interface Scope {
  readonly namespace: string;
  readonly package: string;
}

interface Deferred {
  readonly name: string;
  readonly candidates: readonly string[];
  readonly site: Site;
  readonly assign: (schema: DataSchema) => void;
}

interface IncludeEntry {
  schema: DataSchema;
  readonly site: Site;
  readonly inline: boolean;
}

interface RecordEntry {
  readonly schema: RecordDataSchema;
  readonly site: Site;
  readonly includes: IncludeEntry[];
}

interface UnionEntry {
  readonly schema: UnionDataSchema;
  readonly site: Site;
  readonly memberSites: Site[];
}

interface DefaultEntry {
  readonly field: RecordField;
  readonly record: RecordDataSchema;
  readonly node: JsonNode;
  readonly site: Site;
}

interface Marked {
  readonly [STATE]: { hasError: boolean };
}

interface CollectedProblem {
  readonly problem: SchemaProblem;
  readonly source: number;
  readonly offset: number;
}

/** The state of one parse session: problems, pending references, and what steps 3 must check. */
export class ParseSession {
  readonly sources: Source[] = [];
  readonly deferred: Deferred[] = [];
  readonly records: RecordEntry[] = [];
  readonly unions: UnionEntry[] = [];
  readonly typerefs: { readonly schema: TyperefDataSchema; readonly site: Site }[] = [];
  readonly defaults: DefaultEntry[] = [];
  readonly fieldSites = new Map<RecordField, Site>();
  /** Where each named schema of this session is defined (its object), to find forward references. */
  readonly definitionSites = new Map<NamedDataSchema, Site>();
  /** Names bound and files read in this session, to undo a failed session. */
  readonly boundNames: string[] = [];
  readonly files: string[] = [];
  readonly #problems: CollectedProblem[] = [];
  readonly #warnings: CollectedProblem[] = [];

  constructor(
    readonly host: ParseHost,
    readonly options: ParseSessionOptions = {},
  ) {}

  get problemCount(): number {
    return this.#problems.length;
  }

  addSource(file: string | undefined, text: string): Source {
    const source: Source = { file, lines: new LineIndex(text), index: this.sources.length };
    this.sources.push(source);
    return source;
  }

  /** Records a problem at `site` (or without a place) and marks `schema` as having an error. */
  report(site: Site | undefined, message: string, schema?: Marked, file?: string): void {
    if (schema !== undefined) schema[STATE].hasError = true;
    this.#problems.push(collect(site, message, file));
  }

  /**
   * Records something the reference accepts but that is most likely a mistake: a warning, or under `strict`
   * a problem.
   */
  warn(site: Site, message: string, schema?: Marked): void {
    if (this.options.strict === true) this.report(site, `${message} (refused by strict parsing)`, schema);
    else this.#warnings.push(collect(site, message));
  }

  /** The problems in reading order: by text, then by place in the text. */
  problems(): SchemaProblem[] {
    return inReadingOrder(this.#problems);
  }

  /** The warnings in reading order. */
  warnings(): SchemaProblem[] {
    return inReadingOrder(this.#warnings);
  }

  /** Step 2: resolves every deferred reference (reading more files as needed). */
  resolveReferences(): void {
    const forwardOk = this.options.allowForwardReferences === true;
    for (let k = 0; k < this.deferred.length; k++) {
      const d = this.deferred[k]!;
      let found: NamedDataSchema | undefined;
      // The reference resolves a name when it reads it, so a schema defined further down the same text does
      // not exist yet: the next candidate is tried instead, and failing that the name cannot be resolved.
      let later: { schema: NamedDataSchema; site: Site } | undefined;
      for (const candidate of d.candidates) {
        const bound = this.host.lookup(candidate);
        const site = bound === undefined || forwardOk ? undefined : this.definitionSites.get(bound);
        if (site !== undefined && site.source === d.site.source && site.offset > d.site.offset) {
          later ??= { schema: bound!, site };
          continue;
        }
        found = bound ?? this.host.load(candidate, this);
        if (found !== undefined) break;
      }
      const names = d.candidates.length > 1 ? `"${d.name}" or "${d.candidates[0]}"` : `"${d.name}"`;
      if (found !== undefined) {
        d.assign(found);
      } else if (later !== undefined) {
        const { line, column } = later.site.source.lines.position(later.site.offset);
        this.report(
          d.site,
          `${names} cannot be resolved (${later.schema.getFullName()} is defined later in the same text, at ` +
            `line ${line}, column ${column}; Rest.li resolves names in text order: define it before its first ` +
            'use, or parse with allowForwardReferences)',
        );
      } else {
        this.report(d.site, `${names} cannot be resolved${this.host.describeSearch(d.candidates)}`);
      }
    }
    this.deferred.length = 0;
  }

  /** Step 3: the checks that need resolved types. */
  finalize(): void {
    this.checkTyperefCycles();
    this.expandIncludes();
    for (const u of this.unions) this.checkUnion(u);
    for (const d of this.defaults) this.checkDefault(d);
  }

  private checkTyperefCycles(): void {
    const cyclic: TyperefDataSchema[] = [];
    for (const { schema, site } of this.typerefs) {
      if (reaches(schema[STATE].ref, schema, new Set())) {
        this.report(
          site,
          `"${schema.getFullName()}" cannot be parsed as the typeref has a circular reference to itself`,
          schema,
        );
        cyclic.push(schema);
      }
    }
    // Cut the cycles so that dereferencing terminates while the remaining checks run.
    for (const t of cyclic) t[STATE].ref = UNRESOLVED;
  }

  private expandIncludes(): void {
    const entries = new Map(this.records.map((r) => [r.schema, r]));
    const state = new Map<RecordDataSchema, 'visiting' | 'done'>();
    const stack: RecordDataSchema[] = [];
    const visit = (entry: RecordEntry): void => {
      const record = entry.schema;
      if (state.has(record)) return;
      state.set(record, 'visiting');
      stack.push(record);
      const fields: RecordField[] = [];
      const include: NamedDataSchema[] = [];
      const inline = new Set<NamedDataSchema>();
      for (const inc of entry.includes) {
        const schema = inc.schema;
        if (schema === UNRESOLVED) continue;
        const target = schema.getDereferencedSchema();
        if (!(target instanceof RecordDataSchema)) {
          this.report(
            inc.site,
            `"${record.getFullName()}" cannot include ${describeType(schema)} because it is not a record`,
            record,
          );
          continue;
        }
        include.push(schema as NamedDataSchema);
        if (inc.inline) inline.add(schema as NamedDataSchema);
        const targetEntry = entries.get(target);
        if (targetEntry !== undefined) {
          if (state.get(target) === 'visiting') {
            const cycle = [...stack.slice(stack.indexOf(target)), target]
              .map((r) => r.getFullName())
              .join(' -> ');
            this.report(
              inc.site,
              `"${record.getFullName()}" cannot include "${target.getFullName()}": circular reference involving includes (${cycle})`,
              record,
            );
            continue;
          }
          visit(targetEntry);
        }
        fields.push(...target.getFields());
      }
      if (record[STATE].fieldsBeforeIncludes) fields.unshift(...record[STATE].ownFields);
      else fields.push(...record[STATE].ownFields);
      const byName = new Map<string, RecordField>();
      const kept: RecordField[] = [];
      for (const f of fields) {
        const previous = byName.get(f.getName());
        if (previous === undefined) {
          byName.set(f.getName(), f);
          kept.push(f);
          continue;
        }
        const a = previous.getRecord();
        const b = f.getRecord();
        const both = a === record && b === record;
        const message = both
          ? `Field "${f.getName()}" defined more than once, with ${describeType(previous.getType())} and ${describeType(f.getType())}`
          : `Field "${f.getName()}" defined more than once, with ${describeType(previous.getType())} defined in "${a?.getFullName()}"` +
            ` and ${describeType(f.getType())} defined in "${b?.getFullName()}"`;
        this.report(this.fieldSites.get(f) ?? entry.site, message, record);
      }
      const s = record[STATE];
      s.include = include;
      s.includesDeclaredInline = inline;
      setRecordFields(record, kept);
      state.set(record, 'done');
      stack.pop();
    };
    for (const entry of this.records) visit(entry);
  }

  private checkUnion({ schema, site, memberSites }: UnionEntry): void {
    let aliased: boolean | undefined;
    let mixedReported = false;
    const keys = new Set<string>();
    const avroNames = new Set<string>();
    schema.getMembers().forEach((member, i) => {
      const type = member.getType();
      const memberSite = memberSites[i]!;
      if (type === UNRESOLVED) return;
      const deref = type.getDereferencedType();
      const hasAlias = member.hasAlias();
      if (deref !== DataSchemaType.NULL) {
        if (aliased === undefined) {
          aliased = hasAlias;
        } else if (aliased !== hasAlias && !mixedReported) {
          this.report(
            site,
            'Union definition should have aliases specified for either all or zero members.',
            schema,
          );
          mixedReported = true;
        }
      } else if (hasAlias) {
        this.report(
          memberSite,
          `null member should not have an alias (it has "${member.getAlias()}")`,
          schema,
        );
      }
      if (deref === DataSchemaType.UNION) {
        this.report(
          memberSite,
          `${describeType(type)} is a union; a union cannot be inside another union`,
          schema,
        );
      }
      const key = member.getUnionMemberKey();
      if (keys.has(key)) {
        this.report(
          memberSite,
          deref === DataSchemaType.NULL && !hasAlias
            ? 'null appears more than once in a union; a union has at most one null member'
            : `${hasAlias ? 'alias ' : ''}${key} appears more than once in a union`,
          schema,
        );
        return;
      }
      keys.add(key);
      const avroName = avroMemberName(type);
      if (!hasAlias && avroNames.has(avroName)) {
        this.report(
          memberSite,
          `${describeType(type)} has name ${avroName} that appears more than once in a union, this may cause compatibility problems with Avro`,
          schema,
        );
      }
      avroNames.add(avroName);
    });
    schema[STATE].keyIndex = undefined;
  }

  private checkDefault({ field, record, node, site }: DefaultEntry): void {
    const value = field[STATE].default!;
    const check = checkDefaultValue(value, field.getType());
    const where = (p: DefaultValueProblem): Site => ({
      source: site.source,
      path: site.path + p.path.map((s) => `/${pointerSegment(s)}`).join(''),
      offset: nodeAt(node, p.path).offset,
    });
    for (const p of check.problems) this.report(where(p), p.message, record);
    for (const p of check.warnings) this.warn(where(p), p.message, record);
    const stored = check.problems.length === 0 ? check.value : value;
    if (stored instanceof DataMap || stored instanceof DataList) stored.makeReadOnly();
    field[STATE].default = stored;
  }
}

function collect(site: Site | undefined, message: string, file?: string): CollectedProblem {
  if (site === undefined) {
    const problem: SchemaProblem = file === undefined ? { path: '', message } : { file, path: '', message };
    return { problem, source: Number.MAX_SAFE_INTEGER, offset: 0 };
  }
  const { line, column } = site.source.lines.position(site.offset);
  const problem: SchemaProblem =
    site.source.file === undefined
      ? { path: site.path, line, column, message }
      : { file: site.source.file, path: site.path, line, column, message };
  return { problem, source: site.source.index, offset: site.offset };
}

/** By text, then by place in the text, then in the order found. */
function inReadingOrder(collected: readonly CollectedProblem[]): SchemaProblem[] {
  return collected
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.source - b.p.source || a.p.offset - b.p.offset || a.i - b.i)
    .map(({ p }) => p.problem);
}

/** Step 1 for one text: scans it and builds its schemas into the session; returns its top-level schemas. */
export function parseSource(session: ParseSession, text: string, file: string | undefined): DataSchema[] {
  const source = session.addSource(file, text);
  const scan = scanJson(text);
  if (scan.error !== undefined) {
    session.report({ source, path: '', offset: scan.error.offset }, `invalid JSON: ${scan.error.message}`);
    return [];
  }
  if (scan.values.length === 0) {
    session.report({ source, path: '', offset: 0 }, 'the text holds no schema');
    return [];
  }
  return parseNodes(session, source, scan.values);
}

/**
 * Step 1 over values already scanned from `source` (the PDL parser builds the same nodes, with offsets into
 * its own text, so that both syntaxes share every rule below). `checkDuplicateKeys` false skips the walk that
 * reports a key given twice in an object: for nodes built without any (the PDL parser, which checks as it builds).
 */
export function parseNodes(
  session: ParseSession,
  source: Source,
  nodes: readonly JsonNode[],
  checkDuplicateKeys = true,
): DataSchema[] {
  const parser = new TextParser(session, source);
  const out: DataSchema[] = [];
  nodes.forEach((node, i) => {
    if (checkDuplicateKeys) parser.duplicateKeys(node, '');
    out.push(UNRESOLVED);
    parser.type(node, '', { namespace: '', package: '' }, (s) => {
      out[i] = s;
    });
  });
  return out;
}

/** Attributes that only some schema types have; any other type having one is an error. */
const SCHEMA_ATTRIBUTES = new Set([
  'name',
  'namespace',
  'package',
  'aliases',
  'fields',
  'include',
  'symbols',
  'symbolDocs',
  'deprecatedSymbols',
  'size',
  'ref',
  'items',
  'values',
]);
const NAMED_KEYS = ['type', 'name', 'namespace', 'package', 'doc', 'aliases', 'deprecated'];
const RECORD_KEYS = new Set([...NAMED_KEYS, 'fields', 'include']);
const ENUM_KEYS = new Set([...NAMED_KEYS, 'symbols', 'symbolDocs', 'deprecatedSymbols']);
const FIXED_KEYS = new Set([...NAMED_KEYS, 'size']);
const TYPEREF_KEYS = new Set([...NAMED_KEYS, 'ref', 'java']);
const ARRAY_KEYS = new Set(['type', 'items']);
const MAP_KEYS = new Set(['type', 'values']);
const FIELD_KEYS = new Set(['name', 'type', 'doc', 'default', 'optional', 'order', 'aliases', 'deprecated']);
const MEMBER_KEYS = new Set(['alias', 'type', 'doc']);
const ORDERS: ReadonlySet<string> = new Set(Object.values(FieldOrder));
const INT_MAX = 2 ** 31 - 1;

interface Header {
  readonly name: string;
  readonly namespace: string;
  readonly fullName: string;
  readonly package: string;
  readonly doc: string;
  readonly aliases: string[];
  readonly deprecated: Deprecation | undefined;
  readonly nameSite: Site;
}

class TextParser {
  constructor(
    private readonly session: ParseSession,
    private readonly source: Source,
  ) {}

  private site(path: string, offset: number): Site {
    return { source: this.source, path, offset };
  }

  private problem(path: string, offset: number, message: string, schema?: Marked): void {
    this.session.report(this.site(path, offset), message, schema);
  }

  private location(offset: number): SchemaLocation {
    const { line, column } = this.source.lines.position(offset);
    return this.source.file === undefined ? { line, column } : { file: this.source.file, line, column };
  }

  /** Reports every key defined twice in an object, anywhere below `node`. */
  duplicateKeys(node: JsonNode, path: string): void {
    if (node.kind === 'array') {
      node.items.forEach((item, i) => this.duplicateKeys(item, `${path}/${i}`));
    } else if (node.kind === 'object') {
      const seen = new Set<string>();
      for (const e of node.entries) {
        const p = `${path}/${pointerSegment(e.key)}`;
        if (seen.has(e.key)) this.problem(p, e.keyOffset, `key "${e.key}" is defined more than once`);
        seen.add(e.key);
        this.duplicateKeys(e.value, p);
      }
    }
  }

  /** Parses the type at `node` and hands it to `assign` (now, or when a name is resolved). */
  type(node: JsonNode, path: string, scope: Scope, assign: (schema: DataSchema) => void): void {
    switch (node.kind) {
      case 'string': {
        const primitive = primitiveSchema(node.value);
        if (primitive !== undefined) {
          assign(primitive);
          return;
        }
        assign(UNRESOLVED);
        this.session.deferred.push({
          name: node.value,
          candidates: referenceCandidates(node.value, scope.namespace),
          site: this.site(path, node.offset),
          assign,
        });
        return;
      }
      case 'array':
        assign(this.union(node.items, path, scope, node.offset));
        return;
      case 'object':
        assign(this.complex(node, path, scope));
        return;
      default:
        this.problem(path, node.offset, `${renderValue(toData(node))} is not a type`);
        assign(UNRESOLVED);
    }
  }

  private complex(obj: JsonObject, path: string, scope: Scope): DataSchema {
    const typeEntry = obj.map.get('type');
    if (typeEntry === undefined) {
      this.problem(path, obj.offset, 'type (with string value) is required but it is not present');
      return UNRESOLVED;
    }
    const t = typeEntry.value;
    if (t.kind !== 'string') {
      this.problem(`${path}/type`, t.offset, `type with value ${renderValue(toData(t))} is not a string`);
      return UNRESOLVED;
    }
    const primitive = primitiveSchema(t.value);
    if (primitive !== undefined) return primitive; // verbose form { "type": "int" }
    switch (t.value) {
      case 'record':
      case 'error':
        return this.record(obj, path, scope, t.value);
      case 'enum':
        return this.enumSchema(obj, path, scope);
      case 'fixed':
        return this.fixed(obj, path, scope);
      case 'typeref':
        return this.typeref(obj, path, scope);
      case 'array':
        return this.array(obj, path, scope);
      case 'map':
        return this.map(obj, path, scope);
      default:
        this.problem(`${path}/type`, t.offset, `"${t.value}" is an invalid type`);
        return UNRESOLVED;
    }
  }

  // ---- named schemas ----

  private header(obj: JsonObject, path: string, scope: Scope): Header {
    const name = this.string(obj, 'name', path, true);
    const nameEntry = obj.map.get('name');
    const nameSite = this.site(
      nameEntry === undefined ? path : `${path}/name`,
      nameEntry?.value.offset ?? obj.offset,
    );
    const givenNamespace = this.string(obj, 'namespace', path, false);
    const givenPackage = this.string(obj, 'package', path, false);
    let simple = '';
    let namespace = givenNamespace ?? scope.namespace;
    let valid = name !== undefined;
    if (name !== undefined) {
      const dot = name.lastIndexOf('.');
      if (!isValidName(name)) {
        this.session.report(nameSite, `"${name}" is an invalid name`);
        valid = false;
      }
      if (dot >= 0) {
        namespace = name.slice(0, dot);
        simple = name.slice(dot + 1);
      } else {
        simple = name;
        if (givenNamespace !== undefined && !isValidNamespace(givenNamespace)) {
          const e = obj.map.get('namespace')!;
          this.problem(`${path}/namespace`, e.value.offset, `"${givenNamespace}" is an invalid namespace`);
          valid = false;
        }
      }
    }
    if (givenPackage !== undefined && !isValidNamespace(givenPackage)) {
      this.problem(
        `${path}/package`,
        obj.map.get('package')!.value.offset,
        `"${givenPackage}" is an invalid package`,
      );
    }
    const pkg = givenPackage ?? inheritedPackage(scope.package, scope.namespace, namespace);
    return {
      name: simple,
      namespace,
      fullName: valid ? (namespace === '' ? simple : `${namespace}.${simple}`) : '',
      package: pkg,
      doc: this.string(obj, 'doc', path, false) ?? '',
      aliases: this.aliases(obj, path, namespace),
      deprecated: this.deprecation(obj, path),
      nameSite,
    };
  }

  private aliases(obj: JsonObject, path: string, namespace: string): string[] {
    const list = this.list(obj, 'aliases', path, false);
    const out: string[] = [];
    list?.forEach((item, i) => {
      if (item.kind !== 'string') {
        this.problem(`${path}/aliases/${i}`, item.offset, `${renderValue(toData(item))} is not a string`);
      } else if (!isValidName(item.value)) {
        this.problem(`${path}/aliases/${i}`, item.offset, `"${item.value}" is an invalid name`);
      } else {
        out.push(item.value.includes('.') || namespace === '' ? item.value : `${namespace}.${item.value}`);
      }
    });
    return out;
  }

  private deprecation(obj: JsonObject, path: string): Deprecation | undefined {
    const e = obj.map.get('deprecated');
    if (e === undefined) return undefined;
    if (e.value.kind === 'string' || e.value.kind === 'boolean') return e.value.value;
    this.problem(
      `${path}/deprecated`,
      e.value.offset,
      `deprecated with value ${renderValue(toData(e.value))} is not a string or a boolean`,
    );
    return undefined;
  }

  private named<T extends NamedDataSchema>(schema: T, header: Header, obj: JsonObject): T {
    schema[STATE].location = this.location(obj.offset);
    this.session.definitionSites.set(schema, this.site('', obj.offset));
    this.bind(header, schema);
    return schema;
  }

  private bind(header: Header, schema: NamedDataSchema): void {
    const fullName = header.fullName;
    if (fullName === '') return;
    if (primitiveSchema(fullName) !== undefined) {
      this.session.report(
        header.nameSite,
        `"${fullName}" is a pre-defined type and cannot be redefined`,
        schema,
      );
      return;
    }
    const existing = this.session.host.lookup(fullName);
    if (existing !== undefined) {
      const at = existing.getLocation();
      const where =
        at === undefined ? '' : ` at ${at.file === undefined ? '' : `${at.file}:`}${at.line}:${at.column}`;
      this.session.report(header.nameSite, `"${fullName}" already defined${where}`, schema);
      return;
    }
    this.session.host.bind(fullName, schema, this.session);
  }

  private record(obj: JsonObject, path: string, scope: Scope, type: 'record' | 'error'): RecordDataSchema {
    const h = this.header(obj, path, scope);
    this.attributes(obj, path, type, RECORD_KEYS);
    const fieldsKey = obj.map.get('fields')?.keyOffset;
    const includeKey = obj.map.get('include')?.keyOffset;
    const record = this.named(
      new RecordDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: this.properties(obj, RECORD_KEYS),
        recordType: type === 'error' ? RecordType.ERROR : RecordType.RECORD,
        fieldsBeforeIncludes: fieldsKey !== undefined && includeKey !== undefined && fieldsKey < includeKey,
      }),
      h,
      obj,
    );
    const inner: Scope = { namespace: h.namespace, package: h.package };
    const includes: IncludeEntry[] = [];
    this.list(obj, 'include', path, false)?.forEach((node, i) => {
      const p = `${path}/include/${i}`;
      const entry: IncludeEntry = {
        schema: UNRESOLVED,
        site: this.site(p, node.offset),
        inline: node.kind !== 'string',
      };
      includes.push(entry);
      this.type(node, p, inner, (s) => {
        entry.schema = s;
      });
    });
    this.list(obj, 'fields', path, true)?.forEach((node, i) =>
      this.field(node, `${path}/fields/${i}`, inner, record),
    );
    this.session.records.push({ schema: record, site: this.site(path, obj.offset), includes });
    return record;
  }

  private field(node: JsonNode, path: string, scope: Scope, record: RecordDataSchema): void {
    if (node.kind !== 'object') {
      this.problem(path, node.offset, `${renderValue(toData(node))} is not a valid field`, record);
      return;
    }
    const name = this.string(node, 'name', path, true);
    if (name !== undefined && !isValidIdentifier(name)) {
      this.problem(
        `${path}/name`,
        node.map.get('name')!.value.offset,
        `"${name}" is an invalid field name`,
        record,
      );
    }
    const typeEntry = node.map.get('type');
    if (typeEntry === undefined)
      this.problem(path, node.offset, 'type is required but it is not present', record);
    const doc = this.string(node, 'doc', path, false);
    const optional = this.boolean(node, 'optional', path);
    const order = this.string(node, 'order', path, false);
    if (order !== undefined && !ORDERS.has(order.toLowerCase())) {
      this.problem(
        `${path}/order`,
        node.map.get('order')!.value.offset,
        `"${order}" is an invalid sort order`,
        record,
      );
    }
    const aliases: string[] = [];
    this.list(node, 'aliases', path, false)?.forEach((item, i) => {
      if (item.kind === 'string' && isValidIdentifier(item.value)) aliases.push(item.value);
      else
        this.problem(
          `${path}/aliases/${i}`,
          item.offset,
          `${renderValue(toData(item))} is an invalid field name alias`,
          record,
        );
    });
    const deprecated = this.deprecation(node, path);
    const properties = this.properties(node, FIELD_KEYS);
    if (name === undefined || typeEntry === undefined) return;
    const field = new RecordField({
      name,
      type: UNRESOLVED,
      optional,
      doc,
      deprecated,
      order:
        order === undefined || !ORDERS.has(order.toLowerCase())
          ? FieldOrder.ASCENDING
          : (order.toLowerCase() as FieldOrder),
      aliases,
      properties,
      declaredInline: typeEntry.value.kind !== 'string',
    });
    field[STATE].record = record;
    field[STATE].location = this.location(node.offset);
    record[STATE].ownFields.push(field);
    this.session.fieldSites.set(field, this.site(path, node.offset));
    this.type(typeEntry.value, `${path}/type`, scope, (s) => {
      field[STATE].type = s;
    });
    const dflt = node.map.get('default');
    if (dflt !== undefined) {
      // Stored raw now (so that hasDefault() is right while other defaults are checked), fixed up in step 3.
      field[STATE].default = toData(dflt.value);
      this.session.defaults.push({
        field,
        record,
        node: dflt.value,
        site: this.site(`${path}/default`, dflt.value.offset),
      });
    }
  }

  private enumSchema(obj: JsonObject, path: string, scope: Scope): EnumDataSchema {
    const h = this.header(obj, path, scope);
    this.attributes(obj, path, 'enum', ENUM_KEYS);
    const symbols: string[] = [];
    const seen = new Set<string>();
    let bad = false;
    this.list(obj, 'symbols', path, true)?.forEach((item, i) => {
      const p = `${path}/symbols/${i}`;
      if (item.kind !== 'string') {
        this.problem(p, item.offset, `${renderValue(toData(item))} is not a string`);
        bad = true;
      } else if (!isValidIdentifier(item.value)) {
        this.problem(p, item.offset, `"${item.value}" is an invalid enum symbol`);
        bad = true;
      } else if (seen.has(item.value)) {
        this.problem(p, item.offset, `"${item.value}" defined more than once in enum symbols`);
        bad = true;
      } else {
        seen.add(item.value);
        symbols.push(item.value);
      }
    });
    const symbolDocs = this.symbolMap(
      obj,
      'symbolDocs',
      path,
      seen,
      symbols,
      (v) => v.kind === 'string',
      (symbol) => {
        return `"${symbol}" symbol has an invalid documentation value. All symbol documentation values must be strings.`;
      },
    ) as Map<string, string>;
    const deprecatedSymbols = this.symbolMap(
      obj,
      'deprecatedSymbols',
      path,
      seen,
      symbols,
      (v) => v.kind === 'string' || v.kind === 'boolean',
      (symbol) => `"${symbol}" symbol has an invalid deprecation value; it must be a string or a boolean`,
    );
    const schema = this.named(
      new EnumDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: this.properties(obj, ENUM_KEYS),
        symbols,
        symbolDocs,
        deprecatedSymbols,
      }),
      h,
      obj,
    );
    if (bad) schema[STATE].hasError = true;
    return schema;
  }

  /** A map from symbols to strings (or booleans), in symbol order. */
  private symbolMap(
    obj: JsonObject,
    key: string,
    path: string,
    declared: ReadonlySet<string>,
    symbols: readonly string[],
    valid: (v: JsonNode) => boolean,
    invalidMessage: (symbol: string) => string,
  ): Map<string, Deprecation> {
    const out = new Map<string, Deprecation>();
    const e = obj.map.get(key);
    if (e === undefined) return out;
    if (e.value.kind !== 'object') {
      this.problem(`${path}/${key}`, e.value.offset, `${key} is not a map`);
      return out;
    }
    const found = new Map<string, Deprecation>();
    for (const entry of e.value.entries) {
      const p = `${path}/${key}/${pointerSegment(entry.key)}`;
      const v = entry.value;
      if (!valid(v)) {
        this.problem(p, v.offset, invalidMessage(entry.key));
      } else if (!declared.has(entry.key)) {
        const message = `"${entry.key}" symbol is referenced by ${key}. This symbol does not exist.`;
        // The reference checks symbolDocs (EnumDataSchema.setSymbolDocs) but keeps deprecatedSymbols as a
        // plain property of a .pdsc enum, unchecked; the entry is dropped from the model either way.
        if (key === 'deprecatedSymbols') this.session.warn(this.site(p, entry.keyOffset), message);
        else this.problem(p, entry.keyOffset, message);
      } else {
        found.set(entry.key, (v as { value: string | boolean }).value);
      }
    }
    for (const s of symbols) if (found.has(s)) out.set(s, found.get(s)!);
    return out;
  }

  private fixed(obj: JsonObject, path: string, scope: Scope): FixedDataSchema {
    const h = this.header(obj, path, scope);
    this.attributes(obj, path, 'fixed', FIXED_KEYS);
    let size = 0;
    const e = obj.map.get('size');
    if (e === undefined) {
      this.problem(path, obj.offset, 'size (with integer value) is required but it is not present');
    } else if (
      e.value.kind !== 'number' ||
      typeof e.value.value !== 'number' ||
      !Number.isInteger(e.value.value) ||
      e.value.value > INT_MAX
    ) {
      this.problem(
        `${path}/size`,
        e.value.offset,
        `size with value ${renderValue(toData(e.value))} is not an integer`,
      );
    } else if (e.value.value < 0) {
      this.problem(`${path}/size`, e.value.offset, `${e.value.value} is negative, size must not be negative`);
    } else {
      size = e.value.value;
    }
    return this.named(
      new FixedDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: this.properties(obj, FIXED_KEYS),
        size,
      }),
      h,
      obj,
    );
  }

  private typeref(obj: JsonObject, path: string, scope: Scope): TyperefDataSchema {
    const h = this.header(obj, path, scope);
    this.attributes(obj, path, 'typeref', TYPEREF_KEYS);
    const refEntry = obj.map.get('ref');
    const schema = this.named(
      new TyperefDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: this.properties(obj, TYPEREF_KEYS),
        ref: UNRESOLVED,
        refDeclaredInline: refEntry !== undefined && refEntry.value.kind !== 'string',
        java: this.java(obj, path),
      }),
      h,
      obj,
    );
    if (refEntry === undefined) {
      this.problem(path, obj.offset, 'ref is required but it is not present', schema);
    } else {
      this.type(refEntry.value, `${path}/ref`, { namespace: h.namespace, package: h.package }, (s) => {
        schema[STATE].ref = s;
      });
    }
    this.session.typerefs.push({ schema, site: this.site(path, obj.offset) });
    return schema;
  }

  private java(obj: JsonObject, path: string): JavaBinding | undefined {
    const e = obj.map.get('java');
    if (e === undefined) return undefined;
    if (e.value.kind !== 'object') {
      this.problem(`${path}/java`, e.value.offset, 'java is not a map');
      return undefined;
    }
    const className = this.string(e.value, 'class', `${path}/java`, false);
    const coercerClass = this.string(e.value, 'coercerClass', `${path}/java`, false);
    return {
      ...(className === undefined ? {} : { className }),
      ...(coercerClass === undefined ? {} : { coercerClass }),
    };
  }

  // ---- unnamed schemas ----

  private array(obj: JsonObject, path: string, scope: Scope): ArrayDataSchema {
    this.attributes(obj, path, 'array', ARRAY_KEYS);
    const e = obj.map.get('items');
    const schema = new ArrayDataSchema(UNRESOLVED, {
      properties: this.properties(obj, ARRAY_KEYS),
      itemsDeclaredInline: e !== undefined && e.value.kind !== 'string',
    });
    if (e === undefined) this.problem(path, obj.offset, 'items is required but it is not present', schema);
    else
      this.type(e.value, `${path}/items`, scope, (s) => {
        schema[STATE].items = s;
      });
    return schema;
  }

  private map(obj: JsonObject, path: string, scope: Scope): MapDataSchema {
    this.attributes(obj, path, 'map', MAP_KEYS);
    const e = obj.map.get('values');
    const schema = new MapDataSchema(UNRESOLVED, {
      properties: this.properties(obj, MAP_KEYS),
      valuesDeclaredInline: e !== undefined && e.value.kind !== 'string',
    });
    if (e === undefined) this.problem(path, obj.offset, 'values is required but it is not present', schema);
    else
      this.type(e.value, `${path}/values`, scope, (s) => {
        schema[STATE].values = s;
      });
    return schema;
  }

  private union(items: readonly JsonNode[], path: string, scope: Scope, offset: number): UnionDataSchema {
    const schema = new UnionDataSchema([]);
    const memberSites: Site[] = [];
    items.forEach((item, i) => {
      const p = `${path}/${i}`;
      let member: UnionMember;
      if (item.kind === 'object' && item.map.has('alias')) {
        const alias = this.string(item, 'alias', p, false);
        if (alias !== undefined && !isValidIdentifier(alias)) {
          this.problem(
            `${p}/alias`,
            item.map.get('alias')!.value.offset,
            `"${alias}" is an invalid member alias`,
            schema,
          );
        } else if (alias === 'fieldDiscriminator') {
          this.problem(
            `${p}/alias`,
            item.map.get('alias')!.value.offset,
            `"${alias}" is restricted keyword for a member alias`,
            schema,
          );
        }
        const typeEntry = item.map.get('type');
        member = new UnionMember({
          type: UNRESOLVED,
          alias,
          doc: this.string(item, 'doc', p, false),
          properties: this.properties(item, MEMBER_KEYS),
          declaredInline: typeEntry !== undefined && typeEntry.value.kind !== 'string',
        });
        if (typeEntry === undefined) {
          this.problem(p, item.offset, 'type of the union member is required but it is not present', schema);
        } else {
          this.type(typeEntry.value, `${p}/type`, scope, (s) => {
            member[STATE].type = s;
          });
        }
      } else {
        member = new UnionMember({ type: UNRESOLVED, declaredInline: item.kind !== 'string' });
        this.type(item, p, scope, (s) => {
          member[STATE].type = s;
        });
      }
      member[STATE].location = this.location(item.offset);
      schema[STATE].members.push(member);
      memberSites.push(this.site(p, item.offset));
    });
    this.session.unions.push({ schema, site: this.site(path, offset), memberSites });
    return schema;
  }

  // ---- attribute helpers ----

  /** Reports attributes that belong to other schema types (`array must not have name`). */
  private attributes(obj: JsonObject, path: string, kind: string, allowed: ReadonlySet<string>): void {
    for (const e of obj.entries) {
      if (SCHEMA_ATTRIBUTES.has(e.key) && !allowed.has(e.key)) {
        this.problem(`${path}/${e.key}`, e.keyOffset, `${kind} must not have ${e.key}`);
      }
    }
  }

  /** The attributes not interpreted (custom properties), sorted by key. */
  private properties(obj: JsonObject, interpreted: ReadonlySet<string>): DataMap | undefined {
    let out: DataMap | undefined;
    const keys = [...obj.map.keys()]
      .filter((k) => !interpreted.has(k))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const k of keys) (out ??= new DataMap()).put(k, toData(obj.map.get(k)!.value));
    return out;
  }

  private string(obj: JsonObject, key: string, path: string, required: boolean): string | undefined {
    const e = obj.map.get(key);
    if (e === undefined) {
      if (required)
        this.problem(path, obj.offset, `${key} (with string value) is required but it is not present`);
      return undefined;
    }
    if (e.value.kind === 'string') return e.value.value;
    this.problem(
      `${path}/${pointerSegment(key)}`,
      e.value.offset,
      `${key} with value ${renderValue(toData(e.value))} is not a string`,
    );
    return undefined;
  }

  private boolean(obj: JsonObject, key: string, path: string): boolean {
    const e = obj.map.get(key);
    if (e === undefined) return false;
    if (e.value.kind === 'boolean') return e.value.value;
    this.problem(
      `${path}/${key}`,
      e.value.offset,
      `${key} with value ${renderValue(toData(e.value))} is not a boolean`,
    );
    return false;
  }

  private list(
    obj: JsonObject,
    key: string,
    path: string,
    required: boolean,
  ): readonly JsonNode[] | undefined {
    const e = obj.map.get(key);
    if (e === undefined) {
      if (required)
        this.problem(path, obj.offset, `${key} (with array value) is required but it is not present`);
      return undefined;
    }
    if (e.value.kind === 'array') return e.value.items;
    this.problem(`${path}/${key}`, e.value.offset, `${key} is not an array`);
    return undefined;
  }
}

/** True when `schema` reaches `target` through typerefs, arrays, maps and unions (not through records). */
function reaches(schema: DataSchema, target: TyperefDataSchema, seen: Set<DataSchema>): boolean {
  if (schema === target) return true;
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (schema instanceof TyperefDataSchema) return reaches(schema[STATE].ref, target, seen);
  if (schema instanceof ArrayDataSchema) return reaches(schema.getItems(), target, seen);
  if (schema instanceof MapDataSchema) return reaches(schema.getValues(), target, seen);
  if (schema instanceof UnionDataSchema)
    return schema.getMembers().some((m) => reaches(m.getType(), target, seen));
  return false;
}

/** A schema as messages show it: `"int"`, `"com.acme.Foo"`, or its JSON. */
export function describeType(schema: DataSchema): string {
  if (schema instanceof NamedDataSchema) return `"${schema.getFullName()}"`;
  if (schema.isPrimitive()) return `"${schema.getUnionMemberKey()}"`;
  return schemaToJson(schema);
}

/** The name a member would have in an Avro union: the simple name for named types. */
function avroMemberName(schema: DataSchema): string {
  const d = schema.getDereferencedSchema();
  return d instanceof NamedDataSchema ? d.getName() : d.getUnionMemberKey();
}
