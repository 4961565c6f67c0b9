import type { DataList, DataMap } from '../../src';
import {
  BATCH_FINDER_MISSING_RESULT_MESSAGE,
  BatchGetBodyBuilder,
  CompoundKey,
  DEFAULT_SUCCESS_STATUS,
  Data,
  InvalidParameterError,
  JsonCodec,
  ResponseFormatError,
  actionResponse,
  batchCreateResponse,
  batchFinderCriterionUri,
  batchFinderResponse,
  batchGetResponse,
  batchUpdateResponse,
  collectionResponse,
  encodeKeyForBody,
  encodeKeyForPath,
  entityNotFoundMessage,
  locationFor,
  pagedUri,
  pagingLinks,
  parsePagingParams,
  parseQueryParams,
  parseReturnEntity,
  readActionResponse,
  readBatchCreateResponse,
  readBatchFinderResponse,
  readBatchGetResponse,
  readBatchUpdateResponse,
  readCollectionResponse,
} from '../../src';
import { collectionResponseOf } from '../../src/protocol/envelopes';

const json = new JsonCodec();
const text = (m: DataMap): string => json.mapToString(m);
const map = (o: Record<string, unknown>): DataMap => Data.fromJS(o as never) as DataMap;
const JSON_TYPE = 'application/json';

describe('success statuses', () => {
  it('uses the reference defaults per method', () => {
    expect(DEFAULT_SUCCESS_STATUS).toMatchObject({
      get: 200,
      create: 201,
      batch_create: 200,
      update: 204,
      delete: 204,
      batch_get: 200,
      batch_update: 200,
      batch_partial_update: 200,
      batch_delete: 200,
      finder: 200,
      get_all: 200,
      batch_finder: 200,
      action: 200,
    });
    expect(entityNotFoundMessage('get')).toBe('Requested entity not found: get');
  });
});

describe('batch_get', () => {
  it('always has results, statuses and errors', () => {
    expect(text(batchGetResponse({ results: [] }))).toBe('{"results":{},"statuses":{},"errors":{}}');
  });

  it('keys each map by the body form of the key and holds ErrorResponses in errors', () => {
    const k1 = encodeKeyForBody(new CompoundKey({ followerID: 1, followeeID: 2 }));
    const body = batchGetResponse({
      results: [[k1, map({ id: 1 })]],
      statuses: [[k1, 200]],
      errors: [['a,b c', { status: 404, message: 'gone' }]],
    });
    expect(text(body)).toBe(
      '{"results":{"(followeeID:2,followerID:1)":{"id":1}},"statuses":{"(followeeID:2,followerID:1)":200},"errors":{"a,b c":{"status":404,"message":"gone"}}}',
    );
    const read = readBatchGetResponse(json.stringToMap(text(body)));
    expect(Data.toJS(read.results.get(k1)!)).toEqual({ id: 1 });
    expect(read.statuses.get(k1)).toBe(200);
    expect(read.errors.get('a,b c')).toEqual({ status: 404, message: 'gone' });
  });

  it('reads a body with maps left out', () => {
    const read = readBatchGetResponse(map({ results: {} }));
    expect(read.errors.size).toBe(0);
    expect(read.statuses.size).toBe(0);
  });

  it('rejects a malformed body', () => {
    expect(() => readBatchGetResponse(map({ results: { a: 1 } }))).toThrow(ResponseFormatError);
    expect(() => readBatchGetResponse(map({ statuses: { a: 'x' } }))).toThrow(
      'a status must be an int (at /statuses/a)',
    );
    expect(() => readBatchGetResponse(undefined)).toThrow(ResponseFormatError);
  });
});

