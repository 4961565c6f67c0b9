/**
 * The type of a schema, as {@link DataSchema.getType} reports it. Typerefs report `TYPEREF`; their
 * {@link DataSchema.getDereferencedType} is the type of the schema they refer to. Records and errors are both
 * `RECORD` (see `RecordDataSchema.getRecordType`).
 */
export const DataSchemaType = {
  BOOLEAN: 'BOOLEAN',
  INT: 'INT',
  LONG: 'LONG',
  FLOAT: 'FLOAT',
  DOUBLE: 'DOUBLE',
  BYTES: 'BYTES',
  STRING: 'STRING',
  NULL: 'NULL',
  FIXED: 'FIXED',
  ENUM: 'ENUM',
  ARRAY: 'ARRAY',
  RECORD: 'RECORD',
  MAP: 'MAP',
  UNION: 'UNION',
  TYPEREF: 'TYPEREF',
} as const;

export type DataSchemaType = (typeof DataSchemaType)[keyof typeof DataSchemaType];
