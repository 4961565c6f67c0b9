/**
 * Translation of Avro 1.4.1 schema JSON to our schemas, following the reference translator
 * (restli-wire-facts §8.4):
 *
 * - a field whose type is a union with `null` becomes optional: `["null", T]` → `T`, `["null", A, B]` →
 *   `union[A, B]`, `["null"]` → an empty union;
 * - defaults get their union member keys back: `["int", "string", "null"]` with default `5` → optional
 *   `union[int, string]` with default `{"int": 5}`; a `null` default of an optional field is dropped;
 * - an Avro default must be of the union's first member (Avro's own rule); one that is not is refused with
 *   the reference's words (`Default value 3 of field "u" declared in record "R2" failed validation.` ...);
 * - named types that the text refers to but does not define are read from `.avsc` files on the resolution
 *   path;
 * - an embedded schema (`"com.linkedin.data": {"schema": ..., "optionalDefaultMode": ...}` on the root) is
 *   returned as is (RETURN_EMBEDDED_SCHEMA, the default), returned once checked to translate back to the
 *   Avro schema (VERIFY_EMBEDDED_SCHEMA), or ignored (TRANSLATE).
 *
 * The result is parsed by our own parser, so it obeys every rule of the schema language.
 */
import { parseJsonExact } from '../../data/codecs/json-exact-parser';
import type { DataSchema } from '../data-schema';
import { SchemaParseError } from '../schema-parse-error';
import { parseSchema } from '../schema-resolver';
import {
  AvroJsonStyle,
  AvroToDataSchemaTranslationMode,
  OptionalDefaultMode,
  resolveAvroToDataOptions,
  type AvroToDataSchemaTranslationOptions,
} from './avro-options';
import { compareKeys, plain, writeAvroJson } from './avro-json-writer';
import {
  AvroModelParser,
  isJsonObject,
  type AvroField,
  type AvroNamed,
  type AvroRecord,
  type AvroType,
  type Json,
  type JsonObject,
} from './avro-schema-model';
import { AvroSchemaResolver } from './avro-schema-resolver';
import { dataToAvroSchemaJson } from './data-to-avro-schema';
import { formatMessage, SchemaTranslationError } from './errors';
import { DATA_PROPERTY, OPTIONAL_DEFAULT_MODE_PROPERTY, SCHEMA_PROPERTY } from './to-avro-state';

/**
 * Our schema for Avro schema JSON.
 *
 * @example
 * ```ts
 * const schema = avroToDataSchema('{"type":"record","name":"R","fields":[{"name":"x","type":["null","int"],"default":null}]}');
 * schema.toString(); // {"type":"record","name":"R","fields":[{"name":"x","type":"int","optional":true}]}
 * ```
 * @throws SchemaTranslationError `SVC_ERR_AVRO_SCHEMA_PARSE` for malformed Avro, an undefined name, a default
 *   that does not fit, or a result our parser refuses; `SVC_ERR_AVRO_EMBEDDED_SCHEMA` for a bad embedded schema.
 * @see dataToAvroSchemaJson
 */
