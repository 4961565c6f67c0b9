import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import * as net from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/**
 * `svc serve` (or any entry point) as a real process group: started detached, its output kept, waited on by
 * the lines it prints (never by sleeping), and killed whole by {@link killAll} in `afterAll`/`afterEach`.
 */
export class ServiceProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output = '';
  port = 0;
  readonly #waiters: Array<{ re: RegExp; resolve: (m: RegExpExecArray) => void }> = [];

  private constructor(args: readonly string[], env: Readonly<Record<string, string>>) {
    this.child = spawn(process.execPath, ['-r', '@swc-node/register', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // a process group of its own: the runner and its workers die together in killAll
    });
    LIVE.add(this);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        LIVE.delete(this);
        resolve({ code, signal });
      }),
    );
    const read = (d: Buffer): void => {
      this.output += d.toString();
      for (const w of [...this.#waiters]) {
        const m = w.re.exec(this.output);
        if (m !== null) {
          this.#waiters.splice(this.#waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    };
    this.child.stdout!.on('data', read);
    this.child.stderr!.on('data', read);
  }

  /** `svc serve <args>` from sources; resolves once it prints where it listens. */
  static async serve(
    args: readonly string[],
    env: Readonly<Record<string, string>> = {},
  ): Promise<ServiceProcess> {
    const p = new ServiceProcess([join(ROOT, 'src/cli/run.ts'), 'serve', '--port', '0', ...args], env);
    const m = await p.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/, 60_000);
    p.port = Number(m[1]);
    return p;
  }

  /** Any entry point (the example's server.ts); call {@link waitFor} for its banner. */
  static run(args: readonly string[], env: Readonly<Record<string, string>> = {}): ServiceProcess {
    return new ServiceProcess(args, env);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resolves when the output matches `re` (from the start); rejects on exit or after `ms`. */
  waitFor(re: RegExp, ms = 30_000): Promise<RegExpExecArray> {
    const now = re.exec(this.output);
    if (now !== null) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${String(re)} within ${ms} ms; output:\n${this.output}`)),
        ms,
      );
      const waiter = {
        re,
        resolve: (m: RegExpExecArray) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.#waiters.push(waiter);
      void this.exited.then(({ code, signal }) => {
        if (!this.#waiters.includes(waiter)) return;
        clearTimeout(timer);
        reject(new Error(`exited (${String(code ?? signal)}) before ${String(re)}; output:\n${this.output}`));
      });
    });
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

const LIVE = new Set<ServiceProcess>();

/** Kills every process group started here that is still running (afterAll/afterEach). */
export function killAll(): void {
  for (const p of LIVE) {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** One answer, read whole. */
export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A request on a fresh connection (no keep-alive), read to the end. */
export function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // an answer that never comes is a failure to report, not a test that hangs
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to GET ${path} within 20 s`)));
    req.end();
  });
}

/** Resolves true when something accepts a connection on the port, false when it is refused. */
export function accepting(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNREFUSED' ? resolve(false) : reject(err),
    );
  });
}