describe('batch update, partial update and delete', () => {
  it('has results with statuses and errors, and no statuses map', () => {
    const body = batchUpdateResponse({
      results: [
        ['1', { status: 204 }],
        ['2', { status: 200, entity: map({ id: 2 }) }],
      ],
      errors: [['3', map({ status: 400, message: 'bad' })]],
    });
    expect(text(body)).toBe(
      '{"results":{"1":{"status":204},"2":{"status":200,"entity":{"id":2}}},"errors":{"3":{"status":400,"message":"bad"}}}',
    );
    expect(body.has('statuses')).toBe(false);
    const read = readBatchUpdateResponse(body);
    expect(read.results.get('1')).toEqual({ status: 204 });
    expect(Data.toJS(read.results.get('2')!.entity!)).toEqual({ id: 2 });
    expect(read.errors.get('3')!.message).toBe('bad');
  });

  it('rejects a result without a status', () => {
    expect(() => readBatchUpdateResponse(map({ results: { 1: {} } }))).toThrow(
      "'status' must be an int (at /results/1/status)",
    );
  });
});

describe('create and batch_create', () => {
  it('builds the Location from the request URI and the key', () => {
    const key = encodeKeyForPath(new CompoundKey({ b: 'x y', a: 1 }));
    expect(locationFor('/follows?x=1', key)).toBe('/follows/(a:1,b:x%20y)');
    expect(locationFor('/greetings/', '42')).toBe('/greetings/42');
    expect(locationFor('/greetings', '42', 'urn')).toBe('/greetings/42?altkey=urn');
  });

  it('writes batch_create elements as CreateStatus records in order', () => {
    const body = batchCreateResponse([
      { status: 201, id: '1', location: '/r/1' },
      { status: 400, error: { status: 400, message: 'nope' } },
      { status: 201, id: '3', location: '/r/3', entity: map({ id: 3 }) },
    ]);
    expect(text(body)).toBe(
      '{"elements":[{"status":201,"id":"1","location":"/r/1"},{"status":400,"error":{"status":400,"message":"nope"}},{"status":201,"id":"3","location":"/r/3","entity":{"id":3}}]}',
    );
    const read = readBatchCreateResponse(body);
    expect(read[0]).toEqual({ status: 201, id: '1', location: '/r/1' });
    expect(read[1]).toEqual({ status: 400, error: { status: 400, message: 'nope' } });
    expect(Data.toJS(read[2]!.entity!)).toEqual({ id: 3 });
    expect(() => readBatchCreateResponse(map({ elements: [{ status: 'x' }] }))).toThrow(ResponseFormatError);
    expect(() => readBatchCreateResponse(map({}))).toThrow("'elements' is missing (at /elements)");
  });

  it('reads $returnEntity: absent is true, true/false in any case, anything else a 400', () => {
    expect(parseReturnEntity(undefined)).toBe(true);
    expect(parseReturnEntity('TRUE')).toBe(true);
    expect(parseReturnEntity('false')).toBe(false);
    const q = parseQueryParams('$returnEntity=maybe');
    expect(() => parseReturnEntity(q.get('$returnEntity'))).toThrow(
      'Invalid "$returnEntity" parameter: maybe',
    );
    expect(() => parseReturnEntity(q.get('$returnEntity'))).toThrow(InvalidParameterError);
  });
});

