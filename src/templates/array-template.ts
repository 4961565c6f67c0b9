/**
 * Base classes of array classes (brief, "Type mapping"): {@link DirectArrayTemplate} for unwrapped items
 * (int, long, float, double, boolean, string, bytes, enum, custom classes) and {@link WrappingArrayTemplate}
 * for items that are templates themselves (array, map, fixed, record, error, union). Both wrap a live
 * DataList and convert items on the way in and out with the item {@link Coercer}: what goes in is checked
 * (exact or coercible values, else ClassCastException), what comes out is cast (else
 * TemplateOutputCastException).
 *
 * They behave like a JS array where it matters (`length`, `at`, `push`, `pop`, iteration, `map`/`filter`...)
 * and like Java's List where the brief asks (`get`, `set`, `insert`, `removeAt`, `indexOf` by data equality).
 * There is no `arr[i]` indexing: that would need a Proxy on every array, which costs every access.
 */
import { DataList } from '../data/data-list';
import { ClassCastException } from '../data/errors';
import type { ArrayDataSchema } from '../schema/array-schema';
import { describeValue, type Coercer } from './coercers';
import { TemplateOutputCastException } from './errors';
import { DATA, ITEMS } from './internal';

/** What an array class is constructed from: a DataList to wrap (not copied), items to add, or a capacity hint. */
export type ArrayInit<E> = DataList | Iterable<E> | number;

/**
 * @example
 * ```ts
 * const tags = new StringArray(['a', 'b']);
 * tags.push('c');            // 3
 * tags.get(0);               // 'a'
 * [...tags];                 // ['a', 'b', 'c']
 * tags.data();               // the live DataList
 * new IntegerArray([1.5]);   // ClassCastException: not an int
 * ```
 */
export abstract class ArrayTemplate<E> implements Iterable<E> {
  /** @internal */
  declare readonly [DATA]: DataList;
  /** @internal */
  declare readonly [ITEMS]: Coercer<E>;

  protected constructor(init: ArrayInit<E> | undefined, items: Coercer<E>) {
    this[ITEMS] = items;
    if (init instanceof DataList) {
      this[DATA] = init;
    } else if (init === undefined || typeof init === 'number') {
      this[DATA] = new DataList();
    } else if (typeof (init as Partial<Iterable<E>>)[Symbol.iterator] === 'function') {
      this[DATA] = new DataList();
      for (const item of init) this[DATA].add(items.toData(item));
    } else {
      throw new TemplateOutputCastException(
        `${new.target.name} wraps a DataList, not ${describeValue(init)}`,
      );
    }
  }

  /** The array schema of the class. */
  abstract schema(): ArrayDataSchema;

  /** The wrapped DataList (live, not a copy). */
  data(): DataList {
    return this[DATA];
  }

  /** Number of items. */
  get length(): number {
    return this[DATA].size;
  }

  /** Number of items (Java's `size()`). */
  size(): number {
    return this[DATA].size;
  }

  isEmpty(): boolean {
    return this[DATA].size === 0;
  }

  /** The item at `index`; IndexOutOfBoundsException outside `[0, length)`. */
  get(index: number): E {
    return this[ITEMS].fromData(this[DATA].get(index));
  }

  /** The item at `index`, counting from the end when negative; undefined outside the array. */
  at(index: number): E | undefined {
    const n = this[DATA].size;
    const i = Math.trunc(index) < 0 ? Math.trunc(index) + n : Math.trunc(index);
    return i >= 0 && i < n ? this.get(i) : undefined;
  }

  /** Replaces the item at `index`; returns this array. */
  set(index: number, value: E): this {
    this[DATA].set(index, this[ITEMS].toData(value));
    return this;
  }

  /** Appends the values (all are checked before any is added); returns the new length. */
  push(...values: E[]): number {
    const items = this[ITEMS];
    const data = values.map((v) => items.toData(v));
    for (const d of data) this[DATA].add(d);
    return this[DATA].size;
  }

