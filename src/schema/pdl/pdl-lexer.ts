/**
 * The PDL lexer (tokens as Rest.li's `Pdl.g4` defines them). It is pulled by the parser one token at a time,
 * because a property name (`@a.b-c.`\`x y\``) is lexed by other rules than the rest of the text.
 *
 * Why it allocates no token objects: the lexer is the PDL parser's own cost on top of the schema model, which
 * `.pdsc` and PDL share (bench/pdl.bench.ts compares them). The current token lives in the lexer's fields,
 * scanned with `charCodeAt` over the source; a string is sliced only for what becomes a value (a name, a
 * string, a number), and line and column are computed from the offset only when a problem is reported.
 *
 * Commas are whitespace, as in the grammar. A `/** *\/` comment is kept for the next token as its doc; the
 * parser reads it only where the grammar allows a doc and otherwise ignores it (the reference refuses a doc
 * comment in other places; ignoring it loses nothing).
 */
import { HTML4_ENTITIES } from './html-entities';
import { JsonSyntaxError, readJsonNumber, readJsonString } from '../../data/codecs/json-tokens';
import { keepClassAlive } from './keep-classes';

export type PdlTokenKind = 'id' | 'string' | 'number' | 'punct' | 'eof';

/** A syntax error at a char offset; the parser turns it into a schema problem. */
export class PdlSyntax extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The grammar's keywords: an identifier spelled like one is written in backticks to be a name. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'array',
  'enum',
  'fixed',
  'import',
  'optional',
  'package',
  'map',
  'namespace',
  'record',
  'typeref',
  'union',
  'includes',
  'true',
  'false',
  'null',
]);

// Char codes of the punctuation tokens the parser looks for.
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const AT = 0x40;
export const COLON = 0x3a;
export const DOT = 0x2e;
export const EQUALS = 0x3d;
export const QUESTION = 0x3f;

// Char classes of the ASCII chars, looked up once per char instead of a chain of comparisons.
const ID_START = 1;
const ID_PART = 2;
const SPACE = 4;
const PUNCT = 8;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const start = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
  if (start) CLASS[c] = ID_START | ID_PART;
  else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) CLASS[c] = ID_PART;
}
// Commas are whitespace in the grammar.
for (const c of [0x20, 0x0a, 0x2c, 0x09, 0x0d, 0x0c]) CLASS[c] = SPACE;
for (const c of '{}[]()@:.=?') CLASS[c.charCodeAt(0)] = PUNCT;

/** The class bits of char code `c` (0 for NaN past the end and for non-ASCII). */
function charClass(c: number): number {
  return c < 128 ? CLASS[c]! : 0;
}

function isIdStart(c: number): boolean {
  return (charClass(c) & ID_START) !== 0;
}

function isIdPart(c: number): boolean {
  return (charClass(c) & ID_PART) !== 0;
}

/**
 * The lexer and its current token. The token fields are read by the parser and changed by {@link next}.
 */
export class PdlLexer {
  /** The kind of the current token. */
  kind: PdlTokenKind = 'eof';
  /** Its text: an identifier (without backticks), a string's value, a number's literal; '' for the rest. */
  text = '';
  /** The offset of its first char. */
  offset = 0;
  /** For a punctuation token, its char code (else 0). */
  code = 0;
  /** An identifier written in backticks: never a keyword. */
  escaped = false;
  /** A number literal without fraction or exponent. */
  integral = true;
  /** The offset of the doc comment just before the token (`/**`), or -1. */
  docOffset = -1;
  #docEnd = -1;
  /** Where scanning continues. */
  #i = 0;

  constructor(readonly source: string) {}

