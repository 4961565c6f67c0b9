/**
 * A small model of Avro 1.4.1 schemas, parsed from their JSON (internal to the translation): named types
 * resolved to their definitions (in the same text, or in `.avsc` files found by an {@link AvroSchemaResolver}),
 * everything the translation does not interpret kept as properties, in order.
 *
 * Names follow the Avro rules, which are also ours: a name with dots is full; otherwise the namespace is the
 * schema's `namespace` attribute, else that of the enclosing named schema. A simple name in a reference is
 * looked up in the current namespace first, then as given.
 */
import { AvroJsonStyle } from './avro-options';
import { plain, writeAvroJson } from './avro-json-writer';
import { SchemaTranslationError } from './errors';
import type { AvroSchemaResolver } from './avro-schema-resolver';

/** A JSON value as parsed (longs beyond 2^53 as bigints). */
export type Json = null | boolean | number | bigint | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

export const AVRO_PRIMITIVES = [
  'null',
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'string',
] as const;
export type AvroPrimitiveName = (typeof AVRO_PRIMITIVES)[number];

export interface AvroPrimitive {
  readonly kind: 'primitive';
  readonly name: AvroPrimitiveName;
}

interface AvroNamedBase {
  readonly fullName: string;
  readonly name: string;
  readonly namespace: string;
  readonly doc: string | undefined;
  readonly aliases: Json | undefined;
  /** Attributes the model does not interpret, in their order. */
  readonly props: readonly (readonly [string, Json])[];
}

export interface AvroRecord extends AvroNamedBase {
  readonly kind: 'record';
  readonly recordType: 'record' | 'error';
  readonly fields: AvroField[];
}

export interface AvroEnum extends AvroNamedBase {
  readonly kind: 'enum';
  readonly symbols: readonly string[];
}

export interface AvroFixed extends AvroNamedBase {
  readonly kind: 'fixed';
  readonly size: number;
}

export type AvroNamed = AvroRecord | AvroEnum | AvroFixed;

export interface AvroArray {
  readonly kind: 'array';
  readonly items: AvroType;
  readonly props: readonly (readonly [string, Json])[];
}

export interface AvroMap {
  readonly kind: 'map';
  readonly values: AvroType;
  readonly props: readonly (readonly [string, Json])[];
}

export interface AvroUnion {
  readonly kind: 'union';
  readonly members: readonly AvroType[];
}

export type AvroType = AvroPrimitive | AvroNamed | AvroArray | AvroMap | AvroUnion;

export interface AvroField {
  readonly name: string;
  readonly type: AvroType;
  readonly doc: string | undefined;
  /** True when the field declares a default (which may be `null`). */
  readonly hasDefault: boolean;
  readonly default: Json;
  readonly order: Json | undefined;
  readonly aliases: Json | undefined;
  readonly props: readonly (readonly [string, Json])[];
}

const NAMED_KEYS = new Set(['type', 'name', 'namespace', 'doc', 'aliases']);
const RECORD_KEYS = new Set([...NAMED_KEYS, 'fields']);
const ENUM_KEYS = new Set([...NAMED_KEYS, 'symbols']);
const FIXED_KEYS = new Set([...NAMED_KEYS, 'size']);
// `optional` is ours, not Avro's: the translation decides optionality from unions with null
const FIELD_KEYS = new Set(['name', 'type', 'doc', 'default', 'order', 'aliases', 'optional']);

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPrimitiveName(s: string): s is AvroPrimitiveName {
  return (AVRO_PRIMITIVES as readonly string[]).includes(s);
}

function props(json: JsonObject, reserved: ReadonlySet<string>): [string, Json][] {
  return Object.keys(json)
    .filter((k) => !reserved.has(k))
    .map((k) => [k, json[k]!]);
}

/** The primitive model for a name. */
export function primitive(name: AvroPrimitiveName): AvroPrimitive {
  return { kind: 'primitive', name };
}

/** Parses Avro schema JSON into the model; one parser per translation (it holds the defined names). */
export class AvroModelParser {
  readonly #names = new Map<string, AvroNamed>();
  readonly #resolver: AvroSchemaResolver | undefined;
  #file: string | undefined;

  constructor(resolver?: AvroSchemaResolver) {
    this.#resolver = resolver;
  }

  /** Every named type defined so far, by full name. */
  names(): ReadonlyMap<string, AvroNamed> {
    return this.#names;
  }

  /** The model of a top-level schema. */
  parse(json: Json, file?: string): AvroType {
    const saved = this.#file;
    this.#file = file;
    try {
      return this.type(json, '', '');
    } finally {
      this.#file = saved;
    }
  }

  private fail(path: string, message: string): never {
    const where = [this.#file, path === '' ? undefined : path].filter((s) => s !== undefined).join(' ');
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_SCHEMA_PARSE',
      where === '' ? message : `${where}: ${message}`,
    );
  }

