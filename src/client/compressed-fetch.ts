import { concatBytes } from '../data/bytes';
import { decodeSnappy, decodeSnappyFramed, encodeSnappy, encodeSnappyFramed } from '../protocol/snappy';
import { InflatedResponseTooLargeError } from './errors';
import type { FetchInit, FetchLike, FetchResponseLike } from './options';

/**
 * Compressed exchanges for a fetch implementation that does not negotiate them itself (the default
 * `nodeHttpFetch`; a browser's `fetch` and Node's global `fetch` ask for and decode gzip on their own and
 * need none of this): responses are asked for with `Accept-Encoding: gzip, deflate` (or the encodings
 * given) and inflated as they arrive, and request bodies over a threshold are sent compressed
 * (`Content-Encoding: gzip` by default), which a Svc server or a Rest.li server with its compression filter
 * reads.
 *
 * Encodings: gzip and deflate through the web platform's `DecompressionStream` / `CompressionStream`
 * (Node 18+ and browsers), `snappy` and `x-snappy-framed` as the reference's filters write them
 * (src/protocol/snappy.ts), so the client entry stays free of Node built-ins. `multipart/related`
 * responses are left alone: their attachments stream, and servers (Svc's, the reference's) do not
 * compress them.
 *
 * A response that inflates past `maxInflatedBytes` fails with {@link InflatedResponseTooLargeError} as soon
 * as inflating passes the limit: the inflated body is counted as it comes, never held whole first, and a
 * Snappy block that declares more than is left is refused before it is decoded.
 */

/** The encodings {@link compressedFetch} reads and writes. */
export type FetchEncoding = 'gzip' | 'deflate' | 'snappy' | 'x-snappy-framed';

/** Options of {@link compressedFetch}; every default is listed here. */
export interface CompressedFetchOptions {
  /** Request bodies of more bytes than this are sent compressed; `Infinity` never. Default 1024. */
  readonly requestThreshold?: number;
  /** The encoding of compressed request bodies. Default gzip. */
  readonly requestEncoding?: FetchEncoding;
  /** The encodings asked for, in preference order. Default gzip, deflate. */
  readonly accept?: readonly FetchEncoding[];
  /**
   * The most bytes a response may inflate to. Default the client's `maxResponseBytes` (64 MiB unless set),
   * which the transport would otherwise check only once the whole inflated body is in.
   */
  readonly maxInflatedBytes?: number;
}

/** What inflating reads at a time: small enough that the decompressor never runs far ahead of the count. */
const SLICE = 16 * 1024;
const DEFAULT_MAX_INFLATED = 64 * 1024 * 1024;
const ENCODINGS: readonly string[] = ['gzip', 'deflate', 'snappy', 'x-snappy-framed'];

async function compress(bytes: Uint8Array, encoding: FetchEncoding): Promise<Uint8Array> {
  if (encoding === 'snappy') return encodeSnappy(bytes);
  if (encoding === 'x-snappy-framed') return encodeSnappyFramed(bytes);
  const stream = new CompressionStream(encoding);
  const writer = stream.writable.getWriter();
  // written and read at once: the stream's queues are small, waiting on the write first could stall
  const written = writer.write(bytes).then(() => writer.close());
  const chunks: Uint8Array[] = [];
  const reader = (stream.readable as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  await written;
  return concatBytes(chunks);
}

/**
 * Inflates `bytes`, failing once the output passes `max`: the input goes in slice by slice while the
 * output is read and counted, and both sides are cancelled at the limit.
 */
async function inflate(
  bytes: Uint8Array,
  encoding: FetchEncoding,
  max: number,
  url: string,
): Promise<Uint8Array> {
  const tooLarge = (): InflatedResponseTooLargeError => new InflatedResponseTooLargeError(url, max);
  if (encoding === 'snappy' || encoding === 'x-snappy-framed') {
    try {
      return encoding === 'snappy' ? decodeSnappy(bytes, max) : decodeSnappyFramed(bytes, max);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw err;
    }
  }
  const stream = new DecompressionStream(encoding);
  const writer = stream.writable.getWriter();
  const reader = (stream.readable as ReadableStream<Uint8Array>).getReader();
  let stopped = false;
  const written = (async () => {
    for (let at = 0; at < bytes.length && !stopped; at += SLICE)
      await writer.write(bytes.subarray(at, Math.min(bytes.length, at + SLICE)));
    if (!stopped) await writer.close();
  })();
  // a write failing (a corrupt body) also fails the read below; this keeps it from going unhandled
  written.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      stopped = true;
      const err = tooLarge();
      await Promise.allSettled([reader.cancel(err), writer.abort(err)]);
      throw err;
    }
    chunks.push(value);
  }
  await written;
  return concatBytes(chunks);
}

