/**
 * The front door over HTTP/2 (the TLS server of src/security/ speaks it): a refusal under overload or
 * during shutdown is answered 503 on the stream, without the `Connection: close` HTTP/1 gets (HTTP/2
 * forbids the header, and Node's compatibility response throws on it, which would take the process down).
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GracefulShutdown, Health, createFrontDoor, installFrontDoor } from '../../src';
import type { ShedDecision } from '../../src/runtime/load-shedding';

let server: http2.Http2Server;
let session: http2.ClientHttp2Session;
let decision: ShedDecision | undefined;
const shutdown = new GracefulShutdown({ deadlineMs: 1000 });

function request(
  method: string,
  body?: string,
): Promise<{ status: number; headers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': method,
      ':path': '/photos/1',
      'content-type': 'application/json',
    });
    stream.on('response', (headers) => {
      stream.resume();
      stream.on('end', () => resolve({ status: Number(headers[':status']), headers }));
    });
    stream.on('error', reject);
    stream.end(body);
  });
}

beforeAll(async () => {
  server = http2.createServer((_req, res) => res.end('served'));
  installFrontDoor(
    server as unknown as Parameters<typeof installFrontDoor>[0],
    createFrontDoor({ health: new Health(), shutdown, shedder: { shouldShed: () => decision } }),
    shutdown,
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  session.close();
  await new Promise((r) => server.close(r));
});

it('refuses a request with a body under overload with 503 and no Connection header', async () => {
  decision = {
    reason: 'event-loop-delay',
    detail: 'event loop 80 ms late (limit 50 ms)',
    retryAfterSeconds: 2,
  };
  const r = await request('POST', '{"title":"x"}');
  expect([r.status, r.headers['retry-after'], r.headers.connection]).toEqual([503, '2', undefined]);
  decision = undefined;
  expect((await request('GET')).status).toBe(200);
});

it('refuses a request on an open session once shutdown began, and the process lives on', async () => {
  const done = shutdown.shutdown('stop');
  const r = await request('POST', '{"title":"x"}');
  expect([r.status, r.headers.connection]).toEqual([503, undefined]);
  session.close();
  await done;
});