  /** The doc comment just before the current token, as markdown. */
  doc(): string | undefined {
    return this.docOffset < 0
      ? undefined
      : extractMarkdown(this.source.slice(this.docOffset + 3, this.#docEnd));
  }

  /** True when the current token is the punctuation `code`. */
  is(code: number): boolean {
    return this.code === code && this.kind === 'punct';
  }

  /** True when the current token is the keyword `k` (not escaped). */
  isKeyword(k: string): boolean {
    return this.kind === 'id' && !this.escaped && this.text === k;
  }

  /** The index after the whitespace and comments from `i`; records the last doc comment met. */
  #skip(i: number): number {
    const t = this.source;
    for (;;) {
      const c = t.charCodeAt(i);
      if (charClass(c) === SPACE) {
        i++;
      } else if (c === 0x2f && t.charCodeAt(i + 1) === 0x2f) {
        i += 2;
        while (i < t.length && t.charCodeAt(i) !== 0x0a && t.charCodeAt(i) !== 0x0d) i++;
      } else if (c === 0x2f && t.charCodeAt(i + 1) === 0x2a) {
        const end = t.indexOf('*/', i + 2);
        if (end < 0) throw new PdlSyntax('unterminated comment: expected "*/"', i);
        // `/**/` is an empty block comment, not a doc comment.
        if (t.charCodeAt(i + 2) === 0x2a && end > i + 2) {
          this.docOffset = i;
          this.#docEnd = end;
        }
        i = end + 2;
      } else {
        return i;
      }
    }
  }

  /** Moves to the next token. */
  next(): void {
    this.docOffset = -1;
    const t = this.source;
    const start = this.#skip(this.#i);
    this.offset = start;
    if (start >= t.length) {
      this.#set('eof', '', start);
      return;
    }
    const c = t.charCodeAt(start);
    if (isIdStart(c)) {
      let j = start + 1;
      while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
      this.#set('id', t.slice(start, j), j);
      return;
    }
    if (charClass(c) === PUNCT) {
      this.#set('punct', '', start + 1);
      this.code = c;
      return;
    }
    if (c === 0x60) {
      let j = start + 1;
      if (!isIdStart(t.charCodeAt(j)))
        throw new PdlSyntax('invalid escaped identifier: expected a letter or "_" after "`"', j);
      while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
      if (t.charCodeAt(j) !== 0x60)
        throw new PdlSyntax('invalid escaped identifier: expected a closing "`"', j);
      this.#set('id', t.slice(start + 1, j), j + 1);
      this.escaped = true;
      return;
    }
    if (c === 0x22) {
      try {
        const s = readJsonString(t, start);
        this.#set('string', s.value, s.end);
      } catch (err) {
        throw fromJson(err, start);
      }
      return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      try {
        const n = readJsonNumber(t, start);
        this.#set('number', n.token, n.end);
        this.integral = n.integral;
      } catch (err) {
        throw fromJson(err, start);
      }
      return;
    }
    throw new PdlSyntax(`unexpected character ${JSON.stringify(t[start])}`, start);
  }

  #set(kind: PdlTokenKind, text: string, end: number): void {
    this.kind = kind;
    this.text = text;
    this.code = 0;
    this.escaped = false;
    this.#i = end;
  }

  /**
   * Where to lex again to get the current token back with its doc: the parser re-reads a union member's
   * properties as those of its type declaration (see {@link restart}).
   */
  restartOffset(): number {
    return this.docOffset >= 0 ? this.docOffset : this.offset;
  }

  /** Lexes again from an offset given by {@link restartOffset}. */
  restart(offset: number): void {
    this.#i = offset;
    this.next();
  }

  /**
   * A property name segment, right after `@` or `.`: `[A-Za-z0-9_-]+` or anything but a backtick between
   * backticks. No whitespace is skipped, as the grammar's tokens do not allow it inside a name.
   */
  propSegment(): string {
    const t = this.source;
    const start = this.#i;
    if (t.charCodeAt(start) === 0x60) {
      const end = t.indexOf('`', start + 1);
      if (end < 0 || end === start + 1)
        throw new PdlSyntax('invalid escaped property name: expected a closing "`"', start);
      this.#i = end + 1;
      return t.slice(start + 1, end);
    }
    let j = start;
    while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
    if (j === start) throw new PdlSyntax('expected a property name after "@" or "."', start);
    this.#i = j;
    return t.slice(start, j);
  }

