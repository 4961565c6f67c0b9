import * as zlib from 'node:zlib';
import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { RequestBodyError, SvcPluginOptionsError } from '../resources/errors';
import type { EncodedResponse, RequestHeaders, ResourceRequest } from '../resources/request';
import { decodeSnappy, decodeSnappyFramed, encodeSnappy, encodeSnappyFramed } from '../protocol/snappy';
import { SERVER_COMPRESSION_CODES } from '../errors/error-table';
import { type FirstValueRead, firstValueRead } from './header-reads';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SERVER_COMPRESSION_CODES);

/**
 * Compression as the reference's compression filters do it (`ServerCompressionFilter`): a request body sent
 * with `Content-Encoding` is inflated before anything reads it; a response body above a threshold is
 * compressed with the best encoding the request's `Accept-Encoding` allows, and sent compressed only when
 * that made it smaller.
 *
 * - Encodings: `gzip`, `deflate` (zlib-wrapped, as HTTP's `deflate`), `snappy` (xerial's stream, as the
 *   reference's `SnappyCompressor` writes it) and `x-snappy-framed` (Google's framing format), both from
 *   src/protocol/snappy.ts, and `br` beyond the reference; the reference's preference order among equal
 *   q-values (gzip, deflate, snappy, x-snappy-framed, then br). `identity` and `*` as RFC 9110 says.
 *   (The reference's `bzip2` is not supported.)
 * - A request `Content-Encoding` the server does not support, or `*`, is a **415** (`Unsupported encoding
 *   referenced: x`); a body that does not inflate a **400**; one that inflates past `maxBodyBytes` a
 *   **413** (`Request body is too large`): inflating stops there, so a decompression bomb costs at most that
 *   much memory.
 * - An `Accept-Encoding` that refuses every encoding the server has and `identity` too is a **406** with an
 *   empty body, as the reference answers.
 * - `X-Response-Compression-Threshold: <bytes>` on a request sets the threshold for its response, as the
 *   reference's clients send it (not a number: 415, as there).
 * - Streamed responses (`multipart/related` with attachments) stay streamed and uncompressed; a compressed
 *   `multipart/related` request is a 415 (its parts are read as they arrive).
 */

export type ContentEncoding = 'gzip' | 'deflate' | 'snappy' | 'x-snappy-framed' | 'br';

/** Options of server compression (`svcPlugin` / `createSvcServer` option `compression`). */
export interface CompressionOptions {
  /** Response bodies of more bytes than this are compressed. Default 1024 ({@link DEFAULT_COMPRESSION_THRESHOLD}). */
  readonly threshold?: number;
  /**
   * Encodings offered for responses and accepted for requests, in preference order. Default gzip, deflate,
   * snappy, x-snappy-framed, br.
   */
  readonly encodings?: readonly ContentEncoding[];
  /** zlib level for gzip and deflate (1 fast ... 9 small). Default 6 (zlib's). */
  readonly level?: number;
}

/** Below about a kilobyte gzip's header and the CPU cost outweigh the bytes saved (bench/compression.bench.ts). */
export const DEFAULT_COMPRESSION_THRESHOLD = 1024;
const ALL_ENCODINGS: readonly ContentEncoding[] = ['gzip', 'deflate', 'snappy', 'x-snappy-framed', 'br'];

/** The resolved options (every default filled in). */
export interface ResolvedCompression {
  readonly threshold: number;
  readonly encodings: readonly ContentEncoding[];
  readonly level: number;
}

/** The request's `Content-Encoding` cannot be read (`SVC_ERR_PROTOCOL_UNSUPPORTED_ENCODING`, 415). */
export class UnsupportedEncodingError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_PROTOCOL_UNSUPPORTED_ENCODING', message);
  }
}

/** A compressed request body that does not inflate (`SVC_ERR_PROTOCOL_BAD_ENCODED_BODY`, 400). */
export class BadEncodedBodyError extends SvcError {
  constructor(encoding: string, cause: unknown) {
    super('SVC_ERR_PROTOCOL_BAD_ENCODED_BODY', `Cannot properly decode stream: ${encoding}`, { cause });
  }
}

/**
 * Checks and fills in the options (false: no compression at all).
 * @throws TypeError for a bad option
 */
export function resolveCompression(
  options: CompressionOptions | boolean | undefined,
): ResolvedCompression | undefined {
  if (options === false) return undefined;
  const o = options === true || options === undefined ? {} : options;
  const threshold = o.threshold ?? DEFAULT_COMPRESSION_THRESHOLD;
  if (!Number.isSafeInteger(threshold) || threshold < 0)
    throw new TypeError("compression option 'threshold' must be a non-negative integer of bytes");
  const encodings: unknown = o.encodings ?? ALL_ENCODINGS;
  if (
    !Array.isArray(encodings) ||
    !(encodings as unknown[]).every((e) => (ALL_ENCODINGS as readonly unknown[]).includes(e))
  )
    throw new TypeError(`compression option 'encodings' must list some of ${ALL_ENCODINGS.join(', ')}`);
  const level = o.level ?? 6;
  if (!Number.isInteger(level) || level < 1 || level > 9)
    throw new TypeError("compression option 'level' must be an integer from 1 to 9");
  return Object.freeze({
    threshold,
    encodings: Object.freeze([...(encodings as ContentEncoding[])]),
    level,
  });
}

