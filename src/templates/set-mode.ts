/**
 * What a typed setter does when the value is `null` or `undefined` (brief, "Record class"); a non-null value
 * is always set.
 *
 * | mode | effect of a null value |
 * |---|---|
 * | `IGNORE_NULL` | nothing changes |
 * | `REMOVE_IF_NULL` | the field is removed, optional or not |
 * | `REMOVE_OPTIONAL_IF_NULL` | an optional field is removed; a required one throws {@link IllegalArgumentException} |
 * | `DISALLOW_NULL` | throws {@link NullValueException} |
 *
 * `setX(value)` without a mode is `setX(value, SetMode.DISALLOW_NULL)`. Generated setters accept
 * `null | undefined` only in the overload whose modes allow it, so most misuse is a type error.
 */
export enum SetMode {
  IGNORE_NULL = 'IGNORE_NULL',
  REMOVE_IF_NULL = 'REMOVE_IF_NULL',
  REMOVE_OPTIONAL_IF_NULL = 'REMOVE_OPTIONAL_IF_NULL',
  DISALLOW_NULL = 'DISALLOW_NULL',
}
