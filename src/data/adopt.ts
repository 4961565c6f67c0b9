import { DataList } from './data-list';
import { DataMap } from './data-map';
import { INSERTED, STORE, type Store } from './internal';

/**
 * Wraps a raw decoded node (plain object or array, see internal.ts) in a container without copying it.
 * The node becomes that container's store; its own raw children stay raw until reached.
 */
export function adoptRaw(raw: Store | unknown[], inserted: boolean): DataMap | DataList {
  if (Array.isArray(raw)) {
    const list = new DataList();
    list[STORE] = raw;
    list[INSERTED] = inserted;
    return list;
  }
  const map = new DataMap();
  map[STORE] = raw;
  map[INSERTED] = inserted;
  return map;
}

/** A root DataMap over a raw decoded object. */
export function adoptRootMap(raw: Store): DataMap {
  return adoptRaw(raw, false) as DataMap;
}

/** A root DataList over a raw decoded array. */
export function adoptRootList(raw: unknown[]): DataList {
  return adoptRaw(raw, false) as DataList;
}
