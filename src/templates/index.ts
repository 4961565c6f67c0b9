/**
 * The typed binding's runtime: the base classes generated code extends and the helpers its one-line
 * accessors delegate to (brief, "Language binding and code generation"; src/codegen generates the classes).
 */
import './custom-types/epoch-millis-date';

export { GetMode } from './get-mode';
export { SetMode } from './set-mode';
export {
  TemplateOutputCastException,
  RequiredFieldNotPresentException,
  IllegalArgumentException,
  NullValueException,
  NullUnionUnsupportedOperationException,
  TemplateSchemaException,
  MissingCoercerException,
} from './errors';
export { SchemaRegistry, SchemaRef, SCHEMA_REGISTRY, registerSchema } from './schema-registry';
export {
  Coercers,
  INT_COERCER,
  LONG_COERCER,
  FLOAT_COERCER,
  DOUBLE_COERCER,
  BOOLEAN_COERCER,
  STRING_COERCER,
  BYTES_COERCER,
  enumCoercer,
  recordCoercer,
  unionCoercer,
  arrayCoercer,
  mapCoercer,
  fixedCoercer,
  customCoercer,
  registerCoercer,
  getCoercer,
  type Coercer,
  type DirectCoercer,
  type CustomClass,
} from './coercers';
export { RecordTemplate, FieldDef, fieldDef, type RecordLike } from './record-template';
export { ErrorTemplate } from './error-template';
export { UnionTemplate, MemberDef, memberDef } from './union-template';
export { FixedTemplate } from './fixed-template';
export { ArrayTemplate, DirectArrayTemplate, WrappingArrayTemplate, type ArrayInit } from './array-template';
export { MapTemplate, DirectMapTemplate, WrappingMapTemplate, type MapInit } from './map-template';
export {
  IntegerArray,
  LongArray,
  FloatArray,
  DoubleArray,
  BooleanArray,
  StringArray,
  ByteStringArray,
} from './builtin-arrays';
export {
  IntegerMap,
  LongMap,
  FloatMap,
  DoubleMap,
  BooleanMap,
  StringMap,
  ByteStringMap,
} from './builtin-maps';
export { UNKNOWN_SYMBOL, defineEnum, enumSchema, enumSymbols, type EnumObject } from './enum-support';
export { TyperefInfo, type HasTyperefInfo } from './typeref-info';
export {
  PathSpec,
  ArrayPathSpec,
  MapPathSpec,
  fieldPath,
  childPath,
  arrayPathSpecs,
  mapPathSpecs,
  type PathSpecClass,
} from './path-spec';
export { EPOCH_MILLIS_DATE_COERCER } from './custom-types/epoch-millis-date';
