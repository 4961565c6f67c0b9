/**
 * Issue 22, "no single request stalls the server", over real HTTP on loopback: the server-wide batch size
 * limit (default 1 000) for every batch kind, a method's own limit, the server option, the IDL of a method's
 * limit, the refusal of a GET naming both `q` and `bq`, and large batches served in slices: another request
 * is answered in between, and a client that goes away stops the work.
 */
import http from 'node:http';
import {
  BatchFinderResult,
  DEFAULT_MAX_BATCH_SIZE,
  JsonCodec,
  LONG_KEY,
  ResourceDefinitionError,
  STRING,
  ServiceError,
  arrayOf,
  finder,
  type RequestFilter,
  batchFinder,
  collection,
  collectionInterface,
  criteriaOf,
  exportResource,
  implement,
  registerResource,
  withMaxBatchSize,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoCriteria } from '../generated/fixtures/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { type TestServer, type WireResponse, startServer } from './support/http';
import { makePhoto } from './support/photos';

const PHOTO = makePhoto(1, 'Sunrise', PhotoFormat.JPEG);

/** A collection with every batch method answering at once, and a whole-batch batch finder. */
function items(overrides: Partial<Record<string, unknown>> = {}, finderMax?: number) {
  return collection({
    name: 'items',
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: () => PHOTO,
      batchGet: (ids) => new Map(ids.map((id) => [id, PHOTO] as const)),
      batchCreate: (photos) => photos.map((_, i) => ({ id: i + 1 })),
      batchUpdate: (entities) => new Map([...entities.keys()].map((id) => [id, {}] as const)),
      batchPartialUpdate: (patches) => new Map([...patches.keys()].map((id) => [id, {}] as const)),
      batchDelete: (ids) => new Map(ids.map((id) => [id, {}] as const)),
      batchFinders: {
        search: batchFinder(
          {
            batchParam: 'criteria',
            params: { criteria: criteriaOf(PhotoCriteria) },
            ...(finderMax === undefined ? {} : { maxBatchSize: finderMax }),
          },
          (criteria) => {
            const out = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria) out.putResult(c, [PHOTO]);
            return out;
          },
        ),
      },
      // untyped on purpose: some cases hand registration what the types would refuse
      ...(overrides as object),
    },
  });
}

const ids = (n: number): string => `ids=List(${Array.from({ length: n }, (_, i) => i + 1).join(',')})`;
/** A valid photo as JSON (the fixture's required fields). */
const entity = {
  id: 1,
  urn: 'urn:li:photo:1',
  title: 'A title',
  format: 'JPEG',
  time: 1,
  actor: 'urn:li:member:1',
};

/** The request of `n` items of each batch kind; the batch finder tunneled, as the finding. */
const KINDS: ReadonlyArray<readonly [string, (s: TestServer, n: number) => Promise<WireResponse>]> = [
  [
    'search',
    (s, n) =>
      s.request('POST', '/items', {
        headers: {
          'x-http-method-override': 'GET',
          'content-type': 'application/x-www-form-urlencoded',
        },
        raw: `bq=search&criteria=List(${Array.from({ length: n }, () => '(format:JPEG)').join(',')})`,
      }),
  ],
  ['batch_get', (s, n) => s.request('GET', `/items?${ids(n)}`)],
  [
    'batch_create',
    (s, n) =>
      s.request('POST', '/items', {
        headers: { 'x-svc-method': 'batch_create' },
        json: { elements: Array.from({ length: n }, () => entity) },
      }),
  ],
  [
    'batch_update',
    (s, n) =>
      s.request('PUT', `/items?${ids(n)}`, {
        json: { entities: Object.fromEntries(Array.from({ length: n }, (_, i) => [i + 1, entity])) },
      }),
  ],
  [
    'batch_partial_update',
    (s, n) =>
      s.request('POST', `/items?${ids(n)}`, {
        headers: { 'x-svc-method': 'batch_partial_update' },
        json: {
          entities: Object.fromEntries(
            Array.from({ length: n }, (_, i) => [i + 1, { patch: { $set: { title: 'x' } } }]),
          ),
        },
      }),
  ],
  ['batch_delete', (s, n) => s.request('DELETE', `/items?${ids(n)}`)],
];

