import { linkWrapper } from './adopt';
import type { DataList } from './data-list';
import type { DataMap } from './data-map';
import { IllegalDataValueException } from './errors';
import { noteNonFinite } from './non-finite';
import {
  INSERTED,
  KIND,
  KIND_LIST,
  KIND_MAP,
  KIND_NULL,
  LONG_MAX,
  LONG_MIN,
  SAFE_MAX,
  SAFE_MIN,
  STORE,
  type Store,
} from './internal';

interface Wrapper {
  [STORE]: Store | unknown[];
  [INSERTED]: boolean;
}

/** Where a value goes, for messages: `DataMap key 'k'` for a string key, `DataList index i` for an index. */
function describeSlot(slot: string | number): string {
  return typeof slot === 'string' ? `DataMap key '${slot}'` : `DataList index ${slot}`;
}

/** A key that {@link checkKey} refuses, as JSON text (lone surrogates and U+0000 escaped), shortened. */
function showKey(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}...` : key);
}

/** ES2024 `String#isWellFormed`, in V8 since Node 20 (our lib setting is ES2022). */
type WellFormedCheck = { isWellFormed(): boolean };

/** Keys that passed {@link checkKey}, by a hash of length and first char; keys up to this long are kept. */
const checkedKeys: string[] = new Array<string>(256).fill('');
const CHECKED_KEY_MAX_LENGTH = 64;

/**
 * Refuses a map key that Svc data cannot hold: Svc data holds well-formed Unicode only, so no lone UTF-16
 * surrogate (PSON would write it as `?`, and two keys could merge), and no U+0000 (PSON keys are
 * NUL-terminated, so every PSON reply holding the map would fail).
 *
 * Why the cache: the same few keys come back insertion after insertion, and a hit (a pointer compare for
 * literal keys, ~8 ns) spares the two native calls (~35 ns), more than half the cost of a `put`
 * (bench/templates.bench.ts: 4 puts take ~290 ns). `put` skips the check for a key already in the store.
 */
export function checkKey(key: string): void {
  // charCodeAt(0) of '' is NaN, and NaN & 255 is 0; '' fills the cache and is a valid key
  const slot = (key.length * 31 + key.charCodeAt(0)) & 255;
  if (checkedKeys[slot] === key) return;
  if (key.indexOf('\u0000') !== -1) {
    throw new IllegalDataValueException(
      `DataMap key ${showKey(key)} holds U+0000, which Svc data does not allow in keys (PSON keys are NUL-terminated)`,
    );
  }
  if (!(key as unknown as WellFormedCheck).isWellFormed()) {
    throw new IllegalDataValueException(
      `DataMap key ${showKey(key)} holds a lone UTF-16 surrogate: Svc data holds well-formed Unicode only`,
    );
  }
  if (key.length <= CHECKED_KEY_MAX_LENGTH) checkedKeys[slot] = key;
}

/**
 * Checks a value on its way into `container` at `slot` (a map key or a list index) and returns what its
 * store should hold (see internal.ts): a child container's store, raw `null` for Data.NULL, bigints inside
 * ±2^53 as numbers (so that every long has exactly one representation: number when exact, bigint
 * otherwise), other values as they are. The slot is named in messages only: building the text up front
 * cost a string per insertion, on the hot path of every response body (bench/resources.bench.ts).
 */
