import { linkWrapper } from './adopt';
import type { DataList } from './data-list';
import type { DataMap } from './data-map';
import { IllegalDataValueException } from './errors';
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

/**
 * Checks a value on its way into `container` at `slot` (a map key or a list index) and returns what its
 * store should hold (see internal.ts): a child container's store, raw `null` for Data.NULL, bigints inside
 * ±2^53 as numbers (so that every long has exactly one representation: number when exact, bigint
 * otherwise), other values as they are. The slot is named in messages only: building the text up front
 * cost a string per insertion, on the hot path of every response body (bench/resources.bench.ts).
 */
export function checkValue(container: Wrapper, value: unknown, slot: string | number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (value !== value || value === Infinity || value === -Infinity) {
        throw new IllegalDataValueException(
          `${describeSlot(slot)}: ${value} is not data; NaN and Infinity have no JSON form, so the data layer refuses them`,
        );
      }
      return value;
    case 'bigint':
      if (value >= SAFE_MIN && value <= SAFE_MAX) return Number(value);
      if (value < LONG_MIN || value > LONG_MAX) {
        throw new IllegalDataValueException(
          `${describeSlot(slot)}: ${value} is outside the 64-bit long range`,
        );
      }
      return value;
    case 'object': {
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
    default:
      throw new IllegalDataValueException(
        `${describeSlot(slot)}: a value of type ${typeof value} is not data`,
      );
  }
}

/** A parent that no container holds and that nothing reaches: what {@link checkValueForFreshStore} checks against. */
const FRESH_PARENT: Wrapper = { [STORE]: {}, [INSERTED]: false };

/**
 * What a fresh raw store (one that no container holds and no wrapper owns yet) should hold for `value` at
 * `slot`: {@link checkValue} for a parent nothing can reach, so no insertion can make a cycle. For code that
 * builds a store graph and adopts its root afterwards (as the decoders and the URI parser do) while putting
 * existing containers into it: they are marked inserted and linked, as `set` would.
 */
export function checkValueForFreshStore(value: unknown, slot: string | number): unknown {
  return checkValue(FRESH_PARENT, value, slot);
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
