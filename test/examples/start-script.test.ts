/**
 * `npm start` as a user runs it: the real `npm start` process (npm, its shell, the generate step, the
 * server), a SIGTERM to the PID the user started, and the port free afterwards. npm forwards SIGTERM to
 * the shell running the script; the script ends in `exec node ...`, so that shell has become the server
 * (dash, Debian's sh, does not exec a script's last command by itself, and a shell killed by SIGTERM
 * leaves its node child listening).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');

let npm: ChildProcess | undefined;

afterEach(() => {
  // the process group npm leads: whatever of it is left when an expectation failed, the server included
  if (npm?.pid !== undefined) {
    try {
      process.kill(-npm.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  npm = undefined;
});

/** Resolves with `true` when something accepts a connection on the port, `false` when it is refused. */
function listening(port: number): Promise<boolean> {
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

describe('npm start', () => {
  it('ends the server, and frees its port, when the process npm start began gets SIGTERM', async () => {
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so that afterEach can clean up after a failure
    });
    npm = child;
    let output = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${output}`)), 60_000);
      const read = (d: Buffer): void => {
        output += d.toString();
        const m = /Photo library listening on http:\/\/127\.0\.0\.1:(\d+) /.exec(output);
        if (m !== null) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then(() => reject(new Error(`npm start exited early:\n${output}`)));
    });
    expect(await listening(port)).toBe(true);

    child.kill('SIGTERM');
    const ended = await exited;
    expect(ended.code === 0 || ended.signal === 'SIGTERM').toBe(true);
    // the server closes before it exits, and npm exits after it: nothing may listen by now
    expect(await listening(port)).toBe(false);
  }, 90_000);
});