export function avroToDataSchema(
  avroJsonText: string,
  options?: AvroToDataSchemaTranslationOptions,
): DataSchema {
  const opts = resolveAvroToDataOptions(options);
  let json: Json;
  try {
    json = parseJsonExact(avroJsonText) as Json;
  } catch (err) {
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_SCHEMA_PARSE',
      `the Avro schema is not JSON: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  const resolver = (): AvroSchemaResolver | undefined =>
    opts.fileResolutionPaths.length === 0
      ? undefined
      : new AvroSchemaResolver(opts.fileResolutionPaths, opts.fileSystem);

  if (opts.translationMode !== AvroToDataSchemaTranslationMode.TRANSLATE) {
    const embedded = embeddedSchema(json);
    if (embedded !== undefined) {
      const schema = parseEmbedded(embedded.schema);
      if (opts.translationMode === AvroToDataSchemaTranslationMode.VERIFY_EMBEDDED_SCHEMA) {
        verifyEmbedded(schema, embedded.mode, json, avroJsonText, resolver());
      }
      return schema;
    }
  }

  const model = new AvroModelParser(resolver()).parse(json);
  const text = writeAvroJson(plain(new Emitter().type(model)), AvroJsonStyle.COMPACT);
  try {
    return parseSchema(text);
  } catch (err) {
    if (!(err instanceof SchemaParseError)) throw err;
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_SCHEMA_PARSE',
      `the Avro schema does not translate to a valid schema:\n${err.message}`,
      { cause: err },
    );
  }
}

/** {@link avroToDataSchema}, as the canonical JSON of our schema. */
export function avroToDataSchemaJson(
  avroJsonText: string,
  options?: AvroToDataSchemaTranslationOptions,
): string {
  return avroToDataSchema(avroJsonText, options).toString();
}

// ---------------------------------------------------------------------------------------------------------
// Embedded schemas

interface Embedded {
  readonly schema: JsonObject;
  readonly mode: Json | undefined;
}

function embeddedSchema(json: Json): Embedded | undefined {
  if (!isJsonObject(json)) return undefined;
  const property = json[DATA_PROPERTY];
  if (!isJsonObject(property)) return undefined;
  const schema = property[SCHEMA_PROPERTY];
  return isJsonObject(schema) ? { schema, mode: property[OPTIONAL_DEFAULT_MODE_PROPERTY] } : undefined;
}

function parseEmbedded(schema: JsonObject): DataSchema {
  try {
    return parseSchema(writeAvroJson(plain(schema), AvroJsonStyle.COMPACT));
  } catch (err) {
    if (!(err instanceof SchemaParseError)) throw err;
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_EMBEDDED_SCHEMA',
      `Embedded schema is invalid\n${err.message}`,
      {
        cause: err,
      },
    );
  }
}

/** The embedded schema must translate (with the mode it records) to the Avro schema that carries it. */
function verifyEmbedded(
  schema: DataSchema,
  mode: Json | undefined,
  input: Json,
  inputText: string,
  resolver: AvroSchemaResolver | undefined,
): void {
  if (mode !== OptionalDefaultMode.TRANSLATE_DEFAULT && mode !== OptionalDefaultMode.TRANSLATE_TO_NULL) {
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_EMBEDDED_SCHEMA',
      `the embedded schema's "${OPTIONAL_DEFAULT_MODE_PROPERTY}" is ${mode === undefined ? 'missing' : writeAvroJson(plain(mode), AvroJsonStyle.COMPACT)}, not one of ${Object.values(OptionalDefaultMode).join(', ')}`,
    );
  }
  const translated = parseJsonExact(dataToAvroSchemaJson(schema, { optionalDefaultMode: mode })) as Json;
  const a = canonicalAvro(withoutDataProperty(translated), undefined);
  const b = canonicalAvro(withoutDataProperty(input), resolver);
  if (a !== b) {
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_EMBEDDED_SCHEMA',
      `Embedded schema does not translate to input Avro schema: ${inputText}`,
    );
  }
}

function withoutDataProperty(json: Json): Json {
  if (!isJsonObject(json)) return json;
  const out: Record<string, Json> = {};
  for (const k of Object.keys(json))
    if (k !== DATA_PROPERTY) Object.defineProperty(out, k, { value: json[k], enumerable: true });
  return out;
}

/**
 * A text equal for equal Avro schemas in the sense of Avro's `Schema.equals`: names resolved to full names,
 * named types in full the first time, attribute order and docs and aliases ignored, properties and defaults
 * compared as JSON values.
 */
export function canonicalAvro(json: Json, resolver: AvroSchemaResolver | undefined): string {
  const written = new Set<string>();
  const canon = (t: AvroType): unknown => {
    switch (t.kind) {
      case 'primitive':
        return t.name;
      case 'union':
        return t.members.map(canon);
      case 'array':
        return { type: 'array', items: canon(t.items), props: sortedProps(t.props) };
      case 'map':
        return { type: 'map', values: canon(t.values), props: sortedProps(t.props) };
      default: {
        if (written.has(t.fullName)) return t.fullName;
        written.add(t.fullName);
        const base = {
          type: t.kind === 'record' ? t.recordType : t.kind,
          name: t.fullName,
          props: sortedProps(t.props),
        };
        if (t.kind === 'enum') return { ...base, symbols: t.symbols };
        if (t.kind === 'fixed') return { ...base, size: t.size };
        return {
          ...base,
          fields: t.fields.map((f) => ({
            name: f.name,
            type: canon(f.type),
            default: f.hasDefault ? sortJson(f.default) : '(none)',
            order: f.order ?? 'ascending',
            props: sortedProps(f.props),
          })),
        };
      }
    }
  };
  const model = new AvroModelParser(resolver).parse(json);
  return writeAvroJson(plain(canon(model)), AvroJsonStyle.COMPACT);
}

function sortedProps(props: readonly (readonly [string, Json])[]): unknown {
  return [...props].sort(([a], [b]) => compareKeys(a, b)).map(([k, v]) => [k, sortJson(v)]);
}

function sortJson(v: Json): unknown {
  if (Array.isArray(v)) return (v as readonly Json[]).map(sortJson);
  if (isJsonObject(v))
    return Object.keys(v)
      .sort(compareKeys)
      .map((k) => [k, sortJson(v[k]!)]);
  return typeof v === 'bigint' || typeof v === 'number' ? String(v) : v;
}

// ---------------------------------------------------------------------------------------------------------
// Avro model → our schema JSON

