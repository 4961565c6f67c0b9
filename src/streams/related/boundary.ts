import { randomBytes } from 'node:crypto';

/** Characters of a boundary, as the reference draws them (wire facts §6.1): `-_0-9a-zA-Z`. */
const ALPHABET = '-_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Length of the boundaries made here: 56 characters (the reference's are 50–60). */
export const BOUNDARY_LENGTH = 56;

/**
 * A random boundary of {@link BOUNDARY_LENGTH} characters (≈ 330 bits: attachments, whose bytes are not
 * known up front, cannot realistically contain it), drawn again while it occurs in any of `known` (the
 * payload, a URL: what is known when the message is built).
 */
export function makeBoundary(known: ReadonlyArray<Uint8Array | string> = []): string {
  for (;;) {
    const bytes = randomBytes(BOUNDARY_LENGTH);
    let boundary = '';
    for (const b of bytes) boundary += ALPHABET[b & 63];
    if (!known.some((k) => view(k).includes(boundary))) return boundary;
  }
}

function view(k: Uint8Array | string): Buffer {
  return typeof k === 'string' ? Buffer.from(k, 'utf8') : Buffer.from(k.buffer, k.byteOffset, k.byteLength);
}
