import type { Readable } from 'node:stream';
import { AttachmentReader } from '../attachment-reader';
import type { ChunkChannel, PartChannel, PartsChannel, PartsListener } from '../channels';
import { AttachmentAbortedError, AttachmentStreamError, asError } from '../errors';
import type { ChunkSink } from '../write-handle';
import { boundaryOf } from './content-type';
import { type DicerPart, createDicer } from './dicer';

/** Limits of {@link decodeRelated}; every default is here. */
export interface DecodeRelatedOptions {
  /** Largest first part (the payload, which is decoded whole), in bytes. Default 1 MiB. */
  readonly maxPayloadBytes?: number;
  /** Bytes of one part's header block kept (beyond, dropped). Default 16 KiB. */
  readonly maxHeaderSize?: number;
  /** Header lines per part. Default 64. */
  readonly maxHeaderPairs?: number;
  /** Bytes a part stream buffers before the socket is paused. Default 64 KiB. */
  readonly partHighWaterMark?: number;
}

/** The first part of a `multipart/related` message. */
export interface RelatedPayloadPart {
  /** Its Content-Type; undefined when the part has none (the server answers 400). */
  readonly contentType: string | undefined;
  readonly bytes: Uint8Array;
}

/** An incoming `multipart/related` message, decoded as it streams in. */
export interface RelatedRequest {
  /** The first part, read whole (bounded by `maxPayloadBytes`). */
  readonly payload: Promise<RelatedPayloadPart>;
  /**
   * Once the payload has been read: the reader of the attachments that follow it, or undefined when the
   * message holds the payload only (known when the next part begins or the message ends).
   */
  readonly attachments: Promise<AttachmentReader | undefined>;
  /** Discards everything not read yet, so that the connection can be reused (an error response, a refusal). */
  drain(): void;
}

/** The payload part was over `maxPayloadBytes`. */
export class PayloadTooLargeError extends AttachmentStreamError {
  constructor(limit: number) {
    super(`The first part of the multipart/related payload is larger than ${limit} bytes`);
  }
}

interface Part {
  readonly stream: DicerPart;
  headers: Map<string, string> | undefined;
  /** The part's end was seen (a part without headers can end before any). */
  ended: boolean;
}

/**
 * Decodes a `multipart/related` body as it arrives (wire facts §6.2): the first part is the payload, the
 * later parts attachments, offered through an {@link AttachmentReader} with demand end to end (socket →
 * parser → part stream → reader → consumer: a part nobody reads holds the socket). Reads every framing the
 * reference writes and accepts: with or without the leading CRLF or a preamble, with or without a CRLF
 * after the closing delimiter, the boundary quoted or not, folded headers.
 */
