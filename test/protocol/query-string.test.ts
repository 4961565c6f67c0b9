import fc from 'fast-check';
import {
  Data,
  DataList,
  DataMap,
  QuerySyntaxError,
  UriElementParseError,
  buildUri,
  encodeQueryParams,
  isSvcError,
  findLongList,
  parseQueryParams,
  percentDecode,
  rawPathOf,
  rawQueryOf,
  splitQuery,
} from '../../src';
import { mapKey, stringTree } from './arbitraries';

function syntaxError(raw: string, requestUri?: string): QuerySyntaxError {
  try {
    parseQueryParams(raw, requestUri === undefined ? undefined : { requestUri });
  } catch (err) {
    if (err instanceof QuerySyntaxError) return err;
    throw err;
  }
  throw new Error(`no error for ${raw}`);
}

describe('encodeQueryParams', () => {
  it('writes worked example 2 byte for byte (wire facts §2.6)', () => {
    const uri = buildUri('/greetings', {
      q: 'search',
      start: 0,
      count: 5,
      Zed: 1,
      $returnEntity: true,
      'with space': 'x',
      filter: Data.fromJS({ name: 'Jo Ann', tags: [], tl: ['a,b', ''] }),
    });
    expect(uri).toBe(
      "/greetings?$returnEntity=true&Zed=1&count=5&filter=(name:Jo%20Ann,tags:List(),tl:List(a%2Cb,''))&q=search&start=0&with%20space=x",
    );
  });

  it('writes worked example 5, a batch finder, byte for byte', () => {
    const uri = buildUri('/greetings', {
      message: 'hello',
      criteria: Data.fromJS([{ tone: 'SINCERE', id: 1 }]),
      bq: 'searchGreetings',
    });
    expect(uri).toBe('/greetings?bq=searchGreetings&criteria=List((id:1,tone:SINCERE))&message=hello');
  });

  it('sorts parameters by their encoded names in UTF-16 order', () => {
    // raw 'a b' < 'a!' but encoded 'a%20b' > 'a!'; raw 'é' sorts last but encoded '%C3%A9' before 'B'
    expect(
      encodeQueryParams(
        new Map([
          ['a b', '1'],
          ['a!', '2'],
          ['B', '3'],
          ['$x', '4'],
          ['é', '5'],
        ]),
      ),
    ).toBe('$x=4&%C3%A9=5&B=3&a!=2&a%20b=1');
  });

  it('takes a DataMap, a Map, pairs or a plain object alike', () => {
    const expected = 'a=1&b=List(x)';
    expect(
      encodeQueryParams(
        new DataMap([
          ['b', new DataList(['x'])],
          ['a', 1],
        ]),
      ),
    ).toBe(expected);
    expect(
      encodeQueryParams(
        new Map<string, DataList | number>([
          ['b', new DataList(['x'])],
          ['a', 1],
        ]),
      ),
    ).toBe(expected);
    expect(
      encodeQueryParams([
        ['b', new DataList(['x'])],
        ['a', 1],
      ] as const),
    ).toBe(expected);
    expect(encodeQueryParams({ b: new DataList(['x']), a: 1 })).toBe(expected);
  });

  it('escapes & = + in names and values so that nothing splits', () => {
    expect(encodeQueryParams({ 'a&b=c+d': 'x&y=z+w' })).toBe('a%26b%3Dc%2Bd=x%26y%3Dz%2Bw');
  });

  it('writes projection params in mask syntax, from a string or a mask DataMap', () => {
    expect(encodeQueryParams({ fields: 'id,message' })).toBe('fields=id,message');
    const mask = Data.fromJS({ name: 1, friends: { $start: 1, $count: 2 }, secret: 0 }) as DataMap;
    expect(encodeQueryParams({ fields: mask, aParam: Data.fromJS({ foo: 'bar', empty: {} }) })).toBe(
      'aParam=(empty:(),foo:bar)&fields=name,friends:($start:1,$count:2),-secret',
    );
    expect(encodeQueryParams({ metadataFields: 'a b', pagingFields: '' })).toBe(
      'metadataFields=a%20b&pagingFields',
    );
    expect(() => encodeQueryParams({ fields: 3 })).toThrow(TypeError);
  });

  it('leaves out the ? when there are no parameters', () => {
    expect(buildUri('/r', {})).toBe('/r');
    expect(buildUri('/r')).toBe('/r');
  });
});

