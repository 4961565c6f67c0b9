/**
 * The built-in map classes of the primitive types (brief, "Class naming" 1: the boxed type name plus
 * `Map`). Generated code uses them for maps of primitives and of typerefs of primitives.
 */
import type { ByteString } from '../data/byte-string';
import type { MapDataSchema } from '../schema/map-schema';
import { DirectMapTemplate, type MapInit } from './map-template';
import {
  BOOLEAN_COERCER,
  BYTES_COERCER,
  DOUBLE_COERCER,
  FLOAT_COERCER,
  INT_COERCER,
  LONG_COERCER,
  STRING_COERCER,
} from './coercers';
import { SchemaRef } from './schema-registry';

const INT_MAP = SchemaRef.mapOf(SchemaRef.primitive('int'));

/** A map of int. */
export class IntegerMap extends DirectMapTemplate<number> {
  constructor(init?: MapInit<number>) {
    super(init, INT_COERCER);
  }

  override schema(): MapDataSchema {
    return INT_MAP.get();
  }
}

const LONG_MAP = SchemaRef.mapOf(SchemaRef.primitive('long'));

/** A map of long. */
export class LongMap extends DirectMapTemplate<number | bigint> {
  constructor(init?: MapInit<number | bigint>) {
    super(init, LONG_COERCER);
  }

  override schema(): MapDataSchema {
    return LONG_MAP.get();
  }
}

const FLOAT_MAP = SchemaRef.mapOf(SchemaRef.primitive('float'));

/** A map of float. */
export class FloatMap extends DirectMapTemplate<number> {
  constructor(init?: MapInit<number>) {
    super(init, FLOAT_COERCER);
  }

  override schema(): MapDataSchema {
    return FLOAT_MAP.get();
  }
}

const DOUBLE_MAP = SchemaRef.mapOf(SchemaRef.primitive('double'));

/** A map of double. */
export class DoubleMap extends DirectMapTemplate<number> {
  constructor(init?: MapInit<number>) {
    super(init, DOUBLE_COERCER);
  }

  override schema(): MapDataSchema {
    return DOUBLE_MAP.get();
  }
}

const BOOLEAN_MAP = SchemaRef.mapOf(SchemaRef.primitive('boolean'));

/** A map of boolean. */
export class BooleanMap extends DirectMapTemplate<boolean> {
  constructor(init?: MapInit<boolean>) {
    super(init, BOOLEAN_COERCER);
  }

  override schema(): MapDataSchema {
    return BOOLEAN_MAP.get();
  }
}

const STRING_MAP = SchemaRef.mapOf(SchemaRef.primitive('string'));

/** A map of string. */
export class StringMap extends DirectMapTemplate<string> {
  constructor(init?: MapInit<string>) {
    super(init, STRING_COERCER);
  }

  override schema(): MapDataSchema {
    return STRING_MAP.get();
  }
}

const BYTES_MAP = SchemaRef.mapOf(SchemaRef.primitive('bytes'));

/** A map of bytes. */
export class ByteStringMap extends DirectMapTemplate<ByteString> {
  constructor(init?: MapInit<ByteString>) {
    super(init, BYTES_COERCER);
  }

  override schema(): MapDataSchema {
    return BYTES_MAP.get();
  }
}
