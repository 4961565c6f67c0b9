import type { DataMap } from '../data';
import { DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { EMPTY_PROPERTIES, EQUALS } from './internal';

/**
 * A primitive schema: int, long, float, double, boolean, string, bytes or null. Each has one shared
 * instance (`IntDataSchema.INSTANCE`...); {@link primitiveSchema} finds it by type name.
 */
export abstract class PrimitiveDataSchema extends DataSchema {
  readonly #type: DataSchemaType;
  readonly #name: string;

  protected constructor(type: DataSchemaType, name: string) {
    super();
    this.#type = type;
    this.#name = name;
  }

  getType(): DataSchemaType {
    return this.#type;
  }

  /** The type name as written in schemas (`int`, `string`...). */
  getName(): string {
    return this.#name;
  }

  hasError(): boolean {
    return false;
  }

  isPrimitive(): boolean {
    return true;
  }

  getProperties(): DataMap {
    return EMPTY_PROPERTIES;
  }

  getUnionMemberKey(): string {
    return this.#name;
  }

  /** @internal */
  [EQUALS](other: DataSchema): boolean {
    return other instanceof PrimitiveDataSchema && other.#type === this.#type;
  }
}

export class NullDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: NullDataSchema = new NullDataSchema();
  private constructor() {
    super(DataSchemaType.NULL, 'null');
  }
}

export class BooleanDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: BooleanDataSchema = new BooleanDataSchema();
  private constructor() {
    super(DataSchemaType.BOOLEAN, 'boolean');
  }
}

export class IntDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: IntDataSchema = new IntDataSchema();
  private constructor() {
    super(DataSchemaType.INT, 'int');
  }
}

export class LongDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: LongDataSchema = new LongDataSchema();
  private constructor() {
    super(DataSchemaType.LONG, 'long');
  }
}

export class FloatDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: FloatDataSchema = new FloatDataSchema();
  private constructor() {
    super(DataSchemaType.FLOAT, 'float');
  }
}

export class DoubleDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: DoubleDataSchema = new DoubleDataSchema();
  private constructor() {
    super(DataSchemaType.DOUBLE, 'double');
  }
}

export class BytesDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: BytesDataSchema = new BytesDataSchema();
  private constructor() {
    super(DataSchemaType.BYTES, 'bytes');
  }
}

export class StringDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: StringDataSchema = new StringDataSchema();
  private constructor() {
    super(DataSchemaType.STRING, 'string');
  }
}

const BY_NAME: ReadonlyMap<string, PrimitiveDataSchema> = new Map<string, PrimitiveDataSchema>([
  ['null', NullDataSchema.INSTANCE],
  ['boolean', BooleanDataSchema.INSTANCE],
  ['int', IntDataSchema.INSTANCE],
  ['long', LongDataSchema.INSTANCE],
  ['float', FloatDataSchema.INSTANCE],
  ['double', DoubleDataSchema.INSTANCE],
  ['bytes', BytesDataSchema.INSTANCE],
  ['string', StringDataSchema.INSTANCE],
]);

/** The primitive schema named `name` (`int`, `string`...), or undefined. */
export function primitiveSchema(name: string): PrimitiveDataSchema | undefined {
  return BY_NAME.get(name);
}

/** The names of the primitive types, in the order of the brief's table (null last). */
export const PRIMITIVE_TYPE_NAMES: readonly string[] = [
  'int',
  'long',
  'float',
  'double',
  'boolean',
  'string',
  'bytes',
  'null',
];

/**
 * Stands in for a type reference that could not be resolved (or a type that could not be parsed), so that
 * the parser can go on collecting problems. A parse that produced one always fails, so it never escapes.
 * @internal
 */
export class UnresolvedDataSchema extends PrimitiveDataSchema {
  static readonly INSTANCE: UnresolvedDataSchema = new UnresolvedDataSchema();
  private constructor() {
    super(DataSchemaType.NULL, 'null');
  }
  override hasError(): boolean {
    return true;
  }
  /** @internal */
  override [EQUALS](other: DataSchema): boolean {
    return other === this;
  }
}
