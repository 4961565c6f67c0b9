/**
 * Attachments in a browser (or any runtime with `fetch`, `Blob` and web streams): `multipart/related`
 * request bodies as a `Blob` of their parts and responses read as web streams. Opt-in in
 * `svc-framework/client` (`ClientOptions.attachments: webAttachments`), so that a page that sends and
 * receives no attachments does not carry this code, the multipart reader and the attachment streams
 * (README.md, "Size"). The package root's Node platform has its own (`node-platform.ts`).
 */
import { indexOfBytes } from '../data/bytes';
import { AttachmentReader } from '../streams/attachment-reader';
import { blobOf } from '../streams/blob-writer';
import { partsFromIterator } from '../streams/channels';
import type { AttachmentDataSourceWriter, DataSourceIterator } from '../streams/data-source';
import { AttachmentStreamError } from '../streams/errors';
import { boundaryOf } from '../streams/related/content-type';
import { makeBoundary } from '../streams/related/boundary';
import { dataSourceIterator, writerFromBytes } from '../streams/writers';
import { WriteHandle } from '../streams/write-handle';
import type { HttpRequest } from './build-request';
import type { FetchResponseLike } from './options';
import type { ClientAttachments, RelatedRequestBody, RelatedResponseParts } from './platform';
import { readRelatedStream } from './web-multipart';

/** A request's headers without its Content-Type (which becomes the first part's), and that type. */
export function relatedHeaders(request: HttpRequest): {
  headers: Record<string, string>;
  payloadType: string;
} {
  const headers: Record<string, string> = {};
  let payloadType = 'application/json';
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') payloadType = value;
    else headers[name] = value;
  }
  return { headers, payloadType };
}

/** A piece of a message body: bytes, or a Blob sent as it is. */
type Piece = Uint8Array | Blob;

const CRLF = '\r\n';
const latin1 = (text: string): Uint8Array => {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
};

/**
 * The body of a request with attachments as a `Blob` of the message's parts, the same bytes
 * `encodeRelated` streams on Node. Why not a `ReadableStream` body: Chromium sends streamed request bodies
 * over HTTP/2 or QUIC only (`ERR_H2_OR_QUIC_REQUIRED` on HTTP/1.1), and a Blob is what a browser can always
 * send. Attachments from a `Blob` (`writerFromBlob`) go in by reference, so the browser streams them from
 * its own storage and the page never holds their bytes; other writers are read into chunks first.
 */
async function relatedBody(request: HttpRequest): Promise<RelatedRequestBody> {
  const { headers, payloadType } = relatedHeaders(request);
  const payload = request.body ?? new Uint8Array(0);
  const boundary = makeBoundary([payload]);
  const parts: Piece[] = [latin1(`${CRLF}--${boundary}${CRLF}Content-Type: ${payloadType}${CRLF}${CRLF}`)];
  parts.push(payload);
  const ids = new Set<string>();
  const sources = request.attachments ?? [];
  let abandoned: Error | undefined;
  const addPart = (id: string, body: readonly Piece[]): void => {
    if (typeof id !== 'string' || id === '' || /[\r\n<>]/.test(id) || ids.has(id)) {
      throw new AttachmentStreamError(
        `attachment id '${String(id)}' ${ids.has(id) ? 'is used twice in the message' : 'is not a valid Content-ID'}`,
      );
    }
    ids.add(id);
    parts.push(latin1(`${CRLF}--${boundary}${CRLF}Content-ID: <${id}>${CRLF}${CRLF}`), ...body);
  };
  for (const source of sources) {
    if (abandoned !== undefined) throw abandoned;
    if (isIterator(source)) {
      for (const [id, chunks] of await collectIterator(source)) addPart(id, chunks);
      continue;
    }
    const blob = blobOf(source);
    if (blob !== undefined) addPart(source.getAttachmentID(), [blob as Blob]);
    else addPart(source.getAttachmentID(), await collectWriter(source));
  }
  parts.push(latin1(`${CRLF}--${boundary}--`));
  headers['Content-Type'] = `multipart/related; boundary=${boundary}`;
  return {
    headers,
    body: new Blob(parts),
    cancel: (reason: Error) => {
      abandoned = reason;
    },
  };
}

function isIterator(s: AttachmentDataSourceWriter | DataSourceIterator): s is DataSourceIterator {
  return typeof (s as DataSourceIterator).registerDataSourceReaderCallback === 'function';
}

/** Every chunk `writer` writes, granting capacity as it goes. */
function collectWriter(writer: AttachmentDataSourceWriter): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const handle = WriteHandle.attach(writer, {
      onChunk: (chunk) => {
        // a copy: a writer may reuse its buffer once write() returned
        chunks.push(new Uint8Array(chunk));
        handle.grant(1);
      },
      onDone: () => resolve(chunks),
      onError: reject,
    });
    handle.grant(4);
  });
}

