import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  type ClientFilter,
  type ClientOptionsError,
  Data,
  DataMap,
  type FetchLike,
  type FetchResponseLike,
  type HttpRequest,
  SvcClient,
  WEB_PLATFORM,
  isSvcError,
  sendHttp,
  webAttachments,
  writerFromBytes,
} from '../../src';
import { StubServer, eventually } from './stub-server';

/**
 * Timeouts, aborts and transport failures over real sockets on loopback: a stub that never answers, one
 * that stalls in the middle of the body, one that hangs up, and a port nobody listens on.
 */

let stub: StubServer;

beforeAll(async () => {
  stub = await StubServer.start();
});
afterAll(async () => {
  await stub.stop();
});
beforeEach(() => {
  stub.seen.length = 0;
  stub.closedEarly.length = 0;
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

const get = { method: 'get', resource: 'photos', key: 1 } as const;

describe('timeouts', () => {
  it('throws RequestTimeoutError when the server never answers, and hangs up', async () => {
    stub.handler = () => {
      /* never answers */
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl, timeoutMs: 100 });
    const started = Date.now();
    const err = await rejection(client.send(get));
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(isSvcError(err, 'RequestTimeoutError', 'SVC_ERR_CLIENT_TIMEOUT')).toBe(true);
    expect(err).toMatchObject({ timeoutMs: 100, url: `${stub.baseUrl}/photos/1`, statusCode: 504 });
    expect((err as Error).message).toBe(`No response from ${stub.baseUrl}/photos/1 within 100 ms`);
    await eventually(() => stub.closedEarly.includes('/photos/1'));
  });

  it('counts the body in the timeout: a server that stalls mid-body times out', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"id":');
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl, timeoutMs: 100 });
    const err = await rejection(client.send(get));
    expect(err).toMatchObject({ name: 'RequestTimeoutError' });
  });

  it("lets a request's timeout override the client's", async () => {
    stub.handler = (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"id":1}');
      }, 150);
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl, timeoutMs: 50 });
    const r = await client.send({ ...get, timeoutMs: 2000 });
    expect(r.status).toBe(200);
    await expect(client.send({ ...get, timeoutMs: 0 })).rejects.toMatchObject({ name: 'RequestBuildError' });
  });

  it('answers in time without a timer left behind', async () => {
    stub.reply(200, { 'Content-Type': 'application/json' }, '{"id":1}');
    const client = new SvcClient({ baseUrl: stub.baseUrl, timeoutMs: Infinity });
    await expect(client.send(get)).resolves.toMatchObject({ status: 200 });
  });
});

describe('aborts', () => {
  it("rejects with the request signal's reason and hangs up", async () => {
    stub.handler = () => {
      /* never answers */
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl });
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const pending = client.send({ ...get, signal: controller.signal });
    await eventually(() => stub.seen.length === 1);
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
    await eventually(() => stub.closedEarly.length === 1);
  });

  it("rejects with the client signal's reason (a DOMException AbortError by default)", async () => {
    stub.handler = () => {
      /* never answers */
    };
    const controller = new AbortController();
    const client = new SvcClient({ baseUrl: stub.baseUrl, signal: controller.signal });
    const pending = client.send(get);
    await eventually(() => stub.seen.length === 1);
    controller.abort();
    const err = await rejection(pending);
    expect(err).toBe(controller.signal.reason);
    expect((err as Error).name).toBe('AbortError');
  });

  it('sends nothing when the signal is already aborted', async () => {
    const client = new SvcClient({ baseUrl: stub.baseUrl });
    const reason = { why: 'not an Error' };
    const err = await rejection(client.send({ ...get, signal: AbortSignal.abort(reason) }));
    expect(err).toBe(reason);
    // a later request, issued after it, answered: the stub has seen that one only
    stub.reply(200, { 'Content-Type': 'application/json' }, '{}');
    await client.send({ ...get, params: { later: 'yes' } });
    expect(stub.seen.map((r) => r.url)).toEqual([expect.stringContaining('later=yes')]);
  });

  it('aborts while the body is being read', async () => {
    const controller = new AbortController();
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"id":');
      setTimeout(() => controller.abort('stop'), 20);
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl });
    expect(await rejection(client.send({ ...get, signal: controller.signal }))).toBe('stop');
  });
});

