import type {
  AttachmentDataSourceWriter,
  DataSourceIterator,
  DataSourceIteratorCallback,
} from './data-source';
import { AttachmentAbortedError, asError } from './errors';
import { newAttachmentId } from './attachment-id';
import type { WriteHandle } from './write-handle';
import { utf8Bytes } from '../data/bytes';

/**
 * Writers from the usual sources, each honouring demand: nothing is read from the source before the
 * consumer grants capacity, and at most `remaining()` chunks are written per grant.
 */

/** The chunk size of {@link writerFromBytes} unless given: 64 KiB. */
export const DEFAULT_CHUNK_SIZE = 64 * 1024;

/** Bytes in memory, written as views of `chunkSize` bytes (no copies). */
export function writerFromBytes(
  id: string | undefined,
  bytes: Uint8Array,
  chunkSize: number = DEFAULT_CHUNK_SIZE,
): AttachmentDataSourceWriter {
  if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)
    throw new RangeError('chunkSize must be a positive integer');
  const attachmentId = id ?? newAttachmentId();
  let handle: WriteHandle | undefined;
  let offset = 0;
  return {
    getAttachmentID: () => attachmentId,
    onInit: (h) => {
      handle = h;
    },
    onWritePossible: () => {
      const h = handle!;
      while (h.remaining() > 0 && offset < bytes.length) {
        const end = Math.min(bytes.length, offset + chunkSize);
        const chunk = bytes.subarray(offset, end);
        offset = end;
        h.write(chunk);
      }
      if (offset >= bytes.length) h.done();
    },
    onAbort: () => {
      offset = bytes.length;
    },
  };
}

/**
 * An async iterable of chunks (a Node `Readable`, a generator, a file's `createReadStream()`): one `next()`
 * per granted chunk, never ahead of demand; an abort calls the iterator's `return()`, which destroys a Node
 * stream. Strings are written as UTF-8.
 */
export function writerFromAsyncIterable(
  id: string | undefined,
  source: AsyncIterable<Uint8Array | string>,
): AttachmentDataSourceWriter {
  const attachmentId = id ?? newAttachmentId();
  let handle: WriteHandle | undefined;
  let iterator: AsyncIterator<Uint8Array | string> | undefined;
  let pulling = false;
  let finished = false;
  const pull = (): void => {
    const h = handle!;
    if (pulling || finished || h.remaining() === 0) return;
    pulling = true;
    iterator ??= source[Symbol.asyncIterator]();
    iterator.next().then(
      (r) => {
        pulling = false;
        if (finished) return;
        if (r.done === true) {
          finished = true;
          h.done();
          return;
        }
        const v = r.value;
        h.write(typeof v === 'string' ? utf8Bytes(v) : v);
        pull();
      },
      (e: unknown) => {
        pulling = false;
        finished = true;
        h.error(asError(e));
      },
    );
  };
  return {
    getAttachmentID: () => attachmentId,
    onInit: (h) => {
      handle = h;
    },
    onWritePossible: pull,
    onAbort: () => {
      finished = true;
      void iterator?.return?.().catch(() => undefined);
    },
  };
}

/** A synchronous input, e.g. `fs.readSync` over a descriptor. */
export interface SyncInput {
  /** The next chunk, or null at the end. */
  read(): Uint8Array | null;
  close?(): void;
}

/**
 * A synchronous input as a writer. **Discouraged**: every read blocks the event loop (and so every other
 * request of the process) for as long as it takes; prefer {@link writerFromAsyncIterable} over a stream.
 * It exists, as in the reference, for inputs that are synchronous by nature.
 */
export function writerFromSyncInput(id: string | undefined, input: SyncInput): AttachmentDataSourceWriter {
  const attachmentId = id ?? newAttachmentId();
  let handle: WriteHandle | undefined;
  return {
    getAttachmentID: () => attachmentId,
    onInit: (h) => {
      handle = h;
    },
    onWritePossible: () => {
      const h = handle!;
      while (h.remaining() > 0) {
        const chunk = input.read();
        if (chunk === null) {
          input.close?.();
          h.done();
          return;
        }
        h.write(chunk);
      }
    },
    onAbort: () => input.close?.(),
  };
}

/**
 * Several writers as a {@link DataSourceIterator}: each handed over once the previous one is done or failed
 * (the consumer writes attachments one after the other).
 */
export function dataSourceIterator(writers: Iterable<AttachmentDataSourceWriter>): DataSourceIterator {
  const it = writers[Symbol.iterator]();
  let callback: DataSourceIteratorCallback | undefined;
  let abandoned = false;
  const next = (): void => {
    if (callback === undefined || abandoned) return;
    const r = it.next();
    if (r.done === true) {
      callback.onFinished();
      return;
    }
    callback.onNewDataSource(watchEnd(r.value, next));
  };
  return {
    registerDataSourceReaderCallback(cb: DataSourceIteratorCallback): void {
      if (callback !== undefined) throw new TypeError('a data source iterator has one consumer');
      callback = cb;
      next();
    },
    abandonAllDataSources(): void {
      if (abandoned) return;
      abandoned = true;
      const reason = new AttachmentAbortedError('the data sources were abandoned');
      for (let r = it.next(); r.done !== true; r = it.next()) {
        try {
          r.value.onAbort(reason);
        } catch {
          // nothing to do
        }
      }
      callback?.onAbandonComplete();
    },
  };
}

/** `writer`, calling `ended` once its stream is done, errored or aborted (so the next data source can follow). */
function watchEnd(writer: AttachmentDataSourceWriter, ended: () => void): AttachmentDataSourceWriter {
  let fired = false;
  const fire = (): void => {
    if (!fired) {
      fired = true;
      // after the consumer has seen the end: the next source is handed over from a fresh stack
      queueMicrotask(ended);
    }
  };
  return {
    getAttachmentID: () => writer.getAttachmentID(),
    getContentType: () => writer.getContentType?.(),
    onInit: (handle) => {
      handle.whenClosed(fire);
      writer.onInit(handle);
    },
    onWritePossible: () => writer.onWritePossible(),
    onAbort: (reason) => writer.onAbort(reason),
  };
}

/**
 * `writer`, sent with the given media type as its part's `Content-Type` (e.g. `image/png` for an image a
 * browser should show). The writer is used as it is otherwise.
 */
export function withContentType(
  writer: AttachmentDataSourceWriter,
  contentType: string,
): AttachmentDataSourceWriter {
  return {
    getAttachmentID: () => writer.getAttachmentID(),
    getContentType: () => contentType,
    onInit: (handle) => writer.onInit(handle),
    onWritePossible: () => writer.onWritePossible(),
    onAbort: (reason) => writer.onAbort(reason),
  };
}
