import {
  ComplexKey,
  CompoundKey,
  Data,
  type DataMap,
  KeyMap,
  PsonCodec,
  type ServiceResponseError,
  SvcClient,
  isSvcError,
} from '../../src';
import { Primitives } from '../generated/binding/com/example/binding';
import { StubServer } from './stub-server';

/**
 * Every response shape of wire facts §3.5 and the ErrorResponse of §4, decoded from raw bytes a stub server
 * sends over loopback HTTP (bodies written by hand from the wire facts, not produced by our own code).
 */

const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Svc-Protocol-Version': '2.0.0' };
const map = (o: Record<string, unknown>): DataMap => Data.fromJS(o as never) as DataMap;
const js = (v: unknown): unknown => (v === undefined ? undefined : Data.toJS(v as DataMap));
const pson = new PsonCodec();

let stub: StubServer;
let client: SvcClient;

beforeAll(async () => {
  stub = await StubServer.start();
  client = new SvcClient({ baseUrl: stub.baseUrl });
});
afterAll(async () => {
  await stub.stop();
});

async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}

describe('get', () => {
  it('decodes the entity, wraps it in the template class and keeps longs exact', async () => {
    stub.reply(200, JSON_HEADERS, '{"aLong":9007199254740993,"aString":"Sunset","anInt":7}');
    const r = await client.send({
      method: 'get',
      resource: 'photos',
      key: 7,
      template: Primitives,
      fields: 'aLong,aString',
    });
    expect(stub.last.method).toBe('GET');
    expect(stub.last.url).toBe('/photos/7?fields=aLong,aString');
    expect(stub.last.headers['x-svc-protocol-version']).toBe('2.0.0');
    expect(stub.last.headers['x-svc-method']).toBeUndefined();
    expect(r.status).toBe(200);
    expect(r.headers['x-svc-protocol-version']).toBe('2.0.0');
    expect(r.entity).toBeInstanceOf(Primitives);
    expect(r.entity.getALong()).toBe(9007199254740993n);
    expect(r.entity.getAString()).toBe('Sunset');
  });

  it('gives a DataMap without a template', async () => {
    stub.reply(200, JSON_HEADERS, '{"id":1}');
    const r = await client.send({ method: 'get', resource: 'photos', key: 1 });
    expect(js(r.entity)).toEqual({ id: 1 });
  });

  it('decodes a PSON response by its Content-Type', async () => {
    stub.reply(
      200,
      { 'Content-Type': 'application/x-pson' },
      pson.mapToBytes(map({ id: 1, title: 'é', big: 2n ** 62n })),
    );
    const c = new SvcClient({ baseUrl: stub.baseUrl, accept: ['application/x-pson', 'application/json'] });
    const r = await c.send({ method: 'get', resource: 'photos', key: 1 });
    expect(stub.last.headers.accept).toBe('application/x-pson;q=1.0,application/json;q=0.9');
    expect(js(r.entity)).toEqual({ id: 1, title: 'é', big: 2n ** 62n });
  });
});

