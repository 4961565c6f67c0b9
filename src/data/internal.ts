/**
 * Internal state of the data layer, kept on symbols so that public objects show only their public API
 * (STYLE.md). Nothing here is exported from the package root.
 *
 * Storage model (why it looks like this): a DataMap keeps its entries in a plain object and a DataList in a
 * plain array, its *store*. A store holds leaves (string, number, bigint, boolean, ByteString, and raw
 * `null` for Data.NULL) and the *stores* of its child containers, never the wrappers; a store that sits
 * inside another store and has a wrapper, or was made by a DataMap's constructor, points back to it through
 * the {@link WRAPPER} symbol (see `linkWrapper`). So the whole graph of stores is plain
 * JSON-shaped data:
 * - `JSON.stringify` serializes it natively without calling a `toJSON` per node (a built graph encodes at
 *   plain-object speed; with wrappers inside stores it was ~20% slower, bench/json-codec.bench.ts);
 * - decoders (`JSON.parse`, the PSON decoder) produce stores directly, and a wrapper is created ("adopted")
 *   only for the nodes that are actually reached; decoding costs about what `JSON.parse` costs.
 * A node's identity is its store: the same store always yields the same wrapper, so shared nodes stay shared.
 */

/** Brand on the prototypes of DataMap, DataList, ByteString and Data.NULL; raw decoded nodes never carry it. */
export const KIND = Symbol('svc.data.kind');
export const KIND_MAP = 1;
export const KIND_LIST = 2;
export const KIND_BYTES = 3;
export const KIND_NULL = 4;

/** The plain object (DataMap) or array (DataList) that holds the entries; never replaced. */
export const STORE = Symbol('svc.data.store');
/** On a store: the DataMap/DataList wrapping it, once one exists. */
export const WRAPPER = Symbol('svc.data.wrapper');
/** setReadOnly was called (mutation throws). */
export const READ_ONLY = Symbol('svc.data.readOnly');
/** makeReadOnly was called: the whole graph below is read-only. */
export const MADE_READ_ONLY = Symbol('svc.data.madeReadOnly');
/** The container has been placed inside another container at least once (see `checkNoCycle`). */
export const INSERTED = Symbol('svc.data.inserted');
/** Access counts while instrumenting: `Map` key -> count (DataMap) or index -> count (DataList); null when never started. */
export const ACCESS = Symbol('svc.data.access');
/** Instrumentation currently on. */
export const INSTRUMENTING = Symbol('svc.data.instrumenting');
/**
 * On a store, and on its wrapper (the same object): which of its numbers were put in as longs, so that PSON
 * writes them with the long marker (see long-marks.ts). A `Set` of keys on a map store, an array with `true`
 * at those indexes on a list store; absent (store) or null (wrapper) when there are none.
 */
export const LONGS = Symbol('svc.data.longs');
/**
 * DataMap's `set` for a long the caller has checked to be a safe integer number (typed long setters): stores
 * it and marks it long without the bigint a plain `set` would need (`BigInt(n)` costs ~40 ns).
 */
export const SET_LONG = Symbol('svc.data.setLong');

export type Store = Record<string, unknown>;

export function hasOwn(store: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(store, key);
}

/**
 * Writes an own entry. `__proto__` needs defineProperty: a plain assignment would replace the prototype of a
 * store that JSON.parse created with Object.prototype.
 */
export function setOwn(store: Store, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(store, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    store[key] = value;
  }
}

/**
 * Reads an own entry of a store, or undefined. Stores may have Object.prototype as prototype (JSON.parse
 * makes them so); inherited members are functions or the `__proto__` accessor, and never data.
 */
export function getOwn(store: Store, key: string): unknown {
  const v = store[key];
  if (v === undefined || typeof v === 'function') return undefined;
  if (key === '__proto__' && !hasOwn(store, key)) return undefined;
  return v;
}

/** Kind brand of a stored value: 0 for primitives and raw nodes. */
export function kindOf(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  const k = (v as { [KIND]?: number })[KIND];
  return k === undefined ? 0 : k;
}

/** A store (plain object or array without brand) as found inside another store. */
export function isRawNode(v: unknown): v is Store | unknown[] {
  return typeof v === 'object' && v !== null && (v as { [KIND]?: number })[KIND] === undefined;
}

/**
 * The store a new wrapper should take instead of a fresh one; set by `adopt` right before `new` so that
 * wrappers are built by their constructors only (one object shape) and no throwaway store is allocated.
 */
export const adoption: { store: Store | unknown[] | undefined } = { store: undefined };

/**
 * Makes a constructor for map stores (`new StoreObject()` instead of `{}`). Its prototype IS
 * Object.prototype, so the objects are plain objects in every observable way (prototype, own keys,
 * `constructor === Object`), but V8 gives them 10 in-object fields where `{}` gets 4: a 5-to-10-key map then
 * needs no separate property array, and a map filled by keyed stores stays in fast mode up to 22 keys rather
 * than 16 (V8 turns an object whose out-of-object fields exceed 12 into a dictionary). Measured in the PSON
 * decoder: 1 KB record 4.3 -> 3.8 µs, 1 MB document 4.0 -> 3.2 ms; maps built with `put` benefit the same.
 * V8 sizes instances by what the first few constructions used ("slack tracking"), so those are made here,
 * with 10 fields each, before any store is.
 *
 * Each producer of stores (the PSON decoder, the exact JSON parser, DataMap) makes its own: V8 keeps one
 * tree of hidden-class transitions per constructor, and a decoder's keyed stores slow down when that tree
 * also holds every shape the application built (PSON decode ran at 0.6x of the JSON codec after the other
 * benchmarks had filled a shared tree, 0.9-1.8x with its own).
 */
export function makeStoreConstructor(linked = false): new () => Store {
  function StoreObject(): void {}
  StoreObject.prototype = Object.prototype;
  const ctor = StoreObject as unknown as new () => Store;
  for (let i = 0; i < 8; i++) {
    const o = new ctor();
    // `linked`: the stores get their WRAPPER link first (DataMap's constructor), the 10 fields after it
    if (linked) (o as { [WRAPPER]?: unknown })[WRAPPER] = o;
    for (let k = 0; k < 10; k++) o[`k${k}`] = k;
  }
  return ctor;
}

/** The store constructor of maps built through the API (DataMap, copies): linked to their map at once. */
export const StoreObject = makeStoreConstructor(true);

/** Limits of a 64-bit signed long. */
export const LONG_MIN = -(2n ** 63n);
export const LONG_MAX = 2n ** 63n - 1n;
export const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
export const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
