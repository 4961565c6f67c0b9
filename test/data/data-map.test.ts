import {
  ByteString,
  ClassCastException,
  Data,
  DataList,
  DataMap,
  isSvcError,
  type DataValue,
} from '../../src';

describe('DataMap', () => {
  describe('accepts every kind of data value', () => {
    const values: Array<[string, DataValue]> = [
      ['an int', 42],
      ['a negative int', -7],
      ['a double', 1.5],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
      ['a long beyond 2^53 as bigint', 2n ** 60n],
      ['the smallest long', -(2n ** 63n)],
      ['the largest long', 2n ** 63n - 1n],
      ['true', true],
      ['false', false],
      ['a string', 'héllo ☺'],
      ['a string with a surrogate pair', 'smile 😀'],
      ['a string holding U+0000', 'a\u0000b'],
      ['the empty string', ''],
      ['a ByteString', ByteString.copy([0, 1, 255])],
      ['Data.NULL', Data.NULL],
      ['a DataMap', new DataMap({ a: 1 })],
      ['a DataList', new DataList([1, 2])],
    ];
    it.each(values)('holds %s', (_label, value) => {
      const m = new DataMap();
      expect(m.put('k', value)).toBeUndefined();
      expect(m.get('k')).toBe(value);
      expect(m.has('k')).toBe(true);
      expect(m.size).toBe(1);
    });
  });

  describe('refuses what is not data, with IllegalDataValueException', () => {
    const bad: Array<[string, unknown, RegExp]> = [
      ['undefined', undefined, /undefined is not data|type undefined/],
      ['null', null, /null is not data; use Data.NULL/],
      ['a function', () => 1, /type function/],
      ['a symbol', Symbol('x'), /type symbol/],
      ['a plain object', { a: 1 }, /plain object is not data/],
      ['a plain array', [1], /plain array is not data/],
      [
        'a string with a lone high surrogate',
        'a\ud800',
        /lone UTF-16 surrogate; Svc data holds well-formed Unicode only/,
      ],
      ['a string with a lone low surrogate', '\udc00b', /lone UTF-16 surrogate/],
      ['a string with surrogates in the wrong order', '\ude00\ud83d', /lone UTF-16 surrogate/],
      ['a bigint beyond the long range', 2n ** 63n, /outside the 64-bit long range/],
      ['a bigint below the long range', -(2n ** 63n) - 1n, /outside the 64-bit long range/],
      ['a Uint8Array', new Uint8Array(1), /plain object is not data/],
      ['a Date', new Date(0), /plain object is not data/],
    ];
    it.each(bad)('refuses %s', (_label, value, message) => {
      const m = new DataMap();
      let caught: unknown;
      try {
        m.put('k', value as DataValue);
      } catch (err) {
        caught = err;
      }
      expect(isSvcError(caught, 'IllegalDataValueException', 'SVC_ERR_DATA_ILLEGAL_VALUE')).toBe(true);
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).toContain("DataMap key 'k'");
      expect(m.has('k')).toBe(false);
    });
  });

  describe('refuses keys that Svc data cannot hold, naming them', () => {
    const bad: Array<[string, string, string, RegExp]> = [
      ['U+0000', 'a\u0000b', '"a\\u0000b"', /holds U\+0000, which Svc data does not allow in keys/],
      ['only U+0000', '\u0000', '"\\u0000"', /holds U\+0000/],
      ['a lone high surrogate', 'k\ud800', '"k\\ud800"', /lone UTF-16 surrogate/],
      ['a lone low surrogate', '\udfff', '"\\udfff"', /lone UTF-16 surrogate/],
    ];
    const inserts: Array<[string, (m: DataMap, key: string) => unknown]> = [
      ['put', (m, key) => m.put(key, 1)],
      ['set', (m, key) => m.set(key, 1)],
      ['the constructor', (_m, key) => new DataMap({ [key]: 1 })],
      ['putAll', (m, key) => m.putAll([[key, 'x']])],
      ['Data.fromJS', (_m, key) => Data.fromJS({ ok: { [key]: 1 } })],
    ];
    it.each(bad)('refuses a key with %s through every way in', (_label, key, shown, message) => {
      for (const [, insert] of inserts) {
        const m = new DataMap();
        let caught: unknown;
        try {
          insert(m, key);
        } catch (err) {
          caught = err;
        }
        expect(isSvcError(caught, 'IllegalDataValueException', 'SVC_ERR_DATA_ILLEGAL_VALUE')).toBe(true);
        expect((caught as Error).message).toMatch(message);
        expect((caught as Error).message).toContain(`DataMap key ${shown}`);
        expect(m.isEmpty()).toBe(true);
      }
    });

    it('refuses a bad key right after a good one of the same length and first char (they share a cache slot)', () => {
      const m = new DataMap().set('ab', 1).set('ab', 2);
      expect(() => m.set('a\u0000', 3)).toThrow(/holds U\+0000/);
      expect(() => m.put('a\udc00', 3)).toThrow(/lone UTF-16 surrogate/);
      expect([...m.keys()]).toEqual(['ab']);
    });

    it('accepts keys with surrogate pairs and any other character', () => {
      const keys = ['😀', 'é', '\u0001', '\uffff', '\ufffd', ' ', ''];
      const m = new DataMap(keys.map((k): [string, DataValue] => [k, k]));
      expect([...m.keys()].sort()).toEqual([...keys].sort());
    });
  });

  it('holds NaN, Infinity and -Infinity as numbers, equal to themselves', () => {
    const m = new DataMap().set('nan', NaN).set('inf', Infinity).set('ninf', -Infinity);
    expect(m.getNumber('nan')).toBeNaN();
    expect(m.getNumber('inf')).toBe(Infinity);
    expect(m.getNumber('ninf')).toBe(-Infinity);
    expect(m.equals(m.copy())).toBe(true);
    expect(m.equals(new DataMap().set('nan', 0).set('inf', Infinity).set('ninf', -Infinity))).toBe(false);
    expect(() => m.getLong('nan')).toThrow(ClassCastException);
  });

  it('stores a bigint inside ±2^53 as a number, so each long has one form', () => {
    const m = new DataMap()
      .set('a', 5n)
      .set('b', BigInt(Number.MAX_SAFE_INTEGER))
      .set('c', 2n ** 53n);
    expect(m.get('a')).toBe(5);
    expect(m.get('b')).toBe(Number.MAX_SAFE_INTEGER);
    expect(m.get('c')).toBe(2n ** 53n);
  });

  it('returns the previous value from put and remove', () => {
    const m = new DataMap({ a: 1 });
    expect(m.put('a', 2)).toBe(1);
    expect(m.remove('a')).toBe(2);
    expect(m.remove('a')).toBeUndefined();
    expect(m.isEmpty()).toBe(true);
  });

  it('treats keys that name Object.prototype members as ordinary keys', () => {
    const m = new DataMap();
    for (const k of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(m.get(k)).toBeUndefined();
      expect(m.has(k)).toBe(false);
      m.put(k, k.length);
      expect(m.get(k)).toBe(k.length);
    }
    expect(m.size).toBe(5);
    expect([...m.keys()].sort()).toEqual([
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'valueOf',
    ]);
    expect(Object.getPrototypeOf(m.toJSON())).toBe(Object.prototype);
  });

  it('builds from entries, from an object and from another map', () => {
    const fromEntries = new DataMap([
      ['a', 1],
      ['b', 'x'],
    ]);
    const fromObject = new DataMap({ a: 1, b: 'x' });
    const fromMap = new DataMap(fromObject);
    expect(fromEntries.equals(fromObject)).toBe(true);
    expect(fromMap.equals(fromObject)).toBe(true);
  });

  describe('typed getters', () => {
    const m = new DataMap({
      s: 'x',
      b: true,
      n: 1.5,
      l: 2n ** 60n,
      i: 3,
      bytes: ByteString.copy([1]),
      map: new DataMap(),
      list: new DataList(),
    });
    it('return the value of the asked type', () => {
      expect(m.getString('s')).toBe('x');
      expect(m.getBoolean('b')).toBe(true);
      expect(m.getNumber('n')).toBe(1.5);
      expect(m.getLong('l')).toBe(2n ** 60n);
      expect(m.getLong('i')).toBe(3);
      expect(m.getByteString('bytes')?.length).toBe(1);
      expect(m.getDataMap('map')).toBeInstanceOf(DataMap);
      expect(m.getDataList('list')).toBeInstanceOf(DataList);
    });
    it('return undefined for an absent key', () => {
      expect(m.getString('nope')).toBeUndefined();
      expect(m.getDataMap('nope')).toBeUndefined();
    });
    it.each([
      ['getString', 'n'],
      ['getBoolean', 's'],
      ['getNumber', 'l'],
      ['getLong', 'n'],
      ['getByteString', 's'],
      ['getDataMap', 'list'],
      ['getDataList', 'map'],
    ] as const)('%s throws ClassCastException on another type', (getter, key) => {
      expect(() => m[getter](key)).toThrow(ClassCastException);
    });
  });

  describe('views', () => {
    it('keySet, entrySet and values are live', () => {
      const m = new DataMap({ a: 1 });
      const keys = m.keySet();
      const entries = m.entrySet();
      const values = m.values();
      m.put('b', 2);
      expect(keys.size).toBe(2);
      expect(keys.has('b')).toBe(true);
      expect([...entries]).toEqual([
        ['a', 1],
        ['b', 2],
      ]);
      expect(values.toArray()).toEqual([1, 2]);
    });
    it.each([
      ['keySet add', (m: DataMap) => m.keySet().add('x')],
      ['keySet delete', (m: DataMap) => m.keySet().delete('a')],
      ['keySet clear', (m: DataMap) => m.keySet().clear()],
      ['entrySet add', (m: DataMap) => m.entrySet().add(['x', 1])],
      ['values remove', (m: DataMap) => m.values().remove(1)],
      ['values clear', (m: DataMap) => m.values().clear()],
    ])('refuses %s with UnsupportedOperationException', (_label, mutate) => {
      const m = new DataMap({ a: 1 });
      let caught: unknown;
      try {
        mutate(m);
      } catch (err) {
        caught = err;
      }
      expect(isSvcError(caught, 'UnsupportedOperationException', 'SVC_ERR_DATA_UNMODIFIABLE_VIEW')).toBe(
        true,
      );
      expect(m.get('a')).toBe(1);
    });
  });

  describe('keeps the graph acyclic', () => {
    it('refuses a map inside itself', () => {
      const m = new DataMap();
      expect(() => m.put('self', m)).toThrow(/cyclic/);
    });
    it('refuses adding an ancestor to a descendant', () => {
      const root = new DataMap();
      const child = new DataMap();
      const grandchild = new DataList();
      root.put('c', child);
      child.put('g', grandchild);
      let caught: unknown;
      try {
        grandchild.add(root);
      } catch (err) {
        caught = err;
      }
      expect(isSvcError(caught, 'IllegalDataValueException', 'SVC_ERR_DATA_CYCLE')).toBe(true);
      expect(grandchild.size).toBe(0);
    });
    it('refuses a cycle through a decoded (not yet adopted) subtree', () => {
      const root = Data.fromJS({ a: { b: { c: [] } } }) as DataMap;
      const c = root.getDataMap('a')!.getDataMap('b')!.getDataList('c')!;
      expect(() => c.add(root)).toThrow(/cyclic/);
    });
    it('keeps one wrapper per node inserted into several graphs, adopted nodes included', () => {
      const shared = new DataMap({ x: 1 });
      const adopted = (Data.fromJS({ a: { y: 2 } }) as DataMap).getDataMap('a')!;
      const first = new DataMap().set('s', shared).set('a', adopted);
      const second = new DataMap().set('s', shared).set('a', adopted);
      const third = new DataMap().set('s', shared);
      for (const parent of [first, second, third]) expect(parent.getDataMap('s')).toBe(shared);
      expect(second.getDataMap('a')).toBe(adopted);
      expect(() => shared.set('loop', third)).toThrow(/cyclic/);
      expect(() => adopted.set('loop', second)).toThrow(/cyclic/);
    });
    it('allows sharing one node in two places (a DAG)', () => {
      const shared = new DataMap({ x: 1 });
      const root = new DataMap().set('a', shared).set('b', new DataList([shared]));
      expect(root.getDataMap('a')).toBe(shared);
      expect(root.getDataList('b')!.get(0)).toBe(shared);
    });
  });

  it('iterates entries in insertion order', () => {
    const m = new DataMap().set('z', 1).set('a', 2).set('m', 3);
    expect([...m].map(([k]) => k)).toEqual(['z', 'a', 'm']);
    const seen: string[] = [];
    m.forEach((_v, k) => seen.push(k));
    expect(seen).toEqual(['z', 'a', 'm']);
  });

  it('compares by content', () => {
    const a = Data.fromJS({ x: [1, { y: 'z' }], n: Data.NULL, b: new Uint8Array([1, 2]) });
    const b = Data.fromJS({ n: null, x: [1, { y: 'z' }], b: new Uint8Array([1, 2]) });
    const c = Data.fromJS({ n: null, x: [1, { y: 'w' }], b: new Uint8Array([1, 2]) });
    expect((a as DataMap).equals(b)).toBe(true);
    expect((a as DataMap).equals(c)).toBe(false);
    expect(new DataMap({ a: 1 }).equals(new DataMap({ a: 1n }))).toBe(true);
    // JSON cannot tell an integral double from a long, so numbers compare by exact value
    expect(new DataMap({ a: 2 ** 60 }).equals(new DataMap({ a: 2n ** 60n }))).toBe(true);
    expect(new DataMap({ a: 2 ** 60 }).equals(new DataMap({ a: 2n ** 60n + 1n }))).toBe(false);
    expect(new DataMap({ a: 1.5 }).equals(new DataMap({ a: 1 }))).toBe(false);
  });

  it('prints as JSON text with exact longs', () => {
    const m = new DataMap({ big: 2n ** 62n, s: 'x', n: Data.NULL });
    expect(m.toString()).toBe('{"big":4611686018427387904,"s":"x","n":null}');
  });

  it('clear empties the map', () => {
    const m = new DataMap({ a: 1, b: 2 });
    m.clear();
    expect(m.size).toBe(0);
    expect(m.get('a')).toBeUndefined();
  });
});
