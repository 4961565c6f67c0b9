/**
 * The PDL writer: a schema as `.pdl` text. It writes from the schema's canonical JSON (schema-to-json.ts),
 * which already decides what is written in full and what by name, so both writers agree on the tree; this
 * file only chooses the PDL forms:
 * - `namespace` and `package` of the top-level type first, then the imports, sorted; a name is imported
 *   when it is outside the file's namespace and no other name written in the file has the same simple name
 *   (else it is written in full, as the reference's encoder does);
 * - a named type whose namespace (or package) differs from its surroundings is wrapped in a
 *   `{ namespace x ... }` scope;
 * - docs as `/** *\/` comments; properties as `@a.b.c = value` (a map with one key is written as a path),
 *   a union's too (the canonical JSON has no place for them: they are read from the schema itself);
 *   enum `symbolDocs`, `deprecatedSymbols` and `symbolProperties` on their symbols;
 * - identifiers that are PDL keywords are escaped in backticks; two-space indentation;
 * - an `error` record is written as a `record`: PDL has no `error` keyword (the reference's encoder does the
 *   same), so that one fact does not survive a trip through PDL.
 */
import type { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import type { MapDataSchema } from '../map-schema';
import type { RecordDataSchema } from '../record-schema';
import type { TyperefDataSchema } from '../typeref-schema';
import type { UnionDataSchema } from '../union-schema';
import { dataToJson } from '../value-text';
import { scanJson, type JsonNode, type JsonObject } from '../json-locations';
import { inheritedPackage } from '../schema-names';
import { KEYWORDS } from './pdl-lexer';
import { schemaToJson, type SchemaJsonOptions } from '../schema-to-json';

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED_ATTRIBUTES = new Set([
  'type',
  'name',
  'namespace',
  'package',
  'doc',
  'fields',
  'include',
  'symbols',
  'symbolDocs',
  'deprecatedSymbols',
  'symbolProperties',
  'size',
  'ref',
  'aliases',
]);
const FIELD_ATTRIBUTES = new Set(['name', 'type', 'doc', 'optional', 'default']);
const INDENT = '  ';

/** Options of {@link schemaToPdl}. */
export interface SchemaPdlOptions {
  /** As {@link SchemaJsonOptions.namedByReference} (default false): other named schemas only by name. */
  readonly namedByReference?: boolean;
  /** As {@link SchemaJsonOptions.inFull}: only these named schemas are written in full. */
  readonly inFull?: ReadonlySet<DataSchema>;
}

/**
 * `schema` as PDL text (one type declaration, ending with a newline). Parsing it gives a schema equal to
 * `schema` (same canonical JSON).
 *
 * @example
 * ```ts
 * const pdl = schemaToPdl(resolver.resolve('com.example.Photo'), { namedByReference: true });
 * ```
 */
export function schemaToPdl(schema: DataSchema, options: SchemaPdlOptions = {}): string {
  const json: SchemaJsonOptions =
    options.inFull === undefined
      ? { namedByReference: options.namedByReference ?? false }
      : { inFull: options.inFull };
  const scanned = scanJson(schemaToJson(schema, json));
  const node = scanned.values[0]!;
  return new PdlEncoder().document(node, schema);
}

function obj(node: JsonNode): JsonObject | undefined {
  return node.kind === 'object' ? node : undefined;
}

function get(o: JsonObject, key: string): JsonNode | undefined {
  return o.map.get(key)?.value;
}

function text(o: JsonObject, key: string): string | undefined {
  const v = get(o, key);
  return v?.kind === 'string' ? v.value : undefined;
}

/** An identifier, escaped when it is a keyword. */
export function pdlIdentifier(name: string): string {
  return KEYWORDS.has(name) ? `\`${name}\`` : name;
}

function pdlName(name: string): string {
  return name.split('.').map(pdlIdentifier).join('.');
}

function namespaceOf(fullName: string): string {
  const dot = fullName.lastIndexOf('.');
  return dot < 0 ? '' : fullName.slice(0, dot);
}

function simpleOf(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('.') + 1);
}

class PdlEncoder {
  #imports = new Map<string, string>();

