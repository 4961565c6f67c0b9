/** Array and map classes: direct and wrapping, built-in and generated; Array-like and Map behaviour. */
import {
  ByteString,
  ByteStringArray,
  ClassCastException,
  Data,
  DataList,
  DataMap,
  DoubleMap,
  IndexOutOfBoundsException,
  IntegerArray,
  LongMap,
  StringArray,
  TemplateOutputCastException,
  UnsupportedOperationException,
} from '../../src';
import { Collections } from '../generated/binding/com/example/binding/Collections';
import { Hash4 } from '../generated/binding/com/example/binding/Hash4';
import { Hash4Array } from '../generated/binding/com/example/binding/Hash4Array';
import { Node } from '../generated/binding/com/example/binding/Node';
import { NodeArray } from '../generated/binding/com/example/binding/NodeArray';
import { Point } from '../generated/binding/com/example/binding/Point';
import { PointArray } from '../generated/binding/com/example/binding/PointArray';
import { PointArrayMap } from '../generated/binding/com/example/binding/PointArrayMap';
import { Shape } from '../generated/binding/com/example/binding/Shape';
import { ShapeArray } from '../generated/binding/com/example/binding/ShapeArray';
import { IntegerArrayArray } from '../generated/binding/svc/templates/IntegerArrayArray';

const point = (x: number, y: number): Point => new Point().setX(x).setY(y);

describe('a direct array (built-in)', () => {
  it('behaves like an array', () => {
    const a = new IntegerArray([1, 2]);
    expect(a.length).toBe(2);
    expect(a.size()).toBe(2);
    expect(a.push(3, 4)).toBe(4);
    expect([...a]).toEqual([1, 2, 3, 4]);
    expect(a.get(0)).toBe(1);
    expect(a.at(-1)).toBe(4);
    expect(a.at(10)).toBeUndefined();
    expect(a.pop()).toBe(4);
    expect(a.set(0, 10).get(0)).toBe(10);
    expect(a.insert(1, 5).toArray()).toEqual([10, 5, 2, 3]);
    expect(a.removeAt(1)).toBe(5);
    expect(a.indexOf(3)).toBe(2);
    expect(a.includes(7)).toBe(false);
    expect(a.map((v, i) => v * i)).toEqual([0, 2, 6]);
    expect(a.filter((v) => v > 2)).toEqual([10, 3]);
    expect(a.find((v) => v < 5)).toBe(2);
    expect(a.findIndex((v) => v === 3)).toBe(2);
    expect(a.some((v) => v === 2) && a.every((v) => v > 0)).toBe(true);
    expect([...a.entries()]).toEqual([
      [0, 10],
      [1, 2],
      [2, 3],
    ]);
    expect([...a.keys()]).toEqual([0, 1, 2]);
    const seen: number[] = [];
    a.forEach((v) => seen.push(v));
    expect(seen).toEqual([10, 2, 3]);
    a.clear();
    expect(a.isEmpty()).toBe(true);
    expect(new IntegerArray().pop()).toBeUndefined();
  });

  it('wraps a DataList without copying and writes through', () => {
    const list = new DataList([1, 2]);
    const a = new IntegerArray(list);
    expect(a.data()).toBe(list);
    a.push(3);
    expect(list.size).toBe(3);
    expect(new IntegerArray(7).length).toBe(0); // a capacity hint
  });

  it('accepts coercible values and refuses the others with ClassCastException', () => {
    const a = new IntegerArray();
    a.push(5n as unknown as number);
    expect(a.data().get(0)).toBe(5);
    expect(() => a.push(1.5)).toThrow(ClassCastException);
    expect(() => a.push(1, 'x' as unknown as number)).toThrow(ClassCastException);
    expect(a.length).toBe(1); // all values are checked before any is added
    const one: unknown = 1;
    expect(() => new StringArray([one as string])).toThrow(ClassCastException);
    expect(a.indexOf('x' as unknown as number)).toBe(-1);
    const avro: unknown = '\u0000\u00ff';
    const bytes = new ByteStringArray([avro as ByteString]);
    expect(bytes.get(0).equals(ByteString.copy([0, 255]))).toBe(true);
  });

  it('refuses stored items of the wrong type with TemplateOutputCastException', () => {
    const a = new IntegerArray(new DataList(['x']));
    expect(() => a.get(0)).toThrow(TemplateOutputCastException);
    expect(() => [...a]).toThrow(TemplateOutputCastException);
  });

  it('throws IndexOutOfBoundsException outside its bounds', () => {
    expect(() => new IntegerArray().get(0)).toThrow(IndexOutOfBoundsException);
  });

  it('clones shallowly, copies deeply, compares and prints its data', () => {
    const a = new IntegerArray([1, 2]);
    const c = a.clone();
    expect(c).toBeInstanceOf(IntegerArray);
    expect(c.data()).not.toBe(a.data());
    expect(c.equals(a) && a.copy().equals(a)).toBe(true);
    expect(a.equals(new IntegerArray([2, 1]))).toBe(false);
    expect(a.toString()).toBe('[1,2]');
    expect(a.schema().getItems().getType()).toBe('INT');
  });

  it('follows read-only data', () => {
    const list = new DataList([1]);
    list.setReadOnly();
    expect(() => new IntegerArray(list).push(2)).toThrow(UnsupportedOperationException);
  });
});

