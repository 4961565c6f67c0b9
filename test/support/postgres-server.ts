/**
 * A real PostgreSQL server for tests (issue 27): `initdb` in a temp directory, `postgres` on a free
 * loopback port with durability off (fsync, full-page writes: nothing a test needs survives a crash), and
 * everything stopped and removed by {@link PostgresServer.dispose}. One server for the whole jest run
 * (scripts/postgres-for-tests.ts, when the run includes a file that needs it), else one per test file
 * ({@link postgresForTests}); each file makes the databases it needs (`createDatabase`). Never Docker.
 *
 * Needs Debian's `postgresql` package (tested with 15); {@link ensurePostgres} installs it when it can. As
 * root (the CI machines), the server runs as the package's `postgres` user: PostgreSQL refuses root.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './redis-server';

export const POSTGRES_PACKAGE = "Debian/Ubuntu package 'postgresql' (tested with PostgreSQL 15)";

/** The directory of `initdb` and `postgres`, installing the package with apt-get when it is missing. */
export function ensurePostgres(): string {
  const found = postgresBin();
  if (found !== undefined) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const install = root ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-q'],
    ['install', '-y', '-q', 'postgresql'],
  ]) {
    const r = spawnSync(install[0]!, [...install.slice(1), ...args], { stdio: 'ignore', env });
    if (r.status !== 0) break;
  }
  const after = postgresBin();
  if (after !== undefined) return after;
  throw new Error(
    `The PostgreSQL tests need a real PostgreSQL and none is installed (installing it failed). ` +
      `Install the ${POSTGRES_PACKAGE}: sudo apt-get install -y postgresql`,
  );
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : path.join(root, versions[0]!, 'bin');
}

/** The uid and gid to run as: the `postgres` user when we are root, else ourselves. */
function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error('Running as root, and there is no postgres user to run PostgreSQL as');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** One PostgreSQL server (user `svc`, trust authentication on loopback). */
export class PostgresServer {
  readonly port: number;
  readonly #dir: string;
  readonly #child: ChildProcess;
  #output = '';
  #stopped: Promise<void> | undefined;

  private constructor(dir: string, port: number, child: ChildProcess) {
    this.#dir = dir;
    this.port = port;
    this.#child = child;
    const keep = (d: Buffer): void => {
      this.#output = (this.#output + d.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** A connection string for `database` (default `postgres`). */
  url(database = 'postgres'): string {
    return `postgres://svc@127.0.0.1:${this.port}/${database}`;
  }

  /** The server's process id (the postmaster). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Runs `initdb`, starts the server on a free port and waits until it takes connections. */
  static async start(): Promise<PostgresServer> {
    const bin = ensurePostgres();
    const user = runAs();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-postgres-'));
    if (user !== undefined) chownSync(dir, user.uid, user.gid);
    const data = path.join(dir, 'data');
    const init = spawnSync(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', 'svc', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
      { encoding: 'utf8', ...(user ?? {}) },
    );
    if (init.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`initdb failed:\n${init.stderr}`);
    }
    let lastError: unknown;
    for (let tries = 0; tries < 5; tries++) {
      const port = await freePort();
      const child = spawn(
        path.join(bin, 'postgres'),
        [
          ['-D', data],
          ['-p', String(port)],
          ['-k', dir],
          ['-c', 'listen_addresses=127.0.0.1'],
          ['-c', 'fsync=off'],
          ['-c', 'synchronous_commit=off'],
          ['-c', 'full_page_writes=off'],
          ['-c', 'max_connections=60'],
          ['-c', 'shared_buffers=32MB'],
        ].flat(),
        { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) },
      );
      const server = new PostgresServer(dir, port, child);
      try {
        await server.#ready();
        return server;
      } catch (err) {
        lastError = err;
        await server.#stop();
      }
    }
    rmSync(dir, { recursive: true, force: true });
    throw lastError;
  }

