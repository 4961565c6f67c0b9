/**
 * How a typed getter treats an absent field (brief, "Record class").
 *
 * | mode | field present | field absent |
 * |---|---|---|
 * | `NULL` | the value | `undefined`, even when the field has a default |
 * | `DEFAULT` | the value | the default if any, else `undefined` |
 * | `STRICT` | the value | the default if any; else {@link RequiredFieldNotPresentException} for a required field, `undefined` for an optional one |
 *
 * `getX()` without a mode is `getX(GetMode.STRICT)`. Absent is `undefined` in TypeScript (Java's `null`).
 * A string enum, so that generated overloads can name single modes as types (`mode?: GetMode.STRICT`).
 */
export enum GetMode {
  NULL = 'NULL',
  DEFAULT = 'DEFAULT',
  STRICT = 'STRICT',
}