/** The attachments of `iterator`, in order, each with its chunks. */
function collectIterator(iterator: DataSourceIterator): Promise<Array<[string, Uint8Array[]]>> {
  return new Promise((resolve, reject) => {
    const out: Array<[string, Uint8Array[]]> = [];
    iterator.registerDataSourceReaderCallback({
      onNewDataSource: (writer) => {
        collectWriter(writer).then(
          (chunks) => out.push([writer.getAttachmentID(), chunks]),
          (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        );
      },
      onFinished: () => resolve(out),
      onAbandonComplete: () =>
        reject(new AttachmentStreamError('the attachments were abandoned before they were written')),
      onStreamError: reject,
    });
  });
}

/**
 * A `multipart/related` response. From a response with a web stream `body` (the platform's `fetch`), the
 * attachments stream in as they arrive (`web-multipart.ts`); from any other fetch implementation, it is read
 * whole (bounded by `maxResponseBytes`) and then split, the attachments an {@link AttachmentReader} over
 * bytes in memory.
 */
async function readRelated(
  response: FetchResponseLike,
  contentType: string,
  limit: number,
): Promise<RelatedResponseParts> {
  const stream = (response as { body?: unknown }).body;
  if (isWebStream(stream)) return readRelatedStream(stream, boundaryOf(contentType), limit);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > limit) throw new AttachmentStreamError(`the response is over ${limit} bytes`);
  const parts = splitMultipart(bytes, boundaryOf(contentType));
  const [first, ...rest] = parts;
  if (first === undefined) throw new AttachmentStreamError('Malformed multipart mime request. No parts!');
  const writers = rest.map((p) => writerFromBytes(idOf(p.headers), p.body));
  const payloadType = first.headers.get('content-type');
  return {
    body: first.body,
    ...(payloadType === undefined ? {} : { contentType: payloadType }),
    ...(writers.length === 0
      ? {}
      : { attachments: new AttachmentReader(partsFromIterator(dataSourceIterator(writers))) }),
  };
}

function isWebStream(body: unknown): body is ReadableStream<Uint8Array> {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { getReader?: unknown }).getReader === 'function'
  );
}

function idOf(headers: ReadonlyMap<string, string>): string {
  const raw = (headers.get('content-id') ?? '').trim();
  return raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
}

interface BufferedPart {
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
}

/** The parts of a whole multipart body (RFC 2046 §5.1.1: preamble and epilogue ignored). */
export function splitMultipart(bytes: Uint8Array, boundary: string): BufferedPart[] {
  const dashBoundary = latin1(`--${boundary}`);
  const delimiter = latin1(`${CRLF}--${boundary}`);
  const malformed = (why: string): AttachmentStreamError =>
    new AttachmentStreamError(`Malformed multipart mime request. ${why}`);
  let pos: number;
  if (startsWith(bytes, dashBoundary, 0)) pos = dashBoundary.length;
  else {
    const at = indexOfBytes(bytes, delimiter, 0);
    if (at === -1) throw malformed('No boundary found in the body!');
    pos = at + delimiter.length;
  }
  const parts: BufferedPart[] = [];
  for (;;) {
    if (bytes[pos] === 0x2d && bytes[pos + 1] === 0x2d) return parts; // the close delimiter
    while (bytes[pos] === 0x20 || bytes[pos] === 0x09) pos++; // transport padding
    if (bytes[pos] !== 0x0d || bytes[pos + 1] !== 0x0a)
      throw malformed('A boundary is not followed by CRLF!');
    pos += 2;
    const headers = new Map<string, string>();
    if (bytes[pos] === 0x0d && bytes[pos + 1] === 0x0a) pos += 2;
    else {
      const end = indexOfBytes(bytes, latin1(`${CRLF}${CRLF}`), pos);
      if (end === -1) throw malformed('A part has no end of headers!');
      let text = '';
      for (let i = pos; i < end; i++) text += String.fromCharCode(bytes[i]!);
      for (const line of text.split(CRLF)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      pos = end + 4;
    }
    const next = indexOfBytes(bytes, delimiter, pos);
    if (next === -1) throw malformed('The body ends before the close delimiter!');
    parts.push({ headers, body: bytes.subarray(pos, next) });
    pos = next + delimiter.length;
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/**
 * `ClientOptions.attachments` for a page that sends or receives attachments through `svc-framework/client`:
 * `createResourceClient({ baseUrl, attachments: webAttachments }, ...)`.
 */
export const webAttachments: ClientAttachments = Object.freeze({ relatedBody, readRelated });