/** {@link resolveCompression} for the server options: a bad option is an `SvcPluginOptionsError`. */
export function compressionOption(options: unknown): ResolvedCompression | undefined {
  if (
    options !== undefined &&
    typeof options !== 'boolean' &&
    (typeof options !== 'object' || options === null)
  )
    throw new SvcPluginOptionsError('compression', 'must be true, false or compression options');
  try {
    return resolveCompression(options);
  } catch (err) {
    throw new SvcPluginOptionsError('compression', (err as Error).message);
  }
}

// the headers this module reads, each name at a load of its own (header-reads.ts)
const CONTENT_ENCODING = firstValueRead(['content-encoding']);
const COMPRESSION_THRESHOLD = firstValueRead(['x-response-compression-threshold']);
const ACCEPT_ENCODING = firstValueRead(['accept-encoding']);

function header(
  headers: RequestHeaders,
  read: FirstValueRead,
  name: string,
  lowerCase: boolean,
): string | undefined {
  let v = read(headers);
  if (v === undefined && !lowerCase) {
    for (const k of Object.keys(headers)) if (k.toLowerCase() === name) v = headers[k];
  }
  return typeof v === 'string' || v === undefined ? v : v.join(', ');
}

type ZlibCall = (
  buf: Uint8Array,
  options: object,
  callback: (err: Error | null, out: Buffer) => void,
) => void;

/**
 * A zlib call as a promise made here with `new Promise` (not util.promisify's): the pipeline tells promises
 * from values with `instanceof Promise`, and under a test runner's separate realm the core's promises fail it.
 */
function zlibPromise(call: ZlibCall): (buf: Uint8Array, options: object) => Promise<Buffer> {
  return (buf, options) =>
    new Promise((resolve, reject) => {
      call(buf, options, (err, out) => (err === null ? resolve(out) : reject(err)));
    });
}

