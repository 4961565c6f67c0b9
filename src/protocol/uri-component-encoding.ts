import { PERCENT_HEX, hexValue } from './ascii-hex-escaping';
import { UriElementParseError } from './errors';

/**
 * The URL layer of the Rest.li 2.0 URI encoding (wire facts §2.2, layer 2), as the reference's
 * `UriComponent.contextualEncode` does it: whatever the URI component does not allow is percent-encoded,
 * non-ASCII as UTF-8 `%XX`, existing `%XX` escapes are left alone (no double encoding), and a space is
 * always `%20`, never `+`.
 *
 * Tables are precomputed per component; encoders scan once and copy unchanged runs with `slice`, so a
 * string that needs no escaping is returned as is (bench/uri.bench.ts).
 */

/** The two URI components Svc puts values into: one path segment, or one query parameter name or value. */
export type UriComponent = 'path' | 'query';

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

/**
 * Characters a path segment keeps: unreserved, the sub-delimiters `! $ & ' ( ) * + , =` (not `;`), `:` and
 * `@`. So `/`, `?`, `#`, `;`, space and `%` (when not an escape) are encoded.
 */
export const PATH_SEGMENT_CHARS: Uint8Array = table(`${UNRESERVED}!$&'()*+,=:@`);

/**
 * Characters a query parameter keeps: unreserved, `! $ ' ( ) * , ;`, `:`, `@`, `/` and `?`. So `&`, `=`
 * and `+` are encoded (`%26 %3D %2B`), which keeps a value from splitting the query or turning into a space.
 */
export const QUERY_PARAM_CHARS: Uint8Array = table(`${UNRESERVED}!$'()*,;:@/?`);

/** The keep-table of a component. */
export function componentTable(component: UriComponent): Uint8Array {
  return component === 'path' ? PATH_SEGMENT_CHARS : QUERY_PARAM_CHARS;
}

/**
 * Appends the UTF-8 escapes of the code point starting at `s[i]` (a non-ASCII char) to `out`; returns the
 * new `out` and, through `next`, the index after the code point. A lone surrogate becomes `%3F` (`?`), as
 * Java's UTF-8 encoder replaces it.
 */
export function appendUtf8Escapes(out: string, s: string, i: number): { out: string; next: number } {
  const c = s.charCodeAt(i);
  if (c < 0x800) {
    return { out: out + PERCENT_HEX[0xc0 | (c >> 6)]! + PERCENT_HEX[0x80 | (c & 0x3f)]!, next: i + 1 };
  }
  if (c >= 0xd800 && c <= 0xdfff) {
    const d = c <= 0xdbff && i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    if (d >= 0xdc00 && d <= 0xdfff) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      return {
        out:
          out +
          PERCENT_HEX[0xf0 | (cp >> 18)]! +
          PERCENT_HEX[0x80 | ((cp >> 12) & 0x3f)]! +
          PERCENT_HEX[0x80 | ((cp >> 6) & 0x3f)]! +
          PERCENT_HEX[0x80 | (cp & 0x3f)]!,
        next: i + 2,
      };
    }
    return { out: `${out}%3F`, next: i + 1 };
  }
  return {
    out:
      out +
      PERCENT_HEX[0xe0 | (c >> 12)]! +
      PERCENT_HEX[0x80 | ((c >> 6) & 0x3f)]! +
      PERCENT_HEX[0x80 | (c & 0x3f)]!,
    next: i + 1,
  };
}

/**
 * `UriComponent.contextualEncode`: percent-encodes what `component` does not allow, keeps existing `%XX`
 * escapes as they are.
 *
 * @example
 * ```ts
 * contextualEncode('a b/c%2F', 'path');  // 'a%20b%2Fc%2F'
 * contextualEncode('x=1&y', 'query');    // 'x%3D1%26y'
 * ```
 */
export function contextualEncode(s: string, component: UriComponent): string {
  const keep = componentTable(component);
  let out = '';
  let last = 0;
  let changed = false;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (keep[c] === 1) {
        i++;
        continue;
      }
      if (
        c === 37 &&
        i + 2 < s.length &&
        hexValue(s.charCodeAt(i + 1)) >= 0 &&
        hexValue(s.charCodeAt(i + 2)) >= 0
      ) {
        i += 3;
        continue;
      }
      out += s.slice(last, i) + PERCENT_HEX[c]!;
      i++;
    } else {
      const r = appendUtf8Escapes(out + s.slice(last, i), s, i);
      out = r.out;
      i = r.next;
    }
    last = i;
    changed = true;
  }
  return changed ? out + s.slice(last) : s;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
let scratch = /* @__PURE__ */ new Uint8Array(64);

/**
 * Decodes the run of consecutive `%XX` escapes starting at `s[start]` (which is `%`), UTF-8 with U+FFFD for
 * malformed sequences, as the reference's decoders do. Returns the text and the index after the run. Throws
 * {@link UriElementParseError} `Malformed percent-encoded octet at index N` (with `, invalid hexadecimal
 * digit 'c'` for a bad digit), N being the index in `s`.
 */
export function decodeEscapeRun(s: string, start: number): { text: string; end: number } {
  const n = s.length;
  let i = start;
  let count = 0;
  let ascii = true;
  do {
    if (i + 2 >= n) throw new UriElementParseError(`Malformed percent-encoded octet at index ${i}`, i);
    const hi = hexValue(s.charCodeAt(i + 1));
    if (hi < 0) throw badDigit(s, i + 1);
    const lo = hexValue(s.charCodeAt(i + 2));
    if (lo < 0) throw badDigit(s, i + 2);
    const b = hi * 16 + lo;
    if (count === scratch.length) {
      const bigger = new Uint8Array(scratch.length * 2);
      bigger.set(scratch);
      scratch = bigger;
    }
    scratch[count++] = b;
    if (b >= 0x80) ascii = false;
    i += 3;
  } while (i < n && s.charCodeAt(i) === 37);
  if (ascii) {
    if (count === 1) return { text: String.fromCharCode(scratch[0]!), end: i };
    let text = '';
    for (let k = 0; k < count; k++) text += String.fromCharCode(scratch[k]!);
    return { text, end: i };
  }
  return { text: utf8.decode(scratch.subarray(0, count)), end: i };
}

function badDigit(s: string, at: number): UriElementParseError {
  return new UriElementParseError(
    `Malformed percent-encoded octet at index ${at}, invalid hexadecimal digit '${s.charAt(at)}'`,
    at,
  );
}

/**
 * Percent-decodes `s` (UTF-8): what the server does to a simple key in a path segment
 * (`UriComponent.decode(PATH_SEGMENT)`), and, with `plusAsSpace`, to a query parameter name
 * (`URLDecoder.decode`). Values of query parameters never go through here: they go raw to the element
 * parser, which decodes escapes but leaves `+` alone.
 *
 * @throws UriElementParseError `Malformed percent-encoded octet at index N` for a bad escape
 */
export function percentDecode(s: string, plusAsSpace = false): string {
  if (!s.includes('%') && !(plusAsSpace && s.includes('+'))) return s;
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      const r = decodeEscapeRun(s, i);
      out += s.slice(last, i) + r.text;
      i = last = r.end;
    } else if (c === 43 && plusAsSpace) {
      out += `${s.slice(last, i)} `;
      i = last = i + 1;
    } else {
      i++;
    }
  }
  return out + s.slice(last);
}
