import { concatBytes, indexOfBytes, latin1Bytes } from '../data/bytes';
import { AttachmentReader } from '../streams/attachment-reader';
import type { ChunkChannel, PartChannel, PartsChannel, PartsListener } from '../streams/channels';
import { AttachmentStreamError } from '../streams/errors';
import type { ChunkSink } from '../streams/write-handle';
import type { RelatedResponseParts } from './platform';

/**
 * A `multipart/related` response read from a web `ReadableStream` (a `fetch` response's `body`) as it
 * arrives: the first part (the payload, bounded by `limit`) is read whole, then the attachments come out of
 * an {@link AttachmentReader} whose parts and chunks are pulled from the stream on demand, so a page reads
 * the first bytes of an attachment while the server is still writing the rest, and a large download is
 * never held whole in memory. The web platform's counterpart of the Node platform's socket parser
 * (`streams/multipart/parser.ts`, which needs `node:stream`). RFC 2046 §5.1.1: preamble and epilogue are
 * ignored, transport padding after a boundary is allowed.
 */
export async function readRelatedStream(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  limit: number,
): Promise<RelatedResponseParts> {
  const reader = new WebMultipartReader(body.getReader(), boundary);
  try {
    await reader.skipPreamble();
    const first = await reader.nextPartHeaders();
    if (first === undefined) throw malformed('No parts!');
    const payload = await reader.wholeBody(limit);
    const more = await reader.hasMoreParts();
    const contentType = first.get('content-type');
    return {
      body: payload,
      ...(contentType === undefined ? {} : { contentType }),
      ...(more ? { attachments: new AttachmentReader(reader.partsChannel()) } : {}),
    };
  } catch (err) {
    reader.cancel(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const EMPTY = new Uint8Array(0);

function malformed(why: string): AttachmentStreamError {
  return new AttachmentStreamError(`Malformed multipart mime request. ${why}`);
}


/** The parser: a buffer of bytes read and not yet consumed, over the stream's reader. */
class WebMultipartReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #dashBoundary: Uint8Array;
  /** CRLF `--boundary`: what ends a part's body. */
  readonly #delimiter: Uint8Array;
  #buf: Uint8Array = EMPTY;
  #eof = false;
  #cancelled = false;

  constructor(reader: ReadableStreamDefaultReader<Uint8Array>, boundary: string) {
    this.#reader = reader;
    this.#dashBoundary = latin1Bytes(`--${boundary}`);
    this.#delimiter = latin1Bytes(`\r\n--${boundary}`);
  }

  /** Reads one more chunk into the buffer; false at the end of the stream. */
  async #fill(): Promise<boolean> {
    if (this.#eof) return false;
    const { done, value } = await this.#reader.read();
    if (done) {
      this.#eof = true;
      return false;
    }
    if (value.byteLength === 0) return true;
    if (this.#buf.byteLength === 0) this.#buf = value;
    else {
      const joined = new Uint8Array(this.#buf.byteLength + value.byteLength);
      joined.set(this.#buf);
      joined.set(value, this.#buf.byteLength);
      this.#buf = joined;
    }
    return true;
  }

  async #need(n: number, why: string): Promise<void> {
    while (this.#buf.byteLength < n) if (!(await this.#fill())) throw malformed(why);
  }

  /** Up to and past the first boundary (the message may start with it, or have a preamble before it). */
  async skipPreamble(): Promise<void> {
    const dash = this.#dashBoundary;
    await this.#need(dash.length, 'No boundary found in the body!');
    if (dash.every((b, i) => this.#buf[i] === b)) {
      this.#buf = this.#buf.subarray(dash.length);
      return;
    }
    for (;;) {
      const at = indexOfBytes(this.#buf, this.#delimiter, 0);
      if (at !== -1) {
        this.#buf = this.#buf.subarray(at + this.#delimiter.length);
        return;
      }
      // keep what may be the start of the delimiter
      this.#buf = this.#buf.subarray(Math.max(0, this.#buf.byteLength - this.#delimiter.length + 1));
      if (!(await this.#fill())) throw malformed('No boundary found in the body!');
    }
  }

  /** After a boundary: true when a part follows, false at the close delimiter (`--`). */
  async hasMoreParts(): Promise<boolean> {
    await this.#need(2, 'The body ends before the close delimiter!');
    return !(this.#buf[0] === DASH && this.#buf[1] === DASH);
  }

  /** After a boundary: the next part's headers (names lower case), or undefined at the close delimiter. */
  async nextPartHeaders(): Promise<Map<string, string> | undefined> {
    if (!(await this.hasMoreParts())) return undefined;
    // transport padding, then CRLF
    for (;;) {
      let i = 0;
      while (i < this.#buf.byteLength && (this.#buf[i] === 0x20 || this.#buf[i] === 0x09)) i++;
      if (i + 2 <= this.#buf.byteLength) {
        if (this.#buf[i] !== CR || this.#buf[i + 1] !== LF)
          throw malformed('A boundary is not followed by CRLF!');
        this.#buf = this.#buf.subarray(i + 2);
        break;
      }
      if (!(await this.#fill())) throw malformed('The body ends before the close delimiter!');
    }
    const headers = new Map<string, string>();
    await this.#need(2, 'A part has no end of headers!');
    if (this.#buf[0] === CR && this.#buf[1] === LF) {
      this.#buf = this.#buf.subarray(2);
      return headers;
    }
    const end = latin1Bytes('\r\n\r\n');
    let at: number;
    while ((at = indexOfBytes(this.#buf, end, 0)) === -1) {
      if (this.#buf.byteLength > 64 * 1024) throw malformed('A part has headers over 64 KiB!');
      if (!(await this.#fill())) throw malformed('A part has no end of headers!');
    }
    let text = '';
    for (let i = 0; i < at; i++) text += String.fromCharCode(this.#buf[i]!);
    for (const line of text.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    this.#buf = this.#buf.subarray(at + 4);
    return headers;
  }

  /**
   * The next piece of the current part's body: bytes that cannot be the start of its delimiter, or `end`
   * (the delimiter consumed) when the body is over.
   */
  async nextChunk(): Promise<Uint8Array | 'end'> {
    const delimiter = this.#delimiter;
    for (;;) {
      const at = indexOfBytes(this.#buf, delimiter, 0);
      if (at === 0) {
        this.#buf = this.#buf.subarray(delimiter.length);
        return 'end';
      }
      if (at > 0) {
        const chunk = this.#buf.subarray(0, at);
        this.#buf = this.#buf.subarray(at);
        return chunk;
      }
      const safe = this.#undecided();
      if (safe > 0) {
        const chunk = this.#buf.subarray(0, safe);
        this.#buf = this.#buf.subarray(safe);
        return chunk;
      }
      if (!(await this.#fill())) throw malformed('The body ends before the close delimiter!');
    }
  }

  /**
   * Where the buffer's undecided tail starts: the bytes from there on may begin the delimiter (they are a
   * prefix of it), so they wait for more; everything before is body. Holding back only such a tail (not
   * always a delimiter's length) lets a reader have every byte the server has sent.
   */
  #undecided(): number {
    const buf = this.#buf;
    const delimiter = this.#delimiter;
    for (let i = Math.max(0, buf.byteLength - delimiter.length + 1); i < buf.byteLength; i++) {
      if (buf[i] !== CR) continue;
      let k = 1;
      while (i + k < buf.byteLength && buf[i + k] === delimiter[k]) k++;
      if (i + k === buf.byteLength) return i;
    }
    return buf.byteLength;
  }

  /** The current part's whole body, refused over `limit` bytes. */
  async wholeBody(limit: number): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let c = await this.nextChunk(); c !== 'end'; c = await this.nextChunk()) {
      size += c.byteLength;
      if (size > limit) throw new AttachmentStreamError(`the response's first part is over ${limit} bytes`);
      chunks.push(c);
    }
    return chunks.length === 1 ? chunks[0]!.slice() : concatBytes(chunks);
  }

  /** Abandons the rest of the stream (the response's connection is released). */
  cancel(reason: Error): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reader.cancel(reason).catch(() => {});
  }

  /** The parts after the first as a pull source: one part, or one chunk of its body, per request. */
  partsChannel(): PartsChannel {
    let listener: PartsListener | undefined;
    const fail = (error: unknown, to: { onError(e: Error): void } | undefined): void => {
      const e = error instanceof Error ? error : new Error(String(error));
      this.cancel(e);
      to?.onError(e);
    };
    const bodyOf = (): ChunkChannel => {
      let sink: ChunkSink | undefined;
      let ended = false;
      return {
        setListener: (l) => (sink = l),
        request: () => {
          if (ended) return;
          this.nextChunk().then(
            (c) => {
              if (c === 'end') {
                ended = true;
                sink?.onDone();
              } else sink?.onChunk(c.slice()); // a copy: the buffer is the stream's
            },
            (err: unknown) => fail(err, sink),
          );
        },
        cancel: (reason) => this.cancel(reason),
      };
    };
    return {
      setListener: (l) => (listener = l),
      request: () => {
        this.nextPartHeaders().then(
          (headers) => {
            if (headers === undefined) {
              // the epilogue is not read: the stream is released
              this.cancel(new Error('the message ended'));
              listener?.onEnd();
            } else {
              const part: PartChannel = { headers, body: bodyOf() };
              listener?.onPart(part);
            }
          },
          (err: unknown) => fail(err, listener),
        );
      },
      cancel: (reason) => this.cancel(reason),
    };
  }
}