describe('batch_get', () => {
  it('keys results, statuses and errors by the request keys', async () => {
    stub.reply(
      200,
      JSON_HEADERS,
      '{"results":{"1":{"id":1},"2":{"id":2}},"statuses":{"2":200},' +
        '"errors":{"3":{"status":404,"message":"no photo 3","code":"NOT_FOUND"}}}',
    );
    const r = await client.send({ method: 'batch_get', resource: 'photos', ids: [1, 2, 3, 4] });
    expect(stub.last.url).toBe('/photos?ids=List(1,2,3,4)');
    expect([...r.results.keys()]).toEqual([1, 2]);
    expect(js(r.results.get(2))).toEqual({ id: 2 });
    expect(r.results.get('2')).toBe(r.results.get(2));
    expect(r.statuses.get(2)).toBe(200);
    expect(r.errors.get(3)).toEqual({ status: 404, message: 'no photo 3', code: 'NOT_FOUND' });
    expect(r.results.has(4) || r.errors.has(4) || r.statuses.has(4)).toBe(false);
  });

  it('finds compound keys by an equal new key and gives back the request key objects', async () => {
    const k1 = new CompoundKey({ followerID: 1, followeeID: 2 });
    const k2 = new CompoundKey({ followerID: 3, followeeID: 'a b' });
    stub.reply(
      200,
      JSON_HEADERS,
      '{"results":{"(followeeID:2,followerID:1)":{"n":1}},"statuses":{},"errors":{"(followeeID:a b,followerID:3)":{"status":403}}}',
    );
    const r = await client.send({ method: 'batch_get', resource: 'follows', ids: [k1, k2] });
    expect(stub.last.url).toBe(
      '/follows?ids=List((followeeID:2,followerID:1),(followeeID:a%20b,followerID:3))',
    );
    expect([...r.results.keys()][0]).toBe(k1);
    expect(js(r.results.get(new CompoundKey({ followeeID: 2, followerID: 1 })))).toEqual({ n: 1 });
    expect(r.errors.get(new CompoundKey({ followerID: 3, followeeID: 'a b' }))).toEqual({ status: 403 });
  });

  it('finds complex keys by their key record, the $params left out of response keys', async () => {
    const key = new ComplexKey(map({ major: 'KEY 1', list: [1, 2] }), map({ p: 'x:y' }));
    stub.reply(
      200,
      JSON_HEADERS,
      '{"results":{"(list:List(1,2),major:KEY 1)":{"ok":true}},"statuses":{},"errors":{}}',
    );
    const r = await client.send({ method: 'batch_get', resource: 'complex', ids: [key] });
    expect(stub.last.url).toBe('/complex?ids=List(($params:(p:x%3Ay),list:List(1,2),major:KEY%201))');
    expect([...r.results.keys()][0]).toBe(key);
    expect(js(r.results.get(new ComplexKey(map({ major: 'KEY 1', list: [1, 2] }))))).toEqual({ ok: true });
  });

  it('decodes keys the request did not name with the key spec, else as strings', async () => {
    stub.reply(200, JSON_HEADERS, '{"results":{"9":{"id":9}},"statuses":{},"errors":{}}');
    const typed = await client.send({
      method: 'batch_get',
      resource: 'photos',
      ids: [1],
      keySpec: { kind: 'simple', type: 'long' },
    });
    expect([...typed.results.keys()]).toEqual([9]);
    const untyped = await client.send({ method: 'batch_get', resource: 'photos', ids: [1] });
    expect([...untyped.results.keys()]).toEqual(['9']);
  });

  it('wraps results in the template class', async () => {
    stub.reply(200, JSON_HEADERS, '{"results":{"1":{"anInt":1}},"statuses":{},"errors":{}}');
    const r = await client.send({ method: 'batch_get', resource: 'photos', ids: [1], template: Primitives });
    expect(r.results.get(1)?.getAnInt()).toBe(1);
  });
});

