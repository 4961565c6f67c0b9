/**
 * The built-in array classes of the primitive types (brief, "Class naming" 1: the boxed type name plus
 * `Array`). Generated code uses them for arrays of primitives and of typerefs of primitives; arrays of
 * arrays of primitives (`LongArrayArray`...) are generated.
 */
import type { ByteString } from '../data/byte-string';
import type { ArrayDataSchema } from '../schema/array-schema';
import { DirectArrayTemplate, type ArrayInit } from './array-template';
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

const INT_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('int'));

/** An array of int. */
export class IntegerArray extends DirectArrayTemplate<number> {
  constructor(init?: ArrayInit<number>) {
    super(init, INT_COERCER);
  }

  override schema(): ArrayDataSchema {
    return INT_ARRAY.get();
  }
}

const LONG_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('long'));

/** An array of long. */
export class LongArray extends DirectArrayTemplate<number | bigint> {
  constructor(init?: ArrayInit<number | bigint>) {
    super(init, LONG_COERCER);
  }

  override schema(): ArrayDataSchema {
    return LONG_ARRAY.get();
  }
}

const FLOAT_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('float'));

/** An array of float. */
export class FloatArray extends DirectArrayTemplate<number> {
  constructor(init?: ArrayInit<number>) {
    super(init, FLOAT_COERCER);
  }

  override schema(): ArrayDataSchema {
    return FLOAT_ARRAY.get();
  }
}

const DOUBLE_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('double'));

/** An array of double. */
export class DoubleArray extends DirectArrayTemplate<number> {
  constructor(init?: ArrayInit<number>) {
    super(init, DOUBLE_COERCER);
  }

  override schema(): ArrayDataSchema {
    return DOUBLE_ARRAY.get();
  }
}

const BOOLEAN_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('boolean'));

/** An array of boolean. */
export class BooleanArray extends DirectArrayTemplate<boolean> {
  constructor(init?: ArrayInit<boolean>) {
    super(init, BOOLEAN_COERCER);
  }

  override schema(): ArrayDataSchema {
    return BOOLEAN_ARRAY.get();
  }
}

const STRING_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('string'));

/** An array of string. */
export class StringArray extends DirectArrayTemplate<string> {
  constructor(init?: ArrayInit<string>) {
    super(init, STRING_COERCER);
  }

  override schema(): ArrayDataSchema {
    return STRING_ARRAY.get();
  }
}

const BYTES_ARRAY = /* @__PURE__ */ SchemaRef.arrayOf(/* @__PURE__ */ SchemaRef.primitive('bytes'));

/** An array of bytes. */
export class ByteStringArray extends DirectArrayTemplate<ByteString> {
  constructor(init?: ArrayInit<ByteString>) {
    super(init, BYTES_COERCER);
  }

  override schema(): ArrayDataSchema {
    return BYTES_ARRAY.get();
  }
}
