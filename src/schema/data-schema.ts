import type { DataMap } from '../data';
import type { DataSchemaType } from './data-schema-type';
import { EQUALS, type SeenPairs } from './internal';

/** Where a schema, field or member was defined in schema text. */
export interface SchemaLocation {
  /** The file, when the text came from one. */
  readonly file?: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column (UTF-16 code units). */
  readonly column: number;
}

/** What `toString` writes: the canonical JSON once `installSchemaText()` ran, else a short description. */
let schemaText = (schema: DataSchema): string => `${schema.getType()} ${schema.getUnionMemberKey()}`;

/** @internal sets what `DataSchema.toString` writes (schema-text.ts installs the JSON writer). */
export function setSchemaText(write: (schema: DataSchema) => string): void {
  schemaText = write;
}

/**
 * Base class of every schema: primitives, named schemas (record, error, enum, fixed, typeref) and the
 * unnamed complex schemas (array, map, union).
 *
 * Schemas are immutable once a parse has returned them. Compare them with {@link DataSchema.equals}
 * (structural; two parses of the same text give equal schemas), never with `===` across parses.
 *
 * @example
 * ```ts
 * const schema = parseSchema('{ "type": "array", "items": "int" }');
 * schema.getType();              // 'ARRAY'
 * schema.getUnionMemberKey();    // 'array'
 * schema.toString();             // '{"type":"array","items":"int"}'
 * ```
 * @see parseSchema
 */
export abstract class DataSchema {
  /** The type; `TYPEREF` for a typeref (see {@link getDereferencedType}). */
  abstract getType(): DataSchemaType;

  /** The type after following typerefs; the same as {@link getType} for anything but a typeref. */
  getDereferencedType(): DataSchemaType {
    return this.getDereferencedSchema().getType();
  }

  /** The schema after following typerefs; `this` for anything but a typeref. */
  getDereferencedSchema(): DataSchema {
    return this;
  }

  /** True when the parser found a problem in this schema (a schema returned by a successful parse has none). */
  abstract hasError(): boolean;

  /** True for int, long, float, double, boolean, string, bytes and null. */
  abstract isPrimitive(): boolean;

  /** True for everything that is not primitive. */
  isComplex(): boolean {
    return !this.isPrimitive();
  }

  /**
   * The attributes the parser does not interpret (custom properties such as `validate`), as a read-only
   * DataMap; empty for primitives.
   */
  abstract getProperties(): DataMap;

  /**
   * The key of this schema as a union member when the member has no alias: the type name for primitives,
   * `array`, `map`, `union`, the full name for named schemas; a typeref gives the key of the type it refers to.
   */
  abstract getUnionMemberKey(): string;

  /**
   * Canonical JSON: stable key order, named schemas in full the first time they appear and by full name
   * afterwards, includes and typerefs kept. It parses back to an equal schema. The JSON writer is installed
   * by the package root and the schema layer (`installSchemaText()`, schema-text.ts); in a browser page
   * without it this is a short description (`RECORD com.example.photos.Photo`), not JSON.
   */
  toString(): string {
    return schemaText(this);
  }

  /** Structural equality (named schemas by name and content; recursion is handled). */
  equals(other: unknown): boolean {
    if (this === other) return true;
    if (!(other instanceof DataSchema)) return false;
    return this[EQUALS](other, new Map());
  }

  /** @internal */
  abstract [EQUALS](other: DataSchema, seen: SeenPairs): boolean;
}

/** Equality of two schemas inside a larger comparison. */
export function schemasEqual(a: DataSchema, b: DataSchema, seen: SeenPairs): boolean {
  return a === b || a[EQUALS](b, seen);
}
