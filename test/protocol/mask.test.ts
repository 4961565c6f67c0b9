import fc from 'fast-check';
import {
  Data,
  DataMap,
  type DataValue,
  MAX_NESTING_DEPTH,
  MaskSyntaxError,
  PathSpec,
  applyProjection,
  encodeMask,
  encodeQueryParams,
  maskFromPaths,
  parseMask,
  parseProjectionParam,
  parseQueryParams,
} from '../../src';

function js(v: unknown): unknown {
  return Data.toJS(v as DataMap);
}

function maskError(text: string): MaskSyntaxError {
  try {
    parseMask(text);
  } catch (err) {
    if (err instanceof MaskSyntaxError) return err;
    throw err;
  }
  throw new Error(`no error for ${text}`);
}

describe('parseMask', () => {
  it('reads the syntax of wire facts §2.3', () => {
    expect(js(parseMask('a,b:(c,d),-e,f:($start:1,$count:2)'))).toEqual({
      a: 1,
      b: { c: 1, d: 1 },
      e: 0,
      f: { $start: 1, $count: 2 },
    });
  });

  it('reads nesting, wildcards and escaped names', () => {
    expect(js(parseMask('a:(b:(c:(d))),items:($*:(id,-secret)),$$odd'))).toEqual({
      a: { b: { c: { d: 1 } } },
      items: { '$*': { id: 1, secret: 0 } },
      $$odd: 1,
    });
  });

  it('accepts what the reference accepts: empty items, whitespace in names, text after a closing paren', () => {
    expect(js(parseMask(''))).toEqual({});
    expect(js(parseMask(',a,,b,'))).toEqual({ a: 1, b: 1 });
    expect(js(parseMask(' a , b c '))).toEqual({ a: 1, bc: 1 });
    expect(js(parseMask('a:(b)c'))).toEqual({ a: { b: 1 }, c: 1 });
    expect(js(parseMask('a,a:(b)'))).toEqual({ a: { b: 1 } });
    expect(js(parseMask('x:($count:10)'))).toEqual({ x: { $count: 10 } });
  });

  const errors: Array<[string, string, number]> = [
    ['a:', "Malformed mask syntax: unexpected end of buffer after ':'", 1],
    ['a:b', "Malformed mask syntax: expected '(' token", 2],
    ['f:($start:x)', 'Malformed mask syntax: unexpected range value', 10],
    ['f:($count:1x)', 'Malformed mask syntax: unexpected range value', 11],
    ['f:($count:99999999999)', 'Malformed mask syntax: unexpected range value', 19],
    ['$start:1', 'Malformed mask syntax: expected closing token', 8],
    [':(a)', 'Malformed mask syntax: empty parent field name', 0],
    ['a)', "Malformed mask syntax: unexpected ')' token", 1],
    ['a:(b))', "Malformed mask syntax: unexpected ')' token", 5],
    ['a:(b', 'Malformed mask syntax: unmatched nesting', 4],
  ];
  for (const [text, message, column] of errors) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      const err = maskError(text);
      expect(err.message).toBe(message);
      expect(err.column).toBe(column);
      expect(err.statusCode).toBe(400);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_MASK_SYNTAX');
    });
  }

  it('accepts masks nested MAX_NESTING_DEPTH deep, projects data as deep, and refuses one level more', () => {
    const depth = MAX_NESTING_DEPTH;
    const maskText = `${'a:('.repeat(depth - 1)}b${')'.repeat(depth - 1)}`;
    const mask = parseMask(maskText);
    let data = new DataMap([
      ['b', 1],
      ['c', 2],
    ]);
    for (let i = 1; i < depth; i++)
      data = new DataMap([
        ['a', data],
        ['x', i],
      ]);
    let projected: DataValue = applyProjection(data, mask);
    for (let i = 1; i < depth; i++) {
      expect((projected as DataMap).size).toBe(1);
      projected = (projected as DataMap).get('a')!;
    }
    expect(Data.toJS(projected)).toEqual({ b: 1 });
    expect(() => parseMask(`a:(${maskText})`)).toThrow(/nesting deeper than 1000 levels/);
    expect(() => parseMask('a:('.repeat(100_000))).toThrow(MaskSyntaxError);
  });

  it('throws nothing but its typed error on random text (property)', () => {
    fc.assert(
      fc.property(
        fc
          .array(
            fc.constantFrom('a', 'b', ',', ':', '(', ')', '-', '$start', '$count', '$*', '1', ' ', 'x'),
            { maxLength: 14 },
          )
          .map((p) => p.join('')),
        (text) => {
          try {
            parseMask(text);
          } catch (err) {
            expect(err).toBeInstanceOf(MaskSyntaxError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('encodeMask and maskFromPaths', () => {
  it('writes masks back in their syntax', () => {
    const text = 'a,b:(c,d),-e,f:($start:1,$count:2),items:($*:(id))';
    expect(encodeMask(parseMask(text))).toBe(text);
  });

  it('round trips random masks (property)', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'id', '$*');
    const mask: fc.Arbitrary<DataMap> = fc.letrec<{ mask: DataMap }>((tie) => ({
      mask: fc
        .array(
          fc.tuple(name, fc.oneof({ maxDepth: 3, depthSize: 'small' }, fc.constantFrom(0, 1), tie('mask'))),
          { maxLength: 4 },
        )
        .map((entries) => {
          const m = new DataMap();
          for (const [k, v] of entries) {
            if (v instanceof DataMap && v.isEmpty()) m.put(k, 1);
            else m.put(k, v);
          }
          return m;
        }),
    })).mask;
    fc.assert(
      fc.property(mask, (m) => {
        expect(js(parseMask(encodeMask(m)))).toEqual(js(m));
      }),
    );
  });

  it('builds masks from paths and path specs, escaping $ in names', () => {
    const m = maskFromPaths(
      [['message'], new PathSpec(['tone', 'name']), ['$odd'], ['items', '$*', 'id']],
      [['secret']],
    );
    expect(encodeMask(m)).toBe('message,tone:(name),$$odd,items:($*:(id)),-secret');
    expect(encodeMask(maskFromPaths([['a'], ['a', 'b']]))).toBe('a');
    expect(encodeMask(maskFromPaths([['a', 'b'], ['a']]))).toBe('a');
  });

  it('travels in the query as the fields parameter', () => {
    const q = encodeQueryParams({ fields: maskFromPaths([['a'], ['b', 'c']]) });
    expect(q).toBe('fields=a,b:(c)');
    expect(js(parseProjectionParam(parseQueryParams(q).get('fields')))).toEqual({ a: 1, b: { c: 1 } });
  });

  it('percent-decodes a projection parameter before parsing it', () => {
    expect(js(parseProjectionParam('a%2Cb%3A%28c%29%2C%24start'))).toEqual({ a: 1, b: { c: 1 }, $start: 1 });
    expect(parseProjectionParam(undefined)).toBeUndefined();
    expect(() => parseProjectionParam('a%zz')).toThrow(MaskSyntaxError);
  });
});

describe('applyProjection', () => {
  const greeting = (): DataMap =>
    Data.fromJS({
      id: 1,
      message: 'hi',
      tone: 'FRIENDLY',
      sender: { name: 'Jo', address: { city: 'X', zip: '1' }, secret: 's' },
      tags: ['a', 'b', 'c', 'd'],
      replies: [
        { id: 7, text: 't1', author: { name: 'A' } },
        { id: 8, text: 't2', author: { name: 'B' } },
      ],
    }) as DataMap;

  const cases: Array<[string, string, unknown]> = [
    ['keeps only the fields a positive mask names', 'id,message', { id: 1, message: 'hi' }],
    [
      'drops the fields a negative mask names',
      '-sender,-replies,-tags',
      { id: 1, message: 'hi', tone: 'FRIENDLY' },
    ],
    [
      'projects nested records',
      'sender:(name,address:(city))',
      { sender: { name: 'Jo', address: { city: 'X' } } },
    ],
    [
      'drops nested fields with a nested negative mask',
      'sender:(-secret,-address)',
      {
        id: 1,
        message: 'hi',
        tone: 'FRIENDLY',
        sender: { name: 'Jo' },
        tags: ['a', 'b', 'c', 'd'],
        replies: js(greeting().get('replies')),
      },
    ],
    ['cuts arrays with $start and $count', 'tags:($start:1,$count:2)', { tags: ['b', 'c'] }],
    ['cuts arrays past their end to what is there', 'tags:($start:3,$count:10)', { tags: ['d'] }],
    ['gives an empty array for a start past the end', 'tags:($start:9)', { tags: [] }],
    [
      'projects array items under $*',
      'replies:($*:(id,author:(name)))',
      {
        replies: [
          { id: 7, author: { name: 'A' } },
          { id: 8, author: { name: 'B' } },
        ],
      },
    ],
    ['combines a range and an item mask', 'replies:($start:1,$*:(text))', { replies: [{ text: 't2' }] }],
    ['leaves array items alone without $*', 'replies:(id)', { replies: js(greeting().get('replies')) }],
    [
      'projects every map value under $*',
      'sender:($*:(city))',
      { sender: { name: 'Jo', address: { city: 'X' }, secret: 's' } },
    ],
    ['keeps a primitive under a nested mask', 'message:(x)', { message: 'hi' }],
    ['gives nothing for an empty mask', '', {}],
    ['ignores names the entity lacks', 'nope', {}],
    [
      'drops a field whose nested mask only excludes, when siblings are positive (as the reference)',
      'id,sender:(-secret)',
      { id: 1 },
    ],
  ];
  for (const [what, mask, expected] of cases) {
    it(`${what}: ${mask === '' ? "''" : mask}`, () => {
      expect(js(applyProjection(greeting(), parseMask(mask)))).toEqual(expected);
    });
  }

  it('returns the data itself without a mask, and never modifies it', () => {
    const g = greeting();
    expect(applyProjection(g, undefined)).toBe(g);
    const before = JSON.stringify(Data.toJS(g));
    applyProjection(g, parseMask('id,tags:($start:1),sender:(-secret)'));
    expect(JSON.stringify(Data.toJS(g))).toBe(before);
  });

  it('keeps always-included fields whatever the mask says', () => {
    expect(js(applyProjection(greeting(), parseMask('message'), { alwaysIncluded: ['id'] }))).toEqual({
      id: 1,
      message: 'hi',
    });
    expect(js(applyProjection(greeting(), parseMask(''), { alwaysIncluded: ['id'] }))).toEqual({ id: 1 });
    expect(applyProjection(greeting(), parseMask('-id'), { alwaysIncluded: ['id'] }).get('id')).toBe(1);
  });

  it('matches $-prefixed field names through $$', () => {
    const d = Data.fromJS({ $type: 'x', other: 1 }) as DataMap;
    expect(js(applyProjection(d, parseMask('$$type')))).toEqual({ $type: 'x' });
  });
});