describe('splitting a raw query as the server does', () => {
  it('splits on & and then at the first =', () => {
    expect(splitQuery('a=1&b=x=y&c')).toEqual([
      ['a', '1'],
      ['b', 'x=y'],
      ['c', ''],
    ]);
  });

  it('skips empty pieces and pieces without a name', () => {
    expect(splitQuery('&&a=1&&=x&')).toEqual([['a', '1']]);
  });

  it('finds each = within its own piece, however the pieces fall', () => {
    expect(splitQuery('a&b&c=1')).toEqual([
      ['a', ''],
      ['b', ''],
      ['c', '1'],
    ]);
    expect(splitQuery('a=&=b&c')).toEqual([
      ['a', ''],
      ['c', ''],
    ]);
    expect(splitQuery('x'.repeat(3) + '&'.repeat(3) + 'y==z')).toEqual([
      ['xxx', ''],
      ['y', '=z'],
    ]);
  });

  it('decodes names (+ is a space) but keeps values raw', () => {
    expect(splitQuery('with+space%21=a+b%20c')).toEqual([['with space!', 'a+b%20c']]);
  });

  it('splits any query as split-on-& then first-= would, long values and bad escapes included', () => {
    // the reading the scanner must give: pieces on '&', the first '=' of each, the name decoded (by the
    // protocol's own decoder: this is about the splitting)
    const naive = (q: string): Array<[string, string]> | 'error' => {
      const out: Array<[string, string]> = [];
      for (const piece of q.split('&')) {
        const eq = piece.indexOf('=');
        if (piece === '' || eq === 0) continue;
        const raw = eq === -1 ? piece : piece.slice(0, eq);
        let name: string;
        try {
          name = percentDecode(raw, true);
        } catch {
          return 'error';
        }
        if (name.includes('\u0000')) return 'error';
        out.push([name, eq === -1 ? '' : piece.slice(eq + 1)]);
      }
      return out;
    };
    const piece = fc
      .array(fc.constantFrom('a', 'b', '=', '&', '%', '+', '2', 'F', '0', '\u0000'), { maxLength: 6 })
      .map((chars) => chars.join(''));
    // values past the scanner's 64-character run, so that the indexOf path is taken too
    const query = fc.array(
      fc.oneof(
        piece,
        piece.map((p) => `${p}=${'v'.repeat(70)}`),
      ),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(query, (pieces) => {
        const q = pieces.join('&');
        let got: Array<[string, string]> | 'error';
        try {
          got = splitQuery(q);
        } catch {
          got = 'error';
        }
        expect(got).toEqual(naive(q));
      }),
      { numRuns: 300 },
    );
  });

  it('finds the query and path of a request target', () => {
    expect(rawQueryOf('/r/1?x=1&y#frag')).toBe('x=1&y');
    expect(rawQueryOf('/r/1')).toBeUndefined();
    expect(rawPathOf('/r/1?x#y')).toBe('/r/1');
    expect(rawPathOf('/r/1#y?x')).toBe('/r/1');
  });
});