  document(node: JsonNode, schema: DataSchema): string {
    const top = obj(node);
    const named = top !== undefined && typeof text(top, 'name') === 'string';
    const name = named ? text(top, 'name')! : '';
    const namespace = named ? (text(top, 'namespace') ?? namespaceOf(name)) : '';
    const pkg = named ? text(top, 'package') : undefined;
    this.#chooseImports(node, namespace);
    let out = '';
    if (namespace !== '') out += `namespace ${pdlName(namespace)}\n`;
    if (pkg !== undefined && pkg !== '') out += `package ${pdlName(pkg)}\n`;
    if (out !== '') out += '\n';
    const imports = [...this.#imports.values()].sort();
    for (const i of imports) out += `import ${pdlName(i)}\n`;
    if (imports.length > 0) out += '\n';
    out += `${this.#type(node, schema, { namespace, package: pkg ?? '' }, '', true)}\n`;
    return out;
  }

  /** Imports: referenced names outside the root namespace whose simple name is used by no other name. */
  #chooseImports(root: JsonNode, rootNamespace: string): void {
    const referenced = new Set<string>();
    const declared = new Set<string>();
    const walk = (n: JsonNode, isType: boolean): void => {
      if (n.kind === 'string') {
        if (isType && !PRIMITIVES.has(n.value)) referenced.add(n.value);
      } else if (n.kind === 'array') {
        for (const item of n.items) walk(item, isType);
      } else if (n.kind === 'object') {
        const t = text(n, 'type');
        const name = text(n, 'name');
        if (
          name !== undefined &&
          t !== undefined &&
          ['record', 'error', 'enum', 'typeref', 'fixed'].includes(t)
        )
          declared.add(name.includes('.') ? name : `${text(n, 'namespace') ?? ''}.${name}`);
        for (const e of n.entries) {
          if (['type', 'items', 'values', 'ref'].includes(e.key)) walk(e.value, true);
          else if (e.key === 'include') walk(e.value, true);
          else if (e.key === 'fields' && e.value.kind === 'array')
            for (const f of e.value.items) if (f.kind === 'object') walk(get(f, 'type') ?? f, true);
        }
      }
    };
    walk(root, true);
    const bySimple = new Map<string, Set<string>>();
    const note = (full: string): void => {
      const s = simpleOf(full);
      const set = bySimple.get(s) ?? new Set<string>();
      set.add(full.replace(/^\./, ''));
      bySimple.set(s, set);
    };
    referenced.forEach(note);
    declared.forEach(note);
    for (const full of referenced) {
      const ns = namespaceOf(full);
      if (ns === '' || ns === rootNamespace || declared.has(full)) continue;
      if (bySimple.get(simpleOf(full))!.size === 1) this.#imports.set(simpleOf(full), full);
    }
  }

