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

/**
 * The first and third quartiles (linear interpolation between order statistics, as R's default type 7):
 * the bounds of the middle half of `xs`.
 */
export function quartiles(xs: readonly number[]): readonly [number, number] {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => {
    const h = (s.length - 1) * q;
    const lo = Math.floor(h);
    return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
  };
  return [at(0.25), at(0.75)];
}
