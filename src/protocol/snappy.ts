// snappyjs ships no types: a reference rather than only a file in the program, because projects that compile
// these sources through `paths` (the generated-code tests) load this module without the project's include
// list; an import cannot name a declaration file that is not a module
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./snappyjs.d.ts" />
import { compress as compressBlock, uncompress as uncompressBlock } from 'snappyjs';

/**
 * The two Snappy content encodings of the reference's compression filters (r2-filter-compression), byte for
 * byte, for request and response bodies on both sides (portable: no Node built-in):
 *
 * - `snappy`: what the reference's `SnappyCompressor` writes and reads through xerial's
 *   `SnappyOutputStream` / `SnappyInputStream`, which is neither a bare Snappy block nor Google's framing
 *   format: a 16-byte header (`0x82 "SNAPPY" 0x00`, version 1 and compatible version 1 as big-endian
 *   int32s), then blocks, each a big-endian int32 length and one Snappy block of at most 32 KiB of input.
 *   As xerial's reader does, a body without that header is read as one bare Snappy block.
 * - `x-snappy-framed`: Google's framing format (framing_format.txt), which the reference reads with
 *   checksums verified: a stream identifier chunk (`0xff 06 00 00 "sNaPpY"`), then chunks of at most
 *   64 KiB of input, compressed (type 0x00) or stored (0x01), each with the masked CRC-32C of its input;
 *   padding (0xfe) and skippable chunks (0x80–0xfd) are skipped, reserved unskippable ones (0x02–0x7f)
 *   refused.
 *
 * The block format itself comes from `snappyjs` (pure JavaScript); the two framings are written here, as
 * no well-kept npm library writes xerial's and the framing-format ones are Node-only or unmaintained.
 * Decoding is bounded: every block's declared length is checked against what is left of `maxBytes`
 * before anything is allocated, so a tiny body that claims to inflate past the limit costs nothing.
 */

/** A body that is not valid in its Snappy encoding, or that inflates past the limit (`tooLarge`). */
export class SnappyFormatError extends Error {
  /** Node's code for the same condition from zlib, so callers map both alike. */
  readonly code: string | undefined;
  constructor(message: string, tooLarge = false) {
    super(message);
    this.name = 'SnappyFormatError';
    this.code = tooLarge ? 'ERR_BUFFER_TOO_LARGE' : undefined;
  }
}

