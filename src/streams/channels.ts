import type { AttachmentDataSourceWriter, DataSourceIterator } from './data-source';
import { AttachmentStreamError } from './errors';
import { type ChunkSink, WriteHandle } from './write-handle';

/**
 * The pull interfaces the readers are built on, one chunk or one part per request, so that demand goes
 * from the consumer to the source: the multipart parser implements them over a socket, and the writer
 * adapters below implement them over writers (in-process pipelines, tests, proxies).
 */

/** One body as a pull source: each `request()` is answered by one `onChunk`, or by `onDone` / `onError`. */
export interface ChunkChannel {
  setListener(listener: ChunkSink): void;
  request(): void;
  /** Abandons the body: the source is told (a writer's `onAbort`), nothing more is delivered. */
  cancel(reason: Error): void;
}

/** A part of a multipart message: its headers (names lower case) and its body. */
export interface PartChannel {
  readonly headers: ReadonlyMap<string, string>;
  readonly body: ChunkChannel;
}

/** What a {@link PartsChannel} answers. */
export interface PartsListener {
  onPart(part: PartChannel): void;
  onEnd(): void;
  onError(error: Error): void;
}

/**
 * The attachment parts of a message as a pull source: each `request()` is answered by one `onPart`, or by
 * `onEnd` / `onError`. A part is requested only once the previous one's body has ended (parts of a stream
 * come one after the other).
 */
export interface PartsChannel {
  setListener(listener: PartsListener): void;
  request(): void;
  /** Abandons the rest of the message: every source not yet finished is told. */
  cancel(reason: Error): void;
}

/** A writer as a chunk channel: attached on the first request, each request grants one chunk. */
export function channelFromWriter(writer: AttachmentDataSourceWriter): ChunkChannel {
  let listener: ChunkSink | undefined;
  let handle: WriteHandle | undefined;
  return {
    setListener(l: ChunkSink): void {
      listener = l;
    },
    request(): void {
      if (listener === undefined) throw new AttachmentStreamError('a chunk channel needs a listener first');
      handle ??= WriteHandle.attach(writer, listener);
      handle.grant(1);
    },
    cancel(reason: Error): void {
      if (handle === undefined) {
        // never attached: the writer still learns that its stream is abandoned
        try {
          writer.onAbort(reason);
        } catch {
          // nothing to do
        }
        return;
      }
      handle.abort(reason);
    },
  };
}

/** A writer as a part: `Content-ID` from its attachment id, and `Content-Type` when the writer names one. */
export function partFromWriter(writer: AttachmentDataSourceWriter): PartChannel {
  const headers = new Map([['content-id', writer.getAttachmentID()]]);
  const type = writer.getContentType?.();
  if (type !== undefined && type !== '') headers.set('content-type', type);
  return { headers, body: channelFromWriter(writer) };
}

/**
 * A data source iterator as a parts channel: each request takes the iterator's next data source (the
 * iterator hands the next one over once the previous is done, which here is once its body ended).
 */
export function partsFromIterator(iterator: DataSourceIterator): PartsChannel {
  let listener: PartsListener | undefined;
  let registered = false;
  const waiting: AttachmentDataSourceWriter[] = [];
  let asked = 0;
  let ended: { error?: Error } | undefined;
  const flush = (): void => {
    while (asked > 0 && listener !== undefined) {
      const next = waiting.shift();
      if (next !== undefined) {
        asked--;
        listener.onPart(partFromWriter(next));
        continue;
      }
      if (ended !== undefined) {
        asked = 0;
        if (ended.error === undefined) listener.onEnd();
        else listener.onError(ended.error);
      }
      return;
    }
  };
  return {
    setListener(l: PartsListener): void {
      listener = l;
    },
    request(): void {
      asked++;
      if (!registered) {
        registered = true;
        iterator.registerDataSourceReaderCallback({
          onNewDataSource: (w) => {
            waiting.push(w);
            flush();
          },
          onFinished: () => {
            ended = {};
            flush();
          },
          onAbandonComplete: () => {
            ended = {};
            flush();
          },
          onStreamError: (error) => {
            ended = { error };
            flush();
          },
        });
      }
      flush();
    },
    cancel(reason: Error): void {
      for (const w of waiting.splice(0)) {
        try {
          w.onAbort(reason);
        } catch {
          // nothing to do
        }
      }
      iterator.abandonAllDataSources();
    },
  };
}
