/**
 * Protocol headers, content negotiation and PSON bodies over real HTTP (wire facts §1, §3.1, §3.3, §3.4).
 */
import { ErrorResponseFormat, LONG_KEY, RESTLI_HEADER_PREFIX, collection } from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { makePhoto, photoService, type PhotoService } from './support/photos';
import { TEST_PROTOCOL, fromPson, startServer, toPson, type TestServer } from './support/http';

let svc: PhotoService;
let server: TestServer;

beforeEach(async () => {
  svc = photoService();
  // wire details, with entities that leave the fixture's required fields out
  server = await startServer({ resources: [svc.resource], validation: false });
});

afterEach(async () => {
  await server.close();
});

const PSON = 'application/x-pson';

describe('protocol version', () => {
  it('assumes 1.0.0 when the request has none, and echoes it', async () => {
    const r = await server.request('GET', '/photos/1', { headers: { 'x-svc-protocol-version': '' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-protocol-version')).toBe('1.0.0');
  });

  it('rejects a version out of range with 400 naming the supported versions, not echoing it', async () => {
    for (const v of ['3.0.0', '99.0.0']) {
      const r = await server.request('GET', '/photos/1', { headers: { 'x-svc-protocol-version': v } });
      expect(r.status).toBe(400);
      expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
      expect(r.headers.get('x-svc-error-response')).toBe('true');
      expect(r.json.message).toBe(
        `Rest.li protocol version ${v} used by the client is not supported! Supported versions: 1.0.0 to 2.0.0.`,
      );
    }
  });

  it('rejects a malformed version with 400, echoing 1.0.0', async () => {
    const r = await server.request('GET', '/photos/1', { headers: { 'x-svc-protocol-version': '2.0' } });
    expect(r.status).toBe(400);
    expect(r.headers.get('x-svc-protocol-version')).toBe('1.0.0');
    expect(r.json.message).toBe('Illegal version 2.0 specified. Supported versions: 1.0.0 to 2.0.0.');
  });

  it('echoes the version on every error response', async () => {
    const r = await server.request('GET', '/nothing-here');
    expect(r.status).toBe(404);
    expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
  });
});

describe('content negotiation', () => {
  it('answers PSON when Accept asks for it', async () => {
    const r = await server.request('GET', '/photos/1', { headers: { accept: PSON } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(PSON);
    expect(Buffer.from(r.bytes.subarray(0, 8)).toString('latin1')).toBe('#!PSON1\n');
    expect(fromPson(r.bytes)).toMatchObject({ id: 1, title: 'Sunrise' });
  });

  it('takes the best of several types by quality, and JSON for */*', async () => {
    const r = await server.request('GET', '/photos/1', {
      headers: { accept: 'application/json;q=0.5, application/x-pson;q=0.9' },
    });
    expect(r.headers.get('content-type')).toBe(PSON);
    expect(
      (await server.request('GET', '/photos/1', { headers: { accept: '*/*' } })).headers.get('content-type'),
    ).toBe('application/json');
    expect(
      (await server.request('GET', '/photos/1', { headers: { accept: 'multipart/related' } })).headers.get(
        'content-type',
      ),
    ).toBe('application/json');
  });

  it('answers 406 (in JSON) when nothing in Accept fits', async () => {
    const r = await server.request('GET', '/photos/1', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(406);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.json.message).toBe(
      "None of the types in the request's 'Accept' header are supported. Supported MIME types are: [application/json, application/x-pson]",
    );
  });

  it('reads a PSON request body and writes a PSON error body', async () => {
    const created = await server.request('POST', '/photos', {
      raw: toPson(makePhoto(9007199254740993n, 'Pson').data()),
      headers: { 'content-type': PSON, accept: PSON },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-svc-id')).toBe('9007199254740993');
    expect(fromPson(created.bytes)).toMatchObject({ title: 'Pson', id: 9007199254740993n });
    const missing = await server.request('GET', '/photos/77', { headers: { accept: PSON } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe(PSON);
    expect(fromPson(missing.bytes)).toEqual({ status: 404, message: 'Requested entity not found: get' });
  });

  it('answers 400 for a malformed PSON body', async () => {
    const r = await server.request('POST', '/photos', {
      raw: '#!PSON1\n\x21\x81',
      headers: { 'content-type': PSON },
    });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('SVC_ERR_DATA_PSON_DECODE');
  });

  it('answers 415 for a body type no codec reads', async () => {
    const r = await server.request('POST', '/photos', {
      raw: '<photo/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(r.status).toBe(415);
    expect(r.json.message).toContain("Unsupported Content-Type 'application/xml'");
  });

  it('reads a body without Content-Type as JSON', async () => {
    const r = await server.request('POST', '/photos?action=count', { raw: '{}' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ value: 3 });
  });
});

describe('method header and HTTP methods', () => {
  it('routes by HTTP method and flags without the header, and checks the header when given', async () => {
    expect(
      (
        await server.request('POST', '/photos/1', {
          json: { patch: {} },
          headers: { 'x-svc-method': 'PARTIAL_UPDATE' },
        })
      ).status,
    ).toBe(200);
    const r = await server.request('POST', '/photos/1', {
      json: { patch: {} },
      headers: { 'x-svc-method': 'create' },
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("Method 'POST' is not supported for URI '/photos/1'");
  });

  it('answers HEAD like GET, without a body', async () => {
    const r = await server.request('HEAD', '/photos/1');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
  });

  it('names the method header in the message of an unsupported operation', async () => {
    const svc2 = photoService();
    const { batchCreate: _omit, ...methods } = svc2.resource.methods;
    void _omit;
    const limited = await startServer({ resources: [{ ...svc2.resource, methods }] });
    try {
      const r = await limited.request('POST', '/photos', {
        json: { elements: [] },
        headers: { 'x-svc-method': 'batch_create' },
      });
      expect(r.status).toBe(400);
      expect(r.json.message).toBe(
        "POST operation not supported for URI: '/photos' with X-Svc-Method: 'batch_create'",
      );
    } finally {
      await limited.close();
    }
  });
});

describe('text bodies', () => {
  // a body of 1 024 chars or more holding a char beyond Latin-1 is written as UTF-8 bytes made once
  // (src/resources/response-facts.ts); shorter ones, and one-byte ones, as text
  it.each([
    ['short, ASCII', 'Dunes'],
    ['short, beyond Latin-1', 'Été à Paris ☀'],
    ['long, Latin-1', `Été ${'à Paris '.repeat(200)}`],
    ['long, beyond Latin-1', `${'à Paris '.repeat(200)}☀ 東京 😀`],
    ['long, a four-byte char first', `😀${'x'.repeat(3000)}`],
    ['longer than the pooled ones, beyond Latin-1', `☀${'y'.repeat(9000)}`],
  ])('answers a %s title with its UTF-8 bytes and their length', async (_, title) => {
    svc.store.set('7', makePhoto(7, title));
    for (const path of ['/photos/7', '/photos?ids=List(7,7)', '/photos?ids=List(7)']) {
      const r = await server.request('GET', path);
      expect(r.status).toBe(200);
      const expected = Buffer.from(r.text, 'utf8');
      expect(Buffer.from(r.bytes).equals(expected)).toBe(true);
      if (r.headers.get('content-length') !== null)
        expect(Number(r.headers.get('content-length'))).toBe(r.bytes.byteLength);
      const photo = path === '/photos/7' ? r.json : r.json.results['7'];
      expect(photo.title).toBe(title);
    }
    const head = await server.request('HEAD', '/photos/7');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});

describe('header prefix', () => {
  it('speaks X-RestLi-* when configured, and reads both prefixes when asked', async () => {
    const restli = await startServer({
      resources: [photoService().resource],
      headerPrefix: RESTLI_HEADER_PREFIX,
      acceptLegacyHeaderPrefix: ['X-Svc'],
      validation: false,
    });
    try {
      const r = await restli.request('POST', '/photos', {
        json: { elements: [{ title: 'x' }] },
        headers: {
          'x-svc-protocol-version': '',
          'x-restli-protocol-version': '2.0.0',
          'x-restli-method': 'batch_create',
        },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-restli-protocol-version')).toBe('2.0.0');
      const viaSvc = await restli.request('POST', '/photos', {
        json: { elements: [] },
        headers: { 'x-svc-method': 'batch_create' },
      });
      expect(viaSvc.status).toBe(200);
      // a request in neither family is answered in the configured one
      const plain = { 'x-svc-protocol-version': '' };
      const created = await restli.request('POST', '/photos', { json: { title: 'y' }, headers: plain });
      // (1.0.0, as it sent no version: the reference's 1.0.0 id header name)
      expect(created.headers.get('x-restli-protocol-version')).toBe('1.0.0');
      expect(created.headers.get('x-linkedin-id')).toBe('101');
      const err = await restli.request('GET', '/photos/404', {
        headers: { 'x-svc-protocol-version': '', 'x-restli-protocol-version': '2.0.0' },
      });
      expect(err.headers.get('x-restli-error-response')).toBe('true');
      // one in the other family is answered in that one
      const svcCreated = await restli.request('POST', '/photos', { json: { title: 'z' } });
      expect([svcCreated.headers.get('x-svc-id'), svcCreated.headers.get('x-restli-id')]).toEqual([
        '102',
        null,
      ]);
    } finally {
      await restli.close();
    }
  });

  it('writes the 1.0.0 id header name to a 1.0.0 Rest.li client', async () => {
    const restli = await startServer({
      resources: [photoService().resource],
      headerPrefix: RESTLI_HEADER_PREFIX,
      validation: false,
    });
    try {
      const r = await restli.request('POST', '/photos', {
        json: { title: 'y' },
        headers: { 'x-svc-protocol-version': '' },
      });
      expect(r.headers.get('x-linkedin-id')).toBe('100');
      expect(r.headers.get('x-restli-protocol-version')).toBe('1.0.0');
    } finally {
      await restli.close();
    }
  });
});

describe('error response format', () => {
  it('shows only the parts the format includes', async () => {
    const minimal = await startServer({
      resources: [photoService().resource],
      errorResponseFormat: ErrorResponseFormat.MINIMAL,
    });
    try {
      const r = await minimal.request('GET', '/photos/404');
      expect(r.status).toBe(404);
      expect(r.json).toEqual({});
      expect(r.headers.get('x-svc-error-response')).toBe('true');
    } finally {
      await minimal.close();
    }
    const messageOnly = await startServer({
      resources: [photoService().resource],
      errorResponseFormat: ErrorResponseFormat.MESSAGE_ONLY,
    });
    try {
      expect((await messageOnly.request('GET', '/photos/404')).json).toEqual({
        message: 'Requested entity not found: get',
      });
    } finally {
      await messageOnly.close();
    }
  });
});

describe('response headers set by handlers', () => {
  it('adds ctx.setResponseHeader headers to the response', async () => {
    const res = collection({
      name: 'h',
      key: LONG_KEY,
      value: Photo,
      methods: {
        get: (id, ctx) => {
          ctx.setResponseHeader('Cache-Control', 'max-age=60');
          return makePhoto(id, 'h');
        },
      },
    });
    const s = await startServer({ resources: [res] });
    try {
      const r = await s.request('GET', '/h/1');
      expect(r.headers.get('cache-control')).toBe('max-age=60');
    } finally {
      await s.close();
    }
  });

  it('keeps each response’s headers its own', async () => {
    const res = collection({
      name: 'h',
      key: LONG_KEY,
      value: Photo,
      methods: {
        get: (id, ctx) => {
          if (id === 1) ctx.setResponseHeader('Cache-Control', 'max-age=60');
          return makePhoto(id, 'h');
        },
      },
    });
    const s = await startServer({ resources: [res] });
    try {
      const answers = [];
      for (const [id, accept] of [
        [2, 'application/json'],
        [1, 'application/json'],
        [2, PSON],
        [2, 'application/json'],
        [3, PSON],
      ] as const) {
        const r = await s.request('GET', `/h/${id}`, { headers: { accept } });
        answers.push([r.headers.get('cache-control'), r.headers.get('content-type')]);
      }
      expect(answers).toEqual([
        [null, 'application/json'],
        ['max-age=60', 'application/json'],
        [null, PSON],
        [null, 'application/json'],
        [null, PSON],
      ]);
    } finally {
      await s.close();
    }
  });
});

describe('headers a fastify hook set', () => {
  it('reads them whatever the case of their names', async () => {
    const s = await startServer({ resources: [svc.resource] }, '', (app) => {
      app.addHook('onRequest', (request, _reply, done) => {
        const extra = request.raw.headers['x-test-extra'];
        // fastify merges headers assigned here into a copy of Node's (lower-case) ones
        if (extra === 'pson') request.headers = { Accept: PSON };
        if (extra === 'batch-create') request.headers = { 'X-Svc-Method': 'BATCH_CREATE' };
        done();
      });
    });
    try {
      const pson = await s.request('GET', '/photos/1', { headers: { 'x-test-extra': 'pson' } });
      expect(pson.headers.get('content-type')).toBe(PSON);
      const batch = await s.request('POST', '/photos', {
        headers: { 'x-test-extra': 'batch-create' },
        json: { elements: [makePhoto(7, 'Seven').data().toString()].map((t) => JSON.parse(t) as unknown) },
      });
      expect(batch.status).toBe(200);
      expect(batch.json.elements).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

describe('Expect', () => {
  it('answers a create sent with Expect: 100-continue as one sent without', async () => {
    const r = await server.request('POST', '/photos', {
      headers: { expect: '100-continue' },
      json: makePhoto(0, 'continued').data().toJSON(),
    });
    expect(r.status).toBe(201);
  });

  it('answers any other expectation 417 with an ErrorResponse (no Connection header over HTTP/2)', async () => {
    const r = await server.request('POST', '/photos', {
      headers: { expect: 'the-moon' },
      json: makePhoto(0, 'expecting').data().toJSON(),
    });
    expect({ status: r.status, code: r.json?.status }).toEqual({ status: 417, code: 417 });
    if (TEST_PROTOCOL === 'h2') expect(r.headers.has('connection')).toBe(false);
  });
});
