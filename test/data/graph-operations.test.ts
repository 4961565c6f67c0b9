import { Data, DataList, DataMap, JsonCodec, UnsupportedOperationException, isSvcError } from '../../src';
import { deepList } from '../support/data-arbitraries';

function expectReadOnlyError(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(UnsupportedOperationException);
  expect(isSvcError(caught, 'UnsupportedOperationException', 'SVC_ERR_DATA_READ_ONLY')).toBe(true);
}

describe('read-only containers', () => {
  const mapMutations: Array<[string, (m: DataMap) => unknown]> = [
    ['put', (m) => m.put('a', 2)],
    ['set', (m) => m.set('z', 2)],
    ['remove', (m) => m.remove('a')],
    ['clear', (m) => m.clear()],
    ['putAll', (m) => m.putAll({ q: 1 })],
  ];
  it.each(mapMutations)('a read-only DataMap refuses %s and keeps its content', (_label, mutate) => {
    const m = new DataMap({ a: 1 });
    m.setReadOnly();
    expectReadOnlyError(() => mutate(m));
    expect(m.toString()).toBe('{"a":1}');
  });

  const listMutations: Array<[string, (l: DataList) => unknown]> = [
    ['add', (l) => l.add(2)],
    ['addAt', (l) => l.addAt(0, 2)],
    ['set', (l) => l.set(0, 2)],
    ['removeAt', (l) => l.removeAt(0)],
    ['clear', (l) => l.clear()],
    ['addAll', (l) => l.addAll([1])],
  ];
  it.each(listMutations)('a read-only DataList refuses %s and keeps its content', (_label, mutate) => {
    const l = new DataList([1]);
    l.setReadOnly();
    expectReadOnlyError(() => mutate(l));
    expect(l.toArray()).toEqual([1]);
  });

  it('setReadOnly affects one instance only', () => {
    const child = new DataMap();
    const root = new DataMap({ child });
    root.setReadOnly();
    expect(root.isReadOnly()).toBe(true);
    expect(root.isMadeReadOnly()).toBe(false);
    child.put('x', 1);
    expect(child.isReadOnly()).toBe(false);
  });

  it('makeReadOnly affects the whole graph, decoded subtrees included', () => {
    const root = new JsonCodec().stringToMap('{"a":{"b":[{"c":1}]}}');
    root.makeReadOnly();
    const a = root.getDataMap('a')!;
    const b = a.getDataList('b')!;
    const c = b.get(0) as DataMap;
    for (const node of [root, a, b, c]) {
      expect(node.isReadOnly()).toBe(true);
      expect(node.isMadeReadOnly()).toBe(true);
    }
    expectReadOnlyError(() => c.put('d', 2));
  });

  it('is irreversible: there is no way back, but clone and copy are mutable', () => {
    const m = new DataMap({ l: new DataList([1]) });
    m.makeReadOnly();
    const clone = m.clone();
    const copy = m.copy();
    clone.put('x', 1);
    copy.put('x', 1);
    copy.getDataList('l')!.add(2);
    expect(clone.isReadOnly()).toBe(false);
    expect(copy.isMadeReadOnly()).toBe(false);
    // the clone shares the (read-only) children
    expectReadOnlyError(() => clone.getDataList('l')!.add(3));
    expect(m.toString()).toBe('{"l":[1]}');
  });
});

