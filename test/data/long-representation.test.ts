/**
 * A bigint the application puts in is a long and stays one (src/data/README.md, "Numbers on the wire";
 * src/data/long-marks.ts): PSON writes it with the long marker whatever its size, as the reference writes a
 * Java `Long`, typed long fields do the same, and every other consumer sees the one in-memory form a long
 * has (a number inside ±(2^53-1)), so `7n` and `7` are one long. Byte layouts from
 * ../shared/reference/restli-wire-facts.md §1.1 (header `#!PSON1\n`, map 0x21 ... 0x80, list 0x11 ... 0xFF,
 * key `81 61 00` is new key #1 "a", marker 0x02 int32 LE, 0x03 int64 LE) and the vectors of §1.6.
 */
import {
  CoercionMode,
  CompoundKey,
  Data,
  DataList,
  DataMap,
  DataTranslator,
  JsonCodec,
  KeyMap,
  LongArray,
  LongMap,
  PsonCodec,
  SchemaTranslator,
  diffPatch,
  encodeKeyForPath,
  parseSchema,
  validate,
  type RecordDataSchema,
} from '../../src';
import { Primitives } from '../generated/binding/com/example/binding/Primitives';

const pson = new PsonCodec();
const json = new JsonCodec();
const HEADER = '23 21 50 53 4f 4e 31 0a';
const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
const unhex = (text: string): Uint8Array => Uint8Array.from(text.split(/\s+/), (b) => parseInt(b, 16));
/** A one-item PSON list (0x11, the item, 0xFF) and a one-entry map `{"v": item}` (key #1 "v" = 81 76 00). */
const listHex = (item: string): string => `${HEADER} 11 ${item} ff`;
const mapHex = (item: string): string => `${HEADER} 21 81 76 00 ${item} 80`;

const mapHexOf = (map: DataMap): string => hex(pson.mapToBytes(map));
const LONG_0 = '03 00 00 00 00 00 00 00 00';
const LONG_7 = '03 07 00 00 00 00 00 00 00';
const INT_7 = '02 07 00 00 00';

