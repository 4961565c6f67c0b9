import {
  ByteString,
  Data,
  DataList,
  DataMap,
  type DataValue,
  type UriEncodingMode,
  contextualEncode,
  encodeElement,
  encodeUriString,
  escapeReserved,
  javaNumberText,
  percentDecode,
  stringifyPrimitive,
  unescapeReserved,
} from '../../src';

const MODES: readonly UriEncodingMode[] = ['path', 'query', 'none'];

describe('encodeElement', () => {
  describe('escapes every row of the verified table (wire facts §2.2) in each mode', () => {
    const table: Array<[input: string, path: string, query: string, none: string]> = [
      ['a b/c?d&e=f+g%h', 'a%20b%2Fc%3Fd&e=f+g%25h', 'a%20b/c?d%26e%3Df%2Bg%25h', 'a b/c?d&e=f+g%25h'],
      ["it's (x:y),z", 'it%27s%20%28x%3Ay%29%2Cz', 'it%27s%20%28x%3Ay%29%2Cz', 'it%27s %28x%3Ay%29%2Cz'],
      ['é☺', '%C3%A9%E2%98%BA', '%C3%A9%E2%98%BA', 'é☺'],
      ['', "''", "''", "''"],
    ];
    for (const [input, path, query, none] of table) {
      it(`encodes ${JSON.stringify(input)}`, () => {
        expect(encodeElement(input, 'path')).toBe(path);
        expect(encodeElement(input, 'query')).toBe(query);
        expect(encodeElement(input, 'none')).toBe(none);
        expect(encodeUriString(input, 'path')).toBe(path);
      });
    }
  });

  describe('writes the empty forms (wire facts §2.3)', () => {
    const rows: Array<[string, DataValue, string]> = [
      ['an empty map', new DataMap(), '()'],
      ['an empty list', new DataList(), 'List()'],
      ['an empty string', '', "''"],
      ['a map with empty key and empty value', new DataMap([['', '']]), "('':'')"],
      ['a list holding an empty string', new DataList(['']), "List('')"],
    ];
    for (const [what, value, wire] of rows) {
      it(`writes ${what} as ${wire} in every mode`, () => {
        for (const mode of MODES) expect(encodeElement(value, mode)).toBe(wire);
      });
    }
  });

  it('sorts map keys in UTF-16 code-unit order, as Java String.compareTo', () => {
    const map = Data.fromJS({
      b: '1',
      a: '2',
      B: '3',
      $x: '4',
      é: '5',
      '\u{1F600}': '6',
      '\uFF5E': '7',
      '10': '8',
      '9': '9',
    });
    // '$' < '1' < '9' < 'B' < 'a' < 'b' < 'é' < U+D83D (high surrogate of 😀) < U+FF5E
    expect(encodeElement(map, 'none')).toBe('($x:4,10:8,9:9,B:3,a:2,b:1,é:5,\u{1F600}:6,\uFF5E:7)');
  });

  it('keeps list order', () => {
    expect(encodeElement(Data.fromJS(['c', 'a', 'b']), 'query')).toBe('List(c,a,b)');
  });

  it('nests maps and lists', () => {
    const v = Data.fromJS({ long: { c: 'd', a: 'b' }, list: ['1', '2'], empty: {} });
    expect(encodeElement(v, 'path')).toBe('(empty:(),list:List(1,2),long:(a:b,c:d))');
    expect(encodeElement(Data.fromJS([['a', 'b'], { a: 'b' }]), 'query')).toBe('List(List(a,b),(a:b))');
  });

  it('escapes keys like values, and percent signs in keys and values', () => {
    const v = Data.fromJS({ ',': ["'", '(', ')', ':'], '%25': '%', 'this is a key': ['/', '=', '&'] });
    expect(encodeElement(v, 'none')).toBe('(%2525:%25,%2C:List(%27,%28,%29,%3A),this is a key:List(/,=,&))');
    expect(encodeElement(v, 'path')).toBe(
      '(%2525:%25,%2C:List(%27,%28,%29,%3A),this%20is%20a%20key:List(%2F,=,&))',
    );
    expect(encodeElement(v, 'query')).toBe(
      '(%2525:%25,%2C:List(%27,%28,%29,%3A),this%20is%20a%20key:List(/,%3D,%26))',
    );
  });

  it('writes the worked example 2 record param (wire facts §2.6)', () => {
    const filter = Data.fromJS({ name: 'Jo Ann', tags: [], tl: ['a,b', ''] });
    expect(encodeElement(filter, 'query')).toBe("(name:Jo%20Ann,tags:List(),tl:List(a%2Cb,''))");
  });

  it('never writes + for a space, and escapes + only in query params', () => {
    expect(encodeElement('a b+c', 'query')).toBe('a%20b%2Bc');
    expect(encodeElement('a b+c', 'path')).toBe('a%20b+c');
    expect(encodeElement('a b+c', 'none')).toBe('a b+c');
  });

  it('keeps characters each component allows and escapes the rest', () => {
    expect(encodeElement('-._~!$&*+;=@/?#[]{}|\\^`"<>', 'path')).toBe(
      '-._~!$&*+%3B=@%2F%3F%23%5B%5D%7B%7D%7C%5C%5E%60%22%3C%3E',
    );
    expect(encodeElement('-._~!$&*+;=@/?#[]{}|\\^`"<>', 'query')).toBe(
      '-._~!$%26*%2B;%3D@/?%23%5B%5D%7B%7D%7C%5C%5E%60%22%3C%3E',
    );
    expect(encodeElement('\u0000\u001f\u007f', 'path')).toBe('%00%1F%7F');
  });

  it('escapes unicode as UTF-8 and surrogate pairs as one code point; a lone surrogate becomes %3F', () => {
    expect(encodeElement('\u{1F61B}', 'path')).toBe('%F0%9F%98%9B');
    expect(encodeElement('こんにちは', 'query')).toBe('%E3%81%93%E3%82%93%E3%81%AB%E3%81%A1%E3%81%AF');
    expect(encodeElement('\u{10FFFF}\u0080\u07FF\u0800\uFFFF', 'path')).toBe(
      '%F4%8F%BF%BF%C2%80%DF%BF%E0%A0%80%EF%BF%BF',
    );
    expect(encodeElement('a\uD800b\uDC00', 'path')).toBe('a%3Fb%3F');
    expect(encodeElement('a\uD800b', 'none')).toBe('a\uD800b');
  });

  it('returns a string that needs no escaping as it is', () => {
    const s = 'plainValue-1.2_3~';
    expect(encodeElement(s, 'query')).toBe(s);
  });

  describe('writes primitives as Java prints them', () => {
    const rows: Array<[string, DataValue, string]> = [
      ['an int', 42, '42'],
      ['a negative long', -9007199254740991, '-9007199254740991'],
      ['a long beyond 2^53', 2n ** 60n, '1152921504606846976'],
      ['the smallest long', -(2n ** 63n), '-9223372036854775808'],
      ['a double', 1.5, '1.5'],
      ['a small double', 0.001, '0.001'],
      ['a tiny double', 1e-7, '1.0E-7'],
      ['a big double', 1e21, '1.0E21'],
      ['a double beyond 2^53', 2 ** 60, '1.152921504606847E18'],
      ['a double in the decimal range', 1234567.5, '1234567.5'],
      ['a fractional double beyond 10^7', 15000000.5, '1.50000005E7'],
      ['an integral double (indistinguishable from a long) as digits', 1.5e7, '15000000'],
      ['true', true, 'true'],
      ['false', false, 'false'],
      ['Data.NULL', Data.NULL, 'null'],
    ];
    for (const [what, v, text] of rows) {
      it(`writes ${what} as ${text}`, () => {
        expect(encodeElement(v, 'query')).toBe(text);
      });
    }

    it('writes bytes as the Avro string, escaped as UTF-8 (wire facts §2.1)', () => {
      expect(encodeElement(ByteString.copy([0x41, 0xe9, 0x00]), 'query')).toBe('A%C3%A9%00');
      expect(encodeElement(ByteString.copy([]), 'path')).toBe("''");
    });

    it('formats numbers with javaNumberText', () => {
      expect(javaNumberText(-0)).toBe('0');
      expect(javaNumberText(-2.5e-10)).toBe('-2.5E-10');
      expect(javaNumberText(1e300)).toBe('1.0E300');
      expect(javaNumberText(123.456)).toBe('123.456');
      expect(stringifyPrimitive(7n)).toBe('7');
    });

    it('writes primitives inside containers the same way', () => {
      const v = new DataMap([
        ['b', true],
        ['d', 2.5],
        ['l', 2n ** 62n],
        ['n', Data.NULL],
      ]);
      expect(encodeElement(v, 'none')).toBe('(b:true,d:2.5,l:4611686018427387904,n:null)');
    });
  });

  it('refuses an unknown mode', () => {
    expect(() => encodeElement('x', 'body' as UriEncodingMode)).toThrow(TypeError);
  });
});

