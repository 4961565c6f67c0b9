import type { DataMap } from '../data';
import { schemasEqual, type DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { ComplexDataSchema, type ComplexState } from './complex-schema';
import { EQUALS, readOnlyProperties, STATE, type SeenPairs } from './internal';

/** @internal */
export interface MapState extends ComplexState {
  values: DataSchema;
  valuesDeclaredInline: boolean;
}

/** A map schema; data is a DataMap with string keys whose values conform to {@link getValues}. */
export class MapDataSchema extends ComplexDataSchema {
  /** @internal */
  declare readonly [STATE]: MapState;

  constructor(values: DataSchema, options: { properties?: DataMap; valuesDeclaredInline?: boolean } = {}) {
    const state: MapState = {
      properties: readOnlyProperties(options.properties),
      hasError: false,
      values,
      valuesDeclaredInline: options.valuesDeclaredInline ?? false,
    };
    super(state);
  }

  getType(): DataSchemaType {
    return DataSchemaType.MAP;
  }

  getValues(): DataSchema {
    return this[STATE].values;
  }

  isValuesDeclaredInline(): boolean {
    return this[STATE].valuesDeclaredInline;
  }

  getUnionMemberKey(): string {
    return 'map';
  }

  /** @internal */
  override [EQUALS](other: DataSchema, seen: SeenPairs): boolean {
    return (
      other instanceof MapDataSchema &&
      super[EQUALS](other, seen) &&
      schemasEqual(this[STATE].values, other[STATE].values, seen)
    );
  }
}
