/**
 * Query tunneling end to end over loopback: the client's encode step against the server's decode filter
 * (every photos method, forced and by threshold, JSON and PSON, compared with the same call sent
 * directly), raw tunneled requests written by hand from the wire facts (§5) and by Python's `email`
 * package, a batch_get too long for Node's header limit, and every malformed envelope.
 */
import { execFileSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import {
  type ClientFilter,
  type HttpRequest,
  type RawResponse,
  ServiceResponseError,
  createResourceClient,
  diffPatch,
} from '../../src';
import { createExampleApp } from '../../examples/app';
import { exampleResources } from '../../examples/resources';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { type Answer, send } from './support/wire';

const [photos, albums, albumEntries] = exampleResources(new PhotoLibrary());

interface Server {
  readonly app: FastifyInstance;
  readonly port: number;
  readonly baseUrl: string;
}

async function start(options: { maxBatchSize?: number } = {}): Promise<Server> {
  const app = await createExampleApp({
    library: seededLibrary(),
    svc: { acceptLegacyHeaderPrefix: true, ...options },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { app, port, baseUrl: `http://127.0.0.1:${port}` };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.app.close()));
});
async function server(options: { maxBatchSize?: number } = {}): Promise<Server> {
  const s = await start(options);
  servers.push(s);
  return s;
}

interface Exchange {
  readonly request: HttpRequest;
  readonly response: RawResponse;
}

/** A typed client that records what it sent and what came back. */
function recordingClient(
  baseUrl: string,
  options: { contentType?: string; accept?: readonly string[]; queryTunnelThreshold?: number | false },
) {
  const log: Exchange[] = [];
  const record: ClientFilter = async (request, next) => {
    const response = await next(request);
    log.push({ request, response });
    return response;
  };
  const api = createResourceClient(
    { baseUrl, ...options, filters: [record] },
    { photos, albums, albumEntries },
  );
  return { api, log };
}

type Api = ReturnType<typeof recordingClient>['api'];
type CallOpts = { forceQueryTunnel?: boolean };

/** One call per photos (and albums) method with a query; run against a fresh seeded library each. */
const CALLS: ReadonlyArray<readonly [string, (api: Api, o: CallOpts) => Promise<unknown>]> = [
  ['get', (api, o) => api.photos.get(1, { ...o, fields: 'title' })],
  ['batch_get', (api, o) => api.photos.batchGet([1, 2, 3, 99], o)],
  ['get_all', (api, o) => api.photos.getAll({ count: 2, ...o })],
  ['finder', (api, o) => api.photos.finders.titleAndOrFormat({ format: PhotoFormat.JPEG }, o)],
  ['action', (api, o) => api.photos.actions.purge({ takenBefore: 1_700_000_000_001 }, o)],
  [
    'batch_create',
    (api, o) =>
      api.photos.batchCreate([new Photo().setTitle('A').setFormat(PhotoFormat.PNG)], { ...o, fields: 'id' }),
  ],
  [
    'update',
    async (api, o) => {
      const current = (await api.photos.get(3)).entity;
      return api.photos.update(3, current.copy().setTitle('Dunes'), { ...o, query: { note: 'x' } });
    },
  ],
  [
    'partial_update',
    async (api, o) => {
      const before = (await api.photos.get(3)).entity;
      return api.photos.partialUpdate(3, diffPatch(before, before.copy().setTitle('Moon')), {
        ...o,
        fields: 'title',
      });
    },
  ],
  ['delete', (api, o) => api.photos.delete(3, { ...o, query: { note: 'x' } })],
  ['batch_delete', (api, o) => api.photos.batchDelete([5, 6, 70], o)],
  ['album batch_get', (api, o) => api.albums.batchGet([1, 2], o)],
];

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof ServiceResponseError) return `error ${err.status}`;
    throw err;
  }
}

const isTunneled = (r: HttpRequest): boolean => r.method === 'POST' && 'X-HTTP-Method-Override' in r.headers;

