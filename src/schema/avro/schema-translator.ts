/**
 * The two entry points of the Avro translation, shaped like the reference's `SchemaTranslator` and
 * `DataTranslator`: schemas both ways, and data between DataMaps and Avro generic records (which needs both
 * schemas).
 *
 * @example
 * ```ts
 * const schema = resolver.resolve('com.example.photos.Photo') as RecordDataSchema;
 * const avroJson = SchemaTranslator.dataToAvroSchemaJson(schema, { style: AvroJsonStyle.INDENTED });
 * const type = avroTypeForSchema(avroJson);
 * const bytes = type.toBuffer(DataTranslator.dataMapToGenericRecord(photo, schema, type));
 * const back = DataTranslator.genericRecordToDataMap(type.fromBuffer(bytes), schema, type); // equals photo
 * SchemaTranslator.avroToDataSchema(avroJson).equals(schema); // true for schemas that round trip
 * ```
 * @see restli-wire-facts §8 for the rules.
 */
import { avroToDataSchema, avroToDataSchemaJson } from './avro-to-data-schema';
import { dataToAvroSchemaJson } from './data-to-avro-schema';
import { dataMapToGenericRecord, genericRecordToDataMap } from './data-translator';

/** Schema translation between our schemas and Avro 1.4.1 schema JSON. */
export const SchemaTranslator = {
  /** Our schema as Avro schema JSON. @see dataToAvroSchemaJson */
  dataToAvroSchemaJson,
  /** Avro schema JSON as our schema. @see avroToDataSchema */
  avroToDataSchema,
  /** Avro schema JSON as the canonical JSON of our schema. @see avroToDataSchemaJson */
  avroToDataSchemaJson,
} as const;

/** Data translation between DataMaps and Avro generic records (avsc's shape, `wrapUnions: true`). */
export const DataTranslator = {
  /** @see dataMapToGenericRecord */
  dataMapToGenericRecord,
  /** @see genericRecordToDataMap */
  genericRecordToDataMap,
} as const;
