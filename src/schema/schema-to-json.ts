/**
 * Canonical JSON of schemas (what `DataSchema.toString` returns).
 *
 * Canonical means: keys in a fixed order (`type`, `name`, `namespace`, `package`, `doc`, the type's own
 * attributes, `deprecated`, properties sorted by key, `aliases`); `namespace` and `package` only where they
 * differ from what the parser would infer from the enclosing schema; a named schema in full the first time
 * it appears and by full name afterwards (so the text stands alone: no resolver is needed to parse it
 * back); includes and typerefs kept as written (`include` before `fields`, or after them for a record
 * whose own fields come first). Parsing the output gives a schema equal to the input, and
 * writing that schema again gives the same text.
 *
 * One case no JSON can express (Rest.li has it too): a reference, from inside namespace `ns`, to a schema
 * with no namespace named `N` when the same text also defines `ns.N`; the simple name `N` resolves to `ns.N`.
 */
import type { DataMap, DataValue } from '../data';
import type { DataSchema } from './data-schema';
import type { ArrayDataSchema } from './array-schema';
import type { EnumDataSchema } from './enum-schema';
import type { FixedDataSchema } from './fixed-schema';
import type { MapDataSchema } from './map-schema';
import type { NamedDataSchema } from './named-schema';
import type { RecordDataSchema, RecordField } from './record-schema';
import type { TyperefDataSchema } from './typeref-schema';
import type { UnionDataSchema, UnionMember } from './union-schema';
import { inheritedPackage } from './schema-names';
import { dataToJson } from './value-text';

/** Options of writing a schema as JSON (`.pdsc`). */
export interface SchemaJsonOptions {
  /** Spaces per indentation level; 0 (the default) writes compact JSON. */
  readonly indent?: number;
  /**
   * Write every named schema other than the given ones by full name only, never in full (default false).
   * The text then needs a resolver that knows those names; generated code embeds each named schema this way.
   */
  readonly namedByReference?: boolean;
  /**
   * Write only these named schemas in full, every other one by full name (default: unset, see
   * `namedByReference`). The PDL writer uses it to keep the types declared inline in one file.
   */
  readonly inFull?: ReadonlySet<DataSchema>;
}

/** Canonical JSON of `schema`. */
export function schemaToJson(schema: DataSchema, options: SchemaJsonOptions = {}): string {
  return schemasToJson([schema], options);
}

/**
 * Canonical JSON of several schemas, one JSON value per line, as one parse session would read them: a named
 * schema written in full in one value is referred to by name in the following ones.
 */
export function schemasToJson(schemas: readonly DataSchema[], options: SchemaJsonOptions = {}): string {
  const encoder = new Encoder(
    options.inFull ?? (options.namedByReference === true ? new Set(schemas) : undefined),
  );
  return schemas
    .map((s) => print(encoder.schema(s, { namespace: '', package: '' }), options.indent ?? 0, 0))
    .join('\n');
}

/** A JSON tree with ordered keys; data values are written as data. */
type Out = string | number | boolean | Out[] | OutObject | OutData;
interface OutObject {
  readonly kind: 'object';
  readonly entries: [string, Out][];
}
interface OutData {
  readonly kind: 'data';
  readonly value: DataValue;
}

interface Scope {
  readonly namespace: string;
  readonly package: string;
}

class Encoder {
  private readonly written = new Set<NamedDataSchema>();

  /** @param inFull when given, only these schemas are written in full (the `namedByReference` option). */
  constructor(private readonly inFull?: ReadonlySet<DataSchema>) {}

  schema(schema: DataSchema, scope: Scope): Out {
    if (schema.isPrimitive()) return schema.getUnionMemberKey();
    switch (schema.getType()) {
      case 'ARRAY': {
        const a = schema as ArrayDataSchema;
        return obj([
          ['type', 'array'],
          ['items', this.schema(a.getItems(), scope)],
          ...properties(a.getProperties()),
        ]);
      }
      case 'MAP': {
        const m = schema as MapDataSchema;
        return obj([
          ['type', 'map'],
          ['values', this.schema(m.getValues(), scope)],
          ...properties(m.getProperties()),
        ]);
      }
      case 'UNION':
        return (schema as UnionDataSchema).getMembers().map((m) => this.member(m, scope));
      default:
        return this.named(schema as NamedDataSchema, scope);
    }
  }