function headerOf(headers: FetchResponseLike['headers'], name: string): string | undefined {
  let found: string | undefined;
  headers.forEach((value, n) => {
    if (n.toLowerCase() === name) found = value;
  });
  return found;
}

/** The response with its body inflated (bounded) and `Content-Encoding` left out. */
function inflated(
  response: FetchResponseLike,
  encoding: FetchEncoding,
  max: number,
  url: string,
): FetchResponseLike {
  let body: Promise<ArrayBuffer> | undefined;
  return {
    status: response.status,
    headers: {
      forEach(callback: (value: string, name: string) => void): void {
        response.headers.forEach((value, name) => {
          // the length is the compressed one
          const lower = name.toLowerCase();
          if (lower !== 'content-encoding' && lower !== 'content-length') callback(value, name);
        });
      },
    },
    arrayBuffer: () =>
      (body ??= response
        .arrayBuffer()
        .then((raw) => inflate(new Uint8Array(raw), encoding, max, url))
        .then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)),
  };
}

/**
 * Wraps `inner` (`nodeHttpFetch` or any {@link FetchLike} that passes bytes through as sent) to ask for
 * compressed responses, inflate them (bounded by `maxInflatedBytes`), and compress large request bodies.
 *
 * @example
 * ```ts
 * const client = createResourceClient(
 *   { baseUrl: 'http://127.0.0.1:8080', fetch: compressedFetch(nodeHttpFetch) },
 *   { photos },
 * );
 * ```
 */
export function compressedFetch(inner: FetchLike, options: CompressedFetchOptions = {}): FetchLike {
  const threshold = options.requestThreshold ?? 1024;
  const requestEncoding = options.requestEncoding ?? 'gzip';
  const acceptList = options.accept ?? ['gzip', 'deflate'];
  for (const e of [requestEncoding, ...acceptList])
    if (!ENCODINGS.includes(e)) throw new TypeError(`compressedFetch: unknown encoding '${String(e)}'`);
  const accept = acceptList.join(', ');
  return async (url: string, init: FetchInit): Promise<FetchResponseLike> => {
    const headers: Record<string, string> = { ...init.headers };
    const named = (n: string): string | undefined => Object.keys(headers).find((k) => k.toLowerCase() === n);
    if (named('accept-encoding') === undefined) headers['accept-encoding'] = accept;
    let body = init.body;
    if (
      body instanceof Uint8Array &&
      body.byteLength > threshold &&
      named('content-encoding') === undefined
    ) {
      body = await compress(body, requestEncoding);
      headers['content-encoding'] = requestEncoding;
    }
    const response = await inner(url, { ...init, headers, ...(body === undefined ? {} : { body }) });
    const encoding = headerOf(response.headers, 'content-encoding')?.trim().toLowerCase();
    if (encoding !== undefined && ENCODINGS.includes(encoding)) {
      const max = options.maxInflatedBytes ?? init.maxResponseBytes ?? DEFAULT_MAX_INFLATED;
      return inflated(response, encoding as FetchEncoding, max, url);
    }
    return response;
  };
}
