import fc from 'fast-check';
import { DataList, DataMap, JsonCodec, type DataValue } from '../../src';
import { dataMapArb, sharedNodeMapArb } from '../support/data-arbitraries';
import { fuzzRuns } from './fuzz-runs';

function containers(root: DataMap | DataList): Array<DataMap | DataList> {
  const out: Array<DataMap | DataList> = [];
  const stack: Array<DataMap | DataList> = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    out.push(c);
    const values: DataValue[] = c instanceof DataMap ? [...c.values()] : c.toArray();
    for (const v of values) if (v instanceof DataMap || v instanceof DataList) stack.push(v);
  }
  return out;
}

describe('graph operations on any data', () => {
  it('copy is equal, independent and fully mutable', () => {
    fc.assert(
      fc.property(dataMapArb(), (map) => {
        map.makeReadOnly();
        const copy = map.copy();
        expect(copy.equals(map)).toBe(true);
        for (const c of containers(copy)) expect(c.isReadOnly()).toBe(false);
        copy.put('\u0001added', 1);
        expect(map.has('\u0001added')).toBe(false);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('copy keeps shared nodes shared', () => {
    fc.assert(
      fc.property(sharedNodeMapArb(), (map) => {
        const copy = map.copy();
        expect(copy.getDataMap('first')).toBe(copy.getDataList('second')!.get(0));
        expect(copy.getDataMap('first')).not.toBe(map.getDataMap('first'));
      }),
      { numRuns: fuzzRuns(100) },
    );
  });

  it('makeReadOnly reaches every container, also of a freshly decoded graph', () => {
    const json = new JsonCodec();
    fc.assert(
      fc.property(dataMapArb({ bytes: false, ambiguousDoubles: false }), (map) => {
        const decoded = json.stringToMap(json.mapToString(map));
        decoded.makeReadOnly();
        for (const c of containers(decoded)) {
          expect(c.isReadOnly()).toBe(true);
          expect(c.isMadeReadOnly()).toBe(true);
        }
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('clone is equal and shares its children', () => {
    fc.assert(
      fc.property(dataMapArb(), (map) => {
        const clone = map.clone();
        expect(clone.equals(map)).toBe(true);
        for (const [k, v] of clone) expect(map.get(k)).toBe(v);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});