describe('create and batch_create', () => {
  it('reads the id header and Location of a 201 with an empty body', async () => {
    stub.reply(201, { ...JSON_HEADERS, 'X-Svc-Id': '42', Location: '/photos/42' });
    const r = await client.send({
      method: 'create',
      resource: 'photos',
      body: new Primitives().setAString('new'),
      keySpec: { kind: 'simple', type: 'long' },
    });
    expect(stub.last.method).toBe('POST');
    expect(stub.last.headers['x-svc-method']).toBe('create');
    expect(stub.last.headers['content-type']).toBe('application/json');
    expect(stub.last.body.toString()).toBe('{"aString":"new"}');
    expect(r).toMatchObject({ status: 201, id: 42, idText: '42', location: '/photos/42', entity: undefined });
    const untyped = await client.send({ method: 'create', resource: 'photos', body: map({}) });
    expect(untyped.id).toBe('42');
  });

  it('decodes a compound id header with a key spec', async () => {
    const spec = { kind: 'compound', parts: { albumId: 'long', photoId: 'string' } } as const;
    stub.reply(201, { 'X-Svc-Id': '(albumId:1,photoId:a,b)' });
    await expect(
      client.send({ method: 'create', resource: 'albumEntries', body: map({}), keySpec: spec }),
    ).rejects.toMatchObject({ name: 'ResponseDecodingError', cause: { name: 'InvalidKeyError' } });
    stub.reply(201, { 'X-Svc-Id': '(albumId:1,photoId:a%2Cb)' });
    const r2 = await client.send({
      method: 'create',
      resource: 'albumEntries',
      body: map({}),
      keySpec: spec,
    });
    expect((r2.id as CompoundKey).equals(new CompoundKey({ albumId: 1, photoId: 'a,b' }))).toBe(true);
  });

  it('reads the returned entity with $returnEntity', async () => {
    stub.reply(201, { ...JSON_HEADERS, 'X-Svc-Id': '43' }, '{"id":43,"aString":"x"}');
    const r = await client.send({
      method: 'create',
      resource: 'photos',
      body: map({}),
      returnEntity: true,
      template: Primitives,
    });
    expect(stub.last.url).toBe('/photos?$returnEntity=true');
    expect(r.entity?.getAString()).toBe('x');
  });

  it('reads batch_create statuses in request order, errors included, and sends the method header', async () => {
    stub.reply(
      200,
      JSON_HEADERS,
      '{"elements":[{"status":201,"id":"1","location":"/photos/1"},' +
        '{"status":400,"error":{"status":400,"message":"bad title"}},' +
        '{"status":201,"id":"3","location":"/photos/3","entity":{"anInt":3}}]}',
    );
    const r = await client.send({
      method: 'batch_create',
      resource: 'photos',
      bodies: [map({ a: 1 }), map({ a: 2 }), map({ a: 3 })],
      keySpec: { kind: 'simple', type: 'long' },
      template: Primitives,
    });
    expect(stub.last.headers['x-svc-method']).toBe('batch_create');
    expect(stub.last.body.toString()).toBe('{"elements":[{"a":1},{"a":2},{"a":3}]}');
    expect(r.elements.map((e) => [e.status, e.isError, e.id, e.location])).toEqual([
      [201, false, 1, '/photos/1'],
      [400, true, undefined, undefined],
      [201, false, 3, '/photos/3'],
    ]);
    expect(r.elements[1]?.error).toEqual({ status: 400, message: 'bad title' });
    expect(r.elements[2]?.entity?.getAnInt()).toBe(3);
  });
});

describe('update, partial_update, delete', () => {
  it('gives the status of a 204 without a body', async () => {
    stub.reply(204, { 'X-Svc-Protocol-Version': '2.0.0' });
    const u = await client.send({ method: 'update', resource: 'photos', key: 1, body: map({ t: 1 }) });
    expect([stub.last.method, stub.last.headers['x-svc-method']]).toEqual(['PUT', undefined]);
    expect(u).toMatchObject({ status: 204, entity: undefined });
    const d = await client.send({ method: 'delete', resource: 'photos', key: 1 });
    expect([stub.last.method, stub.last.body.length, d.status]).toEqual(['DELETE', 0, 204]);
    const p = await client.send({
      method: 'partial_update',
      resource: 'photos',
      key: 1,
      patch: map({ $set: { t: 2 } }),
    });
    expect(stub.last.headers['x-svc-method']).toBe('partial_update');
    expect(stub.last.body.toString()).toBe('{"patch":{"$set":{"t":2}}}');
    expect(p.entity).toBeUndefined();
  });

  it('reads the entity a partial update returns', async () => {
    stub.reply(200, JSON_HEADERS, '{"anInt":5}');
    const p = await client.send({
      method: 'partial_update',
      resource: 'photos',
      key: 1,
      patch: map({ $set: { anInt: 5 } }),
      returnEntity: true,
      template: Primitives,
    });
    expect(p.entity?.getAnInt()).toBe(5);
  });
});