describe('PSON numbers put in by the application', () => {
  it.each<[string, number | bigint, string]>([
    ['the long marker for 0n', 0n, LONG_0],
    ['the long marker for 1n', 1n, '03 01 00 00 00 00 00 00 00'],
    ['the long marker for -1n', -1n, '03 ff ff ff ff ff ff ff ff'],
    ['the long marker for 2n ** 53n', 2n ** 53n, '03 00 00 00 00 00 00 20 00'],
    ['the long marker for -(2n ** 53n - 1n)', -(2n ** 53n - 1n), '03 01 00 00 00 00 00 e0 ff'],
    ['the long marker for -(2n ** 63n)', -(2n ** 63n), '03 00 00 00 00 00 00 00 80'],
    ['the int marker for the number 0', 0, '02 00 00 00 00'],
    ['the int marker for the number -1', -1, '02 ff ff ff ff'],
    ['the long marker for the number 2 ** 31', 2 ** 31, '03 00 00 00 80 00 00 00 00'],
    ['the double marker for the number -0', -0, '05 00 00 00 00 00 00 00 80'],
  ])('writes %s', (_name, value, item) => {
    expect(hex(pson.listToBytes(new DataList([value])))).toBe(listHex(item));
    expect(hex(pson.listToBytes(new DataList().add(value)))).toBe(listHex(item));
    const replaced = new DataList([1]);
    replaced.set(0, value);
    expect(hex(pson.listToBytes(replaced))).toBe(listHex(item));
    expect(hex(pson.mapToBytes(new DataMap({ v: value })))).toBe(mapHex(item));
    expect(hex(pson.mapToBytes(new DataMap().set('v', value)))).toBe(mapHex(item));
    expect(hex(pson.mapToBytes(Data.fromJS({ v: value }) as DataMap))).toBe(mapHex(item));
  });

  it.each<[string, (l: DataList) => unknown]>([
    ['set', (l) => l.set(1, 7n)],
    ['addAt', (l) => l.removeAt(1) && l.addAt(1, 7n)],
  ])('writes the long marker for a bigint put in with DataList.%s', (_name, put) => {
    const list = new DataList([1, 2, 3]);
    put(list);
    expect(hex(pson.listToBytes(list))).toBe(`${HEADER} 11 02 01 00 00 00 ${LONG_7} 02 03 00 00 00 ff`);
  });

  it('keeps each mark on its element when DataList items are inserted and removed before it', () => {
    const list = new DataList([7, 7n, 7]);
    list.addAt(0, 7);
    list.addAt(0, 7n);
    // [7n, 7, 7, 7n, 7]
    expect(hex(pson.listToBytes(list))).toBe(
      `${HEADER} 11 ${LONG_7} ${INT_7} ${INT_7} ${LONG_7} ${INT_7} ff`,
    );
    list.removeAt(1);
    list.removeAt(0);
    // [7, 7n, 7]
    expect(hex(pson.listToBytes(list))).toBe(`${HEADER} 11 ${INT_7} ${LONG_7} ${INT_7} ff`);
    list.clear();
    list.add(7).add(7).add(7);
    expect(hex(pson.listToBytes(list))).toBe(`${HEADER} 11 ${INT_7} ${INT_7} ${INT_7} ff`);
  });

  it.each<[string, (m: DataMap) => unknown, string]>([
    ['put of a number', (m) => m.put('v', 7), INT_7],
    ['set of a number', (m) => m.set('v', 7), INT_7],
    ['remove, then put of a number', (m) => (m.remove('v'), m.put('v', 7)), INT_7],
    ['clear, then set of a number', (m) => (m.clear(), m.set('v', 7)), INT_7],
    ['put of another bigint', (m) => m.put('v', 7n), LONG_7],
  ])('writes what the last %s says', (_name, change, item) => {
    const map = new DataMap({ v: 0n });
    change(map);
    expect(hex(pson.mapToBytes(map))).toBe(mapHex(item));
  });

  it('holds a bigint inside ±(2^53-1) as the number, so every consumer of data sees one form', () => {
    const map = new DataMap({ v: 7n, w: 0n });
    const list = new DataList([7n]);
    expect(map.get('v')).toBe(7);
    expect(map.getLong('w')).toBe(0);
    expect(list.get(0)).toBe(7);
    expect(JSON.stringify(map)).toBe('{"v":7,"w":0}');
    expect(JSON.stringify(list)).toBe('[7]');
    expect(Data.toJS(map)).toEqual({ v: 7, w: 0 });
  });

  it('writes longs as their digits in JSON, on the native and the exact path', () => {
    expect(json.mapToString(new DataMap({ a: 7n, b: 7, c: 0n }))).toBe('{"a":7,"b":7,"c":0}');
    expect(json.mapToString(new DataMap({ a: 7n, b: 2n ** 60n }))).toBe('{"a":7,"b":1152921504606846976}');
    expect(json.listToString(new DataList([-(2n ** 53n - 1n), new DataMap({ x: 0n })]))).toBe(
      '[-9007199254740991,{"x":0}]',
    );
    expect(new DataMap({ a: 0n }).toString()).toBe('{"a":0}');
  });

  it.each<[string, (m: DataMap) => DataMap]>([
    ['copy', (m) => m.copy()],
    ['clone', (m) => m.clone()],
    ['copy after makeReadOnly', (m) => (m.makeReadOnly(), m.copy())],
  ])('keeps the marks in a %s', (_name, duplicate) => {
    const map = new DataMap({ v: 7n, l: new DataList([7, 7n]), m: new DataMap({ v: 7n }) });
    const expected = hex(pson.mapToBytes(map));
    const dup = duplicate(map);
    expect(hex(pson.mapToBytes(dup))).toBe(expected);
    expect(expected).toContain(LONG_7);
    if (!dup.isReadOnly()) {
      dup.put('v', 7); // the copy's marks are its own
      expect(hex(pson.mapToBytes(map))).toBe(expected);
    }
  });

  it('keeps the longs of the DataMap or DataList a container is made from', () => {
    const map = new DataMap({ v: 7n, w: 7 });
    const list = new DataList([7n, 7]);
    expect(hex(pson.mapToBytes(new DataMap(map)))).toBe(mapHexOf(map));
    expect(hex(pson.listToBytes(new DataList(list)))).toBe(hex(pson.listToBytes(list)));
    expect(hex(pson.listToBytes(new DataList().addAll(list)))).toBe(hex(pson.listToBytes(list)));
    expect(mapHexOf(map)).toContain(LONG_7);
    expect(hex(pson.listToBytes(list))).toBe(`${HEADER} 11 ${LONG_7} ${INT_7} ff`);
  });

  it('keeps the marks of a map with many longs (past the short list of marked keys)', () => {
    const map = new DataMap();
    for (let i = 0; i < 40; i++) map.put(`k${i}`, i % 2 === 0 ? BigInt(i) : i);
    map.put('k0', 0); // no longer a long
    map.remove('k2');
    const reference = new DataMap();
    for (let i = 0; i < 40; i++) if (i !== 2) reference.put(`k${i}`, i % 2 === 0 && i > 0 ? BigInt(i) : i);
    const bytes = hex(pson.mapToBytes(map));
    expect(bytes).toBe(hex(pson.mapToBytes(reference)));
    expect(bytes.split(' 03 ').length - 1).toBeGreaterThanOrEqual(18);
    const decoded = pson.bytesToMap(pson.mapToBytes(map));
    expect(hex(pson.mapToBytes(decoded))).toBe(bytes);
    expect(hex(pson.mapToBytes(decoded.copy()))).toBe(bytes);
    decoded.put('k4', 4);
    expect(hex(pson.mapToBytes(decoded))).not.toBe(bytes);
  });

  it('writes the long marker below the depth where the encoder stops recursing', () => {
    let deep: DataValueHolder = new DataList([7n, 7]);
    for (let i = 0; i < 300; i++) deep = new DataMap({ v: 7n, d: deep });
    const bytes = pson.listToBytes(new DataList([deep]));
    expect(hex(pson.listToBytes(pson.bytesToList(bytes)))).toBe(hex(bytes));
    expect(hex(bytes)).toContain(`${LONG_7} ${INT_7} ff`);
  });
});
type DataValueHolder = DataMap | DataList;

