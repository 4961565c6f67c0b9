/**
 * `svc worker` as real processes against the suite's redis-server: a worker killed mid-job (SIGKILL) has
 * its job finished by another, once in effect and with its blobs intact; SIGTERM lets the running job
 * finish and exits 0; bad invocations fail with a usage error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttachmentQueue, BullMqDriver, FileBlobStore } from '../../src/queue';
import { runCli } from '../support/run-cli';
import { readerOf, sha256, waitForState } from './support/driver-behaviour';

const ROOT = path.join(__dirname, '../..');
const PROCESSORS = path.join(__dirname, 'fixtures/worker-processors.ts');

function redisUrl(): string {
  const url = process.env.SVC_TEST_REDIS_URL;
  if (url === undefined) throw new Error('SVC_TEST_REDIS_URL is not set: the jest global setup starts Redis');
  return url;
}

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

function startWorker(args: readonly string[]): WorkerProcess {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', path.join(ROOT, 'src/cli/run.ts'), 'worker', ...args],
    { cwd: ROOT, env: { ...process.env, REDIS_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stderr: () => err };
}

/** Waits (bounded) until `check` holds. */
async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('svc worker processes', () => {
  let dir: string;
  let blobDir: string;
  let outDir: string;
  let queueName: string;
  let queue: AttachmentQueue;
  const workers: WorkerProcess[] = [];

  function worker(): WorkerProcess {
    const w = startWorker([
      '--processors',
      PROCESSORS,
      '--redis',
      redisUrl(),
      '--blob-dir',
      blobDir,
      '--queue',
      queueName,
      '--lock-duration',
      '1500',
      '--stalled-interval',
      '500',
      '--shutdown-timeout',
      '20000',
    ]);
    workers.push(w);
    return w;
  }

  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'svc-worker-'));
    blobDir = path.join(dir, 'blobs');
    outDir = path.join(dir, 'out');
    await fsp.mkdir(outDir);
    queueName = `w-${randomUUID()}`;
    queue = new AttachmentQueue({
      blobs: await FileBlobStore.open({ dir: blobDir }),
      driver: new BullMqDriver({ connection: redisUrl(), queueName }),
    });
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await w.exited;
    }
    await queue.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('finishes the job of a worker killed mid-job in another worker, once in effect, with its blobs intact', async () => {
    const bytes = Buffer.alloc(200_000, 3);
    const job = await queue.enqueue('record', readerOf([['img', bytes]]), { outDir, hold: true });
    const first = worker();
    const started = (pid: number | undefined): boolean =>
      existsSync(path.join(outDir, `${job.id}.started.${pid}`));
    await until('the first worker to start the job', () => started(first.child.pid));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(existsSync(path.join(outDir, `${job.id}.json`))).toBe(false);

    await fsp.writeFile(path.join(outDir, 'release'), '');
    const second = worker();
    const done = await waitForState(queue, job.id, ['COMPLETED', 'FAILED'], 60_000);
    expect(done).toMatchObject({
      state: 'COMPLETED',
      result: { sha256: [sha256(bytes)], pid: second.child.pid },
    });
    expect(started(second.child.pid)).toBe(true);
    const files = (await fsp.readdir(outDir)).filter((f) => f.endsWith('.json') || f.endsWith('.tmp'));
    expect(files).toEqual([`${job.id}.json`]);
    expect(JSON.parse(await fsp.readFile(path.join(outDir, `${job.id}.json`), 'utf8'))).toEqual(done.result);
    // the blob outlived the crash, and is removed once the job is done
    await until(
      'the blob to be removed',
      async () => (await fsp.readdir(path.join(blobDir, 'blobs'))).length === 0,
    );
  });

  it('on SIGTERM, lets the running job finish, then exits 0', async () => {
    const w = worker();
    const job = await queue.enqueue('record', readerOf([['a', Buffer.from('abc')]]), { outDir, hold: true });
    await until('the worker to start the job', () =>
      existsSync(path.join(outDir, `${job.id}.started.${w.child.pid}`)),
    );
    w.child.kill('SIGTERM');
    await until('the worker to take the signal', () => w.stderr().includes('finishing running jobs'));
    expect(w.child.exitCode).toBeNull();
    expect((await queue.get(job.id)).state).toBe('ACTIVE');
    await fsp.writeFile(path.join(outDir, 'release'), '');
    expect(await w.exited).toEqual({ code: 0, signal: null });
    expect(await queue.get(job.id)).toMatchObject({
      state: 'COMPLETED',
      result: { sha256: [sha256(Buffer.from('abc'))] },
    });
    expect(w.stderr()).toMatch(/svc worker: stopped/);
  });

  it.each([
    ['without Redis', ['--processors', PROCESSORS], /needs Redis: give --redis/],
    [
      'with a processors module that is not there',
      ['--processors', 'nope/missing.js', '--redis', 'redis://127.0.0.1:1'],
      /no such module/,
    ],
    [
      'with a processors module of the wrong shape',
      ['--processors', path.join(__dirname, 'fixtures/not-processors.ts'), '--redis', 'redis://127.0.0.1:1'],
      /export a function \(queue\) => void, or an object of processor functions/,
    ],
  ])('refuses to start %s (exit 2)', async (_what, args, message) => {
    const r = await runCli(['worker', ...args], undefined, { REDIS_URL: '' });
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });

  it('documents the processors module and the shared blob directory in --help', async () => {
    const r = await runCli(['worker', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toMatch(/object of processors by job name/);
    expect(r.stdout.toString()).toMatch(/blob directory must be the service's own/);
  });
});
