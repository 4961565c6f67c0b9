import { type ResourceKey, encodeKeyForBody } from '../protocol';

const ENTRIES = Symbol('svc.keyMap.entries');

/**
 * A read-only map keyed by resource keys, compared by wire form (as in batch response bodies): `3` and
 * `'3'` are one key, a `CompoundKey` is found by an equal new instance, a `ComplexKey` by its key record
 * (params ignored). Batch responses use it for their results, statuses and errors.
 *
 * @example
 * ```ts
 * const r = await client.send({ method: 'batch_get', resource: 'follows', ids: [k1, k2] });
 * r.results.get(new CompoundKey({ followerID: 1, followeeID: 2 }));
 * ```
 */
export class KeyMap<K = ResourceKey, V = unknown> implements ReadonlyMap<K, V> {
  /** @internal */ readonly [ENTRIES] = new Map<string, readonly [K, V]>();
  readonly #wireKey: (key: K | ResourceKey) => string;

  /**
   * Entries in order; a later entry for an equal key replaces the earlier one. `wireKey` gives a key's
   * body form; the default takes protocol keys (`ResourceKey`). The typed resource client passes one that
   * turns its typed keys (`{ albumId, photoId }`) into protocol keys first.
   */
  constructor(
    entries: Iterable<readonly [K, V]> = [],
    wireKey: (key: K | ResourceKey) => string = encodeKeyForBody as (key: K | ResourceKey) => string,
  ) {
    this.#wireKey = wireKey;
    for (const [k, v] of entries) this[ENTRIES].set(wireKey(k), [k, v]);
  }

  get size(): number {
    return this[ENTRIES].size;
  }

  get(key: K | ResourceKey): V | undefined {
    return this[ENTRIES].get(this.#wireKey(key))?.[1];
  }

  has(key: K | ResourceKey): boolean {
    return this[ENTRIES].has(this.#wireKey(key));
  }

  /** The entry under a key's body form (`42`, `(a:1,b:2)`), as the server wrote it. */
  getByWireKey(text: string): V | undefined {
    return this[ENTRIES].get(text)?.[1];
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this[ENTRIES].values()) callback.call(thisArg, v, k, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this[ENTRIES].values()) yield [k, v];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this[ENTRIES].values()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this[ENTRIES].values()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'KeyMap';
  }
}
