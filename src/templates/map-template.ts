/**
 * Base classes of map classes (brief, "Type mapping"): {@link DirectMapTemplate} for unwrapped values and
 * {@link WrappingMapTemplate} for template values, as for arrays (see array-template.ts). A map class is a
 * `Map<string, E>` over a live DataMap, with values converted on the way in and out.
 */
import { DataMap } from '../data/data-map';
import type { MapDataSchema } from '../schema/map-schema';
import { describeValue, type Coercer } from './coercers';
import { TemplateOutputCastException } from './errors';
import { DATA, ITEMS } from './internal';

/**
 * What a map class is constructed from: a DataMap to wrap (not copied), entries or a plain object to add,
 * or a capacity hint.
 */
export type MapInit<E> = DataMap | Iterable<readonly [string, E]> | { readonly [key: string]: E } | number;

/**
 * @example
 * ```ts
 * const counts = new LongMap({ JPEG: 12 });
 * counts.set('PNG', 3n).get('PNG');   // 3 (a long inside ±2^53 is a number)
 * [...counts.keys()];                 // ['JPEG', 'PNG']
 * counts.data();                      // the live DataMap
 * ```
 */
export abstract class MapTemplate<E> implements Map<string, E> {
  /** @internal */
  declare readonly [DATA]: DataMap;
  /** @internal */
  declare readonly [ITEMS]: Coercer<E>;

  protected constructor(init: MapInit<E> | undefined, values: Coercer<E>) {
    this[ITEMS] = values;
    if (init instanceof DataMap) {
      this[DATA] = init;
      return;
    }
    const map = new DataMap();
    this[DATA] = map;
    if (init === undefined || typeof init === 'number') return;
    if (typeof init !== 'object' || init === null) {
      throw new TemplateOutputCastException(`${new.target.name} wraps a DataMap, not ${describeValue(init)}`);
    }
    if (typeof (init as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function') {
      for (const [k, v] of init as Iterable<readonly [string, E]>) map.put(k, values.toData(v));
    } else {
      const obj = init as { readonly [key: string]: E };
      for (const k of Object.keys(obj)) map.put(k, values.toData(obj[k]));
    }
  }

  /** The map schema of the class. */
  abstract schema(): MapDataSchema;

  /** The wrapped DataMap (live, not a copy). */
  data(): DataMap {
    return this[DATA];
  }

  get size(): number {
    return this[DATA].size;
  }

  get(key: string): E | undefined {
    const d = this[DATA].get(key);
    return d === undefined ? undefined : this[ITEMS].fromData(d);
  }

  set(key: string, value: E): this {
    this[DATA].put(key, this[ITEMS].toData(value));
    return this;
  }

  has(key: string): boolean {
    return this[DATA].has(key);
  }

  delete(key: string): boolean {
    return this[DATA].remove(key) !== undefined;
  }

  clear(): void {
    this[DATA].clear();
  }

  *keys(): MapIterator<string> {
    yield* this[DATA].keys();
  }

  *values(): MapIterator<E> {
    const items = this[ITEMS];
    for (const [, d] of this[DATA].entries()) yield items.fromData(d);
  }

  *entries(): MapIterator<[string, E]> {
    const items = this[ITEMS];
    for (const [k, d] of this[DATA].entries()) yield [k, items.fromData(d)];
  }

  [Symbol.iterator](): MapIterator<[string, E]> {
    return this.entries();
  }

  forEach(fn: (value: E, key: string, map: Map<string, E>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  get [Symbol.toStringTag](): string {
    return this.constructor.name;
  }

  /** A map of the same class over a shallow clone of the data. */
  clone(): this {
    const C = this.constructor as new (data: DataMap) => this;
    return new C(this[DATA].clone());
  }

  /** A map of the same class over a deep copy of the data. */
  copy(): this {
    const C = this.constructor as new (data: DataMap) => this;
    return new C(this[DATA].copy());
  }

  /** True for a map template whose data is equal. */
  equals(other: unknown): boolean {
    return other instanceof MapTemplate && other[DATA].equals(this[DATA]);
  }

  /** The JSON text of the data. */
  toString(): string {
    return this[DATA].toString();
  }
}

/** Maps of unwrapped values: int, long, float, double, boolean, string, bytes, enums, custom classes. */
export abstract class DirectMapTemplate<E> extends MapTemplate<E> {}

/** Maps of templates: arrays, maps, fixed, records, errors, unions. */
export abstract class WrappingMapTemplate<E> extends MapTemplate<E> {}
