/**
 * Whole-graph operations on DataMap/DataList: read-only, deep copy, equality, instrumentation.
 *
 * Every walk here is iterative with an explicit stack, so graphs of any depth (a decoded JSON document may be
 * nested 100k deep) never overflow the call stack.
 */
import { adoptRaw } from './adopt';
import { DataList } from './data-list';
import { DataMap } from './data-map';
import type { DataPrimitive } from './data-value';
import {
  ACCESS,
  INSERTED,
  INSTRUMENTING,
  KIND,
  KIND_BYTES,
  KIND_LIST,
  KIND_MAP,
  KIND_NULL,
  MADE_READ_ONLY,
  READ_ONLY,
  STORE,
  hasOwn,
  isRawNode,
  setOwn,
  type Store,
} from './internal';
import { NULL } from './data-null';

type Container = DataMap | DataList;

/** What {@link DataMap.collectInstrumentedData} reports per leaf path. */
export interface InstrumentedEntry {
  readonly timesAccessed: number;
  readonly value: DataPrimitive;
}

function isContainer(v: unknown): v is Container {
  if (typeof v !== 'object' || v === null) return false;
  const k = (v as { [KIND]?: number })[KIND];
  return k === KIND_MAP || k === KIND_LIST;
}

/** Adopts every raw child of `c` in place, so that each child is a real container (or a primitive). */
export function materializeChildren(c: Container): void {
  if (c[KIND] === KIND_LIST) {
    const arr = (c as DataList)[STORE];
    for (let i = 0; i < arr.length; i++) {
      const v = arr[i];
      if (isRawNode(v)) arr[i] = adoptRaw(v, true);
    }
  } else {
    const store = (c as DataMap)[STORE];
    for (const k of Object.keys(store)) {
      const v = store[k];
      if (isRawNode(v)) setOwn(store, k, adoptRaw(v, true));
    }
  }
}

/** The container children of `c`, after adopting raw ones. */
function containerChildren(c: Container): Container[] {
  materializeChildren(c);
  const values: unknown[] = c[KIND] === KIND_LIST ? (c as DataList)[STORE] : Object.values((c as DataMap)[STORE]);
  const out: Container[] = [];
  for (const v of values) if (isContainer(v)) out.push(v);
  return out;
}

/** Visits `root` and every container below it once (shared nodes once). */
function forEachContainer(root: Container, visit: (c: Container) => void): void {
  const seen = new Set<Container>([root]);
  const stack: Container[] = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    visit(c);
    for (const child of containerChildren(c)) {
      if (!seen.has(child)) {
        seen.add(child);
        stack.push(child);
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

/** Deep copy keeping the shape of sharing: a node reached twice is copied once and shared in the copy. */
export function copyGraph(root: Container): Container {
  const copies = new Map<Container, Container>();
  const fresh = (c: Container): Container => (c[KIND] === KIND_LIST ? new DataList() : new DataMap());
  const rootCopy = fresh(root);
  copies.set(root, rootCopy);
  const stack: Container[] = [root];
  while (stack.length > 0) {
    const src = stack.pop()!;
    const dst = copies.get(src)!;
    materializeChildren(src);
    const copyChild = (v: unknown): unknown => {
      if (!isContainer(v)) return v;
      let c = copies.get(v);
      if (c === undefined) {
        c = fresh(v);
        c[INSERTED] = true;
        copies.set(v, c);
        stack.push(v);
      }
      return c;
    };
    if (src[KIND] === KIND_LIST) {
      (dst as DataList)[STORE] = (src as DataList)[STORE].map(copyChild);
    } else {
      const from = (src as DataMap)[STORE];
      const to: Store = {};
      for (const k of Object.keys(from)) setOwn(to, k, copyChild(from[k]));
      (dst as DataMap)[STORE] = to;
    }
  }
  return rootCopy;
}

/** A raw or wrapped node's entries as a plain store, without adopting anything. */
function storeOf(v: object): Store | unknown[] {
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
        return false; // distinct primitives (numbers and bigints are normalised, so no cross-type equality)
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
    materializeChildren(c);
    const pending: Array<[Container, string]> = [];
    const leaf = (path: string, value: unknown, times: number): void => {
      if (isContainer(value)) pending.push([value, path]);
      else if (collectAll || times > 0) out.set(path, { timesAccessed: times, value: (value === null ? NULL : value) as DataPrimitive });
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
