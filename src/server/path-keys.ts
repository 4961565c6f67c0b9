/**
 * `ctx.pathKeys` of a request whose path has one key (`/photos/3`, most requests): one name and one value,
 * read as a `ReadonlyMap`. A `Map` for the one entry cost ~200 bytes and its hash table on every such
 * request (2.2 KB were allocated per get, bench/resources.bench.ts's case); paths with more keys (a
 * subresource's, an association's parts) keep a `Map`.
 */
export class OneKey<V = unknown> implements ReadonlyMap<string, V> {
  readonly #name: string;
  readonly #value: V;
  constructor(name: string, value: V) {
    this.#name = name;
    this.#value = value;
  }
  get size(): number {
    return 1;
  }
  get(name: string): V | undefined {
    return name === this.#name ? this.#value : undefined;
  }
  has(name: string): boolean {
    return name === this.#name;
  }
  forEach(fn: (value: V, name: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    fn.call(thisArg, this.#value, this.#name, this);
  }
  *entries(): MapIterator<[string, V]> {
    yield [this.#name, this.#value];
  }
  *keys(): MapIterator<string> {
    yield this.#name;
  }
  *values(): MapIterator<V> {
    yield this.#value;
  }
  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }
  get [Symbol.toStringTag](): string {
    return 'OneKey';
  }
}
