/**
 * Every collection method end to end over real HTTP on loopback, with requests written from the wire facts
 * (§3.3, §3.5): statuses, headers and bodies as the reference's server sends them.
 */
import { photoService, makePhoto, type PhotoService } from './support/photos';
import { fromPson, startServer, type TestServer } from './support/http';

let svc: PhotoService;
let server: TestServer;

beforeEach(async () => {
  svc = photoService();
  // the wire behaviour of each method, with entities that leave the fixture's required fields out
  server = await startServer({ resources: [svc.resource], validation: false }, '/api');
});

afterEach(async () => {
  await server.close();
});

const JSON_HEADERS = { 'content-type': 'application/json' };
const PSON = 'application/x-pson';

describe('get', () => {
  it('answers 200 with the entity and echoes the protocol version', async () => {
    const r = await server.request('GET', '/photos/1');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
    expect(r.json).toMatchObject({ id: 1, title: 'Sunrise', format: 'JPEG' });
    expect(svc.calls[0]).toEqual({ method: 'get', args: [1, undefined] });
  });

  it('answers 404 Requested entity not found when the handler returns nothing', async () => {
    const r = await server.request('GET', '/photos/99');
    expect(r.status).toBe(404);
    expect(r.headers.get('x-svc-error-response')).toBe('true');
    expect(r.json).toEqual({ status: 404, message: 'Requested entity not found: get' });
  });

  it('takes the first value of an Observable and the value of a Promise', async () => {
    expect((await server.request('GET', '/photos/201')).json.title).toBe('Sunrise');
    expect((await server.request('GET', '/photos/202')).json.title).toBe('Harbour');
  });

  it('treats an Observable that completes empty as no entity', async () => {
    expect((await server.request('GET', '/photos/203')).status).toBe(404);
  });

  it('projects the entity with fields=', async () => {
    const r = await server.request('GET', '/photos/1?fields=title,format');
    expect(r.json).toEqual({ title: 'Sunrise', format: 'JPEG' });
  });

  it('keeps longs beyond 2^53 exact in keys and bodies', async () => {
    svc.store.set('9007199254740993', makePhoto(9007199254740993n, 'Big'));
    const r = await server.request('GET', '/photos/9007199254740993');
    expect(r.status).toBe(200);
    expect(r.text).toContain('"id":9007199254740993');
  });

  it('turns a ServiceError into its status with an ErrorResponse', async () => {
    const r = await server.request('GET', '/photos/418');
    expect(r.status).toBe(418);
    expect(r.json).toEqual({
      status: 418,
      code: 'TEAPOT',
      message: "I'm a teapot",
      errorDetails: {},
      errorDetailType: 'com.linkedin.restli.common.ErrorDetails',
    });
  });

  it('turns any other throw into a 500 that leaks nothing in production mode', async () => {
    const r = await server.request('GET', '/photos/500');
    expect(r.status).toBe(500);
    expect(r.json).toEqual({ status: 500, message: 'INTERNAL SERVER ERROR' });
    expect(r.text).not.toContain('hunter2');
  });
});

describe('development mode', () => {
  it('shows the exception class and the stack trace', async () => {
    const dev = await startServer({ resources: [photoService().resource], mode: 'development' });
    try {
      const r = await dev.request('GET', '/photos/500');
      expect(r.status).toBe(500);
      expect(r.json.message).toBe('Error: secret database password is hunter2');
      expect(r.json.exceptionClass).toBe('Error');
      expect(r.json.stackTrace).toContain('photos.ts');
    } finally {
      await dev.close();
    }
  });
});

