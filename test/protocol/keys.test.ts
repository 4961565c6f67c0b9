import fc from 'fast-check';
import type { EnumDataSchema } from '../../src';
import {
  ByteString,
  ComplexKey,
  CompoundKey,
  Data,
  DataList,
  DataMap,
  type DataValue,
  InvalidKeyError,
  type KeyPartType,
  type KeySpec,
  type ResourceKey,
  buildUri,
  coerceSimpleKey,
  decodeBatchIds,
  decodeKeyFromBody,
  decodeKeyFromPath,
  encodeBatchIds,
  batchIdsData,
  encodeKeyForBody,
  encodeKeyForHeader,
  encodeKeyForPath,
  encodeKeyForQuery,
  isComplexKey,
  isCompoundKey,
  keyToData,
  parseQueryParams,
  parseSchema,
} from '../../src';
import { complexKey, compoundKeyCase, longValue, mapKey } from './arbitraries';

function map(plain: Record<string, unknown>): DataMap {
  return Data.fromJS(plain as never) as DataMap;
}

function keyError(fn: () => unknown): InvalidKeyError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InvalidKeyError) return err;
    throw err;
  }
  throw new Error('no error');
}

const follows = new CompoundKey({ followerID: 1, followeeID: 2 });
const followsSpec: KeySpec = { kind: 'compound', parts: { followerID: 'long', followeeID: 'long' } };
const complex = new ComplexKey(map({ major: 'KEY 1', list: ['1', '2'] }), map({ p: 'x:y' }));

