/**
 * Test support: a fastify app serving resources on a real loopback socket, and raw HTTP requests written
 * from the wire facts (never produced by the framework's client).
 */
import http from 'node:http';
import fastify, { type FastifyInstance } from 'fastify';
import {
  Data,
  DataMap,
  type JsValue,
  PsonCodec,
  createSvcServer,
  listenOn,
  svcFrameworkErrors,
  svcPlugin,
  type SvcPluginOptions,
} from '../../../src';

/** A request: headers, and a body as JSON (sent with `Content-Type: application/json`) or raw. */
export interface RequestInit {
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
  readonly raw?: string | Uint8Array;
}

export interface TestServer {
  /** The fastify app (the standalone server has none: see {@link startServer}). */
  readonly app: FastifyInstance;
  /** Node's HTTP server underneath, either way. */
  readonly server: http.Server;
  /** `http://127.0.0.1:<port><prefix>` */
  readonly base: string;
  /** Sends `method path` with the path exactly as given (`fetch` would re-encode `'` in queries). */
  request(method: string, path: string, init?: RequestInit): Promise<WireResponse>;
  close(): Promise<void>;
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
 * Starts `svcPlugin` with `options` at `prefix` on 127.0.0.1, port 0; under `SVC_TEST_SERVER=node` the
 * standalone server instead, unless the test configures the fastify app (its hooks are fastify's).
 */
export async function startServer(
  options: SvcPluginOptions,
  prefix = '',
  configure?: (app: FastifyInstance) => void | Promise<void>,
): Promise<TestServer> {
  if (TEST_SERVER === 'node' && configure === undefined) return startNodeServer(options, prefix);
  const app = fastify({
    frameworkErrors: svcFrameworkErrors({ headerPrefix: options.headerPrefix, mode: options.mode }),
  });
  if (configure !== undefined) await configure(app);
  await app.register(svcPlugin, { ...options, prefix });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}${prefix}`;
  return {
    app,
    server: app.server,
    base,
    request: (method, path, init = {}) => rawRequest(address.port, method, prefix + path, init),
    close: () => app.close(),
  };
}

async function startNodeServer(options: SvcPluginOptions, prefix: string): Promise<TestServer> {
  const server = createSvcServer({ ...options, prefix });
  const address = await listenOn(server, { port: 0, host: '127.0.0.1' });
  return {
    get app(): FastifyInstance {
      throw new Error('this test reads the fastify app: it cannot run on the standalone server');
    },
    server,
    base: `http://127.0.0.1:${address.port}${prefix}`,
    request: (method, path, init = {}) => rawRequest(address.port, method, prefix + path, init),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeAllConnections();
      }),
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
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  if (!('x-svc-protocol-version' in headers)) headers['x-svc-protocol-version'] = '2.0.0';
  else if (headers['x-svc-protocol-version'] === '') delete headers['x-svc-protocol-version'];
  let body: Uint8Array | undefined;
  if (init.json !== undefined) {
    body = Buffer.from(JSON.stringify(init.json));
    headers['content-type'] ??= 'application/json';
  } else if (init.raw !== undefined) {
    body = typeof init.raw === 'string' ? Buffer.from(init.raw) : init.raw;
  }
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: target, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const bytes = new Uint8Array(Buffer.concat(chunks));
          const text = new TextDecoder().decode(bytes);
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          }
          const type = h.get('content-type') ?? '';
          resolve({
            status: res.statusCode ?? 0,
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
      },
    );
    req.on('error', reject);
    req.end(body);
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
