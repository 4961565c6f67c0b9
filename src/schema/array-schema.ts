import type { DataMap } from '../data';
import { schemasEqual, type DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { ComplexDataSchema, type ComplexState } from './complex-schema';
import { EQUALS, readOnlyProperties, STATE, type SeenPairs } from './internal';

/** @internal */
export interface ArrayState extends ComplexState {
  items: DataSchema;
  itemsDeclaredInline: boolean;
}

/** An array schema; data is a DataList whose elements conform to {@link getItems}. */
export class ArrayDataSchema extends ComplexDataSchema {
  /** @internal */
  declare readonly [STATE]: ArrayState;

  constructor(items: DataSchema, options: { properties?: DataMap; itemsDeclaredInline?: boolean } = {}) {
    const state: ArrayState = {
      properties: readOnlyProperties(options.properties),
      hasError: false,
      items,
      itemsDeclaredInline: options.itemsDeclaredInline ?? false,
    };
    super(state);
  }

  getType(): DataSchemaType {
    return DataSchemaType.ARRAY;
  }

  getItems(): DataSchema {
    return this[STATE].items;
  }

  isItemsDeclaredInline(): boolean {
    return this[STATE].itemsDeclaredInline;
  }

  getUnionMemberKey(): string {
    return 'array';
  }

  /** @internal */
  override [EQUALS](other: DataSchema, seen: SeenPairs): boolean {
    return (
      other instanceof ArrayDataSchema &&
      super[EQUALS](other, seen) &&
      schemasEqual(this[STATE].items, other[STATE].items, seen)
    );
  }
}