describe('a wrapping array (generated)', () => {
  it('wraps records and stores their maps', () => {
    const p = point(1, 2);
    const a = new PointArray([p]);
    expect(a.data().get(0)).toBe(p.data());
    expect(a.get(0).getX()).toBe(1);
    a.get(0).setX(5); // the item is live
    expect(p.getX()).toBe(5);
    expect(a.indexOf(point(5, 2))).toBe(0);
    expect(a.includes(point(0, 0))).toBe(false);
    expect(() => a.push(new Node() as unknown as Point)).toThrow(ClassCastException);
    expect(() => a.push(new DataMap() as unknown as Point)).toThrow(ClassCastException);
    expect(a.schema().getItems()).toBe(p.schema());
  });

  it('wraps fixed and unions', () => {
    const hashes = new Hash4Array([new Hash4('abcd')]);
    expect(hashes.get(0).bytes().asAvroString()).toBe('abcd');
    const shapes = new ShapeArray([Shape.createWithLabel('a'), new Shape()]);
    expect(shapes.data().get(1)).toBe(Data.NULL);
    expect(shapes.get(1).isNull()).toBe(true);
    expect(shapes.get(0).getLabel()).toBe('a');
  });

  it('refuses stored items it cannot wrap', () => {
    expect(() => new PointArray(new DataList([1])).get(0)).toThrow(TemplateOutputCastException);
  });

  it('nests: arrays of arrays of primitives are generated once per tree', () => {
    const m = new IntegerArrayArray([new IntegerArray([1]), new IntegerArray([2, 3])]);
    expect(m.map((row) => row.toArray())).toEqual([[1], [2, 3]]);
    const c = new Collections().setMatrix(m);
    expect(Data.toJS(c.data())).toEqual({ matrix: [[1], [2, 3]] });
    expect(c.getMatrix()!.get(1).get(1)).toBe(3);
  });

  it('holds recursive records', () => {
    const tree = new Node().setName('root').setChildren(new NodeArray([new Node().setName('leaf')]));
    expect(tree.getChildren().get(0).getName()).toBe('leaf');
    expect(new Node().getChildren().length).toBe(0); // the default []
  });
});

describe('a map class', () => {
  it('is a Map<string, E> over a live DataMap', () => {
    const m = new LongMap({ a: 1 });
    const asMap: Map<string, number | bigint> = m;
    expect(asMap.set('b', 2n ** 60n)).toBe(m);
    expect(m.size).toBe(2);
    expect(m.get('b')).toBe(2n ** 60n);
    expect(m.get('zz')).toBeUndefined();
    expect(m.has('a')).toBe(true);
    expect([...m.keys()]).toEqual(['a', 'b']);
    expect([...m.values()]).toEqual([1, 2n ** 60n]);
    expect([...m]).toEqual([
      ['a', 1],
      ['b', 2n ** 60n],
    ]);
    expect(m.delete('a')).toBe(true);
    expect(m.delete('a')).toBe(false);
    const seen: string[] = [];
    m.forEach((v, k, map) => {
      expect(map).toBe(m);
      seen.push(`${k}=${String(v)}`);
    });
    expect(seen).toEqual([`b=${2n ** 60n}`]);
    expect(Object.prototype.toString.call(m)).toBe('[object LongMap]');
    m.clear();
    expect(m.size).toBe(0);
  });

  it('is built from a DataMap (wrapped), a Map, entries or a plain object', () => {
    const data = new DataMap({ x: 1.5 });
    expect(new DoubleMap(data).data()).toBe(data);
    expect(new DoubleMap(new Map([['y', 2]])).get('y')).toBe(2);
    expect(new DoubleMap([['z', 3]]).get('z')).toBe(3);
    expect(new DoubleMap({ w: 4 }).get('w')).toBe(4);
    expect(new DoubleMap(16).size).toBe(0);
    expect(() => new DoubleMap({ v: 'x' as unknown as number })).toThrow(ClassCastException);
  });

  it('wraps values that are templates', () => {
    const m = new PointArrayMap({ line: new PointArray([point(0, 0), point(1, 1)]) });
    expect(m.get('line')!.get(1).getY()).toBe(1);
    const c = new Collections().setPointLists(m);
    expect(Data.toJS(c.data())).toEqual({
      pointLists: {
        line: [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ],
      },
    });
    expect(() => m.set('bad', new IntegerArray() as unknown as PointArray)).toThrow(ClassCastException);
  });

  it('clones, copies, compares and prints like its data', () => {
    const m = new LongMap({ a: 1 });
    expect(m.clone()).toBeInstanceOf(LongMap);
    expect(m.clone().equals(m) && m.copy().equals(m)).toBe(true);
    expect(m.toString()).toBe('{"a":1}');
    expect(m.schema().getValues().getType()).toBe('LONG');
  });
});

describe('a record field of an array or map type', () => {
  it('returns the built-in class for primitives', () => {
    const c = new Collections().setInts(new IntegerArray([1])).setLongsByKey(new LongMap({ k: 1 }));
    expect(c.getInts()).toBeInstanceOf(IntegerArray);
    expect(c.getLongsByKey()).toBeInstanceOf(LongMap);
    c.getInts()!.push(2);
    expect(c.data().getDataList('ints')!.size).toBe(2);
  });

  it('refuses an array class of another item type', () => {
    expect(() => new Collections().setInts(new StringArray() as unknown as IntegerArray)).toThrow(
      ClassCastException,
    );
  });
});