describe('the escaping layers on their own', () => {
  it('escapes only the reserved characters in the internal layer', () => {
    expect(escapeReserved("it's (x:y),z 100%")).toBe('it%27s %28x%3Ay%29%2Cz 100%25');
    expect(escapeReserved('')).toBe('');
  });

  it('undoes the internal layer char by char', () => {
    expect(unescapeReserved('it%27s %28x%3Ay%29%2Cz 100%25')).toBe("it's (x:y),z 100%");
    expect(() => unescapeReserved('a%2')).toThrow(
      'a%2 - Failed to decode incomplete escaped char at offset 1',
    );
    expect(() => unescapeReserved('a%zz')).toThrow('a%zz - Failed to decode escaped char at offset 1');
  });

  it('encodes contextually: existing escapes stay, nothing is encoded twice', () => {
    expect(contextualEncode('a%20b c%2', 'path')).toBe('a%20b%20c%252');
    expect(contextualEncode('x=1&y+z', 'query')).toBe('x%3D1%26y%2Bz');
    expect(contextualEncode('a,b:(c)', 'query')).toBe('a,b:(c)');
    const once = contextualEncode('é %41', 'path');
    expect(contextualEncode(once, 'path')).toBe(once);
  });

  it('percent-decodes UTF-8 runs, + as a space only when asked', () => {
    expect(percentDecode('a%20b+c')).toBe('a b+c');
    expect(percentDecode('a%20b+c', true)).toBe('a b c');
    expect(percentDecode('%C3%A9%E2%98%BA%F0%9F%98%9B')).toBe('é☺\u{1F61B}');
    expect(percentDecode('%EF%BB%BFx')).toBe('\uFEFFx');
    expect(percentDecode('%C3x')).toBe('\uFFFDx');
    expect(() => percentDecode('ab%4')).toThrow('Malformed percent-encoded octet at index 2');
    expect(() => percentDecode('%4g')).toThrow(
      "Malformed percent-encoded octet at index 2, invalid hexadecimal digit 'g'",
    );
  });
});
