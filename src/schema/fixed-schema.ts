import type { DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { EQUALS, STATE, type SeenPairs } from './internal';
import { NamedDataSchema, namedState, type NamedSchemaInit, type NamedState } from './named-schema';

export interface FixedSchemaInit extends NamedSchemaInit {
  /** Length in bytes. */
  readonly size: number;
}

/** @internal */
export interface FixedState extends NamedState {
  size: number;
}

/** A fixed schema: bytes of exactly {@link getSize} length, encoded like bytes. */
export class FixedDataSchema extends NamedDataSchema {
  /** @internal */
  declare readonly [STATE]: FixedState;

  constructor(init: FixedSchemaInit) {
    const state: FixedState = Object.assign(namedState(init), { size: init.size });
    super(state);
  }

  getType(): DataSchemaType {
    return DataSchemaType.FIXED;
  }

  /** The declared size in bytes. */
  getSize(): number {
    return this[STATE].size;
  }

  /** @internal */
  override [EQUALS](other: DataSchema, seen: SeenPairs): boolean {
    return (
      other instanceof FixedDataSchema && super[EQUALS](other, seen) && other[STATE].size === this[STATE].size
    );
  }
}
