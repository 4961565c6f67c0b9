import type { DataValue } from './data-value';
import { IndexOutOfBoundsException, UnsupportedOperationException } from './errors';
import {
  clearInstrumented,
  collectInstrumented,
  copyGraph,
  deepEquals,
  makeGraphReadOnly,
  setInstrumenting,
  type InstrumentedEntry,
} from './graph';
import {
  ACCESS,
  INSERTED,
  INSTRUMENTING,
  KIND,
  KIND_LIST,
  LONGS,
  MADE_READ_ONLY,
  READ_ONLY,
  STORE,
  adoption,
} from './internal';
import { toValue } from './data-map';
import {
  adoptedLongs,
  copyOfLongs,
  markListLong as markListLongImported,
  type ListLongs,
} from './long-marks';
import { checkValue } from './value-check';
import { writeJson } from './codecs/json-writer';
import { ReadonlyCollectionView } from './views';

// Local aliases: an imported binding is a getter call on the module object under swc (hot paths).
const markListLong = markListLongImported;

/**
 * A JSON array of {@link DataValue}s, schema-unaware. Values are checked on insertion like
 * {@link DataMap}'s; a read-only list throws {@link UnsupportedOperationException} on mutation.
 */
export class DataList implements Iterable<DataValue> {
  declare readonly [KIND]: number;
  /** @internal */ declare readonly [STORE]: unknown[];
  /** @internal */ declare [READ_ONLY]: boolean;
  /** @internal */ declare [MADE_READ_ONLY]: boolean;
  /** @internal */ declare [INSERTED]: boolean;
  /** @internal */ declare [INSTRUMENTING]: boolean;
  /** @internal */ declare [ACCESS]: number[] | null;
  /** @internal */ declare [LONGS]: ListLongs | null;

  constructor(init?: Iterable<DataValue>) {
    const adopted = adoption.store as unknown[] | undefined;
    adoption.store = undefined;
    this[STORE] = adopted ?? [];
    // a decoded or copied store may come with long marks (long-marks.ts)
    this[LONGS] = adopted === undefined ? null : adoptedLongs<ListLongs>(adopted);
    this[READ_ONLY] = false;
    this[MADE_READ_ONLY] = false;
    this[INSERTED] = false;
    this[INSTRUMENTING] = false;
    this[ACCESS] = null;
    if (init !== undefined) this.addAll(init);
  }

  get size(): number {
    return this[STORE].length;
  }

  isEmpty(): boolean {
    return this[STORE].length === 0;
  }

