/**
 * Whole-graph operations on DataMap/DataList: read-only, deep copy, equality, instrumentation.
 *
 * Every walk here is iterative with an explicit stack, so graphs of any depth (a decoded JSON document may be
 * nested 100k deep) never overflow the call stack.
 */
import { wrapperOf } from './adopt';
import { DataList } from './data-list';
import { DataMap } from './data-map';
import type { DataPrimitive } from './data-value';
import {
  ACCESS,
  INSTRUMENTING,
  KIND,
  KIND_BYTES,
  KIND_LIST,
  KIND_MAP,
  KIND_NULL,
  LONGS,
  MADE_READ_ONLY,
  READ_ONLY,
  STORE,
  StoreObject,
  hasOwn,
  isRawNode,
  setOwn,
  type Store,
} from './internal';
import { NULL } from './data-null';
import {
  attachLongs,
  copyOfLongs,
  longMarks,
  marksOfStore,
  type ListLongs,
  type MapLongs,
} from './long-marks';

type Container = DataMap | DataList;
type AnyStore = Store | unknown[];

/** What {@link DataMap.collectInstrumentedData} reports per leaf path. */
export interface InstrumentedEntry {
  readonly timesAccessed: number;
  readonly value: DataPrimitive;
}

/** The child stores held by a store. */
function childStores(store: AnyStore): AnyStore[] {
  const values: unknown[] = Array.isArray(store) ? store : Object.values(store);
  const out: AnyStore[] = [];
  for (const v of values) if (isRawNode(v)) out.push(v);
  return out;
}

/** Visits `root` and the wrapper of every store below it once (shared nodes once), creating wrappers. */
function forEachContainer(root: Container, visit: (c: Container) => void): void {
  const seen = new Set<AnyStore>([root[STORE]]);
  const stack: Container[] = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    visit(c);
    for (const child of childStores(c[STORE])) {
      if (!seen.has(child)) {
        seen.add(child);
        stack.push(wrapperOf(child, true));
      }
    }
  }
}

export function makeGraphReadOnly(root: Container): void {
  forEachContainer(root, (c) => {
    c[READ_ONLY] = true;
    c[MADE_READ_ONLY] = true;
  });
}

export function setInstrumenting(root: Container, on: boolean): void {
  forEachContainer(root, (c) => {
    c[INSTRUMENTING] = on;
  });
}

export function clearInstrumented(root: Container): void {
  forEachContainer(root, (c) => {
    c[ACCESS] = null;
  });
}

/**
 * Deep copy keeping the shape of sharing: a store reached twice is copied once and shared in the copy.
 * Only the root gets a wrapper; the copied stores below are adopted when reached, like decoded ones. Long
 * marks are copied with their stores.
 */
export function copyGraph(root: Container): Container {
  const rootCopy: Container = root[KIND] === KIND_LIST ? new DataList() : new DataMap();
  const copies = new Map<AnyStore, AnyStore>([[root[STORE], rootCopy[STORE]]]);
  const stack: AnyStore[] = [root[STORE]];
  const copyOf = (v: unknown): unknown => {
    if (!isRawNode(v)) return v;
    let c = copies.get(v);
    if (c === undefined) {
      c = Array.isArray(v) ? [] : new StoreObject();
      copies.set(v, c);
      stack.push(v);
    }
    return c;
  };
  while (stack.length > 0) {
    const src = stack.pop()!;
    const dst = copies.get(src)!;
    if (Array.isArray(src)) {
      for (const v of src) (dst as unknown[]).push(copyOf(v));
    } else {
      for (const k of Object.keys(src)) setOwn(dst as Store, k, copyOf(src[k]));
    }
    if (longMarks.made) {
      // the root's marks go to its copy's wrapper, the others onto the copied stores, after their entries
      if (src === root[STORE]) {
        (rootCopy as { [LONGS]: MapLongs | ListLongs | null })[LONGS] = copyOfLongs(root[LONGS]);
      } else {
        const marks = copyOfLongs(marksOfStore(src));
        if (marks !== null) attachLongs(dst, marks);
      }
    }
  }
  return rootCopy;
}