function tooLarge(n: number, max: number, method: string): string {
  return `The request batch size: ${n} is larger than the allowed max batch size: ${max} for method: ${method}`;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the server-wide batch size limit', () => {
  it('is 1 000 by default', () => {
    expect(DEFAULT_MAX_BATCH_SIZE).toBe(1000);
  });

  for (const [method, send] of KINDS) {
    it(`refuses a ${method} of 1 001 items with the reference's message, and serves one of 1 000`, async () => {
      server = await startServer({ resources: [items()] });
      const over = await send(server, 1001);
      expect(over.status).toBe(400);
      expect(over.json.code).toBe('SVC_ERR_BIND_BATCH_TOO_LARGE');
      expect(over.json.message).toBe(tooLarge(1001, 1000, method));
      const at = await send(server, 1000);
      expect(at.status).toBe(200);
      const answered =
        method === 'search' || method === 'batch_create' ? at.json.elements : Object.keys(at.json.results);
      expect(answered).toHaveLength(1000);
    });
  }

  it('counts before binding: a refused batch never reaches a key, an entity or the validation filter', async () => {
    const seen: string[] = [];
    const watch: RequestFilter = {
      name: 'watch',
      invocation: (inv) => {
        seen.push(inv.method);
        return inv;
      },
    };
    server = await startServer({ resources: [items()], maxBatchSize: 2, filters: [watch] });
    // the third id does not even decode as a long, and the elements are not records: neither is looked at
    const badIds = await server.request('GET', '/items?ids=List(1,2,x)');
    expect(badIds.json.message).toBe(tooLarge(3, 2, 'batch_get'));
    const badElements = await server.request('POST', '/items', {
      headers: { 'x-svc-method': 'batch_create' },
      json: { elements: [1, 2, 3] },
    });
    expect(badElements.json.message).toBe(tooLarge(3, 2, 'batch_create'));
    expect(seen).toEqual([]);
  });

  it('counts a long list without parsing it: a malformed criterion among 5 000 is not even looked at', async () => {
    server = await startServer({ resources: [items()] });
    const form = (n: number): string =>
      `bq=search&criteria=List(${Array.from({ length: n }, (_, i) => (i === n - 2 ? '(format:JPEG:x)' : '(format:JPEG)')).join(',')})`;
    const headers = { 'x-http-method-override': 'GET', 'content-type': 'application/x-www-form-urlencoded' };
    const parsed = await server.request('POST', '/items', { headers, raw: form(500) });
    expect(parsed.json.code).toBe('SVC_ERR_PROTOCOL_QUERY_SYNTAX');
    const counted = await server.request('POST', '/items', { headers, raw: form(5000) });
    expect(counted.json.message).toBe(tooLarge(5000, 1000, 'search'));
  });

  it('parses a long list of another parameter after all (a finder taking 3 000 tags)', async () => {
    const tagged = items({
      finders: {
        byTags: finder({ params: { tags: arrayOf(STRING) } }, ({ tags }) => [
          PHOTO.copy().setTitle(`${tags.length}`),
        ]),
      },
    });
    server = await startServer({ resources: [tagged] });
    const tags = Array.from({ length: 3000 }, (_, i) => `t${i}`).join(',');
    const r = await server.request('POST', '/items', {
      headers: { 'x-http-method-override': 'GET', 'content-type': 'application/x-www-form-urlencoded' },
      raw: `q=byTags&tags=List(${tags})`,
    });
    expect(r.status).toBe(200);
    expect(r.json.elements[0].title).toBe('3000');
  });

  it('takes the maxBatchSize option (and Infinity turns it off)', async () => {
    server = await startServer({ resources: [items()], maxBatchSize: 5 });
    expect((await server.request('DELETE', `/items?${ids(6)}`)).json.message).toBe(
      tooLarge(6, 5, 'batch_delete'),
    );
    expect((await server.request('DELETE', `/items?${ids(5)}`)).status).toBe(200);
    await server.close();
    server = await startServer({ resources: [items()], maxBatchSize: Infinity });
    expect((await server.request('GET', `/items?${ids(1500)}`)).status).toBe(200);
  });

  it('refuses a bad maxBatchSize option', async () => {
    for (const bad of [0, -1, 1.5, '10'])
      await expect(
        startServer({ resources: [items()], maxBatchSize: bad as unknown as number }),
      ).rejects.toThrow(/maxBatchSize/);
  });
});

