/**
 * A reader of canonical schema texts: the JSON that `schemaToJson` writes and generated classes register
 * (`templates/schema-registry.ts`). It builds the same model the `.pdsc` parser (schema-parser.ts) builds
 * from such a text, field for field, location for location, default for default
 * (`test/schema/canonical-schema-reader.test.ts` compares the two over every generated tree), but checks
 * nothing: a canonical text was written from a schema the parser accepted. What it leaves out is why it
 * exists: the parser's checks, messages and forward-reference rules are ~27 KB of minified code, which every
 * browser page that uses a generated class would carry (`bench/client-size.bench.ts`). Texts that are not
 * canonical belong to the parser: a reference that does not resolve, or a default that does not fit its
 * type, fails here with a plain message and no location.
 *
 * Like a parse session, one read runs in steps: structure (every named schema bound before its body is read),
 * names (deferred references, in order; a name not bound yet is loaded from the host, which reads another
 * registered text into the same read), then includes and defaults, which need the resolved types.
 */
import { ByteString, Data, DataList, DataMap, type DataValue } from '../data';
import { ArrayDataSchema } from './array-schema';
import type { DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { EnumDataSchema } from './enum-schema';
import { FixedDataSchema } from './fixed-schema';
import { STATE } from './internal';
import { parseJsonExact } from '../data/codecs/json-exact-parser';
import { toData, type JsonNode, type JsonObject } from './json-locations';
import { MapDataSchema } from './map-schema';
import type { Deprecation, NamedDataSchema } from './named-schema';
import { primitiveSchema, UnresolvedDataSchema } from './primitive-schemas';
import { FieldOrder, RecordDataSchema, RecordField, RecordType, setRecordFields } from './record-schema';
import { inheritedPackage, referenceCandidates } from './schema-names';
import { TyperefDataSchema } from './typeref-schema';
import { UnionDataSchema, UnionMember } from './union-schema';
import { nonFiniteOf } from './validation/coerce';

const UNRESOLVED: DataSchema = UnresolvedDataSchema.INSTANCE;

/** What a read needs from its registry: the bindings, and the texts of names not read yet. */
export interface CanonicalReadHost {
  lookup(fullName: string): NamedDataSchema | undefined;
  bind(fullName: string, schema: NamedDataSchema): void;
  /** Reads the registered text of `fullName` into `read` (with {@link readCanonicalText}); the schema. */
  load(fullName: string, read: CanonicalRead): NamedDataSchema | undefined;
}

/** One read: texts read into it, references to resolve, records and defaults to finish. */
export class CanonicalRead {
  readonly deferred: { readonly candidates: readonly string[]; readonly assign: (s: DataSchema) => void }[] =
    [];
  readonly records: { readonly schema: RecordDataSchema; readonly includes: IncludeEntry[] }[] = [];
  readonly defaults: RecordField[] = [];
  constructor(readonly host: CanonicalReadHost) {}

  /** Resolves the deferred references, includes and defaults. @throws Error for a text that is not canonical */
  finish(): void {
    for (let k = 0; k < this.deferred.length; k++) {
      const d = this.deferred[k]!;
      let found: NamedDataSchema | undefined;
      for (const c of d.candidates) if ((found = this.host.lookup(c) ?? this.host.load(c, this))) break;
      if (found === undefined) throw new Error(`schema "${d.candidates[0]}" was not found`);
      d.assign(found);
    }
    this.deferred.length = 0;
    this.expandIncludes();
    for (const field of this.defaults) {
      const value = stored(field[STATE].default!, field.getType());
      if (value instanceof DataMap || value instanceof DataList) value.makeReadOnly();
      field[STATE].default = value;
    }
  }

  private expandIncludes(): void {
    const entries = new Map(this.records.map((r) => [r.schema, r]));
    const done = new Set<RecordDataSchema>();
    const visit = (entry: (typeof this.records)[number]): void => {
      const record = entry.schema;
      if (done.has(record)) return;
      done.add(record);
      const fields: RecordField[] = [];
      const include: NamedDataSchema[] = [];
      const inline = new Set<NamedDataSchema>();
      for (const inc of entry.includes) {
        const target = inc.schema.getDereferencedSchema() as RecordDataSchema;
        include.push(inc.schema as NamedDataSchema);
        if (inc.inline) inline.add(inc.schema as NamedDataSchema);
        const targetEntry = entries.get(target);
        if (targetEntry !== undefined) visit(targetEntry);
        fields.push(...target.getFields());
      }
      const s = record[STATE];
      if (s.fieldsBeforeIncludes) fields.unshift(...s.ownFields);
      else fields.push(...s.ownFields);
      s.include = include;
      s.includesDeclaredInline = inline;
      setRecordFields(record, fields);
    };
    for (const entry of this.records) visit(entry);
  }
}

interface IncludeEntry {
  schema: DataSchema;
  readonly inline: boolean;
}

interface Scope {
  readonly namespace: string;
  readonly package: string;
}

// the keys each kind of schema interprets: the others are its properties (as in schema-parser.ts)
const NAMED_KEYS = ['type', 'name', 'namespace', 'package', 'doc', 'aliases', 'deprecated'];
const keysWith = (...more: string[]): ReadonlySet<string> => new Set([...NAMED_KEYS, ...more]);
const RECORD = keysWith('fields', 'include');
const ENUM = keysWith('symbols', 'symbolDocs', 'deprecatedSymbols');
const FIXED = keysWith('size');
const TYPEREF = keysWith('ref', 'java');
const ARRAY: ReadonlySet<string> = new Set(['type', 'items']);
const MAP: ReadonlySet<string> = new Set(['type', 'values']);
const FIELD: ReadonlySet<string> = new Set([
  'name',
  'type',
  'doc',
  'default',
  'optional',
  'order',
  'aliases',
  'deprecated',
]);
const MEMBER: ReadonlySet<string> = new Set(['alias', 'type', 'doc']);

/**
 * How a canonical text becomes JSON nodes: `values` (one per top-level value) and, when the reader keeps
 * locations, `position` of a node's offset. A text that is not JSON throws.
 */
export type CanonicalTextScanner = (text: string) => {
  readonly values: readonly JsonNode[];
  readonly position?: ((offset: number) => { line: number; column: number }) | undefined;
};

/**
 * The default scanner: the data layer's exact JSON parser (longs beyond 2^53 stay exact; already in every
 * page that decodes JSON), no locations. The schema layer's modules that Node code loads (its barrel, the
 * parser) install the locating scanner (`installSchemaLocations()`, schema-locations.ts), so that on Node
 * every schema, field and member keeps its line and column, as the parser gives them; a browser page leaves
 * the locating scanner out (~1.3 KB gzipped; README.md of src/client, "Size").
 */
export const plainCanonicalScanner: CanonicalTextScanner = (text) => {
  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch (err) {
    throw new Error(`invalid JSON: ${(err as Error).message}`, { cause: err });
  }
  return { values: [nodeOf(value)] };
};

let scanText = plainCanonicalScanner;

/** @internal sets how canonical texts are scanned (schema-locations.ts installs the locating scanner). */
export function setCanonicalTextScanner(scanner: CanonicalTextScanner): void {
  scanText = scanner;
}

/** A parsed JSON value as the reader's nodes, without offsets. */
function nodeOf(v: unknown): JsonNode {
  switch (typeof v) {
    case 'string':
      return { kind: 'string', offset: -1, value: v };
    case 'number':
    case 'bigint':
      return { kind: 'number', offset: -1, value: v, integral: typeof v === 'bigint' || Number.isInteger(v) };
    case 'boolean':
      return { kind: 'boolean', offset: -1, value: v };
    default:
      break;
  }
  if (v === null) return { kind: 'null', offset: -1 };
  if (Array.isArray(v)) return { kind: 'array', offset: -1, items: v.map(nodeOf) };
  const o = v as { readonly [key: string]: unknown };
  // keys in the order the parser's map gives them, which is a DataMap's order (integer-like keys first)
  const entries = Object.keys(o).map((key, i) => ({ key, keyOffset: i, value: nodeOf(o[key]) }));
  return { kind: 'object', offset: -1, entries, map: new Map(entries.map((e) => [e.key, e])) };
}

/**
 * Reads one canonical text (`file` names it in locations) into `read`: its schemas are built and bound,
 * their references deferred to {@link CanonicalRead.finish}.
 * @throws Error when the text is not JSON
 */
export function readCanonicalText(read: CanonicalRead, text: string, file: string): void {
  const scan = scanText(text);
  const position = scan.position;
  const location = (offset: number): { file: string; line: number; column: number } | undefined =>
    position === undefined ? undefined : { file, ...position(offset) };

  const str = (o: JsonObject, key: string): string | undefined => {
    const v = o.map.get(key)?.value;
    return v?.kind === 'string' ? v.value : undefined;
  };
  const list = (o: JsonObject, key: string): readonly JsonNode[] => {
    const v = o.map.get(key)?.value;
    return v?.kind === 'array' ? v.items : [];
  };
  const deprecation = (o: JsonObject): Deprecation | undefined => {
    const v = o.map.get('deprecated')?.value;
    return v?.kind === 'string' || v?.kind === 'boolean' ? v.value : undefined;
  };
  const properties = (o: JsonObject, interpreted: ReadonlySet<string>): DataMap | undefined => {
    let out: DataMap | undefined;
    const keys = [...o.map.keys()]
      .filter((k) => !interpreted.has(k))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const k of keys) (out ??= new DataMap()).put(k, toData(o.map.get(k)!.value));
    return out;
  };

  const type = (node: JsonNode, scope: Scope, assign: (s: DataSchema) => void): void => {
    if (node.kind === 'string') {
      const primitive = primitiveSchema(node.value);
      assign(primitive ?? UNRESOLVED);
      if (primitive === undefined)
        read.deferred.push({ candidates: referenceCandidates(node.value, scope.namespace), assign });
    } else if (node.kind === 'array') {
      assign(union(node.items, scope));
    } else if (node.kind === 'object') {
      assign(complex(node, scope));
    } else {
      throw new Error('not a canonical schema text');
    }
  };

  const complex = (o: JsonObject, scope: Scope): DataSchema => {
    const t = str(o, 'type') ?? '';
    const primitive = primitiveSchema(t);
    if (primitive !== undefined) return primitive;
    if (t === 'array' || t === 'map') {
      const key = t === 'array' ? 'items' : 'values';
      const e = o.map.get(key)!;
      const inline = e.value.kind !== 'string';
      const schema =
        t === 'array'
          ? new ArrayDataSchema(UNRESOLVED, { properties: properties(o, ARRAY), itemsDeclaredInline: inline })
          : new MapDataSchema(UNRESOLVED, { properties: properties(o, MAP), valuesDeclaredInline: inline });
      type(e.value, scope, (s) => {
        if (schema instanceof ArrayDataSchema) schema[STATE].items = s;
        else schema[STATE].values = s;
      });
      return schema;
    }
    // a named schema: its header, as the parser reads it
    let name = str(o, 'name') ?? '';
    let namespace = str(o, 'namespace') ?? scope.namespace;
    const dot = name.lastIndexOf('.');
    if (dot >= 0) {
      namespace = name.slice(0, dot);
      name = name.slice(dot + 1);
    }
    const pkg = str(o, 'package') ?? inheritedPackage(scope.package, scope.namespace, namespace);
    const header = {
      name,
      namespace,
      package: pkg,
      doc: str(o, 'doc') ?? '',
      aliases: list(o, 'aliases').map((a) => {
        const alias = (a as { value: string }).value;
        return alias.includes('.') || namespace === '' ? alias : `${namespace}.${alias}`;
      }),
      deprecated: deprecation(o),
    };
    const inner: Scope = { namespace, package: pkg };
    const named = <T extends NamedDataSchema>(schema: T): T => {
      schema[STATE].location = location(o.offset);
      read.host.bind(namespace === '' ? name : `${namespace}.${name}`, schema);
      return schema;
    };
    switch (t) {
      case 'record':
      case 'error': {
        const fieldsKey = o.map.get('fields')?.keyOffset;
        const includeKey = o.map.get('include')?.keyOffset;
        const record = named(
          new RecordDataSchema({
            ...header,
            properties: properties(o, RECORD),
            recordType: t === 'error' ? RecordType.ERROR : RecordType.RECORD,
            fieldsBeforeIncludes:
              fieldsKey !== undefined && includeKey !== undefined && fieldsKey < includeKey,
          }),
        );
        const includes: IncludeEntry[] = list(o, 'include').map((node) => {
          const entry: IncludeEntry = { schema: UNRESOLVED, inline: node.kind !== 'string' };
          type(node, inner, (s) => {
            entry.schema = s;
          });
          return entry;
        });
        for (const node of list(o, 'fields')) field(node as JsonObject, inner, record);
        read.records.push({ schema: record, includes });
        return record;
      }
      case 'enum': {
        const symbols = list(o, 'symbols').map((s) => (s as { value: string }).value);
        const bySymbol = (key: string): Map<string, Deprecation> => {
          const v = o.map.get(key)?.value;
          const out = new Map<string, Deprecation>();
          if (v?.kind !== 'object') return out;
          for (const s of symbols) {
            const e = v.map.get(s)?.value;
            if (e?.kind === 'string' || e?.kind === 'boolean') out.set(s, e.value);
          }
          return out;
        };
        return named(
          new EnumDataSchema({
            ...header,
            properties: properties(o, ENUM),
            symbols,
            symbolDocs: bySymbol('symbolDocs') as Map<string, string>,
            deprecatedSymbols: bySymbol('deprecatedSymbols'),
          }),
        );
      }
      case 'fixed': {
        const size = o.map.get('size')?.value;
        return named(
          new FixedDataSchema({
            ...header,
            properties: properties(o, FIXED),
            size: size?.kind === 'number' ? Number(size.value) : 0,
          }),
        );
      }
      case 'typeref': {
        const ref = o.map.get('ref')!.value;
        const java = o.map.get('java')?.value;
        const className = java?.kind === 'object' ? str(java, 'class') : undefined;
        const coercerClass = java?.kind === 'object' ? str(java, 'coercerClass') : undefined;
        const schema = named(
          new TyperefDataSchema({
            ...header,
            properties: properties(o, TYPEREF),
            ref: UNRESOLVED,
            refDeclaredInline: ref.kind !== 'string',
            java:
              java?.kind === 'object'
                ? {
                    ...(className === undefined ? {} : { className }),
                    ...(coercerClass === undefined ? {} : { coercerClass }),
                  }
                : undefined,
          }),
        );
        type(ref, inner, (s) => {
          schema[STATE].ref = s;
        });
        return schema;
      }
      default:
        throw new Error(`"${t}" is not a schema type`);
    }
  };

  const field = (node: JsonObject, scope: Scope, record: RecordDataSchema): void => {
    const typeNode = node.map.get('type')!.value;
    const order = str(node, 'order')?.toLowerCase();
    const optional = node.map.get('optional')?.value;
    const f = new RecordField({
      name: str(node, 'name')!,
      type: UNRESOLVED,
      optional: optional?.kind === 'boolean' && optional.value,
      doc: str(node, 'doc'),
      deprecated: deprecation(node),
      order:
        order !== undefined && (Object.values(FieldOrder) as string[]).includes(order)
          ? (order as FieldOrder)
          : FieldOrder.ASCENDING,
      aliases: list(node, 'aliases').map((a) => (a as { value: string }).value),
      properties: properties(node, FIELD),
      declaredInline: typeNode.kind !== 'string',
    });
    f[STATE].record = record;
    f[STATE].location = location(node.offset);
    record[STATE].ownFields.push(f);
    type(typeNode, scope, (s) => {
      f[STATE].type = s;
    });
    const dflt = node.map.get('default');
    if (dflt !== undefined) {
      f[STATE].default = toData(dflt.value);
      read.defaults.push(f);
    }
  };

  const union = (items: readonly JsonNode[], scope: Scope): UnionDataSchema => {
    const schema = new UnionDataSchema([]);
    for (const item of items) {
      let member: UnionMember;
      if (item.kind === 'object' && item.map.has('alias')) {
        const typeNode = item.map.get('type')!.value;
        member = new UnionMember({
          type: UNRESOLVED,
          alias: str(item, 'alias'),
          doc: str(item, 'doc'),
          properties: properties(item, MEMBER),
          declaredInline: typeNode.kind !== 'string',
        });
        type(typeNode, scope, (s) => {
          member[STATE].type = s;
        });
      } else {
        member = new UnionMember({ type: UNRESOLVED, declaredInline: item.kind !== 'string' });
        type(item, scope, (s) => {
          member[STATE].type = s;
        });
      }
      member[STATE].location = location(item.offset);
      schema[STATE].members.push(member);
    }
    return schema;
  };

  for (const node of scan.values) type(node, { namespace: '', package: '' }, () => undefined);
}

