/**
 * What only the standalone server does (createSvcServer, svcRequestListener): its own prefix handling, body
 * reading and option checks. Everything else it shares with the plugin is tested on both adapters (the
 * node-server jest project runs the resource tests again on it).
 */
import http from 'node:http';
import net from 'node:net';
import {
  LONG_KEY,
  SvcPluginOptionsError,
  collection,
  createSvcServer,
  listenOn,
  svcRequestListener,
} from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { rawRequest } from './support/http';
import { makePhoto } from './support/photos';

const PHOTO = makePhoto(1, 'Sunrise', PhotoFormat.JPEG);
const items = collection({
  name: 'items',
  key: LONG_KEY,
  value: Photo,
  methods: { get: () => PHOTO, create: () => ({ id: 2 }) },
});

let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s === undefined) return;
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
});

async function start(options: Parameters<typeof createSvcServer>[0]): Promise<number> {
  server = createSvcServer(options);
  return (await listenOn(server)).port;
}

describe('the standalone server', () => {
  it.each([
    ['/api/items/1', 200],
    ['/api/items', 400],
    ['/apix/items/1', 404],
    ['/items/1', 404],
    ['/api', 404],
  ])('serves below its prefix only: GET %s is %i', async (path, status) => {
    const port = await start({ resources: [items], prefix: '/api' });
    const r = await rawRequest(port, 'GET', path);
    expect(r.status).toBe(status);
    if (status !== 200) expect(r.headers.get('x-svc-error-response')).toBe('true');
  });

  it('answers HEAD like GET, without a body', async () => {
    const port = await start({ resources: [items] });
    const get = await rawRequest(port, 'GET', '/items/1');
    const head = await rawRequest(port, 'HEAD', '/items/1');
    expect([head.status, head.text, head.headers.get('content-length')]).toEqual([
      200,
      '',
      get.headers.get('content-length'),
    ]);
  });

  it('refuses a body over maxBodyBytes with 413, by its Content-Length or as it streams', async () => {
    const port = await start({ resources: [items], maxBodyBytes: 100 });
    const declared = await rawRequest(port, 'POST', '/items', { json: { title: 'x'.repeat(200) } });
    expect([declared.status, declared.json.code]).toEqual([413, 'SVC_ERR_BIND_BODY_TOO_LARGE']);
    // chunked: no length to read first
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/items',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{"title":"');
      req.write('x'.repeat(200));
      req.end('"}');
    });
    expect(streamed).toBe(413);
    expect((await rawRequest(port, 'GET', '/items/1')).status).toBe(200);
  });

  it('keeps serving after a client hangs up in the middle of a body', async () => {
    const port = await start({ resources: [items] });
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti',
        );
        setImmediate(() => socket.destroy());
      });
      socket.on('close', () => resolve());
    });
    expect((await rawRequest(port, 'GET', '/items/1')).status).toBe(200);
  });

  it('serves as the request listener of a server of ones own', async () => {
    server = http.createServer(svcRequestListener({ resources: [items] }));
    const { port } = await listenOn(server);
    expect((await rawRequest(port, 'GET', '/items/1')).json.title).toBe('Sunrise');
  });

  it.each([
    ['a prefix without its leading slash', { prefix: 'api' }],
    ['a prefix ending with a slash', { prefix: '/api/' }],
    ['an unknown option', { port: 80 }],
  ])('refuses %s', (_name, extra) => {
    expect(() => svcRequestListener({ resources: [items], ...(extra as object) })).toThrow(
      SvcPluginOptionsError,
    );
  });

  it('refuses an unknown or negative timeout', () => {
    expect(() => createSvcServer({ resources: [items] }, { requestTimeout: -1 })).toThrow(
      SvcPluginOptionsError,
    );
    expect(() =>
      createSvcServer({ resources: [items] }, { nope: 1 } as unknown as { requestTimeout: number }),
    ).toThrow(SvcPluginOptionsError);
  });
});