export function decodeRelated(
  source: Readable,
  contentType: string,
  options: DecodeRelatedOptions = {},
): RelatedRequest {
  const maxPayload = options.maxPayloadBytes ?? 1024 * 1024;
  const boundary = boundaryOf(contentType);
  const partHwm = options.partHighWaterMark ?? 64 * 1024;
  const dicer = createDicer({
    boundary,
    maxHeaderSize: options.maxHeaderSize ?? 16 * 1024,
    maxHeaderPairs: options.maxHeaderPairs ?? 64,
    partHwm,
  });

  let resolvePayload!: (p: RelatedPayloadPart) => void;
  let rejectPayload!: (e: Error) => void;
  const payload = new Promise<RelatedPayloadPart>((res, rej) => {
    resolvePayload = res;
    rejectPayload = rej;
  });
  let resolveAttachments!: (r: AttachmentReader | undefined) => void;
  let rejectAttachments!: (e: Error) => void;
  const attachments = new Promise<AttachmentReader | undefined>((res, rej) => {
    resolveAttachments = res;
    rejectAttachments = rej;
  });
  // both are awaited by the caller in turn: an early rejection must not count as unhandled
  payload.catch(() => undefined);
  attachments.catch(() => undefined);

  let partCount = 0;
  let payloadDone = false;
  let finished = false;
  let failure: Error | undefined;
  let discarding = false;
  const queue: Part[] = [];
  let reader: AttachmentReader | undefined;
  let listener: PartsListener | undefined;
  let asked = 0;

  const fail = (error: Error): void => {
    if (failure !== undefined) return;
    failure = error;
    if (!payloadDone) rejectPayload(error);
    rejectAttachments(error);
    // the reader hears of it at once, not at its next request: the attachment being read fails with it
    if (listener !== undefined) {
      asked = 0;
      listener.onError(error);
    }
  };

  const deliver = (): void => {
    while (asked > 0 && listener !== undefined) {
      const next = queue[0];
      if (next !== undefined && next.headers !== undefined) {
        queue.shift();
        asked--;
        listener.onPart(partChannel(next, partHwm));
        continue;
      }
      if (next === undefined && failure !== undefined) {
        asked = 0;
        listener.onError(failure);
      } else if (next === undefined && finished) {
        asked = 0;
        listener.onEnd();
      }
      return;
    }
  };

  const onAttachmentsKnown = (more: boolean): void => {
    if (reader !== undefined || failure !== undefined) return;
    if (!more) {
      resolveAttachments(undefined);
      return;
    }
    reader = new AttachmentReader(parts);
    resolveAttachments(reader);
  };

  const parts: PartsChannel = {
    setListener: (l) => {
      listener = l;
    },
    request: () => {
      asked++;
      deliver();
    },
    cancel: (reason) => {
      void reason;
      discard();
    },
  };

  const discard = (): void => {
    if (discarding) return;
    discarding = true;
    for (const p of queue.splice(0)) p.stream.resume();
    source.resume();
  };

  // the parser says nothing of a part whose header block never closed (no blank line before the next
  // delimiter, or a stray boundary line it took for a delimiter): no 'header', and an 'end' only once the
  // part is read, which it never is. When the next part or the end of the message comes, such a part is
  // over, and the message fails at once rather than waiting for a part nobody will be offered
  let last: Part | undefined;
  const headersEnded = (): boolean => {
    if (last === undefined || last.headers !== undefined) return true;
    fail(
      new AttachmentStreamError(
        `Illegally formed multipart payload: part ${partCount} ends before its headers do (no blank line after them)`,
      ),
    );
    return false;
  };

  dicer.on('part', (stream: DicerPart) => {
    headersEnded();
    const index = partCount++;
    const part: Part = { stream, headers: undefined, ended: false };
    last = part;
    stream.on('error', () => undefined);
    stream.on('header', (header: Record<string, string[]>) => {
      const headers = new Map<string, string>();
      for (const [name, values] of Object.entries(header))
        headers.set(name.toLowerCase(), values.join(', ').trim());
      part.headers = headers;
      if (index === 0) readPayload(part);
      else deliver();
    });
    stream.on('end', () => {
      part.ended = true;
    });
    if (discarding) {
      stream.resume();
      return;
    }
    if (index === 0) return;
    queue.push(part);
    onAttachmentsKnown(true);
  });

  const readPayload = (part: Part): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    part.stream.on('data', (c: Buffer) => {
      if (payloadDone) return;
      size += c.length;
      if (size > maxPayload) {
        payloadDone = true;
        const error = new PayloadTooLargeError(maxPayload);
        rejectPayload(error);
        rejectAttachments(error);
        failure ??= error;
        discard();
        return;
      }
      chunks.push(c);
    });
    part.stream.on('end', () => {
      if (payloadDone) return;
      payloadDone = true;
      resolvePayload({ contentType: part.headers!.get('content-type'), bytes: Buffer.concat(chunks, size) });
      if (finished) onAttachmentsKnown(false);
    });
  };

  dicer.on('finish', () => {
    finished = true;
    // the parser finishes on the closing delimiter and may leave a write unanswered, which would hold its
    // source paused forever: let the source run to its end on its own (what follows is ignored)
    source.unpipe(dicer);
    source.resume();
    if (partCount === 0)
      fail(new AttachmentStreamError('Did not receive any parts in the multipart mime request!'));
    else if (!headersEnded()) return;
    else if (payloadDone) onAttachmentsKnown(reader !== undefined);
    deliver();
  });
  dicer.on('error', (e: Error) => {
    fail(new AttachmentStreamError('Illegally formed multipart payload', { cause: e }));
  });
  source.on('error', (e: Error) =>
    fail(new AttachmentAbortedError('the request body broke off', { cause: e })),
  );
  source.on('aborted', () =>
    fail(new AttachmentAbortedError('the client closed the connection mid-request')),
  );
  source.pipe(dicer);

  return {
    payload,
    attachments,
    drain: () => {
      reader?.drainAllAttachments();
      discard();
    },
  };
}

