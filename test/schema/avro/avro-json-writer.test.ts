import { ByteString, Data, DataList, DataMap } from '../../../src';
import {
  data,
  javaDoubleText,
  javaFloatText,
  obj,
  quote,
  writeAvroJson,
  type JsonOut,
} from '../../../src/schema/avro/avro-json-writer';
import { AvroJsonStyle } from '../../../src/schema/avro/avro-options';

describe('the Avro JSON writer', () => {
  const tree: JsonOut = obj([
    ['a', [1, obj([['b', null]]), []]],
    ['c', obj([])],
    ['d', true],
  ]);

  it.each([
    [AvroJsonStyle.COMPACT, '{"a":[1,{"b":null},[]],"c":{},"d":true}'],
    [AvroJsonStyle.SPACES, '{ "a" : [ 1, { "b" : null }, [  ] ], "c" : {  }, "d" : true }'],
    [AvroJsonStyle.INDENTED, '{\n  "a" : [ 1, {\n    "b" : null\n  }, [ ] ],\n  "c" : { },\n  "d" : true\n}'],
  ])('writes the %s layout', (style, expected) => {
    expect(writeAvroJson(tree, style)).toBe(expected);
  });

  it('writes data values: longs exactly, bytes as Avro strings, maps sorted when asked', () => {
    const map = new DataMap([
      ['z', 9007199254740993n],
      ['b', ByteString.copy([0, 255])],
      [
        'a',
        new DataList([
          Data.NULL,
          new DataMap([
            ['y', 1],
            ['x', 2],
          ]),
        ]),
      ],
    ]);
    expect(writeAvroJson(data(map), AvroJsonStyle.COMPACT)).toBe(
      '{"z":9007199254740993,"b":"\\u0000ÿ","a":[null,{"y":1,"x":2}]}',
    );
    expect(writeAvroJson(data(map, true), AvroJsonStyle.COMPACT)).toBe(
      '{"a":[null,{"x":2,"y":1}],"b":"\\u0000ÿ","z":9007199254740993}',
    );
  });

  it.each([
    ['plain', 'plain'],
    ['quote " and backslash \\', 'quote \\" and backslash \\\\'],
    ['\b\t\n\f\r', '\\b\\t\\n\\f\\r'],
    ['\u0001\u001f', '\\u0001\\u001F'],
    ['é😀\u007f', 'é😀\u007f'],
    ['lone \ud800 surrogate', 'lone \\uD800 surrogate'],
  ])('escapes strings as Jackson does: %j', (s, body) => {
    expect(quote(s)).toBe(`"${body}"`);
    expect(JSON.parse(quote(s))).toBe(s);
  });

  it.each([
    [2, '2.0'],
    [1.5, '1.5'],
    [-0, '-0.0'],
    [0, '0.0'],
    [0.001, '0.001'],
    [0.0001, '1.0E-4'],
    [1234567, '1234567.0'],
    [1e7, '1.0E7'],
    [12345678.9, '1.23456789E7'],
    [-1.5e-10, '-1.5E-10'],
    [1e300, '1.0E300'],
  ])('writes the double %p as Java does: %s', (v, text) => {
    expect(javaDoubleText(v)).toBe(text);
  });

  it.each([
    [0.1, '0.1'],
    [1.1, '1.1'],
    [0.30000000000000004, '0.3'],
    [3.4028234663852886e38, '3.4028235E38'],
    [16777217, '1.6777216E7'],
    [2, '2.0'],
  ])('writes the float %p as Java does: %s', (v, text) => {
    expect(javaFloatText(v)).toBe(text);
  });
});
