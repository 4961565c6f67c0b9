import { KIND, KIND_NULL } from './internal';

/** The type of {@link Data.NULL}: the one value that stands for a JSON `null`. */
export class DataNull {
  declare readonly [KIND]: number;
  /** Only one instance exists: `Data.NULL`. */
  private constructor() {}
  static readonly INSTANCE: DataNull = Object.freeze(new DataNull());
  equals(other: unknown): boolean {
    return other === this;
  }
  toString(): string {
    return 'null';
  }
  /** Lets `JSON.stringify` write it as `null`. */
  toJSON(): null {
    return null;
  }
}
Object.defineProperty(DataNull.prototype, KIND, { value: KIND_NULL });

/** The constant that stands for a JSON `null` in data. `null` and `undefined` themselves are not data. */
export const NULL: DataNull = DataNull.INSTANCE;
