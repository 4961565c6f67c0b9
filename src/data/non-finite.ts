/**
 * NaN and ±Infinity in data. The data layer holds them (a float or double field may be NaN, and a JSON body
 * may hold `1e400`, which is Infinity on both JSON paths), PSON carries them as doubles, and JSON writes them
 * as the strings "NaN", "Infinity" and "-Infinity", as the reference's Jackson codec does.
 *
 * Why a process-wide flag: the JSON encoder's fast path is `JSON.stringify`, which writes a non-finite number
 * as `null`, so it has to know when to look closer. Tracking that per graph would mean telling every
 * ancestor of an insertion, which stores cannot reach; instead, everything that puts a number into a store
 * notes a non-finite one here (`checkValue` on insertion, and the JSON and PSON decoders), and until one has
 * been seen the encoder pays nothing (bench/json-codec.bench.ts). Code that writes numbers into raw stores
 * without `checkValue` must call {@link noteNonFinite} for a non-finite one.
 */
import { KIND, KIND_LIST, KIND_MAP, STORE, type Store } from './internal';

/** `seen` turns true once any store may hold a non-finite number, and stays true. */
export const nonFinite = { seen: false };

export function noteNonFinite(): void {
  nonFinite.seen = true;
}

/**
 * True when some number in the graph below `root` (a store) is NaN or ±Infinity. Any depth: recursion for
 * the usual shallow graphs, an explicit stack below {@link RECURSION_LIMIT}.
 *
 * Why recursion and `for...in`: once a process has seen a non-finite number, every JSON encode whose text
 * holds `null` walks its graph. The walk over `Object.values` of each node took 25-40% of `JSON.stringify`
 * on the 1 MB document (bench/json-codec.bench.ts "encode bytes 1MB", built map: 0.74× of
 * `Buffer.from(JSON.stringify())` in a full bench run, where an earlier bench had noted a non-finite number);
 * this one allocates nothing, as the JSON fast path's walk (json-fast-path.ts), ~0.3 ms per MB.
 */
export function holdsNonFinite(root: Store | unknown[]): boolean {
  return visit(root, 1);
}

/** Depth handled by recursion in {@link visit}; deeper subtrees go to {@link visitDeep}. */
const RECURSION_LIMIT = 200;

function visit(node: Store | unknown[], depth: number): boolean {
  if (depth > RECURSION_LIMIT) return visitDeep(node);
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v === 'number') {
        if (v - v !== 0) return true;
      } else if (typeof v === 'object' && v !== null) {
        const child = childStore(v);
        if (child !== undefined && visit(child, depth + 1)) return true;
      }
    }
  } else {
    for (const k in node) {
      const v: unknown = node[k];
      if (typeof v === 'number') {
        if (v - v !== 0) return true;
      } else if (typeof v === 'object' && v !== null) {
        const child = childStore(v);
        if (child !== undefined && visit(child, depth + 1)) return true;
      }
    }
  }
  return false;
}

/** The store to walk below an object found in a store: a raw store, a container's store; else undefined. */
function childStore(v: object): Store | unknown[] | undefined {
  const kind = (v as { [KIND]?: number })[KIND];
  if (kind === undefined) return v as Store | unknown[];
  if (kind === KIND_MAP || kind === KIND_LIST) return (v as { [STORE]: Store | unknown[] })[STORE];
  return undefined;
}

/** {@link visit} with an explicit stack, for subtrees deeper than {@link RECURSION_LIMIT}. */
function visitDeep(root: Store | unknown[]): boolean {
  const stack: Array<Store | unknown[]> = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const values: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'number') {
        if (v - v !== 0) return true;
      } else if (typeof v === 'object' && v !== null) {
        const child = childStore(v);
        if (child !== undefined) stack.push(child);
      }
    }
  }
  return false;
}
