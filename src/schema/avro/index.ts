/**
 * Translation to and from Avro 1.4.1: schemas both ways, and data between DataMaps and avsc generic records.
 */
export {
  OptionalDefaultMode,
  DefaultFieldTranslationMode,
  EmbedSchemaMode,
  AvroJsonStyle,
  AvroToDataSchemaTranslationMode,
  type DataToAvroSchemaTranslationOptions,
  type AvroToDataSchemaTranslationOptions,
} from './avro-options';
export { dataToAvroSchemaJson } from './data-to-avro-schema';
export { avroToDataSchema, avroToDataSchemaJson } from './avro-to-data-schema';
export {
  dataMapToGenericRecord,
  genericRecordToDataMap,
  type GenericRecord,
  type AvroSchemaInput,
  type DataMapToGenericRecordOptions,
} from './data-translator';
export { avroTypeForSchema, AVRO_LONG_TYPE } from './avro-types';
export { SchemaTranslator, DataTranslator } from './schema-translator';
export {
  SchemaTranslationError,
  DataTranslationError,
  AvroOptionsError,
  type SchemaTranslationErrorCode,
} from './errors';