interface FieldInfo {
  /** The type with `null` taken out of a union with null. */
  readonly type: AvroType;
  readonly optional: boolean;
}

const fieldInfos = new WeakMap<AvroField, FieldInfo>();

/** The field's type and optionality in our schema: a union with null makes it optional. */
function fieldInfo(field: AvroField): FieldInfo {
  let info = fieldInfos.get(field);
  if (info === undefined) {
    const t = field.type;
    if (t.kind === 'union' && t.members.some(isNull)) {
      const rest = t.members.filter((m) => !isNull(m));
      info = { type: rest.length === 1 ? rest[0]! : { kind: 'union', members: rest }, optional: true };
    } else {
      info = { type: t, optional: false };
    }
    fieldInfos.set(field, info);
  }
  return info;
}

function isNull(t: AvroType): boolean {
  return t.kind === 'primitive' && t.name === 'null';
}

/** The member key of an Avro type in our unions (full name for named types, else the type name). */
function memberKey(t: AvroType): string {
  switch (t.kind) {
    case 'primitive':
      return t.name;
    case 'array':
    case 'map':
    case 'union':
      return t.kind;
    default:
      return t.fullName;
  }
}

/** Writes our schema JSON for the model; named types in full the first time, by full name afterwards. */
class Emitter {
  private readonly written = new Set<string>();

  type(t: AvroType): unknown {
    switch (t.kind) {
      case 'primitive':
        return t.name;
      case 'union':
        return t.members.map((m) => this.type(m));
      case 'array':
        return entries([['type', 'array'], ['items', this.type(t.items)], ...t.props]);
      case 'map':
        return entries([['type', 'map'], ['values', this.type(t.values)], ...t.props]);
      default:
        return this.named(t);
    }
  }

  private named(t: AvroNamed): unknown {
    if (this.written.has(t.fullName)) return t.fullName;
    this.written.add(t.fullName);
    const out: (readonly [string, unknown])[] = [
      ['type', t.kind === 'record' ? t.recordType : t.kind],
      ['name', t.name],
      ['namespace', t.namespace],
    ];
    if (t.doc !== undefined) out.push(['doc', t.doc]);
    if (t.kind === 'enum') out.push(['symbols', t.symbols]);
    else if (t.kind === 'fixed') out.push(['size', t.size]);
    else out.push(['fields', t.fields.map((f) => this.field(f, t))]);
    if (t.aliases !== undefined) out.push(['aliases', t.aliases]);
    out.push(...t.props);
    return entries(out);
  }

  private field(f: AvroField, record: AvroRecord): unknown {
    const info = fieldInfo(f);
    const out: (readonly [string, unknown])[] = [
      ['name', f.name],
      ['type', this.type(info.type)],
    ];
    if (f.doc !== undefined) out.push(['doc', f.doc]);
    if (f.hasDefault) {
      const problem = defaultProblem(f.default, f.type, []);
      if (problem !== undefined) {
        throw new SchemaTranslationError(
          'SVC_ERR_AVRO_SCHEMA_PARSE',
          `Default value ${javaJson(f.default)} of field "${f.name}" declared in record "${record.fullName}" failed validation.\n${problem}`,
        );
      }
      const value = translateFieldDefault(f.default, info);
      if (value !== undefined) out.push(['default', value]);
    }
    if (info.optional) out.push(['optional', true]);
    if (f.order !== undefined) out.push(['order', f.order]);
    if (f.aliases !== undefined) out.push(['aliases', f.aliases]);
    out.push(...f.props);
    return entries(out);
  }
}

/** A plain object with these entries in this order (own properties, so `__proto__` is safe). */
function entries(list: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of list)
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Defaults

/** Undefined for a null default of an optional field (dropped: absence is its null). */
function translateFieldDefault(value: Json, info: FieldInfo): unknown {
  if (info.optional && value === null) return undefined;
  return translateDefault(value, info.type);
}

/**
 * An Avro default in our form: a union value gets the key of the union's first member (Avro defaults are of
 * that member), inside records too. (The reference keeps a nested record value as it was, so a union inside
 * it would lack its key; we translate it all the way down.)
 */