describe('transport failures', () => {
  it('throws TransportError with the cause when nobody listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const client = new SvcClient({ baseUrl: `http://127.0.0.1:${port}` });
    const err = await rejection(client.send(get));
    expect(isSvcError(err, 'TransportError', 'SVC_ERR_CLIENT_TRANSPORT')).toBe(true);
    expect((err as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect((err as Error).message).toContain('ECONNREFUSED');
  });

  it('throws TransportError when the server hangs up mid-response', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"id":1');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl });
    expect(await rejection(client.send(get))).toMatchObject({ name: 'TransportError' });
  });
});

describe('response size limit', () => {
  const json = (n: number): string => JSON.stringify({ pad: 'x'.repeat(n) });

  it('refuses a declared Content-Length over maxResponseBytes before reading it', async () => {
    stub.reply(200, { 'content-type': 'application/json' }, json(2000));
    const client = new SvcClient({ baseUrl: stub.baseUrl, maxResponseBytes: 1000 });
    const err = await rejection(client.send(get));
    expect(isSvcError(err, 'ResponseTooLargeError', 'SVC_ERR_CLIENT_RESPONSE_TOO_LARGE')).toBe(true);
    expect((err as Error).message).toContain('maxResponseBytes (1000 bytes)');
  });

  it('stops reading a chunked body as soon as it passes the limit, and hangs up', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"pad":"');
      // an endless body: only the client's limit ends it
      const timer = setInterval(() => res.write('x'.repeat(512)), 5);
      res.on('close', () => clearInterval(timer));
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl, maxResponseBytes: 4096, timeoutMs: 5000 });
    const err = await rejection(client.send(get));
    expect(isSvcError(err, 'ResponseTooLargeError', 'SVC_ERR_CLIENT_RESPONSE_TOO_LARGE')).toBe(true);
    await eventually(() => stub.closedEarly.includes('/photos/1'));
  });

  it('checks the size read through an injected fetch too', async () => {
    stub.reply(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, json(2000));
    const client = new SvcClient({ baseUrl: stub.baseUrl, maxResponseBytes: 1000, fetch: globalThis.fetch });
    const err = await rejection(client.send(get));
    expect(isSvcError(err, 'ResponseTooLargeError', 'SVC_ERR_CLIENT_RESPONSE_TOO_LARGE')).toBe(true);
  });

  it('reads a body right at the limit', async () => {
    const body = JSON.stringify({ id: 1 });
    stub.reply(200, { 'content-type': 'application/json' }, body);
    const client = new SvcClient({ baseUrl: stub.baseUrl, maxResponseBytes: body.length });
    expect((await client.send(get)).entity.get('id')).toBe(1);
  });
});

describe('an injected fetch', () => {
  it('gets the method, URL, headers, body and a signal', async () => {
    const calls: Array<Parameters<FetchLike>> = [];
    const fetch: FetchLike = (url, init) => {
      calls.push([url, init]);
      return Promise.resolve({
        status: 201,
        headers: new Headers({ 'X-Svc-Id': '5' }),
        arrayBuffer: () => Promise.resolve(new ArrayBuffer(0)),
      });
    };
    const client = new SvcClient({
      baseUrl: 'http://svc.invalid/api',
      fetch,
      headers: { Authorization: 'Bearer t' },
    });
    const r = await client.send({ method: 'create', resource: 'photos', body: new DataMap() });
    expect(r.idText).toBe('5');
    const [url, init] = calls[0]!;
    expect(url).toBe('http://svc.invalid/api/photos');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({
      Authorization: 'Bearer t',
      'Content-Type': 'application/json',
      'X-Svc-Protocol-Version': '2.0.0',
      'X-Svc-Method': 'create',
    });
    expect(Buffer.from(init.body as Uint8Array).toString()).toBe('{}');
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it("sorts a fetch's own abort error into the signal's reason, and other errors into TransportError", async () => {
    const hanging: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(new Error('custom fetch aborted')));
      });
    const controller = new AbortController();
    const client = new SvcClient({ baseUrl: 'http://svc.invalid', fetch: hanging, timeoutMs: 60 });
    const pending = client.send({ ...get, signal: controller.signal });
    controller.abort('reason');
    expect(await rejection(pending)).toBe('reason');
    expect(await rejection(client.send(get))).toMatchObject({ name: 'RequestTimeoutError' });

    const failing = new SvcClient({
      baseUrl: 'http://svc.invalid',
      fetch: () => Promise.reject(new TypeError('boom')),
    });
    const err = await rejection(failing.send(get));
    expect(err).toMatchObject({
      name: 'TransportError',
      message: 'Request to http://svc.invalid/photos/1 failed: boom',
    });
  });
});

