import { wrapperOf } from './adopt';
import type { ByteString } from './byte-string';
import type { DataList } from './data-list';
import { NULL } from './data-null';
import type { DataValue } from './data-value';
import { ClassCastException, UnsupportedOperationException } from './errors';
import {
  collectInstrumented,
  copyGraph,
  deepEquals,
  makeGraphReadOnly,
  setInstrumenting,
  clearInstrumented,
  type InstrumentedEntry,
} from './graph';
import {
  ACCESS,
  INSERTED,
  INSTRUMENTING,
  KIND,
  KIND_BYTES,
  KIND_LIST,
  KIND_MAP,
  LONGS,
  MADE_READ_ONLY,
  READ_ONLY,
  SET_LONG,
  STORE,
  StoreObject,
  WRAPPER,
  adoption,
  getOwn,
  hasOwn,
  setOwn,
  type Store,
} from './internal';
import {
  adoptedLongs,
  clearMapMarks,
  copyOfLongs,
  dropMapMark as dropMapMarkImported,
  isMarkedLong,
  markMapLong as markMapLongImported,
  type MapLongs,
} from './long-marks';
import { checkKey, checkValue } from './value-check';
import { writeJson } from './codecs/json-writer';
import { ReadonlyCollectionView, ReadonlySetView } from './views';

// Local aliases: an imported binding is a getter call on the module object under swc (hot paths).
const markMapLong = markMapLongImported;
const dropMapMark = dropMapMarkImported;

/** What a `DataMap` is made from: another map (copied), `[key, value]` pairs, or a plain object of data values. */
export type DataMapInit =
  DataMap | Iterable<readonly [string, DataValue]> | { readonly [key: string]: DataValue };

/**
 * A JSON object: string keys to {@link DataValue}s, schema-unaware.
 *
 * Keys and values are checked on insertion (no `null`/`undefined`/functions/plain objects/cycles, no lone
 * UTF-16 surrogates in keys or strings, no U+0000 in keys; NaN and ±Infinity are numbers like any other); a
 * read-only map throws {@link UnsupportedOperationException} on mutation. Key order is insertion order
 * (integer-like keys first, as for any JS object); peers must not depend on order.
 */
export class DataMap implements Iterable<[string, DataValue]> {
  declare readonly [KIND]: number;
  /** @internal */ declare readonly [STORE]: Store;
  /** @internal */ declare [READ_ONLY]: boolean;
  /** @internal */ declare [MADE_READ_ONLY]: boolean;
  /** @internal */ declare [INSERTED]: boolean;
  /** @internal */ declare [INSTRUMENTING]: boolean;
  /** @internal */ declare [ACCESS]: Map<string, number> | null;
  /** @internal */ declare [LONGS]: MapLongs | null;

  constructor(init?: DataMapInit) {
    const adopted = adoption.store as Store | undefined;
    adoption.store = undefined;
    if (adopted === undefined) {
      // a new map's store points back to it from the start, where a decoded store gets the link only once
      // it is found inside another (adopt.ts): linked later, a record's store changed hidden class when it
      // was first served (put in a response's envelope), so that a long-lived record had two shapes and a
      // typed getter's inline cache saw twice as many. The example's 30 photos went from 3 store shapes to
      // 5 once served, past V8's 4 of a polymorphic cache: ~2.5k instructions of its finder page went to
      // megamorphic loads (callgrind over HTTP, bench/resources' finder page, createSvcServer)
      const store = new StoreObject();
      (store as { [WRAPPER]?: DataMap })[WRAPPER] = this;
      this[STORE] = store;
    } else this[STORE] = adopted;
    // a decoded or copied store may come with long marks (long-marks.ts)
    this[LONGS] = adopted === undefined ? null : adoptedLongs<MapLongs>(adopted);
    this[READ_ONLY] = false;
    this[MADE_READ_ONLY] = false;
    this[INSERTED] = false;
    this[INSTRUMENTING] = false;
    this[ACCESS] = null;
    if (init !== undefined) this.putAll(init);
  }

