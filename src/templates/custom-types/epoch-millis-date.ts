/**
 * The shipped example of a custom binding (brief, "Custom binding for primitive types"): a typeref of
 * `long` holding epoch milliseconds, bound to JavaScript's `Date`.
 *
 * ```json
 * { "type": "typeref", "name": "Timestamp", "ref": "long", "typescript": { "class": "Date" } }
 * ```
 *
 * makes generated getters return a `Date` and setters take one; the data stays a long. `Date` is mutable,
 * but the binding never shares one: the data holds the number, every getter returns a new `Date` and a
 * setter reads the time once, so changing a `Date` after the fact cannot change the data (the brief asks
 * for immutable classes because Java caches the custom objects it returns; Svc does not cache them).
 * `java: { class: "java.util.Date" }` maps to the same binding. Registered when the package is loaded.
 */
import type { DataPrimitive } from '../../data/data-value';
import { ClassCastException } from '../../data/errors';
import { registerCoercer, type DirectCoercer } from '../coercers';
import { TemplateOutputCastException } from '../errors';

/** The largest distance from the epoch a `Date` can hold, in ms (ECMAScript, 20.4.1.1). */
const MAX_DATE_MS = 8.64e15;

/** Epoch milliseconds (a long) to and from `Date`. */
export const EPOCH_MILLIS_DATE_COERCER: DirectCoercer<Date> = {
  coerceInput(value: Date): DataPrimitive {
    const ms = value.getTime();
    if (Number.isNaN(ms))
      throw new ClassCastException('An invalid Date cannot be stored as epoch milliseconds');
    return ms;
  },
  coerceOutput(data: DataPrimitive): Date {
    if (typeof data === 'number' && Math.abs(data) <= MAX_DATE_MS) return new Date(data);
    throw new TemplateOutputCastException(`${String(data)} is not epoch milliseconds a Date can hold`);
  },
};

registerCoercer(Date, EPOCH_MILLIS_DATE_COERCER);
