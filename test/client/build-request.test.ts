import {
  ByteString,
  ComplexKey,
  CompoundKey,
  Data,
  type DataMap,
  ProtocolVersion,
  PsonCodec,
  RESTLI_CLIENT_HEADERS,
  RequestBuildError,
  type RequestDescription,
  type ResourceKey,
  UnsupportedProtocolVersionError,
  buildRequest,
  decodeBatchIds,
  decodeKeyFromPath,
  isSvcError,
  parseQueryParams,
  rawPathOf,
  rawQueryOf,
  routeResourceMethod,
} from '../../src';
import { Primitives } from '../generated/binding/com/example/binding';

/**
 * Request building against golden v2 URIs: restli-client's TestClientBuilders (the `//"test..."` sample URIs
 * of each data provider, v2 column) and the wire facts (§2.5 keys, §2.6 worked examples, §3.3 headers).
 */

const map = (o: Record<string, unknown>): DataMap => Data.fromJS(o as never) as DataMap;
const RESTLI = { baseUrl: 'http://localhost:1338/', headerPrefix: 'X-RestLi' } as const;
const uriOf = (d: RequestDescription): string => buildRequest(d, RESTLI).uri;
const bodyOf = (d: RequestDescription): string => {
  const b = buildRequest(d, RESTLI).body;
  if (b === undefined) throw new Error('no body');
  return Buffer.from(b).toString('utf8');
};

