/**
 * Test support: a fastify app serving resources on a real loopback socket, and raw HTTP requests written
 * from the wire facts (never produced by the framework's client). Under `SVC_TEST_PROTOCOL=h2` (the `http2`
 * jest project) the same servers listen with TLS and HTTP/2 (ALPN, HTTP/1.1 fallback), and every request of
 * {@link TestServer.request} is a stream on one HTTP/2 session per server.
 */
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { Readable } from 'node:stream';
import fastify, { type FastifyInstance } from 'fastify';
import {
  Data,
  DataMap,
  type FetchLike,
  type JsValue,
  PsonCodec,
  createSvcSecureServer,
  createSvcServer,
  listenOn,
  localhostCertificates,
  nodeHttpFetch,
  secureFetch,
  svcFrameworkErrors,
  svcPlugin,
  type SvcPluginOptions,
  svcSecureServerOptions,
} from '../../../src';

/** A request: headers, and a body as JSON (sent with `Content-Type: application/json`) or raw. */
export interface RequestInit {
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
  /** A stream is sent as it is read (chunked over HTTP/1.1 unless a `content-length` header is given). */
  readonly raw?: string | Uint8Array | Readable;
}

export interface TestServer {
  /** The fastify app (the standalone server has none: see {@link startServer}). */
  readonly app: FastifyInstance;
  /** Node's HTTP server underneath, either way (an `Http2SecureServer` under `SVC_TEST_PROTOCOL=h2`). */
  readonly server: http.Server;
  /** `http://127.0.0.1:<port><prefix>` (`https://` under `SVC_TEST_PROTOCOL=h2`) */
  readonly base: string;
  /** The listening port. */
  readonly port: number;
  /** A fetch for the typed client that speaks the server's protocol (HTTP/2 with the test CA trusted under h2). */
  readonly fetch: FetchLike;
  /** Sends `method path` with the path exactly as given (`fetch` would re-encode `'` in queries). */
  request(method: string, path: string, init?: RequestInit): Promise<WireResponse>;
  /**
   * Starts `method path` and leaves it open, so that a test can send part of a body, watch the answer
   * arrive, and hang up mid-way: over HTTP/1.1 a raw socket (a chunked body), destroyed by `abort`; over
   * HTTP/2 a stream, reset with `CANCEL` by `abort` (what a browser does when a fetch is aborted).
   */
  open(method: string, path: string, headers?: Record<string, string>): Promise<OpenRequest>;
  close(): Promise<void>;
}

/** A request left open by {@link TestServer.open}. */
export interface OpenRequest {
  /** Sends part of the body (a chunk of a chunked body over HTTP/1.1). */
  write(chunk: string | Uint8Array): void;
  /** Bytes of the answer received so far (head included over HTTP/1.1). */
  received(): number;
  /** Hangs up: the socket destroyed, or the stream reset. */
  abort(): void;
}

export interface WireResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text (empty when none). */
  readonly text: string;
  readonly bytes: Uint8Array;
  /** The body parsed as JSON (undefined when empty). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read the wire JSON freely
  readonly json: any;
}

/**
 * Which HTTP adapter the tests run on: `fastify` (svcPlugin, the default) or `node` (createSvcServer); the
 * `node-server` jest project runs the resource tests again with `SVC_TEST_SERVER=node` (jest.config.js).
 */
export const TEST_SERVER = process.env.SVC_TEST_SERVER === 'node' ? 'node' : 'fastify';

/**
 * The protocol the tests speak: HTTP/1.1 in the clear (the default), or HTTP/2 over TLS (`h2`, set by the
 * `http2` jest project, test/support/http2-env.ts).
 */
export const TEST_PROTOCOL: 'http/1.1' | 'h2' = process.env.SVC_TEST_PROTOCOL === 'h2' ? 'h2' : 'http/1.1';

/**
 * `it` for a case about HTTP/1.1 framing itself (bytes written on a raw socket: chunked encoding, a client
 * half-closing, pipelining): skipped under HTTP/2, where that framing does not exist and the runs over
 * HTTP/1.1 (the `fastify` and `node-server` projects) cover it.
 */
export const itHttp1 = TEST_PROTOCOL === 'h2' ? it.skip : it;

let certificates: ReturnType<typeof localhostCertificates> | undefined;
/** One CA and localhost certificate per test file, made with openssl on first use. */
export function testCertificates(): ReturnType<typeof localhostCertificates> {
  return (certificates ??= localhostCertificates());
}

