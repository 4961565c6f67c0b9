import type { AttachmentDataSourceWriter } from './data-source';
import { AttachmentStateError, asError } from './errors';

/** Where a write handle's chunks go: the consuming side of one attachment stream. */
export interface ChunkSink {
  onChunk(chunk: Uint8Array): void;
  onDone(): void;
  onError(error: Error): void;
}

type State = 'open' | 'done' | 'errored' | 'aborted';

/**
 * The handle a writer writes through (brief, "Write handle"), with capacity counted in chunks:
 *
 * | operation | contract |
 * |---|---|
 * | `write(chunk)` | one chunk; no effect once aborted; an {@link AttachmentStateError} with no capacity left or after `done()` / `error()` |
 * | `done()` | writing finished; no effect once aborted, done or errored |
 * | `error(e)` | writing failed; the same no-effect rule |
 * | `remaining()` | chunks that may be written now; 0 once aborted, done or errored |
 *
 * The consumer grants capacity with {@link grant} (a reader asking for data, a socket that drained); when
 * capacity returns from 0 the writer's `onWritePossible` is called. Calls are trampolined: a consumer that
 * grants again while the writer is inside `onWritePossible` (a synchronous pipeline) makes one more call
 * after it returns, not a nested one, so a long stream never grows the call stack.
 */
export class WriteHandle {
  #remaining = 0;
  #state: State = 'open';
  #inWritePossible = false;
  #again = false;
  #onClosed: Array<() => void> | undefined;
  readonly #writer: AttachmentDataSourceWriter;
  readonly #sink: ChunkSink;

  private constructor(writer: AttachmentDataSourceWriter, sink: ChunkSink) {
    this.#writer = writer;
    this.#sink = sink;
  }

  /**
   * Attaches a consumer to `writer`: makes its handle and calls `onInit` (no capacity yet: the consumer
   * grants it). A writer whose `onInit` throws is failed with that error.
   */
  static attach(writer: AttachmentDataSourceWriter, sink: ChunkSink): WriteHandle {
    const handle = new WriteHandle(writer, sink);
    try {
      writer.onInit(handle);
    } catch (e) {
      handle.error(asError(e));
    }
    return handle;
  }

  write(chunk: Uint8Array): void {
    if (this.#state === 'aborted') return;
    if (this.#state !== 'open') {
      throw new AttachmentStateError(
        `write after ${this.#state === 'done' ? 'done()' : 'error()'} on attachment '${this.#id()}'`,
      );
    }
    if (this.#remaining === 0) {
      throw new AttachmentStateError(
        `write with no remaining capacity on attachment '${this.#id()}' (wait for onWritePossible)`,
      );
    }
    if (!(chunk instanceof Uint8Array)) throw new TypeError('an attachment chunk must be a Uint8Array');
    this.#remaining--;
    this.#sink.onChunk(chunk);
  }

  done(): void {
    if (this.#state !== 'open') return;
    this.#state = 'done';
    this.#remaining = 0;
    this.#sink.onDone();
    this.#closed();
  }

  error(error: Error): void {
    if (this.#state !== 'open') return;
    this.#state = 'errored';
    this.#remaining = 0;
    this.#sink.onError(error);
    this.#closed();
  }

  remaining(): number {
    return this.#state === 'open' ? this.#remaining : 0;
  }

  /** True once done, errored or aborted. */
  isClosed(): boolean {
    return this.#state !== 'open';
  }

  /** Consumer side: `n` more chunks may be written; calls `onWritePossible` when capacity returns from 0. */
  grant(n = 1): void {
    if (this.#state !== 'open' || n <= 0) return;
    const had = this.#remaining;
    this.#remaining += n;
    if (had === 0) this.#writePossible();
  }

  /** Consumer side: abandons the stream; the writer's `onAbort` is called once, writes are ignored. */
  abort(reason: Error): void {
    if (this.#state !== 'open') return;
    this.#state = 'aborted';
    this.#remaining = 0;
    try {
      this.#writer.onAbort(reason);
    } catch {
      // a writer failing to clean up cannot change the stream's outcome
    }
    this.#closed();
  }

  /** Calls `listener` once the stream is done, errored or aborted (at once if it is). */
  whenClosed(listener: () => void): void {
    if (this.#state !== 'open') listener();
    else (this.#onClosed ??= []).push(listener);
  }

  #closed(): void {
    const listeners = this.#onClosed;
    this.#onClosed = undefined;
    if (listeners !== undefined) for (const l of listeners) l();
  }

  #writePossible(): void {
    if (this.#inWritePossible) {
      this.#again = true;
      return;
    }
    this.#inWritePossible = true;
    try {
      do {
        this.#again = false;
        this.#writer.onWritePossible();
      } while (this.#again && this.remaining() > 0);
    } catch (e) {
      this.error(asError(e));
    } finally {
      this.#inWritePossible = false;
    }
  }

  #id(): string {
    try {
      return this.#writer.getAttachmentID();
    } catch {
      return '?';
    }
  }
}