describe("a method's own limit", () => {
  it('wins over the server-wide one, lower or higher (withMaxBatchSize, a batch finder’s maxBatchSize)', async () => {
    server = await startServer({
      resources: [
        items(
          {
            batchGet: withMaxBatchSize(2, (keys: unknown[]) => new Map(keys.map((id) => [id, PHOTO]))),
            batchDelete: withMaxBatchSize(1500, (keys: unknown[]) => new Map(keys.map((id) => [id, {}]))),
          },
          3,
        ),
      ],
    });
    expect((await server.request('GET', `/items?${ids(3)}`)).json.message).toBe(tooLarge(3, 2, 'batch_get'));
    expect((await server.request('GET', `/items?${ids(2)}`)).status).toBe(200);
    expect((await server.request('DELETE', `/items?${ids(1200)}`)).status).toBe(200);
    const search = KINDS[0]![1];
    expect((await search(server, 4)).json.message).toBe(tooLarge(4, 3, 'search'));
    expect((await search(server, 3)).status).toBe(200);
  });

  it('comes from an interface ({ batchCreate: { maxBatchSize } }) and is written to its IDL', async () => {
    const iface = collectionInterface({
      name: 'items',
      key: LONG_KEY,
      value: Photo,
      methods: { get: {}, batchCreate: { maxBatchSize: 2, doc: 'Adds photos.' }, batchGet: {} },
    });
    const impl = implement(iface, {
      get: () => PHOTO,
      batchCreate: (photos) => photos.map((_, i) => ({ id: i + 1 })),
      batchGet: (keys) => new Map(keys.map((id) => [id, PHOTO] as const)),
    });
    server = await startServer({ resources: [impl] });
    const create = KINDS[2]![1];
    expect((await create(server, 3)).json.message).toBe(tooLarge(3, 2, 'batch_create'));
    expect((await create(server, 2)).status).toBe(200);
    for (const described of [iface, impl, items({ batchGet: withMaxBatchSize(7, () => new Map()) })]) {
      const methods = exportResource(described).schema.collection!.methods!;
      const limits = Object.fromEntries(methods.map((m) => [m.method, m.maxBatchSize]));
      expect(limits).toEqual(
        described === iface || described === impl
          ? { get: undefined, batch_create: { value: 2, validate: true }, batch_get: undefined }
          : expect.objectContaining({ batch_get: { value: 7, validate: true }, batch_delete: undefined }),
      );
    }
  });

  it('is refused on a method that is not a batch method, or when it is not a positive integer', () => {
    expect(() => registerResource(items({ get: withMaxBatchSize(5, () => PHOTO) }))).toThrow(
      ResourceDefinitionError,
    );
    expect(() => registerResource(items({ get: withMaxBatchSize(5, () => PHOTO) }))).toThrow(
      /'maxBatchSize' applies to batch methods only/,
    );
    for (const bad of [0, 2.5, Number.NaN])
      expect(() => registerResource(items({ batchGet: withMaxBatchSize(bad, () => new Map()) }))).toThrow(
        /'maxBatchSize' must be a positive integer/,
      );
  });
});

