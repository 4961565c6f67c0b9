/**
 * Cheap test whether JSON text may hold an integer outside ±2^53: true when it has a run of 16 or more
 * digits (every unsafe integer has at least 16). False positives (long digit runs in strings, long
 * fractions) only cost the slow path, never correctness.
 *
 * Why it probes every 16th char: a run of >= 16 digits always covers one of the probe points, so only
 * ~1/16 of the text is read. At a digit probe p, a run of >= 16 has >= 8 more digits on one side, so if
 * neither p-8 nor p+8 is a digit the run is short and is skipped without expanding it. Measured on a 0.9 MB
 * digit-heavy document: ~6% of `JSON.parse` time for strings, ~5% for bytes (a full regex scan: ~75%).
 * See bench/json-codec.bench.ts.
 */
function isDigit(c: number): boolean {
  // NaN (charCodeAt past the end) compares false
  return c >= 0x30 && c <= 0x39;
}

export function textMayHoldUnsafeInteger(t: string): boolean {
  const n = t.length;
  let i = 15;
  while (i < n) {
    if (!isDigit(t.charCodeAt(i))) {
      i += 16;
      continue;
    }
    if (!isDigit(t.charCodeAt(i + 8)) && !isDigit(t.charCodeAt(i - 8))) {
      i += 16;
      continue;
    }
    let e = i;
    while (e + 1 < n && isDigit(t.charCodeAt(e + 1))) e++;
    const need = e - 15;
    if (need >= 0) {
      let s = i - 1;
      while (s >= need && isDigit(t.charCodeAt(s))) s--;
      if (s < need) return true;
    }
    i = e + 16;
  }
  return false;
}

export function bytesMayHoldUnsafeInteger(b: Uint8Array): boolean {
  const n = b.length;
  let i = 15;
  while (i < n) {
    if (!isDigit(b[i]!)) {
      i += 16;
      continue;
    }
    // out-of-range reads give undefined, which is not a digit
    if (!isDigit(b[i + 8] ?? 0) && !isDigit(b[i - 8] ?? 0)) {
      i += 16;
      continue;
    }
    let e = i;
    while (e + 1 < n && isDigit(b[e + 1]!)) e++;
    const need = e - 15;
    if (need >= 0) {
      let s = i - 1;
      while (s >= need && isDigit(b[s]!)) s--;
      if (s < need) return true;
    }
    i = e + 16;
  }
  return false;
}
