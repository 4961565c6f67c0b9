import { DataList, DataMap, type DataValue, MAX_NESTING_DEPTH } from '../data';
import type { RecordTemplate } from '../templates';
import { PatchError } from './errors';
import type { RecordClass } from './value-types';

/**
 * Partial update patches (brief, "Patch payload shape"; the reference's `Patch` interpreter): a patch is a
 * map whose `$set` (map field → new value) and `$delete` (list of field names) act on one record, and whose
 * other entries are nested patches for the record's fields:
 *
 * ```json
 * {"$set": {"title": "Dusk"}, "$delete": ["caption"], "exif": {"$set": {"iso": 400}}}
 * ```
 *
 * A field may appear in only one of `$set`, `$delete` and a nested patch. A nested patch on an absent field
 * creates the field as an empty record first, unless the nested patch only deletes. `$reorder` (list
 * reordering) is not supported.
 */

const SET = '$set';
const DELETE = '$delete';

/**
 * Checks the shape of a patch (before any handler sees it), and that it nests no deeper than the product's
 * one limit ({@link MAX_NESTING_DEPTH}, data/limits.ts), so the walks that apply it stay within the stack.
 * @throws PatchError `SVC_ERR_BIND_BAD_PATCH` (400)
 */
export function checkPatch(patch: DataValue, path = '', depth = 1): asserts patch is DataMap {
  if (!(patch instanceof DataMap)) throw new PatchError(path, 'a patch must be a map');
  if (depth > MAX_NESTING_DEPTH)
    throw new PatchError(path.slice(0, 64) + '...', `a patch may nest at most ${MAX_NESTING_DEPTH} levels`);
  const used = new Map<string, string>();
  for (const [name, op] of patch) {
    if (name === SET) {
      if (!(op instanceof DataMap))
        throw new PatchError(`${path}/${SET}`, `'${SET}' must be a map of field to value`);
      for (const [field] of op) used.set(field, SET);
    } else if (name === DELETE) {
      if (!(op instanceof DataList))
        throw new PatchError(`${path}/${DELETE}`, `'${DELETE}' must be a list of field names`);
      for (const field of op) {
        if (typeof field !== 'string')
          throw new PatchError(`${path}/${DELETE}`, `'${DELETE}' must list field names (strings)`);
      }
    } else if (name.startsWith('$')) {
      throw new PatchError(`${path}/${name}`, `unsupported patch operation '${name}'`);
    }
  }
  const deleted = patch.get(DELETE);
  if (deleted instanceof DataList) {
    for (const field of deleted) {
      const f = field as string;
      if (used.has(f))
        throw new PatchError(
          path,
          `field ${f} can not be used in both ${SET} operation and ${DELETE} operation at the same time`,
        );
      used.set(f, DELETE);
    }
  }
  for (const [name, op] of patch) {
    if (name.startsWith('$')) continue;
    if (used.has(name)) {
      throw new PatchError(
        path,
        `field ${name} can not be used in both ${used.get(name)!} operation and be a branch in Patch at the same time`,
      );
    }
    if (!(op instanceof DataMap)) {
      throw new PatchError(
        `${path}/${name}`,
        `incorrect wire format of patch, simple type values are allowed only as children of commands; node name: ${name}`,
      );
    }
    checkPatch(op, `${path}/${name}`, depth + 1);
  }
}

function deletesOnly(patch: DataMap): boolean {
  if (patch.has(SET)) return false;
  for (const [name, op] of patch)
    if (!name.startsWith('$') && op instanceof DataMap && !deletesOnly(op)) return false;
  return true;
}

function apply(target: DataMap, patch: DataMap, path: string): void {
  const set = patch.get(SET);
  if (set instanceof DataMap)
    for (const [field, value] of set)
      target.put(field, value instanceof DataMap || value instanceof DataList ? value.copy() : value);
  const deleted = patch.get(DELETE);
  if (deleted instanceof DataList) for (const field of deleted) target.remove(field as string);
  for (const [name, op] of patch) {
    if (name.startsWith('$') || !(op instanceof DataMap)) continue;
    const child = target.get(name);
    if (child === undefined) {
      if (deletesOnly(op)) continue;
      const created = new DataMap();
      target.put(name, created);
      apply(created, op, `${path}/${name}`);
    } else if (child instanceof DataMap) {
      apply(child, op, `${path}/${name}`);
    } else {
      throw new PatchError(
        `${path}/${name}`,
        `patch incompatible with data object, expected ${name} field to be a record`,
      );
    }
  }
}