  /** Number of entries. */
  get size(): number {
    let n = 0;
    for (const k in this[STORE]) if (hasOwn(this[STORE], k)) n++;
    return n;
  }

  isEmpty(): boolean {
    for (const k in this[STORE]) if (hasOwn(this[STORE], k)) return false;
    return true;
  }

  /** The value for `key`, or undefined when absent. */
  get(key: string): DataValue | undefined {
    if (this[INSTRUMENTING]) this.countAccess(key);
    const store = this[STORE];
    const v = store[key];
    if (typeof v === 'object') {
      if (v === null) return NULL;
      if ((v as { [KIND]?: number })[KIND] !== undefined) return v as DataValue;
      const w = (v as { [WRAPPER]?: DataMap | DataList })[WRAPPER];
      if (w !== undefined) return w;
      if (key === '__proto__' && !hasOwn(store, key)) return undefined;
      return wrapperOf(v as Store, true);
    }
    if (v === undefined || typeof v === 'function') return undefined;
    return v as DataValue;
  }

  has(key: string): boolean {
    if (this[INSTRUMENTING]) this.countAccess(key);
    return getOwn(this[STORE], key) !== undefined;
  }

  /** Java's name for {@link has}. */
  containsKey(key: string): boolean {
    return this.has(key);
  }

  /** Sets `key` to `value`; returns the previous value or undefined. */
  put(key: string, value: DataValue): DataValue | undefined {
    this.checkMutable();
    if (typeof key !== 'string') throw new ClassCastException(`DataMap keys are strings, got ${typeof key}`);
    const previous = this.peek(key);
    // a key already in the store was checked when it came in
    if (previous === undefined) checkKey(key);
    const checked = checkValue(this, value, key);
    setOwn(this[STORE], key, checked);
    if (typeof value === 'bigint') markMapLong(this, key);
    else if (this[LONGS] !== null) dropMapMark(this[LONGS], key);
    return previous;
  }

  /**
   * Sets `key` to `value` and returns this map, for chaining. Cheaper than {@link put} when the previous
   * value is not needed: put has to find it (and wrap it, if it is a container).
   */
  set(key: string, value: DataValue): this {
    this.checkMutable();
    if (typeof key !== 'string') throw new ClassCastException(`DataMap keys are strings, got ${typeof key}`);
    checkKey(key);
    setOwn(this[STORE], key, checkValue(this, value, key));
    // a bigint is a long whatever its size: PSON writes the long marker for it (long-marks.ts)
    if (typeof value === 'bigint') markMapLong(this, key);
    else if (this[LONGS] !== null) dropMapMark(this[LONGS], key);
    return this;
  }

  /** @internal See {@link SET_LONG}: `value` is a safe integer, put in as a long. */
  [SET_LONG](key: string, value: number): this {
    this.checkMutable();
    checkKey(key);
    setOwn(this[STORE], key, value);
    markMapLong(this, key);
    return this;
  }

  /** Removes `key`; returns the removed value or undefined. */
  remove(key: string): DataValue | undefined {
    this.checkMutable();
    const previous = this.peek(key);
    if (previous !== undefined) {
      delete this[STORE][key];
      if (this[LONGS] !== null) dropMapMark(this[LONGS], key);
    }
    return previous;
  }

  clear(): void {
    this.checkMutable();
    const store = this[STORE];
    // in place: parents hold this store itself
    for (const k of Object.keys(store)) delete store[k];
    if (this[LONGS] !== null) clearMapMarks(this[LONGS]);
  }

  /** Puts every entry of `entries` (a DataMap's longs stay longs). */
  putAll(entries: DataMapInit): void {
    this.checkMutable();
    if (entries instanceof DataMap) {
      for (const [k, v] of entries) {
        if (typeof v === 'number' && isMarkedLong(entries, k)) this[SET_LONG](k, v);
        else this.put(k, v);
      }
    } else if (isIterable(entries)) {
      for (const [k, v] of entries) this.put(k, v);
    } else {
      for (const k of Object.keys(entries)) this.put(k, entries[k]!);
    }
  }

