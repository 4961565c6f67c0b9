/**
 * Support for generated enums. A generated enum is a TypeScript string enum whose values are the schema's
 * symbols, plus `$UNKNOWN`, which getters return for a stored symbol the binding does not know (brief,
 * "Versioning" 3: schema evolution adds symbols before every reader knows them):
 *
 * ```ts
 * export enum PhotoFormat { JPEG = 'JPEG', PNG = 'PNG', $UNKNOWN = '$UNKNOWN' }
 * defineEnum(PhotoFormat, registerSchema('com.example.photos.PhotoFormat', '...'));
 * enumSchema(PhotoFormat).getSymbols(); // ['JPEG', 'PNG']
 * ```
 *
 * The schema is kept beside the enum (not as a member), so that `Object.values(PhotoFormat)` lists symbols only.
 */
import type { EnumDataSchema } from '../schema/enum-schema';
import { IllegalArgumentException } from './errors';
import type { SchemaRef } from './schema-registry';

/** The symbol an enum getter returns for a stored symbol the binding does not know. */
export const UNKNOWN_SYMBOL = '$UNKNOWN';

/** A generated enum object: symbol name to symbol. */
export type EnumObject<E extends string = string> = Readonly<Record<string, E>>;

const SCHEMAS = new WeakMap<object, SchemaRef<EnumDataSchema>>();

/** Associates a generated enum with its schema; generated enum modules call it once. */
export function defineEnum(values: EnumObject, schema: SchemaRef<EnumDataSchema>): void {
  SCHEMAS.set(values, schema);
}

/**
 * The schema of a generated enum.
 * @throws IllegalArgumentException for an object that is not a generated enum.
 */
export function enumSchema(values: EnumObject): EnumDataSchema {
  const ref = SCHEMAS.get(values);
  if (ref === undefined)
    throw new IllegalArgumentException('Not a generated enum: no schema is defined for it');
  return ref.get();
}

/** The symbols of a generated enum that the binding knows (every value but `$UNKNOWN`), in declaration order. */
export function enumSymbols<E extends string>(values: EnumObject<E>): E[] {
  return Object.values(values).filter((s) => s !== UNKNOWN_SYMBOL);
}

/**
 * Each symbol of a generated enum to itself, the generated constant: a symbol parsed from a request is a new
 * string each time, and handing out the constant instead makes a handler's compares with the enum's
 * constants pointer compares (the example's finder compares its `format` parameter with 30 photos'
 * formats: ~1.2k instructions of a request's ~150k as content compares, callgrind over HTTP). Used by the
 * enum coercer of generated records and by `enumOf` parameters.
 */
export function enumConstants<E extends string>(values: EnumObject<E>): ReadonlyMap<string, E> {
  return new Map(enumSymbols(values).map((s) => [s, s] as const));
}
