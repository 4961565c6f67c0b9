import { adoptRaw } from './adopt';
import { NULL } from './data-null';
import type { DataValue } from './data-value';
import { IndexOutOfBoundsException, UnsupportedOperationException } from './errors';
import {
  clearInstrumented,
  collectInstrumented,
  copyGraph,
  deepEquals,
  makeGraphReadOnly,
  materializeChildren,
  setInstrumenting,
  type InstrumentedEntry,
} from './graph';
import { ACCESS, INSERTED, INSTRUMENTING, KIND, KIND_LIST, MADE_READ_ONLY, READ_ONLY, STORE, isRawNode, type Store } from './internal';
import { checkValue } from './value-check';
import { toDebugString } from './debug-string';
import { ReadonlyCollectionView } from './views';

/**
 * A JSON array of {@link DataValue}s, schema-unaware. Values are checked on insertion like
 * {@link DataMap}'s; a read-only list throws {@link UnsupportedOperationException} on mutation.
 */
export class DataList implements Iterable<DataValue> {
  declare readonly [KIND]: number;
  /** @internal */ [STORE]: unknown[] = [];
  /** @internal */ [READ_ONLY] = false;
  /** @internal */ [MADE_READ_ONLY] = false;
  /** @internal */ [INSERTED] = false;
  /** @internal */ [INSTRUMENTING] = false;
  /** @internal */ [ACCESS]: number[] | null = null;

  constructor(init?: Iterable<DataValue>) {
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
    const checked = checkValue(this, value, `DataList index ${index}`);
    const previous = this.peek(index);
    this[STORE][index] = checked;
    return previous;
  }

  /** Appends `value`; returns this list for chaining. */
  add(value: DataValue): this {
    this.checkMutable();
    const store = this[STORE];
    store.push(checkValue(this, value, `DataList index ${store.length}`));
    return this;
  }

  /** Inserts `value` at `index` (0..size), shifting later elements. */
  addAt(index: number, value: DataValue): this {
    this.checkMutable();
    this.checkIndex(index, this[STORE].length + 1);
    this[STORE].splice(index, 0, checkValue(this, value, `DataList index ${index}`));
    return this;
  }

  addAll(values: Iterable<DataValue>): this {
    this.checkMutable();
    for (const v of values) this.add(v);
    return this;
  }

  /** Removes and returns the element at `index`. */
  removeAt(index: number): DataValue {
    this.checkMutable();
    this.checkIndex(index, this[STORE].length);
    const previous = this.peek(index);
    this[STORE].splice(index, 1);
    return previous;
  }

  clear(): void {
    this.checkMutable();
    this[STORE] = [];
  }

  /** Index of the first element deep-equal to `value`, or -1. */
  indexOf(value: DataValue): number {
    const n = this[STORE].length;
    for (let i = 0; i < n; i++) if (sameData(this.peek(i), value)) return i;
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

  *[Symbol.iterator](): IterableIterator<DataValue> {
    for (let i = 0; i < this[STORE].length; i++) yield this.peek(i);
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
    materializeChildren(this);
    const copy = new DataList();
    copy[STORE] = this[STORE].slice();
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
    return toDebugString(this);
  }

  /** For `JSON.stringify` only: returns the backing array. Do not mutate the result. */
  toJSON(): unknown[] {
    return this[STORE];
  }

  private peek(index: number): DataValue {
    const v = this[STORE][index];
    if (typeof v === 'object') {
      if (v === null) return NULL;
      if (isRawNode(v)) {
        const adopted = adoptRaw(v as Store | unknown[], true);
        this[STORE][index] = adopted;
        return adopted;
      }
    }
    return v as DataValue;
  }

  private checkIndex(index: number, limit: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= limit) {
      throw new IndexOutOfBoundsException(`Index ${index} is out of bounds for DataList of size ${this[STORE].length}`);
    }
  }

  private checkMutable(): void {
    if (this[READ_ONLY]) throw new UnsupportedOperationException('Cannot modify a read-only DataList');
  }
}
Object.defineProperty(DataList.prototype, KIND, { value: KIND_LIST });

function sameData(a: DataValue, b: DataValue): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && typeof b === 'object') {
    return (a as { equals(o: unknown): boolean }).equals(b);
  }
  return false;
}
