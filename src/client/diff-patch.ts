import { DataList, DataMap, type DataValue } from '../data';
import { SET_LONG } from '../data/internal';
import { isMarkedLong } from '../data/long-marks';

/**
 * The partial-update patch that turns `before` into `after` (as the reference's `PatchGenerator.diff`):
 * changed and added fields go in `$set`, removed ones in `$delete`, and a field that is a map on both sides
 * becomes a nested patch, so that only what changed is sent. Lists and other values are replaced whole.
 * Accepts DataMaps or generated records; neither is changed.
 *
 * @example
 * ```ts
 * const edited = photo.copy().setTitle('Dusk');
 * await api.photos.partialUpdate(1, diffPatch(photo, edited)); // {"$set":{"title":"Dusk"}}
 * ```
 */
export function diffPatch(
  before: DataMap | { data(): DataMap },
  after: DataMap | { data(): DataMap },
): DataMap {
  return diff(
    before instanceof DataMap ? before : before.data(),
    after instanceof DataMap ? after : after.data(),
  );
}

function diff(before: DataMap, after: DataMap): DataMap {
  const patch = new DataMap();
  const set = new DataMap();
  const deleted = new DataList();
  for (const [name, value] of after) {
    const old = before.get(name);
    if (old !== undefined && equalData(old, value)) continue;
    if (old instanceof DataMap && value instanceof DataMap) {
      const nested = diff(old, value);
      if (!nested.isEmpty()) patch.put(name, nested);
      continue;
    }
    // a long stays a long in the patch, so PSON writes it with the long marker (src/data/long-marks.ts)
    if (typeof value === 'number' && isMarkedLong(after, name)) set[SET_LONG](name, value);
    else set.put(name, value instanceof DataMap || value instanceof DataList ? value.copy() : value);
  }
  for (const [name] of before) if (!after.has(name)) deleted.add(name);
  if (!set.isEmpty()) patch.put('$set', set);
  if (!deleted.isEmpty()) patch.put('$delete', deleted);
  return patch;
}

/** Deep equality of data values (a long has one form in data: `7n` put in is stored as `7`). */
function equalData(a: DataValue, b: DataValue): boolean {
  if (a === b) return true;
  return typeof a === 'object' && (a as { equals?: unknown }).equals !== undefined
    ? (a as { equals(o: unknown): boolean }).equals(b)
    : false;
}
