/**
 * fast-check arbitraries for data-layer values, shared by the codec and data tests.
 */
import fc from 'fast-check';
import { ByteString, Data, DataList, DataMap, type DataValue } from '../../src';

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Strings with full unicode, surrogate pairs included (no lone surrogates: those are not valid UTF-8). */
export const dataString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', 'é', '☺', '😀', 'a\u0000b', '__proto__', 'constructor', 'List(', "it's (x:y),z"),
);

export const dataKey = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }).filter((k) => !k.includes('\u0000')),
  fc.constantFrom('__proto__', 'constructor', 'toString', '0', '42', 'a.b', ''),
);

/** A long: a safe number or a bigint beyond ±2^53, across the whole 64-bit range. */
export const dataLong: fc.Arbitrary<number | bigint> = fc
  .bigInt({ min: LONG_MIN, max: LONG_MAX })
  .map((b) => (b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b));

const anyDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
/** Integral doubles beyond ±2^53 print as digits in JSON and read back as longs (see JsonCodec). */
const unambiguousDouble = anyDouble.filter((d) => !Number.isInteger(d) || Number.isSafeInteger(d));

function primitives(ambiguousDoubles: boolean): fc.Arbitrary<DataValue> {
  return fc.oneof(
    fc.integer(),
    dataLong,
    ambiguousDoubles ? anyDouble : unambiguousDouble,
    fc.boolean(),
    dataString,
    fc.uint8Array({ maxLength: 16 }).map((b) => ByteString.copy(b)),
    fc.constant(Data.NULL),
  );
}

export const dataPrimitive: fc.Arbitrary<DataValue> = primitives(true);

export interface DataTreeOptions {
  /** Whether ByteStrings may appear (JSON turns them into strings, so JSON round trips exclude them). */
  readonly bytes?: boolean;
  readonly maxDepth?: number;
  /** Whether integral doubles beyond ±2^53 may appear (JSON reads them back as longs). Default true. */
  readonly ambiguousDoubles?: boolean;
}

/** Plain JS trees that Data.fromJS turns into DataMaps; raw JS so shrinking stays readable. */
export function dataMapArb(options: DataTreeOptions = {}): fc.Arbitrary<DataMap> {
  const { bytes = true, maxDepth = 6, ambiguousDoubles = true } = options;
  const all = primitives(ambiguousDoubles);
  const leaf = bytes ? all : all.filter((v) => !(v instanceof ByteString));
  const tree = fc.letrec<{ value: unknown; map: Record<string, unknown>; list: unknown[] }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth }, leaf, tie('map'), tie('list')),
    map: fc.dictionary(dataKey, tie('value'), { maxKeys: 6 }),
    list: fc.array(tie('value'), { maxLength: 6 }),
  }));
  return tree.map.map((m) => Data.fromJS(m as never) as DataMap);
}

/** A map whose graph shares one node in two places (copy() must keep the sharing). */
export function sharedNodeMapArb(): fc.Arbitrary<DataMap> {
  return dataMapArb({ maxDepth: 3 }).map((inner) => {
    const root = new DataMap();
    root.put('first', inner);
    root.put('second', new DataList([inner]));
    return root;
  });
}

/** A list nested `depth` deep: [[[...]]]. */
export function deepList(depth: number): DataList {
  const root = new DataList();
  let cur = root;
  for (let i = 0; i < depth; i++) {
    const next = new DataList();
    cur.add(next);
    cur = next;
  }
  return root;
}