describe('batch_get', () => {
  it('answers results, statuses and errors, keyed by the body form of the keys', async () => {
    const r = await server.request('GET', '/photos?ids=List(1,2,13,99)');
    expect(r.status).toBe(200);
    expect(r.json.results).toEqual({
      1: expect.objectContaining({ title: 'Sunrise' }),
      2: expect.objectContaining({ title: 'Harbour' }),
    });
    expect(r.json.statuses).toEqual({ 2: 200 });
    expect(r.json.errors).toEqual({ 13: { status: 403, message: 'unlucky' } });
    expect(svc.calls[0]!.args[0]).toEqual([1, 2, 13, 99]);
  });

  it('projects every entity', async () => {
    const r = await server.request('GET', '/photos?fields=title&ids=List(1,2)');
    expect(r.json.results).toEqual({ 1: { title: 'Sunrise' }, 2: { title: 'Harbour' } });
  });

  it('asks the handler for each id once, in request order', async () => {
    const r = await server.request('GET', '/photos?ids=List(2,1,01,+2,1)');
    expect(r.status).toBe(200);
    expect(svc.calls[0]!.args[0]).toEqual([2, 1]);
    expect(Object.keys(r.json.results)).toEqual(['1', '2']);
  });

  it('keeps ids beyond 2^53 exact, as keys of the results', async () => {
    svc.store.set('9007199254740993', makePhoto(9007199254740993n, 'Big'));
    const r = await server.request('GET', '/photos?ids=List(9007199254740993,1)');
    expect(svc.calls[0]!.args[0]).toEqual([9007199254740993n, 1]);
    expect(r.text).toContain('"9007199254740993":{');
    expect(r.text).toContain('"id":9007199254740993');
  });

  it('answers the same entities to repeated requests, in JSON and PSON alike', async () => {
    const json = await server.request('GET', '/photos?ids=List(1,2)');
    const pson = await server.request('GET', '/photos?ids=List(1,2)', { headers: { accept: PSON } });
    const again = await server.request('GET', '/photos?ids=List(1,2)');
    expect(pson.headers.get('content-type')).toBe(PSON);
    expect(fromPson(pson.bytes)).toEqual(json.json);
    expect(again.text).toBe(json.text);
  });

  it('fails the whole request for a simple id that is not a long', async () => {
    const r = await server.request('GET', '/photos?ids=List(1,x)');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("NumberFormatException parsing batch key 'x'");
  });
});

