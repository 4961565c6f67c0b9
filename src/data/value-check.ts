import { IllegalDataValueException } from './errors';
import { INSERTED, KIND, KIND_LIST, KIND_MAP, LONG_MAX, LONG_MIN, SAFE_MAX, SAFE_MIN, STORE, isRawNode } from './internal';
import type { DataValue } from './data-value';

/**
 * Checks a value on its way into a container and returns the form to store: bigints inside ±2^53 become
 * numbers, so that every long has exactly one representation (number when exact, bigint otherwise).
 */
export function checkValue(container: object, value: unknown, where: string): DataValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (value !== value || value === Infinity || value === -Infinity) {
        throw new IllegalDataValueException(
          `${where}: ${value} is not data; NaN and Infinity have no JSON form, so the data layer refuses them`,
        );
      }
      return value;
    case 'bigint':
      if (value >= SAFE_MIN && value <= SAFE_MAX) return Number(value);
      if (value < LONG_MIN || value > LONG_MAX) {
        throw new IllegalDataValueException(`${where}: ${value} is outside the 64-bit long range`);
      }
      return value;
    case 'object': {
      if (value === null) {
        throw new IllegalDataValueException(`${where}: null is not data; use Data.NULL for a JSON null`);
      }
      const kind = (value as { [KIND]?: number })[KIND];
      if (kind === undefined) {
        throw new IllegalDataValueException(
          `${where}: a plain ${Array.isArray(value) ? 'array' : 'object'} is not data; use DataList/DataMap (or Data.fromJS)`,
        );
      }
      if (kind === KIND_MAP || kind === KIND_LIST) checkNoCycle(container, value, where);
      return value as DataValue;
    }
    default:
      throw new IllegalDataValueException(`${where}: a value of type ${typeof value} is not data`);
  }
}

interface Node {
  [STORE]: unknown;
  [INSERTED]: boolean;
  [KIND]: number;
}

/**
 * Refuses to insert `child` into `parent` when that would make a cycle, i.e. when `parent` is `child` or is
 * reachable from it.
 *
 * Why it is cheap: a container that was never inserted anywhere has no ancestors, so nothing below `child`
 * can be it. That covers the common bottom-up construction in O(1); only a parent that already sits inside
 * a graph pays for a walk of `child`'s subtree. Raw (not yet adopted) nodes hold no containers, so the walk
 * skips them.
 */
function checkNoCycle(parent: object, childValue: object, where: string): void {
  const child = childValue as Node;
  if (child === parent || ((parent as Node)[INSERTED] && reaches(child, parent))) {
    throw new IllegalDataValueException(`${where}: inserting this container would make the data graph cyclic`, 'SVC_ERR_DATA_CYCLE');
  }
  child[INSERTED] = true;
}

function reaches(from: Node, target: object): boolean {
  const stack: Node[] = [from];
  let seen: Set<Node> | null = null;
  while (stack.length > 0) {
    const node = stack.pop()!;
    const store = node[STORE];
    const values: unknown[] = node[KIND] === KIND_LIST ? (store as unknown[]) : Object.values(store as object);
    for (const v of values) {
      if (typeof v !== 'object' || v === null || isRawNode(v)) continue;
      const kind = (v as Node)[KIND];
      if (kind !== KIND_MAP && kind !== KIND_LIST) continue;
      if (v === target) return true;
      seen ??= new Set();
      if (!seen.has(v as Node)) {
        seen.add(v as Node);
        stack.push(v as Node);
      }
    }
  }
  return false;
}
