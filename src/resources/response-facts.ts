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

let lastResponse: EncodedResponse | undefined;
let lastBodyBytes = 0;

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
  const bytes = Buffer.byteLength(body);
  if (body.length <= REMEMBERED_BODY_CHARS) {
    lastResponse = response;
    lastBodyBytes = bytes;
  }
  return bytes;
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
