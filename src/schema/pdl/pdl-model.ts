/**
 * Builds the schema model straight from the nodes the PDL parser makes, instead of handing them to the
 * `.pdsc` parser's generic step (`parseNodes` in schema-parser.ts). That step reads any JSON a user could
 * write, so it looks every attribute up by key, checks for attributes in the wrong place and sorts the rest
 * into properties; the PDL parser already knows the shape of what it built (which keys, in which order), so
 * this walk reads each node once. It is the PDL parser's speed goal (bench/pdl.bench.ts): without it PDL paid
 * for a second, generic reading of every schema that `.pdsc` does not.
 *
 * It must give exactly what the generic step gives: the same schemas, the same session entries (names bound,
 * references deferred, records, unions, typerefs and defaults to check, in the same order) and the same
 * problems (message, JSON path, offset). So it covers only texts the parser marks as plain: a property named
 * like an attribute the model reads in that place (`@doc`, `@symbolDocs`, `@items` on a record, `@alias` on a
 * type...) or a key given twice makes the parser send the text down the generic step instead (see
 * `PdlTextParser.generic`). Each method below follows its namesake in schema-parser.ts's `TextParser`.
 */
import { DataMap } from '../../data';
import { ArrayDataSchema } from '../array-schema';
import type { DataSchema, SchemaLocation } from '../data-schema';
import { EnumDataSchema } from '../enum-schema';
import { FixedDataSchema } from '../fixed-schema';
import { STATE } from '../internal';
import { pointerSegment, type JsonEntry, type JsonNode, type JsonObject } from '../json-locations';
import { MapDataSchema } from '../map-schema';
import type { Deprecation, NamedDataSchema } from '../named-schema';
import { primitiveSchema, UnresolvedDataSchema } from '../primitive-schemas';
import { FieldOrder, RecordDataSchema, RecordField, RecordType } from '../record-schema';
import {
  inheritedPackage,
  isValidIdentifier,
  isValidName,
  isValidNamespace,
  referenceCandidates,
} from '../schema-names';
import type { ParseSession, Site, Source } from '../schema-parser';
import { toData } from '../json-locations';
import { TyperefDataSchema, type JavaBinding } from '../typeref-schema';
import { UnionDataSchema, UnionMember } from '../union-schema';
import { renderValue } from '../value-text';
import { keepClassAlive } from './keep-classes';

const UNRESOLVED: DataSchema = UnresolvedDataSchema.INSTANCE;
const ORDERS: ReadonlySet<string> = new Set(Object.values(FieldOrder));
const INT_MAX = 2 ** 31 - 1;

interface Scope {
  readonly namespace: string;
  readonly package: string;
}

interface Marked {
  readonly [STATE]: { hasError: boolean };
}

/** Keys the model reads on each kind of named node; the others are custom properties. */
const NAMED_KEYS = ['type', 'name', 'namespace', 'package', 'doc', 'aliases', 'deprecated'];
const RECORD_KEYS: ReadonlySet<string> = new Set([...NAMED_KEYS, 'fields', 'include']);
const ENUM_KEYS: ReadonlySet<string> = new Set([...NAMED_KEYS, 'symbols', 'symbolDocs', 'deprecatedSymbols']);
const FIXED_KEYS: ReadonlySet<string> = new Set([...NAMED_KEYS, 'size']);
const TYPEREF_KEYS: ReadonlySet<string> = new Set([...NAMED_KEYS, 'ref', 'java']);

/** Step 1 of a parse session for the one declaration of a PDL text (as `parseNodes` for `[node]`). */
export function buildPdlSchema(
  session: ParseSession,
  source: Source,
  node: JsonNode,
  unionProperties: ReadonlyMap<number, JsonObject>,
): DataSchema[] {
  const out: DataSchema[] = [UNRESOLVED];
  new PdlModelBuilder(session, source, unionProperties).type(
    node,
    '',
    { namespace: '', package: '' },
    (s) => {
      out[0] = s;
    },
  );
  return out;
}