/**
 * A default in its stored form, as the parser's default check gives it for a default that fits its type
 * (default-value-check.ts, whose checks a canonical text has passed): bytes and fixed strings become
 * ByteStrings, float and double numbers (and "NaN", "Infinity", "-Infinity") numbers, int and long numbers
 * are truncated; containers are copied, records keep the keys they do not declare.
 */
function stored(value: DataValue, schema: DataSchema): DataValue {
  const s = schema.getDereferencedSchema();
  switch (s.getType()) {
    case DataSchemaType.INT:
    case DataSchemaType.LONG:
      return typeof value === 'number' ? Math.trunc(value) + 0 : value;
    case DataSchemaType.FLOAT:
    case DataSchemaType.DOUBLE:
      if (typeof value === 'string') return nonFiniteOf(value) ?? value;
      return typeof value === 'bigint' ? Number(value) : value;
    case DataSchemaType.BYTES:
    case DataSchemaType.FIXED:
      return typeof value === 'string' ? ByteString.fromAvroString(value) : value;
    case DataSchemaType.ARRAY: {
      const items = (s as ArrayDataSchema).getItems();
      const out = new DataList();
      for (const item of value as DataList) out.add(stored(item, items));
      return out;
    }
    case DataSchemaType.MAP: {
      const values = (s as MapDataSchema).getValues();
      const out = new DataMap();
      for (const [key, v] of value as DataMap) out.put(key, stored(v, values));
      return out;
    }
    case DataSchemaType.RECORD: {
      const out = new DataMap();
      for (const [key, v] of value as DataMap) {
        const field = (s as RecordDataSchema).getField(key);
        out.put(key, field === undefined ? v : stored(v, field.getType()));
      }
      return out;
    }
    case DataSchemaType.UNION: {
      if (value === Data.NULL) return value;
      const [key, inner] = (value as DataMap).entries().next().value as [string, DataValue];
      const member = (s as UnionDataSchema).getMemberByMemberKey(key)!;
      return new DataMap([[key, stored(inner, member.getType())]]);
    }
    default:
      return value;
  }
}