  private type(json: Json, namespace: string, path: string): AvroType {
    if (typeof json === 'string') return this.reference(json, namespace, path);
    if (Array.isArray(json)) {
      const members = (json as readonly Json[]).map((m, i) => this.type(m, namespace, `${path}/${i}`));
      return { kind: 'union', members };
    }
    if (!isJsonObject(json))
      return this.fail(path, `${writeAvroJson(plain(json), AvroJsonStyle.COMPACT)} is not a schema`);
    const type = json['type'];
    if (typeof type !== 'string') {
      if (type === undefined) return this.fail(path, 'a schema object must have a "type"');
      return this.type(type, namespace, `${path}/type`);
    }
    switch (type) {
      case 'record':
      case 'error':
        return this.record(json, type, namespace, path);
      case 'enum':
        return this.enumType(json, namespace, path);
      case 'fixed':
        return this.fixed(json, namespace, path);
      case 'array':
        if (json['items'] === undefined) return this.fail(path, 'an array schema must have "items"');
        return {
          kind: 'array',
          items: this.type(json['items'], namespace, `${path}/items`),
          props: props(json, new Set(['type', 'items'])),
        };
      case 'map':
        if (json['values'] === undefined) return this.fail(path, 'a map schema must have "values"');
        return {
          kind: 'map',
          values: this.type(json['values'], namespace, `${path}/values`),
          props: props(json, new Set(['type', 'values'])),
        };
      default:
        // `{"type": "int"}` or `{"type": "com.ex.Named"}`: a primitive (its extra attributes have no place in
        // our schemas) or a reference
        return this.reference(type, namespace, `${path}/type`);
    }
  }

  private reference(name: string, namespace: string, path: string): AvroType {
    if (isPrimitiveName(name)) return primitive(name);
    const candidates = name.includes('.') || namespace === '' ? [name] : [`${namespace}.${name}`, name];
    for (const c of candidates) {
      const found = this.#names.get(c);
      if (found !== undefined) return found;
    }
    if (this.#resolver !== undefined) {
      for (const c of candidates) {
        for (let file = this.#resolver.nextFile(c); file !== undefined; file = this.#resolver.nextFile(c)) {
          this.parse(file.json as Json, file.path);
          const found = this.#names.get(c);
          if (found !== undefined) return found;
        }
      }
      const tried = candidates.flatMap((c) => this.#resolver!.candidates(c));
      return this.fail(
        path,
        `type "${name}" is not defined${tried.length === 0 ? ' (no .avsc path is set)' : ` (looked for ${tried.join(', ')})`}`,
      );
    }
    return this.fail(path, `type "${name}" is not defined`);
  }

  private nameOf(
    json: JsonObject,
    namespace: string,
    path: string,
  ): {
    name: string;
    namespace: string;
    fullName: string;
    doc: string | undefined;
    aliases: Json | undefined;
  } {
    const name = json['name'];
    if (typeof name !== 'string' || name === '')
      return this.fail(path, 'a named schema must have a string "name"');
    const ns = json['namespace'];
    if (ns !== undefined && typeof ns !== 'string')
      return this.fail(`${path}/namespace`, '"namespace" must be a string');
    let simple = name;
    let space = ns ?? namespace;
    const dot = name.lastIndexOf('.');
    if (dot >= 0) {
      space = name.slice(0, dot);
      simple = name.slice(dot + 1);
    }
    const fullName = space === '' ? simple : `${space}.${simple}`;
    if (this.#names.has(fullName)) return this.fail(path, `"${fullName}" is defined more than once`);
    const doc = json['doc'];
    if (doc !== undefined && typeof doc !== 'string')
      return this.fail(`${path}/doc`, '"doc" must be a string');
    return { name: simple, namespace: space, fullName, doc, aliases: json['aliases'] };
  }

  private record(
    json: JsonObject,
    recordType: 'record' | 'error',
    namespace: string,
    path: string,
  ): AvroRecord {
    const n = this.nameOf(json, namespace, path);
    const fieldsJson = json['fields'];
    if (!Array.isArray(fieldsJson)) return this.fail(path, 'a record schema must have a "fields" array');
    const record: AvroRecord = {
      kind: 'record',
      recordType,
      ...n,
      fields: [],
      props: props(json, RECORD_KEYS),
    };
    this.#names.set(n.fullName, record); // before the fields, which may refer to the record
    (fieldsJson as readonly Json[]).forEach((f, i) => {
      const fieldPath = `${path}/fields/${i}`;
      if (!isJsonObject(f)) this.fail(fieldPath, 'a field must be an object');
      const name = f['name'];
      if (typeof name !== 'string') this.fail(fieldPath, 'a field must have a string "name"');
      if (f['type'] === undefined) this.fail(fieldPath, `field "${name}" must have a "type"`);
      const doc = f['doc'];
      record.fields.push({
        name,
        type: this.type(f['type'], n.namespace, `${fieldPath}/type`),
        doc: typeof doc === 'string' ? doc : undefined,
        hasDefault: 'default' in f,
        default: f['default'] ?? null,
        order: f['order'],
        aliases: f['aliases'],
        props: props(f, FIELD_KEYS),
      });
    });
    return record;
  }

  private enumType(json: JsonObject, namespace: string, path: string): AvroEnum {
    const n = this.nameOf(json, namespace, path);
    const symbols = json['symbols'];
    if (!Array.isArray(symbols) || !(symbols as readonly Json[]).every((s) => typeof s === 'string')) {
      return this.fail(path, 'an enum schema must have a "symbols" array of strings');
    }
    const e: AvroEnum = {
      kind: 'enum',
      ...n,
      symbols: symbols as readonly string[],
      props: props(json, ENUM_KEYS),
    };
    this.#names.set(n.fullName, e);
    return e;
  }

  private fixed(json: JsonObject, namespace: string, path: string): AvroFixed {
    const n = this.nameOf(json, namespace, path);
    const size = json['size'];
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
      return this.fail(path, 'a fixed schema must have a non-negative integer "size"');
    }
    const f: AvroFixed = { kind: 'fixed', ...n, size, props: props(json, FIXED_KEYS) };
    this.#names.set(n.fullName, f);
    return f;
  }
}