describe('key encoding (wire facts §2.5)', () => {
  const rows: Array<[string, ResourceKey, string, string, string]> = [
    ['a long', 42, '42', '42', '42'],
    ['a string', 'a,b c', 'a%2Cb%20c', 'a%2Cb%20c', 'a,b c'],
    [
      'a compound key',
      follows,
      '(followeeID:2,followerID:1)',
      '(followeeID:2,followerID:1)',
      '(followeeID:2,followerID:1)',
    ],
    [
      'a complex key with params',
      complex,
      '($params:(p:x%3Ay),list:List(1,2),major:KEY%201)',
      '($params:(p:x%3Ay),list:List(1,2),major:KEY%201)',
      '(list:List(1,2),major:KEY 1)',
    ],
  ];
  for (const [what, key, path, idsItem, body] of rows) {
    it(`writes ${what} in the path, in ids and in bodies and headers`, () => {
      expect(encodeKeyForPath(key)).toBe(path);
      expect(encodeKeyForQuery(key)).toBe(idsItem);
      expect(encodeKeyForBody(key)).toBe(body);
      expect(encodeKeyForHeader(key)).toBe(body);
    });
  }

  it('includes $params in the full body form (batch request entities)', () => {
    expect(encodeKeyForBody(complex, true)).toBe('($params:(p:x%3Ay),list:List(1,2),major:KEY 1)');
    expect(encodeKeyForBody(follows, true)).toBe('(followeeID:2,followerID:1)');
    expect(encodeKeyForBody('a,b c', true)).toBe('a,b c');
  });

  it('writes a complex key without params without $params', () => {
    const k = new ComplexKey(map({ id: '1' }));
    expect(encodeKeyForPath(k)).toBe('(id:1)');
    expect(encodeKeyForPath(new ComplexKey(map({ id: '1' }), new DataMap()))).toBe('($params:(),id:1)');
  });

  it('writes other simple keys by their string form', () => {
    expect(encodeKeyForPath(true)).toBe('true');
    expect(encodeKeyForPath(2n ** 62n)).toBe('4611686018427387904');
    expect(encodeKeyForPath('')).toBe("''");
    expect(encodeKeyForBody('')).toBe('');
    expect(encodeKeyForPath(ByteString.copy([0x41, 0xe9]))).toBe('A%C3%A9');
    expect(encodeKeyForPath('é/x?')).toBe('%C3%A9%2Fx%3F');
    expect(encodeKeyForQuery('é/x?&')).toBe('%C3%A9/x?%26');
  });

  it('writes worked example 1: a compound key in the path', () => {
    expect(`GET /follows/${encodeKeyForPath(follows)}`).toBe('GET /follows/(followeeID:2,followerID:1)');
  });

  it('writes worked example 3: ids of compound keys next to a projection', () => {
    const ids = new DataList([
      keyToData(follows),
      keyToData(new CompoundKey({ followerID: 3, followeeID: 'a b' })),
    ]);
    expect(buildUri('/follows', { ids, fields: 'id,message' })).toBe(
      '/follows?fields=id,message&ids=List((followeeID:2,followerID:1),(followeeID:a%20b,followerID:3))',
    );
  });

  it('writes worked example 4: ids of complex keys with params', () => {
    const k1 = new ComplexKey(
      map({ id: '1', message: 'keyMessage1' }),
      map({ id: '2', message: 'paramMessage1' }),
    );
    const k2 = new ComplexKey(
      map({ id: '3', message: 'keyMessage2' }),
      map({ id: '4', message: 'paramMessage2' }),
    );
    expect(`test?ids=${encodeBatchIds([k1, k2])}`).toBe(
      'test?ids=List(($params:(id:2,message:paramMessage1),id:1,message:keyMessage1),($params:(id:4,message:paramMessage2),id:3,message:keyMessage2))',
    );
  });

  it('gives ids as data for a whole query, written like encodeBatchIds', () => {
    const keys = [follows, new CompoundKey({ followerID: 3, followeeID: 'a b' }), follows];
    expect(buildUri('/follows', { ids: batchIdsData(keys), fields: 'id,message' })).toBe(
      `/follows?fields=id,message&ids=${encodeBatchIds(keys)}`,
    );
    expect(batchIdsData([complex]).get(0)).toBeInstanceOf(DataMap);
    expect(batchIdsData([1, '1', 2]).toArray()).toEqual(['1', '2']);
  });

  it('writes keys with reserved characters, unicode and empty strings', () => {
    const k = new CompoundKey({ 'a:b': '(x,y)', é: '☺ 😀', empty: '', q: "it's%" });
    // map keys sort raw (UTF-16), before escaping: é (U+00E9) comes last
    expect(encodeKeyForPath(k)).toBe(
      "(a%3Ab:%28x%2Cy%29,empty:'',q:it%27s%25,%C3%A9:%E2%98%BA%20%F0%9F%98%80)",
    );
    expect(encodeKeyForBody(k)).toBe("(a%3Ab:%28x%2Cy%29,empty:'',q:it%27s%25,é:☺ 😀)");
    const spec: KeySpec = {
      kind: 'compound',
      parts: { 'a:b': 'string', é: 'string', empty: 'string', q: 'string' },
    };
    expect((decodeKeyFromPath(encodeKeyForPath(k), spec) as CompoundKey).equals(k)).toBe(true);
    expect((decodeKeyFromBody(encodeKeyForBody(k), spec) as CompoundKey).equals(k)).toBe(true);
    const c = new ComplexKey(map({ '': '', list: ['', 'a,b', 'ü'] }), map({ 'p q': "''" }));
    expect(encodeKeyForPath(c)).toBe("('':'',$params:(p%20q:%27%27),list:List('',a%2Cb,%C3%BC))");
    const back = decodeKeyFromPath(encodeKeyForPath(c), { kind: 'complex' }) as ComplexKey;
    expect(Data.toJS(back.key)).toEqual({ '': '', list: ['', 'a,b', 'ü'] });
    expect(Data.toJS(back.params!)).toEqual({ 'p q': "''" });
  });

  it('writes ids in the given order without duplicates', () => {
    expect(encodeBatchIds([3, 1, 2, 1, '3'])).toBe('List(3,1,2)');
    expect(encodeBatchIds([])).toBe('List()');
    expect(encodeBatchIds(['a,b', ''])).toBe("List(a%2Cb,'')");
  });

  it('keeps a key record free of a $params field when not full', () => {
    const k = new ComplexKey(map({ id: '1', $params: 'sneaky' }), map({ p: '1' }));
    expect(encodeKeyForBody(k)).toBe('(id:1)');
  });

  it('tells key kinds apart by shape', () => {
    expect(isCompoundKey(follows)).toBe(true);
    expect(isComplexKey(complex)).toBe(true);
    expect(isCompoundKey(complex)).toBe(false);
    expect(isCompoundKey({ keyKind: 'compound' })).toBe(true);
    expect(isComplexKey('x')).toBe(false);
  });

  it('compares keys by their wire form', () => {
    expect(
      follows.equals(
        new CompoundKey([
          ['followeeID', 2],
          ['followerID', 1],
        ]),
      ),
    ).toBe(true);
    expect(follows.equals(new CompoundKey({ followeeID: 2 }))).toBe(false);
    expect(complex.equals(new ComplexKey(map({ list: ['1', '2'], major: 'KEY 1' })))).toBe(true);
    expect(String(follows)).toBe('(followeeID:2,followerID:1)');
    expect(() => new CompoundKey({ a: Number.NaN })).toThrow(TypeError);
  });
});