/**
 * Applies `patch` to `target` in place and returns `target`. The patch is checked first, so a malformed
 * patch changes nothing; a patch that does not fit the data (a nested patch on a field that is not a
 * record) may leave `target` partly patched: patch a copy when that matters ({@link PatchRequest.applyTo}
 * does).
 *
 * @example
 * ```ts
 * applyPatch(photo.data(), Data.fromJS({ $set: { title: 'Dusk' }, exif: { $delete: ['iso'] } }) as DataMap);
 * ```
 * @throws PatchError `SVC_ERR_BIND_BAD_PATCH` (400)
 */
export function applyPatch(target: DataMap, patch: DataMap): DataMap {
  checkPatch(patch);
  apply(target, patch, '');
  return target;
}

/** The patch a {@link PatchRequest} being made from another one carries (checked when that one was made). */
let alreadyChecked: DataMap | undefined;

/**
 * What a partial update handler receives: the patch as sent (as the reference's `PatchRequest`), plus
 * conveniences to read it and apply it to a typed entity.
 */

export class PatchRequest<V extends RecordTemplate> {
  /** The patch document: the value of the body's `patch` entry (`{"$set":{...},...}`). */
  readonly patch: DataMap;
  readonly #valueClass: RecordClass<V>;
  readonly #resultCheck: ((data: DataMap) => void) | undefined;

  /**
   * @param resultCheck runs on the patched data before {@link applyTo} returns it; it throws to refuse the
   *   result (the validation filter checks it against the entity schema this way)
   */
  constructor(patch: DataMap, valueClass: RecordClass<V>, resultCheck?: (data: DataMap) => void) {
    // a patch is checked once: withResultCheck hands over one already checked (a batch of 1 000 patches
    // checked three times was a third of its binding's allocation: bench/batch-stall.bench.ts)
    if (alreadyChecked !== patch) checkPatch(patch);
    alreadyChecked = undefined;
    this.patch = patch;
    this.#valueClass = valueClass;
    this.#resultCheck = resultCheck;
  }

  /** The same patch, whose {@link applyTo} also runs `check` on its result (after any check it had). */
  withResultCheck(check: (data: DataMap) => void): PatchRequest<V> {
    const before = this.#resultCheck;
    alreadyChecked = this.patch;
    return new PatchRequest(
      this.patch,
      this.#valueClass,
      before === undefined
        ? check
        : (data) => {
            before(data);
            check(data);
          },
    );
  }

  /** The top-level `$set` map (field → new value), or an empty map. */
  get set(): DataMap {
    const s = this.patch.get(SET);
    return s instanceof DataMap ? s : new DataMap();
  }

  /** The top-level `$delete` field names. */
  get deleted(): readonly string[] {
    const d = this.patch.get(DELETE);
    return d instanceof DataList ? (d.toArray() as string[]) : [];
  }

  /** True when the patch changes nothing. */
  isEmpty(): boolean {
    return this.patch.isEmpty();
  }

  /**
   * The entity with the patch applied, as a new record over a deep copy: `entity` is left untouched, so a
   * store can replace its entry only when the whole patch applied. With validation on (the default), the
   * result is validated against the entity schema, so a patch cannot leave the entity unreadable.
   * @throws PatchError when the patch does not fit the entity (400)
   * @throws RequestValidationError when the patched entity does not fit its schema (422)
   */
  applyTo(entity: V): V {
    const data = entity.data().copy();
    apply(data, this.patch, '');
    this.#resultCheck?.(data);
    return new this.#valueClass(data);
  }

  /** The body form: `{"patch": {...}}`. */
  toBody(): DataMap {
    return new DataMap([['patch', this.patch]]);
  }
}
