/**
 * Request ids and the access log over real HTTP: the id a client sends is echoed and logged (an unusable
 * one replaced); a request without one gets a new one; one line per request with resource, method,
 * status, duration and bytes; error responses' own log lines carry the same id; excluded paths are not
 * logged; `flush` writes everything out.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import {
  type AccessLog,
  createAccessLog,
  createSvcServer,
  listenOn,
  fastifyRequestIdOptions,
  requestIds,
  svcPlugin,
} from '../../src';
import { things } from './support/things';
import { tempDirs } from '../support/temp-dirs';

const tempDir = tempDirs('svc-access-log-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines are read as JSON freely
type Line = Record<string, any>;


describe('request ids and the access log', () => {
  let app: FastifyInstance;
  let base: string;
  let accessLog: AccessLog;
  let accessFile: string;
  let appFile: string;
  beforeAll(async () => {
    const dir = tempDir();
    accessFile = path.join(dir, 'access.log');
    appFile = path.join(dir, 'app.log');
    accessLog = createAccessLog({ destination: accessFile, exclude: ['/things/7'] });
    app = fastify({
      ...fastifyRequestIdOptions(),
      loggerInstance: pino(pino.destination({ dest: appFile, sync: true })),
    }) as unknown as FastifyInstance;
    await app.register(svcPlugin, { resources: [things], observers: [requestIds(), accessLog.observer] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    await accessLog.close();
  });

  const lines = async (file: string): Promise<Line[]> => {
    await accessLog.flush();
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);
  };

  it('echoes the id a client sends, and logs one line with it', async () => {
    const res = await fetch(`${base}/things/1`, { headers: { 'x-request-id': 'client-id-1' } });
    expect(res.headers.get('x-request-id')).toBe('client-id-1');
    const mine = (await lines(accessFile)).filter((l) => l.reqId === 'client-id-1');
    expect(mine).toEqual([
      expect.objectContaining({
        msg: 'request',
        http: 'GET',
        url: '/things/1',
        resource: 'things',
        method: 'get',
        status: 200,
        bytesIn: 0,
        bytesOut: Buffer.byteLength(await res.text()),
      }),
    ]);
    expect(typeof mine[0]!.ms).toBe('number');
  });

  it('writes an id with a quote and a backslash as JSON escapes them', async () => {
    const id = 'q"uote\\back';
    const res = await fetch(`${base}/things/1`, { headers: { 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).toBe(id);
    expect((await lines(accessFile)).filter((l) => l.reqId === id)).toHaveLength(1);
  });

  it.each([
    ['none', undefined],
    ['an unusable one (a space)', 'has space'],
    ['an unusable one (too long)', 'x'.repeat(201)],
  ])('makes a new id when the request has %s', async (_what, sent) => {
    const res = await fetch(`${base}/things/2`, {
      headers: sent === undefined ? {} : { 'x-request-id': sent },
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await lines(accessFile)).filter((l) => l.reqId === id)).toHaveLength(1);
  });

  it("logs an error response's line and the error's own log line with the same id", async () => {
    const res = await fetch(`${base}/things/500`, { headers: { 'x-request-id': 'boom-1' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('boom-1');
    expect((await lines(accessFile)).filter((l) => l.reqId === 'boom-1')).toEqual([
      expect.objectContaining({ status: 500, error: 'Error', resource: 'things', method: 'get' }),
    ]);
    const appLines = readFileSync(appFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);
    expect(appLines.filter((l) => l.reqId === 'boom-1')).toEqual([
      expect.objectContaining({ msg: 'resource request failed', level: 50 }),
    ]);
    // fastify's own two lines per request are off
    expect(appLines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
  });

  it('does not log excluded paths', async () => {
    const res = await fetch(`${base}/things/7`, { headers: { 'x-request-id': 'skipped-1' } });
    expect(res.status).toBe(200);
    expect((await lines(accessFile)).filter((l) => l.reqId === 'skipped-1')).toEqual([]);
  });
});

describe('request ids on the standalone server', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createSvcServer({ resources: [things], observers: [requestIds()] });
    base = `http://127.0.0.1:${(await listenOn(server)).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it.each([
    ['an entity', '/things/1', 200, 'standalone-1'],
    ['an error response', '/things/500', 500, 'standalone-2'],
    ['a body refused before routing (too large)', '/things', 413, 'standalone-3'],
  ])('echoes the id on %s, written with the response', async (_what, path, status, id) => {
    const res = await fetch(`${base}${path}`, {
      method: status === 413 ? 'POST' : 'GET',
      headers: { 'x-request-id': id, 'content-type': 'application/json' },
      body: status === 413 ? 'x'.repeat(2 * 1024 * 1024) : undefined,
    });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.headers.get('x-svc-protocol-version')).not.toBeNull();
    await res.arrayBuffer();
  });
});
