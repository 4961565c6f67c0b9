import { Readable } from 'node:stream';
import type { NodeReadable } from '../node-readable';
import type { AttachmentDataSourceWriter, DataSourceIterator } from '../data-source';
import { AttachmentAbortedError, AttachmentStreamError, asError } from '../errors';
import { dataSourceIterator } from '../writers';
import { type ChunkSink, WriteHandle } from '../write-handle';
import { makeBoundary } from './boundary';

/** The first part of a `multipart/related` message: the regular payload. */
export interface RelatedPayload {
  /** Its media type (`application/json`, `application/x-pson`). */
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** A `multipart/related` message being written. */
export interface RelatedMessage {
  /** `multipart/related; boundary=...` (the boundary unquoted, as the reference writes it). */
  readonly contentType: string;
  readonly boundary: string;
  /** The body, produced as the consumer reads it: the current attachment writes only while it wants data. */
  readonly body: NodeReadable;
}

/** What attachments a message carries: writers (each one attachment) and data source iterators (several). */
export type AttachmentSources = ReadonlyArray<AttachmentDataSourceWriter | DataSourceIterator>;

function isIterator(s: AttachmentDataSourceWriter | DataSourceIterator): s is DataSourceIterator {
  return typeof (s as DataSourceIterator).registerDataSourceReaderCallback === 'function';
}

const CRLF = '\r\n';
/** Chunks of capacity the current writer holds while the consumer wants data (see `fill`). */
const WINDOW = 2;

/**
 * Writes a `multipart/related` message (brief, "Attachment wire format"; wire facts §6.1): the payload as
 * part 1 with its own `Content-Type`, then one part per attachment with `Content-ID: <id>` (and its
 * `Content-Type` when the writer names one), then the closing
 * delimiter. The body is a Node `Readable` pulled by its consumer (a socket through `pipe`, whose `drain`
 * then paces the writers): the current writer gets capacity only while the body wants data, so no
 * attachment is ever held in memory, and chunks are pushed as the writers gave them, without copies.
 * Destroying the body aborts the current writer and abandons the rest (`onAbort`). Attachment identifiers
 * must be unique in the message: a repeated one fails the body.
 */
export function encodeRelated(
  payload: RelatedPayload,
  attachments: AttachmentSources,
  options: { readonly boundary?: string } = {},
): RelatedMessage {
  const boundary = options.boundary ?? makeBoundary([payload.bytes]);
  const sources = attachments.map((s) => (isIterator(s) ? s : dataSourceIterator([s])));
  let index = 0;
  let current: WriteHandle | undefined;
  let iterator: DataSourceIterator | undefined;
  let wantsData = false;
  let finished = false;
  const ids = new Set<string>();
  const body: Readable = new Readable({
    read(): void {
      wantsData = true;
      fill();
    },
    destroy(err, callback): void {
      if (!finished) {
        finished = true;
        const reason = new AttachmentAbortedError('the multipart body was abandoned', {
          cause: err ?? undefined,
        });
        current?.abort(reason);
        iterator?.abandonAllDataSources();
        for (const s of sources.slice(index)) s.abandonAllDataSources();
      }
      callback(err);
    },
  });
  const push = (chunk: Uint8Array | string): void => {
    if (!body.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk)) wantsData = false;
  };
  const fail = (error: Error): void => {
    if (finished) return;
    finished = true;
    body.destroy(error);
  };
  const nextSource = (): void => {
    if (finished) return;
    const source = sources[index++];
    if (source === undefined) {
      finished = true;
      push(`${CRLF}--${boundary}--`);
      body.push(null);
      return;
    }
    iterator = source;
    source.registerDataSourceReaderCallback({
      onNewDataSource: (writer) => startAttachment(writer),
      onFinished: () => {
        iterator = undefined;
        nextSource();
      },
      onAbandonComplete: () =>
        fail(new AttachmentStreamError('the attachments were abandoned before they were written')),
      onStreamError: (error) => fail(error),
    });
  };
  // While the consumer wants data the current writer holds WINDOW chunks of capacity, topped up after each
  // write: its capacity never falls to 0 there, so it goes on writing in the same tick (a forwarding hop
  // hands a whole socket read on at once) without a microtask or a nested onWritePossible per chunk. Once
  // the consumer's buffer is full (push returns false) nothing more is granted: the writer may still write
  // what it holds (at most WINDOW - 1 chunks), buffered by the body, and stops.
  const fill = (): void => {
    if (current === undefined || !wantsData) return;
    const have = current.remaining();
    if (have < WINDOW) current.grant(WINDOW - have);
  };
  const sink: ChunkSink = {
    onChunk: (chunk) => {
      push(chunk);
      fill();
    },
    onDone: () => {
      current = undefined;
    },
    onError: (error) => fail(error),
  };
  const startAttachment = (writer: AttachmentDataSourceWriter): void => {
    let id: string;
    try {
      id = writer.getAttachmentID();
    } catch (e) {
      fail(asError(e));
      return;
    }
    if (typeof id !== 'string' || id === '' || /[\r\n<>]/.test(id) || ids.has(id)) {
      const why = ids.has(id) ? 'is used twice in the message' : 'is not a valid Content-ID';
      writer.onAbort(new AttachmentAbortedError(`attachment id '${String(id)}' ${why}`));
      fail(new AttachmentStreamError(`attachment id '${String(id)}' ${why}`));
      return;
    }
    let type: string | undefined;
    try {
      type = writer.getContentType?.();
    } catch (e) {
      fail(asError(e));
      return;
    }
    // a media type is one header line: a CR or LF in it would let a writer forge headers or parts
    if (type !== undefined && (typeof type !== 'string' || /[\r\n]/.test(type))) {
      const why = `attachment '${id}' has a content type that is not a single header value`;
      writer.onAbort(new AttachmentAbortedError(why));
      fail(new AttachmentStreamError(why));
      return;
    }
    ids.add(id);
    const typeLine = type === undefined || type === '' ? '' : `${CRLF}Content-Type: ${type}`;
    push(`${CRLF}--${boundary}${CRLF}Content-ID: <${id}>${typeLine}${CRLF}${CRLF}`);
    current = WriteHandle.attach(writer, sink);
    fill();
  };
  push(`${CRLF}--${boundary}${CRLF}Content-Type: ${payload.contentType}${CRLF}${CRLF}`);
  push(payload.bytes);
  nextSource();
  return { contentType: `multipart/related; boundary=${boundary}`, boundary, body };
}