/**
 * Starts `svcPlugin` with `options` at `prefix` on 127.0.0.1, port 0; under `SVC_TEST_SERVER=node` the
 * standalone server instead, unless the test configures the fastify app (its hooks are fastify's).
 */
export async function startServer(
  options: SvcPluginOptions,
  prefix = '',
  configure?: (app: FastifyInstance) => void | Promise<void>,
): Promise<TestServer> {
  if (TEST_SERVER === 'node' && configure === undefined) return startNodeServer(options, prefix);
  const frameworkErrors = svcFrameworkErrors({ headerPrefix: options.headerPrefix, mode: options.mode });
  const app =
    TEST_PROTOCOL === 'h2'
      ? (fastify({
          ...svcSecureServerOptions(testCertificates().server),
          frameworkErrors,
        } as never) as unknown as FastifyInstance)
      : fastify({ frameworkErrors });
  if (configure !== undefined) await configure(app);
  await app.register(svcPlugin, { ...options, prefix });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  const transport = transportTo(address.port);
  return {
    app,
    server: app.server,
    base: `${transport.scheme}://127.0.0.1:${address.port}${prefix}`,
    port: address.port,
    fetch: transport.fetch,
    request: (method, path, init = {}) => transport.request(method, prefix + path, init),
    open: (method, path, headers) => transport.open(method, prefix + path, headers),
    close: async () => {
      transport.close();
      await app.close();
    },
  };
}

async function startNodeServer(options: SvcPluginOptions, prefix: string): Promise<TestServer> {
  const server = (
    TEST_PROTOCOL === 'h2'
      ? createSvcSecureServer({ ...options, prefix }, testCertificates().server)
      : createSvcServer({ ...options, prefix })
  ) as http.Server;
  const address = await listenOn(server, { port: 0, host: '127.0.0.1' });
  const transport = transportTo(address.port);
  return {
    get app(): FastifyInstance {
      throw new Error('this test reads the fastify app: it cannot run on the standalone server');
    },
    server,
    base: `${transport.scheme}://127.0.0.1:${address.port}${prefix}`,
    port: address.port,
    fetch: transport.fetch,
    request: (method, path, init = {}) => transport.request(method, prefix + path, init),
    open: (method, path, headers) => transport.open(method, prefix + path, headers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        transport.close();
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        // an HTTP/2 server has no closeAllConnections: its sessions end with the client's session above
        if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
      }),
  };
}

interface Transport {
  readonly scheme: 'http' | 'https';
  readonly fetch: FetchLike;
  request(method: string, target: string, init?: RequestInit): Promise<WireResponse>;
  open(method: string, target: string, headers?: Record<string, string>): Promise<OpenRequest>;
  close(): void;
}

/** How the tests reach a server on `port`: new HTTP/1.1 connections, or streams on one HTTP/2 session. */
function transportTo(port: number): Transport {
  if (TEST_PROTOCOL !== 'h2')
    return {
      scheme: 'http',
      fetch: nodeHttpFetch,
      request: (method, target, init) => rawRequest(port, method, target, init),
      open: (method, target, headers) => openSocket(port, method, target, headers),
      close: () => {},
    };
  const ca = testCertificates().ca.cert;
  let session: http2.ClientHttp2Session | undefined;
  const fetch = secureFetch({ ca });
  const open = (): http2.ClientHttp2Session => {
    if (session === undefined || session.closed || session.destroyed) {
      const s = http2.connect(`https://localhost:${port}`, { ca });
      // a session the server ends (shutdown, GOAWAY) is reopened by the next request
      s.on('error', () => {});
      s.on('close', () => {
        if (session === s) session = undefined;
      });
      session = s;
    }
    return session;
  };
  return {
    scheme: 'https',
    fetch,
    request: (method, target, init) => h2Request(open(), method, target, init),
    open: (method, target, headers) => openStream(open(), method, target, headers),
    close: () => {
      fetch.close();
      session?.close();
      session = undefined;
    },
  };
}

/**
 * One HTTP request over a new connection, bytes as given: the request target is sent verbatim, with
 * `X-Svc-Protocol-Version: 2.0.0` unless the headers name one (an empty value leaves it out).
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  init: RequestInit = {},
): Promise<WireResponse> {
  const { headers, body } = requestOf(init);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: target, headers, agent: false },
      (res) => {
        readResponse(res, res.statusCode ?? 0, res.headers).then(resolve, reject);
      },
    );
    req.on('error', reject);
    if (body instanceof Readable) body.pipe(req);
    else req.end(body);
  });
}

/**
 * The same request as a stream on an HTTP/2 session: the target is sent verbatim as `:path`, `Host` becomes
 * `:authority`, and a body stream needs no length (the stream's end ends it).
 */
