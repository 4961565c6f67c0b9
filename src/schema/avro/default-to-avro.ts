/**
 * Second pass of the translation to Avro (the reference's `DefaultDataToAvroConvertCallback`): the default of
 * every field of every record, in post-order (a record's fields' own records first), becomes its Avro form.
 *
 * - A union value loses its member key (`{"int": 1}` → `1`), and must be of the union's first member, since
 *   Avro takes a union default to be of the first member type; otherwise the translation fails naming the
 *   field (`ERROR :: /com.ex.D/u :: cannot translate union value {string=abc} because its type is not the 1st
 *   member type of the union [ "int", "string" ]`).
 * - An optional field is a union with null in Avro, so its default decides which member goes first: its own
 *   type with the translated default (TRANSLATE_DEFAULT), or null (TRANSLATE_TO_NULL, or no default).
 * - Inside a record value, absent optional fields become `null` or their own default, absent required fields
 *   their default; a present optional field's value must match the member its field puts first.
 * - Under DO_NOT_TRANSLATE every default becomes `null`.
 *
 * Values are produced as JSON trees, numbers formatted for their schema type (doubles as Java prints them).
 */
import { ByteString, Data, DataList, DataMap, type DataValue } from '../../data';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import type { EnumDataSchema } from '../enum-schema';
import type { FixedDataSchema } from '../fixed-schema';
import type { ArrayDataSchema } from '../array-schema';
import type { MapDataSchema } from '../map-schema';
import { NullDataSchema } from '../primitive-schemas';
import type { RecordDataSchema, RecordField } from '../record-schema';
import { schemaToJson } from '../schema-to-json';
import type { UnionDataSchema } from '../union-schema';
import { parseJsonExact } from '../../data/codecs/json-exact-parser';
import { AvroJsonStyle, DefaultFieldTranslationMode, OptionalDefaultMode } from './avro-options';
import {
  javaDoubleText,
  javaFloatText,
  num,
  obj,
  plain,
  writeAvroJson,
  type JsonOut,
} from './avro-json-writer';
import { formatMessage, javaString, SchemaTranslationError } from './errors';
import { AVRO_PROPERTY, NULL_DEFAULT, type ToAvroState, type TraversePath } from './to-avro-state';

type ValuePath = (string | number)[];

/** Translates, into overrides, the defaults of the fields of `record`. */
export function translateRecordDefaults(
  state: ToAvroState,
  path: TraversePath,
  record: RecordDataSchema,
): void {
  if (record.getProperties().has(AVRO_PROPERTY)) return;
  for (const field of record.getFields()) {
    if (state.defaultOverrides.has(field)) continue;
    const value = state.defaultOf(field);
    if (value !== undefined) {
      if (state.options.defaultFieldTranslationMode === DefaultFieldTranslationMode.DO_NOT_TRANSLATE) {
        state.defaultOverrides.set(field, NULL_DEFAULT);
      } else {
        const result = new DefaultTranslator(state).field([...path, field.getName()], value, field);
        state.defaultOverrides.set(field, result);
      }
    } else if (field.getOptional()) {
      state.defaultOverrides.set(field, NULL_DEFAULT);
    }
  }
}

interface Translated {
  readonly value: JsonOut;
  /** True when the value is of the null type (so null goes first in the field's Avro union). */
  readonly isNull: boolean;
}

class DefaultTranslator {
  constructor(private readonly state: ToAvroState) {}

  private fail(path: ValuePath, text: string): never {
    throw new SchemaTranslationError('SVC_ERR_AVRO_SCHEMA_TRANSLATION', formatMessage(path, text));
  }

  field(path: ValuePath, fieldValue: DataValue | undefined, field: RecordField): Translated {
    const state = this.state;
    const toNull = state.options.optionalDefaultMode === OptionalDefaultMode.TRANSLATE_TO_NULL;
    const type = state.typeOf(field);
    let schema: DataSchema = type;
    let value = fieldValue;
    if (field.getOptional()) {
      if (type.getDereferencedType() !== DataSchemaType.UNION) {
        if (value === undefined) {
          const own = state.defaultOf(field);
          if (!toNull && own !== undefined) {
            const t = type.getType();
            // the reference punts on these: a record default would need its own default, and so on
            if (t === DataSchemaType.RECORD || t === DataSchemaType.TYPEREF) {
              this.fail(
                path,
                'cannot translate absent optional field (to have null value) because this field is optional and has a default value',
              );
            }
            return this.field(path, own, field);
          }
          value = Data.NULL;
          schema = NullDataSchema.INSTANCE;
        } else if (toNull && !state.isTranslatedUnionMember(field)) {
          value = Data.NULL;
          schema = NullDataSchema.INSTANCE;
        } else {
          // the field's Avro union puts its own default's type first: a value of the field's type is only
          // possible where that default is not null
          if (
            state.defaultOverrides.get(field)?.isNull === true &&
            type.getDereferencedType() !== DataSchemaType.NULL
          ) {
            this.fail(
              path,
              "cannot translate field because its default value's type is not the same as translated field's first union member's type",
            );
          }
        }
      } else if (value === undefined) {
        const own = state.defaultOf(field);
        // (the reference's test here reads `own != null || own != Data.NULL`, true for every field; a field
        // whose default is null or absent can be null, so only a non-null default is refused)
        if (!toNull && own !== undefined && own !== Data.NULL) {
          this.fail(
            path,
            'cannot translate absent optional field (to have null value) or field with non-null union value because this field is optional and has a non-null default value',
          );
        }
        value = Data.NULL;
        schema = NullDataSchema.INSTANCE;
      } else if (toNull) {
        value = Data.NULL;
        schema = NullDataSchema.INSTANCE;
      }
    } else if (value === undefined) {
      value = state.defaultOf(field);
      if (value === undefined) this.fail(path, 'Cannot translate required field without default.');
    }
    return { value: this.value(path, value, schema), isNull: schema === NullDataSchema.INSTANCE };
  }

