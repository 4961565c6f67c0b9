import type { DataMap } from '../data';
import { DataSchema } from './data-schema';
import { EQUALS, STATE, type SeenPairs } from './internal';

/** @internal */
export interface ComplexState {
  properties: DataMap;
  hasError: boolean;
}

/** Base of the non-primitive schemas: array, map, union and the named schemas. */
export abstract class ComplexDataSchema extends DataSchema {
  /** @internal */
  readonly [STATE]: ComplexState;

  protected constructor(state: ComplexState) {
    super();
    this[STATE] = state;
  }

  hasError(): boolean {
    return this[STATE].hasError;
  }

  isPrimitive(): boolean {
    return false;
  }

  getProperties(): DataMap {
    return this[STATE].properties;
  }

  /** @internal */
  [EQUALS](other: DataSchema, _seen: SeenPairs): boolean {
    return (
      other instanceof ComplexDataSchema &&
      other.getType() === this.getType() &&
      other[STATE].hasError === this[STATE].hasError &&
      other[STATE].properties.equals(this[STATE].properties)
    );
  }
}
