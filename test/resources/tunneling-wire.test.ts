/**
 * Query tunneling on the wire (a POST with `X-HTTP-Method-Override` whose body carries the query, form-encoded
 * or as a multipart/mixed envelope), through the test support's transport: HTTP/1.1 here, and HTTP/2 over TLS
 * in the `http2` jest project, where the body has no Content-Length (the stream's end ends it). The exhaustive
 * per-method comparison is test/e2e/tunneling.test.ts (HTTP/1.1, two example apps per case); this file keeps
 * one server and a few requests of each shape so that it stays cheap in both projects.
 */
import { createResourceClient } from '../../src';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { type RequestInit, type TestServer, TEST_PROTOCOL, startServer } from './support/http';
import { photoService } from './support/photos';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ resources: [photoService().resource], validation: false });
});
afterAll(() => server.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-http-method-override': 'GET' };
const mixed = (query: string, json: string, method: string): RequestInit => ({
  headers: { 'content-type': 'multipart/mixed; boundary=b', 'x-http-method-override': method },
  raw:
    `--b\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n${query}\r\n` +
    `--b\r\nContent-Type: application/json\r\n\r\n${json}\r\n--b--`,
});

describe(`tunneled requests over ${TEST_PROTOCOL}`, () => {
  it.each([
    ['a batch_get', '/photos?ids=List(1,2)', '/photos', 'ids=List(1,2)'],
    ['a finder', '/photos?q=search&format=JPEG&minId=2', '/photos', 'q=search&format=JPEG&minId=2'],
    [
      'a query appended to the URI’s own',
      '/photos?ids=List(1,2)&fields=title',
      '/photos?fields=title',
      'ids=List(1,2)',
    ],
  ])('answers %s sent form-encoded exactly as the direct GET', async (_name, direct, target, form) => {
    const plain = await server.request('GET', direct);
    const tunneled = await server.request('POST', target, { headers: FORM, raw: form });
    expect(plain.status).toBe(200);
    expect({ status: tunneled.status, text: tunneled.text }).toEqual({ status: 200, text: plain.text });
  });

  it('answers a multipart/mixed PUT (query and entity) as the direct PUT', async () => {
    const photo = (title: string): string => JSON.stringify({ id: 1, title, format: 'PNG' });
    const direct = await server.request('PUT', '/photos/1?fields=title', {
      headers: { 'content-type': 'application/json' },
      raw: photo('Direct'),
    });
    const tunneled = await server.request(
      'POST',
      '/photos/1',
      mixed('fields=title', photo('Tunneled'), 'PUT'),
    );
    expect(direct.status).toBe(204);
    expect({ status: tunneled.status, text: tunneled.text }).toEqual({ status: 204, text: direct.text });
    expect((await server.request('GET', '/photos/1')).json).toMatchObject({
      title: 'Tunneled',
      format: 'PNG',
    });
  });

  it('refuses a malformed envelope with an ErrorResponse and keeps serving', async () => {
    const r = await server.request('POST', '/photos', {
      headers: { 'content-type': 'multipart/mixed; boundary=b', 'x-http-method-override': 'GET' },
      raw: 'ids=List(1)',
    });
    expect({ status: r.status, code: r.json?.code }).toEqual({
      status: 400,
      code: 'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
    });
    expect((await server.request('POST', '/photos', { headers: FORM, raw: 'ids=List(1)' })).status).toBe(200);
  });

  it('lets the typed client tunnel every query (threshold 1) and get what the direct calls get', async () => {
    const sent: string[] = [];
    const client = (threshold: number | false) =>
      createResourceClient(
        {
          baseUrl: server.base,
          queryTunnelThreshold: threshold,
          fetch: (url, init) => {
            const override = Object.entries(init.headers).find(
              ([n]) => n.toLowerCase() === 'x-http-method-override',
            );
            sent.push(`${init.method} ${override?.[1] ?? '-'}`);
            return server.fetch(url, init);
          },
        },
        { photos: photoService().resource },
      );
    const direct = client(false);
    const tunneled = client(1);
    const calls = async (c: ReturnType<typeof client>): Promise<unknown[]> => [
      (await c.photos.batchGet([1, 2])).results.size,
      (await c.photos.finders.search({ format: PhotoFormat.JPEG, minId: 2 })).elements.map((p) =>
        p.getTitle(),
      ),
      (await c.photos.actions.echo({ text: 'ab', times: 2 })).value,
    ];
    const [a, b] = [await calls(direct), await calls(tunneled)];
    expect(b).toEqual(a);
    // the action's query (`?action=echo`) goes in the body too: a POST overriding POST
    expect(sent).toEqual(['GET -', 'GET -', 'POST -', 'POST GET', 'POST GET', 'POST POST']);
  });
});
