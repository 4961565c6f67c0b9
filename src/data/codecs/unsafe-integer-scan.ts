/**
 * Cheap test whether JSON text may hold an integer token outside ±2^53: true when it has a run of 16 or
 * more digits (every unsafe integer has at least 16) that stands as a whole integer token. False positives
 * (e.g. a string that is all digits) only cost the slow path, never correctness.
 *
 * Why it probes every 16th char: a run of >= 16 digits always covers one of the probe points, so only
 * ~1/16 of the text is read. At a digit probe p, a run of >= 16 has >= 8 more digits on one side, so if
 * neither p-8 nor p+8 is a digit the run is short and is skipped without expanding it; if only one of them
 * is, the run's start (or end) is within 7 chars, and one look 15 chars further decides. Measured on the
 * digit-heavy 1 MB bench document (13-digit timestamps, ids, phone numbers): ~8% of `JSON.parse` time for
 * strings (a full regex scan: ~75%).
 *
 * Why it looks at the run's neighbours: in valid JSON an integer token is preceded only by whitespace,
 * `:`, `,`, `[` or `-`, and followed only by whitespace, `,`, `]` or `}`. A long run next to `.`, `e`/`E`
 * or `+` is part of a double, and next to a letter or quote part of a string; doubles printed with 17
 * significant digits are common, and treating them as unsafe made such documents take the exact parser,
 * ~4x slower. Invalid JSON never matters here: JSON.parse rejects it and the exact parser reports it.
 */

function isDigit(c: number): boolean {
  // NaN (charCodeAt past the end) compares false
  return c >= 0x30 && c <= 0x39;
}

/** May a char code precede an integer token? (-1: start of text) */
function canPrecedeInteger(c: number): boolean {
  return (
    c === -1 ||
    c === 0x20 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x09 ||
    c === 0x3a ||
    c === 0x2c ||
    c === 0x5b ||
    c === 0x2d
  );
}

/** May a char code follow an integer token? (-1: end of text) */
function canFollowInteger(c: number): boolean {
  return (
    c === -1 || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x2c || c === 0x5d || c === 0x7d
  );
}

// The two scanners below are the same algorithm over a string and over bytes, written out twice on purpose:
// one shared version calling a char accessor was ~7x slower (the call is not inlined once both call sites
// exist), and this scan sits on the decode hot path.

export function textMayHoldUnsafeInteger(t: string): boolean {
  const n = t.length;
  for (let p = 15; p < n; p += 16) {
    if (!isDigit(t.charCodeAt(p))) continue;
    const right = isDigit(t.charCodeAt(p + 8));
    const left = isDigit(t.charCodeAt(p - 8));
    let s: number;
    let e: number;
    if (!left) {
      // the run starts within 7 chars to the left: find it; a long run must reach s + 15
      if (!right) continue;
      s = p;
      while (isDigit(t.charCodeAt(s - 1))) s--;
      if (!isDigit(t.charCodeAt(s + 15))) continue;
      e = s + 15;
      while (e + 1 < n && isDigit(t.charCodeAt(e + 1))) e++;
    } else if (!right) {
      // the run ends within 7 chars to the right: find it; a long run must reach back to e - 15
      e = p;
      while (isDigit(t.charCodeAt(e + 1))) e++;
      if (e < 15 || !isDigit(t.charCodeAt(e - 15))) continue;
      s = e - 15;
      while (s > 0 && isDigit(t.charCodeAt(s - 1))) s--;
    } else {
      s = p;
      while (s > 0 && isDigit(t.charCodeAt(s - 1))) s--;
      e = p;
      while (e + 1 < n && isDigit(t.charCodeAt(e + 1))) e++;
    }
    if (e - s + 1 >= 16) {
      // check every char between (the single checks above assume an unbroken run from s or to e)
      let k = s;
      while (k <= e && isDigit(t.charCodeAt(k))) k++;
      if (
        k > e &&
        canPrecedeInteger(s > 0 ? t.charCodeAt(s - 1) : -1) &&
        canFollowInteger(e + 1 < n ? t.charCodeAt(e + 1) : -1)
      ) {
        return true;
      }
    }
  }
  return false;
}

export function bytesMayHoldUnsafeInteger(b: Uint8Array): boolean {
  const n = b.length;
  // out-of-range reads give undefined -> NaN, which is not a digit
  const at = (i: number): number => b[i] ?? NaN;
  for (let p = 15; p < n; p += 16) {
    if (!isDigit(b[p]!)) continue;
    const right = isDigit(at(p + 8));
    const left = isDigit(at(p - 8));
    let s: number;
    let e: number;
    if (!left) {
      if (!right) continue;
      s = p;
      while (isDigit(at(s - 1))) s--;
      if (!isDigit(at(s + 15))) continue;
      e = s + 15;
      while (e + 1 < n && isDigit(b[e + 1]!)) e++;
    } else if (!right) {
      e = p;
      while (isDigit(at(e + 1))) e++;
      if (e < 15 || !isDigit(b[e - 15]!)) continue;
      s = e - 15;
      while (s > 0 && isDigit(b[s - 1]!)) s--;
    } else {
      s = p;
      while (s > 0 && isDigit(b[s - 1]!)) s--;
      e = p;
      while (e + 1 < n && isDigit(b[e + 1]!)) e++;
    }
    if (e - s + 1 >= 16) {
      let k = s;
      while (k <= e && isDigit(b[k]!)) k++;
      if (k > e && canPrecedeInteger(s > 0 ? b[s - 1]! : -1) && canFollowInteger(e + 1 < n ? b[e + 1]! : -1))
        return true;
    }
  }
  return false;
}
