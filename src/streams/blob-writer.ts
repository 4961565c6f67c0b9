import type { AttachmentDataSourceWriter } from './data-source';
import { writerFromAsyncIterable } from './writers';

const BLOB = Symbol('svc.attachment.blob');

/** The part of `Blob` a writer needs (browsers' and Node's `Blob` alike). */
export interface BlobLike {
  readonly size: number;
  stream(): ReadableStream<Uint8Array>;
}

/**
 * An attachment from a `Blob` (a browser `File` from an `<input type="file">`, a `Blob` built in the page,
 * Node's `Blob`): its bytes are read from `blob.stream()` one chunk per grant, never ahead of demand; an
 * abort cancels the stream. The client's web platform sends the Blob itself as a part of the request's
 * body instead of reading it (`blobOf`), so the browser streams it from its own storage.
 */
export function writerFromBlob(id: string | undefined, blob: BlobLike): AttachmentDataSourceWriter {
  const writer = writerFromAsyncIterable(id, chunksOf(blob));
  Object.defineProperty(writer, BLOB, { value: blob });
  return writer;
}

/** The Blob a writer of {@link writerFromBlob} reads, if `writer` is one. */
export function blobOf(writer: AttachmentDataSourceWriter): BlobLike | undefined {
  return (writer as { [BLOB]?: BlobLike })[BLOB];
}

/** The Blob's chunks; returning early (an abort) cancels its stream. Created lazily: nothing read before the first pull. */
async function* chunksOf(blob: BlobLike): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  let finished = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        finished = true;
        return;
      }
      yield r.value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
