/**
 * What validation does with a DataMap key that its record schema does not declare. The default is
 * {@link UnrecognizedFieldMode.IGNORE}: unknown fields pass through untouched (schema evolution, brief "Data
 * layers" 9), and their values are not looked at.
 *
 * | mode | an unknown field... |
 * |---|---|
 * | `IGNORE` | passes through untouched |
 * | `DISALLOW` | is an error: `unrecognized field found but not allowed` |
 * | `TRIM` | is removed once validation is done (not counted by `hasFix`, as in the reference); in a read-only map it stays, and the result is invalid with `hasFixupReadOnlyError` |
 *
 * Only record fields are concerned; the keys of a union's DataMap are checked as member keys instead.
 */
export const UnrecognizedFieldMode = {
  IGNORE: 'IGNORE',
  DISALLOW: 'DISALLOW',
  TRIM: 'TRIM',
} as const;

export type UnrecognizedFieldMode = (typeof UnrecognizedFieldMode)[keyof typeof UnrecognizedFieldMode];

/** The modes in declaration order. */
export const UNRECOGNIZED_FIELD_MODES: readonly UnrecognizedFieldMode[] =
  Object.values(UnrecognizedFieldMode);
