/**
 * Whether and how validation converts a primitive value to the form its schema type stores. The default is
 * {@link CoercionMode.NORMAL}. A conversion is a *fix*: see `ValidationResult.hasFix`.
 *
 * | mode | converts |
 * |---|---|
 * | `OFF` | nothing; a value not already in stored form is an error (`... is not backed by a Integer`) |
 * | `NORMAL` | any number to the schema's numeric type; the strings `"NaN"`, `"Infinity"`, `"-Infinity"` to those numbers for float and double; an Avro string (chars U+0000..U+00FF) to a ByteString for bytes and fixed |
 * | `STRING_TO_PRIMITIVE` | as NORMAL, plus decimal strings to numbers and `"true"`/`"false"` (any case) to booleans |
 *
 * What "the schema's numeric type" means with Svc's number representation (one JS `number`, plus `bigint`
 * for longs beyond ±2^53):
 * - int: an integral number in the int32 range is valid as is; a fractional number is truncated toward
 *   zero (as Java's double→int). A value outside the int32 range after truncation is an error, not wrapped or
 *   clamped: Java would wrap a Long and saturate a Double, and we cannot tell the two apart, so we refuse
 *   the precision loss loudly (STYLE.md).
 * - long: a safe integer number, or a bigint within the 64-bit range, is valid as is; a fractional number
 *   is truncated; an integral number beyond ±2^53 (a double such as 1e17) becomes the exact bigint; beyond
 *   the 64-bit range is an error. A coerced long is stored marked long, so PSON writes it with the long
 *   marker as the reference writes the `Long` it coerces to (src/data/long-marks.ts).
 * - float and double: any number is valid as is, NaN and ±Infinity included (JS has no 32-bit float;
 *   rounding a double to float precision would only add digits to the JSON); a bigint becomes a number. A
 *   finite float that does not round to a finite float32 (beyond ±3.4028235e38) is an error: Java would make
 *   it Infinity, a loss we refuse loudly (STYLE.md).
 * - NaN and ±Infinity: JSON writes them as the strings "NaN", "Infinity" and "-Infinity" (as Rest.li's
 *   Jackson codec does), so NORMAL and STRING_TO_PRIMITIVE turn exactly those three strings into the numbers
 *   for float and double, as the reference does (`ValidateDataAgainstSchema.fixupPrimitive` →
 *   `DataTemplateUtil.coerceFloatOutput`, whose coercer accepts those three strings and no other). Under
 *   STRING_TO_PRIMITIVE the reference reads any string with `Float.valueOf`, which also takes `+Infinity` or
 *   `-NaN`; we take the three spellings our writer and Jackson produce, and no others.
 * - STRING_TO_PRIMITIVE parses decimal text (`[+-]digits[.digits][e[+-]digits]`, as Java's BigDecimal
 *   does): no spaces, no hex. For int and long the integer part is taken exactly (a long string beyond 2^53
 *   becomes an exact bigint); for float and double the nearest number (a double beyond the double range is
 *   ±Infinity, as with `Double.valueOf`).
 *
 * Enums, strings, arrays, maps, records and unions are never coerced.
 */
export const CoercionMode = {
  OFF: 'OFF',
  NORMAL: 'NORMAL',
  STRING_TO_PRIMITIVE: 'STRING_TO_PRIMITIVE',
} as const;

export type CoercionMode = (typeof CoercionMode)[keyof typeof CoercionMode];

/** The modes in declaration order. */
export const COERCION_MODES: readonly CoercionMode[] = /* @__PURE__ */ Object.values(CoercionMode);
