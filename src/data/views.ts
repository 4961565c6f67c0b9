import { UnsupportedOperationException } from './errors';

function refuse(): never {
  throw new UnsupportedOperationException('This view is unmodifiable', 'SVC_ERR_DATA_UNMODIFIABLE_VIEW');
}

/**
 * A live, unmodifiable view over a container's values or entries (what `values()` and `entrySet()`
 * return). Mutators exist only to throw {@link UnsupportedOperationException} for callers coming from Java
 * habits.
 */
export class ReadonlyCollectionView<T> implements Iterable<T> {
  constructor(
    private readonly sizeOf: () => number,
    private readonly iterate: () => IterableIterator<T>,
  ) {}

  get size(): number {
    return this.sizeOf();
  }

  isEmpty(): boolean {
    return this.sizeOf() === 0;
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.iterate();
  }

  toArray(): T[] {
    return Array.from(this);
  }

  add(_value: T): never {
    return refuse();
  }

  remove(_value: T): never {
    return refuse();
  }

  clear(): never {
    return refuse();
  }
}

/** A live, unmodifiable set view (what `keySet()` returns), shaped like a `ReadonlySet`. */
export class ReadonlySetView<T> extends ReadonlyCollectionView<T> {
  constructor(
    sizeOf: () => number,
    iterate: () => IterableIterator<T>,
    private readonly contains: (value: T) => boolean,
  ) {
    super(sizeOf, iterate);
  }

  has(value: T): boolean {
    return this.contains(value);
  }

  *keys(): IterableIterator<T> {
    yield* this;
  }

  *values(): IterableIterator<T> {
    yield* this;
  }

  *entries(): IterableIterator<[T, T]> {
    for (const v of this) yield [v, v];
  }

  forEach(fn: (value: T, key: T, set: this) => void): void {
    for (const v of this) fn(v, v, this);
  }

  delete(_value: T): never {
    return refuse();
  }
}