export function checkValue(container: Wrapper, value: unknown, slot: string | number): unknown {
  // `typeof value === ...` tests, not a `switch (typeof value)`: V8 compiles each test to a type check, and
  // the switch to a call that makes the type's name and string compares (~1 ns more per value, in-process;
  // ~0.3k instructions of the example's finder page, callgrind over HTTP)
  if (typeof value === 'string') {
    if (!(value as unknown as WellFormedCheck).isWellFormed()) {
      throw new IllegalDataValueException(
        `${describeSlot(slot)}: the string holds a lone UTF-16 surrogate; Svc data holds well-formed Unicode only`,
      );
    }
    return value;
  }
  if (typeof value === 'object') {
    if (value === null) {
      throw new IllegalDataValueException(
        `${describeSlot(slot)}: null is not data; use Data.NULL for a JSON null`,
      );
    }
    const kind = (value as { [KIND]?: number })[KIND];
    if (kind === undefined) {
      throw new IllegalDataValueException(
        `${describeSlot(slot)}: a plain ${Array.isArray(value) ? 'array' : 'object'} is not data; use DataList/DataMap (or Data.fromJS)`,
      );
    }
    if (kind === KIND_NULL) return null;
    if (kind === KIND_MAP || kind === KIND_LIST) {
      const child = value as Wrapper;
      // a container inserted before is linked already (INSERTED is only ever set with the link): skip
      // reading its store's back-reference, a megamorphic load when entities of many shapes are reused
      // across responses (bench/resources.bench.ts)
      const linked = child[INSERTED];
      checkNoCycle(container, child, slot);
      if (!linked) linkWrapper(value as DataMap | DataList);
      return child[STORE];
    }
    return value;
  }
  if (typeof value === 'number') {
    // NaN and ±Infinity are data (JSON writes them as strings, PSON as doubles; see non-finite.ts)
    if (value - value !== 0) noteNonFinite();
    return value;
  }
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') {
    if (value >= SAFE_MIN && value <= SAFE_MAX) return Number(value);
    if (value < LONG_MIN || value > LONG_MAX) {
      throw new IllegalDataValueException(`${describeSlot(slot)}: ${value} is outside the 64-bit long range`);
    }
    return value;
  }
  throw new IllegalDataValueException(`${describeSlot(slot)}: a value of type ${typeof value} is not data`);
}

/** A parent that no container holds and that nothing reaches: what {@link checkValueForFreshStore} checks against. */
const FRESH_PARENT: Wrapper = { [STORE]: {}, [INSERTED]: false };

/**
 * What a fresh raw store (one that no container holds and no wrapper owns yet) should hold for `value` at
 * `slot`: {@link checkValue} for a parent nothing can reach, so no insertion can make a cycle. For code that
 * builds a store graph and adopts its root afterwards (as the decoders and the URI parser do) while putting
 * existing containers into it: they are marked inserted and linked, as `set` would. Keys are the caller's to
 * check ({@link checkKey}).
 */
export function checkValueForFreshStore(value: unknown, slot: string | number): unknown {
  return checkValue(FRESH_PARENT, value, slot);
}

/**
 * {@link checkValueForFreshStore} of a value known to be a DataMap or DataList (a finder page's elements):
 * marked inserted and linked, its store returned, without the type tests of {@link checkValue} (~50
 * instructions an element, callgrind over HTTP, the example's finder page of 10).
 */
export function containerForFreshStore(value: DataMap | DataList): Store | unknown[] {
  const child = value as unknown as Wrapper;
  // a fresh parent is in no graph, so nothing below `child` can be it (checkNoCycle's cheap case)
  if (!child[INSERTED]) {
    child[INSERTED] = true;
    linkWrapper(value);
  }
  return child[STORE];
}

/**
 * Refuses to insert `child` into `parent` when that would make a cycle, i.e. when `parent` is `child` or is
 * reachable from it.
 *
 * Why it is cheap: a container that was never inserted anywhere has no ancestors, so nothing below `child`
 * can be it. That covers the common bottom-up construction in O(1); only a parent that already sits inside
 * a graph pays for a walk of `child`'s subtree.
 */
function checkNoCycle(parent: Wrapper, child: Wrapper, slot: string | number): void {
  if (child === parent || (parent[INSERTED] && reaches(child[STORE], parent[STORE]))) {
    throw new IllegalDataValueException(
      `${describeSlot(slot)}: inserting this container would make the data graph cyclic`,
      'SVC_ERR_DATA_CYCLE',
    );
  }
  child[INSERTED] = true;
}

function reaches(from: Store | unknown[], target: object): boolean {
  const stack: Array<Store | unknown[]> = [from];
  let seen: Set<object> | null = null;
  while (stack.length > 0) {
    const node = stack.pop()!;
    const values: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const v of values) {
      if (typeof v !== 'object' || v === null || (v as { [KIND]?: number })[KIND] !== undefined) continue;
      if (v === target) return true;
      seen ??= new Set();
      if (!seen.has(v)) {
        seen.add(v);
        stack.push(v as Store | unknown[]);
      }
    }
  }
  return false;
}