describe('collections: finder and get_all', () => {
  it('reads start and count with the defaults 0 and 10', () => {
    expect(parsePagingParams(undefined, undefined)).toEqual({ start: 0, count: 10 });
    expect(parsePagingParams('5', '20')).toEqual({ start: 5, count: 20 });
    expect(parsePagingParams(' ', undefined, { start: 1, count: 2 })).toEqual({ start: 1, count: 2 });
    expect(() => parsePagingParams('x', undefined)).toThrow('Invalid (non-integer) start/count parameters');
    expect(() => parsePagingParams('1.5', undefined)).toThrow('Invalid (non-integer) start/count parameters');
    expect(() => parsePagingParams('0', '-1')).toThrow('start/count parameters must be non-negative');
    const err = (() => {
      try {
        parsePagingParams('-1', '1');
      } catch (e) {
        return e as InvalidParameterError;
      }
      return undefined;
    })();
    expect(err?.statusCode).toBe(400);
    expect(err?.param).toBe('start');
  });

  it.each([
    ['0', 0],
    ['7', 7],
    ['010', 10],
    ['123456789', 123456789],
    ['000000000', 0],
    ['1234567890', 1234567890],
    ['2147483647', 2147483647],
    ['0000000001', 1],
    ['+5', 5],
    [' 5', 'invalid'],
    ['5 ', 'invalid'],
    ['', 'default'],
    ['   ', 'default'],
    ['2147483648', 'invalid'],
    ['12345678901', 'invalid'],
    ['5a', 'invalid'],
    ['a5', 'invalid'],
    ['٣', 'invalid'],
    ['1e3', 'invalid'],
    ['0x10', 'invalid'],
    ['/', 'invalid'],
    [':', 'invalid'],
  ])('reads count %j as %j', (text, read) => {
    const paging = (): number => parsePagingParams(undefined, text, { start: 0, count: 42 }).count;
    if (read === 'invalid') expect(paging).toThrow('Invalid (non-integer) start/count parameters');
    else expect(paging()).toBe(read === 'default' ? 42 : read);
  });

  it('replaces start and count in a URI, keeping the other parameters raw and in order', () => {
    expect(pagedUri('/greetings?q=search&start=0&tone=FRIENDLY&count=10', 10, 10)).toBe(
      '/greetings?q=search&tone=FRIENDLY&start=10&count=10',
    );
    expect(pagedUri('/greetings', 0, 5)).toBe('/greetings?start=0&count=5');
    expect(pagedUri('/g?f=(a:b%20c)&st%61rt=3', 1, 2)).toBe('/g?f=(a:b%20c)&start=1&count=2');
  });

  it.each([
    ['/g?&&a=1&&', '/g?a=1&start=1&count=2'],
    ['/g?start&count=&b', '/g?b&start=1&count=2'],
    ['/g?st+art=1&%63ount=9&c%3D=1', '/g?st+art=1&c%3D=1&start=1&count=2'],
    ['/g?startx=1&xcount=2', '/g?startx=1&xcount=2&start=1&count=2'],
    ['/g?a=%zz&%zz=1', '/g?a=%zz&%zz=1&start=1&count=2'],
    ['/g?a=1#frag', '/g?a=1&start=1&count=2'],
    ['/g?', '/g?start=1&count=2'],
  ])('replaces start and count in %s, keeping every other piece as sent', (uri, paged) => {
    expect(pagedUri(uri, 1, 2)).toBe(paged);
  });

  const a = '/greetings?q=search&start=0&count=10';
  // the same text as `a` in a string of its own, as each request's URI is
  const a2 = ['/greetings?q=search', 'start=0&count=10'].join('&');
  const b = '/greetings?q=search&tone=SINCERE';
  const q = '/greetings?q=search';
  const A = '/greetings?q=search&start=';
  it.each<[string, Array<[uri: string, start: number, count: number, href: string]>]>([
    [
      'builds each link from its own URI when URIs alternate (the part kept from the last URI is not reused)',
      [
        [a, 10, 10, `${A}10&count=10`],
        [a, 0, 10, `${A}0&count=10`],
        [b, 5, 5, '/greetings?q=search&tone=SINCERE&start=5&count=5'],
        [a2, 20, 10, `${A}20&count=10`],
        ['/greetings', 1, 1, '/greetings?start=1&count=1'],
        [b, 0, 5, '/greetings?q=search&tone=SINCERE&start=0&count=5'],
      ],
    ],
    [
      "answers a URI's links again only for the same start and count (the last two are kept)",
      [
        [q, 10, 10, `${A}10&count=10`],
        [q, 0, 10, `${A}0&count=10`],
        [q, 10, 10, `${A}10&count=10`],
        [q, 0, 10, `${A}0&count=10`],
        [q, 10, 5, `${A}10&count=5`],
        [q, 20, 10, `${A}20&count=10`],
        [q, 10, 10, `${A}10&count=10`],
        [q, 0, 10, `${A}0&count=10`],
        ['/other', 0, 10, '/other?start=0&count=10'],
        [q, 0, 10, `${A}0&count=10`],
      ],
    ],
  ])('pagedUri %s', (_what, calls) => {
    expect(calls.map(([uri, start, count]) => pagedUri(uri, start, count))).toEqual(calls.map((c) => c[3]));
  });

  const uri = '/greetings?q=search&tone=FRIENDLY';
  const links = (start: number, count: number, n: number, total?: number): string[] =>
    pagingLinks({
      requestUri: uri,
      start,
      count,
      elementCount: n,
      type: JSON_TYPE,
      ...(total === undefined ? {} : { total }),
    }).map((l) => `${l.rel} ${l.href}`);

  it('links the next page when the page is full or more remain', () => {
    expect(links(0, 10, 10)).toEqual(['next /greetings?q=search&tone=FRIENDLY&start=10&count=10']);
    expect(links(0, 10, 3, 20)).toEqual(['next /greetings?q=search&tone=FRIENDLY&start=3&count=10']);
    expect(links(0, 10, 3)).toEqual([]);
    expect(links(10, 10, 10, 20)).toEqual([
      'prev /greetings?q=search&tone=FRIENDLY&start=0&count=10',
      'next /greetings?q=search&tone=FRIENDLY&start=20&count=10',
    ]);
  });

  it('links the previous page from max(0, start - count)', () => {
    expect(links(5, 10, 2)).toEqual(['prev /greetings?q=search&tone=FRIENDLY&start=0&count=10']);
    expect(links(30, 10, 2, 32)).toEqual(['prev /greetings?q=search&tone=FRIENDLY&start=20&count=10']);
  });

  it('has no links for count 0', () => {
    expect(links(10, 0, 0, 100)).toEqual([]);
  });

  it('writes elements, paging (total only when known, links always) and metadata', () => {
    const paging = {
      start: 0,
      count: 2,
      links: pagingLinks({ requestUri: '/g', start: 0, count: 2, elementCount: 2, type: JSON_TYPE }),
    };
    const body = collectionResponse({ elements: [map({ id: 1 }), map({ id: 2 })], paging });
    expect(text(body)).toBe(
      '{"elements":[{"id":1},{"id":2}],"paging":{"start":0,"count":2,"links":[{"rel":"next","href":"/g?start=2&count=2","type":"application/json"}]}}',
    );
    const withTotal = collectionResponse({
      elements: [],
      paging: { start: 0, count: 10, total: 0, links: [] },
      metadata: map({ m: 1 }),
    });
    expect(text(withTotal)).toBe(
      '{"elements":[],"paging":{"start":0,"count":10,"total":0,"links":[]},"metadata":{"m":1}}',
    );
    const read = readCollectionResponse(body);
    expect(read.elements.map((e) => e.get('id'))).toEqual([1, 2]);
    expect(read.paging).toEqual(paging);
    expect(read.metadata).toBeUndefined();
    expect(readCollectionResponse(withTotal).paging?.total).toBe(0);
  });

  it.each([
    { what: 'elements and paging', metadata: undefined },
    { what: 'metadata too', metadata: { m: 1 } },
  ])("the server's collectionResponseOf writes what collectionResponse writes: $what", ({ metadata }) => {
    const shared = map({ id: 1, tags: ['a'] });
    const elements = [shared, map({ id: 2 }), shared];
    const paging = { start: 0, count: 3, total: 9, links: [] };
    const meta = metadata === undefined ? undefined : map(metadata);
    const general = collectionResponse({
      elements,
      paging,
      ...(meta === undefined ? {} : { metadata: meta }),
    });
    const known = collectionResponseOf(elements, paging, meta);
    expect(text(known)).toBe(text(general));
    // the elements are held as a put holds them: the same map, changes to it seen through the body
    shared.put('title', 'later');
    expect(text(known)).toContain('{"id":1,"tags":["a"],"title":"later"},{"id":2}');
    expect(() => (known.get('elements') as DataList).add(known)).toThrow('cyclic');
  });

  it("the server's collectionResponseOf writes its links as collectionResponse does, and checks each href", () => {
    const link = { rel: 'next', href: '/g?q=x&start=3&count=3', type: 'application/json' };
    const paging = { start: 0, count: 3, total: 9, links: [link] };
    expect(text(collectionResponseOf([], paging, undefined))).toBe(
      text(collectionResponse({ elements: [], paging })),
    );
    // a multiplexed request's URI comes from JSON, which may hold a lone surrogate: never put into a body
    const bad = { ...paging, links: [{ ...link, href: '/g?q=\ud800&start=3&count=3' }] };
    expect(() => collectionResponseOf([], bad, undefined)).toThrow('lone UTF-16 surrogate');
  });

  it('BatchGetBodyBuilder holds a result map as a put holds it, and refuses what is not a map', () => {
    const photo = map({ id: 1 });
    const builder = new BatchGetBodyBuilder();
    builder.result('1', photo);
    builder.status('1', 200);
    const body = builder.build();
    photo.put('title', 'later');
    expect(text(body)).toBe('{"results":{"1":{"id":1,"title":"later"}},"statuses":{"1":200},"errors":{}}');
    expect(() => new BatchGetBodyBuilder().result('2', { id: 2 } as never)).toThrow(
      'a plain object is not data',
    );
    expect(() => new BatchGetBodyBuilder().result('3', null as never)).toThrow('null is not data');
  });

  it('rejects a malformed collection', () => {
    expect(() => readCollectionResponse(map({ elements: [1] }))).toThrow('expected a map (at /elements/0)');
    expect(() => readCollectionResponse(map({ elements: [], paging: { start: 0, count: 1 } }))).toThrow(
      "'links' is missing (at /paging/links)",
    );
    expect(() =>
      readCollectionResponse(map({ elements: [], paging: { start: 0, count: 1, links: [{ rel: 'next' }] } })),
    ).toThrow('a link needs rel, href and type (at /paging/links/0)');
  });
});