  value(path: ValuePath, value: DataValue, schema: DataSchema): JsonOut {
    const s = schema.getDereferencedSchema();
    const type = s.getType();
    const bad = (): never =>
      this.fail(path, `${javaString(value)} is not a valid ${type.toLowerCase()} value`);
    switch (type) {
      case DataSchemaType.NULL:
        if (value !== Data.NULL) this.fail(path, 'value must be null for null schema');
        return null;
      case DataSchemaType.BOOLEAN:
        return typeof value === 'boolean' ? value : bad();
      case DataSchemaType.INT:
      case DataSchemaType.LONG:
        if (typeof value === 'bigint') return value;
        return typeof value === 'number' && Number.isInteger(value) ? value : bad();
      case DataSchemaType.FLOAT:
      case DataSchemaType.DOUBLE: {
        if (typeof value !== 'number' && typeof value !== 'bigint') return bad();
        const n = Number(value);
        // a float default may be NaN or ±Infinity (written "NaN"...), which Avro's JSON cannot hold
        if (!Number.isFinite(n))
          this.fail(path, `${String(n)} cannot be an Avro default: Avro JSON has no NaN or Infinity`);
        return num(type === DataSchemaType.FLOAT ? javaFloatText(n) : javaDoubleText(n));
      }
      case DataSchemaType.STRING:
        return typeof value === 'string' ? value : bad();
      case DataSchemaType.BYTES:
        if (value instanceof ByteString) return value.asAvroString();
        return typeof value === 'string' ? value : bad();
      case DataSchemaType.ENUM: {
        const symbols = (s as EnumDataSchema).getSymbols();
        if (typeof value !== 'string' || !symbols.includes(value)) {
          this.fail(path, `enum value ${javaString(value)} not one of [${symbols.join(', ')}]`);
        }
        return value;
      }
      case DataSchemaType.FIXED: {
        let bytes: ByteString;
        if (value instanceof ByteString) bytes = value;
        else if (typeof value === 'string' && ByteString.isAvroString(value))
          bytes = ByteString.fromAvroString(value);
        else return this.fail(path, `fixed value ${javaString(value)} is not a String or ByteString`);
        const size = (s as FixedDataSchema).getSize();
        if (bytes.length !== size)
          this.fail(path, `ByteString size ${bytes.length} != FixedDataSchema size ${size}`);
        return bytes.asAvroString();
      }
      case DataSchemaType.MAP: {
        if (!(value instanceof DataMap)) return bad();
        const values = (s as MapDataSchema).getValues();
        const entries: [string, JsonOut][] = [];
        for (const [k, v] of value) entries.push([k, this.value([...path, k], v, values)]);
        return obj(entries);
      }
      case DataSchemaType.ARRAY: {
        if (!(value instanceof DataList)) return bad();
        const items = (s as ArrayDataSchema).getItems();
        return value.toArray().map((v, i) => this.value([...path, i], v, items));
      }
      case DataSchemaType.RECORD: {
        if (!(value instanceof DataMap)) return bad();
        const entries: [string, JsonOut][] = [];
        for (const field of (s as RecordDataSchema).getFields()) {
          const name = field.getName();
          entries.push([name, this.field([...path, name], value.get(name), field).value]);
        }
        return obj(entries);
      }
      case DataSchemaType.UNION:
        return this.union(path, value, s as UnionDataSchema);
      default:
        return this.fail(path, `schema type unknown ${type}`);
    }
  }

  private union(path: ValuePath, value: DataValue, union: UnionDataSchema): JsonOut {
    let key: string;
    let member: DataValue;
    if (value === Data.NULL) {
      key = 'null';
      member = Data.NULL;
    } else {
      if (!(value instanceof DataMap) || value.size !== 1) {
        return this.fail(path, `union value ${javaString(value)} has more than one entry`);
      }
      [key, member] = [...value][0]!;
    }
    const memberType = union.getTypeByMemberKey(key);
    if (memberType === undefined) {
      return this.fail(path, `union value ${javaString(value)} has invalid member key ${key}`);
    }
    if (memberType !== union.getMembers()[0]?.getType()) {
      this.fail(
        path,
        `cannot translate union value ${javaString(value)} because its type is not the 1st member type of the union ${spacedSchema(union)}`,
      );
    }
    return this.value([...path, key], member, memberType);
  }
}

/** A schema as the reference prints it in messages: its JSON with spaces (`[ "int", "string" ]`). */
export function spacedSchema(schema: DataSchema): string {
  return writeAvroJson(plain(parseJsonExact(schemaToJson(schema))), AvroJsonStyle.SPACES);
}
