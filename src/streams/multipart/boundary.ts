import { includesLatin1, randomBytes } from '../../data/bytes';

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
  return includesLatin1(haystack, needle);
}
