/**
 * Base class of generated error classes: a record that is a real `Error` (brief: "error: a record that may
 * be thrown and caught in the binding"). It cannot extend {@link RecordTemplate} (a class has one base), so
 * it repeats the few record methods; field accessors use the same {@link FieldDef}s as records.
 */
import type { DataMap } from '../data/data-map';
import type { RecordDataSchema } from '../schema/record-schema';
import { DATA } from './internal';
import { recordData, type RecordLike } from './record-template';

/**
 * @example
 * ```ts
 * try {
 *   throw new PhotoNotFoundError().setCode(404).setMessage('no photo 7').setPhotoId(7);
 * } catch (err) {
 *   if (err instanceof PhotoNotFoundError) err.getPhotoId(); // 7
 *   (err as Error).message;                                  // 'no photo 7'
 * }
 * ```
 */
export abstract class ErrorTemplate extends Error implements RecordLike {
  /** @internal */
  declare readonly [DATA]: DataMap;

  /** Wraps `data` (not copied), or a new empty map. */
  constructor(data?: DataMap) {
    super();
    this[DATA] = recordData(data, new.target);
    this.name = new.target.name;
    // `message` follows the data: the record's `message` field when it has a string one, else its JSON text
    Object.defineProperty(this, 'message', {
      get: (): string => {
        const m = this[DATA].get('message');
        return typeof m === 'string' ? m : this[DATA].toString();
      },
      enumerable: false,
      configurable: true,
    });
  }

  /** The record schema (of record type `error`). */
  abstract schema(): RecordDataSchema;

  /** The wrapped DataMap (live, not a copy). */
  data(): DataMap {
    return this[DATA];
  }

  /** An error of the same class over a shallow clone of the data. */
  clone(): this {
    const C = this.constructor as new (data: DataMap) => this;
    return new C(this[DATA].clone());
  }

  /** An error of the same class over a deep copy of the data. */
  copy(): this {
    const C = this.constructor as new (data: DataMap) => this;
    return new C(this[DATA].copy());
  }

  /** True for an error template whose data is equal. */
  equals(other: unknown): boolean {
    return other instanceof ErrorTemplate && other[DATA].equals(this[DATA]);
  }

  /** `Name: message`, as for any Error. The data's JSON text is `data().toString()`. */
  override toString(): string {
    return `${this.name}: ${this.message}`;
  }
}
