import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { withCliIo } from '../../src/cli/io';
import { main } from '../../src/cli/main';

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

/**
 * Runs the `svc` command in this process (`main` with its streams redirected by `withCliIo`): the same
 * program as {@link runCli} without a process start per command, which the CLI tables cannot afford.
 * `env` is set on `process.env` for the run and restored after; runs do not overlap within a test file.
 * A failure `main` throws is reported as the process entry (src/cli/run.ts) reports it: exit code 70.
 * test/cli/process.test.ts keeps the real-process path (exit codes, binary stdin and stdout) covered.
 */
export async function runCliInProcess(
  args: readonly string[],
  stdin?: Uint8Array | string,
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> {
  const out: Buffer[] = [];
  let err = '';
  const input = stdin === undefined ? [] : [Buffer.from(stdin)];
  const saved = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const code = await withCliIo(
      {
        stdin: toAsync(input),
        writeOut: (data) => {
          out.push(Buffer.from(data));
          return Promise.resolve();
        },
        writeErr: (text) => {
          err += text;
        },
      },
      () => main(['node', 'svc', ...args]),
    ).catch((e: unknown) => {
      err += `svc: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
      return 70;
    });
    return { code, stdout: Buffer.concat(out), stderr: err };
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

function toAsync(chunks: readonly Uint8Array[]): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        next: () =>
          Promise.resolve(
            i < chunks.length ? { done: false, value: chunks[i++]! } : { done: true, value: undefined },
          ),
      };
    },
  };
}
