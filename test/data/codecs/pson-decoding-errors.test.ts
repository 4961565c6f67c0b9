import { Data, MAX_NESTING_DEPTH, PsonCodec, isSvcError, type DataDecodingException } from '../../../src';

/** `#!PSON1\n` */
const HEADER = '23 21 50 53 4f 4e 31 0a';

/** Bytes from hex pairs; spaces are ignored. */
function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
}

/** A document's bytes: the header, then `body`. */
function doc(body: string): Uint8Array {
  return fromHex(`${HEADER} ${body}`);
}

/** The DataDecodingException `fn` throws; fails on anything else. */
function decodeError(fn: () => unknown): DataDecodingException {
  try {
    fn();
  } catch (err) {
    if (isSvcError(err, 'DataDecodingException', 'SVC_ERR_DATA_PSON_DECODE'))
      return err as DataDecodingException;
    throw err;
  }
  throw new Error('expected a DataDecodingException');
}

const codec = new PsonCodec();

/** [what, input, bytesToList (true) or bytesToMap, message pattern, offset] */
type ErrorCase = [string, Uint8Array, boolean, RegExp, number];

describe('PsonCodec decoding errors', () => {
  const cases: ErrorCase[] = [
    // header and top level
    [
      'an empty input',
      fromHex(''),
      false,
      /^Expecting header 0x232150534F4E310A but got 0x \(input is only 0/,
      0,
    ],
    [
      'a header cut short',
      fromHex('23 21 50'),
      false,
      /^Expecting header 0x232150534F4E310A but got 0x232150 /,
      0,
    ],
    [
      'a wrong header',
      fromHex('23 21 50 53 4f 4e 32 0a 20'),
      false,
      /but got 0x232150534F4E320A \(at byte/,
      0,
    ],
    [
      'JSON text',
      new Uint8Array(Buffer.from('{"a":1}')),
      false,
      /^Expecting header .* but got 0x7B2261223A317D \(input is only 7/,
      0,
    ],
    ['the header alone', doc(''), false, /^Truncated input: 0 byte\(s\) left where the top-level value/, 8],
    ['a list given to bytesToMap', doc('10'), false, /^Expected a map at the top level but found a list/, 8],
    [
      'a map given to bytesToList',
      doc('21 80'),
      true,
      /^Expected a list at the top level but found a map/,
      8,
    ],
    ['a string at the top level', doc('08'), false, /^Expected a map at the top level but found a string/, 8],
    ['an end-of-list marker at the top level', doc('ff'), true, /found the end-of-list marker/, 8],
    ['an illegal code at the top level', doc('07'), false, /^Illegal PSON element code 7 /, 8],
    ['a trailing byte', doc('20 00'), false, /^Unexpected 1 trailing byte\(s\) after the top-level value/, 9],
    ['a second document after the first', doc(`10 ${HEADER} 10`), true, /^Unexpected 9 trailing byte/, 9],

    // element codes
    ['element code 7', doc('11 07 ff'), true, /^Illegal PSON element code 7 /, 9],
    ['element code 12', doc('11 0c ff'), true, /^Illegal PSON element code 12 /, 9],
    ['element code 19', doc('11 13 ff'), true, /^Illegal PSON element code 19 /, 9],
    ['element code 35', doc('11 23 ff'), true, /^Illegal PSON element code 35 /, 9],
    [
      'element code 0x80, printed as a signed byte',
      doc('11 80 ff'),
      true,
      /^Illegal PSON element code -128 /,
      9,
    ],
    ['element code 0xFE', doc('11 fe ff'), true, /^Illegal PSON element code -2 /, 9],
    [
      'the NUL-in-key corruption of the reference',
      doc('21 81 61 00 78 00 02 01 00 00 00 80'),
      false,
      /^Illegal PSON element code 120 /,
      12,
    ],

    // map keys
    [
      'a new key with the wrong index',
      doc('21 83 61 00 00 80'),
      false,
      /^Received new key index 2 but expecting 1 /,
      9,
    ],
    [
      'a new key skipping an index',
      doc('21 81 61 00 00 85 62 00 00 80'),
      false,
      /^Received new key index 3 but expecting 2 /,
      13,
    ],
    [
      'a key index never defined',
      doc('21 82 00 80'),
      false,
      /^Received key index 1 but only 0 key\(s\) are defined/,
      9,
    ],
    [
      'a key index past the defined ones',
      doc('21 81 61 00 00 84 00 80'),
      false,
      /^Received key index 2 but only 1 key\(s\) are defined/,
      13,
    ],
    [
      'a huge key index',
      doc('21 7e 7f 7f 7f 8f 00 80'),
      false,
      /^Received key index 2147483647 but only 0/,
      9,
    ],
    ['an end-of-list marker as a map value', doc('21 81 61 00 ff'), false, /^Unexpected end of array /, 12],
    [
      'a map without its end',
      doc('21 81 61 00 00'),
      false,
      /^Truncated input: 0 byte\(s\) left where a map key index/,
      13,
    ],
    [
      'a key without its NUL',
      doc('21 81 61 62'),
      false,
      /^Truncated input: 2 byte\(s\) left where a NUL-terminated map key/,
      10,
    ],
    ['a long key without its NUL', doc(`21 81 ${'61 '.repeat(100)}`), false, /NUL-terminated map key/, 10],
    [
      'a key without its value',
      doc('21 81 61 00'),
      false,
      /^Truncated input: 0 byte\(s\) left where an element code/,
      12,
    ],

    // strings
    ['a string size of 0', doc('11 0a 00 00 00 00 00 ff'), true, /^String size should not be 0 /, 10],
    ['a 2-byte string size of 0', doc('11 0b 00 00 ff'), true, /^String size should not be 0 /, 10],
    ['a negative string size', doc('11 0a ff ff ff ff 00 ff'), true, /^String size -1 is negative/, 10],
    ['a negative 2-byte string size', doc('11 0b 00 80 00 ff'), true, /^String size -32768 is negative/, 10],
    [
      'a string size past the input',
      doc('11 0a 05 00 00 00 61 62 00 ff'),
      true,
      /^Truncated input: 4 byte\(s\) left where a string of 4 byte\(s\) and its NUL/,
      14,
    ],
    [
      'a string size of 2^31-1 in a 20-byte input',
      doc('11 0a ff ff ff 7f 61 62 63 64 65 66'),
      true,
      /^Truncated input: 6 byte\(s\) left where a string of 2147483646 byte/,
      14,
    ],
    [
      'a one-byte string that is not a NUL',
      doc('11 0a 01 00 00 00 41 ff'),
      true,
      /^C string not terminated with null/,
      14,
    ],
    ['a string length cut short', doc('11 0a 01 00'), true, /the 4-byte length of a string/, 10],
    ['a 2-byte string length cut short', doc('11 0b 01'), true, /the 2-byte length of a string/, 10],
    [
      'a C-string without its NUL',
      doc('11 09 61 62'),
      true,
      /^Truncated input: 2 byte\(s\) left where a NUL-terminated string/,
      10,
    ],

    // numbers and other leaves
    [
      'an int cut short',
      doc('11 02 01 00'),
      true,
      /^Truncated input: 2 byte\(s\) left where a 4-byte int/,
      10,
    ],
    ['a long cut short', doc('11 03 01 00 00 00 00 00 00'), true, /an 8-byte long/, 10],
    ['a double cut short', doc('11 05 00 00 00'), true, /an 8-byte double/, 10],
    ['a float cut short', doc('11 04 00 00'), true, /a 4-byte float/, 10],
    ['a boolean without its byte', doc('11 01'), true, /the byte of a boolean/, 10],
    ['a byte count cut short', doc('11 06 02 00'), true, /the 4-byte length of bytes/, 10],
    ['a negative byte count', doc('11 06 fe ff ff ff ff'), true, /^Byte count -2 is negative/, 10],
    [
      'a byte count past the input',
      doc('11 06 ff ff ff 7f 01 02 ff'),
      true,
      /^Truncated input: 3 byte\(s\) left where 2147483647 byte\(s\) of binary data/,
      14,
    ],

    // lists and counts
    [
      'a list without its end',
      doc('11 01 01'),
      true,
      /^Truncated input: 0 byte\(s\) left where an element code/,
      11,
    ],
    [
      'a list count above the items',
      doc('12 83 01 01 ff'),
      true,
      /^Actual number array items \(1\) is not the same as expected \(3\)/,
      12,
    ],
    [
      'a list count below the items',
      doc('12 80 00 ff'),
      true,
      /^Actual number array items \(1\) is not the same as expected \(0\)/,
      11,
    ],
    [
      'a map count above the entries',
      doc('22 82 81 61 00 00 80'),
      false,
      /^Actual number object fields \(1\) is not the same as expected \(2\)/,
      14,
    ],
    [
      'a count cut short',
      doc('12 00'),
      true,
      /^Truncated input: 1 byte\(s\) left where the item count of a list/,
      9,
    ],
    [
      'a varint longer than 5 bytes',
      doc('12 00 00 00 00 00 81 ff'),
      true,
      /^Varint longer than 5 bytes in the item count/,
      9,
    ],
    [
      'a varint past 32 bits',
      doc('22 7f 7f 7f 7f 9f 80'),
      false,
      /^Varint overflows 32 bits in the entry count of a map/,
      9,
    ],
    [
      'a key index varint longer than 5 bytes',
      doc('21 00 00 00 00 00 80'),
      false,
      /^Varint longer than 5 bytes in a map key index/,
      9,
    ],
  ];

  it.each(cases)('reports %s', (_what, input, asList, message, offset) => {
    const err = decodeError(() => (asList ? codec.bytesToList(input) : codec.bytesToMap(input)));
    expect(err.name).toBe('DataDecodingException');
    expect(err.code).toBe('SVC_ERR_DATA_PSON_DECODE');
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(message);
    expect(err.offset).toBe(offset);
    expect(err.message).toContain(`(at byte offset ${offset})`);
  });

  describe('nesting', () => {
    /** `depth` nested lists (the outermost one is depth 1), the innermost one empty. */
    const nested = (depth: number): Uint8Array =>
      doc(`${'11 '.repeat(depth - 1)}10 ${'ff '.repeat(depth - 1)}`);

    it('accepts nesting down to maxDepth (MAX_NESTING_DEPTH, 1000, by default)', () => {
      expect(MAX_NESTING_DEPTH).toBe(1000);
      expect(codec.bytesToList(nested(MAX_NESTING_DEPTH)).size).toBe(1);
    });

    it.each([
      ['lists', doc(`${'11 '.repeat(512 * 1024)}${'ff '.repeat(512 * 1024)}`), 8 + 1000],
      ['unclosed lists', doc('11 '.repeat(1024 * 1024)), 8 + 1000],
      [
        'maps',
        doc(`21 81 61 00 ${'21 82 '.repeat(512 * 1024)}20 ${'80 '.repeat(512 * 1024)}`),
        8 + 4 + 2 * 999,
      ],
    ])('refuses 1 MB of nested %s with the typed error naming the limit', (_what, input, offset) => {
      const err = decodeError(() => (input[8] === 0x21 ? codec.bytesToMap(input) : codec.bytesToList(input)));
      expect(err.message).toMatch(/^Nesting deeper than the maximum depth of 1000 /);
      expect(err.offset).toBe(offset);
    });

    it('refuses one level more, at the offset of the container too deep', () => {
      const err = decodeError(() => codec.bytesToList(nested(1001)));
      expect(err.message).toMatch(/^Nesting deeper than the maximum depth of 1000 /);
      expect(err.offset).toBe(8 + 1000);
    });

    it.each([
      ['a non-empty list', '11 11 11 01 01 ff ff ff', 10],
      ['an empty map', '11 11 20 ff ff', 10],
      ['a map in a map', '21 81 61 00 21 82 21 82 00 80 80 80', 14],
      ['a counted list', '11 11 12 81 00 ff ff ff', 10],
    ])('counts %s as a level', (_what, body, offset) => {
      const err = decodeError(() => {
        const input = doc(body);
        return input[8] === 0x21
          ? new PsonCodec({ maxDepth: 2 }).bytesToMap(input)
          : new PsonCodec({ maxDepth: 2 }).bytesToList(input);
      });
      expect(err.message).toMatch(/maximum depth of 2 /);
      expect(err.offset).toBe(offset);
    });

    it('checks the depth the same way past the recursion limit', () => {
      const strict = new PsonCodec({ maxDepth: 5000 });
      expect(strict.bytesToList(nested(5000)).size).toBe(1);
      expect(decodeError(() => strict.bytesToList(nested(5001))).offset).toBe(8 + 5000);
      const mapDepth = (depth: number): Uint8Array =>
        doc(`21 81 6b 00 ${'21 82 '.repeat(depth - 2)}20 ${'80 '.repeat(depth - 1)}`);
      expect(strict.bytesToMap(mapDepth(5000)).has('k')).toBe(true);
      expect(decodeError(() => strict.bytesToMap(mapDepth(5001))).offset).toBe(8 + 4 + 2 * 4999);
    });

    it('fails a million-deep claim instead of running out of stack', () => {
      const input = doc('11 '.repeat(1_000_000));
      expect(decodeError(() => new PsonCodec({ maxDepth: 2_000_000 }).bytesToList(input)).message).toMatch(
        /^Truncated input/,
      );
      expect(decodeError(() => codec.bytesToList(input)).offset).toBe(8 + 1000);
    });

    it('reads counted forms past the recursion limit', () => {
      const deep = new PsonCodec({ maxDepth: 1000 });
      const list = `${'12 81 '.repeat(300)}12 82 01 01 22 81 81 61 00 00 80 ${'ff '.repeat(301)}`;
      let node = Data.toJS(deep.bytesToList(doc(list)));
      for (let i = 0; i < 300; i++) node = (node as unknown[])[0];
      expect(node).toEqual([true, { a: null }]);
    });

    it('reports count mismatches and truncation past the recursion limit too', () => {
      const deep = new PsonCodec({ maxDepth: 1000 });
      const list = `${'11 '.repeat(300)}12 82 01 01 ff ${'ff '.repeat(300)}`;
      expect(decodeError(() => deep.bytesToList(doc(list))).message).toMatch(
        /^Actual number array items \(1\) is not the same as expected \(2\)/,
      );
      const map = `${'11 '.repeat(300)}22 82 81 61 00 00 80 ${'ff '.repeat(300)}`;
      expect(decodeError(() => deep.bytesToList(doc(map))).message).toMatch(
        /^Actual number object fields \(1\)/,
      );
      const endAsValue = `${'11 '.repeat(300)}21 81 61 00 ff`;
      expect(decodeError(() => deep.bytesToList(doc(endAsValue))).message).toMatch(
        /^Unexpected end of array/,
      );
      expect(decodeError(() => deep.bytesToList(doc('11 '.repeat(300)))).message).toMatch(/^Truncated input/);
      expect(decodeError(() => deep.bytesToList(doc(`${'11 '.repeat(300)}21 81 61 00`))).message).toMatch(
        /^Truncated input: 0 byte\(s\) left where an element code/,
      );
      const tooDeep = new PsonCodec({ maxDepth: 250 });
      expect(
        decodeError(() => tooDeep.bytesToList(doc(`${'11 '.repeat(249)}21 81 61 00 11 ff 80`))).offset,
      ).toBe(8 + 249 + 4);
      expect(decodeError(() => deep.bytesToList(doc(`${'11 '.repeat(300)}07`))).message).toMatch(/code 7 /);
    });
  });

  it('reads NaN and ±Infinity doubles and floats as the numbers they are', () => {
    const list = codec.bytesToList(
      doc(
        '11 05 00 00 00 00 00 00 f8 7f 05 00 00 00 00 00 00 f0 7f 05 00 00 00 00 00 00 f0 ff 04 00 00 c0 7f 04 00 00 80 ff ff',
      ),
    );
    expect(list.toArray()).toEqual([NaN, Infinity, -Infinity, NaN, -Infinity]);
  });

  it('decodes again normally after an error', () => {
    decodeError(() => codec.bytesToList(doc('11 21 81 61 00 07')));
    expect(Data.toJS(codec.bytesToList(doc('11 21 81 62 00 08 80 ff')))).toEqual([{ b: '' }]);
  });
});