  /** The string at `key`; undefined when absent; {@link ClassCastException} when another type. */
  getString(key: string): string | undefined {
    return this.typed(key, 'string', (v): v is string => typeof v === 'string');
  }

  getBoolean(key: string): boolean | undefined {
    return this.typed(key, 'boolean', (v): v is boolean => typeof v === 'boolean');
  }

  /** A number (int, float or double, or a long inside ±2^53). */
  getNumber(key: string): number | undefined {
    return this.typed(key, 'number', (v): v is number => typeof v === 'number');
  }

  /** An integral number or a bigint (a long). */
  getLong(key: string): number | bigint | undefined {
    return this.typed(key, 'long', (v): v is number | bigint => typeof v === 'bigint' || Number.isInteger(v));
  }

  getByteString(key: string): ByteString | undefined {
    return this.typed(key, 'ByteString', (v): v is ByteString => kindOfValue(v) === KIND_BYTES);
  }

  getDataMap(key: string): DataMap | undefined {
    return this.typed(key, 'DataMap', (v): v is DataMap => kindOfValue(v) === KIND_MAP);
  }

  getDataList(key: string): DataList | undefined {
    return this.typed(key, 'DataList', (v): v is DataList => kindOfValue(v) === KIND_LIST);
  }

  /** Live, unmodifiable view of the keys. */
  keySet(): ReadonlySetView<string> {
    return new ReadonlySetView<string>(
      () => this.size,
      () => this.keys(),
      (k) => typeof k === 'string' && this.has(k),
    );
  }

  /** Live, unmodifiable view of the entries. */
  entrySet(): ReadonlyCollectionView<readonly [string, DataValue]> {
    return new ReadonlyCollectionView<readonly [string, DataValue]>(
      () => this.size,
      () => this.entries(),
    );
  }

  /** Live, unmodifiable view of the values. */
  values(): ReadonlyCollectionView<DataValue> {
    return new ReadonlyCollectionView<DataValue>(
      () => this.size,
      () => this.valueIterator(),
    );
  }

  keys(): IterableIterator<string> {
    return Object.keys(this[STORE])[Symbol.iterator]();
  }

  entries(): IterableIterator<[string, DataValue]> {
    return new EntryIterator(this[STORE], ENTRY);
  }

  private valueIterator(): IterableIterator<DataValue> {
    return new EntryIterator(this[STORE], VALUE);
  }

  [Symbol.iterator](): IterableIterator<[string, DataValue]> {
    return this.entries();
  }

  forEach(fn: (value: DataValue, key: string, map: this) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }

  /** Makes this map (only) read-only; irreversible. */
  setReadOnly(): void {
    this[READ_ONLY] = true;
  }

  /** Makes this map and everything reachable from it read-only; irreversible. */
  makeReadOnly(): void {
    makeGraphReadOnly(this);
  }

  isReadOnly(): boolean {
    return this[READ_ONLY];
  }

  /** True when {@link makeReadOnly} was called on this map (the whole graph below is read-only). */
  isMadeReadOnly(): boolean {
    return this[MADE_READ_ONLY];
  }

  /** Shallow copy: a new mutable map holding the same values (containers shared, not copied). */
  clone(): DataMap {
    const copy = new DataMap();
    const from = this[STORE];
    const to = copy[STORE];
    // not Object.assign: it would copy the WRAPPER back-reference too
    for (const k of Object.keys(from)) setOwn(to, k, from[k]);
    copy[LONGS] = copyOfLongs(this[LONGS]) as MapLongs | null;
    return copy;
  }

  /** Deep copy, isomorphic to this graph (a node shared twice is shared twice in the copy); all mutable. */
  copy(): DataMap {
    return copyGraph(this) as DataMap;
  }

  /** Starts counting reads (`get`, `has`) here and in every container below. */
  startInstrumentingAccess(): void {
    setInstrumenting(this, true);
  }

  stopInstrumentingAccess(): void {
    setInstrumenting(this, false);
  }

  clearInstrumentedData(): void {
    clearInstrumented(this);
  }

