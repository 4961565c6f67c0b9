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

/** True when some number in the graph below `root` (a store) is NaN or ±Infinity. Iterative: any depth. */
export function holdsNonFinite(root: Store | unknown[]): boolean {
  const stack: Array<Store | unknown[]> = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const values: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'number') {
        if (v - v !== 0) return true;
      } else if (typeof v === 'object' && v !== null) {
        const kind = (v as { [KIND]?: number })[KIND];
        if (kind === undefined) stack.push(v as Store | unknown[]);
        else if (kind === KIND_MAP || kind === KIND_LIST)
          stack.push((v as { [STORE]: Store | unknown[] })[STORE]);
      }
    }
  }
  return false;
}