  async #ready(): Promise<void> {
    let exited = false;
    this.#child.once('exit', () => {
      exited = true;
    });
    const until = Date.now() + 20_000;
    for (;;) {
      const client = new Client({ connectionString: this.url() });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
      }
      if (exited || Date.now() > until)
        throw new Error(`postgres on port ${this.port} did not start:\n${this.#output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Creates a database of that name (dropping one there already) and answers its connection string. */
  createDatabase(name: string): Promise<string> {
    return createDatabase(this.port, name);
  }

  /** Immediate shutdown (SIGQUIT: backends end at once, nothing is kept) and wait for the exit. */
  #stop(): Promise<void> {
    this.#stopped ??= new Promise<void>((resolve) => {
      const child = this.#child;
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGQUIT');
    });
    return this.#stopped;
  }

  /** Stops the server and removes its directory. */
  async dispose(): Promise<void> {
    await this.#stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  /**
   * Synchronously, for a process that is exiting (no event loop left to wait with): immediate shutdown, a
   * bounded wait for the postmaster to be gone (it waits for its backends), then its directory removed.
   * Removing the directory while backends still wrote to it left it behind.
   */
  disposeNow(): void {
    const pid = this.#child.pid;
    if (pid !== undefined && this.#child.exitCode === null && this.#child.signalCode === null) {
      this.#child.kill('SIGQUIT');
      // gone, or a zombie (exited; this process reaps it only after the handler)
      const gone = `[ ! -e /proc/${pid} ] || [ "$(awk '{print $3}' /proc/${pid}/stat)" = Z ]`;
      spawnSync('sh', ['-c', `until ${gone}; do sleep 0.05; done`], { timeout: 10_000 });
      if (this.#child.exitCode === null) this.#child.kill('SIGKILL');
    }
    rmSync(this.#dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** What a test file uses of its PostgreSQL: its own databases on it. */
export interface TestPostgres {
  readonly port: number;
  /** A connection string for `database` (default `postgres`). */
  url(database?: string): string;
  /** Creates a database of that name (dropping one there already) and answers its connection string. */
  createDatabase(name: string): Promise<string>;
}

/**
 * The environment variable the jest global setup sets to the port of the suite's one PostgreSQL
 * (scripts/postgres-for-tests.ts), for the test files to make their databases on.
 */
export const SHARED_POSTGRES_ENV = 'SVC_TEST_POSTGRES_PORT';

async function createDatabase(port: number, name: string): Promise<string> {
  const client = new Client({ connectionString: `postgres://svc@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return `postgres://svc@127.0.0.1:${port}/${name}`;
}

/** The suite's server, started by the global setup: this file only makes databases on it. */
class SharedPostgres implements TestPostgres {
  constructor(readonly port: number) {}

  url(database = 'postgres'): string {
    return `postgres://svc@127.0.0.1:${this.port}/${database}`;
  }

  createDatabase(name: string): Promise<string> {
    return createDatabase(this.port, name);
  }
}

/**
 * The PostgreSQL of the calling test file, on which it makes its own databases (each file its own names):
 * the suite's one server when the jest global setup started it (scripts/postgres-for-tests.ts: an initdb
 * and a start for the run, not one per file), else a server of the file's own, started in `beforeAll` and
 * disposed in `afterAll`. The getter throws before `beforeAll` has run.
 */
export function postgresForTests(): () => TestPostgres {
  let server: TestPostgres | undefined;
  let own: PostgresServer | undefined;
  beforeAll(async () => {
    const shared = Number(process.env[SHARED_POSTGRES_ENV]);
    if (Number.isInteger(shared) && shared > 0) server = new SharedPostgres(shared);
    else server = own = await PostgresServer.start();
  }, 60_000);
  afterAll(async () => {
    await own?.dispose();
    own = undefined;
    server = undefined;
  });
  return () => {
    if (server === undefined) throw new Error('the PostgreSQL server starts in beforeAll');
    return server;
  };
}