  /** Moves past a `.` right after a property name segment; false when the next char is not one. */
  propDot(): boolean {
    if (this.source.charCodeAt(this.#i) !== 0x2e) return false;
    this.#i++;
    return true;
  }
}

// One lexer that never dies, so that its hidden class outlives full GCs (see keep-classes.ts).
const anchor = new PdlLexer('`x` x "x" 1 {');
for (let k = 0; k < 5; k++) anchor.next();
keepClassAlive(anchor);

function fromJson(err: unknown, start: number): PdlSyntax {
  if (err instanceof JsonSyntaxError) return new PdlSyntax(err.message, err.charOffset);
  return new PdlSyntax(String(err), start);
}

/** Java's `trim().isEmpty()`: every character is a control character or a space (U+0000-U+0020). */
function blank(line: string): boolean {
  for (let k = 0; k < line.length; k++) if (line.charCodeAt(k) > 0x20) return false;
  return true;
}

/**
 * The markdown of a doc comment body (between `/**` and `*\/`), exactly as Rest.li's PDL parser gives it
 * (`PdlParseUtils.extractMarkdown`), whitespace included, so that a schema's doc is the same string on
 * both sides:
 * - the body is split at `\n` only (a `\r` stays in its line), empty pieces at the end are dropped, and
 *   the first and the last piece are left out when blank;
 * - a line whose first character after leading whitespace is `*` loses that whitespace, the `*` and
 *   one space after it, and keeps the rest (further indentation, trailing spaces); any other line is
 *   kept whole, its indentation included: `/**   text   *\/` is `"   text   "`;
 * - `&#47;&#42;` and `&#42;&#47;` are `/*` and `*\/`, then HTML 4 entities are decoded (named ones,
 *   `&#65;`, `&#x41;`; a `;` is required).
 */
export function extractMarkdown(body: string): string {
  const lines = body.split('\n');
  // Java's String.split drops trailing empty strings.
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if ((i === 0 || i === lines.length - 1) && blank(line)) continue;
    let k = 0;
    while (k < line.length && line.charCodeAt(k) <= 0x20) k++;
    if (line.charCodeAt(k) === 0x2a /* * */)
      out += `${line.slice(line.charCodeAt(k + 1) === 0x20 ? k + 2 : k + 1)}\n`;
    else out += `${line}\n`;
  }
  if (out.endsWith('\n')) out = out.slice(0, -1);
  return unescapeHtml4(out.replaceAll('&#47;&#42;', '/*').replaceAll('&#42;&#47;', '*/'));
}

/**
 * HTML 4 unescaping as Rest.li's parser applies it to docs (Apache Commons Text's `unescapeHtml4`): one
 * pass, the named entities of HTML 4.01 and numeric ones with a `;`; anything else is left as written.
 */
export function unescapeHtml4(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#([xX]?)([0-9A-Fa-f]*);|([A-Za-z][A-Za-z0-9]*);)/g,
    (whole, x: string | undefined, digits: string | undefined, name: string | undefined) => {
      if (name !== undefined) return HTML4_ENTITIES.get(name) ?? whole;
      const hex = x !== undefined && x !== '';
      // Decimal digits only unless `x`; the value must fit a Java int and be a code point.
      if (digits === undefined || digits === '' || (!hex && !/^[0-9]+$/.test(digits))) return whole;
      const value = parseInt(digits, hex ? 16 : 10);
      if (!Number.isFinite(value) || value > 0x10ffff) return whole;
      return value > 0xffff ? String.fromCodePoint(value) : String.fromCharCode(value);
    },
  );
}