/** A synchronous codec as a promise (Snappy runs in JavaScript, ~1 ms per 100 KB: bench/compression.bench.ts). */
function syncPromise(
  run: (buf: Uint8Array, max: number) => Uint8Array,
): (buf: Uint8Array, options: object) => Promise<Buffer> {
  return (buf, options) =>
    new Promise((resolve) => {
      const max = (options as { maxOutputLength?: number }).maxOutputLength;
      const out = run(buf, max ?? Number.MAX_SAFE_INTEGER);
      resolve(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
    });
}

const inflaters = {
  gzip: zlibPromise(zlib.gunzip),
  deflate: zlibPromise(zlib.inflate),
  // a body that claims to inflate past maxOutputLength fails with ERR_BUFFER_TOO_LARGE, as zlib's do
  snappy: syncPromise(decodeSnappy),
  'x-snappy-framed': syncPromise(decodeSnappyFramed),
  br: zlibPromise(zlib.brotliDecompress),
};

/**
 * The request with its body inflated and `Content-Encoding` removed; the request itself when it has no
 * encoding (or `identity`).
 * @throws UnsupportedEncodingError (415), BadEncodedBodyError (400), RequestBodyError (413)
 */
export async function inflateRequest(
  request: ResourceRequest,
  encoding: string,
  options: ResolvedCompression,
  maxBodyBytes: number,
): Promise<ResourceRequest> {
  const name = encoding.trim().toLowerCase();
  if (name === '*')
    throw new UnsupportedEncodingError(`ANY may not be used as request encoding type: ${encoding}`);
  if (!(options.encodings as readonly string[]).includes(name))
    throw new UnsupportedEncodingError(`Unsupported encoding referenced: ${encoding}`);
  if (request.bodyStream !== undefined)
    throw new UnsupportedEncodingError(
      `Unsupported encoding referenced: ${encoding} (a multipart/related body is read as it streams in)`,
    );
  const headers: Record<string, string | readonly string[] | undefined> = {};
  for (const [k, v] of Object.entries(request.headers))
    if (k.toLowerCase() !== 'content-encoding') headers[k] = v;
  if (request.body === undefined || request.body.length === 0) return { ...request, headers };
  let body: Buffer;
  try {
    // maxOutputLength stops inflating at the limit: a bomb never takes more than maxBodyBytes
    body = await inflaters[name as ContentEncoding](request.body, { maxOutputLength: maxBodyBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new RequestBodyError('Request body is too large', 'SVC_ERR_BIND_BODY_TOO_LARGE', { cause: err });
    throw new BadEncodedBodyError(encoding, err);
  }
  return { ...request, headers, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
}

/** The request's `Content-Encoding` when it needs inflating (undefined for none or `identity`). */
export function requestEncoding(request: ResourceRequest, lowerCase: boolean): string | undefined {
  const e = header(request.headers, CONTENT_ENCODING, 'content-encoding', lowerCase);
  return e === undefined || e.trim() === '' || e.trim().toLowerCase() === 'identity' ? undefined : e;
}

/**
 * The encoding for a response (the best of `accept` the server has, by q-value then server preference),
 * `identity` for none needed, or undefined when nothing acceptable is left (406).
 */
export function negotiateEncoding(
  accept: string | undefined,
  encodings: readonly ContentEncoding[],
): ContentEncoding | 'identity' | undefined {
  if (accept === undefined || accept.trim() === '') return 'identity';
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m !== null) weight = Number(m[1]);
    }
    if (Number.isFinite(weight)) q.set(name, Math.max(q.get(name) ?? -1, weight));
  }
  const star = q.get('*');
  let best: ContentEncoding | undefined;
  let bestQ = 0;
  for (const e of encodings) {
    const w = q.get(e) ?? star ?? 0;
    if (w > bestQ) {
      best = e;
      bestQ = w;
    }
  }
  if (best !== undefined) return best;
  // identity is acceptable unless refused by name, or by * without naming it (RFC 9110 §12.5.3)
  const identity = q.get('identity') ?? (star === 0 ? 0 : 1);
  return identity > 0 ? 'identity' : undefined;
}

const deflaters = {
  gzip: zlibPromise(zlib.gzip),
  deflate: zlibPromise(zlib.deflate),
  snappy: syncPromise(encodeSnappy),
  'x-snappy-framed': syncPromise(encodeSnappyFramed),
  br: zlibPromise(zlib.brotliCompress),
};

/** Accept-Encoding values seen → what they negotiate, per server's options (clients send a handful). */
const encodingCache = new WeakMap<
  ResolvedCompression,
  Map<string, ContentEncoding | 'identity' | undefined>
>();
const ENCODING_CACHE_LIMIT = 64;

function cachedEncoding(
  accept: string,
  options: ResolvedCompression,
): ContentEncoding | 'identity' | undefined {
  let cache = encodingCache.get(options);
  if (cache === undefined) {
    cache = new Map();
    encodingCache.set(options, cache);
  }
  if (cache.has(accept)) return cache.get(accept);
  const encoding = negotiateEncoding(accept, options.encodings);
  if (cache.size >= ENCODING_CACHE_LIMIT) cache.clear();
  cache.set(accept, encoding);
  return encoding;
}

function thresholdOf(request: ResourceRequest, options: ResolvedCompression, lowerCase: boolean): number {
  const given = header(request.headers, COMPRESSION_THRESHOLD, 'x-response-compression-threshold', lowerCase);
  if (given === undefined) return options.threshold;
  const n = Number(given.trim());
  if (!Number.isSafeInteger(n) || n < 0 || given.trim() === '')
    throw new UnsupportedEncodingError(`Invalid compression threshold: ${given}`);
  return n;
}

/**
 * The response compressed for `request` when it should be (a body over the threshold, an encoding the
 * request accepts, a smaller result); the 406 when the request accepts nothing the server can send.
 */
export function compressResponse(
  request: ResourceRequest,
  out: EncodedResponse,
  options: ResolvedCompression,
  lowerCase: boolean,
): EncodedResponse | Promise<EncodedResponse> {
  const body = out.body;
  if (body === undefined || out.stream !== undefined) return out;
  const accept = header(request.headers, ACCEPT_ENCODING, 'accept-encoding', lowerCase);
  if (accept === undefined) return out;
  const encoding = cachedEncoding(accept, options);
  if (encoding === undefined) return { status: 406, headers: out.headers, body: undefined };
  if (encoding === 'identity') return out;
  let threshold: number;
  try {
    threshold = thresholdOf(request, options, lowerCase);
  } catch {
    // the reference refuses a bad threshold header with a bare 415
    return { status: 415, headers: out.headers, body: undefined };
  }
  // a text of n chars is at most 3n UTF-8 bytes: a small body needs no Buffer to know (making one cost
  // ~0.8 µs per response to every client that sends Accept-Encoding, as browsers and fetch do)
  if (typeof body === 'string' ? body.length * 3 <= threshold : body.byteLength <= threshold) return out;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length <= threshold) return out;
  const zopts =
    encoding === 'br'
      ? {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }
      : { level: options.level };
  return deflaters[encoding](bytes, zopts).then((compressed) => {
    if (compressed.length >= bytes.length) return out;
    return {
      status: out.status,
      headers: { ...out.headers, 'content-encoding': encoding, vary: 'Accept-Encoding' },
      body: new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.byteLength),
    };
  });
}
