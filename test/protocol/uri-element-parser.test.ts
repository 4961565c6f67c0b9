import fc from 'fast-check';
import { InvalidOptionException, MAX_NESTING_DEPTH } from '../../src/data';
import {
  Data,
  DataList,
  DataMap,
  type DataValue,
  UriElementParseError,
  type UriEncodingMode,
  type ParseElementOptions,
  encodeElement,
  isSvcError,
  parseElement,
} from '../../src';
import { grammarNoise, stringTree } from './arbitraries';

function js(v: DataValue): unknown {
  return Data.toJS(v);
}

function parseError(text: string, options?: ParseElementOptions): UriElementParseError {
  try {
    parseElement(text, options);
  } catch (err) {
    if (err instanceof UriElementParseError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${text}`);
}

describe('parseElement', () => {
  describe('parses the worked examples (wire facts §2.6)', () => {
    it('reads List(a,List(),()) as a string, an empty list and an empty map', () => {
      const v = parseElement('List(a,List(),())');
      expect(v).toBeInstanceOf(DataList);
      const list = v as DataList;
      expect(list.get(0)).toBe('a');
      expect(list.get(1)).toBeInstanceOf(DataList);
      expect(list.get(2)).toBeInstanceOf(DataMap);
      expect(js(v)).toEqual(['a', [], {}]);
    });

    it('lets the last of two equal map keys win', () => {
      expect(js(parseElement('(a:1,a:2)'))).toEqual({ a: '2' });
    });

    it("reads a bare '' as the empty string", () => {
      expect(js(parseElement("(empty:'')"))).toEqual({ empty: '' });
    });

    it('reads %27%27 as two apostrophes, not the empty string', () => {
      expect(js(parseElement('(notEmpty:%27%27)'))).toEqual({ notEmpty: "''" });
    });

    const errors: Array<[string, string, number]> = [
      ['(a:b', 'unexpected end of input', 4],
      ['(a,b)', "expected ':' but found ',' (column 2)", 2],
      ['List(a,b,)', "unexpected token: ')' (column 9) at start of element", 9],
      ['hello:', "tokens left over after parsing; first excess token: ':' (column 5)", 5],
    ];
    for (const [input, message, column] of errors) {
      it(`rejects ${input} with "${message}"`, () => {
        const err = parseError(input);
        expect(err.message).toBe(message);
        expect(err.column).toBe(column);
        expect(err.code).toBe('SVC_ERR_PROTOCOL_URI_SYNTAX');
        expect(err.statusCode).toBe(400);
        expect(isSvcError(err, 'UriElementParseError', 'SVC_ERR_PROTOCOL_URI_SYNTAX')).toBe(true);
      });
    }
  });

  describe('reports each kind of grammar error with its message and column', () => {
    // One or more cases per category of the reference's error table (our own inputs).
    const cases: Array<[string, string, string, number]> = [
      [
        'leftover tokens after a complete string',
        'x)',
        "tokens left over after parsing; first excess token: ')' (column 1)",
        1,
      ],
      [
        'leftover tokens after a complete map',
        '(a:b)(',
        "tokens left over after parsing; first excess token: '(' (column 5)",
        5,
      ],
      ['a map cut after its value', '(k:v', 'unexpected end of input', 4],
      ['a list cut after an item', 'List(x', 'unexpected end of input', 6],
      ['a list cut after a separator', 'List(x,y,', 'unexpected end of input', 9],
      ['empty input', '', 'unexpected end of input', 0],
      ['a list cut after its start', '(k:List(', 'unexpected end of input', 8],
      ['a map cut after its start', '(k:(j:(', 'unexpected end of input', 7],
      ['a lone open paren', '(', 'unexpected end of input', 1],
      [
        'a grammar char where an element starts',
        ':x',
        "unexpected token: ':' (column 0) at start of element",
        0,
      ],
      [
        'a separator where a key starts',
        '(k:v,,',
        "expected string token, found grammar token: ',' (column 5)",
        5,
      ],
      ['a separator where the colon belongs', '(key,val)', "expected ':' but found ',' (column 4)", 4],
      [
        'a trailing separator in a list',
        'List(1,2,3,)',
        "unexpected token: ')' (column 11) at start of element",
        11,
      ],
      ['a second colon in a map entry', '(key:val:more)', "expected ')' but found ':' (column 8)", 8],
      ['a colon in a list', 'List(x,y:z)', "expected ')' but found ':' (column 8)", 8],
      ['an empty list item', 'List(,)', "unexpected token: ',' (column 5) at start of element", 5],
      [
        'a colon where a key starts',
        '(k:v,:w)',
        "expected string token, found grammar token: ':' (column 5)",
        5,
      ],
      ['a missing map value', '(k:List(x),j:)', "unexpected token: ')' (column 13) at start of element", 13],
      ['a doubled colon', 'List((k::v))', "unexpected token: ':' (column 8) at start of element", 8],
      [
        'a List( after other text',
        'xList(a)',
        "tokens left over after parsing; first excess token: '(' (column 5)",
        5,
      ],
      [
        'a misspelled List(',
        'Lis(x:1)',
        "tokens left over after parsing; first excess token: '(' (column 3)",
        3,
      ],
      [
        'a map key that is a list',
        '(List(a):b)',
        "expected string token, found grammar token: 'List(' (column 1)",
        1,
      ],
      ['an escaped string shown decoded', '(a%20b,c)', "expected ':' but found ',' (column 6)", 6],
      ["'' shown as the empty string", "('',x)", "expected ':' but found ',' (column 3)", 3],
    ];
    for (const [what, input, message, column] of cases) {
      it(`rejects ${what}: ${JSON.stringify(input)}`, () => {
        const err = parseError(input);
        expect(err.message).toBe(message);
        expect(err.column).toBe(column);
      });
    }
  });

  describe('reports bad percent-escapes as its typed error (the reference lets them escape unchecked)', () => {
    const cases: Array<[string, string, number]> = [
      ['a%zz', "Malformed percent-encoded octet at index 2, invalid hexadecimal digit 'z'", 2],
      ['a%4', 'Malformed percent-encoded octet at index 1', 1],
      ['%', 'Malformed percent-encoded octet at index 0', 0],
      ['(k:%41%)', 'Malformed percent-encoded octet at index 6', 6],
      ['(k:%41%4', 'Malformed percent-encoded octet at index 6', 6],
      ['(a,b%g0)', "Malformed percent-encoded octet at index 5, invalid hexadecimal digit 'g'", 5],
    ];
    for (const [input, message, column] of cases) {
      it(`rejects ${JSON.stringify(input)}`, () => {
        const err = parseError(input);
        expect(err.message).toBe(message);
        expect(err.column).toBe(column);
      });
    }
  });

  describe('reads plain strings and lists of plain strings as the grammar does', () => {
    // the shapes most query values have (`q=byTitle`, `ids=List(1,2,3)`) take a shortcut past the tokenizer;
    // these are its edges, each with the grammar's answer
    const values: Array<[string, unknown]> = [
      ['abc', 'abc'],
      ["''", ''],
      ["'a'", "'a'"],
      ['List', 'List'],
      ['Lis(', undefined],
      ['é ☺+', 'é ☺+'],
      ['List()', []],
      ['List(1,2,3)', ['1', '2', '3']],
      ["List('',a,'')", ['', 'a', '']],
      ['List(é,☺ x,+)', ['é', '☺ x', '+']],
      ["List(List,'')", ['List', '']],
      ['List(a%2Cb)', ['a,b']],
      ['List(a,(b:c))', ['a', { b: 'c' }]],
    ];
    for (const [input, expected] of values) {
      if (expected === undefined) continue;
      it(`reads ${JSON.stringify(input)}`, () => {
        const v = parseElement(input);
        expect(typeof v === 'string' ? v : js(v)).toEqual(expected);
      });
    }
    const errors: Array<[string, string]> = [
      ['', 'unexpected end of input'],
      ['List(', 'unexpected end of input'],
      ['List(a', 'unexpected end of input'],
      ['List(,a)', "unexpected token: ',' (column 5) at start of element"],
      ['List(a,,b)', "unexpected token: ',' (column 7) at start of element"],
      ['List(a,)', "unexpected token: ')' (column 7) at start of element"],
      ['List(a))', "tokens left over after parsing; first excess token: ')' (column 7)"],
      ['List(a)b', "tokens left over after parsing; first excess token: 'b' (column 7)"],
      ['a,b', "tokens left over after parsing; first excess token: ',' (column 1)"],
      ['List(a%zz)', "Malformed percent-encoded octet at index 7, invalid hexadecimal digit 'z'"],
    ];
    for (const [input, message] of errors) {
      it(`rejects ${JSON.stringify(input)} with "${message}"`, () => {
        expect(parseError(input).message).toBe(message);
      });
    }
    it('counts a flat list as one level of nesting', () => {
      expect(() => parseElement('List(List(a))', { maxDepth: 1 })).toThrow(UriElementParseError);
      expect(parseElement('a', { maxDepth: 1 })).toBe('a');
      expect(js(parseElement('List(a)', { maxDepth: 1 }))).toEqual(['a']);
    });
  });

  describe('recognises List( only after exactly List', () => {
    it('takes List( at the start of an element', () => {
      expect(js(parseElement('List(List(a))'))).toEqual([['a']]);
    });
    it('takes a bare List as a string', () => {
      expect(parseElement('List')).toBe('List');
      expect(js(parseElement('(List:List)'))).toEqual({ List: 'List' });
    });
    it('decodes before comparing, as the reference does', () => {
      expect(js(parseElement('%4Cist(a)'))).toEqual(['a']);
    });
    it('takes an escaped paren after List as part of a string', () => {
      expect(parseElement('List%28a%29')).toBe('List(a)');
    });
  });

  describe('decodes strings', () => {
    it('decodes escapes inside keys and values', () => {
      expect(js(parseElement('(this%20is%20a%20key:List(%2F,%3D,%26))'))).toEqual({
        'this is a key': ['/', '=', '&'],
      });
      expect(js(parseElement('(%2C:List(%27,%28,%29,%3A))'))).toEqual({ ',': ["'", '(', ')', ':'] });
    });
    it('decodes UTF-8, surrogate pairs included', () => {
      expect(
        js(parseElement('(k:%E3%81%93%E3%82%93%E3%81%AB%E3%81%A1%E3%81%AF,s:%E2%98%BA,t:%F0%9F%98%9B)')),
      ).toEqual({
        k: 'こんにちは',
        s: '☺',
        t: '\u{1F61B}',
      });
    });
    it('takes raw unicode and raw spaces as they are', () => {
      expect(js(parseElement('(k:é ☺,x: y )'))).toEqual({ k: 'é ☺', x: ' y ' });
    });
    it('replaces malformed UTF-8 with U+FFFD', () => {
      expect(parseElement('%C3%28')).toBe('\uFFFD(');
      expect(parseElement('a%FFb')).toBe('a\uFFFDb');
    });
    it('keeps a byte-order mark', () => {
      expect(parseElement('%EF%BB%BF')).toBe('\uFEFF');
    });
    it('never turns + into a space', () => {
      expect(js(parseElement('(a+b:c+d)'))).toEqual({ 'a+b': 'c+d' });
      expect(parseElement('%2B+')).toBe('++');
    });
    it("takes '' as empty only when it is the whole token", () => {
      expect(js(parseElement("List('',''',x'',%27')"))).toEqual(['', "'''", "x''", "''"]);
    });
    it('does not trim', () => {
      expect(js(parseElement('( a : b )'))).toEqual({ ' a ': ' b ' });
    });
    it('starts the next parse clean after a bad escape inside a decoded token', () => {
      // the decoded pieces of a token are kept in one array shared by every parse
      expect(parseError('(k:a%20b%zz)').message).toMatch(/^Malformed percent-encoded octet at index 9/);
      expect(js(parseElement('(k:c%20d)'))).toEqual({ k: 'c d' });
    });
  });

  describe('reads a flat map of strings (a criterion) as it reads the same map inside a list', () => {
    // a map alone takes a path of its own when it is flat (no tokens); inside a list it is tokenized
    /**
     * The map alone and inside a list, as JSON (key order included), or `error` (a UriElementParseError:
     * the flat path never throws, so the error alone is the parser's own, covered by the tests above;
     * inside a list the same fault may be worded from the list's point of view).
     */
    const SEVERAL = Symbol('several elements');
    const both = (item: string): [string, string] => {
      const read = (f: () => unknown): string => {
        try {
          const v = f();
          return v === SEVERAL ? 'error' : JSON.stringify(v);
        } catch (err) {
          if (!(err instanceof UriElementParseError)) throw err;
          return 'error';
        }
      };
      return [
        read(() => js(parseElement(item))),
        read(() => {
          // a text that is more than one element (`(),(a:a)`) is as wrong alone as in a list of one
          const list = parseElement(`List(${item})`) as DataList;
          return list.size === 1 ? js(list.get(0)) : SEVERAL;
        }),
      ];
    };
    const many = Array.from({ length: 12 }, (_, i) => `k${i}:v%20${i}`).join(',');
    const cases: Array<[string, string]> = [
      ['plain strings', '(title:Fireworks,format:GIF)'],
      ['escapes of ASCII', '(title:Sunrise%20over%20the%20bay,format:JPEG)'],
      ['escaped grammar chars', '(k:%28a%2Cb%29%3A%25,%28:x)'],
      ['an escaped key', '(this%20is%20a%20key:v)'],
      ['lower-case hex', '(k:%2f%3d)'],
      ["a bare '' (the empty string)", "(a:'',b:x)"],
      ["an escaped '' (two apostrophes)", '(a:%27%27)'],
      ["'' inside a longer token", "(a:x'',b:''')"],
      ['a duplicate key (the last wins, first place kept)', '(a:1,b:2,a:3)'],
      ['integer-like keys', '(2:x,1:y,b:z)'],
      ['__proto__ as a key', '(__proto__:x,constructor:y)'],
      ['spaces and plus signs', '( a : b+c )'],
      ['the shortest map', '(a:b)'],
      ['an escape that ends the text', '(a:b%20)'],
      ['more entries than a small map holds', `(${many})`],
      // what the flat path leaves to the tokenizer and parser
      ['the empty map', '()'],
      ['a nested map', '(a:(b:c))'],
      ['a nested list', '(a:List(1,2))'],
      ['an empty value', '(a:,b:c)'],
      ['an empty key', '(:a)'],
      ['a trailing comma', '(a:b,)'],
      ['a missing value', '(a)'],
      ['two colons', '(a:b:c)'],
      ['text after the map', '(a:b)c'],
      ['a second map', '(a:b)(c:d)'],
      ['an unclosed map', '(a:b'],
      ['an extra parenthesis', '(a:b))'],
      ['a UTF-8 escape', '(k:caf%C3%A9)'],
      ['a malformed UTF-8 escape', '(k:%C3%28)'],
      ['raw non-ASCII', '(k:é ☺)'],
      ['an escaped U+0000 in a key', '(a%00:b)'],
      ['an escaped U+0000 in a value', '(a:b%00)'],
      ['a raw U+0000 in a key', '(a\u0000:b)'],
      ['a bad escape', '(k:a%zz)'],
      ['a cut escape', '(k:a%2)'],
      ['a cut escape before the last char', '(k:%2'],
    ];
    it.each(cases)('%s: %s', (_, item) => {
      const [alone, inList] = both(item);
      expect(alone).toBe(inList);
    });
    it('takes a text of two maps (what the property once drew) as wrong alone and in a list of one', () => {
      expect(both('(),(a:a)')).toEqual(['error', 'error']);
    });
    it('reads any map of short tokens so (property)', () => {
      const piece = fc.constantFrom(
        ...['a', 'B', ' ', '+', "'", "''", '%20', '%2C', '%28', '%3a', '%27', '%00', '%C3%A9', '%zz'],
        ...['%', '%2', '(', ')', ',', ':', 'é', '\u0000', 'List', 'List('],
      );
      const token = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));
      const map = fc
        .array(fc.tuple(token, token), { maxLength: 4 })
        .map((entries) => `(${entries.map(([k, v]) => `${k}:${v}`).join(',')})`);
      fc.assert(
        fc.property(map, (item) => {
          const [alone, inList] = both(item);
          expect(alone).toBe(inList);
        }),
        { numRuns: 3000 },
      );
    });
  });

  it('reads a map of more entries than a small map has room for as any other', () => {
    const entries = Array.from({ length: 12 }, (_, i) => `k${i}:v%20${i}`);
    const map = parseElement(`(${entries.join(',')})`) as DataMap;
    expect(js(map)).toEqual(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, `v ${i}`])));
    map.put('more', 'w');
    expect(map.size).toBe(13);
  });

  it('gives a DataMap that acts like any other (keys like __proto__ included)', () => {
    const v = parseElement('(__proto__:x,constructor:y,0:z)') as DataMap;
    expect(v.get('__proto__')).toBe('x');
    expect(v.get('constructor')).toBe('y');
    expect(v.size).toBe(3);
    v.put('more', 'w');
    expect(v.get('more')).toBe('w');
  });

  it('accepts exactly MAX_NESTING_DEPTH levels and refuses one more with its typed error', () => {
    const nested = (n: number): string => `${'List('.repeat(n)}${')'.repeat(n)}`;
    expect(js(parseElement(nested(MAX_NESTING_DEPTH)))).toBeDefined();
    expect(
      js(parseElement(`${'(a:'.repeat(MAX_NESTING_DEPTH)}b${')'.repeat(MAX_NESTING_DEPTH)}`)),
    ).toBeDefined();
    const deep = nested(MAX_NESTING_DEPTH + 1);
    expect(() => parseElement(deep)).toThrow(UriElementParseError);
    expect(parseError(deep).message).toMatch(/^nesting deeper than 1000 levels at 'List\(' \(column 5000\)$/);
    expect(() => parseElement(nested(200_000))).toThrow(UriElementParseError);
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses a maxDepth of %p with InvalidOptionException', (d) => {
    expect(() => parseElement('a', { maxDepth: d })).toThrow(InvalidOptionException);
    expect(() => parseElement('a', { maxDepth: d })).toThrow(/maxDepth must be a positive integer/);
  });

  it('refuses nesting deeper than a maxDepth it is given', () => {
    const deep = `${'List('.repeat(300)}${')'.repeat(300)}`;
    expect(parseError(deep, { maxDepth: 256 }).message).toMatch(/^nesting deeper than 256 levels/);
    expect(js(parseElement(deep, { maxDepth: 400 }))).toBeDefined();
    const hostile = '('.repeat(100_000);
    expect(() => parseElement(hostile)).toThrow(UriElementParseError);
  });

  describe('reads a text of more tokens than it keeps between parses as it reads a short one', () => {
    // 2 000 criteria: ~22 000 tokens, past the ~4 000 whose arrays are reused between parses
    const criteria = Array.from({ length: 2000 }, (_, i) => `(title:T%20${i},format:JPEG)`);
    const long = `List(${criteria.join(',')})`;
    const expected = Array.from({ length: 2000 }, (_, i) => ({ title: `T ${i}`, format: 'JPEG' }));
    it.each([
      ['a long list of maps', long, expected],
      ['a short list after a long one', 'List((title:a,format:PNG))', [{ title: 'a', format: 'PNG' }]],
      ['a long list after a short one', long, expected],
    ])('%s', (_, input, want) => {
      expect(js(parseElement(input))).toEqual(want);
    });
    it.each([
      ['cut at the end', long.slice(0, -1), 'unexpected end of input', long.length - 1],
      [
        'a stray colon in the last criterion',
        `${long.slice(0, -2)}:)`,
        "expected ')' but found ':'",
        long.length - 2,
      ],
    ])('reports an error in a long text where it is: %s', (_, input, message, column) => {
      const err = parseError(input);
      expect(err.message).toContain(message);
      expect(err.column).toBe(column);
      // the next short parse is not confused by what the failed one left behind
      expect(js(parseElement('(a:List(b,c))'))).toEqual({ a: ['b', 'c'] });
    });
  });

  describe('round trips with encodeElement (properties)', () => {
    for (const mode of ['path', 'query', 'none'] as UriEncodingMode[]) {
      it(`parses what encodeElement(value, '${mode}') writes back to the value`, () => {
        fc.assert(
          fc.property(stringTree, (v) => {
            const text = encodeElement(v, mode);
            const back = parseElement(text);
            expect(js(back)).toEqual(js(v));
          }),
          { numRuns: 400 },
        );
      });
    }

    it('writes URI-safe text in path and query modes', () => {
      fc.assert(
        fc.property(stringTree, (v) => {
          expect(encodeElement(v, 'path')).toMatch(/^[A-Za-z0-9\-._~!$&'()*+,=:@%]*$/);
          expect(encodeElement(v, 'query')).toMatch(/^[A-Za-z0-9\-._~!$'()*,;:@/?%]*$/);
        }),
      );
    });
  });

  it('throws nothing but its typed error on random text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(grammarNoise, fc.string({ unit: 'binary', maxLength: 24 })), (text) => {
        try {
          const v = parseElement(text);
          expect(typeof v === 'string' || v instanceof DataMap || v instanceof DataList).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(UriElementParseError);
          const column = (err as UriElementParseError).column;
          expect(column).toBeGreaterThanOrEqual(0);
          expect(column).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