describe('clone and copy', () => {
  it('clone is shallow: children are shared', () => {
    const child = new DataMap({ x: 1 });
    const m = new DataMap({ child, n: 1 });
    const c = m.clone();
    expect(c.get('child')).toBe(child);
    c.put('n', 2);
    expect(m.get('n')).toBe(1);
  });

  it('clone of a decoded map shares the same adopted children', () => {
    const m = new JsonCodec().stringToMap('{"child":{"x":1}}');
    const c = m.clone();
    expect(c.get('child')).toBe(m.get('child'));
    (c.getDataMap('child') as DataMap).put('y', 2);
    expect(m.getDataMap('child')!.get('y')).toBe(2);
  });

  it('copy is deep and keeps shared nodes shared (isomorphic)', () => {
    const shared = new DataMap({ x: 1 });
    const m = new DataMap({ a: shared, b: new DataList([shared]) });
    const c = m.copy();
    expect(c.equals(m)).toBe(true);
    const ca = c.getDataMap('a')!;
    expect(ca).not.toBe(shared);
    expect(c.getDataList('b')!.get(0)).toBe(ca);
    ca.put('x', 2);
    expect(shared.get('x')).toBe(1);
  });

  it('copy does not carry instrumentation', () => {
    const m = new DataMap({ a: 1 });
    m.startInstrumentingAccess();
    m.get('a');
    const c = m.copy();
    c.get('a');
    expect(c.collectInstrumentedData().size).toBe(0);
  });

  it('copies a graph 200,000 levels deep without overflowing the stack', () => {
    const deep = deepList(200_000);
    const c = deep.copy();
    expect(c.equals(deep)).toBe(true);
    c.makeReadOnly();
    expect(c.isMadeReadOnly()).toBe(true);
  });
});

describe('access instrumentation', () => {
  it('counts reads per leaf path while on, and stops counting when stopped', () => {
    const m = Data.fromJS({ a: 1, b: { c: 'x', d: [10, 20] }, e: true }) as DataMap;
    m.startInstrumentingAccess();
    m.get('a');
    m.get('a');
    const b = m.getDataMap('b')!;
    b.get('c');
    b.getDataList('d')!.get(1);
    m.has('e');
    m.stopInstrumentingAccess();
    m.get('a');
    const data = m.collectInstrumentedData();
    expect(Object.fromEntries(data)).toEqual({
      '.a': { timesAccessed: 2, value: 1 },
      '.b.c': { timesAccessed: 1, value: 'x' },
      '.b.d[1]': { timesAccessed: 1, value: 20 },
      '.e': { timesAccessed: 1, value: true },
    });
  });

  it('collects every leaf when asked, with count 0 for unread ones', () => {
    const m = Data.fromJS({ a: 1, n: null, l: [5] }) as DataMap;
    m.startInstrumentingAccess();
    m.get('a');
    expect(Object.fromEntries(m.collectInstrumentedData(true))).toEqual({
      '.a': { timesAccessed: 1, value: 1 },
      '.n': { timesAccessed: 0, value: Data.NULL },
      '.l[0]': { timesAccessed: 0, value: 5 },
    });
  });

  it('clear forgets the counts', () => {
    const m = new JsonCodec().stringToMap('{"a":{"b":1}}');
    m.startInstrumentingAccess();
    m.getDataMap('a')!.get('b');
    expect(m.collectInstrumentedData().size).toBe(1);
    m.clearInstrumentedData();
    expect(m.collectInstrumentedData().size).toBe(0);
  });

  it('counts nothing before start', () => {
    const m = new DataMap({ a: 1 });
    m.get('a');
    expect(m.collectInstrumentedData().size).toBe(0);
  });
});

describe('Data helpers', () => {
  it('fromJS and toJS are inverse for plain JSON-like values', () => {
    const plain = { a: [1, 'x', null, { b: true }], big: 2n ** 60n, e: {} };
    const data = Data.fromJS(plain);
    expect(Data.toJS(data)).toEqual(plain);
  });

  it('isData tells data from non-data', () => {
    expect(Data.isData(1)).toBe(true);
    expect(Data.isData(Data.NULL)).toBe(true);
    expect(Data.isData(null)).toBe(false);
    expect(Data.isData(NaN)).toBe(true);
    expect(Data.isData(-Infinity)).toBe(true);
    expect(Data.isData('a\u0000😀')).toBe(true);
    expect(Data.isData('a\ud800')).toBe(false);
    expect(Data.isData({})).toBe(false);
    expect(Data.isData(2n ** 64n)).toBe(false);
  });

  it('Data.NULL is a frozen singleton that JSON writes as null', () => {
    expect(Object.isFrozen(Data.NULL)).toBe(true);
    expect(JSON.stringify([Data.NULL])).toBe('[null]');
    expect(String(Data.NULL)).toBe('null');
  });
});