describe('key decoding', () => {
  describe('from the path', () => {
    it('only percent-decodes a simple key, so a path key written as a quoted empty string stays literal', () => {
      expect(decodeKeyFromPath('a%2Cb%20c', { kind: 'simple' })).toBe('a,b c');
      expect(decodeKeyFromPath("''", { kind: 'simple' })).toBe("''");
      expect(decodeKeyFromPath('a+b(c)', { kind: 'simple' })).toBe('a+b(c)');
    });

    it('coerces a simple key to its type', () => {
      expect(decodeKeyFromPath('42', { kind: 'simple', type: 'long' })).toBe(42);
      expect(decodeKeyFromPath('9223372036854775807', { kind: 'simple', type: 'long' })).toBe(2n ** 63n - 1n);
      expect(decodeKeyFromPath('-7', { kind: 'simple', type: 'int' })).toBe(-7);
      expect(decodeKeyFromPath('1.5', { kind: 'simple', type: 'double' })).toBe(1.5);
      expect(decodeKeyFromPath('TRUE', { kind: 'simple', type: 'boolean' })).toBe(true);
      expect(decodeKeyFromPath('A%C3%A9', { kind: 'simple', type: 'bytes' })).toEqual(
        ByteString.copy([0x41, 0xe9]),
      );
    });

    it('rejects a simple key of the wrong type with a 400', () => {
      const err = keyError(() => decodeKeyFromPath('4x2', { kind: 'simple', type: 'long' }));
      expect(err.message).toBe("Key value '4x2' must be of type 'long'");
      expect(err.statusCode).toBe(400);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_INVALID_KEY');
      expect(keyError(() => decodeKeyFromPath('1.5', { kind: 'simple', type: 'long' })).message).toBe(
        "Key value '1.5' must be of type 'long'",
      );
      expect(keyError(() => decodeKeyFromPath('2147483648', { kind: 'simple', type: 'int' })).message).toBe(
        "Key value '2147483648' must be of type 'int'",
      );
      expect(keyError(() => decodeKeyFromPath('yes', { kind: 'simple', type: 'boolean' })).message).toBe(
        "Key parameter value 'yes' is invalid",
      );
      expect(keyError(() => decodeKeyFromPath('a%zz', { kind: 'simple' })).message).toBe(
        "Key parameter value 'a%zz' is invalid",
      );
    });

    it('validates a simple key against a schema (an enum)', () => {
      const tone = parseSchema(
        '{"type":"enum","name":"Tone","symbols":["FRIENDLY","SINCERE"]}',
      ) as EnumDataSchema;
      expect(coerceSimpleKey('SINCERE', tone)).toBe('SINCERE');
      const err = keyError(() => decodeKeyFromPath('ANGRY', { kind: 'simple', type: tone }));
      expect(err.message).toBe("Key parameter value 'ANGRY' is invalid");
      expect(err.reason).toMatch(/ANGRY/);
    });

    it('parses a compound key and coerces its parts', () => {
      const k = decodeKeyFromPath('(followeeID:2,followerID:1)', followsSpec);
      expect(isCompoundKey(k)).toBe(true);
      expect((k as CompoundKey).get('followerID')).toBe(1);
      expect((k as CompoundKey).hasAllParts(['followerID', 'followeeID'])).toBe(true);
    });

    it('takes a partial compound key (a collection-level path)', () => {
      const k = decodeKeyFromPath('(followerID:1)', followsSpec) as CompoundKey;
      expect(k.size).toBe(1);
      expect(k.hasAllParts(['followerID', 'followeeID'])).toBe(false);
    });

    it('rejects bad compound keys with 400s naming the reason', () => {
      const unknown = keyError(() => decodeKeyFromPath('(followeeID:2,x:1,y:2)', followsSpec));
      expect(unknown.message).toBe("Unknown key part named 'x'Unknown key part named 'y'");
      expect(keyError(() => decodeKeyFromPath('(followeeID:2', followsSpec)).reason).toBe(
        'unexpected end of input',
      );
      expect(keyError(() => decodeKeyFromPath('12', followsSpec)).reason).toBe(
        'a compound key must be a map `(part:value,...)`',
      );
      expect(keyError(() => decodeKeyFromPath('(followeeID:abc)', followsSpec)).reason).toBe(
        "Key part 'followeeID': Key value 'abc' must be of type 'long'",
      );
      expect(keyError(() => decodeKeyFromPath('(followeeID:(a:b))', followsSpec)).reason).toBe(
        "Key part 'followeeID' must be a simple value",
      );
    });

    it('parses a complex key and splits off its params', () => {
      const k = decodeKeyFromPath('($params:(p:x%3Ay),list:List(1,2),major:KEY%201)', {
        kind: 'complex',
      }) as ComplexKey;
      expect(Data.toJS(k.key)).toEqual({ list: ['1', '2'], major: 'KEY 1' });
      expect(Data.toJS(k.params!)).toEqual({ p: 'x:y' });
      const noParams = decodeKeyFromPath('(id:1)', { kind: 'complex' }) as ComplexKey;
      expect(noParams.params).toBeUndefined();
    });

    it('coerces a complex key with its schemas and rejects what does not validate', () => {
      const keySchema = parseSchema(
        '{"type":"record","name":"K","fields":[{"name":"id","type":"long"},{"name":"tags","type":{"type":"array","items":"int"},"optional":true}]}',
      );
      const paramsSchema = parseSchema(
        '{"type":"record","name":"P","fields":[{"name":"v","type":"boolean"}]}',
      );
      const spec: KeySpec = { kind: 'complex', keySchema, paramsSchema };
      const k = decodeKeyFromPath('($params:(v:true),id:12,tags:List(1,2))', spec) as ComplexKey;
      expect(Data.toJS(k.key)).toEqual({ id: 12, tags: [1, 2] });
      expect(Data.toJS(k.params!)).toEqual({ v: true });
      const err = keyError(() => decodeKeyFromPath('(id:abc)', spec));
      expect(err.message).toMatch(/^Input field validation failure, reason: /);
      expect(err.statusCode).toBe(400);
    });

    it('rejects bad complex keys', () => {
      expect(keyError(() => decodeKeyFromPath('(id:1', { kind: 'complex' })).message).toBe(
        "Complex key query parameters parsing error: 'unexpected end of input'",
      );
      expect(keyError(() => decodeKeyFromPath('abc', { kind: 'complex' })).message).toBe(
        "Invalid complex key: 'a complex key must be a map `(field:value,...)`'",
      );
      expect(keyError(() => decodeKeyFromPath('($params:x,id:1)', { kind: 'complex' })).message).toBe(
        "Invalid complex key: ''$params' of a complex key must be a map'",
      );
    });
  });

  describe('from bodies and the id header', () => {
    it('takes a simple key raw', () => {
      expect(decodeKeyFromBody('a,b c', { kind: 'simple' })).toBe('a,b c');
      expect(decodeKeyFromBody('', { kind: 'simple' })).toBe('');
      expect(decodeKeyFromBody('42', { kind: 'simple', type: 'long' })).toBe(42);
    });

    it('parses compound and complex keys, $params or not', () => {
      expect(String(decodeKeyFromBody('(followeeID:2,followerID:1)', followsSpec))).toBe(
        '(followeeID:2,followerID:1)',
      );
      const k = decodeKeyFromBody('($params:(p:x%3Ay),list:List(1,2),major:KEY 1)', {
        kind: 'complex',
      }) as ComplexKey;
      expect(Data.toJS(k.key)).toEqual({ list: ['1', '2'], major: 'KEY 1' });
      expect(Data.toJS(k.params!)).toEqual({ p: 'x:y' });
    });

    it('rejects a malformed body key', () => {
      expect(keyError(() => decodeKeyFromBody('(a:1', followsSpec)).message).toBe(
        "Invalid key '(a:1': unexpected end of input",
      );
    });
  });

  describe('from ids', () => {
    it('decodes simple ids, one id without List included', () => {
      const q = parseQueryParams('ids=List(1,2,3,2)');
      expect(decodeBatchIds(q.get('ids'), { kind: 'simple', type: 'long' })).toEqual({
        keys: [1, 2, 3],
        errors: [],
      });
      expect(decodeBatchIds('7', { kind: 'simple', type: 'int' })).toEqual({ keys: [7], errors: [] });
      expect(decodeBatchIds(undefined, { kind: 'simple' })).toBeUndefined();
      expect(decodeBatchIds(parseQueryParams("ids=List('')").get('ids'), { kind: 'simple' })).toEqual({
        keys: [''],
        errors: [],
      });
    });

    describe('drops duplicate simple ids by value, in request order', () => {
      const ids = (text: string): DataValue => parseQueryParams(`ids=${text}`).get('ids')!;
      const cases: Array<[string, KeyPartType | undefined, unknown[]]> = [
        ['List(3,1,01,+3,1)', 'long', [3, 1]],
        ['List(-0,0,+0)', 'long', [0]],
        ['List(-0000000000000000,0)', 'int', [0]],
        ['List(b,a,b,a)', 'string', ['b', 'a']],
        ['List(1,01)', undefined, ['1', '01']],
        ['List(true,TRUE,false)', 'boolean', [true, false]],
        ['List(1.5,1.50,15e-1)', 'double', [1.5]],
        ['List(00000000000000000000042,42)', 'long', [42]],
        [
          'List(9007199254740993,9007199254740993,9007199254740992)',
          'long',
          [9007199254740993n, 9007199254740992n],
        ],
        [
          'List(9223372036854775807,-9223372036854775808)',
          'long',
          [9223372036854775807n, -9223372036854775808n],
        ],
        [
          `List(${Array.from({ length: 40 }, (_, i) => i + 1).join(',')},1,40,+7)`,
          'long',
          Array.from({ length: 40 }, (_, i) => i + 1),
        ],
      ];
      for (const [text, type, keys] of cases) {
        it(`${text} as ${typeof type === 'string' ? type : 'text'}`, () => {
          const r = decodeBatchIds(ids(text), { kind: 'simple', type })!;
          expect(r.keys).toEqual(keys);
          expect(r.keys.map((k) => Object.is(k, -0))).not.toContain(true);
        });
      }
      it('bytes, by their wire form', () => {
        const r = decodeBatchIds(ids('List(ab,ab,c)'), { kind: 'simple', type: 'bytes' })!;
        expect(r.keys.map((k) => (k as ByteString).asAvroString())).toEqual(['ab', 'c']);
      });
    });

    describe('fails the whole request for an id that is not of the key type', () => {
      const cases: Array<[string, KeyPartType, string]> = [
        ['List(1,1.0)', 'long', "NumberFormatException parsing batch key '1.0'"],
        ['List(-)', 'long', "NumberFormatException parsing batch key '-'"],
        ['List(+)', 'int', "NumberFormatException parsing batch key '+'"],
        ['List(1e3)', 'long', "NumberFormatException parsing batch key '1e3'"],
        ['List(0x10)', 'long', "NumberFormatException parsing batch key '0x10'"],
        ['List(٣)', 'long', "NumberFormatException parsing batch key '٣'"],
        ['List(2147483648)', 'int', "NumberFormatException parsing batch key '2147483648'"],
        [
          'List(9223372036854775808)',
          'long',
          "NumberFormatException parsing batch key '9223372036854775808'",
        ],
        ['List(maybe)', 'boolean', "IllegalArgumentException parsing batch key 'maybe'"],
        // U+0000 (percent-encoded on the wire) is refused by every type's parse, scanned for or not
        ['List(1%002)', 'long', "NumberFormatException parsing batch key '1\u00002'"],
        [
          'List(12345678901234567%008)',
          'long',
          "NumberFormatException parsing batch key '12345678901234567\u00008'",
        ],
        ['List(1%00)', 'int', "NumberFormatException parsing batch key '1\u0000'"],
        ['List(1.5%00)', 'double', "NumberFormatException parsing batch key '1.5\u0000'"],
        ['List(true%00)', 'boolean', "IllegalArgumentException parsing batch key 'true\u0000'"],
        ['List(a%00b)', 'string', "IllegalArgumentException parsing batch key 'a\u0000b'"],
        ['List(a%00b)', 'bytes', "IllegalArgumentException parsing batch key 'a\u0000b'"],
      ];
      for (const [text, type, message] of cases) {
        it(`${text} as ${String(type)}`, () => {
          const err = keyError(() =>
            decodeBatchIds(parseQueryParams(`ids=${text}`).get('ids'), { kind: 'simple', type }),
          );
          expect(err.message).toBe(message);
          expect(err.statusCode).toBe(400);
        });
      }
    });

    it('fails the whole request for one bad simple id', () => {
      const ids = parseQueryParams('ids=List(1,x)').get('ids');
      const err = keyError(() => decodeBatchIds(ids, { kind: 'simple', type: 'long' }));
      expect(err.message).toBe("NumberFormatException parsing batch key 'x'");
      expect(err.statusCode).toBe(400);
      expect(
        keyError(() => decodeBatchIds(parseQueryParams('ids=List((a:b))').get('ids'), { kind: 'simple' }))
          .message,
      ).toBe("IllegalArgumentException parsing batch key '(a:b)'");
    });

    it('turns bad compound or complex items into per-key errors and keeps the rest', () => {
      const ids = parseQueryParams(
        'ids=List((followeeID:2,followerID:1),(followeeID:x,followerID:3),y,(followeeID:2,followerID:1))',
      ).get('ids');
      const r = decodeBatchIds(ids, followsSpec)!;
      expect(r.keys.map(String)).toEqual(['(followeeID:2,followerID:1)']);
      expect(r.errors.map((e) => [e.key, e.error.message, e.error.statusCode])).toEqual([
        ['(followeeID:x,followerID:3)', "Invalid structure of key '(followeeID:x,followerID:3)'", 400],
        ['y', "Invalid structure of key 'y'", 400],
      ]);
      const c = decodeBatchIds(parseQueryParams('ids=List((id:1),x)').get('ids'), { kind: 'complex' })!;
      expect(c.keys).toHaveLength(1);
      expect(c.errors.map((e) => e.key)).toEqual(['x']);
    });

    it('drops duplicate ids, compound keys whatever their part order', () => {
      const r = decodeBatchIds(
        parseQueryParams(
          'ids=List((followeeID:2,followerID:1),(followerID:1,followeeID:2),(followeeID:2,followerID:01),(followeeID:3,followerID:1))',
        ).get('ids'),
        followsSpec,
      )!;
      expect(r.keys.map(String)).toEqual(['(followeeID:2,followerID:1)', '(followeeID:3,followerID:1)']);
      const bytes = decodeBatchIds(parseQueryParams('ids=List(A%C3%A9,A%C3%A9,B)').get('ids'), {
        kind: 'simple',
        type: 'bytes',
      })!;
      expect(bytes.keys.map((k) => encodeKeyForBody(k))).toEqual(['Aé', 'B']);
      const complexIds = decodeBatchIds(
        parseQueryParams('ids=List((id:1),(id:1),($params:(p:1),id:1))').get('ids'),
        {
          kind: 'complex',
        },
      )!;
      expect(complexIds.keys.map((k) => encodeKeyForBody(k, true))).toEqual([
        '(id:1)',
        '($params:(p:1),id:1)',
      ]);
    });

    it('requires a List of compound or complex keys', () => {
      expect(keyError(() => decodeBatchIds('x', followsSpec)).message).toBe(
        "Invalid batch keys 'x': expected List(...)",
      );
    });
  });
});

