import type { CompatClass } from './resource-compat';

/**
 * Rest.li's `CompatibilityLevel`: how strict a release gate is. In order of strictness:
 *
 * - `off`: do not check at all.
 * - `ignore`: check and report, never fail.
 * - `wire-compatible`: fail on breaking changes only (wire-compatible ones, such as an added enum symbol,
 *   pass: old bindings may need new code, old wire data still works).
 * - `backwards` (the default): fail on breaking and wire-compatible changes; compatible ones pass.
 * - `equivalent`: fail on any change, even compatible ones.
 */
export type CompatLevel = 'off' | 'ignore' | 'wire-compatible' | 'backwards' | 'equivalent';

/** The levels, least strict first (Rest.li's order). */
export const COMPAT_LEVELS: readonly CompatLevel[] = [
  'off',
  'ignore',
  'wire-compatible',
  'backwards',
  'equivalent',
];

/** The default level, as Rest.li's. */
export const DEFAULT_COMPAT_LEVEL: CompatLevel = 'backwards';

/** The level named by `text`, in any case, `_` or `-` alike; undefined when there is none. */
export function parseCompatLevel(text: string): CompatLevel | undefined {
  const wanted = text.toLowerCase().replace(/_/g, '-');
  return COMPAT_LEVELS.find((l) => l === wanted);
}

/** The least strict level at which a change of this class fails the check. */
const FAILS_FROM: Readonly<Record<CompatClass, CompatLevel>> = {
  breaking: 'wire-compatible',
  'wire-compatible': 'backwards',
  compatible: 'equivalent',
};

/** True when a change of class `cls` fails a check at `level`. */
export function failsAt(cls: CompatClass, level: CompatLevel): boolean {
  return COMPAT_LEVELS.indexOf(level) >= COMPAT_LEVELS.indexOf(FAILS_FROM[cls]);
}

/** How many of `changes` fail a check at `level` (0 means the check passes). */
export function failingCount(
  changes: readonly { readonly class: CompatClass }[],
  level: CompatLevel,
): number {
  return changes.filter((c) => failsAt(c.class, level)).length;
}

/** Exit codes of `svc compat`. */
export const COMPAT_EXIT = {
  /** The check passed at the level (or the level is `off` / `ignore`). */
  OK: 0,
  /** Changes were found that the level does not allow. */
  FAILED: 1,
  /** Usage error, or an input that cannot be read or is malformed. */
  INPUT: 2,
} as const;

/** The exit code for these changes at this level (inputs were readable). */
export function compatExitCode(
  changes: readonly { readonly class: CompatClass }[],
  level: CompatLevel,
): number {
  return failingCount(changes, level) > 0 ? COMPAT_EXIT.FAILED : COMPAT_EXIT.OK;
}
