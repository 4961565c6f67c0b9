/**
 * applyPatch and PatchRequest: `$set`, `$delete` and nested patches with the reference's semantics (its
 * `Patch` interpreter) and messages.
 */
import {
  Data,
  DataMap,
  MAX_NESTING_DEPTH,
  PatchRequest,
  applyPatch,
  checkPatch,
  isSvcError,
  type JsValue,
} from '../../src';

/** A patch `depth` levels deep: `{"a":{"a":...{"$set":{"x":1}}}}`, built without recursion. */
function nestedPatch(depth: number): DataMap {
  let p = new DataMap([['$set', new DataMap([['x', 1]])]]);
  for (let i = 1; i < depth; i++) p = new DataMap([['a', p]]);
  return p;
}
import { Photo } from '../generated/fixtures/com/example/photos/Photo';

const map = (v: Record<string, JsValue>): DataMap => Data.fromJS(v) as DataMap;
const js = (m: DataMap): unknown => Data.toJS(m);

describe('applyPatch', () => {
  it('sets and deletes fields', () => {
    const target = map({ a: 1, b: 2, c: 3 });
    applyPatch(target, map({ $set: { a: 10, d: [1] }, $delete: ['b', 'missing'] }));
    expect(js(target)).toEqual({ a: 10, c: 3, d: [1] });
  });

  it('patches nested records, creating an absent one unless the branch only deletes', () => {
    const target = map({ exif: { iso: 100, flash: true } });
    applyPatch(
      target,
      map({
        exif: { $set: { iso: 200 }, $delete: ['flash'] },
        location: { $set: { latitude: 1 } },
        gone: { $delete: ['x'] },
      }),
    );
    expect(js(target)).toEqual({ exif: { iso: 200 }, location: { latitude: 1 } });
  });

  it('patches deeper levels', () => {
    const target = map({ a: { b: { c: 1, d: 2 } } });
    applyPatch(target, map({ a: { b: { $set: { c: 5 } } } }));
    expect(js(target)).toEqual({ a: { b: { c: 5, d: 2 } } });
  });

  it('copies set values, so the patch and the target share nothing', () => {
    const patch = map({ $set: { tags: ['a'] } });
    const target = applyPatch(new DataMap(), patch);
    target.getDataList('tags')!.add('b');
    expect(js(patch)).toEqual({ $set: { tags: ['a'] } });
  });

  it.each<[string, Record<string, JsValue>, string]>([
    [
      'a field in $set and $delete',
      { $set: { a: 1 }, $delete: ['a'] },
      'field a can not be used in both $set operation and $delete operation at the same time',
    ],
    [
      'a field in $set and a branch',
      { $set: { a: 1 }, a: { $set: { b: 1 } } },
      'field a can not be used in both $set operation and be a branch in Patch at the same time',
    ],
    ['$set that is not a map', { $set: [1] }, "'$set' must be a map of field to value (at /$set)"],
    ['$delete that is not a list', { $delete: 'a' }, "'$delete' must be a list of field names (at /$delete)"],
    ['$delete of a non-string', { $delete: [1] }, "'$delete' must list field names (strings) (at /$delete)"],
    ['an unknown operation', { $reorder: [] }, "unsupported patch operation '$reorder' (at /$reorder)"],
    [
      'a simple value as a branch',
      { a: 1 },
      'incorrect wire format of patch, simple type values are allowed only as children of commands; node name: a (at /a)',
    ],
    ['a nested problem', { a: { b: { $set: 5 } } }, "'$set' must be a map of field to value (at /a/b/$set)"],
  ])('rejects %s', (_what, patch, message) => {
    const target = map({ a: 1 });
    let error: unknown;
    try {
      applyPatch(target, map(patch));
    } catch (err) {
      error = err;
    }
    expect(isSvcError(error, 'PatchError', 'SVC_ERR_BIND_BAD_PATCH')).toBe(true);
    expect((error as Error).message).toBe(message);
    expect(js(target)).toEqual({ a: 1 });
  });

  it('rejects a nested patch on a field that is not a record', () => {
    expect(() => applyPatch(map({ a: 1 }), map({ a: { $set: { b: 1 } } }))).toThrow(
      'patch incompatible with data object, expected a field to be a record (at /a)',
    );
  });

  it('applies a patch nested MAX_NESTING_DEPTH levels deep and refuses a deeper one with its typed error', () => {
    const target = applyPatch(new DataMap(), nestedPatch(MAX_NESTING_DEPTH));
    let node = target;
    for (let i = 1; i < MAX_NESTING_DEPTH; i++) node = node.get('a') as DataMap;
    expect(node.get('x')).toBe(1);
    for (const depth of [MAX_NESTING_DEPTH + 1, 100_000]) {
      let thrown: unknown;
      try {
        applyPatch(new DataMap(), nestedPatch(depth));
      } catch (err) {
        thrown = err;
      }
      expect(isSvcError(thrown, 'PatchError', 'SVC_ERR_BIND_BAD_PATCH')).toBe(true);
      expect((thrown as Error).message).toMatch(/a patch may nest at most 1000 levels/);
    }
  });

  it('checks a patch without applying it', () => {
    expect(() => checkPatch(map({ $set: {} }))).not.toThrow();
    expect(() => checkPatch(5)).toThrow('a patch must be a map');
  });
});

describe('PatchRequest', () => {
  const photo = (): Photo => new Photo(map({ id: 1, title: 'a', tags: ['x'] }));

  it('applies to a copy of a typed entity', () => {
    const original = photo();
    const request = new PatchRequest(
      map({ $set: { title: 'b' }, $delete: ['tags'], exif: { $set: { iso: 5 } } }),
      Photo,
    );
    const patched = request.applyTo(original);
    expect(patched).toBeInstanceOf(Photo);
    expect(patched.getTitle()).toBe('b');
    expect(patched.getExif()!.getIso()).toBe(5);
    expect(js(original.data())).toEqual({ id: 1, title: 'a', tags: ['x'] });
  });

  it('reads the top-level operations', () => {
    const request = new PatchRequest(map({ $set: { title: 'b' }, $delete: ['tags'] }), Photo);
    expect(js(request.set)).toEqual({ title: 'b' });
    expect(request.deleted).toEqual(['tags']);
    expect(request.isEmpty()).toBe(false);
    expect(new PatchRequest(new DataMap(), Photo).isEmpty()).toBe(true);
    expect(js(request.toBody())).toEqual({ patch: { $set: { title: 'b' }, $delete: ['tags'] } });
  });
});
