import fs from 'node:fs';

/**
 * A buffered, asynchronous writer of log lines: lines are kept in memory and written in blocks of
 * `blockBytes` (default 64 KiB), or `flushMs` (default 200) after the first line of a block, one write at a
 * time, off the request path; whatever is left is written synchronously when the process exits. It
 * replaces pino's asynchronous destination (sonic-boom) for the access log: sonic-boom measures the
 * whole pending block (`Buffer.byteLength`) on every line, ~4 µs a line at 16 KiB pending here, which was
 * most of the access log's cost; this writer counts each line once.
 */

/** Options of {@link LineWriter}. */
export interface LineWriterOptions {
  /** Bytes (UTF-16 units) gathered before a write. Default 65 536. */
  readonly blockBytes?: number;
  /** Milliseconds a line may wait for its block to fill. Default 200. */
  readonly flushMs?: number;
}

/** A buffered, asynchronous writer of log lines to a file descriptor (see the module comment for why). */
export class LineWriter {
  readonly #fd: number;
  readonly #ownsFd: boolean;
  readonly #blockBytes: number;
  /**
   * Most bytes per write on a pipe or socket (stdout under a process manager, a container runtime): POSIX
   * keeps a write of up to PIPE_BUF (4 KiB on Linux) to a pipe whole, a larger one may interleave with
   * another process's writes (the runner's workers share stdout), which would cut lines. Writes there
   * carry whole lines up to 4 KiB; files (opened to append) take whole blocks.
   */
  readonly #maxWrite: number;
  readonly #flushMs: number;
  #pending: string[] = [];
  #pendingBytes = 0;
  #writing = false;
  #timer: NodeJS.Timeout | undefined;
  #waiters: Array<() => void> = [];
  #closed = false;
  readonly #onExit = (): void => this.flushSync();

  /** `destination`: a file descriptor (1 for stdout), or a path (appended to, created if missing). */
  constructor(destination: number | string, options: LineWriterOptions = {}) {
    if (typeof destination === 'number') {
      this.#fd = destination;
      this.#ownsFd = false;
    } else {
      this.#fd = fs.openSync(destination, 'a');
      this.#ownsFd = true;
    }
    this.#blockBytes = options.blockBytes ?? 65_536;
    let shared = false;
    try {
      const st = fs.fstatSync(this.#fd);
      shared = st.isFIFO() || st.isSocket();
    } catch {
      // not a descriptor we can look at: whole blocks
    }
    this.#maxWrite = shared ? PIPE_BUF : Infinity;
    this.#flushMs = options.flushMs ?? 200;
    process.on('exit', this.#onExit);
  }

  /** Queues `text` (whole lines, each ending in `\n`). */
  write(text: string): boolean {
    if (this.#closed) return false;
    this.#pending.push(text);
    this.#pendingBytes += text.length;
    if (this.#pendingBytes >= this.#blockBytes) this.#writeBlock();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#writeBlock();
      }, this.#flushMs);
      this.#timer.unref();
    }
    return true;
  }

  /** Resolves (and calls `cb`, as pino's `logger.flush` expects) once every line queued so far is written. */
  flush(cb?: (err?: Error) => void): Promise<void> {
    const done =
      this.#pending.length === 0 && !this.#writing
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.#waiters.push(resolve);
            this.#writeBlock();
          });
    if (cb !== undefined) void done.then(() => cb());
    return done;
  }

  /** Writes what is queued now, synchronously (at exit; a block being written asynchronously goes first). */
  flushSync(): void {
    try {
      while (this.#pending.length > 0) writeAllSync(this.#fd, Buffer.from(this.#take()));
    } catch {
      // nowhere left to report it
    }
  }

  /** Flushes, then stops (and closes a file it opened). */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.flush();
    this.#closed = true;
    process.off('exit', this.#onExit);
    if (this.#ownsFd) fs.closeSync(this.#fd);
  }

  /** The pending lines, or on a pipe as many whole lines as fit in one atomic write (the rest stay). */
  #take(): string {
    let text: string;
    if (this.#maxWrite === Infinity || this.#pendingBytes * 3 <= this.#maxWrite) {
      text = this.#pending.join('');
      this.#pending = [];
      this.#pendingBytes = 0;
    } else {
      let n = 0;
      let bytes = 0;
      const lines = this.#pending;
      while (n < lines.length) {
        const b = Buffer.byteLength(lines[n]!);
        if (n > 0 && bytes + b > this.#maxWrite) break;
        bytes += b;
        n++;
      }
      text = lines.slice(0, n).join('');
      this.#pending = lines.slice(n);
      this.#pendingBytes -= text.length;
      if (this.#pending.length > 0) return text;
    }
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    return text;
  }

  #writeBlock(): void {
    if (this.#writing) return;
    if (this.#pending.length === 0) {
      for (const w of this.#waiters.splice(0)) w();
      return;
    }
    this.#writing = true;
    this.#writeBuffer(Buffer.from(this.#take()));
  }

  #writeBuffer(buf: Buffer): void {
    fs.write(this.#fd, buf, 0, buf.length, null, (err, written) => {
      if (err !== null && err.code === 'EAGAIN') {
        // a non-blocking pipe that is full (stdout read slowly): try again shortly
        setTimeout(() => this.#writeBuffer(buf), 10).unref();
        return;
      }
      if (err === null && written < buf.length) {
        this.#writeBuffer(buf.subarray(written));
        return;
      }
      this.#writing = false;
      // a failed write loses its block (the log must not stop the service), the next ones go on
      this.#writeBlock();
    });
  }
}

const PIPE_BUF = 4096;

function writeAllSync(fd: number, buf: Buffer): void {
  let off = 0;
  for (let tries = 0; off < buf.length && tries < 1000; tries++) {
    try {
      off += fs.writeSync(fd, buf, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    }
  }
}