describe('parseQueryParams', () => {
  it('parses every value with the element grammar', () => {
    const q = parseQueryParams('aParam=(someField:someValue,foo:bar,empty:())&bParam=List(x,y,z)&q=search');
    expect(Data.toJS(q)).toEqual({
      aParam: { someField: 'someValue', foo: 'bar', empty: {} },
      bParam: ['x', 'y', 'z'],
      q: 'search',
    });
  });

  it('reads worked example 3 (batch get with compound keys)', () => {
    const q = parseQueryParams(
      'fields=id,message&ids=List((followeeID:2,followerID:1),(followeeID:a%20b,followerID:3))',
    );
    expect(Data.toJS(q)).toEqual({
      fields: 'id,message',
      ids: [
        { followeeID: '2', followerID: '1' },
        { followeeID: 'a b', followerID: '3' },
      ],
    });
  });

  it('turns + into a space in names, never in values', () => {
    const q = parseQueryParams('with+space=a+b&plus%2B=List(c+d,%2B)');
    expect(Data.toJS(q)).toEqual({ 'with space': 'a+b', 'plus+': ['c+d', '+'] });
  });

  it("tells '' from %27%27", () => {
    expect(Data.toJS(parseQueryParams("a=''&b=%27%27&c=(k:'')"))).toEqual({ a: '', b: "''", c: { k: '' } });
  });

  it('keeps projection params raw, unparsed and undecoded', () => {
    const q = parseQueryParams('fields=a,b:(c),-d&metadataFields=x%20y&pagingFields=');
    expect(Data.toJS(q)).toEqual({ fields: 'a,b:(c),-d', metadataFields: 'x%20y', pagingFields: '' });
  });

  it('decodes unicode in values', () => {
    expect(Data.toJS(parseQueryParams('s=%E2%98%BA&t=%F0%9F%98%9B'))).toEqual({ s: '☺', t: '\u{1F61B}' });
  });

  describe('reads one parameter as it reads it among others', () => {
    // a query of one parameter takes a shortcut (no pairs, no repeat check): the same answers either way
    const cases: Array<[string, unknown]> = [
      ['ids=List(1,2)', { ids: ['1', '2'] }],
      ['q=search', { q: 'search' }],
      ['fields=a,b:(c)', { fields: 'a,b:(c)' }],
      ['%71=x', { q: 'x' }],
      ['a+b=c+d', { 'a b': 'c+d' }],
      ['=x', {}],
      ['x=(a:List(b))', { x: { a: ['b'] } }],
    ];
    for (const [query, expected] of cases) {
      it(query, () => {
        expect(Data.toJS(parseQueryParams(query))).toEqual(expected);
        const among = Data.toJS(parseQueryParams(`${query}&zz=1`)) as Record<string, unknown>;
        delete among.zz;
        expect(among).toEqual(expected);
      });
    }
    it('and fails on the same values', () => {
      for (const query of ['x', 'x=', 'x=(a', 'x=%zz', '%zz=1']) {
        expect(() => parseQueryParams(query)).toThrow(QuerySyntaxError);
        expect(() => parseQueryParams(`${query}&zz=1`)).toThrow(QuerySyntaxError);
      }
    });
  });

  it('returns an empty map for no query', () => {
    expect(parseQueryParams(undefined).isEmpty()).toBe(true);
    expect(parseQueryParams('').isEmpty()).toBe(true);
  });

  it('rejects a repeated parameter, even one written differently', () => {
    const err = syntaxError('ids=1&x=2&ids=3');
    expect(err.reason).toBe('unexpected repeated query param in URI: ids');
    expect(err.message).toBe(err.reason);
    expect(err.param).toBe('ids');
    expect(syntaxError('a+b=1&a%20b=2').reason).toBe('unexpected repeated query param in URI: a b');
  });

  it('rejects a value outside the grammar, naming the parameter, with the parser error as cause', () => {
    const err = syntaxError('q=search&filter=(a:b', '/r?q=search&filter=(a:b');
    expect(err.message).toBe('Invalid query parameters syntax: /r?q=search&filter=(a:b');
    expect(err.reason).toBe("error while parsing query param 'filter'\nunexpected end of input");
    expect(err.param).toBe('filter');
    expect(err.cause).toBeInstanceOf(UriElementParseError);
    expect(err.statusCode).toBe(400);
    expect(isSvcError(err, 'QuerySyntaxError', 'SVC_ERR_PROTOCOL_QUERY_SYNTAX')).toBe(true);
  });

  it('rejects an empty value, which is not in the grammar', () => {
    expect(syntaxError('q=').reason).toBe("error while parsing query param 'q'\nunexpected end of input");
    expect(syntaxError('flag').reason).toBe(
      "error while parsing query param 'flag'\nunexpected end of input",
    );
  });

  it('rejects bad escapes in names and values', () => {
    expect(syntaxError('a%zz=1').reason).toBe(
      "bad query parameter name 'a%zz': Malformed percent-encoded octet at index 2, invalid hexadecimal digit 'z'",
    );
    expect(syntaxError('a=%4').reason).toBe(
      "error while parsing query param 'a'\nMalformed percent-encoded octet at index 0",
    );
  });

  it('reads back what encodeQueryParams writes (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(mapKey, stringTree), { selector: ([k]) => k, maxLength: 5 }),
        (pairs) => {
          // names are only URL-decoded by the server, so an empty name (written '') does not come back
          const params = pairs.filter(
            ([k]) => k !== '' && !['fields', 'metadataFields', 'pagingFields'].includes(k),
          );
          const query = encodeQueryParams(params);
          const back = parseQueryParams(query);
          expect(Data.toJS(back)).toEqual(Data.toJS(new DataMap(params)));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('findLongList (counting a list without parsing it)', () => {
  it('finds the first List(...) of more top-level items than the bound, and the query without it', () => {
    const q = 'bq=s&criteria=List((a:1,b:List(1,2,3)),(a:2),(a:3))&x=List(1,2)';
    expect(findLongList(q, 2)).toEqual({
      name: 'criteria',
      items: 3,
      query: 'bq=s&criteria=List()&x=List(1,2)',
      valueStart: 14,
      valueEnd: 51,
    });
    expect(findLongList(q, 3)).toBeUndefined();
    expect(findLongList('ids=List(1,2,3,4,5,6)', 5)).toEqual({
      name: 'ids',
      items: 6,
      query: 'ids=List()',
      valueStart: 4,
      valueEnd: 21,
    });
    expect(findLongList('ids=List()', 0)).toBeUndefined();
    // percent-encoded structure is data, not structure
    expect(findLongList('t=List(a%2Cb%2Cc%2Cd%2Ce)', 1)).toBeUndefined();
    expect(findLongList('t=List(a,b,c,d,e)', 1)?.items).toBe(5);
  });
});
