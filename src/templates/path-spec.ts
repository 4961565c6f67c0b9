/**
 * Path specifiers for projections (brief, "Other generated classes" 7): `Photo.fields().exif().iso()` is
 * the path `/exif/iso`. Generated `*_Fields` classes extend {@link PathSpec} with one method per record
 * field or union member; arrays and maps that (transitively) contain records or unions step through
 * `items()` / `values()`, which add the wildcard segment `$*` (`Album.fields().entries().items().albumId()`
 * is `/entries/$*` followed by `/albumId`).
 */

/** A class of path specs (a generated `*_Fields` class or an array/map spec): constructed from segments. */
export type PathSpecClass<F extends PathSpec> = new (segments: readonly string[]) => F;

/** A path into a record, for projections; generated `*_Fields` classes extend it (see the module comment). */
export class PathSpec {
  /** The segment that stands for every item of an array or every value of a map. */
  static readonly WILDCARD = '$*';

  readonly #segments: readonly string[];

  constructor(segments: readonly string[] = []) {
    this.#segments = segments;
  }

  /** The segments, outermost first. */
  getPathComponents(): readonly string[] {
    return this.#segments;
  }

  /** `/a/b/c`; the empty path is `''`. */
  toString(): string {
    return this.#segments.map((s) => `/${s}`).join('');
  }

  /** True for a path spec with the same segments. */
  equals(other: unknown): boolean {
    if (!(other instanceof PathSpec)) return false;
    const a = this.#segments;
    const b = other.#segments;
    return a.length === b.length && a.every((s, i) => s === b[i]);
  }
}

/** The path of `name` below `parent` (a field or union member without nested specs). */
export function fieldPath(parent: PathSpec, name: string): PathSpec {
  return new PathSpec([...parent.getPathComponents(), name]);
}

/** The path of `name` below `parent`, as a spec of class `spec` (nested records, unions, arrays, maps). */
export function childPath<F extends PathSpec>(parent: PathSpec, name: string, spec: PathSpecClass<F>): F {
  return new spec([...parent.getPathComponents(), name]);
}

/** The path spec of an array whose items have specs of class `F`: `items()` adds `$*`. */
export class ArrayPathSpec<F extends PathSpec> extends PathSpec {
  readonly #items: PathSpecClass<F>;

  constructor(segments: readonly string[], items: PathSpecClass<F>) {
    super(segments);
    this.#items = items;
  }

  /** Every item of the array. */
  items(): F {
    return childPath(this, PathSpec.WILDCARD, this.#items);
  }
}

/** The path spec of a map whose values have specs of class `F`: `values()` adds `$*`. */
export class MapPathSpec<F extends PathSpec> extends PathSpec {
  readonly #values: PathSpecClass<F>;

  constructor(segments: readonly string[], values: PathSpecClass<F>) {
    super(segments);
    this.#values = values;
  }

  /** Every value of the map. */
  values(): F {
    return childPath(this, PathSpec.WILDCARD, this.#values);
  }
}

const ARRAY_SPECS = new WeakMap<PathSpecClass<PathSpec>, PathSpecClass<ArrayPathSpec<PathSpec>>>();
const MAP_SPECS = new WeakMap<PathSpecClass<PathSpec>, PathSpecClass<MapPathSpec<PathSpec>>>();

/** The spec class of arrays of items with specs `items` (one class per item class). */
export function arrayPathSpecs<F extends PathSpec>(items: PathSpecClass<F>): PathSpecClass<ArrayPathSpec<F>> {
  let cls = ARRAY_SPECS.get(items);
  if (cls === undefined) {
    cls = class extends ArrayPathSpec<PathSpec> {
      constructor(segments: readonly string[]) {
        super(segments, items);
      }
    };
    ARRAY_SPECS.set(items, cls);
  }
  return cls as PathSpecClass<ArrayPathSpec<F>>;
}

/** The spec class of maps of values with specs `values` (one class per value class). */
export function mapPathSpecs<F extends PathSpec>(values: PathSpecClass<F>): PathSpecClass<MapPathSpec<F>> {
  let cls = MAP_SPECS.get(values);
  if (cls === undefined) {
    cls = class extends MapPathSpec<PathSpec> {
      constructor(segments: readonly string[]) {
        super(segments, values);
      }
    };
    MAP_SPECS.set(values, cls);
  }
  return cls as PathSpecClass<MapPathSpec<F>>;
}
