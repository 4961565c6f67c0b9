import type { ArrayDataSchema } from '../schema/array-schema';
import type { DataSchema } from '../schema/data-schema';
import type { EnumDataSchema } from '../schema/enum-schema';
import type { FixedDataSchema } from '../schema/fixed-schema';
import type { MapDataSchema } from '../schema/map-schema';
import type { Deprecation, NamedDataSchema } from '../schema/named-schema';
import type { RecordDataSchema, RecordField } from '../schema/record-schema';
import type { TyperefDataSchema } from '../schema/typeref-schema';
import type { UnionDataSchema } from '../schema/union-schema';
import { dataToJson } from '../schema/value-text';
import type { JsonSchema, JsonValue } from './openapi-model';

/**
 * Pegasus schemas → JSON Schema 2020-12, the dialect of OpenAPI 3.1, describing the JSON a Svc (or Rest.li)
 * service reads and writes:
 *
 * - a record is an object; a field is required when it is neither optional nor defaulted (a defaulted field
 *   may be left out of a request: the server fills it in), its default and doc are kept;
 * - a union is Rest.li's member-key form `{"<member key>": value}`: one `oneOf` branch per member, each an
 *   object with exactly that one property (the alias of an aliased member, else the type's member key: the
 *   full name of a named type, the name of a primitive, `array`/`map`); the `null` member is JSON `null`;
 * - bytes and fixed travel as strings of code points U+0000-U+00FF, one per byte (Rest.li's "Avro string");
 *   a fixed has exactly its size of them;
 * - int is `integer`/`int32`, long `integer`/`int64` (the wire has them exact; a reader must keep 64 bits),
 *   float and double `number`;
 * - a typeref is a schema of its own (its name in the components) that is its referenced type, with its doc;
 * - deprecations are `deprecated: true`, the reason in the description.
 *
 * Named schemas are referenced (`$ref` to `#/components/schemas/<full name>`), so recursive schemas are fine.
 */

/** Where named schemas live in the document. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** The `$ref` of a named schema (by full name). */
export function schemaRef(fullName: string): JsonSchema {
  return { $ref: `${SCHEMA_REF_PREFIX}${fullName}` };
}

/** What the JSON of bytes and fixed values looks like: one code point U+0000-U+00FF per byte. */
const AVRO_STRING_PATTERN = '^[\\u0000-\\u00ff]*$';

const PRIMITIVES: Readonly<Record<string, JsonSchema>> = {
  null: { type: 'null' },
  boolean: { type: 'boolean' },
  int: { type: 'integer', format: 'int32' },
  long: { type: 'integer', format: 'int64' },
  float: { type: 'number', format: 'float' },
  double: { type: 'number', format: 'double' },
  string: { type: 'string' },
  bytes: {
    type: 'string',
    pattern: AVRO_STRING_PATTERN,
    description: 'Bytes as a string of code points U+0000-U+00FF, one per byte.',
  },
};

/** The JSON Schema of a Pegasus primitive type name, or undefined when it names none. */
export function primitiveJsonSchema(name: string): JsonSchema | undefined {
  const p = PRIMITIVES[name];
  return p === undefined ? undefined : { ...p };
}

function withDoc(schema: JsonSchema, doc: string | undefined, deprecated?: Deprecation): JsonSchema {
  const out: Record<string, JsonValue> = { ...schema };
  const parts: string[] = [];
  // a one-line PDL doc comment keeps its spaces (`/** x */` is " x "): not worth showing
  if (doc !== undefined && doc.trim() !== '') parts.push(doc.trim());
  if (deprecated !== undefined && deprecated !== false) {
    out.deprecated = true;
    parts.push(
      typeof deprecated === 'string' && deprecated !== '' ? `Deprecated: ${deprecated}` : 'Deprecated.',
    );
  }
  if (parts.length > 0) out.description = parts.join('\n\n');
  return out;
}

/** A default value as JSON (a long beyond 2^53 loses digits here: JSON Schema has only JSON numbers). */
function defaultJson(field: RecordField): JsonValue | undefined {
  const value = field.getDefault();
  if (value === undefined) return undefined;
  return JSON.parse(dataToJson(value)) as JsonValue;
}

/**
 * The JSON Schema of `schema`: named schemas by reference, everything else inline. Every named schema
 * referenced is collected in {@link referenced}, for the components.
 */
export class JsonSchemaTranslator {
  /** Named schemas referenced so far, by full name. */
  readonly referenced = new Map<string, NamedDataSchema>();

  /** The schema of a use of `schema` (a field type, an item type, a parameter). */
  use(schema: DataSchema): JsonSchema {
    if (schema.isPrimitive()) return primitiveJsonSchema(schema.getUnionMemberKey()) ?? {};
    switch (schema.getType()) {
      case 'ARRAY':
        return { type: 'array', items: this.use((schema as ArrayDataSchema).getItems()) };
      case 'MAP':
        return {
          type: 'object',
          description: 'A map: keys are strings.',
          additionalProperties: this.use((schema as MapDataSchema).getValues()),
        };
      case 'UNION':
        return this.union(schema as UnionDataSchema);
      default: {
        const named = schema as NamedDataSchema;
        this.referenced.set(named.getFullName(), named);
        return schemaRef(named.getFullName());
      }
    }
  }