describe('a PSON → PSON pass-through (the reference keeps Long apart from Integer)', () => {
  // restli-wire-facts.md §1.6: [{"a":1},{"a":2L}] (key "a" reused as +1 = 0x82)
  const VECTOR = `${HEADER} 11 21 81 61 00 02 01 00 00 00 80 21 82 03 02 00 00 00 00 00 00 00 80 ff`;

  it('writes the facts vector back byte for byte, the long as a long', () => {
    const list = pson.bytesToList(unhex(VECTOR));
    expect((list.get(1) as DataMap).get('a')).toBe(2); // one in-memory form
    expect(hex(pson.listToBytes(list))).toBe(VECTOR);
    expect(hex(pson.listToBytes(list.copy()))).toBe(VECTOR);
  });

  it('keeps a decoded long a long through a typed record', () => {
    const bytes = pson.mapToBytes(new Primitives().setALong(5).setAnInt(5).data());
    const again = new Primitives(pson.bytesToMap(bytes));
    expect(again.getALong()).toBe(5);
    expect(hex(pson.mapToBytes(again.data()))).toBe(hex(bytes));
  });

  it('takes the last value of a key repeated in a map, and its type', () => {
    // {"a": 2L, "a": 3}: key #1 "a", then +1 again
    const bytes = unhex(`${HEADER} 21 81 61 00 03 02 00 00 00 00 00 00 00 82 02 03 00 00 00 80`);
    expect(hex(pson.mapToBytes(pson.bytesToMap(bytes)))).toBe(`${HEADER} 21 81 61 00 02 03 00 00 00 80`);
  });

  it('writes a JSON integer as JSON has it: an int inside int32', () => {
    expect(hex(pson.mapToBytes(json.stringToMap('{"v":7}')))).toBe(mapHex(INT_7));
  });
});

describe('a typed long field', () => {
  it.each<[string, number | bigint, number | bigint]>([
    ['0', 0, 0],
    ['0n', 0n, 0],
    ['-0', -0, 0],
    ['7', 7, 7],
    ['2 ** 40', 2 ** 40, 2 ** 40],
    ['2n ** 60n', 2n ** 60n, 2n ** 60n],
  ])('set to %s is written with the PSON long marker and read back as it was', (_name, value, read) => {
    const p = new Primitives().setALong(value);
    const bytes = pson.mapToBytes(p.data());
    const at = bytes.indexOf(0x00, 10) + 1; // after the key 'aLong' and its NUL
    expect(bytes[at]).toBe(0x03);
    expect(p.getALong()).toBe(read);
  });

  it('leaves an int field an int', () => {
    expect(hex(pson.mapToBytes(new Primitives().setAnInt(7).data()))).toContain(`00 ${INT_7} 80`);
  });

  it('keeps JSON.stringify(record.data()) working, with the digits of the long', () => {
    const p = new Primitives().setALong(0).setAnInt(1);
    expect(JSON.parse(JSON.stringify(p.data()))).toEqual({ aLong: 0, anInt: 1 });
    expect(JSON.stringify({ entity: new Primitives().setALong(7n).data() })).toBe('{"entity":{"aLong":7}}');
    expect(json.mapToString(new Primitives().setALong(2n ** 60n).data())).toBe(
      '{"aLong":1152921504606846976}',
    );
  });

  it.each<[string, () => DataMap | DataList]>([
    ['LongArray items', () => new LongArray([7, 7n]).data()],
    ['LongArray.add', () => new LongArray().add(7).add(7n).data()],
    ['LongMap values', () => new LongMap({ a: 7 }).data()],
  ])('marks %s long', (_name, data) => {
    const d = data();
    const bytes = hex(d instanceof DataList ? pson.listToBytes(d) : pson.mapToBytes(d));
    expect(bytes).toContain(LONG_7);
    expect(bytes).not.toContain(INT_7);
  });

  it.each<[string, CoercionMode, unknown]>([
    ['a fraction (NORMAL)', CoercionMode.NORMAL, 7.5],
    ['a string (STRING_TO_PRIMITIVE)', CoercionMode.STRING_TO_PRIMITIVE, '7'],
  ])('is stored as a long when validation coerces %s', (_name, coercionMode, raw) => {
    const schema = parseSchema(
      '{"type":"record","name":"R","fields":[{"name":"v","type":"long"},{"name":"l","type":{"type":"array","items":"long"}}]}',
    );
    const data = new DataMap({ v: raw as number, l: new DataList([raw as number]) });
    const result = validate(data, schema, { coercionMode });
    expect(result.isValid()).toBe(true);
    expect(data.get('v')).toBe(7);
    const bytes = hex(pson.mapToBytes(data));
    expect(bytes).toContain(`76 00 ${LONG_7}`);
    expect(bytes).toContain(`11 ${LONG_7} ff`);
  });
});

