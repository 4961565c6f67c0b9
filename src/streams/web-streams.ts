import type { AttachmentReader } from './attachment-reader';
import type { AttachmentDataSourceWriter } from './data-source';
import { AttachmentAbortedError } from './errors';
import type { SingleAttachmentReader } from './single-attachment-reader';
import { WriteHandle } from './write-handle';

/**
 * An attachment (an incoming `SingleAttachmentReader`, or any writer) as a web `ReadableStream`: one
 * chunk asked of it per `pull`, so the stream's queue paces the source; cancelling the stream aborts it.
 * In a browser: `new Response(attachmentStream(a)).blob()`, or pipe it where a download goes.
 */
export function attachmentStream(
  attachment: SingleAttachmentReader | AttachmentDataSourceWriter,
): ReadableStream<Uint8Array> {
  let handle: WriteHandle | undefined;
  let wake: (() => void) | undefined;
  const woken = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      handle = WriteHandle.attach(attachment, {
        onChunk: (chunk) => {
          controller.enqueue(chunk);
          woken();
        },
        onDone: () => {
          controller.close();
          woken();
        },
        onError: (error) => {
          controller.error(error);
          woken();
        },
      });
    },
    pull() {
      const h = handle!;
      if (h.isClosed()) return undefined;
      // settles once the chunk asked for (or the end) came; the stream pulls again while it wants more
      const arrived = new Promise<void>((resolve) => {
        wake = resolve;
      });
      h.grant(1);
      return arrived;
    },
    cancel(reason) {
      handle?.abort(new AttachmentAbortedError('the attachment stream was cancelled', { cause: reason }));
    },
  });
}

/**
 * The attachments of a response (or request) one after the other, each with its `ReadableStream`: the next
 * is asked for once the previous stream was read to its end, as the parts of a message come in order.
 */
export async function* attachmentStreams(
  reader: AttachmentReader,
): AsyncGenerator<{ readonly id: string; readonly stream: ReadableStream<Uint8Array> }> {
  type Next = { attachment: SingleAttachmentReader } | { done: true } | { error: Error };
  let waiting: ((next: Next) => void) | undefined;
  const queued: Next[] = [];
  const deliver = (next: Next): void => {
    const w = waiting;
    waiting = undefined;
    if (w !== undefined) w(next);
    else queued.push(next);
  };
  reader.registerAttachmentReaderCallback({
    onNewAttachment: (attachment) => deliver({ attachment }),
    onFinished: () => deliver({ done: true }),
    onDrainComplete: () => deliver({ done: true }),
    onStreamError: (error) => deliver({ error }),
  });
  let finished = false;
  try {
    for (;;) {
      const next = queued.shift() ?? (await new Promise<Next>((resolve) => (waiting = resolve)));
      if ('done' in next) {
        finished = true;
        return;
      }
      if ('error' in next) {
        finished = true;
        throw next.error;
      }
      yield { id: next.attachment.getAttachmentID(), stream: attachmentStream(next.attachment) };
    }
  } finally {
    if (!finished) reader.drainAllAttachments();
  }
}
