import {
  EMPTY,
  Observable,
  type ObservableInput,
  Subject,
  type Subscription,
  concat,
  defer,
  from,
  mergeMap,
} from 'rxjs';
import type { AttachmentReader } from './attachment-reader';
import type { AttachmentDataSourceWriter } from './data-source';
import { AttachmentAbortedError, AttachmentStreamError, asError } from './errors';
import type { SingleAttachmentReader } from './single-attachment-reader';
import { type ChunkSink, WriteHandle } from './write-handle';

/**
 * The RxJS face of attachment streams. RxJS has no backpressure of its own, so demand is explicit: a
 * stream of chunks emits only what was asked for, either
 *
 * - through a `demand$` Observable (each value `n` asks for `n` more chunks), or
 * - without one, one chunk at a time, the next asked for when the subscriber's `next` has returned: a
 *   subscriber that handles each chunk synchronously (writes it to a socket, hashes it) then holds the
 *   source still while it works, and a slow subscriber slows the socket. A subscriber whose work per
 *   chunk is asynchronous should use {@link consumeChunks}, which asks for the next chunk only once the work
 *   for the last one completed.
 */

/** The chunks of a writer, pulled with demand; unsubscribing aborts the writer. Cold: attached on subscribe. */
export function writerChunks$(
  writer: AttachmentDataSourceWriter,
  demand$?: Observable<number>,
): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    // the handle exists once attach() returns; a writer may write from onInit already
    const held: { handle?: WriteHandle } = {};
    let ended = false;
    const sink: ChunkSink = {
      onChunk: (chunk) => {
        subscriber.next(chunk);
        if (demand$ === undefined && !ended) held.handle?.grant(1);
      },
      onDone: () => {
        ended = true;
        subscriber.complete();
      },
      onError: (error) => {
        ended = true;
        subscriber.error(error);
      },
    };
    const handle = WriteHandle.attach(writer, sink);
    held.handle = handle;
    let demand: Subscription | undefined;
    if (demand$ === undefined) handle.grant(1);
    else
      demand = demand$.subscribe({
        next: (n) => handle.grant(n),
        error: (e: unknown) => subscriber.error(e),
      });
    return () => {
      demand?.unsubscribe();
      if (!ended)
        handle.abort(
          new AttachmentAbortedError(
            `the subscriber of attachment '${writer.getAttachmentID()}' unsubscribed`,
          ),
        );
    };
  });
}

/**
 * An incoming attachment's chunks, pulled with demand (see above); unsubscribing before the end drains the
 * rest, so that the attachments after it (and the connection) are not held up. Cold, and one subscription
 * only: an attachment can be read once.
 */
export function attachmentChunks$(
  reader: SingleAttachmentReader,
  demand$?: Observable<number>,
): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    let credit = 0;
    let waiting = false;
    let ended = false;
    const pull = (): void => {
      if (ended || waiting || (demand$ !== undefined && credit === 0)) return;
      if (demand$ !== undefined) credit--;
      waiting = true;
      reader.requestAttachmentData();
    };
    try {
      reader.registerCallback({
        onAttachmentDataAvailable: (chunk) => {
          waiting = false;
          subscriber.next(chunk);
          pull();
        },
        onFinished: () => {
          ended = true;
          subscriber.complete();
        },
        onDrainComplete: () => {
          ended = true;
          subscriber.complete();
        },
        onAttachmentError: (error) => {
          ended = true;
          subscriber.error(error);
        },
      });
    } catch (e) {
      subscriber.error(asError(e));
      return undefined;
    }
    const demand =
      demand$?.subscribe({
        next: (n) => {
          credit += n;
          pull();
        },
        error: (e: unknown) => subscriber.error(e),
      }) ?? undefined;
    pull();
    return () => {
      demand?.unsubscribe();
      if (!ended) {
        ended = true;
        reader.drainAttachment();
      }
    };
  });
}

/** One incoming attachment, as {@link attachments$} gives it. */
export interface RxAttachment {
  readonly id: string;
  /** The attachment's chunks (see {@link attachmentChunks$}); read it, or the next attachment never comes. */
  readonly data$: Observable<Uint8Array>;
  /** The attachment itself, e.g. to forward it onward as a writer, or to drain it. */
  readonly reader: SingleAttachmentReader;
}

/**
 * The attachments of an incoming message, one after the other: the next is emitted once the previous one
 * has been read (or drained), as the parts of a stream come in order. Unsubscribing drains what is left.
 */
export function attachments$(reader: AttachmentReader): Observable<RxAttachment> {
  return new Observable<RxAttachment>((subscriber) => {
    let ended = false;
    try {
      reader.registerAttachmentReaderCallback({
        onNewAttachment: (single) =>
          subscriber.next({ id: single.getAttachmentID(), reader: single, data$: attachmentChunks$(single) }),
        onFinished: () => {
          ended = true;
          subscriber.complete();
        },
        onDrainComplete: () => {
          ended = true;
          subscriber.complete();
        },
        onStreamError: (error) => {
          ended = true;
          subscriber.error(error);
        },
      });
    } catch (e) {
      subscriber.error(asError(e));
      return undefined;
    }
    return () => {
      if (!ended) {
        ended = true;
        reader.drainAllAttachments();
      }
    };
  });
}