describe.each([
  ['JSON', {}],
  ['PSON', { contentType: 'application/x-pson', accept: ['application/x-pson'] }],
])('client tunneling over %s', (_codec, codec) => {
  describe.each([
    ['forced', { forceQueryTunnel: true }, {}],
    ['by threshold', {}, { queryTunnelThreshold: 1 }],
  ])('%s', (_how, callOptions, clientOptions) => {
    it.each(CALLS)('answers %s exactly as the direct request', async (_name, call) => {
      const [a, b] = await Promise.all([server(), server()]);
      const direct = recordingClient(a.baseUrl, { ...codec, queryTunnelThreshold: false });
      const tunneled = recordingClient(b.baseUrl, { ...codec, ...clientOptions });
      const directOutcome = await outcome(call(direct.api, {}));
      const tunneledOutcome = await outcome(call(tunneled.api, callOptions));
      expect(tunneledOutcome).toBe(directOutcome);
      expect(tunneled.log.length).toBe(direct.log.length);
      const last = tunneled.log[tunneled.log.length - 1]!;
      expect(isTunneled(last.request)).toBe(true);
      expect(isTunneled(direct.log[direct.log.length - 1]!.request)).toBe(false);
      for (const [i, d] of direct.log.entries()) {
        const t = tunneled.log[i]!;
        expect(t.response.status).toBe(d.response.status);
        expect(Buffer.from(t.response.body).toString('latin1')).toBe(
          Buffer.from(d.response.body).toString('latin1'),
        );
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Raw requests

function http(
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Buffer {
  const bytes =
    body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  let head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
  for (const [n, v] of Object.entries(headers)) head += `${n}: ${v}\r\n`;
  head += `Content-Length: ${bytes.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

async function answer(port: number, request: Buffer): Promise<Answer> {
  const x = await send(port, request);
  if (x.kind !== 'answered') throw new Error(`no answer: ${x.kind}`);
  return x.answer;
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('raw tunneled requests', () => {
  it.each([
    ['X-Svc', 'X-Svc-Protocol-Version'],
    ['X-RestLi', 'X-RestLi-Protocol-Version'],
  ])('decodes a form-encoded batch_get with the %s prefix', async (_p, versionHeader) => {
    const s = await server();
    const direct = await answer(s.port, http('GET', '/photos?ids=List(1,2)', { [versionHeader]: '2.0.0' }));
    const tunneled = await answer(
      s.port,
      http(
        'POST',
        '/photos',
        { [versionHeader]: '2.0.0', 'X-HTTP-Method-Override': 'GET', ...FORM },
        'ids=List(1,2)',
      ),
    );
    expect(direct.status).toBe(200);
    expect(tunneled.status).toBe(200);
    expect(tunneled.text).toBe(direct.text);
  });

  it('appends the tunneled query to the query the URI already has', async () => {
    const s = await server();
    const direct = await answer(s.port, http('GET', '/photos?ids=List(1,2)&fields=title', {}));
    const tunneled = await answer(
      s.port,
      http('POST', '/photos?fields=title', { 'X-HTTP-Method-Override': 'GET', ...FORM }, 'ids=List(1,2)'),
    );
    expect(tunneled.text).toBe(direct.text);
    expect(JSON.parse(tunneled.text).results['1']).toEqual({ title: expect.any(String) });
  });

  it('decodes a multipart/mixed body written by Python’s email package', async () => {
    const script = String.raw`
import sys, email.policy
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
m = MIMEMultipart('mixed')
q = MIMENonMultipart('application', 'x-www-form-urlencoded'); q.set_payload('action=addTag')
b = MIMENonMultipart('application', 'json'); b.set_payload('{"tag":"tunneled"}')
m.attach(q); m.attach(b)
sys.stdout.buffer.write(m.as_bytes(policy=email.policy.HTTP))
`;
    const out = execFileSync('python3', ['-c', script]);
    const split = out.indexOf('\r\n\r\n');
    const headerBlock = out.subarray(0, split).toString('latin1');
    const contentType = /^Content-Type: (.*)$/im.exec(headerBlock)![1]!.trim();
    expect(contentType).toMatch(/^multipart\/mixed; boundary="/);
    const s = await server();
    const direct = await answer(
      s.port,
      http('POST', '/photos/1?action=addTag', { 'Content-Type': 'application/json' }, '{"tag":"direct"}'),
    );
    const tunneled = await answer(
      s.port,
      http(
        'POST',
        '/photos/1',
        { 'X-HTTP-Method-Override': 'POST', 'Content-Type': contentType },
        out.subarray(split + 4),
      ),
    );
    expect(direct.status).toBe(200);
    expect(tunneled.status).toBe(200);
    expect(JSON.parse(tunneled.text).value).toBe(JSON.parse(direct.text).value + 1);
  });

  it.each([
    ['quoted, with a preamble CRLF and no CRLF after the closing delimiter', '"b1"', '\r\n', ''],
    ['unquoted, without a preamble, with an extra CRLF after the closing delimiter', 'b1', '', '\r\n\r\n'],
  ])('decodes a hand-written multipart/mixed batch_delete: boundary %s', async (_d, param, pre, post) => {
    const s = await server();
    const body =
      `${pre}--b1\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nids=List(5,6)\r\n` +
      `--b1\r\nContent-Type:\r\n application/json\r\n\r\n{}\r\n--b1--${post}`;
    const r = await answer(
      s.port,
      http(
        'POST',
        '/photos',
        { 'X-HTTP-Method-Override': 'DELETE', 'Content-Type': `multipart/mixed; boundary=${param}` },
        body,
      ),
    );
    expect(r.status).toBe(200);
    expect(Object.keys(JSON.parse(r.text).results).sort()).toEqual(['5', '6']);
  });

  it('judges an override that disagrees with the method header as the direct request would be judged', async () => {
    const s = await server();
    const direct = await answer(
      s.port,
      http('GET', '/photos?ids=List(1)', { 'X-RestLi-Method': 'batch_delete' }),
    );
    const tunneled = await answer(
      s.port,
      http(
        'POST',
        '/photos',
        { 'X-HTTP-Method-Override': 'GET', 'X-RestLi-Method': 'batch_delete', ...FORM },
        'ids=List(1)',
      ),
    );
    expect(tunneled.status).toBe(direct.status);
    expect(tunneled.text).toBe(direct.text);
    // nothing was deleted
    expect((await answer(s.port, http('GET', '/photos/1', {}))).status).toBe(200);
  });
});

describe('a batch_get of 5,000 ids', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => i + 1);

  it('gets 431 from Node sent directly, and succeeds through the typed client, tunneled', async () => {
    // the default batch size limit (1 000) would refuse it before its length matters
    const s = await server({ maxBatchSize: 5000 });
    const direct = recordingClient(s.baseUrl, { queryTunnelThreshold: false });
    const err = await direct.api.photos.batchGet(ids).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceResponseError);
    expect((err as ServiceResponseError).status).toBe(431);
    const typed = recordingClient(s.baseUrl, {});
    const r = await typed.api.photos.batchGet(ids);
    expect(isTunneled(typed.log[0]!.request)).toBe(true);
    expect(r.results.size).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Malformed envelopes

const MIXED = (boundary: string) => ({
  'X-HTTP-Method-Override': 'GET',
  'Content-Type': `multipart/mixed; boundary=${boundary}`,
});
const part = (type: string | undefined, body: string) =>
  `--b\r\n${type === undefined ? 'X-Other: 1' : `Content-Type: ${type}`}\r\n\r\n${body}\r\n`;

const MALFORMED: ReadonlyArray<readonly [string, Buffer, number, string]> = [
  [
    'rejects the override BREW',
    http('POST', '/photos', { 'X-HTTP-Method-Override': 'BREW', ...FORM }, 'ids=List(1)'),
    400,
    'SVC_ERR_TUNNEL_BAD_OVERRIDE',
  ],
  [
    'rejects the lower-case override get',
    http('POST', '/photos', { 'X-HTTP-Method-Override': 'get', ...FORM }, 'ids=List(1)'),
    400,
    'SVC_ERR_TUNNEL_BAD_OVERRIDE',
  ],
  [
    'rejects an override on a GET',
    http('GET', '/photos?ids=List(1)', { 'X-HTTP-Method-Override': 'DELETE' }),
    400,
    'SVC_ERR_TUNNEL_BAD_OVERRIDE',
  ],
  [
    'rejects a body of another type',
    http('POST', '/photos', { 'X-HTTP-Method-Override': 'GET', 'Content-Type': 'text/plain' }, 'ids=List(1)'),
    415,
    'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE',
  ],
  [
    'rejects a multipart/mixed body without a boundary',
    http(
      'POST',
      '/photos',
      { 'X-HTTP-Method-Override': 'GET', 'Content-Type': 'multipart/mixed' },
      part(FORM['Content-Type'], 'ids=List(1)') + '--b--',
    ),
    400,
    'SVC_ERR_TUNNEL_MALFORMED',
  ],
  [
    'rejects an envelope without a closing delimiter',
    http('POST', '/photos', MIXED('b'), part(FORM['Content-Type'], 'ids=List(1)')),
    400,
    'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
  ],
  [
    'rejects an envelope with no delimiter at all',
    http('POST', '/photos', MIXED('b'), 'ids=List(1)'),
    400,
    'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
  ],
  [
    'rejects an envelope without a query part',
    http('POST', '/photos', MIXED('b'), part('application/json', '{}') + '--b--'),
    400,
    'SVC_ERR_TUNNEL_MALFORMED',
  ],
  [
    'rejects a part without a Content-Type',
    http(
      'POST',
      '/photos',
      MIXED('b'),
      part(FORM['Content-Type'], 'ids=List(1)') + part(undefined, '{}') + '--b--',
    ),
    415,
    'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE',
  ],
  [
    'rejects more than two parts',
    http(
      'POST',
      '/photos',
      MIXED('b'),
      part(FORM['Content-Type'], 'ids=List(1)') +
        part('application/json', '{}') +
        part('application/json', '{}') +
        '--b--',
    ),
    400,
    'SVC_ERR_TUNNEL_MALFORMED',
  ],
  [
    'rejects a tunneled query that does not parse',
    http('POST', '/photos', { 'X-HTTP-Method-Override': 'GET', ...FORM }, 'ids=List(x'),
    400,
    '',
  ],
];

describe('malformed tunneled requests', () => {
  it.each(MALFORMED)('%s', async (_name, request, status, code) => {
    const s = await server();
    const r = await answer(s.port, request);
    expect(r.status).toBe(status);
    const body = JSON.parse(r.text) as { status: number; code?: string };
    expect(body.status).toBe(status);
    if (code !== '') expect(body.code).toBe(code);
    // the server keeps serving
    const after = await answer(
      s.port,
      http('POST', '/photos', { 'X-HTTP-Method-Override': 'GET', ...FORM }, 'ids=List(1)'),
    );
    expect(after.status).toBe(200);
  });
});