/** The store of a wrapper, or the store itself. */
function storeOf(v: object): AnyStore {
  return isRawNode(v) ? v : (v as Container)[STORE];
}

/** Kind of a stored value, treating raw objects/arrays as maps/lists and raw null as Data.NULL. */
function kindOfStored(v: unknown): number {
  if (v === null) return KIND_NULL;
  if (typeof v !== 'object') return 0;
  const k = (v as { [KIND]?: number })[KIND];
  if (k !== undefined) return k;
  return Array.isArray(v) ? KIND_LIST : KIND_MAP;
}

/**
 * Numbers compare by exact value across `number` and `bigint`: JSON cannot tell an integral double from a
 * long, so a double 2^60 written to JSON comes back as the long 2^60, and that is the same data. NaN equals
 * NaN, as with Java's `Double.equals`, so data holding NaN equals itself.
 */
function sameNumber(x: unknown, y: unknown): boolean {
  if (x !== x) return y !== y;
  if (typeof x === 'number' && typeof y === 'bigint') return Number.isInteger(x) && BigInt(x) === y;
  if (typeof x === 'bigint' && typeof y === 'number') return Number.isInteger(y) && BigInt(y) === x;
  return false; // other distinct primitives (x !== y was checked)
}

/** Structural equality of two graphs, raw nodes included, without adopting them. */
export function deepEquals(a: unknown, b: unknown): boolean {
  const left: unknown[] = [a];
  const right: unknown[] = [b];
  while (left.length > 0) {
    const x = left.pop();
    const y = right.pop();
    if (x === y) continue;
    const kx = kindOfStored(x);
    if (kx !== kindOfStored(y)) return false;
    switch (kx) {
      case 0:
        if (!sameNumber(x, y)) return false;
        continue;
      case KIND_NULL:
        continue;
      case KIND_BYTES:
        if (!(x as { equals(o: unknown): boolean }).equals(y)) return false;
        continue;
      case KIND_LIST: {
        const xs = storeOf(x as object) as unknown[];
        const ys = storeOf(y as object) as unknown[];
        if (xs.length !== ys.length) return false;
        for (let i = 0; i < xs.length; i++) {
          left.push(xs[i]);
          right.push(ys[i]);
        }
        continue;
      }
      default: {
        const xs = storeOf(x as object) as Store;
        const ys = storeOf(y as object) as Store;
        const keys = Object.keys(xs);
        if (keys.length !== Object.keys(ys).length) return false;
        for (const k of keys) {
          if (!hasOwn(ys, k)) return false;
          left.push(xs[k]);
          right.push(ys[k]);
        }
      }
    }
  }
  return true;
}

/** Leaf paths read while instrumenting (see DataMap.collectInstrumentedData). */
export function collectInstrumented(root: Container, collectAll: boolean): Map<string, InstrumentedEntry> {
  const out = new Map<string, InstrumentedEntry>();
  const stack: Array<[Container, string]> = [[root, '']];
  while (stack.length > 0) {
    const [c, prefix] = stack.pop()!;
    const pending: Array<[Container, string]> = [];
    const leaf = (path: string, value: unknown, times: number): void => {
      if (isRawNode(value)) pending.push([wrapperOf(value, true), path]);
      else if (collectAll || times > 0) {
        out.set(path, { timesAccessed: times, value: (value === null ? NULL : value) as DataPrimitive });
      }
    };
    if (c[KIND] === KIND_LIST) {
      const arr = (c as DataList)[STORE];
      const counts = (c as DataList)[ACCESS];
      for (let i = 0; i < arr.length; i++) leaf(`${prefix}[${i}]`, arr[i], counts?.[i] ?? 0);
    } else {
      const store = (c as DataMap)[STORE];
      const counts = (c as DataMap)[ACCESS];
      for (const k of Object.keys(store)) leaf(`${prefix}.${k}`, store[k], counts?.get(k) ?? 0);
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]!);
  }
  return out;
}
