/**
 * Internal state of the data layer, kept on symbols so that public objects show only their public API
 * (STYLE.md). Nothing here is exported from the package root.
 *
 * Storage model (why it looks like this): a DataMap keeps its entries in a plain object and a DataList in a
 * plain array. Decoders (JSON.parse, the PSON decoder) produce such plain objects/arrays directly, and a
 * container wraps ("adopts") a nested plain object/array only when it is first reached. Decoding therefore
 * costs one wrapper for the root instead of one per node, which is what lets the JSON codec run at
 * `JSON.parse` speed (bench/json-codec.bench.ts). Plain nodes in a store are always *raw*: a raw node's
 * whole subtree is raw too, because nodes are adopted top-down on access. Raw `null` stands for Data.NULL.
 */

/** Brand on the prototypes of DataMap, DataList, ByteString and Data.NULL; raw decoded nodes never carry it. */
export const KIND = Symbol('svc.data.kind');
export const KIND_MAP = 1;
export const KIND_LIST = 2;
export const KIND_BYTES = 3;
export const KIND_NULL = 4;

/** The plain object (DataMap) or array (DataList) that holds the entries. */
export const STORE = Symbol('svc.data.store');
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

export type Store = Record<string, unknown>;

const hasOwnProperty = Object.prototype.hasOwnProperty;

export function hasOwn(store: object, key: string): boolean {
  return hasOwnProperty.call(store, key);
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

/** A raw decoded node (plain object or array without brand). */
export function isRawNode(v: unknown): v is Store | unknown[] {
  return typeof v === 'object' && v !== null && (v as { [KIND]?: number })[KIND] === undefined;
}

/** Limits of a 64-bit signed long. */
export const LONG_MIN = -(2n ** 63n);
export const LONG_MAX = 2n ** 63n - 1n;
export const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
export const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
