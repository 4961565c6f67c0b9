/**
 * svcServerOptions over real sockets: a stalled upload is answered 408 and closed, and what Node's HTTP
 * parser refuses (unknown methods, broken framing, huge headers) is answered as an ErrorResponse with the
 * protocol headers, the server healthy after.
 */
import net from 'node:net';
import fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_SERVER_TIMEOUTS, LONG_KEY, collection, svcPlugin, svcServerOptions } from '../../src';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { photoService } from './support/photos';

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = fastify(svcServerOptions({ requestTimeout: 300, connectionsCheckingInterval: 50 }));
  await app.register(svcPlugin, { resources: [photoService().resource] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app.close();
});

interface RawAnswer {
  readonly text: string;
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: string;
}

/** Writes `chunks` to a new connection (the last one left open unless `end`) and reads until the server closes. */
function raw(chunks: readonly (string | Buffer)[], end = true): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(got).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const headers = new Map<string, string>();
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
      }
      resolve({ text, status: Number(lines[0]?.split(' ')[1]), headers, body });
    });
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (end) socket.end();
    });
  });
}

function expectErrorResponse(r: RawAnswer, status: number, message: string | RegExp): void {
  expect(r.status).toBe(status);
  expect(r.headers.get('x-svc-protocol-version')).toBe('1.0.0');
  expect(r.headers.get('x-svc-error-response')).toBe('true');
  expect(r.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(r.body) as { status: number; message: string };
  expect(body.status).toBe(status);
  expect(body.message).toMatch(message);
}

async function expectHealthy(): Promise<void> {
  const r = await raw([
    'GET /photos/1 HTTP/1.1\r\nHost: x\r\nX-Svc-Protocol-Version: 2.0.0\r\nConnection: close\r\n\r\n',
  ]);
  expect(r.status).toBe(200);
}

describe('svcServerOptions', () => {
  it('answers a stalled upload with 408 and closes its connection', async () => {
    const r = await raw(
      [
        'POST /photos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti',
      ],
      false,
    );
    expectErrorResponse(r, 408, 'The request did not arrive in full in time');
    await expectHealthy();
  });

  it('answers a client that sends only part of its headers with 408', async () => {
    const r = await raw(['GET /photos/1 HTTP/1.1\r\nHost: x\r\nX-Sl'], false);
    expect([408, 400]).toContain(r.status);
    await expectHealthy();
  });

  it.each([
    ['an unknown method', ['BREW /photos/1 HTTP/1.1\r\nHost: x\r\n\r\n'], 400, 'Unknown HTTP method'],
    ['a request line of garbage', ['\x01\x02 nonsense\r\n\r\n'], 400, 'Unknown HTTP method'],
    ['a bad HTTP version', ['GET /photos/1 HTTX/1.1\r\nHost: x\r\n\r\n'], 400, /^Malformed HTTP request/],
    [
      'a broken chunked body',
      ['POST /photos HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'],
      400,
      /^Malformed HTTP request/,
    ],
    [
      'both Content-Length and chunked',
      [
        'POST /photos HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ],
      400,
      /^Malformed HTTP request/,
    ],
    [
      'a header without a colon',
      ['GET /photos/1 HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n'],
      400,
      /^Malformed/,
    ],
    [
      'headers over 16 KiB',
      [`GET /photos/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      431,
      'The request headers are too large',
    ],
  ])('answers %s with an ErrorResponse', async (_name, chunks, status, message) => {
    expectErrorResponse(await raw(chunks), status, message);
    await expectHealthy();
  });

  it('answers an HTTP/1.1 request without Host with an ErrorResponse', async () => {
    expectErrorResponse(
      await raw(['GET /photos/1 HTTP/1.1\r\nConnection: close\r\n\r\n']),
      400,
      'Malformed HTTP request: an HTTP/1.1 request needs a Host header',
    );
  });

  it('answers an unsupported Expect with a 417 ErrorResponse', async () => {
    const r = await raw([
      'GET /photos/1 HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nX-Svc-Protocol-Version: 2.0.0\r\n\r\n',
    ]);
    expect(r.status).toBe(417);
    expect(r.headers.get('x-svc-protocol-version')).toBe('2.0.0');
    expect(JSON.parse(r.body)).toMatchObject({
      status: 417,
      message: "The expectation 'teapot' is not supported",
    });
  });

  it('refuses a tunneled request whose body has no Content-Type rather than run it as the POST it looks like', async () => {
    const r = await raw([
      'POST /photos?action=purge HTTP/1.1\r\nHost: x\r\nX-HTTP-Method-Override: GET\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    ]);
    expect(r.status).toBe(415);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE' });
  });

  it('has documented defaults and refuses bad timeouts', () => {
    const o = svcServerOptions();
    expect(o.requestTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.requestTimeout);
    expect(o.http.headersTimeout).toBe(10_000);
    expect(svcServerOptions({ requestTimeout: 2_000 }).http.headersTimeout).toBe(2_000);
    expect(() => svcServerOptions({ requestTimeout: -1 })).toThrow(
      'requestTimeout must be a non-negative integer',
    );
    expect(() => svcServerOptions({ mode: 'loud' as 'production' })).toThrow(/mode/);
  });
});

describe('connectionTimeout under svcPlugin', () => {
  it("closes a connection without traffic for the timeout, by the plugin's sweep rather than a timer per socket", async () => {
    const hanging = collection({
      name: 'hanging',
      key: LONG_KEY,
      value: Photo,
      methods: { get: () => new Promise<Photo>(() => undefined) },
    });
    const slow = fastify(svcServerOptions({ connectionTimeout: 300 }));
    await slow.register(svcPlugin, { resources: [hanging] });
    await slow.listen({ port: 0, host: '127.0.0.1' });
    try {
      // Node's per-socket timer is off: the plugin took the timeout over
      expect(slow.server.timeout).toBe(0);
      const socket = net.connect((slow.server.address() as net.AddressInfo).port, '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.write('GET /hanging/1 HTTP/1.1\r\nHost: x\r\nX-RestLi-Protocol-Version: 2.0.0\r\n\r\n');
      await new Promise((resolve) => socket.once('close', resolve));
      expect(received).toBe('');
    } finally {
      await slow.close();
    }
  });
});
