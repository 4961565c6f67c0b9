/**
 * Malformed input over real HTTP: each is the right 4xx with an ErrorResponse (never a 5xx), and the server
 * answers normally afterwards (docs/architecture.md, "Errors": bad input is a 4xx, never a 500).
 */
import net from 'node:net';
import fc from 'fast-check';
import { photoService } from './support/photos';
import { itHttp1, startServer, type TestServer, type WireResponse } from './support/http';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ resources: [photoService().resource], maxBodyBytes: 4096 }, '/api');
});

afterAll(async () => {
  await server.close();
});

async function expectHealthy(): Promise<void> {
  const r = await server.request('GET', '/photos/1');
  expect(r.status).toBe(200);
  expect(r.json.title).toBe('Sunrise');
}

function expectError(r: WireResponse, status: number, message?: string | RegExp): void {
  expect({ status: r.status, errorHeader: r.headers.get('x-svc-error-response') }).toEqual({
    status,
    errorHeader: 'true',
  });
  expect(r.headers.get('x-svc-protocol-version')).not.toBeNull();
  expect(r.json.status).toBe(status);
  if (typeof message === 'string') expect(r.json.message).toBe(message);
  else if (message !== undefined) expect(r.json.message).toMatch(message);
}

const CASES: ReadonlyArray<
  [
    string,
    string,
    string,
    number,
    (string | RegExp)?,
    { raw?: string | Uint8Array; headers?: Record<string, string> }?,
  ]
> = [
  ['unknown resource', 'GET', '/nothing/1', 404, "No root resource defined for path '/nothing'"],
  [
    'unknown subresource',
    'GET',
    '/photos/1/comments',
    404,
    "No resource defined for path '/photos/1/comments'",
  ],
  ['empty path segment', 'GET', '/photos//1', 404],
  ['bad key type', 'GET', '/photos/abc', 400, "Key value 'abc' must be of type 'long'"],
  ['bad percent escape in a key', 'GET', '/photos/%zz', 400],
  [
    'unbalanced ids list',
    'GET',
    '/photos?ids=List(1,2',
    400,
    'Invalid query parameters syntax: /api/photos?ids=List(1,2',
  ],
  [
    'trailing comma in ids',
    'GET',
    '/photos?ids=List(1,)',
    400,
    'Invalid query parameters syntax: /api/photos?ids=List(1,)',
  ],
  ['excess tokens in a parameter', 'GET', '/photos?q=search&title=a)b', 400],
  ['bad percent escape in a query value', 'GET', '/photos?q=search&title=%4', 400],
  [
    'repeated query parameter',
    'GET',
    '/photos?q=search&q=search',
    400,
    'Invalid query parameters syntax: /api/photos?q=search&q=search',
  ],
  ['finder name that is a list', 'GET', '/photos?q=List(a)', 400, /GET operation named .* not supported/],
  ['negative count', 'GET', '/photos?count=-1', 400, 'start/count parameters must be non-negative'],
  ['non-integer start', 'GET', '/photos?start=x', 400, 'Invalid (non-integer) start/count parameters'],
  ['bad projection mask', 'GET', '/photos/1?fields=a:(b', 400, /^Malformed mask syntax/],
  [
    'action via GET',
    'GET',
    '/photos?action=count',
    400,
    "All action methods (specified via 'action' in URI) must be submitted as a POST (was GET)",
  ],
  [
    'unknown action',
    'POST',
    '/photos?action=nope',
    400,
    "POST operation named nope not supported on resource 'photos' URI: '/api/photos?action=nope'",
  ],
  [
    'unsupported HTTP method',
    'PATCH',
    '/photos/1',
    400,
    "Method 'PATCH' is not supported for URI '/api/photos/1'",
  ],
  ['POST with a finder', 'POST', '/photos?q=search', 400],
  ['PUT on the collection', 'PUT', '/photos', 400],
  [
    'unknown method header',
    'GET',
    '/photos/1',
    400,
    undefined,
    { headers: { 'x-svc-method': 'frobnicate' } },
  ],
  [
    'bad JSON',
    'POST',
    '/photos',
    400,
    /^Expected/,
    { raw: '{"title": "x",', headers: { 'content-type': 'application/json' } },
  ],
  [
    'JSON that is not an object',
    'POST',
    '/photos',
    400,
    undefined,
    { raw: '[1,2]', headers: { 'content-type': 'application/json' } },
  ],
  [
    'JSON with a trailing garbage',
    'POST',
    '/photos',
    400,
    undefined,
    { raw: '{} x', headers: { 'content-type': 'application/json' } },
  ],
  [
    'invalid UTF-8 in JSON',
    'POST',
    '/photos',
    400,
    undefined,
    {
      raw: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      headers: { 'content-type': 'application/json' },
    },
  ],
  ['a patch that is not a map', 'POST', '/photos/1', 400, /patch/, { raw: '{"patch":[1]}' }],
  [
    'a patch with an unknown operation',
    'POST',
    '/photos/1',
    400,
    /unsupported patch operation '\$reorder'/,
    { raw: '{"patch":{"$reorder":[]}}' },
  ],
  [
    'batch update without entities',
    'PUT',
    '/photos?ids=List(1)',
    400,
    'The body of batch_update must be {"entities":{...}}',
    { raw: '{}' },
  ],
  [
    'batch update entity that is not a map',
    'PUT',
    '/photos?ids=List(1)',
    400,
    undefined,
    { raw: '{"entities":{"1":5}}' },
  ],
  [
    'action parameter of the wrong type',
    'POST',
    '/photos?action=echo',
    400,
    /must be of type 'string'/,
    { raw: '{"text":[]}' },
  ],
  [
    'unsupported body type',
    'POST',
    '/photos',
    415,
    undefined,
    { raw: 'x', headers: { 'content-type': 'text/plain' } },
  ],
  ['malformed Accept', 'GET', '/photos/1', 400, /invalid MIME type/, { headers: { accept: 'json' } }],
  ['unacceptable Accept', 'GET', '/photos/1', 406, undefined, { headers: { accept: 'image/png' } }],
  [
    'too large a body',
    'POST',
    '/photos',
    413,
    'Request body is too large',
    { raw: `{"title":"${'x'.repeat(5000)}"}` },
  ],
];

describe('malformed requests', () => {
  // a rest parameter: jest passes a `done` callback to functions that declare more parameters than a row has
  it.each(CASES)('%s → %s %s is a %d with an ErrorResponse', async (...row) => {
    const [, method, path, status, message, init] = row;
    const r = await server.request(method, path, init);
    expectError(r, status, message);
    await expectHealthy();
  });

  itHttp1('answers a request with a Content-Length it does not send with a 4xx, and stays up', async () => {
    const port = Number(new URL(server.base).port);
    const reply = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end(
          'POST /api/photos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a"',
        );
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
    });
    expect(reply === '' || /^HTTP\/1\.1 4\d\d/.test(reply)).toBe(true);
    await expectHealthy();
  });

  it('never answers random request targets with a 5xx', async () => {
    const own = await startServer({ resources: [photoService().resource] }, '/api');
    const segment = fc.string({ unit: fc.constantFrom(..."()%,:'/List&=?+ aé1$.".split('')), maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        segment,
        segment,
        async (method, path, query) => {
          const target = `/photos/${encodeURI(path).replace(/#/g, '%23')}?${encodeURI(query).replace(/#/g, '%23')}`;
          const r = await own.request(
            method,
            target,
            method === 'GET' || method === 'DELETE' ? {} : { raw: '{}' },
          );
          expect(r.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    expect((await own.request('GET', '/photos?q=search')).status).toBe(200);
    await own.close();
  });
});