  /** Appends `value`; returns this array (Java's `add`). */
  add(value: E): this {
    this[DATA].add(this[ITEMS].toData(value));
    return this;
  }

  /** Inserts `value` at `index` (0..length), shifting later items; returns this array. */
  insert(index: number, value: E): this {
    this[DATA].addAt(index, this[ITEMS].toData(value));
    return this;
  }

  /** Removes and returns the last item, or undefined when empty. */
  pop(): E | undefined {
    const n = this[DATA].size;
    return n === 0 ? undefined : this[ITEMS].fromData(this[DATA].removeAt(n - 1));
  }

  /** Removes and returns the item at `index`. */
  removeAt(index: number): E {
    return this[ITEMS].fromData(this[DATA].removeAt(index));
  }

  clear(): void {
    this[DATA].clear();
  }

  /** Index of the first item whose data equals `value`'s, or -1 (also for a value of another type). */
  indexOf(value: E): number {
    let data;
    try {
      data = this[ITEMS].toData(value);
    } catch (err) {
      if (err instanceof ClassCastException) return -1;
      throw err;
    }
    return this[DATA].indexOf(data);
  }

  includes(value: E): boolean {
    return this.indexOf(value) >= 0;
  }

  *[Symbol.iterator](): IterableIterator<E> {
    const list = this[DATA];
    const items = this[ITEMS];
    for (let i = 0; i < list.size; i++) yield items.fromData(list.get(i));
  }

  values(): IterableIterator<E> {
    return this[Symbol.iterator]();
  }

  *keys(): IterableIterator<number> {
    for (let i = 0; i < this[DATA].size; i++) yield i;
  }

  *entries(): IterableIterator<[number, E]> {
    let i = 0;
    for (const v of this) yield [i++, v];
  }

  forEach(fn: (value: E, index: number, array: this) => void): void {
    let i = 0;
    for (const v of this) fn(v, i++, this);
  }

  map<U>(fn: (value: E, index: number, array: this) => U): U[] {
    const out: U[] = [];
    let i = 0;
    for (const v of this) out.push(fn(v, i++, this));
    return out;
  }

  filter(fn: (value: E, index: number, array: this) => boolean): E[] {
    const out: E[] = [];
    let i = 0;
    for (const v of this) if (fn(v, i++, this)) out.push(v);
    return out;
  }

  find(fn: (value: E, index: number, array: this) => boolean): E | undefined {
    let i = 0;
    for (const v of this) if (fn(v, i++, this)) return v;
    return undefined;
  }

  findIndex(fn: (value: E, index: number, array: this) => boolean): number {
    let i = 0;
    for (const v of this) {
      if (fn(v, i, this)) return i;
      i++;
    }
    return -1;
  }

  some(fn: (value: E, index: number, array: this) => boolean): boolean {
    return this.findIndex(fn) >= 0;
  }

  every(fn: (value: E, index: number, array: this) => boolean): boolean {
    return this.findIndex((v, i, a) => !fn(v, i, a)) < 0;
  }

  /** A new JS array of the items. */
  toArray(): E[] {
    return [...this];
  }

  /** An array of the same class over a shallow clone of the data. */
  clone(): this {
    const C = this.constructor as new (data: DataList) => this;
    return new C(this[DATA].clone());
  }

  /** An array of the same class over a deep copy of the data. */
  copy(): this {
    const C = this.constructor as new (data: DataList) => this;
    return new C(this[DATA].copy());
  }

  /** True for an array template whose data is equal. */
  equals(other: unknown): boolean {
    return other instanceof ArrayTemplate && other[DATA].equals(this[DATA]);
  }

  /** The JSON text of the data. */
  toString(): string {
    return this[DATA].toString();
  }
}

/** Arrays of unwrapped items: int, long, float, double, boolean, string, bytes, enums, custom classes. */
export abstract class DirectArrayTemplate<E> extends ArrayTemplate<E> {}

/** Arrays of templates: arrays, maps, fixed, records, errors, unions. */
export abstract class WrappingArrayTemplate<E> extends ArrayTemplate<E> {}