describe('keys round trip in every form (properties)', () => {
  // a 0x00 byte would be U+0000 in the key's text, which keys may not hold
  const keyBytes = (minLength: number): fc.Arbitrary<ByteString> =>
    fc
      .uint8Array({ minLength, maxLength: 12 })
      .filter((b) => !b.includes(0))
      .map((b) => ByteString.copy(b));

  /** Arbitraries of the values of one simple key type each, with the type's spec. */
  const simpleKinds = (bytes: fc.Arbitrary<ByteString>): [fc.Arbitrary<ResourceKey>, KeySpec][] => [
    [mapKey.filter((s) => s !== ''), { kind: 'simple' }],
    [longValue, { kind: 'simple', type: 'long' }],
    [fc.integer(), { kind: 'simple', type: 'int' }],
    [fc.double({ noNaN: true, noDefaultInfinity: true }), { kind: 'simple', type: 'double' }],
    [fc.boolean(), { kind: 'simple', type: 'boolean' }],
    [bytes, { kind: 'simple', type: 'bytes' }],
  ];
  const casesOf = (bytes: fc.Arbitrary<ByteString>): fc.Arbitrary<[ResourceKey, KeySpec]> =>
    fc.oneof(
      ...simpleKinds(bytes).map(([values, spec]) => values.map((v): [ResourceKey, KeySpec] => [v, spec])),
      compoundKeyCase.map(({ key, parts }): [ResourceKey, KeySpec] => [key, { kind: 'compound', parts }]),
      complexKey.map((k): [ResourceKey, KeySpec] => [k, { kind: 'complex' }]),
    );
  const allCases = casesOf(keyBytes(0));
  // A simple key whose string form is empty (no bytes; the empty string is left out above) is written ''
  // and read back literally (wire facts, surprise 8; tested under 'key decoding').
  const pathCases = casesOf(keyBytes(1));

  /** One to four keys of one spec (the first key's), as a batch request holds them. */
  const batchCases: fc.Arbitrary<{ keys: ResourceKey[]; spec: KeySpec }> = fc.oneof(
    ...simpleKinds(keyBytes(0)).map(([values, spec]) =>
      fc.array(values, { minLength: 1, maxLength: 4 }).map((keys) => ({ keys, spec })),
    ),
    fc.array(compoundKeyCase, { minLength: 1, maxLength: 4 }).map((cases) => {
      const spec: KeySpec = { kind: 'compound', parts: cases[0]!.parts };
      const same = cases.filter((c) => JSON.stringify(c.parts) === JSON.stringify(cases[0]!.parts));
      return { keys: same.map((c): ResourceKey => c.key), spec };
    }),
    fc
      .array(complexKey, { minLength: 1, maxLength: 4 })
      .map((keys): { keys: ResourceKey[]; spec: KeySpec } => ({ keys, spec: { kind: 'complex' } })),
  );

  function same(a: ResourceKey, b: ResourceKey): boolean {
    if (typeof a === 'number' && typeof b === 'number') return Object.is(a + 0, b + 0);
    if (a instanceof ByteString) return a.equals(b);
    return encodeKeyForBody(a, true) === encodeKeyForBody(b, true) && typeof a === typeof b;
  }

  it('decodes what encodeKeyForPath writes', () => {
    fc.assert(
      fc.property(pathCases, ([key, spec]) => {
        expect(same(decodeKeyFromPath(encodeKeyForPath(key), spec), key)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes what encodeBatchIds writes, through the query parser', () => {
    fc.assert(
      fc.property(batchCases, ({ keys, spec }) => {
        const q = parseQueryParams(`ids=${encodeBatchIds(keys)}`);
        const r = decodeBatchIds(q.get('ids'), spec)!;
        expect(r.errors).toEqual([]);
        const expected = keys.filter(
          (k, i) => keys.findIndex((o) => encodeKeyForBody(o, true) === encodeKeyForBody(k, true)) === i,
        );
        expect(r.keys.length).toBe(expected.length);
        r.keys.forEach((k, i) => expect(same(k, expected[i]!)).toBe(true));
      }),
      { numRuns: 300 },
    );
  });

  it('decodes what encodeKeyForBody writes, full or not', () => {
    fc.assert(
      fc.property(allCases, fc.boolean(), ([key, spec], full) => {
        const back = decodeKeyFromBody(encodeKeyForBody(key, full), spec);
        if (isComplexKey(key) && !full) {
          expect(isComplexKey(back)).toBe(true);
          expect(encodeKeyForBody(back)).toBe(encodeKeyForBody(key));
          expect((back as ComplexKey).params).toBeUndefined();
        } else {
          expect(same(back, key)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes a simple string key raw in bodies, whatever it holds (but U+0000, which keys may not hold)', () => {
    fc.assert(
      fc.property(mapKey, (s) => {
        expect(encodeKeyForHeader(s)).toBe(s);
        expect(decodeKeyFromBody(s, { kind: 'simple' })).toBe(s);
      }),
    );
  });
});
