import { concatBytes } from '../data/bytes';
import type { FetchInit, FetchLike, FetchResponseLike } from './options';

/**
 * Compressed exchanges for a fetch implementation that does not negotiate them itself (the default
 * `nodeHttpFetch`; a browser's `fetch` and Node's global `fetch` ask for and decode gzip on their own and
 * need none of this): responses are asked for with `Accept-Encoding: gzip, deflate` and inflated as they
 * arrive, and request bodies over a threshold are sent gzipped (`Content-Encoding: gzip`), which a Svc
 * server or a Rest.li server with its compression filter reads.
 *
 * Uses the web platform's `CompressionStream` / `DecompressionStream` (Node 18+ and browsers), so the
 * client entry stays free of Node built-ins. `multipart/related` responses are left alone: their
 * attachments stream, and servers (Svc's, the reference's) do not compress them.
 */

/** Options of {@link compressedFetch}; every default is listed here. */
export interface CompressedFetchOptions {
  /** Request bodies of more bytes than this are sent gzipped; `Infinity` never. Default 1024. */
  readonly requestThreshold?: number;
  /** The encodings asked for, in preference order. Default gzip, deflate. */
  readonly accept?: readonly ('gzip' | 'deflate')[];
}

type Format = 'gzip' | 'deflate';

async function run(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
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

function headerOf(headers: FetchResponseLike['headers'], name: string): string | undefined {
  let found: string | undefined;
  headers.forEach((value, n) => {
    if (n.toLowerCase() === name) found = value;
  });
  return found;
}

/** The response with its body inflated and `Content-Encoding` left out. */
function inflated(response: FetchResponseLike, format: Format): FetchResponseLike {
  let body: Promise<ArrayBuffer> | undefined;
  return {
    status: response.status,
    headers: {
      forEach(callback: (value: string, name: string) => void): void {
        response.headers.forEach((value, name) => {
          if (name.toLowerCase() !== 'content-encoding') callback(value, name);
        });
      },
    },
    arrayBuffer: () =>
      (body ??= response
        .arrayBuffer()
        .then((raw) => run(new Uint8Array(raw), new DecompressionStream(format)))
        .then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)),
  };
}

/**
 * Wraps `inner` (`nodeHttpFetch` or any {@link FetchLike} that passes bytes through as sent) to ask for
 * compressed responses, inflate them, and gzip large request bodies.
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
  const accept = (options.accept ?? ['gzip', 'deflate']).join(', ');
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
      body = await run(body, new CompressionStream('gzip'));
      headers['content-encoding'] = 'gzip';
    }
    const response = await inner(url, { ...init, headers, ...(body === undefined ? {} : { body }) });
    const encoding = headerOf(response.headers, 'content-encoding')?.trim().toLowerCase();
    if (encoding === 'gzip' || encoding === 'deflate') return inflated(response, encoding);
    return response;
  };
}
