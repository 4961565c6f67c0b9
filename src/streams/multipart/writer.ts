import { randomBytes } from 'node:crypto';

/** One part to write: its headers (`Content-Type` first, by convention) and its bytes. */
export interface MultipartWriterPart {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** Boundary characters: safe unquoted in a Content-Type (RFC 2046 `bchars` without space). */
const ALPHABET = '-_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** 48 random characters (288 bits), well under RFC 2046's limit of 70. */
const RANDOM_LENGTH = 48;
const PREFIX = 'svc_';

/**
 * A random boundary that occurs in none of `avoid` (the parts' bytes, the URL): drawn again in the
 * (astronomically unlikely) case it does, so that the envelope can never be cut in the wrong place.
 */
export function makeMultipartBoundary(avoid: ReadonlyArray<Uint8Array | string> = []): string {
  return randomBoundary(PREFIX, RANDOM_LENGTH, avoid);
}

/**
 * `prefix` and `length` random characters of {@link ALPHABET}, drawn again while the result occurs in any
 * of `avoid`.
 */
export function randomBoundary(
  prefix: string,
  length: number,
  avoid: ReadonlyArray<Uint8Array | string>,
): string {
  for (;;) {
    const bytes = randomBytes(length);
    let boundary = prefix;
    for (const b of bytes) boundary += ALPHABET[b & 63];
    if (!avoid.some((a) => contains(a, boundary))) return boundary;
  }
}

function contains(haystack: Uint8Array | string, needle: string): boolean {
  if (typeof haystack === 'string') return haystack.includes(needle);
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).includes(needle, 0, 'latin1');
}

/**
 * A whole multipart body, buffered: no preamble, parts separated by CRLF, a CRLF after the closing
 * delimiter (what javax.mail and Python's `email` write). The boundary must not occur in the parts: see
 * {@link makeMultipartBoundary}.
 */
export function writeMultipart(boundary: string, parts: readonly MultipartWriterPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\n`;
    for (const [name, value] of Object.entries(part.headers)) head += `${name}: ${value}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'latin1'));
    chunks.push(Buffer.from(part.body.buffer, part.body.byteOffset, part.body.byteLength));
    chunks.push(Buffer.from('\r\n', 'latin1'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return Buffer.concat(chunks);
}
