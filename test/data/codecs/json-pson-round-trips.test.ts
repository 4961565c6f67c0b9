/**
 * JSON and PSON read and write numbers by one rule (json-exact-parser.ts, pson-codec.ts), so data keeps its
 * wire type when it goes from one to the other and back: an integer stays an integer (a PSON int or long, a
 * JSON number without a fraction) and reads back as the same number or bigint.
 *
 * What JSON cannot carry is left out: bytes (JSON writes them as strings), NaN and ±Infinity (written as
 * strings, which the schema layer reads back for float and double fields), and -0 (`JSON.stringify` writes 0).
 */
import fc from 'fast-check';
import { Data, DataList, DataMap, JsonCodec, PsonCodec, type DataValue } from '../../../src';
import { dataMapArb } from '../../support/data-arbitraries';
import { fuzzRuns } from '../fuzz-runs';

const json = new JsonCodec();
const pson = new PsonCodec();

/** The map with -0 turned into 0, which is what JSON keeps of it. */
function withoutNegativeZero(value: DataValue): DataValue {
  if (Object.is(value, -0)) return 0;
  if (value instanceof DataMap) {
    const out = new DataMap();
    for (const [k, v] of value) out.put(k, withoutNegativeZero(v));
    return out;
  }
  if (value instanceof DataList) return new DataList(value.toArray().map(withoutNegativeZero));
  return value;
}

const jsonShapedMap = dataMapArb({ bytes: false }).map((m) => withoutNegativeZero(m) as DataMap);

describe('JSON and PSON together', () => {
  it('keeps every value and its wire type through JSON -> PSON -> JSON', () => {
    fc.assert(
      fc.property(jsonShapedMap, (map) => {
        const text = json.mapToString(map);
        const throughPson = pson.bytesToMap(pson.mapToBytes(json.stringToMap(text)));
        expect(json.mapToString(throughPson)).toBe(text);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('keeps every value and its wire type through PSON -> JSON -> PSON, byte for byte', () => {
    fc.assert(
      fc.property(jsonShapedMap, (map) => {
        const bytes = pson.mapToBytes(pson.bytesToMap(pson.mapToBytes(map)));
        const throughJson = json.stringToMap(json.mapToString(pson.bytesToMap(bytes)));
        expect(Buffer.from(pson.mapToBytes(throughJson)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  const boundary: Array<[string, string, string]> = [
    ['2^31-1', '2147483647', '02 ff ff ff 7f'],
    ['2^31', '2147483648', '03 00 00 00 80 00 00 00 00'],
    ['2^53-1, the largest safe integer', '9007199254740991', '03 ff ff ff ff ff ff 1f 00'],
    ['2^53', '9007199254740992', '03 00 00 00 00 00 00 20 00'],
    ['-(2^53)', '-9007199254740992', '03 00 00 00 00 00 00 e0 ff'],
    ['2^63-1', '9223372036854775807', '03 ff ff ff ff ff ff ff 7f'],
    ['-2^63', '-9223372036854775808', '03 00 00 00 00 00 00 00 80'],
    ['2^63, beyond the long range', '9223372036854775808', '05 00 00 00 00 00 00 e0 43'],
    ['1e20, beyond the long range', '100000000000000000000', '05 40 8c b5 78 1d af 15 44'],
  ];
  it.each(boundary)(
    'writes the JSON integer %s (%s) to PSON as %s and reads it back unchanged',
    (_label, token, hex) => {
      const fromJson = json.stringToMap(`{"v":${token}}`);
      const bytes = pson.mapToBytes(fromJson);
      // header, map, key #1 "v": the value starts at byte 12; the map's end (80) follows it
      const value = Buffer.from(bytes.subarray(12, bytes.length - 1)).toString('hex');
      expect(value).toBe(hex.replace(/ /g, ''));
      const back = pson.bytesToMap(bytes);
      expect(back.get('v')).toBe(fromJson.get('v'));
      // a long comes back digit for digit; a double as JSON.stringify prints it (2^63 as 9223372036854776000)
      expect(json.mapToString(back)).toBe(
        hex.startsWith('05') ? JSON.stringify({ v: Number(token) }) : `{"v":${token}}`,
      );
    },
  );

  it('carries NaN and ±Infinity through PSON as doubles and through JSON as the strings Jackson writes', () => {
    const map = Data.fromJS({ nan: NaN, inf: Infinity, list: [-Infinity] }) as DataMap;
    const back = pson.bytesToMap(pson.mapToBytes(map));
    expect(back.equals(map)).toBe(true);
    expect(json.mapToString(back)).toBe('{"nan":"NaN","inf":"Infinity","list":["-Infinity"]}');
  });
});
