/**
 * First pass of the translation to Avro (the reference's `PegasusUnionToAvroRecordConvertCallback`): a union
 * whose members have aliases cannot be an Avro union (Avro unions hold one member per type), so a field whose
 * type is such a union, or an array or map (at any depth) of one, gets a record instead:
 *
 * - named `<ParentRecordFullName><FieldName with its first letter upper-cased>`;
 * - one optional field per non-null member, named by its alias, with the member's doc and properties;
 * - a required `fieldDiscriminator` field of enum type `<RecordName>Discriminator` whose symbols are every
 *   member key (`null` included), with the doc `Contains the name of the field that has its value set.`;
 * - the union's properties.
 *
 * A default of the union field becomes the record's value (`{"a": 1}` → `{"a": 1, "fieldDiscriminator": "a"}`),
 * for a required field, or for an optional one under TRANSLATE_DEFAULT; defaults of array and map fields of
 * such unions are dropped (their items could use different members, so no member field could be first).
 */
import { Data, DataMap, type DataValue } from '../../data';
import { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import { EnumDataSchema } from '../enum-schema';
import { MapDataSchema } from '../map-schema';
import { RecordDataSchema, RecordField } from '../record-schema';
import type { UnionDataSchema } from '../union-schema';
import { OptionalDefaultMode } from './avro-options';
import { formatMessage, javaString, SchemaTranslationError } from './errors';
import {
  AVRO_PROPERTY,
  DISCRIMINATOR_DOC,
  DISCRIMINATOR_FIELD,
  DISCRIMINATOR_SUFFIX,
  TRANSLATED_UNION_MEMBER_PROPERTY,
  type ToAvroState,
  type TraversePath,
} from './to-avro-state';

/** Replaces, through overrides, the aliased-union fields of `record`. */
export function convertAliasedUnionFields(
  state: ToAvroState,
  path: TraversePath,
  record: RecordDataSchema,
): void {
  // A record with an explicit Avro override is written as that override; its fields are never translated.
  if (record.getProperties().has(AVRO_PROPERTY)) return;
  for (const field of record.getFields()) {
    if (state.fieldOverrides.has(field)) continue; // an included field already converted under another record
    const properties = state.fieldProperties(field);
    const newDefault = aliasedUnionDefault(state, path, field);
    const newType = convertType(record, field, field.getType().getDereferencedSchema(), newDefault);
    if (newType !== undefined)
      state.fieldOverrides.set(field, { type: newType, default: newDefault, properties });
  }
}

/** The record value for the default of an aliased-union field, or undefined when it has none to keep. */
function aliasedUnionDefault(
  state: ToAvroState,
  path: TraversePath,
  field: RecordField,
): DataMap | undefined {
  const type = field.getType().getDereferencedSchema();
  if (type.getType() !== DataSchemaType.UNION || !(type as UnionDataSchema).areMembersAliased())
    return undefined;
  const propagate =
    !field.getOptional() || state.options.optionalDefaultMode === OptionalDefaultMode.TRANSLATE_DEFAULT;
  const value = field.getDefault();
  if (!propagate || value === undefined) return undefined;
  if (value === Data.NULL) return new DataMap([[DISCRIMINATOR_FIELD, 'null']]);
  if (!(value instanceof DataMap) || value.size !== 1) {
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_SCHEMA_TRANSLATION',
      formatMessage(path, `union default value ${javaString(value)} does not have exactly one entry`),
    );
  }
  const out = new DataMap();
  for (const [k, v] of value) out.put(k, v);
  out.put(DISCRIMINATOR_FIELD, [...value.keys()][0]!);
  return out;
}

function convertType(
  record: RecordDataSchema,
  field: RecordField,
  schema: DataSchema,
  newDefault: DataMap | undefined,
): DataSchema | undefined {
  switch (schema.getType()) {
    case DataSchemaType.ARRAY: {
      const items = convertType(
        record,
        field,
        (schema as ArrayDataSchema).getItems().getDereferencedSchema(),
        undefined,
      );
      return items === undefined ? undefined : new ArrayDataSchema(items);
    }
    case DataSchemaType.MAP: {
      const values = convertType(
        record,
        field,
        (schema as MapDataSchema).getValues().getDereferencedSchema(),
        undefined,
      );
      return values === undefined ? undefined : new MapDataSchema(values);
    }
    case DataSchemaType.UNION: {
      const union = schema as UnionDataSchema;
      return union.areMembersAliased()
        ? unionRecord(union, field.getName(), record.getFullName(), newDefault)
        : undefined;
    }
    default:
      return undefined;
  }
}

function unionRecord(
  union: UnionDataSchema,
  fieldName: string,
  parentFullName: string,
  value: DataMap | undefined,
): RecordDataSchema {
  const fullName = parentFullName + upperFirst(fieldName);
  const fields: RecordField[] = [];
  const keys: string[] = [];
  for (const member of union.getMembers()) {
    const key = member.getUnionMemberKey();
    keys.push(key);
    if (member.getType().getDereferencedType() === DataSchemaType.NULL) continue;
    const properties = new DataMap();
    for (const [k, v] of member.getProperties()) properties.put(k, v);
    properties.put(TRANSLATED_UNION_MEMBER_PROPERTY, true);
    const memberDefault: DataValue | undefined = value?.get(key);
    fields.push(
      new RecordField({
        name: key,
        type: member.getType(),
        optional: true,
        ...(memberDefault === undefined ? {} : { default: memberDefault }),
        doc: member.getDoc(),
        properties,
        declaredInline: member.isDeclaredInline(),
      }),
    );
  }
  fields.push(
    new RecordField({
      name: DISCRIMINATOR_FIELD,
      type: new EnumDataSchema({ name: fullName + DISCRIMINATOR_SUFFIX, symbols: keys }),
      doc: DISCRIMINATOR_DOC,
      declaredInline: true,
    }),
  );
  return new RecordDataSchema({ name: fullName, fields, properties: union.getProperties() });
}

/**
 * Guava's lower-camel to upper-camel conversion as the reference uses it: words start at upper-case letters
 * and each is capitalised, which for an identifier amounts to upper-casing its first letter.
 */
function upperFirst(name: string): string {
  const c = name.charCodeAt(0);
  return c >= 0x61 && c <= 0x7a ? String.fromCharCode(c - 32) + name.slice(1) : name;
}
