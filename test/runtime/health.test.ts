/**
 * Health probes: over a real `svc serve` of the example with BullMQ on a real redis-server (stopped and
 * started by the test) and a blob directory made unusable; and the Health object's own rules.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Health, SHUTDOWN_CHECK, readinessBody } from '../../src';
import { RedisServer } from '../support/redis-server';
import { tempDirs } from '../support/temp-dirs';
import { type Reply, ServiceProcess, get, killAll } from './support/service-process';

const tempDir = tempDirs('svc-runtime-health-');

afterEach(() => killAll());

/** Asks the readiness probe until `done` holds for its answer (bounded), and returns that answer. */
async function readinessUntil(port: number, done: (r: Reply) => boolean): Promise<Reply> {
  let last: Reply | undefined;
  for (let tries = 0; tries < 300; tries++) {
    last = await get(port, '/health/ready');
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`readiness never matched; last answer: ${last?.status} ${last?.body}`);
}

describe('GET /health/ready of the example served with BullMQ', () => {
  let redis: RedisServer | undefined;
  afterAll(() => redis?.dispose());

  it('turns 503 naming the queue while Redis is down and the blobs while their directory is unusable', async () => {
    redis = await RedisServer.start();
    const dataDir = tempDir();
    const svc = await ServiceProcess.serve(['examples/app.ts'], {
      REDIS_URL: redis.url,
      SVC_DATA_DIR: dataDir,
    });

    const ready = await readinessUntil(svc.port, (r) => r.status === 200);
    expect(JSON.parse(ready.body)).toMatchObject({
      status: 'ready',
      failing: [],
      checks: { queue: { ok: true }, blobs: { ok: true } },
    });
    expect((await get(svc.port, '/health/live')).status).toBe(200);

    await redis.stop();
    const down = await readinessUntil(svc.port, (r) => r.status === 503);
    expect(down.headers['content-type']).toBe('application/json');
    expect(JSON.parse(down.body)).toMatchObject({
      status: 'unavailable',
      failing: ['queue'],
      checks: {
        queue: { ok: false, message: expect.stringMatching(/Redis is unreachable/) },
        blobs: { ok: true },
      },
    });
    // liveness is about this process, not its dependencies
    expect((await get(svc.port, '/health/live')).status).toBe(200);

    await redis.restart();
    await readinessUntil(svc.port, (r) => r.status === 200);

    // the blob directory replaced by a file: nothing can be written under it
    const blobs = path.join(dataDir, 'blobs');
    await fsp.rm(blobs, { recursive: true, force: true });
    await fsp.writeFile(blobs, 'not a directory');
    const noBlobs = await readinessUntil(svc.port, (r) => r.status === 503);
    expect(JSON.parse(noBlobs.body)).toMatchObject({ failing: ['blobs'], checks: { blobs: { ok: false } } });

    svc.signal('SIGTERM');
    expect((await svc.exited).code).toBe(0);
  }, 120_000);
});

describe('Health', () => {
  it.each([
    ['every check passes', [() => Promise.resolve('fine')], true, []],
    [
      'a check throws',
      [() => Promise.resolve('fine'), () => Promise.reject(new Error('db down'))],
      false,
      ['c1'],
    ],
    ['a check never answers', [() => new Promise(() => undefined)], false, ['c0']],
  ])('reports readiness when %s', async (_, checks, ready, failing) => {
    const health = new Health({ checkTimeoutMs: 50 });
    checks.forEach((c, i) => health.addCheck(`c${i}`, c));
    const report = await health.readiness();
    expect(report.ready).toBe(ready);
    expect(readinessBody(report).failing).toEqual(failing);
  });

  it('is not ready once shutting down, without running the checks', async () => {
    const health = new Health();
    let ran = false;
    health.addCheck('db', () => {
      ran = true;
    });
    health.setShuttingDown();
    const report = await health.readiness();
    expect(report).toMatchObject({ ready: false, shuttingDown: true });
    expect(readinessBody(report).failing).toEqual([SHUTDOWN_CHECK]);
    expect(ran).toBe(false);
  });

  it('names the probe requests, whatever their query', () => {
    const health = new Health({ livePath: '/live', readyPath: '/ready' });
    expect(['/live', '/ready?verbose=1', '/live?'].map((url) => health.isHealthRequest({ url }))).toEqual([
      true,
      true,
      true,
    ]);
    expect(['/liveness', '/photos/1', '/', ''].map((url) => health.isHealthRequest({ url }))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it.each([
    [{ livePath: 'health' }, /livePath/],
    [{ readyPath: '/r?x' }, /readyPath/],
    [{ livePath: '/h', readyPath: '/h' }, /differ/],
    [{ checkTimeoutMs: 0 }, /checkTimeoutMs/],
  ])('refuses bad options %p', (options, message) => {
    expect(() => new Health(options)).toThrow(message);
  });

  it('refuses two checks of one name', () => {
    const health = new Health().addCheck('db', () => undefined);
    expect(() => health.addCheck('db', () => undefined)).toThrow(/exists already/);
  });
});
