/**
 * Byte helpers that run everywhere: Node's `Buffer` where there is one (its native code is what the codecs'
 * timings were taken with, and callers on Node get Buffers, as before), plain `Uint8Array`s with
 * `TextEncoder`/`TextDecoder` and `crypto.getRandomValues` in a browser. `Buffer` is read off `globalThis`
 * once, never named as a free global, so a browser bundle of the client (`svc-framework/client`) neither
 * needs a polyfill nor throws at load (`test/client/browser-entry.test.ts`).
 */

/** What of Node's `Buffer` these helpers use. */
interface NodeBufferLike extends Uint8Array {
  toString(encoding?: string, start?: number, end?: number): string;
  equals(other: Uint8Array): boolean;
  copy(target: Uint8Array, targetStart?: number, sourceStart?: number, sourceEnd?: number): number;
}
interface NodeBufferClass {
  from(text: string, encoding: string): NodeBufferLike;
  from(buffer: ArrayBufferLike, byteOffset?: number, length?: number): NodeBufferLike;
  allocUnsafe(size: number): NodeBufferLike;
  allocUnsafeSlow(size: number): NodeBufferLike;
  byteLength(text: string, encoding: string): number;
  concat(list: readonly Uint8Array[]): NodeBufferLike;
  prototype: NodeBufferLike;
}

/** Node's `Buffer`, or undefined in a browser. */
export const NodeBuffer: NodeBufferClass | undefined = (globalThis as { Buffer?: NodeBufferClass }).Buffer;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of `text`. */
export function utf8Bytes(text: string): Uint8Array {
  return NodeBuffer !== undefined ? NodeBuffer.from(text, 'utf8') : encoder.encode(text);
}

/** The number of UTF-8 bytes of `text`. */
export function utf8Length(text: string): number {
  return NodeBuffer !== undefined ? NodeBuffer.byteLength(text, 'utf8') : encoder.encode(text).byteLength;
}

/** The Latin-1 bytes of `text` (each UTF-16 unit's low byte, as `Buffer.from(text, 'latin1')`). */
export function latin1Bytes(text: string): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.from(text, 'latin1');
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** `bytes` as Latin-1 text (one char per byte). */
export function latin1Text(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return viewOf(bytes).toString('latin1');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return s;
}

/** `bytes` as UTF-8 text (malformed sequences become U+FFFD). */
export function utf8Text(bytes: Uint8Array): string {
  return NodeBuffer !== undefined ? viewOf(bytes).toString('utf8') : decoder.decode(bytes);
}

/** `bytes` as lower-case hex. */
export function hexText(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return viewOf(bytes).toString('hex');
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Whether `a` and `b` hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (NodeBuffer !== undefined) return viewOf(a).equals(b);
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Where `needle` (at least one byte) first occurs in `bytes` at or after `from`; -1 when nowhere. */
export function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0]!;
  for (
    let i = bytes.indexOf(first, from);
    i !== -1 && i + needle.length <= bytes.length;
    i = bytes.indexOf(first, i + 1)
  ) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/** The chunks one after the other, in a new array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.concat(chunks);
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * `size` bytes, not zeroed on Node (`Buffer.allocUnsafeSlow`: outside the shared pool, for a buffer kept
 * and reused); zeroed elsewhere.
 */
export function allocBytes(size: number): Uint8Array {
  return NodeBuffer !== undefined ? NodeBuffer.allocUnsafeSlow(size) : new Uint8Array(size);
}

/** A copy of `bytes[0..length)` (on Node from the shared pool, as `Buffer.allocUnsafe`). */
export function copyBytes(bytes: Uint8Array, length: number): Uint8Array {
  if (NodeBuffer !== undefined) {
    const out = NodeBuffer.allocUnsafe(length);
    out.set(bytes.subarray(0, length));
    return out;
  }
  return bytes.slice(0, length);
}

/** `n` cryptographically random bytes (Web Crypto: global in browsers and Node ≥ 19). */
export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

function viewOf(bytes: Uint8Array): NodeBufferLike {
  return NodeBuffer!.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether the Latin-1 text of `haystack` contains `needle` (a boundary search). */
export function includesLatin1(haystack: Uint8Array, needle: string): boolean {
  if (NodeBuffer !== undefined)
    return (
      viewOf(haystack) as unknown as { includes(n: string, at: number, enc: string): boolean }
    ).includes(needle, 0, 'latin1');
  return latin1Text(haystack).includes(needle);
}
