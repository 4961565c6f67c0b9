/**
 * Lexing of JSON string and number tokens, shared by the exact JSON parser (data layer) and the schema
 * layer's location-keeping scanner; each decides itself what a number token becomes.
 */

/** A JSON syntax problem at a char offset of the text. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly charOffset: number,
  ) {
    super(message);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A string token: its value and the index just after the closing quote. */
export interface JsonStringToken {
  readonly value: string;
  readonly end: number;
}

/** Reads the string token whose opening quote is at `start`. */
export function readJsonString(text: string, start: number): JsonStringToken {
  const n = text.length;
  let i = start + 1;
  let escaped = false;
  for (;;) {
    if (i >= n) throw new JsonSyntaxError('Unterminated string', start);
    const c = text.charCodeAt(i);
    if (c === 0x22) break;
    if (c === 0x5c) {
      escaped = true;
      i += 2;
      continue;
    }
    if (c < 0x20) {
      throw new JsonSyntaxError(
        `Unescaped control character U+${c.toString(16).padStart(4, '0')} in string`,
        i,
      );
    }
    i++;
  }
  const end = i + 1;
  if (!escaped) return { value: text.slice(start + 1, i), end };
  try {
    // JSON.parse decodes the escapes exactly as the fast path would
    return { value: JSON.parse(text.slice(start, end)) as string, end };
  } catch {
    throw new JsonSyntaxError('Invalid escape sequence in string', start);
  }
}

/** A number token: its text, whether it is an integer (no fraction, no exponent), and the index after it. */
export interface JsonNumberToken {
  readonly token: string;
  readonly integral: boolean;
  readonly end: number;
}

/** Reads the number token starting at `start` (a `-` or a digit), checking the JSON number grammar. */
export function readJsonNumber(text: string, start: number): JsonNumberToken {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) i++;
  if (!isDigit(text.charCodeAt(i))) throw new JsonSyntaxError('Invalid number: expected a digit', i);
  if (text.charCodeAt(i) === 0x30) {
    i++;
    if (isDigit(text.charCodeAt(i))) throw new JsonSyntaxError('Invalid number: leading zero', start);
  } else {
    while (isDigit(text.charCodeAt(i))) i++;
  }
  let integral = true;
  if (text.charCodeAt(i) === 0x2e) {
    integral = false;
    i++;
    if (!isDigit(text.charCodeAt(i))) {
      throw new JsonSyntaxError('Invalid number: expected a digit after the decimal point', i);
    }
    while (isDigit(text.charCodeAt(i))) i++;
  }
  if ((text.charCodeAt(i) | 0x20) === 0x65) {
    integral = false;
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i)))
      throw new JsonSyntaxError('Invalid number: expected a digit in the exponent', i);
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return { token: text.slice(start, i), integral, end: i };
}
