/**
 * Long marks: which numbers of a store were put in as longs (README "Data rules", "Numbers on the wire").
 *
 * Why they exist: Rest.li writes a Java `Long` with the PSON long marker whatever its value (`0L` is
 * `03 00 00 00 00 00 00 00 00`) and an `Integer` with the int marker, and a typed long field holds a `Long`.
 * Here the application says "long" by putting a `bigint` (a typed long setter puts one). Storing that bigint
 * as it is would keep the wire type, but every consumer of stores would pay: `JSON.stringify` throws on a
 * bigint (applications call it on `record.data()`), and the JSON encoder's native path falls back to the
 * exact writer (template-built entities encoded ~3x slower; measured on branch wip/bigint-longs). So a long
 * keeps its one in-memory form (a number inside ±(2^53-1), a bigint beyond) and a bigint put in inside that
 * range marks its slot here. Only PSON reads the marks: JSON has one integer form, and equality, hashing,
 * keys, validation and Avro see the number they always saw.
 *
 * Where they live: on the wrapper (DataMap/DataList) in its {@link LONGS} field, made on the first mark, so
 * that its mutators test a monomorphic field; or, for a store no wrapper owns yet (built by the PSON decoder
 * or `copy`), on the store under the {@link LONGS} symbol (skipped by `JSON.stringify`, `Object.keys` and
 * `Object.values`), added after the store's entries, and taken over by the wrapper that adopts the store.
 * A wrapper's marks are never put on its store: a property added to a store midway through its keys
 * gives it a hidden class of its own, and the stores of one record type would no longer share one. The PSON encoder and copies ask {@link marksOfStore}: the wrapper's when the store has
 * one (linked, see adopt.ts; a root is asked directly), else the store's own. A map's marks are a
 * {@link MapLongs}; a list's are an array with `true` at marked indexes, never longer than the list
 * (mutators splice it along).
 *
 * A mark says nothing about a slot that no longer holds a number; readers check the value first.
 */
import { LONGS, STORE, WRAPPER, type Store } from './internal';

/** Turns true once any store has a mark, and stays true: until then nothing looks for marks. */
export const longMarks = { made: false };

/**
 * The marked keys of a map. A map holds few longs as a rule (a record's long fields), so they are an array
 * (unordered), which a lookup scans in a few ns where a `Set` took ~20 and whose creation costs a quarter of
 * a `Set`'s (every `put` of a number into a map with marks looks, to drop a mark; the PSON decoder makes one
 * per map holding a long); past {@link MAP_LONGS_INDEXED} keys, a `Set`, so that a map of thousands of longs
 * (a decoded `LongMap`) stays linear to encode. The holders (store, wrapper) are updated when it becomes one.
 */
export type MapLongs = string[] | Set<string>;

/** Past this many marked keys a map's marks become a `Set`. */
const MAP_LONGS_INDEXED = 16;

/** Where `key` is in a short list of marks, or -1. A loop: `indexOf` is a builtin call, ~3x slower here. */
function indexOfKey(keys: string[], key: string): number {
  for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i;
  return -1;
}

/** True when `key` is among `marks`. */
export function hasMapMark(marks: MapLongs, key: string): boolean {
  return Array.isArray(marks) ? indexOfKey(marks, key) !== -1 : marks.has(key);
}

/** Drops the mark of `key`, if any. */
export function dropMapMark(marks: MapLongs, key: string): void {
  if (!Array.isArray(marks)) {
    marks.delete(key);
    return;
  }
  const i = indexOfKey(marks, key);
  if (i !== -1) {
    marks[i] = marks[marks.length - 1]!;
    marks.pop();
  }
}

/** Drops every mark. */
export function clearMapMarks(marks: MapLongs): void {
  if (Array.isArray(marks)) marks.length = 0;
  else marks.clear();
}

/** Adds `key` to `marks`; returns the marks to hold from now on (a new `Set` once there are many). */
function addMapMark(marks: MapLongs, key: string): MapLongs {
  if (!Array.isArray(marks)) {
    marks.add(key);
  } else if (indexOfKey(marks, key) === -1) {
    marks.push(key);
    if (marks.length > MAP_LONGS_INDEXED) return new Set(marks);
  }
  return marks;
}

export type ListLongs = boolean[];

interface MapWrapper {
  readonly [STORE]: Store;
  [LONGS]: MapLongs | null;
}

interface ListWrapper {
  readonly [STORE]: unknown[];
  [LONGS]: ListLongs | null;
}

/**
 * The marks of a store (a map's or a list's): its wrapper's when it has a linked one, else its own; undefined
 * when there are none. Only worth asking once {@link longMarks} `.made`.
 */
export function marksOfStore(store: Store | unknown[]): MapLongs | ListLongs | undefined {
  const w = (store as { [WRAPPER]?: { [LONGS]: MapLongs | ListLongs | null } })[WRAPPER];
  if (w !== undefined) return w[LONGS] ?? undefined;
  return (store as { [LONGS]?: MapLongs | ListLongs })[LONGS];
}

/** The marks a new wrapper over `store` (an existing store it adopts) starts with. */
export function adoptedLongs<T extends MapLongs | ListLongs>(store: object): T | null {
  return longMarks.made ? ((store as { [LONGS]?: T })[LONGS] ?? null) : null;
}

/** Puts `marks` on a store that no wrapper owns yet, after its entries. */
export function attachLongs(store: Store | unknown[], marks: MapLongs | ListLongs): void {
  (store as { [LONGS]?: MapLongs | ListLongs })[LONGS] = marks;
  longMarks.made = true;
}

/** Marks `key` of the wrapped map. */
export function markMapLong(map: MapWrapper, key: string): void {
  const marks = map[LONGS];
  if (marks === null) {
    map[LONGS] = [key];
    longMarks.made = true;
  } else {
    map[LONGS] = addMapMark(marks, key);
  }
}

/** Marks `index` of the wrapped list. */
export function markListLong(list: ListWrapper, index: number): void {
  let marks = list[LONGS];
  if (marks === null) {
    marks = [];
    list[LONGS] = marks;
    longMarks.made = true;
  }
  marks[index] = true;
}

/** Adds `key` to the marks a decoder collects for a map (undefined: none yet); returns them. */
export function collectMapMark(marks: MapLongs | undefined, key: string): MapLongs {
  return marks === undefined ? [key] : addMapMark(marks, key);
}

/** A copy of `marks` (for a copied store or container), or null. */
export function copyOfLongs(marks: MapLongs | ListLongs | null | undefined): MapLongs | ListLongs | null {
  if (marks === null || marks === undefined) return null;
  return Array.isArray(marks) ? marks.slice() : new Set(marks);
}

/** True when `key` of the wrapped map holds a number put in as a long (for code that copies entries). */
export function isMarkedLong(map: MapWrapper, key: string): boolean {
  const marks = map[LONGS];
  return marks !== null && hasMapMark(marks, key) && typeof map[STORE][key] === 'number';
}
