/**
 * The data schema layer: the schema model, the `.pdsc` parser and the resolver.
 */
import { installSchemaLocations } from './schema-locations';
import { installSchemaText } from './schema-text';

// `DataSchema.toString()` is the schema's JSON, and schemas read from generated classes keep their
// locations, wherever the schema layer is loaded whole (the package root among them); the browser entry
// leaves both out of a page (schema-text.ts, schema-locations.ts)
installSchemaText();
installSchemaLocations();
export { installSchemaText } from './schema-text';
export { installSchemaLocations } from './schema-locations';
export { DataSchemaType } from './data-schema-type';
export { DataSchema, type SchemaLocation } from './data-schema';
export { ComplexDataSchema } from './complex-schema';
export {
  PrimitiveDataSchema,
  NullDataSchema,
  BooleanDataSchema,
  IntDataSchema,
  LongDataSchema,
  FloatDataSchema,
  DoubleDataSchema,
  BytesDataSchema,
  StringDataSchema,
  primitiveSchema,
  PRIMITIVE_TYPE_NAMES,
} from './primitive-schemas';
export { NamedDataSchema, type Deprecation, type NamedSchemaInit } from './named-schema';
export {
  RecordDataSchema,
  RecordField,
  RecordType,
  FieldOrder,
  type RecordFieldInit,
  type RecordSchemaInit,
} from './record-schema';
export { EnumDataSchema, type EnumSchemaInit } from './enum-schema';
export { FixedDataSchema, type FixedSchemaInit } from './fixed-schema';
export { ArrayDataSchema } from './array-schema';
export { MapDataSchema } from './map-schema';
export { UnionDataSchema, UnionMember, type UnionMemberInit } from './union-schema';
export { TyperefDataSchema, type JavaBinding, type TyperefSchemaInit } from './typeref-schema';
export { SchemaParseError, formatSchemaProblem, type SchemaProblem } from './schema-parse-error';
export {
  SchemaResolver,
  parseSchema,
  parseSchemaWithWarnings,
  schemaProblems,
  NODE_FILE_SYSTEM,
  type ParseSchemaOptions,
  type ParsedSchema,
  type SchemaFileSystem,
  type SchemaResolverOptions,
} from './schema-resolver';
export { schemaToJson, schemasToJson, type SchemaJsonOptions } from './schema-to-json';
export { checkDefaultValue, type DefaultValueCheck, type DefaultValueProblem } from './default-value-check';
export * from './validation';
export * from './avro';
export { fillInDefaults } from './fill-in-defaults';
export * from './pdl';
export { NestingDepthError, type NestingDepthErrorCode } from './nesting-depth-error';
