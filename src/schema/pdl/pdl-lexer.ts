/**
 * The PDL lexer (tokens as Rest.li's `Pdl.g4` defines them). It is pulled by the parser one token at a time,
 * because a property name (`@a.b-c.`\`x y\``) is lexed by other rules than the rest of the text.
 *
 * Commas are whitespace, as in the grammar. A `/** *\/` comment is kept on the next token as its doc; the
 * parser reads it only where the grammar allows a doc and otherwise ignores it (the reference refuses a doc
 * comment in other places; ignoring it loses nothing).
 */
import { JsonSyntaxError, readJsonNumber, readJsonString } from '../../data/codecs/json-tokens';

export type PdlTokenKind = 'id' | 'string' | 'number' | 'punct' | 'eof';

export interface PdlToken {
  readonly kind: PdlTokenKind;
  /** The text of the token; for an escaped identifier, the name without backticks. */
  readonly text: string;
  readonly offset: number;
  /** An identifier written in backticks: never a keyword. */
  readonly escaped: boolean;
  /** The doc comment just before this token, as markdown. */
  readonly doc: string | undefined;
  /** The offset of that doc comment. */
  readonly docOffset: number;
}

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

const PUNCT = new Set(['{', '}', '[', ']', '(', ')', '@', ':', '.', '=']);

function isIdStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

function isIdPart(c: number): boolean {
  return isIdStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
}

export class PdlLexer {
  #i = 0;

  constructor(readonly text: string) {}

  get position(): number {
    return this.#i;
  }

  #doc: string | undefined = undefined;
  #docOffset = -1;

  /** Skips whitespace and comments, keeping the last doc comment met (as markdown) in #doc. */
  #skip(): void {
    const t = this.text;
    this.#doc = undefined;
    this.#docOffset = -1;
    for (;;) {
      const c = t.charCodeAt(this.#i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c || c === 0x2c) {
        this.#i++;
      } else if (c === 0x2f && t.charCodeAt(this.#i + 1) === 0x2f) {
        while (this.#i < t.length && t[this.#i] !== '\n' && t[this.#i] !== '\r') this.#i++;
      } else if (c === 0x2f && t.charCodeAt(this.#i + 1) === 0x2a) {
        const start = this.#i;
        const end = t.indexOf('*/', start + 2);
        if (end < 0) throw new PdlSyntax('unterminated comment: expected "*/"', start);
        // `/**/` is an empty block comment, not a doc comment.
        if (t[start + 2] === '*' && end > start + 2) {
          this.#doc = extractMarkdown(t.slice(start + 3, end));
          this.#docOffset = start;
        }
        this.#i = end + 2;
      } else {
        return;
      }
    }
  }

  #token(kind: PdlTokenKind, text: string, offset: number, escaped: boolean): PdlToken {
    return { kind, text, offset, escaped, doc: this.#doc, docOffset: this.#docOffset };
  }

  /** The next token. */
  next(): PdlToken {
    this.#skip();
    const t = this.text;
    const start = this.#i;
    if (start >= t.length) return this.#token('eof', '', start, false);
    const c = t.charCodeAt(start);
    if (isIdStart(c)) {
      let j = start + 1;
      while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
      this.#i = j;
      return this.#token('id', t.slice(start, j), start, false);
    }
    const ch = t[start]!;
    if (PUNCT.has(ch)) {
      this.#i = start + 1;
      return this.#token('punct', ch, start, false);
    }
    if (ch === '`') {
      let j = start + 1;
      if (!isIdStart(t.charCodeAt(j)))
        throw new PdlSyntax('invalid escaped identifier: expected a letter or "_" after "`"', j);
      while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
      if (t[j] !== '`') throw new PdlSyntax('invalid escaped identifier: expected a closing "`"', j);
      this.#i = j + 1;
      return this.#token('id', t.slice(start + 1, j), start, true);
    }
    if (ch === '"') {
      try {
        const s = readJsonString(t, start);
        this.#i = s.end;
        return this.#token('string', s.value, start, false);
      } catch (err) {
        throw fromJson(err, start);
      }
    }
    if (ch === '-' || (c >= 0x30 && c <= 0x39)) {
      try {
        const n = readJsonNumber(t, start);
        this.#i = n.end;
        return this.#token('number', n.token, start, false);
      } catch (err) {
        throw fromJson(err, start);
      }
    }
    throw new PdlSyntax(`unexpected character ${JSON.stringify(ch)}`, start);
  }

  /**
   * A property name segment, right after `@` or `.`: `[A-Za-z0-9_-]+` or anything but a backtick between
   * backticks. No whitespace is skipped, as the grammar's tokens do not allow it inside a name.
   */
  propSegment(): { value: string; offset: number } {
    const t = this.text;
    const start = this.#i;
    if (t[start] === '`') {
      const end = t.indexOf('`', start + 1);
      if (end < 0 || end === start + 1)
        throw new PdlSyntax('invalid escaped property name: expected a closing "`"', start);
      this.#i = end + 1;
      return { value: t.slice(start + 1, end), offset: start };
    }
    let j = start;
    while (j < t.length && isIdPart(t.charCodeAt(j))) j++;
    if (j === start) throw new PdlSyntax('expected a property name after "@" or "."', start);
    this.#i = j;
    return { value: t.slice(start, j), offset: start };
  }

  /** True when the next char (no skipping) is `c`. */
  peekChar(c: string): boolean {
    return this.text[this.#i] === c;
  }

  /** Continues lexing at `offset` (the parser backtracks over a union member alias). */
  seek(offset: number): void {
    this.#i = offset;
  }

  /** Moves past one char. */
  advance(): void {
    this.#i++;
  }
}

function fromJson(err: unknown, start: number): PdlSyntax {
  if (err instanceof JsonSyntaxError) return new PdlSyntax(err.message, err.charOffset);
  return new PdlSyntax(String(err), start);
}

/**
 * The markdown of a doc comment body (between `/**` and `*\/`): the leading `*` of each line and the
 * indentation common to the lines are removed, as the reference does (`PdlParseUtils.extractMarkdown`).
 */
export function extractMarkdown(body: string): string {
  if (!body.includes('\n') && !body.includes('\r')) return body.trim();
  const lines = body.split(/\r\n|\r|\n/).map((line, i) => {
    if (i === 0) return line;
    const m = /^[ \t]*\*(?!\/)/.exec(line);
    return m === null ? line : line.slice(m[0].length);
  });
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length)).trimEnd()).join('\n');
}
