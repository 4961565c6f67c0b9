/**
 * Translation of our schemas to Avro 1.4.1 schema JSON, following the reference translator
 * (restli-wire-facts §8.2–8.3): aliased unions become records (first pass), defaults are translated (second
 * pass), then the Avro JSON is written:
 *
 * - typerefs are dereferenced, their properties merged onto the fields that use them;
 * - includes are flattened (included fields first, no `include` key);
 * - an optional field becomes a union with `null`, its default's type first (see {@link OptionalDefaultMode});
 * - a union field's default drops its member key and must be of the first member;
 * - custom properties are kept (sorted by name, as the reference writes them), reserved ones are not;
 * - a named schema is written in full the first time and by name afterwards;
 * - a record with an `avro` property (`{"schema": {...}, "translator": {"class": ...}}`) is written as the
 *   given Avro schema the first time and by its full name afterwards.
 */
import type { DataValue } from '../../data';
import type { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import type { EnumDataSchema } from '../enum-schema';
import type { FixedDataSchema } from '../fixed-schema';
import type { MapDataSchema } from '../map-schema';
import type { NamedDataSchema } from '../named-schema';
import { NullDataSchema } from '../primitive-schemas';
import type { RecordDataSchema, RecordField } from '../record-schema';
import { schemaToJson } from '../schema-to-json';
import { isValidNamespace } from '../schema-names';
import type { UnionDataSchema } from '../union-schema';
import { DataMap } from '../../data';
import { parseJsonExact } from '../../data/codecs/json-exact-parser';
import {
  DefaultFieldTranslationMode,
  EmbedSchemaMode,
  OptionalDefaultMode,
  resolveDataToAvroOptions,
  type DataToAvroSchemaTranslationOptions,
} from './avro-options';
import { compareKeys, data, obj, plain, writeAvroJson, type JsonOut } from './avro-json-writer';
import { translateRecordDefaults } from './default-to-avro';
import { formatMessage, javaString, SchemaTranslationError } from './errors';
import {
  AVRO_PREFIX,
  AVRO_PROPERTY,
  DATA_PROPERTY,
  namedProperties,
  OPTIONAL_DEFAULT_MODE_PROPERTY,
  RESERVED_PROPERTIES,
  SCHEMA_PROPERTY,
  ToAvroState,
  traverse,
} from './to-avro-state';
import { convertAliasedUnionFields } from './union-to-record';

/**
 * The Avro schema JSON for `schema`.
 *
 * @example
 * ```ts
 * const schema = parseSchema('{"type":"record","name":"Foo","namespace":"com.ex","fields":[{"name":"opt","type":"string","optional":true}]}');
 * dataToAvroSchemaJson(schema);
 * // {"type":"record","name":"Foo","namespace":"com.ex","fields":[{"name":"opt","type":["null","string"],"default":null}]}
 * ```
 * @throws SchemaTranslationError `SVC_ERR_AVRO_SCHEMA_TRANSLATION` when a default cannot be expressed in Avro
 *   (a union default not of the first member...) or a union with aliases sits where no record can replace it.
 * @throws AvroOptionsError for an unknown option value.
 * @see avroToDataSchema
 */
export function dataToAvroSchemaJson(
  schema: DataSchema,
  options?: DataToAvroSchemaTranslationOptions,
): string {
  const state = new ToAvroState(resolveDataToAvroOptions(options));
  traverse(
    state,
    schema,
    (path, record) => convertAliasedUnionFields(state, path, record),
    (path, record) => translateRecordDefaults(state, path, record),
  );
  return writeAvroJson(new Encoder(state, schema).encode(schema, []), state.options.style);
}

type Entries = [string, JsonOut][];

/** The reference's `SchemaToAvroJsonEncoder` over our schema and the overrides of the two passes. */
class Encoder {
  private readonly encountered = new Set<string>();
  private currentNamespace = '';
  private currentPackage = '';
  private readonly overrideUses = new Map<RecordDataSchema, number>();

  constructor(
    private readonly state: ToAvroState,
    private readonly root: DataSchema,
  ) {}

  /** `path` names where we are, for messages (schema names and field names). */
  encode(schema: DataSchema, path: readonly string[]): JsonOut {
    if (schema.getType() === DataSchemaType.TYPEREF)
      path = [...path, (schema as NamedDataSchema).getFullName()];
    const s = schema.getDereferencedSchema();
    if (s.getType() === DataSchemaType.RECORD && (s as RecordDataSchema).getProperties().has(AVRO_PROPERTY)) {
      return this.avroOverride(s as RecordDataSchema, path);
    }
    if (s.isPrimitive()) return s.getUnionMemberKey();
    switch (s.getType()) {
      case DataSchemaType.ARRAY: {
        const a = s as ArrayDataSchema;
        return obj([['type', 'array'], ['items', this.encode(a.getItems(), path)], ...this.properties(a)]);
      }
      case DataSchemaType.MAP: {
        const m = s as MapDataSchema;
        return obj([['type', 'map'], ['values', this.encode(m.getValues(), path)], ...this.properties(m)]);
      }
      case DataSchemaType.UNION: {
        const u = s as UnionDataSchema;
        if (u.areMembersAliased()) {
          throw new SchemaTranslationError(
            'SVC_ERR_AVRO_SCHEMA_TRANSLATION',
            formatMessage(
              path,
              "cannot translate a union with aliases that is not the type of a record field (or the item or value type of a field's array or map)",
            ),
          );
        }
        return u.getMembers().map((m) => this.encode(m.getType(), path));
      }
      default:
        return this.named(s as NamedDataSchema, path);
    }
  }

  private named(schema: NamedDataSchema, path: readonly string[]): JsonOut {
    const fullName = schema.getFullName();
    if (this.encountered.has(fullName)) return this.nameReference(schema);
    this.encountered.add(fullName);
    const saveNamespace = this.currentNamespace;
    const savePackage = this.currentPackage;
    const here = [...path, fullName];

    const entries: Entries = [['type', schema.getType().toLowerCase()]];
    const namespace = this.namespaceOf(schema);
    entries.push(['name', schema.getName()]);
    if (namespace !== this.currentNamespace) entries.push(['namespace', namespace]);
    this.currentNamespace = namespace;
    const pkg = schema.getPackage();
    if (pkg !== undefined && pkg !== this.currentPackage) {
      entries.push(['package', pkg]);
      this.currentPackage = pkg;
    }
    if (schema.getDoc() !== '') entries.push(['doc', schema.getDoc()]);
    switch (schema.getType()) {
      case DataSchemaType.ENUM: {
        const e = schema as EnumDataSchema;
        entries.push(['symbols', [...e.getSymbols()]]);
        if (e.getSymbolDocs().size > 0) {
          const docs = [...e.getSymbolDocs()].sort(([a], [b]) => compareKeys(a, b));
          entries.push(['symbolDocs', obj(docs)]);
        }
        break;
      }
      case DataSchemaType.FIXED:
        entries.push(['size', (schema as FixedDataSchema).getSize()]);
        break;
      default: {
        const r = schema as RecordDataSchema;
        entries.push(['fields', r.getFields().map((f) => this.field(f, here))]);
      }
    }
    entries.push(...this.properties(schema));
    if (schema.getAliases().length > 0) entries.push(['aliases', [...schema.getAliases()]]);

    this.currentNamespace = saveNamespace;
    this.currentPackage = savePackage;
    return obj(entries);
  }

  private namespaceOf(schema: NamedDataSchema): string {
    const ns = schema.getNamespace();
    if (!this.state.options.overrideNamespace) return ns;
    return ns === '' ? AVRO_PREFIX : `${AVRO_PREFIX}.${ns}`;
  }

  private nameReference(schema: NamedDataSchema): string {
    if (this.currentNamespace === schema.getNamespace()) return schema.getName();
    const ns = this.namespaceOf(schema);
    return ns === '' ? schema.getName() : `${ns}.${schema.getName()}`;
  }

  /** The properties of a record, enum, fixed, array or map; the root carries the embedded schema when asked. */
  private properties(schema: DataSchema): Entries {
    const named = 'getFullName' in schema;
    const props: [string, DataValue][] = named
      ? namedProperties(schema as NamedDataSchema)
      : [...schema.getProperties()];
    props.sort(([a], [b]) => compareKeys(a, b));
    if (
      this.state.options.embedSchemaMode === EmbedSchemaMode.ROOT_ONLY &&
      schema === this.root.getDereferencedSchema()
    ) {
      return this.embedded(props);
    }
    return props.map(([k, v]) => [k, data(v, true)]);
  }

  /** The properties with `com.linkedin.data` holding the original schema, the mode and the map's other keys. */
  private embedded(props: [string, DataValue][]): Entries {
    const out: Entries = [];
    let existing: DataValue | undefined;
    for (const [k, v] of props) {
      if (k === DATA_PROPERTY) existing = v;
      else out.push([k, data(v, true)]);
    }
    const inner: Entries = [
      [SCHEMA_PROPERTY, plain(parseJsonExact(schemaToJson(this.root.getDereferencedSchema())))],
      [OPTIONAL_DEFAULT_MODE_PROPERTY, this.state.options.optionalDefaultMode],
    ];
    if (existing instanceof DataMap) {
      for (const [k, v] of existing) if (!RESERVED_PROPERTIES.has(k)) inner.push([k, data(v, true)]);
    }
    out.push([DATA_PROPERTY, obj(inner)]);
    return out;
  }

  private field(field: RecordField, path: readonly string[]): JsonOut {
    const here = [...path, field.getName()];
    const entries: Entries = [
      ['name', field.getName()],
      ['type', this.fieldType(field, here)],
    ];
    if (field.getDoc() !== '') entries.push(['doc', field.getDoc()]);
    const dflt = this.state.defaultOverrides.get(field);
    if (dflt !== undefined) entries.push(['default', dflt.value]);
    else if (this.state.isTranslatedUnionMember(field)) entries.push(['default', null]);
    if (field.getOrder() !== 'ascending') entries.push(['order', field.getOrder()]);
    for (const [k, v] of this.state.fieldProperties(field)) entries.push([k, data(v, true)]);
    if (field.getAliases().length > 0) entries.push(['aliases', [...field.getAliases()]]);
    return obj(entries);
  }

  /**
   * A field's Avro type: its type, or for an optional field (and, under DO_NOT_TRANSLATE, a field with a
   * default) and for a union field, an Avro union whose first member is the type of the default.
   */
  private fieldType(field: RecordField, path: readonly string[]): JsonOut {
    const state = this.state;
    const options = state.options;
    const type = state.typeOf(field);
    const deref = type.getDereferencedSchema();
    const union = deref.getType() === DataSchemaType.UNION ? (deref as UnionDataSchema) : undefined;
    const dflt = state.defaultOf(field);
    const translate = options.defaultFieldTranslationMode === DefaultFieldTranslationMode.TRANSLATE;
    const optional = field.getOptional() || (dflt !== undefined && !translate);
    if (!optional && union === undefined) return this.encode(type, path);

    let addNull: boolean;
    let first: DataSchema | undefined;
    let members: DataSchema[];
    if (optional) {
      if (union === undefined) {
        addNull = true;
        members = [type];
        const keepDefault =
          dflt !== undefined &&
          translate &&
          (state.isTranslatedUnionMember(field) ||
            options.optionalDefaultMode === OptionalDefaultMode.TRANSLATE_DEFAULT);
        first = keepDefault ? type : NullDataSchema.INSTANCE;
      } else {
        addNull = !union.contains('null');
        members = union.getMembers().map((m) => m.getType());
        const keepDefault =
          dflt !== undefined &&
          translate &&
          options.optionalDefaultMode === OptionalDefaultMode.TRANSLATE_DEFAULT;
        first = keepDefault ? this.defaultMemberType(union, dflt, path) : NullDataSchema.INSTANCE;
      }
    } else {
      addNull = false;
      members = union!.getMembers().map((m) => m.getType());
      first = dflt === undefined ? undefined : this.defaultMemberType(union!, dflt, path);
    }

    const out: JsonOut[] = [];
    let emittedNull = false;
    if (first !== undefined) {
      emittedNull = first.getDereferencedType() === DataSchemaType.NULL;
      out.push(this.encode(first, path));
    }
    for (const m of members) {
      if (m === first) continue;
      if (m.getDereferencedType() === DataSchemaType.NULL) {
        if (emittedNull) continue;
        emittedNull = true;
      }
      out.push(this.encode(m, path));
    }
    if (addNull && !emittedNull) out.push('null');
    return out;
  }

  /** The member type a union default is of (null for Data.NULL). */
  private defaultMemberType(union: UnionDataSchema, value: DataValue, path: readonly string[]): DataSchema {
    if (!(value instanceof DataMap)) return NullDataSchema.INSTANCE;
    const key = [...value.keys()][0];
    const type = key === undefined ? undefined : union.getTypeByMemberKey(key);
    if (type === undefined) {
      throw new SchemaTranslationError(
        'SVC_ERR_AVRO_SCHEMA_TRANSLATION',
        formatMessage(path, `union value ${javaString(value)} has invalid member key ${String(key)}`),
      );
    }
    return type;
  }

  /** The explicit Avro schema of a record with an `avro` property: in full the first time, by name afterwards. */
  private avroOverride(record: RecordDataSchema, path: readonly string[]): JsonOut {
    const override = checkAvroOverride(record, [...path, record.getFullName()]);
    const uses = (this.overrideUses.get(record) ?? 0) + 1;
    this.overrideUses.set(record, uses);
    return uses === 1 ? data(override.schema) : override.fullName;
  }
}

interface AvroOverride {
  readonly fullName: string;
  readonly schema: DataMap;
}

/**
 * Checks an `avro` property (the reference's `AvroOverrideFactory`): a map with a `schema` map that has a
 * string `name` (and a valid `namespace`, if any) and a `translator` map with a string `class`, both present,
 * on a record only.
 */
function checkAvroOverride(record: RecordDataSchema, path: readonly string[]): AvroOverride {
  const problems: string[] = [];
  const avro = record.getProperties().get(AVRO_PROPERTY);
  let fullName: string | undefined;
  let schema: DataMap | undefined;
  let translatorClass: string | undefined;
  if (!(avro instanceof DataMap)) {
    problems.push(`${record.getFullName()} has "avro" property whose value is not a JSON object`);
  } else {
    const s = avro.get('schema');
    const t = avro.get('translator');
    if (s !== undefined) {
      if (!(s instanceof DataMap))
        problems.push(`"schema" property is not a JSON object, value is ${javaString(s)}`);
      else {
        const name = s.get('name');
        const namespace = s.get('namespace');
        if (name === undefined) problems.push('"name" property of "schema" property is required');
        else if (typeof name !== 'string')
          problems.push(`"name" property of "schema" property is not a string, value is ${javaString(name)}`);
        else if (namespace !== undefined && typeof namespace !== 'string')
          problems.push(
            `"namespace" property of "schema" property is not a string, value is ${javaString(namespace)}`,
          );
        else if (typeof namespace === 'string' && !isValidNamespace(namespace))
          problems.push(`${namespace} is not a valid namespace`);
        else {
          schema = s;
          fullName = namespace === undefined ? name : `${String(namespace)}.${name}`;
        }
      }
    }
    if (t !== undefined) {
      const cls = t instanceof DataMap ? t.get('class') : undefined;
      if (!(t instanceof DataMap))
        problems.push(`"translator" property is not a JSON object, value is ${javaString(t)}`);
      else if (cls === undefined) problems.push('"class" property of "translator" property is required');
      else if (typeof cls !== 'string')
        problems.push(
          `"class" property of "translator" property is not a string, value is ${javaString(cls)}`,
        );
      else translatorClass = cls;
    }
    if (problems.length === 0 && (schema === undefined || translatorClass === undefined)) {
      problems.push('both "translator" and "schema" properties of "avro" are required if either is present');
    }
  }
  if (problems.length > 0 || schema === undefined || fullName === undefined) {
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_SCHEMA_TRANSLATION',
      formatMessage(path, problems.join(', ')),
    );
  }
  return { fullName, schema };
}
