/**
 * State of one translation to Avro (internal).
 *
 * The reference translator copies the schema and then mutates the copy: aliased unions become records,
 * defaults are rewritten. Our schemas are immutable, so the same three passes keep their results beside the
 * schema instead: {@link ToAvroState.fieldOverrides} holds the new type, default and properties of a field
 * whose union became a record, {@link ToAvroState.defaultOverrides} the translated default of a field.
 * Fields are keyed by identity, which is also how the reference keys them (a field of an included record is
 * one object shared by every record that includes it).
 */
import { DataMap, type DataValue } from '../../data';
import type { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import type { EnumDataSchema } from '../enum-schema';
import type { MapDataSchema } from '../map-schema';
import { DataSchemaType } from '../data-schema-type';
import { NamedDataSchema } from '../named-schema';
import type { RecordDataSchema, RecordField } from '../record-schema';
import { TyperefDataSchema } from '../typeref-schema';
import type { UnionDataSchema } from '../union-schema';
import type { ResolvedDataToAvroOptions } from './avro-options';
import type { JsonOut } from './avro-json-writer';

/** The property under which an embedded schema travels (`{"schema": ..., "optionalDefaultMode": ...}`). */
export const DATA_PROPERTY = 'com.linkedin.data';
export const SCHEMA_PROPERTY = 'schema';
export const OPTIONAL_DEFAULT_MODE_PROPERTY = 'optionalDefaultMode';
/** Marks the fields of a record made from an aliased union. */
export const TRANSLATED_UNION_MEMBER_PROPERTY = 'translatedUnionMember';
/** The explicit Avro override of a record. */
export const AVRO_PROPERTY = 'avro';
export const AVRO_PREFIX = 'avro';
export const DISCRIMINATOR_FIELD = 'fieldDiscriminator';
export const DISCRIMINATOR_SUFFIX = 'Discriminator';
export const DISCRIMINATOR_DOC = 'Contains the name of the field that has its value set.';

/** Property names never copied to Avro fields (nor kept from an existing `com.linkedin.data` map). */
export const RESERVED_PROPERTIES: ReadonlySet<string> = new Set([
  AVRO_PROPERTY,
  SCHEMA_PROPERTY,
  OPTIONAL_DEFAULT_MODE_PROPERTY,
  TRANSLATED_UNION_MEMBER_PROPERTY,
]);

export interface FieldOverride {
  readonly type: DataSchema;
  readonly default: DataValue | undefined;
  /** Properties as written on the Avro field (already merged with the typeref's and filtered). */
  readonly properties: readonly (readonly [string, DataValue])[];
}

export interface DefaultOverride {
  /** True when the translated default is `null` of the null type (the union's null member goes first). */
  readonly isNull: boolean;
  readonly value: JsonOut;
}

export const NULL_DEFAULT: DefaultOverride = { isNull: true, value: null };

export class ToAvroState {
  readonly fieldOverrides = new Map<RecordField, FieldOverride>();
  readonly defaultOverrides = new Map<RecordField, DefaultOverride>();

  constructor(readonly options: ResolvedDataToAvroOptions) {}

  /** The field's type after the union-to-record pass. */
  typeOf(field: RecordField): DataSchema {
    return this.fieldOverrides.get(field)?.type ?? field.getType();
  }

  /** The field's default after the union-to-record pass. */
  defaultOf(field: RecordField): DataValue | undefined {
    const o = this.fieldOverrides.get(field);
    return o === undefined ? field.getDefault() : o.default;
  }

  isTranslatedUnionMember(field: RecordField): boolean {
    return (
      !this.fieldOverrides.has(field) && field.getProperties().get(TRANSLATED_UNION_MEMBER_PROPERTY) === true
    );
  }

  /**
   * The properties written on the Avro field: the field's own (its `deprecated` included, which the reference
   * keeps as a property), merged with those of the typeref it uses (the field's win; two maps under one key
   * are merged), without reserved names and without the typeref properties the options exclude. Sorted by
   * name, as the reference writes them.
   */
  fieldProperties(field: RecordField): readonly (readonly [string, DataValue])[] {
    const o = this.fieldOverrides.get(field);
    if (o !== undefined) return o.properties;
    const own = withDeprecated(field.getProperties(), field.getDeprecated());
    const type = field.getType();
    const inherited = type instanceof TyperefDataSchema ? typerefProperties(type) : [];
    const exclude = this.options.typerefPropertiesExcludeSet;
    const merged = new Map<string, DataValue>();
    for (const [k, v] of own) merged.set(k, v);
    for (const [k, v] of inherited) {
      if (exclude.has(k)) continue;
      const mine = merged.get(k);
      if (mine === undefined) merged.set(k, v);
      else if (mine instanceof DataMap && v instanceof DataMap) merged.set(k, mergeMaps(mine, v));
    }
    return [...merged]
      .filter(([k]) => !RESERVED_PROPERTIES.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

/** The map `a` with the entries of `b` whose keys it lacks. */
function mergeMaps(a: DataMap, b: DataMap): DataMap {
  const out = new DataMap();
  for (const [k, v] of a) out.put(k, v);
  for (const [k, v] of b) if (!out.has(k)) out.put(k, v);
  return out;
}

/** Properties with `deprecated` added (the reference keeps it among the properties). */
export function withDeprecated(
  properties: DataMap,
  deprecated: string | boolean | undefined,
): [string, DataValue][] {
  const out: [string, DataValue][] = [...properties];
  if (deprecated !== undefined && !properties.has('deprecated')) out.push(['deprecated', deprecated]);
  return out;
}

/** The properties of a named schema as the reference sees them (`deprecated`, enum `deprecatedSymbols` and typeref `java` included). */
export function namedProperties(schema: NamedDataSchema): [string, DataValue][] {
  const out = withDeprecated(schema.getProperties(), schema.getDeprecated());
  const has = (k: string): boolean => out.some(([key]) => key === k);
  if (schema.getType() === DataSchemaType.ENUM) {
    const deprecatedSymbols = (schema as EnumDataSchema).getDeprecatedSymbols();
    if (deprecatedSymbols.size > 0 && !has('deprecatedSymbols'))
      out.push(['deprecatedSymbols', new DataMap([...deprecatedSymbols])]);
  }
  if (schema instanceof TyperefDataSchema) {
    const java = schema.getJavaBinding();
    if (java !== undefined && !has('java')) {
      const m = new DataMap();
      if (java.className !== undefined) m.put('class', java.className);
      if (java.coercerClass !== undefined) m.put('coercerClass', java.coercerClass);
      out.push(['java', m]);
    }
  }
  return out;
}

/**
 * A typeref's properties merged down its chain of typerefs (the outer typeref's win); a primitive at the end
 * adds nothing (primitives have no properties).
 */
function typerefProperties(typeref: TyperefDataSchema): [string, DataValue][] {
  const out = namedProperties(typeref);
  const ref = typeref.getRef();
  if (ref instanceof TyperefDataSchema) {
    const seen = new Set(out.map(([k]) => k));
    for (const entry of typerefProperties(ref)) if (!seen.has(entry[0])) out.push(entry);
  }
  return out;
}

export type TraversePath = string[];

/**
 * Visits every schema reachable from `root` once (the reference's `DataSchemaTraverse`): records by their
 * fields (with the types the first pass gave them), typerefs, arrays, maps and union members. The path names
 * named schemas by full name, other schemas by member key, and the fields, typeref `ref`, array `items`
 * and map `values` on the way; it is the path the reference prints in its messages.
 */
export function traverse(
  state: ToAvroState,
  root: DataSchema,
  pre: (path: TraversePath, record: RecordDataSchema) => void,
  post: (path: TraversePath, record: RecordDataSchema) => void,
): void {
  const seen = new Set<DataSchema>([root]);
  const path: TraversePath = [];
  const child = (key: string, schema: DataSchema): void => {
    if (seen.has(schema)) return;
    seen.add(schema);
    path.push(key);
    visit(schema);
    path.pop();
  };
  const visit = (schema: DataSchema): void => {
    path.push(schema instanceof NamedDataSchema ? schema.getFullName() : schema.getUnionMemberKey());
    const type = schema.getType();
    if (type === DataSchemaType.RECORD) pre(path, schema as RecordDataSchema);
    switch (type) {
      case DataSchemaType.TYPEREF:
        child('ref', (schema as TyperefDataSchema).getRef());
        break;
      case DataSchemaType.MAP:
        child('values', (schema as MapDataSchema).getValues());
        break;
      case DataSchemaType.ARRAY:
        child('items', (schema as ArrayDataSchema).getItems());
        break;
      case DataSchemaType.RECORD:
        for (const field of (schema as RecordDataSchema).getFields())
          child(field.getName(), state.typeOf(field));
        break;
      case DataSchemaType.UNION:
        for (const member of (schema as UnionDataSchema).getMembers())
          child(member.getUnionMemberKey(), member.getType());
        break;
      default:
        break;
    }
    if (type === DataSchemaType.RECORD) post(path, schema as RecordDataSchema);
    path.pop();
  };
  visit(root);
}
