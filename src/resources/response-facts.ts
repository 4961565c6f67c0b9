import type { EncodedResponse } from './request';

/**
 * Facts about a response that two parts of the request path both need, learnt once: the byte length of a
 * text body (the access log's `bytesOut`, then the adapter's `content-length`), and that a response header
 * value an observer added is ASCII (the request id it echoes, which the adapter would test again before
 * writing headers and body in one write). Each is the last one only: the observers run just before the
 * adapter writes the same response, on the same turn.
 *
 * Measured with the access log and request ids on (callgrind over HTTP, the example's get by id,
 * bench/runtime-observe's standalone access-log case): `Buffer.byteLength` of a ~90-byte body costs ~850
 * instructions (a call into C++), the adapter's test of the echoed id ~1.4k; the two were ~2.2k of the
 * ~11.6k instructions the access log and request ids added to a request of ~69k.
 */

/** Bodies up to this many chars are remembered (a larger one is not kept alive until the next response). */
const REMEMBERED_BODY_CHARS = 64 * 1024;

/**
 * Text bodies of up to this many chars that hold a char beyond Latin-1 are encoded to UTF-8 once, into a
 * shared pool ({@link utf8Bytes}): at most 3 bytes a char, so a body takes at most a quarter of a pool.
 */
const POOLED_BODY_CHARS = 8 * 1024;
/** Texts shorter than this keep Node's way without the test for a char beyond Latin-1 (see `utf8Bytes`). */
const TESTED_BODY_CHARS = 1024;
const POOL_BYTES = 4 * 3 * POOLED_BODY_CHARS;

/**
 * Holds a char beyond Latin-1: only a two-byte string can, and V8 answers this test on a one-byte string
 * without reading it (~30-100 ns for 100 KB, in-process), so it tells the two kinds of text apart. On a
 * two-byte text it reads up to that char (~0.55 ns a char; anchored, so no start is tried twice: ~0.8 ns
 * unanchored).
 */
const BEYOND_LATIN1 = /^[^\u0100-\uffff]*[\u0100-\uffff]/;

let pool: Buffer | undefined;
let poolUsed = 0;

/**
 * The UTF-8 bytes of `text` (at most {@link POOLED_BODY_CHARS} chars), written in one pass into a shared
 * pool and answered as a view of it, as Node's own small buffers are cut from its pool: a pool is replaced,
 * never written again, once full, so a view stays valid for as long as a socket or a caller holds it.
 *
 * Why, for two-byte texts only: Node writes a text body in two passes, `Buffer.byteLength` for the
 * content-length and the UTF-8 write into the socket (after joining it to the header block), and over a
 * two-byte string (a text with a char beyond Latin-1 anywhere: `☀` in a title) both passes are slow.
 * Measured over HTTP (callgrind, 3 000 requests after 12 000, bench/resources' servers): the example's
 * batch_get of 10, whose answer holds such a title, spent 10.5k of its 163.8k instructions in `byteLength`
 * and 17.4k in the socket's write; written from these bytes, 160.2k through svcPlugin and 156.7k through
 * createSvcServer (~160k before), the test for such a char included (~7.7k of it: it reads up to the `☀`,
 * through V8's runtime).
 * A one-byte text keeps Node's way: bytes go out in a write of their own beside the header block, ~4.5k
 * instructions more than the one joined write, which a get by id's ~90 bytes (+4.4k in all) and the
 * finder page's ~875 (+2.7k) did not repay; texts under {@link TESTED_BODY_CHARS} are not tested.
 */
function utf8Bytes(text: string): Buffer {
  const most = 3 * text.length;
  if (pool === undefined || poolUsed + most > POOL_BYTES) {
    pool = Buffer.allocUnsafeSlow(POOL_BYTES);
    poolUsed = 0;
  }
  const start = poolUsed;
  const n = pool.write(text, start, most, 'utf8');
  // the next body starts 8-aligned, as Node's pool does
  poolUsed = (start + n + 7) & ~7;
  return pool.subarray(start, start + n);
}

let lastResponse: EncodedResponse | undefined;
let lastBodyBytes = 0;
/** The last response's body as UTF-8 bytes, when it was encoded (a text of up to POOLED_BODY_CHARS). */
let lastBodyUtf8: Buffer | undefined;

/**
 * Learns the byte length of a response's body, and its UTF-8 bytes for a text that is encoded once
 * ({@link utf8Bytes}), keeping them for the next call about the same response.
 */
function learn(response: EncodedResponse, body: string): void {
  if (body.length >= TESTED_BODY_CHARS && body.length <= POOLED_BODY_CHARS && BEYOND_LATIN1.test(body)) {
    const bytes = utf8Bytes(body);
    lastResponse = response;
    lastBodyUtf8 = bytes;
    lastBodyBytes = bytes.length;
    return;
  }
  lastBodyUtf8 = undefined;
  lastBodyBytes = Buffer.byteLength(body);
  lastResponse = body.length <= REMEMBERED_BODY_CHARS ? response : undefined;
}

/**
 * The byte length of a response's body (UTF-8 for a text), from the last call when it is the same response
 * object: the access log measures a response before the adapter writes it. Keyed by the response rather
 * than its text: two texts compare char by char (~770 instructions for the ~90 bytes of a get), objects
 * in one step.
 */
export function responseBodyBytes(response: EncodedResponse): number {
  if (response === lastResponse) return lastBodyBytes;
  const body = response.body;
  if (body === undefined) return 0;
  if (typeof body !== 'string') return body.byteLength;
  learn(response, body);
  return lastBodyBytes;
}

/**
 * What an adapter writes of a text body: its UTF-8 bytes when they are made once for the response (a text
 * of {@link TESTED_BODY_CHARS} to {@link POOLED_BODY_CHARS} chars beyond Latin-1: made here if not yet),
 * else the text. Call after {@link responseBodyBytes} for the same response (its length is then the
 * content-length).
 */
export function responseBodyToWrite(response: EncodedResponse, body: string): string | Buffer {
  if (body.length > POOLED_BODY_CHARS || body.length < TESTED_BODY_CHARS) return body;
  if (response !== lastResponse) learn(response, body);
  return lastBodyUtf8 ?? body;
}

let lastAscii: string | undefined;

/** Notes that `value` (a header value an observer adds to a response) is ASCII. */
export function noteAsciiHeaderValue(value: string): void {
  lastAscii = value;
}

/** Whether `value` is the header value last noted ASCII by {@link noteAsciiHeaderValue}. */
export function isNotedAscii(value: string): boolean {
  return value === lastAscii;
}
