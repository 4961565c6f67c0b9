import {
  ByteString,
  Data,
  DataList,
  DataMap,
  IndexOutOfBoundsException,
  isSvcError,
  type DataValue,
} from '../../src';

describe('DataList', () => {
  it('adds, reads, replaces, inserts and removes elements', () => {
    const l = new DataList([1, 'a']);
    l.add(true).addAt(0, 'first');
    expect(l.toArray()).toEqual(['first', 1, 'a', true]);
    expect(l.set(1, 2)).toBe(1);
    expect(l.removeAt(2)).toBe('a');
    expect(l.toArray()).toEqual(['first', 2, true]);
    expect(l.size).toBe(3);
  });

  it.each([
    ['get(-1)', (l: DataList) => l.get(-1)],
    ['get(size)', (l: DataList) => l.get(2)],
    ['get(1.5)', (l: DataList) => l.get(1.5)],
    ['set(size)', (l: DataList) => l.set(2, 1)],
    ['addAt(size + 1)', (l: DataList) => l.addAt(3, 1)],
    ['removeAt(-1)', (l: DataList) => l.removeAt(-1)],
  ])('throws IndexOutOfBoundsException for %s', (_label, op) => {
    const l = new DataList([1, 2]);
    expect(() => op(l)).toThrow(IndexOutOfBoundsException);
    expect(l.toArray()).toEqual([1, 2]);
  });

  it('allows addAt at the end', () => {
    expect(new DataList([1]).addAt(1, 2).toArray()).toEqual([1, 2]);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a plain object', {}],
    ['a string with a lone surrogate', 'x\udbff'],
  ])('refuses %s', (_label, value) => {
    const l = new DataList();
    let caught: unknown;
    try {
      l.add(value as DataValue);
    } catch (err) {
      caught = err;
    }
    expect(isSvcError(caught, 'IllegalDataValueException')).toBe(true);
    expect((caught as Error).message).toContain('DataList index 0');
    expect(l.size).toBe(0);
  });

  it('refuses a list inside itself', () => {
    const l = new DataList();
    expect(() => l.add(l)).toThrow(/cyclic/);
  });

  it('finds elements by content', () => {
    const l = new DataList([1, 'x', new DataMap({ a: 1 }), ByteString.copy([1]), Data.NULL]);
    expect(l.indexOf(new DataMap({ a: 1 }))).toBe(2);
    expect(l.indexOf(ByteString.copy([1]))).toBe(3);
    expect(l.indexOf(Data.NULL)).toBe(4);
    expect(l.contains('x')).toBe(true);
    expect(l.contains('y')).toBe(false);
  });

  it('values() is a live unmodifiable view', () => {
    const l = new DataList([1]);
    const v = l.values();
    l.add(2);
    expect([...v]).toEqual([1, 2]);
    expect(() => v.add(3)).toThrow(/unmodifiable/);
  });

  it('iterates in order', () => {
    const l = new DataList(['a', 'b']);
    const seen: Array<[DataValue, number]> = [];
    l.forEach((v, i) => seen.push([v, i]));
    expect(seen).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });
});