function h2Request(
  session: http2.ClientHttp2Session,
  method: string,
  target: string,
  init: RequestInit = {},
): Promise<WireResponse> {
  const { headers, body } = requestOf(init);
  const { host, ...rest } = headers;
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ...rest,
      ':method': method,
      ':path': target,
      ...(host === undefined ? {} : { ':authority': host }),
    });
    stream.on('error', reject);
    stream.on('response', (h) => {
      const { ':status': status, ...fields } = h;
      readResponse(stream, Number(status), fields).then(resolve, reject);
    });
    if (body instanceof Readable) body.pipe(stream);
    else stream.end(body);
  });
}

function protocolHeaders(headers: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = { 'x-svc-protocol-version': '2.0.0' };
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

async function openSocket(
  port: number,
  method: string,
  target: string,
  headers?: Record<string, string>,
): Promise<OpenRequest> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = 0;
  socket.on('data', (d: Buffer) => (received += d.length));
  socket.on('error', () => {});
  const fields = Object.entries(protocolHeaders(headers)).map(([k, v]) => `${k}: ${v}\r\n`);
  const chunked = BODY_METHODS.has(method);
  socket.write(
    `${method} ${target} HTTP/1.1\r\nHost: x\r\n${fields.join('')}${chunked ? 'Transfer-Encoding: chunked\r\n' : ''}\r\n`,
  );
  return {
    write: (chunk) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      socket.write(`${bytes.length.toString(16)}\r\n`);
      socket.write(bytes);
      socket.write('\r\n');
    },
    received: () => received,
    abort: () => socket.destroy(),
  };
}

function openStream(
  session: http2.ClientHttp2Session,
  method: string,
  target: string,
  headers?: Record<string, string>,
): Promise<OpenRequest> {
  const stream = session.request(
    { ...protocolHeaders(headers), ':method': method, ':path': target },
    { endStream: !BODY_METHODS.has(method) },
  );
  let received = 0;
  stream.on('data', (d: Buffer) => (received += d.length));
  // the reset this side sends, or the server's answer to it
  stream.on('error', () => {});
  return Promise.resolve({
    write: (chunk) => void stream.write(chunk),
    received: () => received,
    // destroy, not close(CANCEL): Node's close ends the request body first (END_STREAM), then resets
    abort: () => stream.destroy(),
  });
}

function requestOf(init: RequestInit): {
  headers: Record<string, string>;
  body: Uint8Array | Readable | undefined;
} {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  if (!('x-svc-protocol-version' in headers)) headers['x-svc-protocol-version'] = '2.0.0';
  else if (headers['x-svc-protocol-version'] === '') delete headers['x-svc-protocol-version'];
  let body: Uint8Array | Readable | undefined;
  if (init.json !== undefined) {
    body = Buffer.from(JSON.stringify(init.json));
    headers['content-type'] ??= 'application/json';
  } else if (init.raw !== undefined) {
    body = typeof init.raw === 'string' ? Buffer.from(init.raw) : init.raw;
  }
  if (body !== undefined && !(body instanceof Readable)) headers['content-length'] = String(body.length);
  return { headers, body };
}

function readResponse(
  body: Readable,
  status: number,
  fields: Record<string, string | string[] | number | undefined>,
): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (c: Buffer) => chunks.push(c));
    body.on('error', reject);
    body.on('end', () => {
      const bytes = new Uint8Array(Buffer.concat(chunks));
      const text = new TextDecoder().decode(bytes);
      const h = new Headers();
      for (const [k, v] of Object.entries(fields)) {
        if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : String(v));
      }
      const type = h.get('content-type') ?? '';
      resolve({
        status,
        headers: h,
        text,
        bytes,
        // a compressed body is not JSON text
        json:
          text !== '' && type.startsWith('application/json') && !h.has('content-encoding')
            ? JSON.parse(text)
            : undefined,
      });
    });
  });
}

/** Decodes a PSON body to plain JS. */
export function fromPson(bytes: Uint8Array): unknown {
  return Data.toJS(new PsonCodec().bytesToMap(bytes));
}

/** PSON bytes of a DataMap, or of a plain object. */
export function toPson(value: DataMap | Record<string, JsValue>): Uint8Array {
  return new PsonCodec().mapToBytes(value instanceof DataMap ? value : (Data.fromJS(value) as DataMap));
}
