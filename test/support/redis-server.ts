/**
 * A real `redis-server` for tests, on a free loopback port with no persistence: the jest global setup runs
 * one for the whole suite (`SVC_TEST_REDIS_URL`), and tests that stop and restart Redis run their own.
 * Needs Debian's `redis-server` package (tested with 7.0); {@link ensureRedisServer} installs it when it can.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianCommand } from './debian-package';

export const REDIS_SERVER_PACKAGE = "Debian/Ubuntu package 'redis-server' (tested with Redis 7.0)";

/** Finds `redis-server`, installing it with apt-get when it is missing (as root, or with `sudo -n`). */
export function ensureRedisServer(): string {
  const found = ensureDebianCommand('redis-server', 'redis-server');
  if (found !== undefined) return found;
  throw new Error(
    `The queue tests need a real redis-server and none is installed (installing it failed). ` +
      `Install the ${REDIS_SERVER_PACKAGE}: sudo apt-get install -y redis-server`,
  );
}

/** A free TCP port on 127.0.0.1 (free when asked: another process may take it, so callers retry). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Sends PING on a fresh socket; true on `+PONG`. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('error', () => done(false));
    sock.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
    sock.once('connect', () => sock.write('PING\r\n'));
  });
}

/** One redis-server process that can be stopped and started again on the same port. */
export class RedisServer {
  readonly port: number;
  readonly url: string;
  readonly #bin: string;
  readonly #dir: string;
  #child: ChildProcess | undefined;
  #output = '';

  private constructor(bin: string, port: number) {
    this.#bin = bin;
    this.port = port;
    this.url = `redis://127.0.0.1:${port}`;
    this.#dir = mkdtempSync(path.join(os.tmpdir(), 'svc-redis-'));
  }

  /** Starts a server on a free port and waits until it answers PING. */
  static async start(): Promise<RedisServer> {
    const bin = ensureRedisServer();
    let lastError: unknown;
    for (let tries = 0; tries < 5; tries++) {
      const server = new RedisServer(bin, await freePort());
      try {
        await server.restart();
        return server;
      } catch (err) {
        lastError = err;
        await server.stop();
      }
    }
    throw lastError;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the server again (after {@link stop}) on the same port. */
  async restart(): Promise<void> {
    if (this.#child !== undefined) return;
    this.#output = '';
    const child = spawn(
      this.#bin,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
        '--dir',
        this.#dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    const keep = (d: Buffer): void => {
      this.#output = (this.#output + d.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let exited = false;
    child.once('exit', () => {
      exited = true;
      if (this.#child === child) this.#child = undefined;
    });
    const until = Date.now() + 10_000;
    while (!(await ping(this.port))) {
      if (exited || Date.now() > until) {
        child.kill('SIGKILL');
        this.#child = undefined;
        throw new Error(`redis-server on port ${this.port} did not start:\n${this.#output}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Stops the server (SIGKILL: nothing is saved anyway) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    this.#child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** Stops the server and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  /**
   * {@link dispose} for a process that is exiting (no event loop left): the server killed and its directory
   * removed at once. A jest run cut short (its output's reader gone, a signal) never reaches the global
   * teardown: only killing the server there left its empty directory in the temp dir.
   */
  disposeNow(): void {
    const child = this.#child;
    this.#child = undefined;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // redis writes nothing there (no snapshots, no append-only file): the directory can go at once
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