  /** The component schema of a named schema (its own definition). */
  named(schema: NamedDataSchema): JsonSchema {
    const title = schema.getName();
    let body: JsonSchema;
    switch (schema.getType()) {
      case 'RECORD':
        body = this.record(schema as RecordDataSchema);
        break;
      case 'ENUM':
        body = enumSchema(schema as EnumDataSchema);
        break;
      case 'FIXED': {
        const size = (schema as FixedDataSchema).getSize();
        body = {
          type: 'string',
          minLength: size,
          maxLength: size,
          pattern: AVRO_STRING_PATTERN,
          'x-restli-fixed-size': size,
        };
        break;
      }
      case 'TYPEREF': {
        const ref = (schema as TyperefDataSchema).getRef();
        // a typeref to a named type refers to it; to anything else, is it (the typeref's doc on top)
        body = { ...this.use(ref), 'x-restli-typeref': ref.isPrimitive() ? ref.getUnionMemberKey() : true };
        break;
      }
      default:
        body = {};
    }
    const doc = schema.getDoc();
    const described = withDoc(
      { title, ...body },
      schema.getType() === 'FIXED'
        ? [doc, `${(schema as FixedDataSchema).getSize()} bytes, as a string of code points U+0000-U+00FF.`]
            .filter((d) => d !== '')
            .join('\n\n')
        : doc,
      schema.getDeprecated(),
    );
    return { ...described, 'x-restli-name': schema.getFullName() };
  }

  private record(schema: RecordDataSchema): JsonSchema {
    const properties: Record<string, JsonValue> = {};
    const required: string[] = [];
    for (const field of schema.getFields()) {
      let prop = this.use(field.getType());
      const def = defaultJson(field);
      // $ref with siblings is fine in 2020-12
      if (def !== undefined) prop = { ...prop, default: def };
      prop = withDoc(prop, field.getDoc(), field.getDeprecated());
      properties[field.getName()] = prop;
      if (!field.getOptional() && def === undefined) required.push(field.getName());
    }
    return {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(schema.isErrorRecord() ? { 'x-restli-error': true } : {}),
    };
  }

  private union(schema: UnionDataSchema): JsonSchema {
    const oneOf: JsonValue[] = schema.getMembers().map((m) => {
      const type = m.getType();
      if (!m.hasAlias() && type.getType() === 'NULL') return { type: 'null' };
      const key = m.getUnionMemberKey();
      return withDoc(
        {
          type: 'object',
          title: key,
          properties: { [key]: this.use(type) },
          required: [key],
          additionalProperties: false,
        },
        m.getDoc(),
      );
    });
    return { oneOf, 'x-restli-union': schema.getMembers().some((m) => m.hasAlias()) ? 'aliased' : true };
  }
}

function enumSchema(schema: EnumDataSchema): JsonSchema {
  const symbols = [...schema.getSymbols()];
  const docs = schema.getSymbolDocs();
  const deprecated = schema.getDeprecatedSymbols();
  return {
    type: 'string',
    enum: symbols,
    ...(docs.size > 0 ? { 'x-enum-descriptions': symbols.map((s) => docs.get(s) ?? '') } : {}),
    ...(deprecated.size > 0
      ? {
          'x-deprecated-symbols': Object.fromEntries(
            [...deprecated].map(([s, d]) => [s, typeof d === 'string' ? d : true]),
          ),
        }
      : {}),
  };
}

/**
 * The JSON Schema of a type as the IDL writes it (`ParameterSchema.type`, `ActionSchema.returns`): a
 * primitive name, a named schema's full name (looked up in `named`), or one-line schema JSON of an unnamed
 * type (`{ "type" : "array", "items" : "com.example.Photo" }`, a union as a JSON array).
 */
export function idlTypeSchema(
  type: string,
  translator: JsonSchemaTranslator,
  named: ReadonlyMap<string, NamedDataSchema>,
): JsonSchema {
  const trimmed = type.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('['))
    return jsonTypeSchema(JSON.parse(trimmed), translator, named);
  return jsonTypeSchema(trimmed, translator, named);
}

function jsonTypeSchema(
  node: unknown,
  translator: JsonSchemaTranslator,
  named: ReadonlyMap<string, NamedDataSchema>,
): JsonSchema {
  if (typeof node === 'string') {
    const primitive = primitiveJsonSchema(node);
    if (primitive !== undefined) return primitive;
    const schema = named.get(node);
    if (schema !== undefined) return translator.use(schema);
    // a name the export did not list (cannot happen for an export of ours): a reference all the same
    return schemaRef(node);
  }
  if (Array.isArray(node)) {
    return {
      oneOf: node.map((m: unknown): JsonSchema => {
        const alias = typeof m === 'object' && m !== null && 'alias' in m ? m.alias : undefined;
        const type = alias === undefined ? m : (m as { type: unknown }).type;
        if (type === 'null' && alias === undefined) return { type: 'null' };
        const key = typeof alias === 'string' ? alias : memberKeyOf(type);
        return {
          type: 'object',
          title: key,
          properties: { [key]: jsonTypeSchema(type, translator, named) },
          required: [key],
          additionalProperties: false,
        };
      }),
    };
  }
  if (typeof node === 'object' && node !== null) {
    const o = node as { type?: unknown; items?: unknown; values?: unknown };
    if (o.type === 'array') return { type: 'array', items: jsonTypeSchema(o.items, translator, named) };
    if (o.type === 'map')
      return { type: 'object', additionalProperties: jsonTypeSchema(o.values, translator, named) };
    if (typeof o.type === 'string') return jsonTypeSchema(o.type, translator, named);
  }
  return {};
}

function memberKeyOf(type: unknown): string {
  if (typeof type === 'string') return type;
  if (typeof type === 'object' && type !== null) {
    const t = (type as { type?: unknown; name?: unknown; namespace?: unknown }).type;
    if (t === 'array' || t === 'map') return t;
    const name = (type as { name?: unknown }).name;
    const ns = (type as { namespace?: unknown }).namespace;
    if (typeof name === 'string') return typeof ns === 'string' && ns !== '' ? `${ns}.${name}` : name;
  }
  return String(type);
}