const XERIAL_MAGIC = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00];
const XERIAL_HEADER = 16;
/** xerial's default block size. */
const XERIAL_BLOCK = 32 * 1024;
const FRAMED_ID = [0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59];
/** The framing format's largest chunk input. */
const FRAMED_BLOCK = 64 * 1024;

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): one table, made on first use (a table made at
// load would keep this module, and snappyjs, in browser bundles that never use Snappy)
let crcTable: Uint32Array | undefined;
function crcTableOf(): Uint32Array {
  if (crcTable !== undefined) return crcTable;
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return (crcTable = t);
}

/** CRC-32C of `bytes` (check value: "123456789" → 0xe3069283). */
export function crc32c(bytes: Uint8Array): number {
  const table = crcTableOf();
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The framing format's masked checksum: rotated right by 15 and offset, so CRCs of CRCs stay useful. */
function maskedCrc(bytes: Uint8Array): number {
  const c = crc32c(bytes);
  return (((c >>> 15) | (c << 17)) + 0xa282ead8) >>> 0;
}

/**
 * The bytes as a Uint8Array of this realm: `snappyjs` tells inputs apart with `instanceof`, which fails
 * for a Uint8Array made in another realm (Node's core under a test runner's sandbox, a frame's).
 */
function local(bytes: Uint8Array): Uint8Array {
  const b = bytes as unknown;
  return b instanceof Uint8Array ? b : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One Snappy block decoded, refused when it declares more than `left` bytes. */
function block(bytes: Uint8Array, left: number): Uint8Array {
  let out: Uint8Array;
  try {
    out = uncompressBlock(local(bytes), left);
  } catch (err) {
    const message = (err as Error).message;
    if (/too big/.test(message)) throw new SnappyFormatError('the body inflates past the limit', true);
    throw new SnappyFormatError(`not a Snappy block: ${message}`);
  }
  return out;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** `snappy` as the reference writes it (xerial's stream). */
export function encodeSnappy(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [new Uint8Array([...XERIAL_MAGIC, 0, 0, 0, 1, 0, 0, 0, 1])];
  let size = XERIAL_HEADER;
  for (let at = 0; at < bytes.length; at += XERIAL_BLOCK) {
    const compressed = compressBlock(local(bytes).subarray(at, Math.min(bytes.length, at + XERIAL_BLOCK)));
    const length = new Uint8Array(4);
    new DataView(length.buffer).setInt32(0, compressed.length);
    parts.push(length, compressed);
    size += 4 + compressed.length;
  }
  return concat(parts, size);
}

/**
 * `snappy` as the reference reads it: xerial's stream, or a bare block without its header.
 * @throws SnappyFormatError (`code` ERR_BUFFER_TOO_LARGE past `maxBytes`)
 */
export function decodeSnappy(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (!startsWith(bytes, XERIAL_MAGIC)) return block(bytes, maxBytes);
  if (bytes.length < XERIAL_HEADER) throw new SnappyFormatError('a truncated snappy stream header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt32(12) > 1) throw new SnappyFormatError('an incompatible snappy stream version');
  const parts: Uint8Array[] = [];
  let size = 0;
  let at = XERIAL_HEADER;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) throw new SnappyFormatError('a truncated snappy stream');
    const length = view.getInt32(at);
    at += 4;
    if (length < 0 || at + length > bytes.length) throw new SnappyFormatError('a truncated snappy stream');
    const out = block(bytes.subarray(at, at + length), maxBytes - size);
    parts.push(out);
    size += out.length;
    at += length;
  }
  return concat(parts, size);
}

/** `x-snappy-framed`: the framing format, each chunk compressed unless that makes it no smaller. */
export function encodeSnappyFramed(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [new Uint8Array(FRAMED_ID)];
  let size = FRAMED_ID.length;
  for (let at = 0; at < bytes.length; at += FRAMED_BLOCK) {
    const input = local(bytes).subarray(at, Math.min(bytes.length, at + FRAMED_BLOCK));
    const compressed = compressBlock(input);
    const stored = compressed.length >= input.length;
    const data = stored ? input : compressed;
    const head = new Uint8Array(8);
    const length = data.length + 4;
    head[0] = stored ? 0x01 : 0x00;
    head[1] = length & 0xff;
    head[2] = (length >>> 8) & 0xff;
    head[3] = (length >>> 16) & 0xff;
    new DataView(head.buffer).setUint32(4, maskedCrc(input), true);
    parts.push(head, data);
    size += head.length + data.length;
  }
  return concat(parts, size);
}

/**
 * `x-snappy-framed`, checksums verified.
 * @throws SnappyFormatError (`code` ERR_BUFFER_TOO_LARGE past `maxBytes`)
 */
export function decodeSnappyFramed(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (!startsWith(bytes, FRAMED_ID)) throw new SnappyFormatError('no snappy framing stream identifier');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  let size = 0;
  let at = FRAMED_ID.length;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) throw new SnappyFormatError('a truncated snappy frame');
    const type = bytes[at]!;
    const length = bytes[at + 1]! | (bytes[at + 2]! << 8) | (bytes[at + 3]! << 16);
    at += 4;
    if (at + length > bytes.length) throw new SnappyFormatError('a truncated snappy frame');
    const chunk = bytes.subarray(at, at + length);
    at += length;
    if (type === 0x00 || type === 0x01) {
      if (length < 4) throw new SnappyFormatError('a snappy frame without its checksum');
      const data = chunk.subarray(4);
      if (type === 0x01 && data.length > maxBytes - size)
        throw new SnappyFormatError('the body inflates past the limit', true);
      const out = type === 0x00 ? block(data, Math.min(FRAMED_BLOCK, maxBytes - size)) : data;
      if (maskedCrc(out) !== view.getUint32(at - length, true))
        throw new SnappyFormatError('a snappy frame whose checksum does not match');
      parts.push(out);
      size += out.length;
    } else if (type === 0xff) {
      if (!startsWith(bytes.subarray(at - length - 4), FRAMED_ID))
        throw new SnappyFormatError('a bad snappy framing stream identifier');
    } else if (type < 0x80) {
      throw new SnappyFormatError(`a reserved unskippable snappy frame (type ${type})`);
    }
    // 0x80–0xfe: padding and skippable chunks
  }
  return concat(parts, size);
}