describe('batch_update, batch_partial_update, batch_delete', () => {
  const body =
    '{"results":{"1":{"status":204},"2":{"status":200,"entity":{"anInt":2}}},' +
    '"errors":{"3":{"status":404,"message":"gone"}}}';

  it('reads results and errors keyed by the request keys', async () => {
    stub.reply(200, JSON_HEADERS, body);
    const u = await client.send({
      method: 'batch_update',
      resource: 'photos',
      entities: new Map([
        [1, map({ a: 1 })],
        [2, map({ a: 2 })],
        [3, map({ a: 3 })],
      ]),
    });
    expect([stub.last.method, stub.last.url]).toEqual(['PUT', '/photos?ids=List(1,2,3)']);
    expect(stub.last.body.toString()).toBe('{"entities":{"1":{"a":1},"2":{"a":2},"3":{"a":3}}}');
    expect(u.results.get(1)).toEqual({ status: 204, entity: undefined });
    expect(u.errors.get(3)).toEqual({ status: 404, message: 'gone' });

    const p = await client.send({
      method: 'batch_partial_update',
      resource: 'photos',
      patches: [
        [1, map({ $set: { a: 1 } })],
        [2, map({ $delete: ['a'] })],
        [3, map({})],
      ],
      returnEntity: true,
      template: Primitives,
    });
    expect(stub.last.headers['x-svc-method']).toBe('batch_partial_update');
    expect(stub.last.url).toBe('/photos?$returnEntity=true&ids=List(1,2,3)');
    expect(p.results.get(2)?.entity?.getAnInt()).toBe(2);

    const d = await client.send({ method: 'batch_delete', resource: 'photos', ids: [1, 2, 3] });
    expect([stub.last.method, stub.last.body.length]).toEqual(['DELETE', 0]);
    expect([...d.results.keys(), ...d.errors.keys()]).toEqual([1, 2, 3]);
  });
});

describe('get_all, finder, batch_finder', () => {
  it('reads elements, paging with total and links, and metadata', async () => {
    stub.reply(
      200,
      JSON_HEADERS,
      '{"elements":[{"anInt":1},{"anInt":2}],"paging":{"start":10,"count":2,"total":15,"links":[' +
        '{"rel":"prev","href":"/photos?q=byTitle&title=x&start=8&count=2","type":"application/json"},' +
        '{"rel":"next","href":"/photos?q=byTitle&title=x&start=12&count=2","type":"application/json"}]},' +
        '"metadata":{"anInt":99}}',
    );
    const r = await client.send({
      method: 'finder',
      resource: 'photos',
      name: 'byTitle',
      params: { title: 'x' },
      paging: { start: 10, count: 2 },
      template: Primitives,
      metadataTemplate: Primitives,
    });
    expect(stub.last.url).toBe('/photos?count=2&q=byTitle&start=10&title=x');
    expect(r.elements.map((e) => e.getAnInt())).toEqual([1, 2]);
    expect(r.paging).toEqual({
      start: 10,
      count: 2,
      total: 15,
      links: [
        { rel: 'prev', href: '/photos?q=byTitle&title=x&start=8&count=2', type: 'application/json' },
        { rel: 'next', href: '/photos?q=byTitle&title=x&start=12&count=2', type: 'application/json' },
      ],
    });
    expect(r.metadata?.getAnInt()).toBe(99);
  });

  it('reads a get_all page without total or metadata', async () => {
    stub.reply(200, JSON_HEADERS, '{"elements":[],"paging":{"start":0,"count":10,"links":[]}}');
    const r = await client.send({ method: 'get_all', resource: 'photos' });
    expect(stub.last.url).toBe('/photos');
    expect(r).toMatchObject({
      elements: [],
      paging: { start: 0, count: 10, links: [] },
      metadata: undefined,
    });
  });

  it('reads batch_finder results per criterion, errors included', async () => {
    stub.reply(
      200,
      JSON_HEADERS,
      '{"elements":[{"elements":[{"anInt":1}],"paging":{"start":0,"count":10,"links":[]}},' +
        '{"elements":[],"isError":true,"error":{"status":404,"message":"The server didn\'t find a representation for this criteria"}}]}',
    );
    const r = await client.send({
      method: 'batch_finder',
      resource: 'photos',
      name: 'search',
      batchParam: 'criteria',
      criteria: [map({ id: 1 }), map({ id: 2 })],
      template: Primitives,
    });
    expect(stub.last.url).toBe('/photos?bq=search&criteria=List((id:1),(id:2))');
    expect(r.results[0]?.elements[0]?.getAnInt()).toBe(1);
    expect(r.results[1]).toMatchObject({ isError: true, error: { status: 404 } });
  });
});

