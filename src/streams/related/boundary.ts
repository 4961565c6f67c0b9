import { randomBoundary } from '../multipart/writer';

/** Length of the boundaries made here: 56 characters (the reference's are 50–60, of `-_0-9a-zA-Z`). */
export const BOUNDARY_LENGTH = 56;

/**
 * A random boundary of {@link BOUNDARY_LENGTH} characters (≈ 330 bits: attachments, whose bytes are not
 * known up front, cannot realistically contain it), drawn again while it occurs in any of `known` (the
 * payload, a URL: what is known when the message is built).
 */
export function makeBoundary(known: ReadonlyArray<Uint8Array | string> = []): string {
  return randomBoundary('', BOUNDARY_LENGTH, known);
}