/**
 * Reads a stream of chunks with asynchronous work per chunk, asking for the next chunk only when the work
 * for the previous one has completed: `consumeChunks((d$) => attachmentChunks$(a, d$), (c) => file.write(c))`.
 * Emits each work's results; completes when the source and the last work have.
 */
export function consumeChunks<R>(
  source: (demand$: Observable<number>) => Observable<Uint8Array>,
  work: (chunk: Uint8Array, index: number) => ObservableInput<R>,
): Observable<R> {
  return new Observable<R>((subscriber) => {
    const demand = new Subject<number>();
    // one chunk in flight: the next is asked for when the work for this one has completed
    const askNext = defer(() => {
      demand.next(1);
      return EMPTY;
    });
    const sub = source(demand)
      .pipe(mergeMap((chunk, i) => concat(from(work(chunk, i)), askNext), 1))
      .subscribe(subscriber);
    demand.next(1);
    return () => {
      sub.unsubscribe();
      demand.complete();
    };
  });
}

/**
 * A writer from an Observable of chunks. Give a function of demand (`(demand$) => chunks$`) for a source
 * that can honour it; a plain Observable cannot be paused, so its chunks are held until asked for, at most
 * `maxBufferedChunks` (default 16): a source that runs further ahead fails the attachment rather than fill
 * memory.
 */
export function writerFromObservable(
  id: string,
  source: Observable<Uint8Array> | ((demand$: Observable<number>) => Observable<Uint8Array>),
  options: { readonly maxBufferedChunks?: number } = {},
): AttachmentDataSourceWriter {
  const max = options.maxBufferedChunks ?? 16;
  let handle: WriteHandle | undefined;
  let subscription: Subscription | undefined;
  const buffered: Uint8Array[] = [];
  let end: { error?: Error } | undefined;
  const demand = new Subject<number>();
  /** Chunks asked of a demand-aware source and not yet received. */
  let asked = 0;
  let flushing = false;
  let again = false;
  const flush = (): void => {
    // a synchronous source answering demand from inside demand.next comes back here: loop, not recurse
    if (flushing) {
      again = true;
      return;
    }
    flushing = true;
    try {
      do {
        again = false;
        const h = handle!;
        while (h.remaining() > 0 && buffered.length > 0) h.write(buffered.shift()!);
        if (buffered.length === 0 && end !== undefined) {
          if (end.error === undefined) h.done();
          else h.error(end.error);
          return;
        }
        // capacity may be topped up without a new onWritePossible (a consumer keeping a window open while
        // chunks flow): ask the source for whatever capacity is neither buffered nor asked for already
        if (typeof source === 'function' && end === undefined && subscription !== undefined) {
          const want = h.remaining() - buffered.length - asked;
          if (want > 0) {
            asked += want;
            demand.next(want);
          }
        }
      } while (again);
    } finally {
      flushing = false;
    }
  };
  return {
    getAttachmentID: () => id,
    onInit: (h) => {
      handle = h;
    },
    onWritePossible: () => {
      if (subscription === undefined) {
        const chunks$ = typeof source === 'function' ? source(demand) : source;
        subscription = chunks$.subscribe({
          next: (chunk) => {
            if (asked > 0) asked--;
            buffered.push(chunk);
            if (buffered.length > max) {
              subscription?.unsubscribe();
              buffered.length = 0;
              end = {
                error: new AttachmentStreamError(
                  `attachment '${id}': the source Observable ran more than ${max} chunks ahead of demand (give writerFromObservable a function of demand$)`,
                ),
              };
            }
            flush();
          },
          error: (e: unknown) => {
            end = { error: asError(e) };
            flush();
          },
          complete: () => {
            end = {};
            flush();
          },
        });
      }
      flush();
    },
    onAbort: () => {
      subscription?.unsubscribe();
      buffered.length = 0;
      demand.complete();
    },
  };
}

/**
 * A stream of chunks with demand as an async iterable that asks for one chunk per `next()` (no read-ahead):
 * `Readable.from(toAsyncIterable((d$) => attachmentChunks$(attachment, d$)))` is a Node stream of an
 * attachment, for `pipeline(..., fs.createWriteStream(path))`. Leaving the loop early unsubscribes.
 */
export async function* toAsyncIterable(
  source: (demand$: Observable<number>) => Observable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const demand = new Subject<number>();
  const queue: Uint8Array[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const subscription = source(demand).subscribe({
    next: (c) => {
      queue.push(c);
      wake?.();
    },
    error: (error: unknown) => {
      failure = { error };
      done = true;
      wake?.();
    },
    complete: () => {
      done = true;
      wake?.();
    },
  });
  try {
    for (;;) {
      if (queue.length > 0) {
        yield queue.shift()!;
        continue;
      }
      if (done) break;
      const arrived = new Promise<void>((resolve) => (wake = resolve));
      demand.next(1);
      await arrived;
      wake = undefined;
    }
    if (failure !== undefined) throw failure.error;
  } finally {
    subscription.unsubscribe();
    demand.complete();
  }
}
