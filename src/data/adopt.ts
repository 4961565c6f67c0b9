import { DataList } from './data-list';
import { DataMap } from './data-map';
import { INSERTED, STORE, WRAPPER, adoption, type Store } from './internal';

/**
 * The wrapper of a store found inside another store (or at the root of a decoded document): the existing
 * one, or a new one that takes the store over without copying it.
 */
export function wrapperOf(store: Store | unknown[], inserted: boolean): DataMap | DataList {
  const existing = (store as { [WRAPPER]?: DataMap | DataList })[WRAPPER];
  if (existing !== undefined) return existing;
  adoption.store = store;
  const wrapper = Array.isArray(store) ? new DataList() : new DataMap();
  wrapper[INSERTED] = inserted;
  // a store inside another store is reachable without its wrapper: link it (see linkWrapper)
  if (inserted) linkWrapper(wrapper);
  return wrapper;
}

/**
 * Makes `wrapper` findable from its store. Only stores that sit inside another store need the link, so a
 * decoded store gets it when first inserted (or adopted below another): linking in the constructor cost a
 * hidden-class transition on every decoded root object, ~0.2 µs per 1 KB document (bench/json-codec). A map
 * built through the API has it from its constructor (data-map.ts says why).
 */
export function linkWrapper(wrapper: DataMap | DataList): void {
  const store = wrapper[STORE] as { [WRAPPER]?: DataMap | DataList };
  if (store[WRAPPER] === undefined) store[WRAPPER] = wrapper;
}

/** A root DataMap over a decoded object. */
export function adoptRootMap(raw: Store): DataMap {
  return wrapperOf(raw, false) as DataMap;
}

/** A root DataList over a decoded array. */
export function adoptRootList(raw: unknown[]): DataList {
  return wrapperOf(raw, false) as DataList;
}
