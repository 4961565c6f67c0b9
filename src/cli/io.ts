import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';

/**
 * Where a CLI run reads standard input and writes its output and diagnostics. The process's own streams
 * by default; a program embedding the CLI (and the test suite, which runs hundreds of commands and cannot
 * pay a process start for each) runs `main` inside {@link withCliIo} with streams of its own.
 */
export interface CliIo {
  readonly stdin: AsyncIterable<Uint8Array>;
  /** Writes to standard output; resolves once the bytes are handed on. */
  writeOut(data: Uint8Array | string): Promise<void>;
  /** Writes a diagnostic line (or help text) to standard error. */
  writeErr(text: string): void;
}

const PROCESS_IO: CliIo = {
  get stdin() {
    return process.stdin;
  },
  writeOut: (data) =>
    new Promise((resolve, reject) => {
      process.stdout.write(data, (err) => (err ? reject(err) : resolve()));
    }),
  writeErr: (text) => {
    process.stderr.write(text);
  },
};

// AsyncLocalStorage rather than a module variable: two embedded runs may overlap
const current = new AsyncLocalStorage<CliIo>();

/** Runs `fn` (a `main(argv)` call) with the given streams instead of the process's. */
export function withCliIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  return current.run(io, fn);
}

let pipeHandled = false;

/**
 * When the CLI writes to the process's own streams: a reader that stops reading (`svc serve --help | head`)
 * closes the pipe, and Node reports the next write as an unhandled EPIPE error with a stack. The output was
 * wanted no further, so the process ends quietly (exit 0), as `git log | head` does.
 */
export function endQuietlyOnClosedPipe(): void {
  if (pipeHandled || current.getStore() !== undefined) return;
  pipeHandled = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
}

/** The streams of the run in progress. */
export function cliIo(): CliIo {
  return current.getStore() ?? PROCESS_IO;
}

/** Reads a whole input: a file path, or standard input for `-` or no path. */
export async function readInput(path: string | undefined): Promise<Uint8Array> {
  if (path !== undefined && path !== '-') return readFileSync(path);
  const chunks: Uint8Array[] = [];
  for await (const chunk of cliIo().stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Writes bytes or text to standard output and resolves once they are flushed. */
export function writeOutput(data: Uint8Array | string): Promise<void> {
  return cliIo().writeOut(data);
}

/** Writes a diagnostic (a warning, an error line) to standard error. */
export function writeError(text: string): void {
  cliIo().writeErr(text);
}