/**
 * One attachment part as a pull channel. The part stream flows into a small queue of its own chunks (no
 * copies) and is paused only once the queue holds `queueBytes`, not after every chunk: pieces are handed on
 * as they arrive, and a consumer reading from the queue costs no pause/resume round trip per chunk. (Node's
 * HTTP parser gives the pieces of one socket read, split at the chunk headers of a chunked upload, from
 * separate callbacks, with the tick queue run between them: a forwarding hop gathers them per turn of the
 * event loop in its transport, `nodeHttpFetch`.) A request made while a chunk is being delivered (a consumer asking
 * again from inside its callback) is served by the loop that delivers, not by recursion, so a part split
 * into many tiny chunks never grows the stack.
 */
function partChannel(part: Part, queueBytes: number): PartChannel {
  const stream = part.stream;
  let sink: ChunkSink | undefined;
  let started = false;
  let wanted = false;
  let discarding = false;
  let delivering = false;
  let ended = false;
  let done = false;
  let paused = false;
  const queue: Buffer[] = [];
  let head = 0;
  let queued = 0;
  const pump = (): void => {
    if (delivering) return;
    delivering = true;
    try {
      while (wanted && !done) {
        if (head < queue.length) {
          const chunk = queue[head]!;
          queue[head++] = EMPTY;
          queued -= chunk.length;
          if (head === queue.length) {
            queue.length = 0;
            head = 0;
          }
          wanted = false;
          sink!.onChunk(chunk);
        } else if (ended) {
          done = true;
          sink!.onDone();
        } else {
          if (paused) {
            paused = false;
            stream.resume();
          }
          return;
        }
      }
    } finally {
      delivering = false;
    }
  };
  const body: ChunkChannel = {
    setListener: (s) => {
      sink = s;
    },
    request: () => {
      if (done) return;
      wanted = true;
      if (!started) {
        started = true;
        if (part.ended) ended = true;
        else {
          stream.on('data', (chunk: Buffer) => {
            if (discarding) return;
            queue.push(chunk);
            queued += chunk.length;
            if (queued >= queueBytes && !paused) {
              // hold the stream (and so the parser and the socket) until the consumer catches up
              paused = true;
              stream.pause();
            }
            pump();
          });
          stream.on('end', () => {
            ended = true;
            if (!discarding) pump();
          });
          stream.on('error', (e: Error) => {
            if (done) return;
            done = true;
            // the parser's own errors (a part cut off by the end of the body) are the client's malformed envelope
            if (!discarding)
              sink!.onError(
                new AttachmentStreamError('Illegally formed multipart payload', { cause: asError(e) }),
              );
          });
        }
      }
      pump();
    },
    cancel: () => {
      discarding = true;
      queue.length = 0;
      head = 0;
      queued = 0;
      paused = false;
      stream.resume();
    },
  };
  return { headers: part.headers!, body };
}

const EMPTY = Buffer.alloc(0);
