import { UriElementParseError } from './errors';

/**
 * The internal escaping layer of the Rest.li 2.0 URI encoding (wire facts §2.2, layer 1): in every string
 * (map keys and values alike) the grammar characters `( ) , :`, the apostrophe (which spells the empty
 * string `''`) and the escape character `%` itself become `%XX` with upper-case hex. It applies in every
 * mode, the body/header form (`'none'`) included; the URL layer (uri-component-encoding.ts) comes on top
 * for URIs.
 */

/** The characters the internal layer always escapes. */
export const RESERVED_CHARS: readonly string[] = ['(', ')', ',', ':', "'", '%'];

/** 1 for the ASCII codes of {@link RESERVED_CHARS}; shared with the element encoder's tables. */
export const RESERVED_TABLE: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const c of RESERVED_CHARS) t[c.charCodeAt(0)] = 1;
  return t;
})();

/** `%00`..`%FF`, upper-case: the escape of each byte value. */
export const PERCENT_HEX: readonly string[] = Array.from(
  { length: 256 },
  (_, b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
);

/**
 * Escapes the reserved characters of `s` (no other change; the empty string stays empty, `''` is the
 * element encoder's business).
 *
 * @example
 * ```ts
 * escapeReserved("it's (x:y),z"); // 'it%27s %28x%3Ay%29%2Cz'
 * ```
 */
export function escapeReserved(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && RESERVED_TABLE[c] === 1) {
      out += s.slice(last, i) + PERCENT_HEX[c]!;
      last = i + 1;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}

const HEX_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let d = 0; d < 10; d++) t[48 + d] = d;
  for (let d = 0; d < 6; d++) {
    t[65 + d] = 10 + d;
    t[97 + d] = 10 + d;
  }
  return t;
})();

/** The value of a hex digit char code, or -1. */
export function hexValue(c: number): number {
  return c < 128 ? HEX_VALUE[c]! : -1;
}

/**
 * Undoes {@link escapeReserved} the way the reference's `AsciiHexEncoding.decode` does: each `%XX` becomes
 * the single char with code XX (no UTF-8 decoding). Throws {@link UriElementParseError} on an incomplete or
 * non-hex escape. The URI parser does not use this (it percent-decodes UTF-8); it is the exact inverse of
 * the internal layer alone, for text that never went through the URL layer.
 */
export function unescapeReserved(s: string): string {
  let out = '';
  let last = 0;
  for (let i = s.indexOf('%'); i !== -1; i = s.indexOf('%', last)) {
    if (i + 3 > s.length) {
      throw new UriElementParseError(`${s} - Failed to decode incomplete escaped char at offset ${i}`, i);
    }
    const hi = hexValue(s.charCodeAt(i + 1));
    const lo = hexValue(s.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) {
      throw new UriElementParseError(`${s} - Failed to decode escaped char at offset ${i}`, i);
    }
    out += s.slice(last, i) + String.fromCharCode(hi * 16 + lo);
    last = i + 3;
  }
  return last === 0 ? s : out + s.slice(last);
}
