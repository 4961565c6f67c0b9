/**
 * Where the generated check failed, for the diagnostic path (validate.ts) to start there.
 *
 * The locating check (check-codegen.ts `generateLocating`) does not stop at the first value it refuses: it
 * records that value here and goes on with the siblings, and stops at a second one. So when it says false
 * for a root value, {@link LOCATED} tells either that exactly one value in the whole tree was refused
 * "locally" (its own shape, a missing field, its key count, its depth: not because of a value below it),
 * with its path and what holds it, or that there were more. In the first case the messages are exactly
 * those of that value's own diagnostic `fix` at that path: every other value passed its check, and the
 * diagnostic path only descends into values whose check fails (compile-validator.ts). So validate.ts calls
 * that one `fix` instead of walking down from the root, which re-checked every field of every record on the
 * way (a second and third pass over most of the record). With two or more, it walks from the root as before.
 *
 * Recording costs nothing on valid data: the locating check does the same work as the fast one and only
 * writes here on failure, and `validate` resets one counter per call. The path is built on the way back up
 * (innermost component first), only for the first refused value.
 */

/** The state one generated check call leaves (one instance, {@link LOCATED}; validation is synchronous). */
export class LocatedFailure {
  /** Values refused so far in this check: 0, 1, or 2 (the check stops at the second). */
  n = 0;
  /** The refused value, raw (a store, a primitive) as the check read it. */
  value: unknown = undefined;
  /** Its compiled node (a `Node` of compile-validator.ts, typed loosely to keep this module below it). */
  node: unknown = undefined;
  /** The store holding it (a record's, a map's, a union's, a list's), or null where the check did not see one. */
  parent: unknown = null;
  /** Its key in {@link parent}: a field name, map key, union member key or list index. */
  key: string | number | null = null;
  /** How a read-only {@link parent} is named in a message: the record's member key, `map`, `union`; null for a list. */
  parentKey: string | null = null;
  /**
   * The path from the root to the value, innermost component first, in the first {@link depth} entries. One
   * array reused from check to check: a fresh one per failure and its growth were two allocations of a
   * failed validation (bench/validation.bench.ts, "invalid 1KB").
   */
  readonly comps: Array<string | number> = [];
  /** How many entries of {@link comps} are the path. */
  depth = 0;

  /**
   * Called by generated code where a value is refused: true when this is the second one (the check gives up
   * there); otherwise records it and starts a fresh path, which the callers then extend.
   */
  fail(
    value: unknown,
    node: unknown,
    parent: unknown,
    key: string | number | null,
    parentKey: string | null,
  ): boolean {
    if (this.n++ !== 0) return true;
    this.value = value;
    this.node = node;
    this.parent = parent;
    this.key = key;
    this.parentKey = parentKey;
    this.depth = 0;
    return false;
  }

  /** Called by generated code on the way back up from the first refused value: one more path component. */
  up(component: string | number): void {
    this.comps[this.depth++] = component;
  }

  /** The path from the root, outer component first (a new array). */
  path(): Array<string | number> {
    const path: Array<string | number> = new Array<string | number>(this.depth);
    for (let i = 0, j = this.depth - 1; j >= 0; i++, j--) path[i] = this.comps[j]!;
    return path;
  }
}

/** The one instance every generated check writes to. */
export const LOCATED = new LocatedFailure();