describe('TestClientBuilders golden v2 URIs', () => {
  it('builds an entity action: test/1?action=action with the params as the body', () => {
    const r = buildRequest(
      { method: 'action', resource: 'test', key: 1, name: 'action', actionParams: { p: '42' } },
      RESTLI,
    );
    expect(r.uri).toBe('test/1?action=action');
    expect(r.method).toBe('POST');
    expect(Buffer.from(r.body!).toString()).toBe('{"p":"42"}');
  });

  it('builds a batch get with a projection: test?fields=message,id&ids=List(1,2,3)', () => {
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [1, 2, 3], fields: 'message,id' })).toBe(
      'test?fields=message,id&ids=List(1,2,3)',
    );
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [1n, 2n, 3n] })).toBe('test?ids=List(1,2,3)');
  });

  it('escapes compound keys in ids: List((ampersand:%26%26,equals:%3D%3D),(ampersand:%26,equals:%3D))', () => {
    const key1 = new CompoundKey().append('equals', '=').append('ampersand', '&');
    const key2 = new CompoundKey().append('equals', '==').append('ampersand', '&&');
    // the reference's order is its HashSet's; ours is the caller's
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [key2, key1], fields: 'message,id' })).toBe(
      'test?fields=message,id&ids=List((ampersand:%26%26,equals:%3D%3D),(ampersand:%26,equals:%3D))',
    );
  });

  it('puts a compound key in the path: test/(part1:1,part2:2)', () => {
    const key = new CompoundKey().append('part1', 1).append('part2', '2');
    for (const method of ['get', 'delete'] as const) {
      expect(uriOf({ method, resource: 'test', key })).toBe('test/(part1:1,part2:2)');
    }
    const r = buildRequest(
      { method: 'partial_update', resource: 'test', key, patch: map({ $set: { id: 2 } }) },
      RESTLI,
    );
    expect(r.uri).toBe('test/(part1:1,part2:2)');
    expect(Buffer.from(r.body!).toString()).toBe('{"patch":{"$set":{"id":2}}}');
  });

  it('builds batch update and batch partial update on compound keys with entities bodies', () => {
    const k1 = new CompoundKey().append('part1', 1).append('part2', '2');
    const k2 = new CompoundKey().append('part1', 11).append('part2', '22');
    const update: RequestDescription = {
      method: 'batch_update',
      resource: 'test',
      entities: new Map([
        [k1, map({ id: 1, message: '1' })],
        [k2, map({ id: 2 })],
      ]),
    };
    expect(uriOf(update)).toBe('test?ids=List((part1:1,part2:2),(part1:11,part2:22))');
    expect(buildRequest(update, RESTLI).method).toBe('PUT');
    expect(bodyOf(update)).toBe(
      '{"entities":{"(part1:1,part2:2)":{"id":1,"message":"1"},"(part1:11,part2:22)":{"id":2}}}',
    );
    // PatchGenerator.diff(t1, t2) and diff(t2, t3) of the reference's test
    const patch: RequestDescription = {
      method: 'batch_partial_update',
      resource: 'test',
      patches: [
        [k1, map({ $set: { id: 2 }, $delete: ['message'] })],
        [k2, map({ $set: { message: '3' }, $delete: ['id'] })],
      ],
    };
    expect(uriOf(patch)).toBe('test?ids=List((part1:1,part2:2),(part1:11,part2:22))');
    expect(buildRequest(patch, RESTLI).method).toBe('POST');
    expect(bodyOf(patch)).toBe(
      '{"entities":{"(part1:1,part2:2)":{"patch":{"$set":{"id":2},"$delete":["message"]}},' +
        '"(part1:11,part2:22)":{"patch":{"$set":{"message":"3"},"$delete":["id"]}}}}',
    );
  });

  it('builds batch delete and batch get on simple keys: test?ids=List(1,2,3)', () => {
    const r = buildRequest({ method: 'batch_delete', resource: 'test', ids: [1, 2, 3] }, RESTLI);
    expect([r.method, r.uri, r.body]).toEqual(['DELETE', 'test?ids=List(1,2,3)', undefined]);
  });

  it('builds get, update and delete by id: test/1', () => {
    expect(uriOf({ method: 'get', resource: 'test', key: 1 })).toBe('test/1');
    const update = buildRequest({ method: 'update', resource: 'test', key: 1, body: map({ id: 1 }) }, RESTLI);
    expect([update.method, update.uri]).toEqual(['PUT', 'test/1']);
    expect(uriOf({ method: 'delete', resource: 'test', key: 1 })).toBe('test/1');
  });

  it('builds a finder on an association with a partial key in the path', () => {
    const assoc = { resource: 'test/{assocKey}', pathKeys: { assocKey: new CompoundKey({ key: 'a:b' }) } };
    expect(
      uriOf({
        method: 'finder',
        ...assoc,
        name: 'search',
        params: { p: 42 },
        paging: { start: 1, count: 4 },
        fields: 'message,id',
      }),
    ).toBe('test/(key:a%3Ab)?count=4&fields=message,id&p=42&q=search&start=1');
    expect(
      uriOf({ method: 'finder', ...assoc, name: 'search', params: { p: 42 }, paging: { start: 1 } }),
    ).toBe('test/(key:a%3Ab)?p=42&q=search&start=1');
    expect(
      uriOf({ method: 'finder', ...assoc, name: 'search', params: { p: 42 }, paging: { count: 4 } }),
    ).toBe('test/(key:a%3Ab)?count=4&p=42&q=search');
  });

  it('builds get_all with paging and projections', () => {
    expect(
      uriOf({ method: 'get_all', resource: 'test', paging: { start: 1, count: 4 }, fields: 'message,id' }),
    ).toBe('test?count=4&fields=message,id&start=1');
    expect(uriOf({ method: 'get_all', resource: 'test', paging: { start: 1 } })).toBe('test?start=1');
    expect(uriOf({ method: 'get_all', resource: 'test', paging: { count: 4 } })).toBe('test?count=4');
    expect(uriOf({ method: 'get_all', resource: 'test', fields: 'message,id' })).toBe(
      'test?fields=message,id',
    );
    expect(uriOf({ method: 'get', resource: 'test', key: 1, fields: 'message,id' })).toBe(
      'test/1?fields=message,id',
    );
  });

  it('writes list-valued params as List(...): test/1?arrayKey1=List(3,4,5)&arrayKey2=List(3,4,5)&simpleKey=2', () => {
    expect(
      uriOf({
        method: 'get',
        resource: 'test',
        key: 1,
        params: { simpleKey: 2, arrayKey1: [3, 4, 5], arrayKey2: [3, 4, 5] },
      }),
    ).toBe('test/1?arrayKey1=List(3,4,5)&arrayKey2=List(3,4,5)&simpleKey=2');
  });

  it('writes complex keys with $params in the path and in ids, and record params', () => {
    const testParam = map({ id: 123, message: 'ParamMessage' });
    const key = new ComplexKey(
      map({ id: 1, message: 'KeyMessage' }),
      map({ id: 10, message: 'ParamMessage' }),
    );
    expect(uriOf({ method: 'get', resource: 'test', key, params: { testParam } })).toBe(
      'test/($params:(id:10,message:ParamMessage),id:1,message:KeyMessage)?testParam=(id:123,message:ParamMessage)',
    );
    const id1 = new ComplexKey(
      map({ id: 1, message: 'KeyMessage1' }),
      map({ id: 10, message: 'ParamMessage1' }),
    );
    const id2 = new ComplexKey(
      map({ id: 2, message: 'KeyMessage2' }),
      map({ id: 20, message: 'ParamMessage2' }),
    );
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [id2, id1], params: { testParam } })).toBe(
      'test?ids=List(($params:(id:20,message:ParamMessage2),id:2,message:KeyMessage2),' +
        '($params:(id:10,message:ParamMessage1),id:1,message:KeyMessage1))&testParam=(id:123,message:ParamMessage)',
    );
    const k = new ComplexKey(map({ id: 1, message: 'keyMessage' }), map({ id: 2, message: 'paramMessage' }));
    expect(uriOf({ method: 'get', resource: 'test', key: k })).toBe(
      'test/($params:(id:2,message:paramMessage),id:1,message:keyMessage)',
    );
  });

  it('fills sub-resource path keys: foo/1/bar/2/baz', () => {
    const sub = { resource: 'foo/{key1}/bar/{key2}/baz', pathKeys: { key1: 1, key2: 2 } };
    expect(uriOf({ method: 'action', ...sub, name: 'action' })).toBe('foo/1/bar/2/baz?action=action');
    expect(uriOf({ method: 'batch_get', ...sub, ids: [1, 2] })).toBe('foo/1/bar/2/baz?ids=List(1,2)');
    expect(uriOf({ method: 'get_all', ...sub })).toBe('foo/1/bar/2/baz');
    expect(uriOf({ method: 'get', ...sub, key: 3 })).toBe('foo/1/bar/2/baz/3');
    const urls = {
      resource: 'foo/{key1}/bar/{key2}/baz',
      pathKeys: { key1: 'http://example.com/images/1.png', key2: 'http://example.com/images/2.png' },
    };
    expect(uriOf({ method: 'action', ...urls, name: 'action' })).toBe(
      'foo/http%3A%2F%2Fexample.com%2Fimages%2F1.png/bar/http%3A%2F%2Fexample.com%2Fimages%2F2.png/baz?action=action',
    );
    // simple resource as root or as sub-resource
    expect(
      uriOf({ method: 'action', resource: 'foo/bar/{key1}/baz', pathKeys: { key1: 1 }, name: 'action' }),
    ).toBe('foo/bar/1/baz?action=action');
    expect(uriOf({ method: 'get', resource: 'foo/bar/{key1}/baz', pathKeys: { key1: 1 }, key: 2 })).toBe(
      'foo/bar/1/baz/2',
    );
    expect(uriOf({ method: 'get', resource: 'foo/{key1}/bar', pathKeys: { key1: 1 } })).toBe('foo/1/bar');
  });

  it('encodes custom query parameter names and values for the query component', () => {
    expect(uriOf({ method: 'get_all', resource: 'test', params: { foo: 'bar' } })).toBe('test?foo=bar');
    expect(uriOf({ method: 'get', resource: 'test', key: 3, params: { foo: 'bar' } })).toBe('test/3?foo=bar');
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [1, 2], params: { foo: 'bar' } })).toBe(
      'test?foo=bar&ids=List(1,2)',
    );
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [1], params: { foo: 'bar' } })).toBe(
      'test?foo=bar&ids=List(1)',
    );
    const one = (name: string, value: string): string =>
      uriOf({ method: 'get', resource: 'test', key: 3, params: { [name]: value } });
    expect(one('foo', 'bar&baz=qux')).toBe('test/3?foo=bar%26baz%3Dqux');
    expect(one('foo&bar=baz', 'qux')).toBe('test/3?foo%26bar%3Dbaz=qux');
    expect(one('foo/bar', 'baz/qux')).toBe('test/3?foo/bar=baz/qux');
    expect(one('foo:bar', 'baz:qux')).toBe('test/3?foo%3Abar=baz%3Aqux');
    expect(one('foo?bar', 'baz?qux')).toBe('test/3?foo?bar=baz?qux');
  });
});

