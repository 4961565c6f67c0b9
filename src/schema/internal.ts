/**
 * Internal state of the schema model, kept on symbols so that public objects show only their public API
 * (STYLE.md). The parser fills the state of the objects it creates in two phases (structure first, then
 * names, includes and unions), which is why the state is mutable inside the module and read-only outside.
 * Nothing here is exported from the package root.
 */
import { DataMap } from '../data';

/** The mutable state object of a schema, field or union member. */
export const STATE = Symbol('svc.schema.state');

/** Structural equality with a record of the pairs of named schemas already assumed equal (recursion). */
export const EQUALS = Symbol('svc.schema.equals');

/** Pairs of named schemas under comparison: a recursive record compares equal to itself. */
export type SeenPairs = Map<object, object>;

/** The shared empty, read-only property map. */
export const EMPTY_PROPERTIES: DataMap = (() => {
  const map = new DataMap();
  map.makeReadOnly();
  return map;
})();

/** A read-only property map, or the shared empty one. */
export function readOnlyProperties(properties: DataMap | undefined): DataMap {
  if (properties === undefined || properties.isEmpty()) return EMPTY_PROPERTIES;
  if (!properties.isMadeReadOnly()) properties.makeReadOnly();
  return properties;
}
