/**
 * Compiled getters read a record's store directly (record-template.ts `compileGetter`, STORE_OF) until a
 * map of the process is instrumented; from then on every getter reads through its map, so that accesses
 * are counted, for records made before as after. Run on fresh copies of the modules: whether a map was
 * ever instrumented is process state, and other test files instrument maps.
 */
import type * as Src from '../../src';
import type * as PhotoModule from '../generated/fixtures/com/example/photos/Photo';
import type * as ExifModule from '../generated/fixtures/com/example/photos/Exif';
import { freshModules } from '../support/no-code-from-strings';

type Fresh = [typeof Src, typeof PhotoModule, typeof ExifModule];

function fresh(): Fresh {
  return freshModules<Fresh>(
    '../../src',
    '../generated/fixtures/com/example/photos/Photo',
    '../generated/fixtures/com/example/photos/Exif',
  );
}

describe('getters reading the store directly', () => {
  it('read what the map holds, as it changes, on built and decoded records', () => {
    const [svc, { Photo }] = fresh();
    const built = new Photo().setTitle('Dunes');
    const decoded = new Photo(new svc.JsonCodec().stringToMap('{"title":"Harbour","exif":{"iso":200}}'));
    for (let round = 0; round < 3; round++) {
      expect(built.getTitle()).toBe('Dunes');
      expect(decoded.getTitle()).toBe('Harbour');
      expect(decoded.getExif()?.getIso()).toBe(200);
    }
    // a change through the map, through a setter, and a removal are all seen by the next read
    built.data().put('title', 'Dunes at dusk');
    expect(built.getTitle()).toBe('Dunes at dusk');
    decoded.setTitle('Harbour at dawn');
    expect(decoded.getTitle()).toBe('Harbour at dawn');
    built.data().remove('title');
    expect(built.getTitle(svc.GetMode.NULL)).toBeUndefined();
    expect(() => built.getTitle()).toThrow(svc.RequiredFieldNotPresentException);
  });

  it('count accesses once a map is instrumented, for records made before and after', () => {
    const [svc, { Photo }] = fresh();
    const before = new Photo().setTitle('Before');
    expect(before.getTitle()).toBe('Before'); // compiled, store read directly
    before.data().startInstrumentingAccess();
    const after = new Photo().setTitle('After');
    after.data().startInstrumentingAccess();
    for (let i = 0; i < 3; i++) {
      expect(before.getTitle()).toBe('Before');
      expect(after.getTitle()).toBe('After');
    }
    // the reads since instrumenting started: the one before it is not counted
    const reads = (p: InstanceType<typeof Photo>): number | undefined =>
      [...p.data().collectInstrumentedData()].find(([path]) => path.endsWith('title'))?.[1].timesAccessed;
    expect(reads(before)).toBe(3);
    expect(reads(after)).toBe(3);
    // a record of a map never instrumented still reads right through its map
    expect(new Photo().setTitle('Plain').getTitle()).toBe('Plain');
    expect(new Photo(new svc.DataMap({ title: 'Given' })).getTitle()).toBe('Given');
  });
});