  /** The element at `index`; {@link IndexOutOfBoundsException} outside `[0, size)`. */
  get(index: number): DataValue {
    this.checkIndex(index, this[STORE].length);
    if (this[INSTRUMENTING]) {
      const counts = (this[ACCESS] ??= []);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    return this.peek(index);
  }

  /** Replaces the element at `index`; returns the previous one. */
  set(index: number, value: DataValue): DataValue {
    this.checkMutable();
    this.checkIndex(index, this[STORE].length);
    const checked = checkValue(this, value, index);
    const previous = this.peek(index);
    this[STORE][index] = checked;
    // a bigint is a long whatever its size: PSON writes the long marker for it (long-marks.ts)
    if (typeof value === 'bigint') markListLong(this, index);
    else if (this[LONGS] !== null && index < this[LONGS].length) this[LONGS][index] = false;
    return previous;
  }

  /** Appends `value`; returns this list for chaining. */
  add(value: DataValue): this {
    this.checkMutable();
    const store = this[STORE];
    store.push(checkValue(this, value, store.length));
    if (typeof value === 'bigint') markListLong(this, store.length - 1);
    return this;
  }

  /** Inserts `value` at `index` (0..size), shifting later elements. */
  addAt(index: number, value: DataValue): this {
    this.checkMutable();
    this.checkIndex(index, this[STORE].length + 1);
    this[STORE].splice(index, 0, checkValue(this, value, index));
    const marks = this[LONGS];
    if (marks !== null && index < marks.length) marks.splice(index, 0, false);
    if (typeof value === 'bigint') markListLong(this, index);
    return this;
  }

  /** Appends every value (a DataList's longs stay longs). */
  addAll(values: Iterable<DataValue>): this {
    this.checkMutable();
    if (values instanceof DataList && values[LONGS] !== null) {
      const marks = values[LONGS];
      const store = values[STORE];
      const n = store.length;
      for (let i = 0; i < n; i++) {
        const v = values.peek(i);
        this.add(typeof v === 'number' && marks[i] === true ? BigInt(v) : v);
      }
      return this;
    }
    for (const v of values) this.add(v);
    return this;
  }

  /** Removes and returns the element at `index`. */
  removeAt(index: number): DataValue {
    this.checkMutable();
    this.checkIndex(index, this[STORE].length);
    const previous = this.peek(index);
    this[STORE].splice(index, 1);
    const marks = this[LONGS];
    if (marks !== null && index < marks.length) marks.splice(index, 1);
    return previous;
  }

  clear(): void {
    this.checkMutable();
    this[STORE].length = 0; // in place: parents hold this store itself
    if (this[LONGS] !== null) this[LONGS].length = 0;
  }

  /** Index of the first element deep-equal to `value`, or -1. */
  indexOf(value: DataValue): number {
    const n = this[STORE].length;
    for (let i = 0; i < n; i++) if (deepEquals(this.peek(i), value)) return i;
    return -1;
  }

  contains(value: DataValue): boolean {
    return this.indexOf(value) >= 0;
  }

  /** Live, unmodifiable view of the elements. */
  values(): ReadonlyCollectionView<DataValue> {
    return new ReadonlyCollectionView<DataValue>(
      () => this.size,
      () => this[Symbol.iterator](),
    );
  }

  [Symbol.iterator](): IterableIterator<DataValue> {
    // an object rather than a generator: a third of the allocation (see data-map.ts EntryIterator)
    let i = 0;
    const it: IterableIterator<DataValue> = {
      next: (): IteratorResult<DataValue> =>
        i < this[STORE].length ? { value: this.peek(i++), done: false } : { value: undefined, done: true },
      [Symbol.iterator]: () => it,
    };
    return it;
  }

  forEach(fn: (value: DataValue, index: number, list: this) => void): void {
    for (let i = 0; i < this[STORE].length; i++) fn(this.peek(i), i, this);
  }

  /** A new plain array of the elements (containers shared). */
  toArray(): DataValue[] {
    return Array.from(this);
  }

  setReadOnly(): void {
    this[READ_ONLY] = true;
  }

  makeReadOnly(): void {
    makeGraphReadOnly(this);
  }

  isReadOnly(): boolean {
    return this[READ_ONLY];
  }

  isMadeReadOnly(): boolean {
    return this[MADE_READ_ONLY];
  }

  /** Shallow copy: a new mutable list holding the same elements. */
  clone(): DataList {
    const copy = new DataList();
    const to = copy[STORE];
    for (const v of this[STORE]) to.push(v);
    copy[LONGS] = copyOfLongs(this[LONGS]) as ListLongs | null;
    return copy;
  }

  /** Deep copy, isomorphic to this graph; all mutable. */
  copy(): DataList {
    return copyGraph(this) as DataList;
  }

  startInstrumentingAccess(): void {
    setInstrumenting(this, true);
  }

  stopInstrumentingAccess(): void {
    setInstrumenting(this, false);
  }

  clearInstrumentedData(): void {
    clearInstrumented(this);
  }

  /** See {@link DataMap.collectInstrumentedData}. */
  collectInstrumentedData(collectAllData = false): Map<string, InstrumentedEntry> {
    return collectInstrumented(this, collectAllData);
  }

  equals(other: unknown): boolean {
    return other instanceof DataList && deepEquals(this, other);
  }

  toString(): string {
    return writeJson(this);
  }

  /** What `console.log` and `util.inspect` show: the class and its JSON text. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `DataList ${writeJson(this)}`;
  }

  /** For `JSON.stringify` only: returns the backing array. Do not mutate the result. */
  toJSON(): unknown[] {
    return this[STORE];
  }

  private peek(index: number): DataValue {
    return toValue(this[STORE][index])!;
  }

  private checkIndex(index: number, limit: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= limit) {
      throw new IndexOutOfBoundsException(
        `Index ${index} is out of bounds for DataList of size ${this[STORE].length}`,
      );
    }
  }

  private checkMutable(): void {
    if (this[READ_ONLY]) throw new UnsupportedOperationException('Cannot modify a read-only DataList');
  }
}
Object.defineProperty(DataList.prototype, KIND, { value: KIND_LIST });
