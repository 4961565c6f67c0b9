/**
 * How validation treats a required field (one not declared `optional`) that is absent from a record's
 * DataMap. The default is {@link RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT}.
 *
 * | mode | an absent required field... |
 * |---|---|
 * | `IGNORE` | is never an error |
 * | `MUST_BE_PRESENT` | is an error, even when the field has a default |
 * | `CAN_BE_ABSENT_IF_HAS_DEFAULT` | is an error only when the field has no default; nothing is modified |
 * | `FIXUP_ABSENT_WITH_DEFAULT` | gets a read-only copy of its default; an error when there is no default, or when the map is read-only (then `hasFixupReadOnlyError`) |
 *
 * Note on "fix-up not enabled" (the brief's table): old Rest.li had a separate fix-up switch; today
 * `FIXUP_ABSENT_WITH_DEFAULT` itself enables this fix-up, whatever the {@link CoercionMode} (as in the
 * reference, whose options say "fix-up can occur if the coercion mode is not OFF or the required mode is
 * FIXUP_ABSENT_WITH_DEFAULT"). So the only ways this mode fails are a missing default and a read-only map.
 *
 * Optional fields are never an error when absent, in any mode.
 */
export const RequiredMode = {
  IGNORE: 'IGNORE',
  MUST_BE_PRESENT: 'MUST_BE_PRESENT',
  CAN_BE_ABSENT_IF_HAS_DEFAULT: 'CAN_BE_ABSENT_IF_HAS_DEFAULT',
  FIXUP_ABSENT_WITH_DEFAULT: 'FIXUP_ABSENT_WITH_DEFAULT',
} as const;

export type RequiredMode = (typeof RequiredMode)[keyof typeof RequiredMode];

/** The modes in declaration order. */
export const REQUIRED_MODES: readonly RequiredMode[] = /* @__PURE__ */ Object.values(RequiredMode);