describe('action', () => {
  it('wraps the value, and has no body for a void action', () => {
    expect(text(actionResponse(42)!)).toBe('{"value":42}');
    expect(text(actionResponse(map({ a: [1] }))!)).toBe('{"value":{"a":[1]}}');
    expect(actionResponse(undefined)).toBeUndefined();
    expect(readActionResponse(map({ value: 'x' }))).toBe('x');
    expect(readActionResponse(undefined)).toBeUndefined();
    expect(readActionResponse(map({}))).toBeUndefined();
  });
});

describe('batch_finder', () => {
  it('writes one entry per criterion in order: collections, or errors with empty elements', () => {
    const body = batchFinderResponse([
      { elements: [map({ id: 1 })], paging: { start: 0, count: 10, total: 1, links: [] } },
      { error: { status: 404, message: BATCH_FINDER_MISSING_RESULT_MESSAGE } },
      { elements: [], paging: { start: 0, count: 10, links: [] }, metadata: map({ m: true }) },
    ]);
    expect(text(body)).toBe(
      '{"elements":[{"elements":[{"id":1}],"paging":{"start":0,"count":10,"total":1,"links":[]}},' +
        '{"elements":[],"isError":true,"error":{"status":404,"message":"The server didn\'t find a representation for this criteria"}},' +
        '{"elements":[],"paging":{"start":0,"count":10,"links":[]},"metadata":{"m":true}}]}',
    );
    const read = readBatchFinderResponse(body);
    expect(read.map((r) => r.isError)).toEqual([false, true, false]);
    expect(read[1]!.error?.status).toBe(404);
    expect(read[0]!.paging?.total).toBe(1);
    expect(read[2]!.metadata?.get('m')).toBe(true);
    expect(() => readBatchFinderResponse(map({ elements: [{ elements: [], isError: 'yes' }] }))).toThrow(
      ResponseFormatError,
    );
  });

  it('builds the URI of one criterion: params sorted, the batch param narrowed to it', () => {
    const params = parseQueryParams(
      'bq=search&criteria=List((id:1,tone:SINCERE),(id:2,tone:FRIENDLY))&message=hello',
    );
    const criteria = params.getDataList('criteria')!;
    const uri = batchFinderCriterionUri('/greetings', params, 'criteria', criteria.get(1));
    expect(uri).toBe('/greetings?bq=search&criteria=List((id:2,tone:FRIENDLY))&message=hello');
    expect(
      pagingLinks({ requestUri: uri, start: 0, count: 1, elementCount: 1, type: JSON_TYPE })[0]?.href,
    ).toBe('/greetings?bq=search&criteria=List((id:2,tone:FRIENDLY))&message=hello&start=1&count=1');
  });
});