  private named(schema: NamedDataSchema, scope: Scope): Out {
    if (this.written.has(schema) || (this.inFull !== undefined && !this.inFull.has(schema)))
      return schema.getFullName();
    this.written.add(schema);
    const entries: [string, Out][] = [];
    const type = schema.getType();
    entries.push([
      'type',
      type === 'RECORD' ? (schema as RecordDataSchema).getRecordType() : type.toLowerCase(),
    ]);
    entries.push(['name', schema.getName()]);
    const namespace = schema.getNamespace();
    if (namespace !== scope.namespace) entries.push(['namespace', namespace]);
    const pkg = schema.getPackage() ?? '';
    if (pkg !== inheritedPackage(scope.package, scope.namespace, namespace)) entries.push(['package', pkg]);
    if (schema.getDoc() !== '') entries.push(['doc', schema.getDoc()]);
    const inner: Scope = { namespace, package: pkg };
    switch (type) {
      case 'RECORD': {
        const r = schema as RecordDataSchema;
        // in the text order, which gives the field order (and keeps named schemas defined before their use)
        const include = (): void => {
          if (r.getInclude().length > 0)
            entries.push(['include', r.getInclude().map((s) => this.schema(s, inner))]);
        };
        if (!r.isFieldsBeforeIncludes()) include();
        entries.push(['fields', r.getOwnFields().map((f) => this.field(f, inner))]);
        if (r.isFieldsBeforeIncludes()) include();
        break;
      }
      case 'ENUM': {
        const e = schema as EnumDataSchema;
        entries.push(['symbols', [...e.getSymbols()]]);
        if (e.getSymbolDocs().size > 0) entries.push(['symbolDocs', obj([...e.getSymbolDocs()])]);
        if (e.getDeprecatedSymbols().size > 0)
          entries.push(['deprecatedSymbols', obj([...e.getDeprecatedSymbols()])]);
        break;
      }
      case 'FIXED':
        entries.push(['size', (schema as FixedDataSchema).getSize()]);
        break;
      case 'TYPEREF': {
        const t = schema as TyperefDataSchema;
        entries.push(['ref', this.schema(t.getRef(), inner)]);
        const java = t.getJavaBinding();
        if (java !== undefined) {
          const j: [string, Out][] = [];
          if (java.className !== undefined) j.push(['class', java.className]);
          if (java.coercerClass !== undefined) j.push(['coercerClass', java.coercerClass]);
          entries.push(['java', obj(j)]);
        }
        break;
      }
    }
    const deprecated = schema.getDeprecated();
    if (deprecated !== undefined) entries.push(['deprecated', deprecated]);
    entries.push(...properties(schema.getProperties()));
    if (schema.getAliases().length > 0) entries.push(['aliases', [...schema.getAliases()]]);
    return obj(entries);
  }

  private field(field: RecordField, scope: Scope): Out {
    const entries: [string, Out][] = [
      ['name', field.getName()],
      ['type', this.schema(field.getType(), scope)],
    ];
    if (field.getDoc() !== '') entries.push(['doc', field.getDoc()]);
    const dflt = field.getDefault();
    if (dflt !== undefined) entries.push(['default', { kind: 'data', value: dflt }]);
    if (field.getOptional()) entries.push(['optional', true]);
    if (field.getOrder() !== 'ascending') entries.push(['order', field.getOrder()]);
    const deprecated = field.getDeprecated();
    if (deprecated !== undefined) entries.push(['deprecated', deprecated]);
    entries.push(...properties(field.getProperties()));
    if (field.getAliases().length > 0) entries.push(['aliases', [...field.getAliases()]]);
    return obj(entries);
  }

  private member(member: UnionMember, scope: Scope): Out {
    const alias = member.getAlias();
    if (alias === undefined) return this.schema(member.getType(), scope);
    const entries: [string, Out][] = [
      ['alias', alias],
      ['type', this.schema(member.getType(), scope)],
    ];
    if (member.getDoc() !== '') entries.push(['doc', member.getDoc()]);
    entries.push(...properties(member.getProperties()));
    return obj(entries);
  }
}

function obj(entries: [string, Out][]): OutObject {
  return { kind: 'object', entries };
}

function properties(map: DataMap): [string, Out][] {
  const keys = [...map.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => [k, { kind: 'data', value: map.get(k)! }]);
}

function print(out: Out, indent: number, depth: number): string {
  if (typeof out === 'string' || typeof out === 'number' || typeof out === 'boolean')
    return JSON.stringify(out);
  if (Array.isArray(out)) {
    if (out.length === 0) return '[]';
    const items = out.map((o) => print(o, indent, depth + 1));
    return indent === 0 ? `[${items.join(',')}]` : `[${wrap(items, indent, depth)}]`;
  }
  if (out.kind === 'data') return dataToJson(out.value);
  if (out.entries.length === 0) return '{}';
  const sep = indent === 0 ? ':' : ': ';
  const items = out.entries.map(([k, v]) => `${JSON.stringify(k)}${sep}${print(v, indent, depth + 1)}`);
  return indent === 0 ? `{${items.join(',')}}` : `{${wrap(items, indent, depth)}}`;
}

function wrap(items: string[], indent: number, depth: number): string {
  const pad = ' '.repeat(indent * (depth + 1));
  return `\n${pad}${items.join(`,\n${pad}`)}\n${' '.repeat(indent * depth)}`;
}