function translateDefault(value: Json, t: AvroType): unknown {
  switch (t.kind) {
    case 'union': {
      if (value === null) return null;
      const first = t.members[0];
      if (first === undefined) return null;
      return entries([[memberKey(first), translateDefault(value, first)]]);
    }
    case 'record': {
      if (!isJsonObject(value)) return value;
      const out: [string, unknown][] = [];
      for (const f of t.fields) {
        const v = value[f.name];
        if (v === undefined) continue;
        const r = translateFieldDefault(v, fieldInfo(f));
        if (r !== undefined) out.push([f.name, r]);
      }
      return entries(out);
    }
    case 'array':
      return Array.isArray(value)
        ? (value as readonly Json[]).map((v) => translateDefault(v, t.items))
        : value;
    case 'map': {
      if (!isJsonObject(value)) return value;
      return entries(Object.keys(value).map((k) => [k, translateDefault(value[k]!, t.values)] as const));
    }
    default:
      return value;
  }
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
// eslint-disable-next-line no-control-regex -- the bytes of an Avro string are its chars U+0000..U+00FF
const LATIN1 = /^[\u0000-\u00ff]*$/;

/**
 * The first problem of an Avro default, in the validator's words (`ERROR :: /path :: 3 cannot be coerced to
 * Null`), or undefined. A union default is checked against the union's first member, as Avro specifies.
 */
function defaultProblem(value: Json, t: AvroType, path: (string | number)[]): string | undefined {
  const coerce = (cls: string): string =>
    formatMessage(path, `${javaJson(value)} cannot be coerced to ${cls}`);
  switch (t.kind) {
    case 'primitive':
      switch (t.name) {
        case 'null':
          return value === null ? undefined : coerce('Null');
        case 'boolean':
          return typeof value === 'boolean' ? undefined : coerce('Boolean');
        case 'int':
          return typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX
            ? undefined
            : coerce('Integer');
        case 'long':
          return (typeof value === 'number' && Number.isInteger(value)) ||
            (typeof value === 'bigint' && value >= LONG_MIN && value <= LONG_MAX)
            ? undefined
            : coerce('Long');
        case 'float':
          return typeof value === 'number' || typeof value === 'bigint' ? undefined : coerce('Float');
        case 'double':
          return typeof value === 'number' || typeof value === 'bigint' ? undefined : coerce('Double');
        case 'string':
          return typeof value === 'string' ? undefined : coerce('String');
        case 'bytes':
          if (typeof value !== 'string') return coerce('ByteString');
          return LATIN1.test(value)
            ? undefined
            : formatMessage(path, `${JSON.stringify(value)} is not a valid string representation of bytes`);
      }
      return undefined;
    case 'enum':
      if (typeof value !== 'string') return formatMessage(path, 'enum type is not backed by a String');
      return t.symbols.includes(value)
        ? undefined
        : formatMessage(path, `${JSON.stringify(value)} is not an enum symbol`);
    case 'fixed':
      if (typeof value !== 'string' || !LATIN1.test(value)) return coerce('ByteString');
      return value.length === t.size
        ? undefined
        : formatMessage(
            path,
            `${JSON.stringify(value)} length (${value.length}) is inconsistent with expected fixed size of ${t.size}`,
          );
    case 'array': {
      if (!Array.isArray(value)) return formatMessage(path, 'array type is not backed by a DataList');
      const items = value as readonly Json[];
      for (let i = 0; i < items.length; i++) {
        const p = defaultProblem(items[i]!, t.items, [...path, i]);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    case 'map': {
      if (!isJsonObject(value)) return formatMessage(path, 'map type is not backed by a DataMap');
      for (const k of Object.keys(value)) {
        const p = defaultProblem(value[k]!, t.values, [...path, k]);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    case 'record': {
      if (!isJsonObject(value)) return formatMessage(path, 'record type is not backed by a DataMap');
      for (const f of t.fields) {
        const v = value[f.name];
        if (v === undefined) {
          if (!f.hasDefault)
            return formatMessage(
              [...path, f.name],
              'field is required but not found and has no default value',
            );
          continue;
        }
        const p = defaultProblem(v, f.type, [...path, f.name]);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    case 'union': {
      // Avro's rule: null for a union with a null member, else a value of the first member
      if (value === null) {
        return t.members.some(isNull)
          ? undefined
          : formatMessage(path, `null is not a member type of union ${unionText(t)}`);
      }
      const first = t.members[0];
      if (first === undefined)
        return formatMessage(path, `value ${javaJson(value)} is not valid for empty union`);
      return defaultProblem(value, first, path);
    }
  }
}

/** A union as the reference prints it in messages (`[ "int", "string" ]`). */
function unionText(t: AvroType): string {
  const names = (u: AvroType): unknown => (u.kind === 'union' ? u.members.map(names) : memberKey(u));
  return writeAvroJson(plain(names(t)), AvroJsonStyle.SPACES);
}

/** A JSON value the way Java prints the data it parses to (`{a=1, b=[x, y]}`). */
function javaJson(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${(v as readonly Json[]).map(javaJson).join(', ')}]`;
  if (isJsonObject(v))
    return `{${Object.keys(v)
      .map((k) => `${k}=${javaJson(v[k]!)}`)
      .join(', ')}}`;
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'bigint':
    case 'boolean':
      return v.toString();
    default:
      return '';
  }
}
