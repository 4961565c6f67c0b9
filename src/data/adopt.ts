import { DataList } from './data-list';
import { DataMap } from './data-map';
import { INSERTED, WRAPPER, adoption, type Store } from './internal';

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
  return wrapper;
}

/** A root DataMap over a decoded object. */
export function adoptRootMap(raw: Store): DataMap {
  return wrapperOf(raw, false) as DataMap;
}

/** A root DataList over a decoded array. */
export function adoptRootList(raw: unknown[]): DataList {
  return wrapperOf(raw, false) as DataList;
}
