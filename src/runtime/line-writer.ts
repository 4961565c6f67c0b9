import fs from 'node:fs';

/**
 * A buffered, asynchronous writer of log lines: lines are encoded into a block as they come, and the block
 * is written when it holds `blockBytes` (default 64 KiB), or `flushMs` (default 200) after its first line,
 * one write at a time, off the request path; whatever is left is written synchronously when the process exits. It
 * replaces pino's asynchronous destination (sonic-boom) for the access log: sonic-boom measures the
 * whole pending block (`Buffer.byteLength`) on every line, ~4 µs a line at 16 KiB pending here, which was
 * most of the access log's cost; this writer counts each line once.
 */

/** Options of {@link LineWriter}. */
export interface LineWriterOptions {
  /** Bytes gathered before a write. Default 65 536. */
  readonly blockBytes?: number;
  /** Milliseconds a line may wait for its block to fill. Default 200. */
  readonly flushMs?: number;
  /**
   * Most bytes waiting for their write (a destination slower than the lines: a stdout nobody reads, a
   * stalled disk); lines past it are dropped and counted ({@link LineWriter.dropped}, a process warning
   * once per run of drops) rather than held without bound. Default 16 MiB.
   */
  readonly maxQueuedBytes?: number;
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
  /**
   * The block being filled: each line is encoded into it as it comes, so the line's string is garbage at
   * once. Keeping the strings until the block was written (and joining them then) made them survive young
   * collections under load and cost ~2 µs a line in the example's access log (bench/runtime-observe).
   */
  #block: Buffer;
  #used = 0;
  /** On a pipe: where each line of the block ends, to cut it into whole-line writes. */
  #ends: number[] = [];
  /**
   * ASCII lines not yet copied into the block, as one string, copied when it holds {@link PENDING_CHARS}
   * (or before any other line, a seal, a flush): one `Buffer.write` per ~20 access-log lines rather than
   * one each, whose call into C++ was ~1.1k of the ~2.3k instructions a line cost the writer (callgrind,
   * bench/runtime-observe's access-log-standalone case). Few enough lines are held that a young
   * collection seldom finds one alive (holding them for a whole block cost ~2 µs a line: `#block`).
   * Always fits in the block's free space.
   */
  #pending = '';
  /** On a pipe: where each line of `#pending` ends in it. */
  #pendingEnds: number[] = [];
  /** Filled blocks (or, on a pipe, their whole-line pieces) waiting for their write, in order. */
  #queue: Buffer[] = [];
  /** Bytes in `#queue` (a block being written included until its write ends). */
  #queuedBytes = 0;
  readonly #maxQueuedBytes: number;
  #dropped = 0;
  /** Whether lines are being dropped now (one warning per run of drops). */
  #dropping = false;
  #writing = false;
  /**
   * Blocks whose write has ended, kept for the next lines (at most {@link SPARE_BLOCKS}) instead of a new
   * 64 KiB allocation per block: each new one was fresh memory outside the heap (page faults on first
   * touch, and external memory that hastens collections).
   */
  #spare: Buffer[] = [];
  /** The memory of the blocks this writer made (what may go back to `#spare`). */
  readonly #ours = new WeakSet<ArrayBufferLike>();
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
    this.#blockBytes = Math.max(1, options.blockBytes ?? 65_536);
    let shared = false;
    try {
      const st = fs.fstatSync(this.#fd);
      shared = st.isFIFO() || st.isSocket();
    } catch {
      // not a descriptor we can look at: whole blocks
    }
    this.#maxWrite = shared ? PIPE_BUF : Infinity;
    this.#flushMs = options.flushMs ?? 200;
    this.#maxQueuedBytes = options.maxQueuedBytes ?? 16 * 1024 * 1024;
    this.#block = this.#newBlock();
    process.on('exit', this.#onExit);
  }

  /** Lines dropped so far because `maxQueuedBytes` were waiting for their write. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Queues `text` (whole lines, each ending in `\n`); false when closed or dropped (see `maxQueuedBytes`).
   * `ascii`: the caller knows every char of `text` is ASCII, so that it is copied as it is (one byte a char)
   * rather than encoded and measured as UTF-8 (~0.4k instructions less for an access-log line, callgrind).
   */
  write(text: string, ascii = false): boolean {
    if (this.#closed) return false;
    if (this.#queuedBytes > this.#maxQueuedBytes) {
      this.#drop();
      return false;
    }
    if (ascii && this.#used + this.#pending.length + text.length <= this.#block.length) {
      const pending = (this.#pending += text);
      if (this.#maxWrite !== Infinity) this.#pendingEnds.push(pending.length);
      if (pending.length >= PENDING_CHARS) {
        this.#settle();
        if (this.#used >= this.#blockBytes) {
          this.#seal();
          this.#writeNext();
          return true;
        }
      }
      this.#armTimer();
      return true;
    }
    // another line (or one that does not fit) goes after the pending ones
    this.#settle();
    const encoding = ascii ? 'latin1' : 'utf8';
    // at most 3 bytes per UTF-16 unit: measured exactly only when the block may be too short
    const most = ascii ? text.length : text.length * 3;
    if (this.#used + most > this.#block.length) {
      const bytes = ascii ? most : Buffer.byteLength(text);
      if (this.#used + bytes > this.#block.length) {
        // the block is as full as this line lets it be: it goes out now. (Until 2026-11 it was only
        // queued here, and its write waited for the flushMs timer, which every such seal restarted: under
        // a steady stream of lines nothing was written at all, and past maxQueuedBytes lines were dropped.)
        this.#seal();
        // longer than a block: a write of its own
        const alone = bytes > this.#block.length;
        if (alone) this.#enqueue(Buffer.from(text, encoding));
        this.#writeNext();
        if (alone) return true;
      }
    }
    this.#used += this.#block.write(text, this.#used, encoding);
    if (this.#maxWrite !== Infinity) this.#ends.push(this.#used);
    if (this.#used >= this.#blockBytes) {
      this.#seal();
      this.#writeNext();
    } else this.#armTimer();
    return true;
  }

  /** Starts the wait of the block's first line (`flushMs`), unless it runs already. */
  #armTimer(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#seal();
      this.#writeNext();
    }, this.#flushMs);
    this.#timer.unref();
  }

  /** Copies the pending lines into the block (they fit: `write` checks). */
  #settle(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    const at = this.#used;
    this.#used += this.#block.write(pending, at, 'latin1');
    this.#pending = '';
    if (this.#maxWrite !== Infinity) {
      for (const end of this.#pendingEnds) this.#ends.push(at + end);
      this.#pendingEnds = [];
    }
  }

  /** Resolves (and calls `cb`, as pino's `logger.flush` expects) once every line queued so far is written. */
  flush(cb?: (err?: Error) => void): Promise<void> {
    this.#seal();
    const done =
      this.#queue.length === 0 && !this.#writing
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.#waiters.push(resolve);
            this.#writeNext();
          });
    if (cb !== undefined) void done.then(() => cb());
    return done;
  }

  /** Writes what is queued now, synchronously (at exit; a block being written asynchronously goes first). */
  flushSync(): void {
    this.#seal();
    try {
      while (this.#queue.length > 0) {
        const buf = this.#queue.shift()!;
        writeAllSync(this.#fd, buf);
        this.#queuedBytes -= buf.length;
      }
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

  /** Moves the block being filled to the queue (on a pipe, cut into writes of whole lines up to 4 KiB). */
  #seal(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#settle();
    if (this.#used === 0) return;
    const full = this.#block.subarray(0, this.#used);
    if (this.#maxWrite === Infinity || this.#used <= this.#maxWrite) this.#enqueue(full);
    else {
      let from = 0;
      let last = 0;
      for (const end of this.#ends) {
        if (end - from > this.#maxWrite && last > from) {
          this.#enqueue(full.subarray(from, last));
          from = last;
        }
        last = end;
      }
      if (last > from) this.#enqueue(full.subarray(from, last));
    }
    // the sealed block is written asynchronously: the next lines go into another one
    this.#block = this.#spare.pop() ?? this.#newBlock();
    this.#used = 0;
    this.#ends = [];
  }

  #newBlock(): Buffer {
    // its own memory (not Node's shared pool, which serves allocations of up to 4 KiB)
    const block = Buffer.alloc(this.#blockBytes);
    this.#ours.add(block.buffer);
    return block;
  }

  /** A piece whose write has ended: its block is kept for more lines when it was the block's only piece. */
  #written(piece: Buffer): void {
    if (
      piece.byteOffset === 0 &&
      this.#maxWrite === Infinity &&
      this.#spare.length < SPARE_BLOCKS &&
      this.#ours.has(piece.buffer)
    )
      this.#spare.push(Buffer.from(piece.buffer, 0, this.#blockBytes));
  }

  #enqueue(buf: Buffer): void {
    this.#queue.push(buf);
    this.#queuedBytes += buf.length;
  }

  #drop(): void {
    this.#dropped++;
    if (this.#dropping) return;
    this.#dropping = true;
    process.emitWarning(
      `log lines dropped: more than ${this.#maxQueuedBytes} bytes wait for a slow destination`,
      { code: 'SVC_LOG_LINES_DROPPED' },
    );
  }

  #writeNext(): void {
    if (this.#writing) return;
    const next = this.#queue.shift();
    if (next === undefined) {
      for (const w of this.#waiters.splice(0)) w();
      return;
    }
    this.#writing = true;
    this.#writeBuffer(next, next.length);
  }

  /** Writes `buf`, the rest of a queued piece of `size` bytes. */
  #writeBuffer(buf: Buffer, size: number): void {
    fs.write(this.#fd, buf, 0, buf.length, null, (err, written) => {
      if (err !== null && err.code === 'EAGAIN') {
        // a non-blocking pipe that is full (stdout read slowly): try again shortly
        setTimeout(() => this.#writeBuffer(buf, size), 10).unref();
        return;
      }
      if (err === null && written < buf.length) {
        this.#writeBuffer(buf.subarray(written), size);
        return;
      }
      this.#writing = false;
      this.#queuedBytes -= size;
      this.#written(buf);
      if (this.#dropping && this.#queuedBytes <= this.#maxQueuedBytes / 2) this.#dropping = false;
      // a failed write loses its block (the log must not stop the service), the next ones go on
      this.#writeNext();
    });
  }
}

const PIPE_BUF = 4096;

/** Chars of ASCII lines gathered before they are copied into the block (see `#pending`). */
const PENDING_CHARS = 4096;

/** Written blocks kept for reuse (see `#spare`). */
const SPARE_BLOCKS = 2;

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
