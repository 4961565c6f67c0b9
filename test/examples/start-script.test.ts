/**
 * `npm start` as a user runs it: the real `npm start` process (npm, its shell, the generate step, the
 * server), a SIGTERM to the PID the user started, and the port free afterwards. npm forwards SIGTERM to
 * the shell running the script; the script ends in `exec node ...`, so that shell has become the server
 * (dash, Debian's sh, does not exec a script's last command by itself, and a shell killed by SIGTERM
 * leaves its node child listening). A closed terminal sends SIGHUP to the whole process group: npm dies of
 * it without passing anything on, and the server stops as on SIGTERM (its default action would end it
 * without its shutdown, leaving the example's temp directory behind).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { tempDirs } from '../support/temp-dirs';

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

const tempDir = tempDirs('svc-start-script-');

/** Resolves once no process has the pid (polled: it is not our child, so there is no exit event). */
async function gone(pid: number, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each([
  { signal: 'SIGTERM', to: 'the process npm start began', group: false },
  { signal: 'SIGHUP', to: 'its process group (a closed terminal)', group: true },
] as const)('npm start, $signal to $to', ({ signal, group }) => {
  it('ends the server, frees its port and leaves nothing in the temp directory', async () => {
    const tmp = tempDir();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so that afterEach can clean up after a failure
    });
    npm = child;
    let output = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const [port, pid] = await new Promise<[number, number]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${output}`)), 60_000);
      const read = (d: Buffer): void => {
        output += d.toString();
        const m = /Photo library listening on http:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)/.exec(output);
        if (m !== null) {
          clearTimeout(timer);
          resolve([Number(m[1]), Number(m[2])]);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then(() => reject(new Error(`npm start exited early:\n${output}`)));
    });
    expect(await listening(port)).toBe(true);
    // the example keeps its uploads' blobs in a directory of its own under the temp directory
    expect(readdirSync(tmp).some((name) => name.startsWith('svc-example-'))).toBe(true);

    if (group) process.kill(-child.pid!, signal);
    else child.kill(signal);
    const ended = await exited;
    if (!group) expect(ended.code === 0 || ended.signal === signal).toBe(true);
    await gone(pid);
    expect(await listening(port)).toBe(false);
    expect(readdirSync(tmp).filter((name) => name.startsWith('svc-example-'))).toEqual([]);
    expect(output).toMatch(new RegExp(`${signal}: shutting down`));
  }, 90_000);
});