describe('action', () => {
  it('reads a primitive value, a record value and a void action', async () => {
    stub.reply(200, JSON_HEADERS, '{"value":1234567890123456789}');
    const n = await client.send({ method: 'action', resource: 'photos', name: 'count' });
    expect(stub.last.url).toBe('/photos?action=count');
    expect(stub.last.headers['x-svc-method']).toBe('action');
    expect(stub.last.body.toString()).toBe('{}');
    expect(n.value).toBe(1234567890123456789n);

    stub.reply(200, JSON_HEADERS, '{"value":{"anInt":4}}');
    const rec = await client.send({
      method: 'action',
      resource: 'photos',
      name: 'best',
      key: 3,
      actionParams: { n: 1 },
      template: Primitives,
    });
    expect(stub.last.url).toBe('/photos/3?action=best');
    expect(rec.value?.getAnInt()).toBe(4);

    stub.reply(200, { 'X-Svc-Protocol-Version': '2.0.0' });
    const v = await client.send({ method: 'action', resource: 'photos', name: 'purge' });
    expect(v).toMatchObject({ status: 200, value: undefined });
  });
});

describe('error responses', () => {
  it('throws ServiceResponseError with the decoded ErrorResponse', async () => {
    stub.reply(
      404,
      { ...JSON_HEADERS, 'X-Svc-Error-Response': 'true' },
      '{"status":404,"message":"No photo 7","code":"PHOTO_NOT_FOUND","serviceErrorCode":12,' +
        '"docUrl":"https://docs/x","requestId":"r1","errorDetailType":"com.example.Why","errorDetails":{"why":"deleted"}}',
    );
    const err = (await rejection(
      client.send({ method: 'get', resource: 'photos', key: 7 }),
    )) as unknown as ServiceResponseError;
    expect(isSvcError(err, 'ServiceResponseError', 'SVC_ERR_CLIENT_ERROR_RESPONSE')).toBe(true);
    expect(err.status).toBe(404);
    expect(err.isErrorResponse).toBe(true);
    expect(err.message).toBe(`get ${stub.baseUrl}/photos/7 failed with status 404: No photo 7`);
    expect(err.serviceMessage).toBe('No photo 7');
    expect(err.serviceCode).toBe('PHOTO_NOT_FOUND');
    expect(err.errorResponse).toMatchObject({
      serviceErrorCode: 12,
      docUrl: 'https://docs/x',
      requestId: 'r1',
    });
    expect(js(err.details)).toEqual({ why: 'deleted' });
    expect(err.headers['x-svc-error-response']).toBe('true');
    const s = err.toServiceError();
    expect([s.name, s.status, s.message, s.code, s.errorDetailType]).toEqual([
      'ServiceError',
      404,
      'No photo 7',
      'PHOTO_NOT_FOUND',
      'com.example.Why',
    ]);
  });

  it('reads an ErrorResponse in PSON and the error header under another prefix', async () => {
    stub.reply(
      400,
      { 'Content-Type': 'application/x-pson', 'X-RestLi-Error-Response': 'true' },
      pson.mapToBytes(map({ status: 400, message: 'bad' })),
    );
    const c = new SvcClient({ baseUrl: stub.baseUrl, headerPrefix: 'X-RestLi' });
    const err = await rejection(c.send({ method: 'get', resource: 'photos', key: 1 }));
    expect(err).toMatchObject({
      status: 400,
      isErrorResponse: true,
      errorResponse: { status: 400, message: 'bad' },
    });
    expect(stub.last.headers['x-restli-protocol-version']).toBe('2.0.0');
  });

  it('still throws a typed error for a body that is no ErrorResponse (a proxy page, an empty body)', async () => {
    stub.reply(502, { 'Content-Type': 'text/html' }, '<html>bad gateway</html>');
    const html = await rejection(client.send({ method: 'get', resource: 'photos', key: 1 }));
    expect(html).toMatchObject({
      name: 'ServiceResponseError',
      status: 502,
      errorResponse: undefined,
      isErrorResponse: false,
    });
    expect(Buffer.from(html.body as Uint8Array).toString()).toBe('<html>bad gateway</html>');
    expect((html.cause as Error).name).toBe('UnsupportedContentTypeException');

    stub.reply(500, {});
    const empty = await rejection(client.send({ method: 'delete', resource: 'photos', key: 1 }));
    expect(empty).toMatchObject({ status: 500, errorResponse: undefined });
    expect(empty.cause).toBeUndefined();
    expect(empty.message).toBe(`delete ${stub.baseUrl}/photos/1 failed with status 500`);
  });

  it('keeps the decoded body of a non-2xx action result', async () => {
    stub.reply(409, JSON_HEADERS, '{"value":3}');
    const err = await rejection(client.send({ method: 'action', resource: 'photos', name: 'x' }));
    expect(js(err.data)).toEqual({ value: 3 });
    expect(err.errorResponse).toEqual({});
  });
});