  /**
   * Which leaf paths were read and how often. Paths use `.key` for map entries and `[i]` for list
   * elements (`.a.b[0]`); with `collectAllData`, leaves never read are included with count 0.
   */
  collectInstrumentedData(collectAllData = false): Map<string, InstrumentedEntry> {
    return collectInstrumented(this, collectAllData);
  }

  /** Deep equality of content (not of read-only or instrumentation state). */
  equals(other: unknown): boolean {
    return other instanceof DataMap && deepEquals(this, other);
  }

  /** JSON text of the map (longs exact, bytes as Avro strings). */
  toString(): string {
    return writeJson(this);
  }

  /** What `console.log` and `util.inspect` show: the class and its JSON text. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `DataMap ${writeJson(this)}`;
  }

  /**
   * For `JSON.stringify` only: returns the backing store (nested containers have their own `toJSON`).
   * Do not mutate the result.
   */
  toJSON(): object {
    return this[STORE];
  }

  /** Value without instrumentation. */
  private peek(key: string): DataValue | undefined {
    return toValue(getOwn(this[STORE], key));
  }

  private typed<T>(
    key: string,
    typeName: string,
    guard: (v: DataValue) => v is DataValue & T,
  ): T | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (!guard(v))
      throw new ClassCastException(`DataMap key '${key}' holds ${describe(v)}, not a ${typeName}`);
    return v;
  }

  private countAccess(key: string): void {
    const counts = (this[ACCESS] ??= new Map());
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  private checkMutable(): void {
    if (this[READ_ONLY]) throw new UnsupportedOperationException('Cannot modify a read-only DataMap');
  }
}
Object.defineProperty(DataMap.prototype, KIND, { value: KIND_MAP });

const ENTRY = 0;
const VALUE = 1;

/**
 * Iterates a map's store over the keys it had when iteration began (an entry removed meanwhile is skipped).
 * A class rather than a generator: iterating the entries of many small maps (a batch of 1 000 patches is
 * checked, validated and bound entry by entry) allocated ~3 KB per patch through generator objects, and the
 * young-generation collections that garbage caused were the longest pauses beside large batches
 * (bench/batch-stall.bench.ts); this runs ~3x faster with half the allocation (measured in isolation).
 */
class EntryIterator<T> implements IterableIterator<T> {
  readonly #store: Store;
  readonly #keys: string[];
  readonly #mode: number;
  #next = 0;

  constructor(store: Store, mode: typeof ENTRY | typeof VALUE) {
    this.#store = store;
    this.#keys = Object.keys(store);
    this.#mode = mode;
  }

  next(): IteratorResult<T> {
    const keys = this.#keys;
    while (this.#next < keys.length) {
      const k = keys[this.#next++]!;
      const v = toValue(getOwn(this.#store, k));
      if (v !== undefined) return { value: (this.#mode === ENTRY ? [k, v] : v) as T, done: false };
    }
    return { value: undefined, done: true };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** The value a stored entry stands for: wrappers for stores, Data.NULL for raw null. */
export function toValue(v: unknown): DataValue | undefined {
  if (typeof v !== 'object') return v as DataValue | undefined;
  if (v === null) return NULL;
  if ((v as { [KIND]?: number })[KIND] !== undefined) return v as DataValue;
  return wrapperOf(v as Store | unknown[], true);
}

function kindOfValue(v: DataValue): number {
  return typeof v === 'object' ? v[KIND] : 0;
}

function isIterable(v: object): v is Iterable<readonly [string, DataValue]> {
  return typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

/** Short description of a value's type for error messages. */
export function describe(v: unknown): string {
  if (typeof v !== 'object' || v === null) return typeof v === 'bigint' ? 'a long' : `a ${typeof v}`;
  switch ((v as { [KIND]?: number })[KIND]) {
    case KIND_MAP:
      return 'a DataMap';
    case KIND_LIST:
      return 'a DataList';
    case KIND_BYTES:
      return 'a ByteString';
    default:
      return 'Data.NULL';
  }
}