describe('7n and 7 are the same long', () => {
  it.each<[string, () => boolean]>([
    ['DataMap.equals', () => new DataMap({ a: 7n }).equals(new DataMap({ a: 7 }))],
    ['DataList.equals', () => new DataList([0n, -1n]).equals(new DataList([0, -1]))],
    ['DataList.indexOf', () => new DataList([1, 7n]).indexOf(7) === 1],
    [
      'nested equality',
      () => new DataMap({ l: new DataList([7n]) }).equals(new DataMap({ l: new DataList([7]) })),
    ],
  ])('to %s', (_name, check) => {
    expect(check()).toBe(true);
  });

  it('but a long is not an unequal long, nor its text', () => {
    expect(new DataMap({ a: 7n }).equals(new DataMap({ a: 8 }))).toBe(false);
    expect(new DataMap({ a: 7n }).equals(new DataMap({ a: '7' }))).toBe(false);
  });

  it('to diffPatch, which reports no change from 7 to 7n and keeps a changed long a long', () => {
    const patch = diffPatch(new DataMap({ a: 7, b: 1 }), new DataMap({ a: 7n, b: 2n }));
    expect(Data.toJS(patch)).toEqual({ $set: { b: 2 } });
    expect(hex(pson.mapToBytes(patch))).toContain('03 02 00 00 00 00 00 00 00');
  });

  it('to KeyMap and key text', () => {
    const keys = new KeyMap<number | bigint, string>([[7, 'number']]);
    expect(keys.get(7n)).toBe('number');
    expect(encodeKeyForPath(7n)).toBe(encodeKeyForPath(7));
    expect(encodeKeyForPath(new CompoundKey({ a: 7n, b: 0n }))).toBe(
      encodeKeyForPath(new CompoundKey({ a: 7, b: 0 })),
    );
  });

  it.each<[CoercionMode]>([[CoercionMode.OFF], [CoercionMode.NORMAL]])(
    'to validation of a long field (%s), with no fix',
    (coercionMode) => {
      const schema = parseSchema('{"type":"record","name":"R","fields":[{"name":"v","type":"long"}]}');
      for (const v of [0n, 7n, -(2n ** 63n), 2n ** 63n - 1n]) {
        const result = validate(new DataMap({ v }), schema, { coercionMode });
        expect(result.isValid()).toBe(true);
        expect(result.hasFix()).toBe(false);
      }
      expect(validate(7n, parseSchema('"long"'), { coercionMode }).isValid()).toBe(true);
    },
  );

  it('to Avro data translation', () => {
    const schema = parseSchema(
      '{"type":"record","name":"R","fields":[{"name":"v","type":"long"}]}',
    ) as RecordDataSchema;
    const avro = SchemaTranslator.dataToAvroSchemaJson(schema);
    const fromLong = DataTranslator.dataMapToGenericRecord(new DataMap({ v: 7n }), schema, avro);
    const fromNumber = DataTranslator.dataMapToGenericRecord(new DataMap({ v: 7 }), schema, avro);
    expect(fromLong).toEqual(fromNumber);
    expect(DataTranslator.genericRecordToDataMap(fromLong, schema, avro).equals(new DataMap({ v: 7n }))).toBe(
      true,
    );
  });
});