describe('wire facts golden URIs', () => {
  it('§2.6 (1): GET /follows/(followeeID:2,followerID:1)', () => {
    const r = buildRequest(
      { method: 'get', resource: 'follows', key: new CompoundKey({ followerID: 1, followeeID: 2 }) },
      RESTLI,
    );
    expect([r.method, r.url]).toEqual(['GET', 'http://localhost:1338/follows/(followeeID:2,followerID:1)']);
  });

  it('§2.6 (2): a finder with a record-valued and a list-valued param, names sorted', () => {
    expect(
      uriOf({
        method: 'finder',
        resource: 'greetings',
        name: 'search',
        paging: { start: 0, count: 5 },
        params: { Zed: 1, filter: { name: 'Jo Ann', tags: [], tl: ['a,b', ''] }, 'with space': 'x' },
      }),
    ).toBe(
      "greetings?Zed=1&count=5&filter=(name:Jo%20Ann,tags:List(),tl:List(a%2Cb,''))&q=search&start=0&with%20space=x",
    );
    // $returnEntity sorts before Zed (§2.3)
    expect(
      uriOf({
        method: 'create',
        resource: 'greetings',
        body: map({}),
        returnEntity: true,
        params: { Zed: 1 },
      }),
    ).toBe('greetings?$returnEntity=true&Zed=1');
  });

  it('§2.6 (3): a batch get of compound keys with a projection', () => {
    const ids = [
      new CompoundKey({ followerID: 1, followeeID: 2 }),
      new CompoundKey({ followerID: 3, followeeID: 'a b' }),
    ];
    expect(uriOf({ method: 'batch_get', resource: 'follows', ids, fields: 'id,message' })).toBe(
      'follows?fields=id,message&ids=List((followeeID:2,followerID:1),(followeeID:a%20b,followerID:3))',
    );
  });

  it('§2.6 (4): a batch get of complex keys', () => {
    const k = (id: number, p: number, n: number): ComplexKey =>
      new ComplexKey(map({ id, message: `keyMessage${n}` }), map({ id: p, message: `paramMessage${n}` }));
    expect(uriOf({ method: 'batch_get', resource: 'test', ids: [k(1, 2, 1), k(3, 4, 2)] })).toBe(
      'test?ids=List(($params:(id:2,message:paramMessage1),id:1,message:keyMessage1),($params:(id:4,message:paramMessage2),id:3,message:keyMessage2))',
    );
  });

  it('§2.6 (5): a batch finder', () => {
    expect(
      uriOf({
        method: 'batch_finder',
        resource: 'greetings',
        name: 'searchGreetings',
        batchParam: 'criteria',
        criteria: [map({ id: 1, tone: 'SINCERE' })],
        params: { message: 'hello' },
      }),
    ).toBe('greetings?bq=searchGreetings&criteria=List((id:1,tone:SINCERE))&message=hello');
  });

  it('§2.5: keys in the path, in ids and in batch request bodies ($params included there)', () => {
    const complex = new ComplexKey(map({ major: 'KEY 1', list: [1, 2] }), map({ p: 'x:y' }));
    const cases: Array<[ResourceKey, string, string]> = [
      [42, '42', '42'],
      ['a,b c', 'a%2Cb%20c', 'a,b c'],
      [
        new CompoundKey({ followerID: 1, followeeID: 2 }),
        '(followeeID:2,followerID:1)',
        '(followeeID:2,followerID:1)',
      ],
      [
        complex,
        '($params:(p:x%3Ay),list:List(1,2),major:KEY%201)',
        '($params:(p:x%3Ay),list:List(1,2),major:KEY 1)',
      ],
    ];
    for (const [key, path, body] of cases) {
      expect(uriOf({ method: 'get', resource: 'r', key })).toBe(`r/${path}`);
      expect(uriOf({ method: 'batch_delete', resource: 'r', ids: [key] })).toBe(`r?ids=List(${path})`);
      const update = buildRequest(
        { method: 'batch_update', resource: 'r', entities: [[key, map({ a: 1 })]] },
        RESTLI,
      );
      expect(Object.keys(Data.toJS(update.bodyData!.get('entities') as DataMap) as object)).toEqual([body]);
    }
  });

  it('writes an empty string key as the empty token in ids and as a path segment', () => {
    expect(uriOf({ method: 'batch_get', resource: 'r', ids: [''] })).toBe("r?ids=List('')");
    expect(uriOf({ method: 'get', resource: 'r', key: 'é☺' })).toBe('r/%C3%A9%E2%98%BA');
    expect(uriOf({ method: 'get', resource: 'r', key: ByteString.copy([0x41, 0xe9, 0x00]) })).toBe(
      'r/A%C3%A9%00',
    );
  });
});

