import { ByteString, Data, type DataMap, type JsValue, applyPatch, diffPatch } from '../../src';

const map = (v: JsValue): DataMap => Data.fromJS(v) as DataMap;

describe('diffPatch', () => {
  it.each<[string, JsValue, JsValue, JsValue]>([
    ['gives an empty patch for equal records', { a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } }, {}],
    ['sets a changed field', { a: 1, b: 'x' }, { a: 2, b: 'x' }, { $set: { a: 2 } }],
    ['sets an added field', { a: 1 }, { a: 1, b: 'new' }, { $set: { b: 'new' } }],
    ['deletes a removed field', { a: 1, b: 2 }, { a: 1 }, { $delete: ['b'] }],
    [
      'patches a nested record field by field',
      { exif: { iso: 100, camera: 'X' } },
      { exif: { iso: 200, camera: 'X' } },
      { exif: { $set: { iso: 200 } } },
    ],
    [
      'deletes inside a nested record',
      { exif: { iso: 100, camera: 'X' } },
      { exif: { camera: 'X' } },
      { exif: { $delete: ['iso'] } },
    ],
    ['replaces a list whole', { tags: ['a', 'b'] }, { tags: ['a', 'c'] }, { $set: { tags: ['a', 'c'] } }],
    ['sets a record that replaced a value', { a: 1 }, { a: { b: 1 } }, { $set: { a: { b: 1 } } }],
    ['keeps exact longs', { n: 1 }, { n: 2n ** 60n }, { $set: { n: 2n ** 60n } }],
    [
      'sets, deletes and nests at once',
      { a: 1, b: 2, r: { x: 1 } },
      { a: 3, r: { x: 1, y: 2 } },
      { $set: { a: 3 }, $delete: ['b'], r: { $set: { y: 2 } } },
    ],
  ])('%s', (_name, before, after, patch) => {
    const b = map(before);
    const a = map(after);
    const p = diffPatch(b, a);
    expect(p.equals(map(patch))).toBe(true);
    // applying the patch to the old version gives the new one, and neither input changed
    expect(applyPatch(b.copy(), p).equals(a)).toBe(true);
    expect(b.equals(map(before))).toBe(true);
    expect(a.equals(map(after))).toBe(true);
  });

  it('compares bytes by content', () => {
    const b = map({ d: ByteString.copy(new Uint8Array([1, 2])) });
    const a = map({ d: ByteString.copy(new Uint8Array([1, 2])) });
    expect(diffPatch(b, a).isEmpty()).toBe(true);
  });

  it('takes generated records', () => {
    const wrap = (d: DataMap) => ({ data: () => d });
    expect(diffPatch(wrap(map({ a: 1 })), wrap(map({ a: 2 }))).toString()).toBe('{"$set":{"a":2}}');
  });
});