/** A named node's name, attributes and properties, found in one pass over its entries. */
interface Named {
  readonly obj: JsonObject;
  readonly path: string;
  readonly name: string;
  readonly namespace: string;
  readonly fullName: string;
  readonly package: string;
  readonly doc: string;
  readonly aliases: string[];
  readonly deprecated: Deprecation | undefined;
  readonly nameSite: Site;
  readonly properties: DataMap | undefined;
  /** The entries the kind reads (`fields`, `symbols`, `ref`...), by key. */
  readonly own: Map<string, JsonEntry>;
}

class PdlModelBuilder {
  constructor(
    private readonly session: ParseSession,
    private readonly source: Source,
    private readonly unionProperties: ReadonlyMap<number, JsonObject>,
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
        // The PDL parser makes a type a name, a union or a declaration, never another JSON value.
        throw new Error(`a PDL type node of kind ${node.kind}`);
    }
  }

  /** A declaration: its first entry is `type` (record, enum, typeref, fixed, array or map). */
  private complex(obj: JsonObject, path: string, scope: Scope): DataSchema {
    switch ((obj.entries[0]!.value as { value: string }).value) {
      case 'record':
        return this.record(obj, path, scope);
      case 'enum':
        return this.enumSchema(obj, path, scope);
      case 'typeref':
        return this.typeref(obj, path, scope);
      case 'fixed':
        return this.fixed(obj, path, scope);
      case 'array':
        return this.array(obj, path, scope);
      default:
        return this.map(obj, path, scope);
    }
  }

  // ---- named schemas ----

  /** `TextParser.header` and `properties`, over the entries of a named node. */
  private named(obj: JsonObject, path: string, scope: Scope, keys: ReadonlySet<string>): Named {
    const nameEntry = obj.entries[1]!;
    const name = (nameEntry.value as { value: string }).value;
    const nameSite = this.site(`${path}/name`, nameEntry.value.offset);
    let namespaceEntry: JsonEntry | undefined;
    let packageEntry: JsonEntry | undefined;
    let doc = '';
    let aliasesEntry: JsonEntry | undefined;
    let deprecatedEntry: JsonEntry | undefined;
    let props: JsonEntry[] | undefined;
    const own = new Map<string, JsonEntry>();
    for (let k = 2; k < obj.entries.length; k++) {
      const e = obj.entries[k]!;
      switch (e.key) {
        case 'namespace':
          namespaceEntry = e;
          break;
        case 'package':
          packageEntry = e;
          break;
        case 'doc':
          doc = (e.value as { value: string }).value;
          break;
        case 'aliases':
          aliasesEntry = e;
          break;
        case 'deprecated':
          deprecatedEntry = e;
          break;
        default:
          if (keys.has(e.key)) own.set(e.key, e);
          else (props ??= []).push(e);
      }
    }
    const givenNamespace = (namespaceEntry?.value as { value: string } | undefined)?.value;
    const givenPackage = (packageEntry?.value as { value: string } | undefined)?.value;
    // A PDL name is one identifier: it never carries a namespace of its own.
    const namespace = givenNamespace ?? scope.namespace;
    let valid = true;
    if (!isValidName(name)) {
      this.session.report(nameSite, `"${name}" is an invalid name`);
      valid = false;
    }
    if (givenNamespace !== undefined && !isValidNamespace(givenNamespace)) {
      this.problem(
        `${path}/namespace`,
        namespaceEntry!.value.offset,
        `"${givenNamespace}" is an invalid namespace`,
      );
      valid = false;
    }
    if (givenPackage !== undefined && !isValidNamespace(givenPackage)) {
      this.problem(`${path}/package`, packageEntry!.value.offset, `"${givenPackage}" is an invalid package`);
    }
    return {
      obj,
      path,
      name,
      namespace,
      fullName: valid ? (namespace === '' ? name : `${namespace}.${name}`) : '',
      package: givenPackage ?? inheritedPackage(scope.package, scope.namespace, namespace),
      doc,
      aliases: this.aliases(aliasesEntry, path, namespace),
      deprecated: this.deprecation(deprecatedEntry, path),
      nameSite,
      properties: properties(props),
      own,
    };
  }

  private aliases(e: JsonEntry | undefined, path: string, namespace: string): string[] {
    const out: string[] = [];
    if (e === undefined) return out;
    if (e.value.kind !== 'array') {
      this.problem(`${path}/aliases`, e.value.offset, 'aliases is not an array');
      return out;
    }
    e.value.items.forEach((item, i) => {
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

  private deprecation(e: JsonEntry | undefined, path: string): Deprecation | undefined {
    if (e === undefined) return undefined;
    if (e.value.kind === 'string' || e.value.kind === 'boolean') return e.value.value;
    this.problem(
      `${path}/deprecated`,
      e.value.offset,
      `deprecated with value ${renderValue(toData(e.value))} is not a string or a boolean`,
    );
    return undefined;
  }

  /** `TextParser.named`: location, definition site and binding. */
  private define<T extends NamedDataSchema>(schema: T, h: Named): T {
    schema[STATE].location = this.location(h.obj.offset);
    this.session.definitionSites.set(schema, this.site('', h.obj.offset));
    const fullName = h.fullName;
    if (fullName === '') return schema;
    if (primitiveSchema(fullName) !== undefined) {
      this.session.report(h.nameSite, `"${fullName}" is a pre-defined type and cannot be redefined`, schema);
      return schema;
    }
    const existing = this.session.host.lookup(fullName);
    if (existing !== undefined) {
      const at = existing.getLocation();
      const where =
        at === undefined ? '' : ` at ${at.file === undefined ? '' : `${at.file}:`}${at.line}:${at.column}`;
      this.session.report(h.nameSite, `"${fullName}" already defined${where}`, schema);
      return schema;
    }
    this.session.host.bind(fullName, schema, this.session);
    return schema;
  }

  private record(obj: JsonObject, path: string, scope: Scope): RecordDataSchema {
    const h = this.named(obj, path, scope, RECORD_KEYS);
    const fieldsEntry = h.own.get('fields')!;
    const includeEntry = h.own.get('include');
    const record = this.define(
      new RecordDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: h.properties,
        recordType: RecordType.RECORD,
        fieldsBeforeIncludes: includeEntry !== undefined && fieldsEntry.keyOffset < includeEntry.keyOffset,
      }),
      h,
    );
    const inner: Scope = { namespace: h.namespace, package: h.package };
    const includes: { schema: DataSchema; readonly site: Site; readonly inline: boolean }[] = [];
    if (includeEntry !== undefined) {
      (includeEntry.value as { items: readonly JsonNode[] }).items.forEach((node, i) => {
        const p = `${path}/include/${i}`;
        const entry = { schema: UNRESOLVED, site: this.site(p, node.offset), inline: node.kind !== 'string' };
        includes.push(entry);
        this.type(node, p, inner, (s) => {
          entry.schema = s;
        });
      });
    }
    (fieldsEntry.value as { items: readonly JsonNode[] }).items.forEach((node, i) =>
      this.field(node as JsonObject, `${path}/fields/${i}`, inner, record),
    );
    this.session.records.push({ schema: record, site: this.site(path, obj.offset), includes });
    return record;
  }

  /** A field node: `name`, `type`, then `optional`, `doc`, `default` and its properties. */
  private field(node: JsonObject, path: string, scope: Scope, record: RecordDataSchema): void {
    const nameEntry = node.entries[0]!;
    const name = (nameEntry.value as { value: string }).value;
    if (!isValidIdentifier(name))
      this.problem(`${path}/name`, nameEntry.value.offset, `"${name}" is an invalid field name`, record);
    const type = node.entries[1]!.value;
    let optional = false;
    let doc: string | undefined;
    let dflt: JsonNode | undefined;
    let order: string | undefined;
    let aliasesEntry: JsonEntry | undefined;
    let deprecatedEntry: JsonEntry | undefined;
    let props: JsonEntry[] | undefined;
    for (let k = 2; k < node.entries.length; k++) {
      const e = node.entries[k]!;
      switch (e.key) {
        case 'optional':
          optional = true;
          break;
        case 'doc':
          doc = (e.value as { value: string }).value;
          break;
        case 'default':
          dflt = e.value;
          break;
        case 'order':
          if (e.value.kind === 'string') {
            order = e.value.value;
            if (!ORDERS.has(order.toLowerCase()))
              this.problem(`${path}/order`, e.value.offset, `"${order}" is an invalid sort order`, record);
          } else {
            this.problem(
              `${path}/order`,
              e.value.offset,
              `order with value ${renderValue(toData(e.value))} is not a string`,
            );
          }
          break;
        case 'aliases':
          aliasesEntry = e;
          break;
        case 'deprecated':
          deprecatedEntry = e;
          break;
        default:
          (props ??= []).push(e);
      }
    }
    const aliases: string[] = [];
    if (aliasesEntry !== undefined) {
      if (aliasesEntry.value.kind !== 'array') {
        this.problem(`${path}/aliases`, aliasesEntry.value.offset, 'aliases is not an array');
      } else {
        aliasesEntry.value.items.forEach((item, i) => {
          if (item.kind === 'string' && isValidIdentifier(item.value)) aliases.push(item.value);
          else
            this.problem(
              `${path}/aliases/${i}`,
              item.offset,
              `${renderValue(toData(item))} is an invalid field name alias`,
              record,
            );
        });
      }
    }
    const field = new RecordField({
      name,
      type: UNRESOLVED,
      optional,
      doc,
      deprecated: this.deprecation(deprecatedEntry, path),
      order:
        order === undefined || !ORDERS.has(order.toLowerCase())
          ? FieldOrder.ASCENDING
          : (order.toLowerCase() as FieldOrder),
      aliases,
      properties: properties(props),
      declaredInline: type.kind !== 'string',
    });
    field[STATE].record = record;
    field[STATE].location = this.location(node.offset);
    record[STATE].ownFields.push(field);
    this.session.fieldSites.set(field, this.site(path, node.offset));
    this.type(type, `${path}/type`, scope, (s) => {
      field[STATE].type = s;
    });
    if (dflt !== undefined) {
      // Stored raw now (so that hasDefault() is right while other defaults are checked), fixed up in step 3.
      field[STATE].default = toData(dflt);
      this.session.defaults.push({
        field,
        record,
        node: dflt,
        site: this.site(`${path}/default`, dflt.offset),
      });
    }
  }

  private enumSchema(obj: JsonObject, path: string, scope: Scope): EnumDataSchema {
    const h = this.named(obj, path, scope, ENUM_KEYS);
    const symbols: string[] = [];
    const seen = new Set<string>();
    let bad = false;
    (h.own.get('symbols')!.value as { items: readonly JsonNode[] }).items.forEach((item, i) => {
      const value = (item as { value: string }).value;
      if (!isValidIdentifier(value)) {
        this.problem(`${path}/symbols/${i}`, item.offset, `"${value}" is an invalid enum symbol`);
        bad = true;
      } else if (seen.has(value)) {
        this.problem(
          `${path}/symbols/${i}`,
          item.offset,
          `"${value}" defined more than once in enum symbols`,
        );
        bad = true;
      } else {
        seen.add(value);
        symbols.push(value);
      }
    });
    const symbolDocs = this.symbolMap(
      h,
      'symbolDocs',
      seen,
      symbols,
      (v) => v.kind === 'string',
      (symbol) =>
        `"${symbol}" symbol has an invalid documentation value. All symbol documentation values must be strings.`,
    ) as Map<string, string>;
    const deprecatedSymbols = this.symbolMap(
      h,
      'deprecatedSymbols',
      seen,
      symbols,
      (v) => v.kind === 'string' || v.kind === 'boolean',
      (symbol) => `"${symbol}" symbol has an invalid deprecation value; it must be a string or a boolean`,
    );
    const schema = this.define(
      new EnumDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: h.properties,
        symbols,
        symbolDocs,
        deprecatedSymbols,
      }),
      h,
    );
    if (bad) schema[STATE].hasError = true;
    return schema;
  }

  /** A map from symbols to strings (or booleans), in symbol order (the parser made it an object). */
  private symbolMap(
    h: Named,
    key: string,
    declared: ReadonlySet<string>,
    symbols: readonly string[],
    valid: (v: JsonNode) => boolean,
    invalidMessage: (symbol: string) => string,
  ): Map<string, Deprecation> {
    const out = new Map<string, Deprecation>();
    const e = h.own.get(key);
    if (e === undefined) return out;
    const found = new Map<string, Deprecation>();
    for (const entry of (e.value as JsonObject).entries) {
      const p = `${h.path}/${key}/${pointerSegment(entry.key)}`;
      const v = entry.value;
      if (!valid(v)) {
        this.problem(p, v.offset, invalidMessage(entry.key));
      } else if (!declared.has(entry.key)) {
        const message = `"${entry.key}" symbol is referenced by ${key}. This symbol does not exist.`;
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
    const h = this.named(obj, path, scope, FIXED_KEYS);
    let size = 0;
    const v = h.own.get('size')!.value;
    if (
      v.kind !== 'number' ||
      typeof v.value !== 'number' ||
      !Number.isInteger(v.value) ||
      v.value > INT_MAX
    ) {
      this.problem(`${path}/size`, v.offset, `size with value ${renderValue(toData(v))} is not an integer`);
    } else if (v.value < 0) {
      this.problem(`${path}/size`, v.offset, `${v.value} is negative, size must not be negative`);
    } else {
      size = v.value;
    }
    return this.define(
      new FixedDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: h.properties,
        size,
      }),
      h,
    );
  }

  private typeref(obj: JsonObject, path: string, scope: Scope): TyperefDataSchema {
    const h = this.named(obj, path, scope, TYPEREF_KEYS);
    const ref = h.own.get('ref')!.value;
    const schema = this.define(
      new TyperefDataSchema({
        name: h.name,
        namespace: h.namespace,
        package: h.package,
        doc: h.doc,
        aliases: h.aliases,
        deprecated: h.deprecated,
        properties: h.properties,
        ref: UNRESOLVED,
        refDeclaredInline: ref.kind !== 'string',
        java: this.java(h.own.get('java'), path),
      }),
      h,
    );
    this.type(ref, `${path}/ref`, { namespace: h.namespace, package: h.package }, (s) => {
      schema[STATE].ref = s;
    });
    this.session.typerefs.push({ schema, site: this.site(path, obj.offset) });
    return schema;
  }

  private java(e: JsonEntry | undefined, path: string): JavaBinding | undefined {
    if (e === undefined) return undefined;
    if (e.value.kind !== 'object') {
      this.problem(`${path}/java`, e.value.offset, 'java is not a map');
      return undefined;
    }
    const className = this.string(e.value, 'class', `${path}/java`);
    const coercerClass = this.string(e.value, 'coercerClass', `${path}/java`);
    return {
      ...(className === undefined ? {} : { className }),
      ...(coercerClass === undefined ? {} : { coercerClass }),
    };
  }

  private string(obj: JsonObject, key: string, path: string): string | undefined {
    const e = obj.map.get(key);
    if (e === undefined) return undefined;
    if (e.value.kind === 'string') return e.value.value;
    this.problem(
      `${path}/${pointerSegment(key)}`,
      e.value.offset,
      `${key} with value ${renderValue(toData(e.value))} is not a string`,
    );
    return undefined;
  }

  // ---- unnamed schemas ----

  /** An array node: `type`, `items`, then its properties. */
  private array(obj: JsonObject, path: string, scope: Scope): ArrayDataSchema {
    const items = obj.entries[1]!.value;
    const schema = new ArrayDataSchema(UNRESOLVED, {
      properties: properties(obj.entries, 2),
      itemsDeclaredInline: items.kind !== 'string',
    });
    this.type(items, `${path}/items`, scope, (s) => {
      schema[STATE].items = s;
    });
    return schema;
  }

  /** A map node: `type`, `values`, then its properties. */
  private map(obj: JsonObject, path: string, scope: Scope): MapDataSchema {
    const values = obj.entries[1]!.value;
    const schema = new MapDataSchema(UNRESOLVED, {
      properties: properties(obj.entries, 2),
      valuesDeclaredInline: values.kind !== 'string',
    });
    this.type(values, `${path}/values`, scope, (s) => {
      schema[STATE].values = s;
    });
    return schema;
  }

  /** Members are types, or aliased members: nodes `alias`, `type`, then `doc` and their properties. */
  private union(items: readonly JsonNode[], path: string, scope: Scope, offset: number): UnionDataSchema {
    const props = this.unionProperties.get(offset);
    const schema = new UnionDataSchema([], { properties: sortedProperties(props) });
    const memberSites: Site[] = [];
    items.forEach((item, i) => {
      const p = `${path}/${i}`;
      let member: UnionMember;
      if (item.kind === 'object' && item.entries[0]!.key === 'alias') {
        const aliasNode = item.entries[0]!.value as { value: string; offset: number };
        const alias = aliasNode.value;
        if (!isValidIdentifier(alias)) {
          this.problem(`${p}/alias`, aliasNode.offset, `"${alias}" is an invalid member alias`, schema);
        } else if (alias === 'fieldDiscriminator') {
          this.problem(
            `${p}/alias`,
            aliasNode.offset,
            `"${alias}" is restricted keyword for a member alias`,
            schema,
          );
        }
        const type = item.entries[1]!.value;
        let doc: string | undefined;
        let props: JsonEntry[] | undefined;
        for (let k = 2; k < item.entries.length; k++) {
          const e = item.entries[k]!;
          if (e.key === 'doc') doc = (e.value as { value: string }).value;
          else (props ??= []).push(e);
        }
        const aliased = new UnionMember({
          type: UNRESOLVED,
          alias,
          doc,
          properties: properties(props),
          declaredInline: type.kind !== 'string',
        });
        member = aliased;
        this.type(type, `${p}/type`, scope, (s) => {
          aliased[STATE].type = s;
        });
      } else {
        const plain = new UnionMember({ type: UNRESOLVED, declaredInline: item.kind !== 'string' });
        member = plain;
        this.type(item, p, scope, (s) => {
          plain[STATE].type = s;
        });
      }
      member[STATE].location = this.location(item.offset);
      schema[STATE].members.push(member);
      memberSites.push(this.site(p, item.offset));
    });
    this.session.unions.push({ schema, site: this.site(path, offset), memberSites });
    return schema;
  }
}

// One builder that never dies, so that its hidden class outlives full GCs (see keep-classes.ts); it is never
// used.
keepClassAlive(
  new PdlModelBuilder(undefined as unknown as ParseSession, undefined as unknown as Source, new Map()),
);

/** The properties of a union (made by the PDL parser), sorted by key as those of the other schemas. */
export function sortedProperties(obj: JsonObject | undefined): DataMap | undefined {
  return obj === undefined ? undefined : properties(obj.entries);
}

/** The custom properties among `entries` (from `from` on), sorted by key as `TextParser.properties` does. */
function properties(entries: readonly JsonEntry[] | undefined, from = 0): DataMap | undefined {
  if (entries === undefined || entries.length <= from) return undefined;
  const sorted = entries.slice(from).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out = new DataMap();
  for (const e of sorted) out.put(e.key, toData(e.value));
  return out;
}
