import type { DataValue } from '../../data';
import { messagesToString, type ValidationMessage } from './validation-message';
import { valueText } from './message-text';

const NO_MESSAGES: readonly ValidationMessage[] = Object.freeze([]);

/**
 * What {@link validate} found: whether the data is valid (after any fixes), which fixes were made or blocked,
 * the fixed data and the messages.
 *
 * Fixes: containers (DataMap, DataList) are fixed in place, so `getFixed()` is the very object passed in
 * whenever the root is a container; an immutable root value that needed a fix (a string coerced to a
 * ByteString, say) is replaced, and `getFixed()` returns the replacement.
 *
 * @example
 * ```ts
 * const result = validate(data, schema, { requiredMode: RequiredMode.FIXUP_ABSENT_WITH_DEFAULT });
 * if (!result.isValid()) throw new DataValidationError(result);
 * const fixed = result.getFixed();
 * ```
 */
export class ValidationResult {
  readonly #fixed: DataValue;
  readonly #valid: boolean;
  readonly #hasFix: boolean;
  readonly #hasFixupReadOnlyError: boolean;
  readonly #messages: readonly ValidationMessage[];

  /** @internal results are made by `validate` */
  constructor(
    fixed: DataValue,
    valid: boolean,
    hasFix: boolean,
    hasFixupReadOnlyError: boolean,
    messages: readonly ValidationMessage[] = NO_MESSAGES,
  ) {
    this.#fixed = fixed;
    this.#valid = valid;
    this.#hasFix = hasFix;
    this.#hasFixupReadOnlyError = hasFixupReadOnlyError;
    this.#messages = messages;
  }

  /**
   * True when at least one fix was proposed: a coercion, a default put into an absent required field.
   * A fix blocked by a read-only container counts too (see {@link hasFixupReadOnlyError}); trimming unknown
   * fields does not (as in the reference).
   */
  hasFix(): boolean {
    return this.#hasFix;
  }

  /**
   * True when a proposed fix (or a trim of an unrecognized field) could not be made because the container
   * is read-only; the data is then left as it was and is not valid. Implies {@link hasFix} for fixes.
   */
  hasFixupReadOnlyError(): boolean {
    return this.#hasFixupReadOnlyError;
  }

  /** The data after the fixes: the input itself for a container root, a replacement for a fixed primitive root. */
  getFixed(): DataValue {
    return this.#fixed;
  }

  /** True when the fixed data conforms to the schema (no error message). */
  isValid(): boolean {
    return this.#valid;
  }

  /** The messages, in the order they were found (child values before their record's missing fields). */
  getMessages(): readonly ValidationMessage[] {
    return this.#messages;
  }

  /** The messages one per line, each ending in `\n`; the empty string when there are none. */
  getMessage(): string {
    return messagesToString(this.#messages);
  }

  /** `hasFix=..., hasFixupReadOnlyError=..., valid=...`, then `fixed=<data>`, then the messages (the reference's format). */
  toString(): string {
    return (
      `hasFix=${this.#hasFix}, hasFixupReadOnlyError=${this.#hasFixupReadOnlyError}, valid=${this.#valid}\n` +
      `fixed=${valueText(this.#fixed)}\n${this.getMessage()}`
    );
  }
}