describe('create', () => {
  it('answers 201 with the id header, Location and (by default) the entity', async () => {
    const body = makePhoto(7, 'New').data().toString();
    const r = await server.request('POST', '/photos', { raw: body, headers: JSON_HEADERS });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-svc-id')).toBe('7');
    expect(r.headers.get('location')).toBe('/api/photos/7');
    expect(r.json).toMatchObject({ id: 7, title: 'New' });
    expect(svc.store.get('7')!.getTitle()).toBe('New');
  });

  it('sends no body with $returnEntity=false', async () => {
    const r = await server.request('POST', '/photos?$returnEntity=false', {
      json: { title: 'Quiet', format: 'PNG' },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-svc-id')).toBe('100');
    expect(r.text).toBe('');
  });

  it('rejects a $returnEntity that is not a boolean', async () => {
    const r = await server.request('POST', '/photos?$returnEntity=maybe', { json: { title: 'x' } });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Invalid "$returnEntity" parameter: maybe');
  });

  it('answers 500 saying a null was returned when create returns nothing', async () => {
    const r = await server.request('POST', '/photos', { json: { title: 'null' } });
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(
      'Unexpected null encountered. Null returned by the resource method: photos create',
    );
  });

  it('needs a body', async () => {
    const r = await server.request('POST', '/photos');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('A request body is required for create');
  });
});

describe('batch_create', () => {
  it('is told apart from create by the method header, in any case', async () => {
    for (const header of ['batch_create', 'BATCH_CREATE']) {
      const r = await server.request('POST', '/photos', {
        json: { elements: [{ title: 'a', format: 'PNG' }, { title: '' }] },
        headers: { 'x-svc-method': header },
      });
      expect(r.status).toBe(200);
      expect(r.json.elements).toHaveLength(2);
      expect(r.json.elements[0]).toMatchObject({ status: 201, entity: { title: 'a' } });
      expect(r.json.elements[0].location).toBe(`/api/photos/${r.json.elements[0].id}`);
      expect(typeof r.json.elements[0].id).toBe('string');
      expect(r.json.elements[1]).toEqual({ status: 400, error: { status: 400, message: 'empty title' } });
    }
  });

  it('needs {"elements":[...]}', async () => {
    const r = await server.request('POST', '/photos', {
      json: { entities: [] },
      headers: { 'x-svc-method': 'batch_create' },
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('The body of batch_create must be {"elements":[...]}');
  });
});

describe('update and delete', () => {
  it('answers 204 with no body by default, or the status the handler chooses', async () => {
    const r = await server.request('PUT', '/photos/1', { json: makePhoto(1, 'Renamed').data().toJSON() });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(svc.store.get('1')!.getTitle()).toBe('Renamed');
    expect((await server.request('PUT', '/photos/2', { json: { title: 'x' } })).status).toBe(200);
  });

  it('deletes with 204, and answers the handler’s 404', async () => {
    expect((await server.request('DELETE', '/photos/3')).status).toBe(204);
    expect(svc.store.has('3')).toBe(false);
    const r = await server.request('DELETE', '/photos/3');
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('no photo 3');
  });
});

describe('partial_update', () => {
  it('applies $set, $delete and nested patches, and returns the entity', async () => {
    const r = await server.request('POST', '/photos/1', {
      json: { patch: { $set: { title: 'Dawn' }, $delete: ['urn'], exif: { $set: { iso: 400 } } } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: 1, title: 'Dawn', exif: { iso: 400 } });
    expect(r.json.urn).toBeUndefined();
    expect(svc.store.get('1')!.getExif()!.getIso()).toBe(400);
  });

  it('answers 204 when the handler returns nothing, or no body with $returnEntity=false', async () => {
    expect(
      (await server.request('POST', '/photos/3', { json: { patch: { $set: { title: 'x' } } } })).status,
    ).toBe(204);
    const r = await server.request('POST', '/photos/1?$returnEntity=false', {
      json: { patch: { $set: { title: 'y' } } },
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });

  it('rejects a malformed patch with 400', async () => {
    const r = await server.request('POST', '/photos/1', {
      json: { patch: { $set: { title: 'x' }, $delete: ['title'] } },
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      'field title can not be used in both $set operation and $delete operation at the same time',
    );
    const noPatch = await server.request('POST', '/photos/1', { json: { $set: { title: 'x' } } });
    expect(noPatch.status).toBe(400);
    expect(noPatch.json.message).toBe('The body of partial_update must be {"patch":{...}}');
  });
});

describe('batch_update, batch_partial_update, batch_delete', () => {
  it('batch_update answers results and errors (no statuses)', async () => {
    const r = await server.request('PUT', '/photos?ids=List(1,99)', {
      json: { entities: { 1: { title: 'One' }, 99: { title: 'Nine' } } },
      headers: { 'x-svc-method': 'BATCH_UPDATE' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      results: { 1: { status: 204 } },
      errors: { 99: { status: 404, message: 'no photo 99' } },
    });
  });

  it('batch_update needs the body keys to match ids', async () => {
    const r = await server.request('PUT', '/photos?ids=List(1,2)', {
      json: { entities: { 1: { title: 'One' } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("Batch request mismatch. URI keys: '[1, 2]' Entity keys: '[1]'");
    const extra = await server.request('PUT', '/photos?ids=List(1)', {
      json: { entities: { 1: {}, 3: {} } },
    });
    expect(extra.json.message).toBe(
      "Batch request mismatch. Entity key '3' not found in the query parameter.",
    );
  });

  it('batch_partial_update returns each patched entity', async () => {
    const r = await server.request('POST', '/photos?ids=List(1,2,77)', {
      json: {
        entities: {
          1: { patch: { $set: { title: 'A' } } },
          2: { patch: { $delete: ['urn'] } },
          77: { patch: {} },
        },
      },
      headers: { 'x-svc-method': 'batch_partial_update' },
    });
    expect(r.status).toBe(200);
    expect(r.json.results['1']).toMatchObject({ status: 200, entity: { title: 'A' } });
    expect(r.json.results['2'].entity.urn).toBeUndefined();
    expect(r.json.errors).toEqual({ 77: { status: 404, message: 'no photo 77' } });
    expect(Object.keys(r.json)).toEqual(['results', 'errors']);
  });

  it('batch_delete answers a status per key', async () => {
    const r = await server.request('DELETE', '/photos?ids=List(1,3,42)');
    expect(r.json).toEqual({
      results: { 1: { status: 204 }, 3: { status: 204 } },
      errors: { 42: { status: 404, message: 'no photo 42' } },
    });
    expect([...svc.store.keys()]).toEqual(['2']);
  });
});

describe('one query text for several methods', () => {
  it('routes each request by its own method, path and method header (a kept query is shared by them)', async () => {
    const sent: Array<[string, string, Record<string, string>?]> = [
      ['GET', '/photos?ids=List(1,3)'],
      ['DELETE', '/photos?ids=List(1,3)'],
      ['GET', '/photos?ids=List(1,3)'],
      ['GET', '/photos/?ids=List(1,3)'],
      ['GET', '/photos?ids=List(1,3)', { 'x-svc-method': 'batch_delete' }],
    ];
    const answers: Array<[number, unknown]> = [];
    for (const [method, path, headers] of sent) {
      const r = await server.request(method, path, headers === undefined ? {} : { headers });
      answers.push([r.status, r.status === 200 ? Object.keys(r.json.results).sort() : r.json.message]);
    }
    expect(answers).toEqual([
      [200, ['1', '3']],
      [200, ['1', '3']],
      [200, []],
      [200, []],
      [400, expect.stringContaining("Method 'GET' is not supported")],
    ]);
    expect(svc.calls.map((c) => c.method)).toEqual(['batchGet', 'batchDelete', 'batchGet', 'batchGet']);
    // each handler gets ids of its own (the decoded ids of a kept query are copied for each request)
    const ids = svc.calls.map((c) => c.args[0]);
    expect(ids).toEqual([
      [1, 3],
      [1, 3],
      [1, 3],
      [1, 3],
    ]);
    expect(new Set(ids).size).toBe(4);
  });
});

describe('get_all and finders', () => {
  it('pages get_all with start and count, reports the total and the links', async () => {
    for (let i = 4; i <= 12; i++) svc.store.set(String(i), makePhoto(i, `p${i}`));
    const r = await server.request('GET', '/photos?start=2&count=3');
    expect(r.status).toBe(200);
    expect(r.json.elements.map((e: { id: number }) => e.id)).toEqual([3, 4, 5]);
    expect(r.json.paging).toEqual({
      start: 2,
      count: 3,
      total: 12,
      links: [
        { rel: 'prev', href: '/api/photos?start=0&count=3', type: 'application/json' },
        { rel: 'next', href: '/api/photos?start=5&count=3', type: 'application/json' },
      ],
    });
  });

  it('defaults to start 0 and count 10', async () => {
    const r = await server.request('GET', '/photos');
    expect(r.json.paging).toEqual({ start: 0, count: 10, total: 3, links: [] });
  });

  it('binds typed finder parameters from the query', async () => {
    const r = await server.request(
      'GET',
      '/photos?q=search&title=ar&format=PNG&minId=2&limit=5&ratio=0.25&exact=true&tags=List(a%2Cb,%27%27,c)&formats=List(JPEG,GIF)&near=(latitude:1.5,longitude:-2)',
    );
    expect(r.status).toBe(200);
    expect(r.json.elements.map((e: { title: string }) => e.title)).toEqual(['Harbour']);
    const [params] = svc.calls.find((c) => c.method === 'search')!.args as [Record<string, unknown>];
    expect(params).toMatchObject({
      title: 'ar',
      format: 'PNG',
      minId: 2,
      limit: 5,
      ratio: 0.25,
      exact: true,
      tags: ['a,b', "''", 'c'],
      formats: ['JPEG', 'GIF'],
    });
    expect((params.near as { data(): { toString(): string } }).data().toString()).toBe(
      '{"latitude":1.5,"longitude":-2}',
    );
  });

  it.each([
    [
      'a query of strings only (kept, parsed once, for the same text again)',
      '/photos?q=search&title=ar&minId=2',
    ],
    [
      'a query of strings and a list of strings (kept too)',
      '/photos?q=search&title=ar&minId=2&tags=List(a,b)',
    ],
    [
      'a query with a record and lists (parsed for each request)',
      '/photos?q=search&title=ar&minId=2&tags=List(a)&near=(latitude:1.5,longitude:-2)',
    ],
  ])('binds %s afresh for each request, alternating with another query', async (_what, path) => {
    const other = '/photos?q=search&title=un&minId=1';
    for (const p of [path, other, path, path]) expect((await server.request('GET', p)).status).toBe(200);
    const bound = svc.calls
      .filter((c) => c.method === 'search')
      .map((c) => c.args[0] as Record<string, unknown>);
    expect(bound.map((p) => [p.title, p.minId])).toEqual([
      ['ar', 2],
      ['un', 1],
      ['ar', 2],
      ['ar', 2],
    ]);
    // each request's parameters are its own objects, and a record parameter is fixed each time
    expect(bound[3]).not.toBe(bound[2]);
    if (path.includes('tags=List(a,b)')) {
      for (const p of [bound[0], bound[2], bound[3]]) expect(p!.tags).toEqual(['a', 'b']);
      expect(bound[3]!.tags).not.toBe(bound[2]!.tags);
    }
    if (path.includes('near=')) {
      for (const p of [bound[0], bound[2], bound[3]])
        expect((p!.near as { data(): { toString(): string } }).data().toString()).toBe(
          '{"latitude":1.5,"longitude":-2}',
        );
      expect(bound[3]!.near).not.toBe(bound[2]!.near);
    }
  });

  it('fills in defaults for absent optional parameters', async () => {
    await server.request('GET', '/photos?q=search');
    const [params] = svc.calls.find((c) => c.method === 'search')!.args as [Record<string, unknown>];
    expect(params).toEqual({
      title: undefined,
      format: undefined,
      minId: 0,
      limit: 100,
      ratio: 1.5,
      exact: false,
      tags: undefined,
      formats: undefined,
      near: undefined,
    });
  });

  it('answers 400 naming a parameter that is missing or does not coerce', async () => {
    const missing = await server.request('GET', '/photos?q=required');
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe("Parameter 'n' is required");
    const bad = await server.request('GET', '/photos?q=search&minId=1.5');
    expect(bad.json.message).toBe("Argument parameter 'minId' value '1.5' must be of type 'long'");
    const badEnum = await server.request('GET', '/photos?q=search&format=TIFF');
    expect(badEnum.json.message).toBe("Argument parameter 'format' value 'TIFF' is invalid");
    const badRecord = await server.request('GET', '/photos?q=search&near=(latitude:north)');
    expect(badRecord.status).toBe(400);
    expect(badRecord.json.message).toContain(
      'Argument parameter \'near\' value \'{"latitude":"north"}\' is invalid. Reason: ERROR :: /latitude ::',
    );
    const badArray = await server.request('GET', '/photos?q=search&formats=List(JPEG,TIFF)');
    expect(badArray.json.message).toBe('Array parameter \'formats\' value \'["JPEG","TIFF"]\' is invalid');
  });

  it('pages a self-paging finder with its own defaults, total and metadata', async () => {
    const r = await server.request('GET', '/photos?q=paged&total=5&start=2');
    expect(r.status).toBe(200);
    expect(r.json.elements.map((e: { id: number }) => e.id)).toEqual([1002, 1003]);
    expect(r.json.paging).toEqual({
      start: 2,
      count: 2,
      total: 5,
      links: [
        { rel: 'prev', href: '/api/photos?q=paged&total=5&start=0&count=2', type: 'application/json' },
        { rel: 'next', href: '/api/photos?q=paged&total=5&start=4&count=2', type: 'application/json' },
      ],
    });
    expect(r.json.metadata).toEqual({ latitude: 1, longitude: 2 });
  });

  it('projects elements, metadata and paging', async () => {
    const r = await server.request(
      'GET',
      '/photos?q=paged&total=5&fields=id&metadataFields=latitude&pagingFields=total',
    );
    expect(r.json).toEqual({
      elements: [{ id: 1000 }, { id: 1001 }],
      paging: { total: 5 },
      metadata: { latitude: 1 },
    });
  });

  it('answers 500 for a finder that returns null', async () => {
    const r = await server.request('GET', '/photos?q=nothing');
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(
      "Unexpected null encountered. Null returned by the resource method: photos finder 'nothing'",
    );
  });

  it('answers 400 for an unknown finder, naming it', async () => {
    const r = await server.request('GET', '/photos?q=unknown');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      "GET operation named unknown not supported on resource 'photos' URI: '/api/photos?q=unknown'",
    );
  });
});

describe('actions', () => {
  it('answers a void action with 200 and no body, with or without a body', async () => {
    const r = await server.request('POST', '/photos?action=ping');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect((await server.request('POST', '/photos?action=ping', { json: {} })).status).toBe(200);
  });

  it('wraps the value in {"value": ...}', async () => {
    expect((await server.request('POST', '/photos?action=count', { json: {} })).json).toEqual({ value: 3 });
    expect((await server.request('POST', '/photos?action=newest')).json.value).toMatchObject({
      id: 2,
      title: 'Harbour',
    });
    expect((await server.request('POST', '/photos?action=ids')).json).toEqual({ value: [1, 2, 3] });
  });

  it('binds typed parameters from the JSON body', async () => {
    const r = await server.request('POST', '/photos?action=echo', {
      raw: '{"text":"ab","times":3,"big":9007199254740993,"where":{"latitude":1,"longitude":2}}',
      headers: JSON_HEADERS,
    });
    expect(r.json).toEqual({ value: 'ababab' });
    expect(svc.calls.at(-1)).toEqual({
      method: 'echo',
      args: ['ab', 3, 9007199254740993n, '{"latitude":1,"longitude":2}'],
    });
  });

  it('answers 400 for a missing or mistyped action parameter', async () => {
    const missing = await server.request('POST', '/photos?action=echo', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe("Parameter 'text' is required");
    const wrong = await server.request('POST', '/photos?action=echo', { json: { text: 5 } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe("Argument parameter 'text' value '5' must be of type 'string'");
  });

  it('answers 500 for a value of the wrong type or a missing one, hiding the detail in production', async () => {
    const wrong = await server.request('POST', '/photos?action=wrong');
    expect(wrong.status).toBe(500);
    expect(wrong.json.message).toBe('INTERNAL SERVER ERROR');
    const nothing = await server.request('POST', '/photos?action=nothing');
    expect(nothing.status).toBe(500);
    expect(nothing.json.message).toBe(
      "Unexpected null encountered. Null returned by the resource method: photos action 'nothing'",
    );
  });

  it('runs entity actions with the key', async () => {
    const r = await server.request('POST', '/photos/2?action=rename', { json: { title: 'Port' } });
    expect(r.status).toBe(200);
    expect(r.json.value).toMatchObject({ id: 2, title: 'Port' });
    expect((await server.request('POST', '/photos/9?action=rename', { json: { title: 'x' } })).status).toBe(
      404,
    );
  });

  it('refuses an action sent with GET', async () => {
    const r = await server.request('GET', '/photos?action=count');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      "All action methods (specified via 'action' in URI) must be submitted as a POST (was GET)",
    );
  });
});
