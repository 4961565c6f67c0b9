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
  requestIds,
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

  it.each([
    ['made by the default generator', undefined, undefined, /^[0-9a-f-]{36}$/],
    ['sent by the client', undefined, 'abc-1', /^abc-1$/],
    ['made by a generator of Latin-1 ids', () => 'café-1', undefined, /^café-1$/],
  ])(
    'echoes a request id %s as its bytes, beside a UTF-8 body, in its one write',
    async (_what, generate, sent, echoed) => {
      const accented = collection({
        name: 'accented',
        key: LONG_KEY,
        value: Photo,
        methods: { get: () => makePhoto(1, 'Crème brûlée', PhotoFormat.JPEG) },
      });
      const port = await start({ resources: [accented], observers: [requestIds({ generate })] });
      const r = await new Promise<{ id: unknown; body: Buffer }>((resolve, reject) => {
        http
          .get(
            {
              host: '127.0.0.1',
              port,
              path: '/accented/1',
              headers: sent === undefined ? {} : { 'x-request-id': sent },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ id: res.headers['x-request-id'], body: Buffer.concat(chunks) }));
            },
          )
          .on('error', reject);
      });
      // Node reads header bytes as Latin-1: a header written as UTF-8 would read as "cafÃ©-1"
      expect(r.id).toMatch(echoed);
      expect((JSON.parse(r.body.toString('utf8')) as { title: string }).title).toBe('Crème brûlée');
    },
  );

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

describe('connectionTimeout (a sweep over the open connections)', () => {
  const big = 'x'.repeat(16 * 1024 * 1024);
  const slow = collection({
    name: 'slow',
    key: LONG_KEY,
    value: Photo,
    methods: {
      // never answers: a handler that hangs leaves its connection without traffic
      get: (key) => (key === 1 ? new Promise<Photo>(() => undefined) : PHOTO),
      // a 16 MiB entity: more than loopback's socket buffers take, so a client that stops reading stalls it
      getAll: () => ({ elements: [makePhoto(2, big, PhotoFormat.PNG)] }),
    },
  });

  async function startWithTimeout(connectionTimeout: number): Promise<number> {
    server = createSvcServer({ resources: [slow] }, { connectionTimeout });
    return (await listenOn(server)).port;
  }

  /**
   * A raw connection that sends `request`; resolves with what it received once the server closed its end.
   * A slow reader (`paused`) takes the first bytes, then stops reading: the server's close is seen on the
   * server's side (the client sees the end only once it read what the kernel holds for it).
   */
  function closedAfter(port: number, request: string, paused: boolean): Promise<string> {
    const serverSide = new Promise<net.Socket>((resolve) => server!.once('connection', resolve));
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
      let received = '';
      socket.on('data', (d: Buffer) => {
        if (received.length < 200) received += d.toString('latin1');
        if (paused) socket.pause();
      });
      socket.on('error', () => undefined);
      void serverSide.then((s) =>
        s.once('close', () => {
          socket.destroy();
          resolve(received);
        }),
      );
    });
  }

  it('closes a connection whose request has had no answer and no traffic for the timeout', async () => {
    const port = await startWithTimeout(300);
    const received = await closedAfter(
      port,
      'GET /slow/1 HTTP/1.1\r\nHost: x\r\nX-RestLi-Protocol-Version: 2.0.0\r\n\r\n',
      false,
    );
    expect(received).toBe('');
  });

  it('closes a connection whose client stopped reading its response', async () => {
    const port = await startWithTimeout(300);
    const received = await closedAfter(
      port,
      'GET /slow HTTP/1.1\r\nHost: x\r\nX-RestLi-Protocol-Version: 2.0.0\r\n\r\n',
      true,
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('keeps a connection that carries requests more often than the timeout', async () => {
    const port = await startWithTimeout(1000);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let closed = false;
    socket.on('close', () => (closed = true));
    let answers = 0;
    socket.on('data', (d: Buffer) => (answers += d.toString('latin1').split('HTTP/1.1 200 ').length - 1));
    // 25 requests 100 ms apart: 2.5 s on one connection, 2.5 times the timeout
    for (let i = 0; i < 25; i++) {
      socket.write('GET /slow/2 HTTP/1.1\r\nHost: x\r\nX-RestLi-Protocol-Version: 2.0.0\r\n\r\n');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(closed).toBe(false);
    expect(answers).toBe(25);
    socket.destroy();
  });
});
