/**
 * Statistics the benchmark files share. No imports, so that a benchmark's server processes (which load
 * their bench file) load nothing more through it.
 */

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
