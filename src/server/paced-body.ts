import { Readable } from 'node:stream';

/**
 * A large response body written a piece per turn of the event loop instead of in one write (issue 22).
 * Writing a ~180 KB body (a batch finder's 1 000 entries) in one `write(2)` took 3-8 ms on loopback, where
 * the kernel delivers the bytes within the sender's call, and no other request ran meanwhile: it was the
 * longest task left beside a tunneled batch finder (bench/batch-stall). In pieces of 16 KiB, each in its
 * own turn, the gets queued behind it wait for one piece, and the client's slower reading holds the rest
 * back (the response's backpressure), not the server's memory. The bytes and headers are the same:
 * `Content-Length` is set from the whole body, so nothing is chunk-encoded.
 */

/** Bodies at least this long are written in pieces; shorter ones in one write with the headers. */
export const PACED_BODY_BYTES = 64 * 1024;
/** Bytes per piece. */
const PIECE_BYTES = 16 * 1024;

/** The body as bytes, once it is long enough to be paced; else undefined (written at once). */
export function pacedBytes(body: string | Uint8Array): Buffer | undefined {
  if (typeof body === 'string') {
    // a string shorter than the limit in UTF-16 units may still be longer in UTF-8: counted only near it
    if (body.length * 3 < PACED_BODY_BYTES) return undefined;
    if (body.length < PACED_BODY_BYTES && Buffer.byteLength(body) < PACED_BODY_BYTES) return undefined;
    return Buffer.from(body, 'utf8');
  }
  return body.byteLength < PACED_BODY_BYTES
    ? undefined
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** A stream of `bytes` that gives one piece per turn of the event loop, as fast as its reader takes them. */
export function pacedBody(bytes: Buffer): Readable {
  let at = 0;
  let scheduled = false;
  const stream: Readable = new Readable({
    highWaterMark: PIECE_BYTES,
    read() {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (stream.destroyed) return;
        const end = Math.min(at + PIECE_BYTES, bytes.length);
        const piece = bytes.subarray(at, end);
        at = end;
        stream.push(piece);
        if (at >= bytes.length) stream.push(null);
      });
    },
  });
  return stream;
}