describe('client filters', () => {
  it('run around the transport in order, and may rewrite the request and the response', async () => {
    stub.reply(200, { 'Content-Type': 'application/json' }, '{"id":1}');
    const order: string[] = [];
    const outer: ClientFilter = async (req, next) => {
      order.push('outer in');
      const res = await next({ ...req, headers: { ...req.headers, 'X-Outer': '1' } });
      order.push('outer out');
      return res;
    };
    const inner: ClientFilter = async (req, next) => {
      order.push(`inner in ${req.headers['X-Outer']}`);
      const res = await next(req);
      order.push('inner out');
      return { ...res, body: new TextEncoder().encode('{"id":2}') };
    };
    const client = new SvcClient({ baseUrl: stub.baseUrl, filters: [outer, inner] });
    const r = await client.send(get);
    expect(order).toEqual(['outer in', 'inner in 1', 'inner out', 'outer out']);
    expect(stub.last.headers['x-outer']).toBe('1');
    expect(Data.toJS(r.entity)).toEqual({ id: 2 });
  });

  it('may answer without sending', async () => {
    const cached: ClientFilter = () =>
      Promise.resolve({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode('{"c":1}'),
      });
    const client = new SvcClient({ baseUrl: 'http://svc.invalid', filters: [cached] });
    expect(Data.toJS((await client.send(get)).entity)).toEqual({ c: 1 });
  });
});

describe('attachments off (the web platform, as svc-framework/client has it without webAttachments)', () => {
  const answer = (): Response =>
    new Response('--b\r\nContent-Type: application/json\r\n\r\n{}\r\n--b--', {
      status: 200,
      headers: { 'content-type': 'multipart/related; boundary=b' },
    });

  it.each([
    ['a request with attachments, before anything is sent', true, []],
    ['a multipart/related response', false, ['http://h/photos/1']],
  ])('refuses %s with a ClientOptionsError naming the option', async (_what, withAttachments, fetched) => {
    const urls: string[] = [];
    const fetch: FetchLike = (url) => {
      urls.push(url);
      return Promise.resolve(answer() as unknown as FetchResponseLike);
    };
    const request = {
      resourceMethod: 'get',
      method: 'GET',
      url: 'http://h/photos/1',
      uri: 'photos/1',
      headers: {},
      body: withAttachments ? new Uint8Array([123, 125]) : undefined,
      ...(withAttachments ? { attachments: [writerFromBytes('a', new Uint8Array([1]))] } : {}),
    } as unknown as HttpRequest;
    const err = await rejection(sendHttp(request, { fetch, timeoutMs: 1000, platform: WEB_PLATFORM }));
    expect(isSvcError(err, 'ClientOptionsError')).toBe(true);
    expect((err as ClientOptionsError).option).toBe('attachments');
    expect((err as Error).message).toContain('webAttachments');
    expect(urls).toEqual(fetched);
  });

  it('reads them with webAttachments', async () => {
    const fetch: FetchLike = () => Promise.resolve(answer() as unknown as FetchResponseLike);
    const request = { method: 'GET', url: 'http://h/photos/1', headers: {} } as unknown as HttpRequest;
    const res = await sendHttp(request, { fetch, timeoutMs: 1000, platform: webAttachments });
    expect([res.status, new TextDecoder().decode(res.body), res.headers['content-type']]).toEqual([
      200,
      '{}',
      'application/json',
    ]);
  });
});