describe('malformed success responses', () => {
  it('throws ResponseDecodingError with the JSON decoding error and its offset', async () => {
    stub.reply(200, JSON_HEADERS, '{"id":1,');
    const err = await rejection(client.send({ method: 'get', resource: 'photos', key: 1 }));
    expect(isSvcError(err, 'ResponseDecodingError', 'SVC_ERR_CLIENT_RESPONSE_DECODE')).toBe(true);
    expect(err.status).toBe(200);
    expect((err.cause as Error).name).toBe('DataDecodingException');
    expect(err.offset).toBe((err.cause as { offset: number }).offset);
    expect(typeof err.offset).toBe('number');
  });

  it('throws ResponseDecodingError for broken PSON', async () => {
    stub.reply(
      200,
      { 'Content-Type': 'application/x-pson' },
      Buffer.from('#!PSON1\n\x21\x81a\x00', 'latin1'),
    );
    const err = await rejection(client.send({ method: 'get', resource: 'photos', key: 1 }));
    expect(err).toMatchObject({
      name: 'ResponseDecodingError',
      cause: { name: 'DataDecodingException', code: 'SVC_ERR_DATA_PSON_DECODE' },
    });
  });

  it('throws ResponseDecodingError for a body not shaped like the envelope', async () => {
    stub.reply(200, JSON_HEADERS, '{"results":[1,2],"statuses":{},"errors":{}}');
    const err = await rejection(client.send({ method: 'batch_get', resource: 'photos', ids: [1] }));
    expect(err).toMatchObject({ name: 'ResponseDecodingError', cause: { name: 'ResponseFormatError' } });
    expect(err.message).toContain("'results' must be a map (at /results)");
  });

  it('throws ResponseDecodingError for a Content-Type no codec reads, a top-level list, a get without entity', async () => {
    stub.reply(200, { 'Content-Type': 'text/plain' }, 'hello');
    await expect(client.send({ method: 'get', resource: 'photos', key: 1 })).rejects.toMatchObject({
      name: 'ResponseDecodingError',
      cause: { name: 'UnsupportedContentTypeException' },
    });
    stub.reply(200, JSON_HEADERS, '[1]');
    await expect(client.send({ method: 'get', resource: 'photos', key: 1 })).rejects.toMatchObject({
      name: 'ResponseDecodingError',
    });
    stub.reply(200, JSON_HEADERS);
    await expect(client.send({ method: 'get', resource: 'photos', key: 1 })).rejects.toThrow(
      'A get response has no entity',
    );
  });

  it('decodes a body without Content-Type as JSON', async () => {
    stub.reply(200, {}, '{"id":1}');
    const r = await client.send({ method: 'get', resource: 'photos', key: 1 });
    expect(js(r.entity)).toEqual({ id: 1 });
  });
});

describe('request bodies on the wire', () => {
  it('sends PSON bodies that decode to what was given', async () => {
    stub.reply(201, { 'X-Svc-Id': '1' });
    const c = new SvcClient({ baseUrl: stub.baseUrl, contentType: 'application/x-pson' });
    await c.send({ method: 'create', resource: 'photos', body: map({ title: 'é', n: 2n ** 60n }) });
    expect(stub.last.headers['content-type']).toBe('application/x-pson');
    expect(js(pson.bytesToMap(stub.last.body))).toEqual({ title: 'é', n: 2n ** 60n });
  });
});

describe('KeyMap', () => {
  it('is a ReadonlyMap compared by wire form', () => {
    const m = new KeyMap<number | string, string>([
      [1, 'a'],
      ['1', 'b'],
      [2, 'c'],
    ]);
    expect(m.size).toBe(2);
    expect(m.get(1)).toBe('b');
    expect(m.getByWireKey('2')).toBe('c');
    expect([...m]).toEqual([
      ['1', 'b'],
      [2, 'c'],
    ]);
    const seen: unknown[] = [];
    m.forEach((v, k) => seen.push([k, v]));
    expect(seen).toEqual([...m.entries()]);
    expect([...m.values()]).toEqual(['b', 'c']);
    expect(Object.prototype.toString.call(m)).toBe('[object KeyMap]');
  });
});
