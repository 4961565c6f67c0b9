/**
 * Ports, the first thing a new user trips over: the example service on a busy port says what happened and
 * how to choose another (`PORT`), and the example client follows `PORT` (and `BASE_URL`) to the service.
 * Each runs as its own process, as a user starts it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createExampleApp } from '../../examples/app';
import { SAMPLE_IMAGE, exampleBaseUrl } from '../../examples/client';
import { listenFailureMessage, portFrom } from '../../examples/server';
import { tempDirs } from '../support/temp-dirs';

const ROOT = path.join(__dirname, '../..');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs an example script from sources, as the README says to, with extra environment variables. */
const downloads = tempDirs('svc-example-downloads-');

function runExample(script: string, env: Readonly<Record<string, string>>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', script], {
      cwd: ROOT,
      // the client saves the image it downloads there (a directory of this file's, removed after it)
      env: { ...process.env, BASE_URL: '', DOWNLOAD_DIR: downloads(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A loopback server holding a port, as another service on it would. */
async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the example service on a busy port', () => {
  it('says the port is in use and how to pick another, without a stack trace, and exits 1', async () => {
    const held = await holdPort();
    try {
      const r = await runExample('examples/server.ts', { PORT: String(held.port), HOST: '127.0.0.1' });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `Cannot start the photo library: port ${held.port} on 127.0.0.1 is already in use (another \`npm start\`, or another service).\n` +
          'Start it on another port with PORT, e.g. `PORT=8081 npm start` (PORT=0 picks a free one); the client takes the same PORT.\n',
      );
    } finally {
      await held.release();
    }
  }, 30_000);

  it('refuses a PORT that is not a port number, saying what it takes', async () => {
    const r = await runExample('examples/server.ts', { PORT: 'eighty' });
    expect([r.code, r.stderr]).toEqual([
      1,
      "PORT must be a port number (0-65535; 0 picks a free one), got 'eighty'.\n",
    ]);
    expect([portFrom(undefined), portFrom(''), portFrom('0'), portFrom('65535')]).toEqual([
      8080, 8080, 0, 65535,
    ]);
    expect([portFrom('65536'), portFrom('-1'), portFrom('80.5'), portFrom(' 80')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  }, 30_000);

  it('leaves other listen failures to their stack trace', () => {
    expect(listenFailureMessage(new Error('boom'), '127.0.0.1', 8080)).toBeUndefined();
    expect(
      listenFailureMessage(Object.assign(new Error('x'), { code: 'EADDRINUSE' }), '127.0.0.1', 8081),
    ).toContain('e.g. `PORT=8082 npm start`');
  });
});

describe('the example client', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = await createExampleApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
  });

  it('calls the service on the port in PORT, as npm start listens on it', async () => {
    const r = await runExample('examples/client.ts', { PORT: String(port) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('photo 1: Sunrise over the bay (JPEG)\n');
    expect(r.stdout).toContain('album 404: 404 ');
    // it uploads the sample image from disk, follows the photo to READY and downloads the image to a file
    expect(r.stdout).toMatch(/^uploaded photo \d+: PENDING, job [\w-]+$/m);
    expect(r.stdout).toMatch(/^photo \d+ is READY$/m);
    const saved = /^downloaded cid:\S+ \(attachment \S+\) to (.+)$/m.exec(r.stdout);
    expect(saved).not.toBeNull();
    expect(readFileSync(saved![1]!)).toEqual(readFileSync(SAMPLE_IMAGE));
  }, 30_000);

  it('calls BASE_URL when it is set, whatever PORT says', async () => {
    const r = await runExample('examples/client.ts', {
      BASE_URL: `http://127.0.0.1:${port}`,
      PORT: '1',
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('photo 1: Sunrise over the bay (JPEG)\n');
  }, 30_000);

  it('says to start the service (and how to point at it) when nothing answers', async () => {
    const held = await holdPort();
    await held.release(); // a port nothing listens on
    const r = await runExample('examples/client.ts', { PORT: String(held.port) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Nothing answers at http://127.0.0.1:${held.port}: start the example service with \`npm start\` ` +
        '(if it runs on another port, set PORT to it here too, or BASE_URL).\n',
    );
  }, 30_000);

  it('targets http://127.0.0.1:8080 by default', () => {
    expect(exampleBaseUrl({})).toBe('http://127.0.0.1:8080');
    expect(exampleBaseUrl({ PORT: '9090' })).toBe('http://127.0.0.1:9090');
    expect(exampleBaseUrl({ PORT: '9090', BASE_URL: 'http://svc.internal:80' })).toBe(
      'http://svc.internal:80',
    );
  });
});

describe('stopping npm start', () => {
  jest.setTimeout(120_000);

  /** `npm start` on a free port, resolved once it printed its pid; `exited` resolves with npm's exit code. */
  async function npmStart(): Promise<{ npmPid: number; serverPid: number; exited: Promise<number | null> }> {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', REDIS_URL: '', SVC_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let out = '';
    const serverPid = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /\(pid (\d+); Ctrl-C or `kill \1` stops it\)/.exec(out);
        if (m !== null) resolve(Number(m[1]));
      });
      void exited.then(() => reject(new Error(`npm start ended before it listened:\n${out}`)));
    });
    return { npmPid: child.pid!, serverPid, exited };
  }

  function alive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  async function gone(pid: number): Promise<void> {
    for (let i = 0; i < 1000 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  }

  it.each([
    ['the pid the server prints', (p: { serverPid: number }) => p.serverPid],
    ["npm's own pid", (p: { npmPid: number }) => p.npmPid],
  ])('ends the server and npm on kill of %s', async (_which, pidOf) => {
    const started = await npmStart();
    expect(started.serverPid).not.toBe(started.npmPid);
    process.kill(pidOf(started), 'SIGTERM');
    await gone(started.serverPid);
    await started.exited;
    await gone(started.npmPid);
  });
});
