import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

const ROOT = join(__dirname, '../..');

/**
 * Runs the `svc` command from sources in a real child process, feeding `stdin`. `env` adds variables to the
 * child's environment (pass them here: jest gives each test file its own copy of `process.env`).
 */
export function runCli(
  args: readonly string[],
  stdin?: Uint8Array | string,
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(ROOT, 'src/cli/run.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.end(stdin === undefined ? undefined : Buffer.from(stdin));
  });
}
