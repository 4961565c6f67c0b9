/**
 * The typeref a generated class was named after (brief: a union with typeref "implements HasTyperefInfo
 * (typerefInfo())"). Generated typeref modules export one too, beside the typeref's TypeScript type.
 */
import type { TyperefDataSchema } from '../schema/typeref-schema';
import type { SchemaRef } from './schema-registry';

/** The typeref a generated class was named after; `typerefInfo()` of such a class returns it. */
export class TyperefInfo {
  readonly #schema: SchemaRef<TyperefDataSchema>;

  constructor(schema: SchemaRef<TyperefDataSchema>) {
    this.#schema = schema;
  }

  /** The typeref schema. */
  schema(): TyperefDataSchema {
    return this.#schema.get();
  }

  /** The typeref's full name. */
  fullName(): string {
    return this.#schema.get().getFullName();
  }
}

/** Implemented by generated classes named after a typeref (unions with typeref). */
export interface HasTyperefInfo {
  typerefInfo(): TyperefInfo;
}