describe('request headers', () => {
  const all: RequestDescription[] = [
    { method: 'get', resource: 'r', key: 1 },
    { method: 'batch_get', resource: 'r', ids: [1] },
    { method: 'create', resource: 'r', body: map({}) },
    { method: 'batch_create', resource: 'r', bodies: [map({})] },
    { method: 'update', resource: 'r', key: 1, body: map({}) },
    { method: 'batch_update', resource: 'r', entities: [[1, map({})]] },
    { method: 'partial_update', resource: 'r', key: 1, patch: map({ $set: {} }) },
    { method: 'batch_partial_update', resource: 'r', patches: [[1, map({ $set: {} })]] },
    { method: 'delete', resource: 'r', key: 1 },
    { method: 'batch_delete', resource: 'r', ids: [1] },
    { method: 'get_all', resource: 'r' },
    { method: 'finder', resource: 'r', name: 'f' },
    { method: 'batch_finder', resource: 'r', name: 'b', batchParam: 'c', criteria: [map({})] },
    { method: 'action', resource: 'r', name: 'a' },
  ];

  it('sends the protocol version always and the lower-case method header on POST only, as the reference', () => {
    for (const d of all) {
      const r = buildRequest(d, RESTLI);
      expect(r.headers['X-RestLi-Protocol-Version']).toBe('2.0.0');
      expect(r.headers['X-RestLi-Method']).toBe(r.method === 'POST' ? d.method : undefined);
    }
    expect(buildRequest({ method: 'batch_create', resource: 'r', bodies: [] }, RESTLI).headers).toEqual({
      'Content-Type': 'application/json',
      'X-LI-R2-W-MsgType': 'REST',
      'X-RestLi-Protocol-Version': '2.0.0',
      'X-RestLi-Method': 'batch_create',
    });
  });

  it('sends X-LI-R2-W-MsgType: REST on every request to a Rest.li peer, as the Java client does', () => {
    for (const d of all) {
      expect(buildRequest(d, RESTLI).headers['X-LI-R2-W-MsgType']).toBe('REST');
      expect(buildRequest(d, { ...RESTLI, headerPrefix: 'x-restli' }).headers['X-LI-R2-W-MsgType']).toBe(
        'REST',
      );
      expect(buildRequest(d, { baseUrl: 'http://h' }).headers['X-LI-R2-W-MsgType']).toBeUndefined();
      expect(
        buildRequest(d, { baseUrl: 'http://h', headerPrefix: 'X-Acme' }).headers['X-LI-R2-W-MsgType'],
      ).toBeUndefined();
    }
    expect(RESTLI_CLIENT_HEADERS).toEqual({ 'X-LI-R2-W-MsgType': 'REST' });
  });

  it('lets a header of the same name in the options or the request replace X-LI-R2-W-MsgType', () => {
    const d = { method: 'get', resource: 'r', key: 1 } as const;
    expect(buildRequest(d, { ...RESTLI, headers: { 'x-li-r2-w-msgtype': 'STREAM' } }).headers).toEqual({
      'x-li-r2-w-msgtype': 'STREAM',
      'X-RestLi-Protocol-Version': '2.0.0',
    });
    expect(
      buildRequest({ ...d, headers: { 'X-LI-R2-W-MsgType': 'STREAM' } }, RESTLI).headers['X-LI-R2-W-MsgType'],
    ).toBe('STREAM');
  });

  it("sends the method header on every request with methodHeader: 'always'", () => {
    for (const d of all) {
      expect(buildRequest(d, { ...RESTLI, methodHeader: 'always' }).headers['X-RestLi-Method']).toBe(
        d.method,
      );
    }
  });

  it('names headers with the default X-Svc prefix', () => {
    const r = buildRequest({ method: 'batch_create', resource: 'r', bodies: [] }, { baseUrl: 'http://h' });
    expect(r.headers).toEqual({
      'Content-Type': 'application/json',
      'X-Svc-Protocol-Version': '2.0.0',
      'X-Svc-Method': 'batch_create',
    });
  });

  it('sends Content-Type only with a body', () => {
    for (const d of all) {
      const r = buildRequest(d, RESTLI);
      expect(r.headers['Content-Type']).toBe(r.body === undefined ? undefined : 'application/json');
    }
  });

  it('writes Accept from the accept option with q-values without the floating-point artefact', () => {
    const accept = (types: string[]): string | undefined =>
      buildRequest({ method: 'get', resource: 'r', key: 1 }, { ...RESTLI, accept: types }).headers.Accept;
    expect(accept([])).toBeUndefined();
    expect(accept(['application/x-pson'])).toBe('application/x-pson');
    expect(accept(['application/json', 'application/x-pson'])).toBe(
      'application/json;q=1.0,application/x-pson;q=0.9',
    );
  });

  it('lets client and request headers through, request ones winning, protocol headers always the computed ones', () => {
    const r = buildRequest(
      {
        method: 'create',
        resource: 'r',
        body: map({}),
        headers: {
          'x-trace': 'req',
          Accept: 'application/x-pson',
          'x-restli-protocol-version': '1.0.0',
          'X-RestLi-Method': 'get',
        },
      },
      {
        ...RESTLI,
        accept: ['application/json'],
        headers: { 'X-Trace': 'client', Authorization: 'Bearer t' },
      },
    );
    expect(r.headers).toEqual({
      'x-trace': 'req',
      Authorization: 'Bearer t',
      Accept: 'application/x-pson',
      'Content-Type': 'application/json',
      'X-LI-R2-W-MsgType': 'REST',
      'X-RestLi-Protocol-Version': '2.0.0',
      'X-RestLi-Method': 'create',
    });
    // a method header on a GET is dropped in 'post' mode rather than sent stale
    const get = buildRequest(
      { method: 'get', resource: 'r', key: 1, headers: { 'X-RestLi-Method': 'delete' } },
      RESTLI,
    );
    expect(get.headers['X-RestLi-Method']).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('encodes bodies with PSON when the client is configured so', () => {
    const r = buildRequest(
      { method: 'create', resource: 'r', body: map({ a: 1 }) },
      { ...RESTLI, contentType: 'application/x-pson' },
    );
    expect(r.headers['Content-Type']).toBe('application/x-pson');
    expect(Data.toJS(new PsonCodec().bytesToMap(r.body!))).toEqual({ a: 1 });
  });

  it("encodes a body with the codec a request's own Content-Type names", () => {
    const r = buildRequest(
      {
        method: 'create',
        resource: 'r',
        body: map({ a: 1 }),
        headers: { 'content-type': 'application/x-pson' },
      },
      RESTLI,
    );
    expect(r.headers).toMatchObject({ 'content-type': 'application/x-pson' });
    expect(r.headers['Content-Type']).toBeUndefined();
    expect(Data.toJS(new PsonCodec().bytesToMap(r.body!))).toEqual({ a: 1 });
    expect(() =>
      buildRequest(
        { method: 'create', resource: 'r', body: map({}), headers: { 'Content-Type': 'text/plain' } },
        RESTLI,
      ),
    ).toThrow(RequestBuildError);
  });

  it('takes record templates as entities and keeps longs exact', () => {
    const p = new Primitives().setALong(2n ** 60n + 1n).setAString('x');
    const r = buildRequest({ method: 'batch_create', resource: 'r', bodies: [p, map({ b: 2 })] }, RESTLI);
    expect(Buffer.from(r.body!).toString()).toBe(
      '{"elements":[{"aLong":1152921504606846977,"aString":"x"},{"b":2}]}',
    );
  });

  it('sends action parameters as the body, {} when none, records and arrays converted', () => {
    expect(bodyOf({ method: 'action', resource: 'r', name: 'ping' })).toBe('{}');
    expect(
      bodyOf({
        method: 'action',
        resource: 'r',
        name: 'tag',
        actionParams: {
          ids: [1, 2n ** 62n],
          photo: new Primitives().setAnInt(3),
          opt: undefined,
          where: { x: 'y' },
        },
      }),
    ).toBe('{"ids":[1,4611686018427387904],"photo":{"anInt":3},"where":{"x":"y"}}');
  });

  it('writes $fillInDefaults=true only when asked, and refuses a non-boolean', () => {
    expect(uriOf({ method: 'get', resource: 'r', key: 1, fillInDefaults: true })).toBe(
      'r/1?$fillInDefaults=true',
    );
    expect(uriOf({ method: 'finder', resource: 'r', name: 'f', fillInDefaults: false })).toBe('r?q=f');
    expect(() =>
      uriOf({ method: 'get', resource: 'r', key: 1, fillInDefaults: 'yes' as unknown as boolean }),
    ).toThrow("'fillInDefaults' must be a boolean");
  });

  it('writes $returnEntity and a projection of the returned entity on create and partial update', () => {
    expect(uriOf({ method: 'create', resource: 'r', body: map({}), returnEntity: false })).toBe(
      'r?$returnEntity=false',
    );
    expect(
      uriOf({
        method: 'partial_update',
        resource: 'r',
        key: 1,
        patch: map({}),
        returnEntity: true,
        fields: ['id', 'title'].map((f) => [f]),
      }),
    ).toBe('r/1?$returnEntity=true&fields=id,title');
    expect(
      uriOf({
        method: 'batch_create',
        resource: 'r',
        bodies: [],
        returnEntity: true,
        fields: [Primitives.fields().aLong()],
      }),
    ).toBe('r?$returnEntity=true&fields=aLong');
  });

  it('takes projections as mask text, a mask DataMap or paths', () => {
    expect(uriOf({ method: 'get', resource: 'r', key: 1, fields: 'a,b:(c,d),-e' })).toBe(
      'r/1?fields=a,b:(c,d),-e',
    );
    expect(uriOf({ method: 'get', resource: 'r', key: 1, fields: map({ a: 1, b: { c: 1 } }) })).toBe(
      'r/1?fields=a,b:(c)',
    );
    expect(
      uriOf({
        method: 'get_all',
        resource: 'r',
        fields: [['a']],
        metadataFields: 'm',
        pagingFields: 'total',
      }),
    ).toBe('r?fields=a&metadataFields=m&pagingFields=total');
  });

  it('drops duplicate ids by wire form and keeps the caller order', () => {
    expect(uriOf({ method: 'batch_get', resource: 'r', ids: [3, 1, '3', 2, 1n] })).toBe('r?ids=List(3,1,2)');
  });

  it('reads one-shot iterables of ids', () => {
    function* ids(): Generator<number> {
      yield 5;
      yield 6;
    }
    expect(uriOf({ method: 'batch_get', resource: 'r', ids: ids() })).toBe('r?ids=List(5,6)');
  });
});

describe('what the server decodes', () => {
  const methodsAndKeys: Array<[RequestDescription, boolean]> = [
    [{ method: 'get', resource: 'r', key: 1 }, true],
    [{ method: 'batch_get', resource: 'r', ids: [1, 2] }, false],
    [{ method: 'create', resource: 'r', body: map({}) }, false],
    [{ method: 'batch_create', resource: 'r', bodies: [] }, false],
    [{ method: 'update', resource: 'r', key: 1, body: map({}) }, true],
    [{ method: 'batch_update', resource: 'r', entities: [[1, map({})]] }, false],
    [{ method: 'partial_update', resource: 'r', key: 1, patch: map({}) }, true],
    [{ method: 'batch_partial_update', resource: 'r', patches: [[1, map({})]] }, false],
    [{ method: 'delete', resource: 'r', key: 1 }, true],
    [{ method: 'batch_delete', resource: 'r', ids: [1] }, false],
    [{ method: 'get_all', resource: 'r' }, false],
    [{ method: 'finder', resource: 'r', name: 'search' }, false],
    [
      { method: 'batch_finder', resource: 'r', name: 'b', batchParam: 'criteria', criteria: [map({ a: 1 })] },
      false,
    ],
    [{ method: 'action', resource: 'r', name: 'a' }, false],
    [{ method: 'action', resource: 'r', name: 'a', key: 7 }, true],
  ];

  it('routes every built request back to its method (protocol routing table)', () => {
    for (const [d, entity] of methodsAndKeys) {
      for (const methodHeader of ['post', 'always'] as const) {
        const r = buildRequest(d, { ...RESTLI, methodHeader });
        const query = parseQueryParams(rawQueryOf(r.uri));
        expect(
          routeResourceMethod({
            httpMethod: r.method,
            methodHeader: r.headers['X-RestLi-Method'],
            query,
            entity,
            requestUri: r.uri,
          }),
        ).toBe(d.method);
      }
    }
  });

  it('gives back the keys, ids and params the caller gave', () => {
    const compound = new CompoundKey({ a: 'x,y:(z)', b: "it's", c: '' });
    const r = buildRequest({ method: 'get', resource: 'r', key: compound }, RESTLI);
    const segment = rawPathOf(r.uri).split('/')[1]!;
    const back = decodeKeyFromPath(segment, {
      kind: 'compound',
      parts: { a: 'string', b: 'string', c: 'string' },
    });
    expect(compound.equals(back)).toBe(true);

    const complex = new ComplexKey(map({ major: 'KEY 1', list: [1, 2] }), map({ p: 'x:y' }));
    const batch = buildRequest(
      { method: 'batch_get', resource: 'r', ids: [complex], params: { f: { n: 'Jo Ann', l: ['a,b', ''] } } },
      RESTLI,
    );
    const q = parseQueryParams(rawQueryOf(batch.uri));
    const ids = decodeBatchIds(q.get('ids'), { kind: 'complex' });
    expect(ids?.errors).toEqual([]);
    expect(Data.toJS((ids!.keys[0] as ComplexKey).key)).toEqual({ major: 'KEY 1', list: ['1', '2'] });
    expect(Data.toJS((ids!.keys[0] as ComplexKey).params!)).toEqual({ p: 'x:y' });
    expect(Data.toJS(q.get('f')!)).toEqual({ n: 'Jo Ann', l: ['a,b', ''] });
  });
});

describe('request description errors', () => {
  const build = (d: unknown): unknown => buildRequest(d as RequestDescription, RESTLI);
  const fails = (d: unknown, message: RegExp): void => {
    let err: unknown;
    try {
      build(d);
    } catch (e) {
      err = e;
    }
    expect(isSvcError(err, 'RequestBuildError', 'SVC_ERR_CLIENT_BAD_REQUEST')).toBe(true);
    expect((err as Error).message).toMatch(message);
  };

  it('refuses reserved query parameter names in params', () => {
    for (const name of ['q', 'bq', 'action', 'ids', 'start', 'count', 'fields', '$returnEntity']) {
      fails(
        { method: 'get_all', resource: 'r', params: { [name]: 'x' } },
        new RegExp(`'\\${name}' is reserved|'${name}' is reserved`),
      );
    }
    fails(
      { method: 'batch_finder', resource: 'r', name: 'b', batchParam: 'q', criteria: [] },
      /batchParam 'q'/,
    );
    fails(
      { method: 'batch_finder', resource: 'r', name: 'b', batchParam: 'c', criteria: [], params: { c: 1 } },
      /clashes/,
    );
  });

  it('names a missing, unused or malformed path key', () => {
    fails({ method: 'get_all', resource: 'a/{k}/b' }, /needs the path key 'k'/);
    fails(
      { method: 'get_all', resource: 'a/{k}/b', pathKeys: { k: 1, j: 2 } },
      /no segment for path key\(s\) j/,
    );
    fails({ method: 'get_all', resource: 'a/x{k}' }, /whole '\{key\}' segment/);
    fails({ method: 'get_all', resource: 'a//b' }, /empty segment/);
    fails({ method: 'get_all', resource: '' }, /non-empty path/);
  });

  it('refuses values that are not keys, entities or data', () => {
    fails({ method: 'get', resource: 'r', key: { id: 1 } }, /'key' is not a resource key/);
    fails({ method: 'get', resource: 'r', key: Number.NaN }, /'key' is not a resource key/);
    fails({ method: 'batch_get', resource: 'r', ids: 'abc' }, /'ids' must be iterable/);
    fails(
      { method: 'create', resource: 'r', body: { a: 1 } },
      /'body' must be a DataMap or a record template/,
    );
    fails(
      {
        method: 'batch_update',
        resource: 'r',
        entities: [
          [1, map({})],
          ['1', map({})],
        ],
      },
      /names the key '1' twice/,
    );
    fails(
      { method: 'partial_update', resource: 'r', key: 1, patch: { $set: {} } },
      /'patch' must be a DataMap/,
    );
    fails({ method: 'get_all', resource: 'r', params: { x: null } }, /'params.x' is null/);
    fails({ method: 'get_all', resource: 'r', params: { x: new Date() } }, /cannot be sent: Date/);
    fails({ method: 'get_all', resource: 'r', paging: { start: -1 } }, /'paging.start' must be an int/);
    fails({ method: 'finder', resource: 'r', name: '' }, /'name' must be a non-empty string/);
    fails({ method: 'upsert', resource: 'r' }, /Unknown resource method 'upsert'/);
    fails({ method: 'get', resource: 'r', key: 1, headers: { 'bad name': 'x' } }, /not a valid header name/);
    fails(
      { method: 'get', resource: 'r', key: 1, headers: { 'x-a': 'a\r\nx-b: b' } },
      /without CR, LF or NUL/,
    );
  });

  it('refuses to write a protocol version other than 2.0.0', () => {
    expect(() =>
      buildRequest({ method: 'get', resource: 'r', key: 1 }, RESTLI, new ProtocolVersion(1, 0, 0)),
    ).toThrow(UnsupportedProtocolVersionError);
    expect(() =>
      buildRequest({ method: 'get', resource: 'r', key: 1 }, { ...RESTLI, protocolVersion: '1.0.0' }),
    ).toThrow(UnsupportedProtocolVersionError);
  });
});