  /** How a reference to `full` is written inside namespace `namespace`. */
  #reference(full: string, namespace: string): string {
    if (PRIMITIVES.has(full)) return full;
    const simple = simpleOf(full);
    const imported = this.#imports.get(simple);
    if (imported === full) return pdlIdentifier(simple);
    if (imported === undefined && namespaceOf(full) === namespace && namespace !== '')
      return pdlIdentifier(simple);
    return pdlName(full);
  }

  /**
   * `schema` is the model of `node` (or undefined below a reference), for what the canonical JSON cannot
   * hold: a union's properties.
   */
  #type(
    node: JsonNode,
    schema: DataSchema | undefined,
    scope: { namespace: string; package: string },
    indent: string,
    top = false,
  ): string {
    if (node.kind === 'string') return this.#reference(node.value, scope.namespace);
    if (node.kind === 'array') return this.#union(node.items, schema as UnionDataSchema, scope, indent);
    const o = obj(node)!;
    const t = text(o, 'type') ?? '';
    if (t === 'array') {
      const items = this.#type(get(o, 'items')!, (schema as ArrayDataSchema).getItems(), scope, indent);
      return `${this.#props(o, new Set(['type', 'items']), ' ')}array[${items}]`;
    }
    if (t === 'map') {
      const values = this.#type(get(o, 'values')!, (schema as MapDataSchema).getValues(), scope, indent);
      return `${this.#props(o, new Set(['type', 'values']), ' ')}map[string, ${values}]`;
    }
    if (PRIMITIVES.has(t)) return t;
    return this.#named(o, schema!, scope, indent, top);
  }

  #named(
    o: JsonObject,
    schema: DataSchema,
    scope: { namespace: string; package: string },
    indent: string,
    top: boolean,
  ): string {
    const rawName = text(o, 'name')!;
    const namespace = rawName.includes('.')
      ? namespaceOf(rawName)
      : (text(o, 'namespace') ?? scope.namespace);
    const pkg = text(o, 'package') ?? inheritedPackage(scope.package, scope.namespace, namespace);
    const scoped = !top && (namespace !== scope.namespace || pkg !== scope.package);
    const inner = { namespace, package: pkg };
    const innerIndent = scoped ? indent + INDENT : indent;
    let head = '';
    const doc = text(o, 'doc');
    if (doc !== undefined && doc !== '') head += docComment(doc, innerIndent);
    const aliases = get(o, 'aliases');
    if (aliases !== undefined) head += `@aliases = ${json(aliases)}\n${innerIndent}`;
    head += this.#props(o, NAMED_ATTRIBUTES, `\n${innerIndent}`);
    const t = text(o, 'type')!;
    const name = pdlIdentifier(simpleOf(rawName));
    let body: string;
    switch (t) {
      case 'enum':
        body = `enum ${name} ${this.#enumBody(o, innerIndent)}`;
        break;
      case 'fixed':
        body = `fixed ${name} ${json(get(o, 'size')!)}`;
        break;
      case 'typeref':
        body = `typeref ${name} = ${this.#type(get(o, 'ref')!, (schema as TyperefDataSchema).getRef(), inner, innerIndent)}`;
        break;
      default: {
        const record = schema as RecordDataSchema;
        const fields = this.#fields(o, record, inner, innerIndent);
        const include = get(o, 'include');
        const includes =
          include?.kind === 'array' && include.items.length > 0
            ? `includes ${include.items.map((i, k) => this.#type(i, record.getInclude()[k], inner, innerIndent)).join(', ')}`
            : undefined;
        const fieldsFirst =
          includes !== undefined && o.map.get('fields')!.keyOffset < o.map.get('include')!.keyOffset;
        body =
          includes === undefined
            ? `record ${name} ${fields}`
            : fieldsFirst
              ? `record ${name} ${fields} ${includes}`
              : `record ${name} ${includes} ${fields}`;
      }
    }
    if (!scoped) return head + body;
    let open = `{\n${innerIndent}namespace ${pdlName(namespace)}\n`;
    if (pkg !== '') open += `${innerIndent}package ${pdlName(pkg)}\n`;
    return `${open}${innerIndent}${head}${body}\n${indent}}`;
  }

  #fields(
    o: JsonObject,
    record: RecordDataSchema,
    scope: { namespace: string; package: string },
    indent: string,
  ): string {
    const fields = get(o, 'fields');
    if (fields?.kind !== 'array' || fields.items.length === 0) return '{}';
    const inner = indent + INDENT;
    const lines = fields.items.map((f, k) => {
      const fo = obj(f)!;
      let s = '';
      const doc = text(fo, 'doc');
      if (doc !== undefined && doc !== '') s += docComment(doc, inner);
      s += this.#props(fo, FIELD_ATTRIBUTES, `\n${inner}`);
      const optional = get(fo, 'optional');
      s += `${pdlIdentifier(text(fo, 'name')!)}: ${optional?.kind === 'boolean' && optional.value ? 'optional ' : ''}`;
      s += this.#type(get(fo, 'type')!, record.getOwnFields()[k]!.getType(), scope, inner);
      const dflt = get(fo, 'default');
      if (dflt !== undefined) s += ` = ${json(dflt)}`;
      return inner + s;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  #enumBody(o: JsonObject, indent: string): string {
    const symbols = get(o, 'symbols');
    if (symbols?.kind !== 'array' || symbols.items.length === 0) return '{}';
    const docs = obj(get(o, 'symbolDocs') ?? { kind: 'null', offset: 0 });
    const deprecated = obj(get(o, 'deprecatedSymbols') ?? { kind: 'null', offset: 0 });
    const props = obj(get(o, 'symbolProperties') ?? { kind: 'null', offset: 0 });
    const inner = indent + INDENT;
    const lines = symbols.items.map((item) => {
      const symbol = item.kind === 'string' ? item.value : '';
      let s = '';
      const doc = docs === undefined ? undefined : text(docs, symbol);
      if (doc !== undefined && doc !== '') s += docComment(doc, inner);
      const dep = deprecated === undefined ? undefined : get(deprecated, symbol);
      if (dep !== undefined) s += `@deprecated = ${json(dep)}\n${inner}`;
      const own = props === undefined ? undefined : obj(get(props, symbol) ?? { kind: 'null', offset: 0 });
      if (own !== undefined) s += this.#props(own, new Set(), `\n${inner}`);
      return inner + s + pdlIdentifier(symbol);
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  #union(
    items: readonly JsonNode[],
    schema: UnionDataSchema,
    scope: { namespace: string; package: string },
    indent: string,
  ): string {
    const members = schema.getMembers();
    const props = schema.getProperties().isEmpty()
      ? ''
      : this.#props(scanJson(dataToJson(schema.getProperties())).values[0] as JsonObject, new Set(), ' ');
    const aliased = items.some((i) => i.kind === 'object' && i.map.has('alias'));
    if (!aliased)
      return `${props}union[${items.map((i, k) => this.#type(i, members[k]!.getType(), scope, indent)).join(', ')}]`;
    const inner = indent + INDENT;
    const lines = items.map((i, k) => {
      const type = members[k]!.getType();
      const o = obj(i);
      if (o === undefined || !o.map.has('alias')) return inner + this.#type(i, type, scope, inner);
      let s = '';
      const doc = text(o, 'doc');
      if (doc !== undefined && doc !== '') s += docComment(doc, inner);
      s += this.#props(o, new Set(['alias', 'type', 'doc']), `\n${inner}`);
      return `${inner}${s}${pdlIdentifier(text(o, 'alias')!)}: ${this.#type(get(o, 'type')!, type, scope, inner)}`;
    });
    return `${props}union[\n${lines.join(',\n')}\n${indent}]`;
  }

  /** The properties of `o` (keys not in `skip`), each as `@path = value` followed by `sep`. */
  #props(o: JsonObject, skip: ReadonlySet<string>, sep: string): string {
    let out = '';
    for (const e of o.entries) {
      if (skip.has(e.key)) continue;
      let path = [e.key];
      let value = e.value;
      // A map with one key is written as a path (`@a.b = 1`), as the reference's encoder does.
      while (value.kind === 'object' && value.entries.length === 1) {
        path = [...path, value.entries[0]!.key];
        value = value.entries[0]!.value;
      }
      out += `@${path.map(propSegment).join('.')} = ${json(value)}${sep}`;
    }
    return out;
  }
}

function propSegment(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : `\`${key}\``;
}

/**
 * A doc as a `/** *\/` comment that the parser (Rest.li's rules, `extractMarkdown`) reads back as the same
 * string: always one line per doc line between `/**` and ` *\/`, as Rest.li's writer does (a one-line
 * `/** x *\/` would read back as `" x "`), each line after ` * ` (an empty one as ` *`); `*\/` is written
 * `*&#47;` and an `&` that would read as an entity `&amp;`.
 */
function docComment(doc: string, indent: string): string {
  const body = doc.replace(/&(?=#|[A-Za-z][A-Za-z0-9]*;)/g, '&amp;').replace(/\*\//g, '*&#47;');
  return `/**\n${body
    .split('\n')
    .map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`)
    .join('\n')}\n${indent} */\n${indent}`;
}

/** A JSON value as text; numbers keep whether they were integers. */
function json(node: JsonNode): string {
  switch (node.kind) {
    case 'string':
      return JSON.stringify(node.value);
    case 'number': {
      const s = String(node.value);
      return node.integral || /[.eE]/.test(s) || !Number.isFinite(Number(node.value)) ? s : `${s}.0`;
    }
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
    case 'array':
      return `[${node.items.map(json).join(', ')}]`;
    default:
      return `{${node.entries.map((e) => `${JSON.stringify(e.key)}: ${json(e.value)}`).join(', ')}}`;
  }
}