describe('a GET naming both a finder and a batch finder', () => {
  it('is a 400: the method is ambiguous', async () => {
    server = await startServer({ resources: [items()] });
    const r = await server.request('GET', '/items?q=byTitle&bq=search&criteria=List((format:JPEG))');
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('SVC_ERR_PROTOCOL_AMBIGUOUS_METHOD');
    expect(r.json.message).toBe(
      "Ambiguous method selection: a request names a finder ('q') or a batch finder ('bq'), not both",
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Slicing

/** A request on a kept-alive connection of `agent` (one socket, already open). */
function onAgent(
  port: number,
  agent: http.Agent,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): { response: Promise<number>; request: http.ClientRequest } {
  let request!: http.ClientRequest;
  const response = new Promise<number>((resolve, reject) => {
    request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { 'x-svc-protocol-version': '2.0.0', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
  return { response, request };
}

function portOf(s: TestServer): number {
  return Number(new URL(s.base).port);
}

const CRITERIA_FORM = `bq=search&criteria=List(${Array.from({ length: 1000 }, () => '(format:JPEG)').join(',')})`;
const TUNNEL = { 'x-http-method-override': 'GET', 'content-type': 'application/x-www-form-urlencoded' };

describe('a large batch is served in slices', () => {
  it('answers another request while a batch finder of 1 000 criteria is being worked on', async () => {
    const sent: string[] = [];
    const getAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let port = 0;
    let get: Promise<number> | undefined;
    const resource = items({
      batchFinders: {
        search: batchFinder(
          { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } },
          (criteria) => {
            // the plain get goes out now, while this request still has its response to build and encode
            get = onAgent(port, getAgent, 'GET', '/items/1').response;
            const out = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria) out.putResult(c, [PHOTO]);
            return out;
          },
        ),
      },
    });
    server = await startServer({ resources: [resource] }, '', (app) => {
      app.addHook('onSend', (request, _reply, payload, done) => {
        sent.push(`${request.method} ${request.url.split('?')[0]!}`);
        done(null, payload);
      });
    });
    port = portOf(server);
    try {
      // the get's connection is open before the batch starts
      expect(await onAgent(port, getAgent, 'GET', '/items/1').response).toBe(200);
      sent.length = 0;
      const batch = onAgent(port, new http.Agent(), 'POST', '/items', CRITERIA_FORM, TUNNEL).response;
      expect(await batch).toBe(200);
      expect(await get).toBe(200);
      expect(sent).toEqual(['GET /items/1', 'POST /items']);
    } finally {
      getAgent.destroy();
    }
  });

  it('writes a large response a piece at a time, under the Content-Length of the whole', async () => {
    // one write of a ~100 KB body held the event loop for 3-8 ms on loopback (paced-body.ts): the server
    // writes it in pieces of at most 16 KiB, the bytes and headers unchanged
    server = await startServer({ resources: [items()] });
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const writes: number[] = [];
    const original = http.ServerResponse.prototype.write;
    http.ServerResponse.prototype.write = function (
      this: http.ServerResponse,
      ...args: Parameters<typeof original>
    ): boolean {
      const chunk = args[0] as string | Uint8Array;
      writes.push(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength);
      return original.apply(this, args);
    } as typeof original;
    let r: WireResponse;
    try {
      r = await server.request('GET', `/items?ids=List(${ids.join(',')})`);
    } finally {
      http.ServerResponse.prototype.write = original;
    }
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.results)).toHaveLength(1000);
    expect(r.json.results['1000'].title).toBe('Sunrise');
    expect(r.headers.get('content-length')).toBe(String(r.bytes.byteLength));
    expect(r.headers.get('transfer-encoding')).toBeNull();
    expect(r.bytes.byteLength).toBeGreaterThan(64 * 1024);
    expect(writes.length).toBeGreaterThan(4);
    expect(Math.max(...writes)).toBeLessThanOrEqual(16 * 1024);
    expect(writes.reduce((a, b) => a + b, 0)).toBe(r.bytes.byteLength);
  });

  it('runs the criteria of a large per-criterion batch finder over several turns, in request order', async () => {
    // each criterion takes 20 µs of work (by the clock), so 1 000 take far longer than one slice: the event
    // loop must turn between them (before, criteria answered at once all ran in one piece)
    let turned = false;
    let turnedBeforeLast: boolean | undefined;
    const resource = items({
      batchFinders: {
        search: batchFinder.perCriterion(
          { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) }, concurrency: 4 },
          (c: PhotoCriteria) => {
            const i = Number(c.getTitleContains());
            if (i === 0) setImmediate(() => (turned = true));
            if (i === 999) turnedBeforeLast = turned;
            const until = performance.now() + 0.02;
            while (performance.now() < until);
            // every other criterion answers with a promise, so both kinds are sliced
            const photo = [makePhoto(i + 1, `${i}`)];
            return i % 2 === 0 ? photo : Promise.resolve(photo);
          },
        ),
      },
    });
    server = await startServer({ resources: [resource] });
    const form = `bq=search&criteria=List(${Array.from({ length: 1000 }, (_, i) => `(format:JPEG,titleContains:${i})`).join(',')})`;
    const r = await server.request('POST', '/items', { headers: TUNNEL, raw: form });
    expect(r.status).toBe(200);
    expect(turnedBeforeLast).toBe(true);
    const titles = (r.json.elements as Array<{ elements: Array<{ title: string }> }>).map(
      (e) => e.elements[0]!.title,
    );
    expect(titles).toEqual(Array.from({ length: 1000 }, (_, i) => `${i}`));
  });

  it('builds a large batch finder response in parts that read as one: results, errors and 404s in request order', async () => {
    const resource = items({
      batchFinders: {
        search: batchFinder(
          { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } },
          (criteria) => {
            const out = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria) {
              if (c.getFormat() === PhotoFormat.JPEG) out.putResult(c, [PHOTO]);
              else if (c.getFormat() === PhotoFormat.PNG) out.putError(c, new ServiceError(403, 'no PNG'));
            }
            return out;
          },
        ),
      },
    });
    server = await startServer({ resources: [resource] });
    const formats = ['JPEG', 'PNG', 'GIF'];
    const form = `bq=search&criteria=List(${Array.from({ length: 900 }, (_, i) => `(format:${formats[i % 3]!})`).join(',')})`;
    const r = await server.request('POST', '/items', { headers: TUNNEL, raw: form });
    expect(r.status).toBe(200);
    const entries = r.json.elements as Array<{
      isError?: boolean;
      error?: { status: number };
      elements: unknown[];
    }>;
    expect(entries).toHaveLength(900);
    // encoded a part at a time, the text is still the codec's one encode of the same data, byte for byte
    const codec = new JsonCodec();
    expect(r.text).toBe(codec.mapToString(codec.stringToMap(r.text)));
    entries.forEach((e, i) => {
      if (i % 3 === 0) expect([e.isError, e.elements.length]).toEqual([undefined, 1]);
      else expect([e.isError, e.error?.status]).toEqual([true, i % 3 === 1 ? 403 : 404]);
    });
  });

  it('writes a large batch finder body as text byte for byte as the same body built as data', async () => {
    // a response filter (here one that changes nothing) needs the response as data, so the second server
    // builds every entry as data and encodes it; the first writes most entries from a template
    // (batch-finder-text.ts): plain pages, and beside them errors, 404s, paging links and metadata
    const many = Array.from({ length: 12 }, (_, i) => makePhoto(i + 1, `p${i}`));
    const resource = items({
      batchFinders: {
        search: batchFinder(
          { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } },
          (criteria) => {
            const out = new BatchFinderResult<PhotoCriteria, Photo>();
            for (const c of criteria) {
              const kind = Number(c.getTitleContains()) % 5;
              if (kind === 0) out.putResult(c, [PHOTO]);
              else if (kind === 1) out.putError(c, new ServiceError(403, 'no'));
              else if (kind === 3) out.putResult(c, many);
              else if (kind === 4) out.putResult(c, { elements: [PHOTO], metadata: PHOTO });
            }
            return out;
          },
        ),
      },
    });
    const same: RequestFilter = { name: 'same', response: (res) => res };
    server = await startServer({ resources: [resource] });
    const asData = await startServer({ resources: [resource], filters: [same] });
    try {
      const criteria = `criteria=List(${Array.from({ length: 150 }, (_, i) => `(format:JPEG,titleContains:${i})`).join(',')})`;
      for (const extra of ['', '&pagingFields=start,links', '&start=1&count=2']) {
        const form = `bq=search&${criteria}${extra}`;
        const text = await server.request('POST', '/items', { headers: TUNNEL, raw: form });
        const data = await asData.request('POST', '/items', { headers: TUNNEL, raw: form });
        expect([text.status, data.status]).toEqual([200, 200]);
        expect(text.text).toBe(data.text);
      }
    } finally {
      await asData.close();
    }
  });

  // bodies and queries of 16 KB or more are decoded and bound in slices (slices.ts): an item that fails
  // anywhere in them is found and named as in a small batch
  const BAD = 700;
  const bad = { ...entity, title: 5 };
  const LARGE: ReadonlyArray<readonly [string, () => Promise<WireResponse>, number, string]> = [
    [
      'batch_create',
      () =>
        server!.request('POST', '/items', {
          headers: { 'x-svc-method': 'batch_create' },
          json: { elements: Array.from({ length: 1000 }, (_, i) => (i === BAD ? bad : entity)) },
        }),
      422,
      `Index: ${BAD}, ERROR :: /title :: 5 cannot be coerced to String`,
    ],
    [
      'batch_update',
      () =>
        server!.request('PUT', `/items?${ids(1000)}`, {
          json: {
            entities: Object.fromEntries(
              Array.from({ length: 1000 }, (_, i) => [i + 1, i === BAD ? bad : entity]),
            ),
          },
        }),
      422,
      `Key: ${BAD + 1}, ERROR :: /title :: 5 cannot be coerced to String`,
    ],
    [
      'batch_partial_update',
      () =>
        server!.request('POST', `/items?${ids(1000)}`, {
          headers: { 'x-svc-method': 'batch_partial_update' },
          json: {
            entities: Object.fromEntries(
              Array.from({ length: 1000 }, (_, i) => [
                i + 1,
                { patch: { $set: { title: i === BAD ? 5 : 'x' } } },
              ]),
            ),
          },
        }),
      422,
      `Key: ${BAD + 1}, ERROR :: /title :: 5 cannot be coerced to String`,
    ],
    [
      'batch_update whose last entity has a key not in ids',
      () =>
        server!.request('PUT', `/items?${ids(1000)}`, {
          json: {
            entities: Object.fromEntries(
              Array.from({ length: 1000 }, (_, i) => [i === 999 ? 5000 : i + 1, entity]),
            ),
          },
        }),
      400,
      "Batch request mismatch. Entity key '5000' not found in the query parameter.",
    ],
    [
      'tunneled batch finder (a 20 KB form)',
      () =>
        server!.request('POST', '/items', {
          headers: TUNNEL,
          raw: `bq=search&criteria=List(${Array.from({ length: 1000 }, (_, i) => (i === BAD ? '(format:NOPE)' : '(format:JPEG,title:T)')).join(',')})`,
        }),
      400,
      `Batch parameter 'criteria' criterion ${BAD} is invalid: ERROR :: /format :: `,
    ],
  ];
  for (const [kind, send, status, message] of LARGE) {
    it(`names a bad item of a large ${kind} as in a small one (${status})`, async () => {
      server = await startServer({ resources: [items()] });
      const r = await send();
      expect([r.status, r.json.message]).toEqual([status, expect.stringContaining(message)]);
    });
  }

  it('stops working on a batch whose client went away', async () => {
    const client: { abort?: () => void } = {};
    let settled: (error: unknown) => void = () => {};
    const outcome = new Promise<unknown>((resolve) => (settled = resolve));
    const watch: RequestFilter = {
      name: 'watch',
      // the client hangs up while the criteria are being validated
      invocation: (inv) => {
        client.abort?.();
        return inv;
      },
      response: (response) => {
        settled(response.error);
        return response;
      },
    };
    const resource = collection({
      ...items(),
      filters: [watch],
      methods: {
        batchFinders: {
          search: batchFinder(
            { batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } },
            () => new BatchFinderResult<PhotoCriteria, Photo>(),
          ),
        },
      },
    });
    server = await startServer({ resources: [resource] });
    const { request, response } = onAgent(
      portOf(server),
      new http.Agent(),
      'POST',
      '/items',
      CRITERIA_FORM,
      TUNNEL,
    );
    client.abort = () => request.destroy();
    await expect(response).rejects.toThrow();
    // the response filters see the error the sliced work stopped with, not a response built for nobody
    const error = (await outcome) as Error;
    expect(error.name).toBe('ClientClosedError');
  });
});
