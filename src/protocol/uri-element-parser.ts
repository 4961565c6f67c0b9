import { type DataList, type DataMap, InvalidOptionException, MAX_NESTING_DEPTH } from '../data';
import { adoptRootList, adoptRootMap } from '../data/adopt';
import { setOwn, type Store } from '../data/internal';
import { UriElementParseError } from './errors';
import { hexValue } from './ascii-hex-escaping';
import { decodeEscapeRun } from './uri-component-encoding';

/** What {@link parseElement} returns: every leaf is a string (the server coerces it to its schema type). */
export type UriElement = string | DataMap | DataList;

/** Options of {@link parseElement}. */
export interface ParseElementOptions {
  /**
   * Deepest nesting of maps and lists accepted, a positive integer (default {@link DEFAULT_MAX_URI_DEPTH});
   * deeper input is a {@link UriElementParseError} rather than a stack overflow.
   */
  readonly maxDepth?: number;
}

/** Default of {@link ParseElementOptions.maxDepth}: the product's one nesting limit (data/limits.ts). */
export const DEFAULT_MAX_URI_DEPTH = MAX_NESTING_DEPTH;

// Token kinds. A token is entries at one index of parallel typed arrays (kind, column, text index): no
// object per token.
const STRING = 0;
const LIST_START = 1;
const MAP_START = 2;
const OBJ_END = 3;
const ITEM_SEP = 4;
const MAP_SEP = 5;

const GRAMMAR_TEXT = ['', 'List(', '(', ')', ',', ':'];

/** Char class of `%`. */
const ESCAPE = 6;
/** Per ASCII code: the grammar token kind, {@link ESCAPE} for `%`, 0 for a plain char (a table, not a switch). */
const CHAR_CLASS: Uint8Array = (() => {
  const t = new Uint8Array(128);
  t[40] = MAP_START; // (
  t[41] = OBJ_END; // )
  t[44] = ITEM_SEP; // ,
  t[58] = MAP_SEP; // :
  t[37] = ESCAPE; // %
  return t;
})();

/**
 * Token arrays of up to this many tokens are kept between parses and reused (~36 KB); a longer text (a
 * tunneled batch finder's criteria: ~11 tokens per criterion) gets arrays of its own for one parse. Typed
 * arrays of that size live outside V8's young generation: as plain arrays grown by push, a 1 000-criteria
 * list's tokens were ~0.5 MB of garbage per parse, which the scavenges beside it paid for (issue 22).
 */
const REUSED_TOKENS = 4096;
let reused: { kinds: Uint8Array; columns: Int32Array; textAt: Int32Array } | undefined;

class Tokens {
  readonly kinds: Uint8Array;
  readonly columns: Int32Array;
  /** Per token, its index in {@link texts} (string tokens only). */
  readonly textAt: Int32Array;
  /** The texts of the string tokens, in order. */
  readonly texts: string[] = [];
  /** Tokens written. */
  length = 0;
  pos = 0;
  /** `textLength`: of the text tokenized; every token takes at least one char of it. */
  constructor(readonly textLength: number) {
    const capacity = textLength + 1;
    if (capacity <= REUSED_TOKENS) {
      reused ??= {
        kinds: new Uint8Array(REUSED_TOKENS),
        columns: new Int32Array(REUSED_TOKENS),
        textAt: new Int32Array(REUSED_TOKENS),
      };
      this.kinds = reused.kinds;
      this.columns = reused.columns;
      this.textAt = reused.textAt;
    } else {
      this.kinds = new Uint8Array(capacity);
      this.columns = new Int32Array(capacity);
      this.textAt = new Int32Array(capacity);
    }
  }

  push(kind: number, text: string, column: number): void {
    const i = this.length++;
    this.kinds[i] = kind;
    this.columns[i] = column;
    if (kind === STRING) this.textAt[i] = this.texts.push(text) - 1;
  }

  /** The text of string token `i`. */
  text(i: number): string {
    return this.texts[this.textAt[i]!]!;
  }

  /** `'<text>' (column n)` of token `i`, the reference's `toErrorString`. */
  describe(i: number): string {
    const kind = this.kinds[i]!;
    return `'${kind === STRING ? this.text(i) : GRAMMAR_TEXT[kind]!}' (column ${this.columns[i]!})`;
  }
}

/**
 * Splits raw text into tokens, as the reference does before parsing (so a bad escape anywhere is reported
 * before any grammar error). Grammar chars split; `%XX` runs are decoded inside string tokens; a bare `''`
 * token is the empty string, a percent-encoded `%27%27` is the literal two apostrophes; `List(` is a list
 * start only when the text since the last grammar char is exactly `List` (after decoding).
 */
function tokenize(text: string): Tokens {
  const tokens = new Tokens(text.length);
  const n = text.length;
  // the current token's text before `runStart`, escapes decoded, as pieces joined once at its end: `+=`
  // would leave a tree of cons strings per escaped value (`Sunrise%20over%20the%20bay`: four objects
  // instead of one), which a large batch keeps alive for the whole request (issue 22)
  const decoded = decodedPieces;
  let runStart = 0; // start of the current run of plain chars
  let tokenStart = 0;
  let escaped = false;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    const kind = c < 128 ? CHAR_CLASS[c]! : 0;
    if (kind === 0) {
      i++;
    } else if (kind !== ESCAPE) {
      const tokenText = escaped ? joinPieces(decoded, text.slice(runStart, i)) : text.slice(runStart, i);
      if (kind === MAP_START && tokenText === 'List') {
        tokens.push(LIST_START, '', tokenStart);
      } else {
        if (tokenText.length !== 0) {
          tokens.push(STRING, !escaped && tokenText === "''" ? '' : tokenText, tokenStart);
        }
        tokens.push(kind, '', i);
      }
      i++;
      runStart = tokenStart = i;
      escaped = false;
    } else {
      let r: { text: string; end: number };
      try {
        r = decodeEscapeRun(text, i);
      } catch (error) {
        decoded.length = 0;
        throw error;
      }
      if (runStart < i) decoded.push(text.slice(runStart, i));
      decoded.push(r.text);
      i = runStart = r.end;
      escaped = true;
    }
  }
  const tail = escaped ? joinPieces(decoded, text.slice(runStart)) : text.slice(runStart);
  if (tail.length !== 0) tokens.push(STRING, !escaped && tail === "''" ? '' : tail, tokenStart);
  return tokens;
}

/** The pieces of the token being decoded (one array for every parse: a parse runs to its end at once). */
const decodedPieces: string[] = [];

/** The pieces and `last` as one flat string; empties the pieces. */
function joinPieces(pieces: string[], last: string): string {
  if (last.length !== 0) pieces.push(last);
  const text = pieces.length === 1 ? pieces[0]! : pieces.join('');
  pieces.length = 0;
  return text;
}

/**
 * The store of a map parsed from the URI grammar (a criterion, a complex key): a constructor of its own,
 * trained on small maps, so a store is ~56 bytes with room in the object for a few entries and its
 * wrapper, where the data layer's (trained on ten entries, for records) is 104. A 1 000-criteria batch
 * finder keeps its 1 000 parsed criteria alive for the whole request (issue 22); a larger map spills its
 * further entries to a property array, as any object does.
 */
const UriStore = ((): new () => Store => {
  function UriStore(): void {}
  UriStore.prototype = Object.prototype;
  const ctor = UriStore as unknown as new () => Store;
  for (let i = 0; i < 8; i++) {
    const o = new ctor();
    for (let k = 0; k < 4; k++) o[`k${k}`] = k;
  }
  return ctor;
})();

function endOfInput(tokens: Tokens): UriElementParseError {
  return new UriElementParseError('unexpected end of input', tokens.textLength);
}

function fail(tokens: Tokens, i: number, message: string): UriElementParseError {
  return new UriElementParseError(message, tokens.columns[i]!);
}

class Parser {
  private depth = 0;
  constructor(
    private readonly t: Tokens,
    private readonly maxDepth: number,
  ) {}

  element(): unknown {
    const t = this.t;
    const i = t.pos;
    if (i >= t.length) throw endOfInput(t);
    const kind = t.kinds[i]!;
    if (kind === STRING) {
      t.pos++;
      return t.text(i);
    }
    if (kind === MAP_START) return this.map();
    if (kind === LIST_START) return this.list();
    t.pos++;
    throw fail(t, i, `unexpected token: ${t.describe(i)} at start of element`);
  }

  private string(): string {
    const t = this.t;
    const i = t.pos++;
    if (i >= t.length) throw endOfInput(t);
    if (t.kinds[i] !== STRING)
      throw fail(t, i, `expected string token, found grammar token: ${t.describe(i)}`);
    return t.text(i);
  }

  private expect(kind: number): void {
    const t = this.t;
    const i = t.pos++;
    if (i >= t.length) throw endOfInput(t);
    if (t.kinds[i] !== kind) throw fail(t, i, `expected '${GRAMMAR_TEXT[kind]!}' but found ${t.describe(i)}`);
  }

  /** The kind of the next token, throwing `unexpected end of input` when there is none. */
  private peekRequired(): number {
    const t = this.t;
    if (t.pos >= t.length) throw endOfInput(t);
    return t.kinds[t.pos]!;
  }

  private enter(): void {
    if (++this.depth > this.maxDepth) {
      const t = this.t;
      throw new UriElementParseError(
        `nesting deeper than ${this.maxDepth} levels at ${t.describe(t.pos)}`,
        t.pos < t.length ? t.columns[t.pos]! : t.length,
        true,
      );
    }
  }

  private map(): Store {
    this.enter();
    const t = this.t;
    const store = new UriStore();
    t.pos++; // MAP_START
    if (t.pos < t.length && t.kinds[t.pos] !== OBJ_END) {
      for (;;) {
        const key = this.string();
        // Svc data never holds U+0000 in a key: PSON could not write it back (data-map.ts)
        if (key.includes('\u0000')) throw fail(t, t.pos - 1, 'a map key may not hold U+0000 (%00)');
        this.expect(MAP_SEP);
        setOwn(store, key, this.element());
        if (this.peekRequired() !== ITEM_SEP) break;
        t.pos++;
      }
    }
    this.expect(OBJ_END);
    this.depth--;
    return store;
  }

  private list(): unknown[] {
    this.enter();
    const t = this.t;
    const items: unknown[] = [];
    t.pos++; // LIST_START
    if (t.pos < t.length && t.kinds[t.pos] !== OBJ_END) {
      for (;;) {
        items.push(this.element());
        if (this.peekRequired() !== ITEM_SEP) break;
        t.pos++;
      }
    }
    this.expect(OBJ_END);
    this.depth--;
    return items;
  }
}

/** A plain token's value: a bare `''` is the empty string (as in {@link tokenize}). */
function plain(text: string): string {
  return text === "''" ? '' : text;
}

/**
 * The three shapes most values have, without tokens or a parser: a plain string (`q=byTitle`, `start=10`),
 * a list of plain strings (`ids=List(1,2,3)`), plain meaning no `%` and no grammar char, and a flat map of
 * strings (a criterion: {@link parseFlatMap}). These are
 * most of a batch request's parsing (bench/resources.bench.ts). Returns undefined for anything else, errors
 * included, which the tokenizer and parser then handle (and report) as always.
 */
function parseFlat(text: string, maxDepth: number): UriElement | undefined {
  const n = text.length;
  if (n === 0) return undefined;
  if (n >= 6 && maxDepth >= 1 && text.charCodeAt(n - 1) === 41 && text.startsWith('List(')) {
    const items: string[] = [];
    const end = n - 1;
    let start = 5;
    // items stored by index, not pushed: the push here went through the generic builtin (~120
    // instructions an item, callgrind over HTTP, batch_gets of 10 new ids each time)
    let k = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128 || CHAR_CLASS[c] === 0) continue;
      // an empty item is a grammar error: the parser words it
      if (CHAR_CLASS[c] !== ITEM_SEP || i === start) return undefined;
      items[k++] = plain(text.slice(start, i));
      start = i + 1;
    }
    if (start < end) items[k++] = plain(text.slice(start, end));
    else if (items.length > 0) return undefined; // a trailing comma
    return adoptRootList(items);
  }
  if (text.charCodeAt(0) === 40 /* ( */) return maxDepth >= 1 ? parseFlatMap(text) : undefined;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && CHAR_CLASS[c] !== 0) return undefined;
  }
  return plain(text);
}

/**
 * A map of strings, `(k:v,k2:v2)`, keys and values plain or with escapes of ASCII chars (`%20`), without
 * tokens or a parser: a batch finder's criterion (issue 22). A large batch finder parses each of its 1 000
 * criteria twice, once to check them all and once to run each (src/server/lazy-criteria.ts). Measured on
 * the batch-stall bench's 1 000 criteria (`(title:Sunrise%20over%20the%20bay,format:JPEG)` and the like,
 * parsed in a loop, heap growth between GCs): through the tokenizer ~0.46 µs and ~820 bytes allocated per
 * criterion (the token texts, an object and pieces per escape run, their join), here ~0.31 µs and ~360.
 *
 * Returns undefined for anything else (an empty map, a nested value, an empty key or value, an escape of
 * a non-ASCII byte or of U+0000, a raw non-ASCII char or U+0000, any grammar error), which the tokenizer
 * and parser then read (and report) as always; what it returns is what they return.
 */
function parseFlatMap(text: string): DataMap | undefined {
  const n = text.length;
  const end = n - 1;
  if (n < 5 || text.charCodeAt(end) !== 41 /* ) */) return undefined;
  const store = new UriStore();
  let key: string | undefined;
  let start = 1;
  let escaped = false;
  for (let i = 1; i <= end; i++) {
    const c = text.charCodeAt(i);
    // raw non-ASCII is left to the tokenizer; a raw U+0000 in a key is its error
    if (c >= 128 || c === 0) return undefined;
    const kind = CHAR_CLASS[c]!;
    if (kind === 0) continue;
    if (kind === ESCAPE) {
      // ASCII other than U+0000: one char per escape, so the decoded text is the plain chars and these
      const hi = i + 2 < end ? hexValue(text.charCodeAt(i + 1)) : -1;
      const lo = hi >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
      if (hi < 0 || lo < 0 || hi >= 8 || (hi === 0 && lo === 0)) return undefined;
      escaped = true;
      i += 2;
      continue;
    }
    // a token ends: the key before `:`, the value before `,` or the closing `)`
    if (i === start || kind === MAP_START) return undefined;
    const expected = key === undefined ? MAP_SEP : i === end ? OBJ_END : ITEM_SEP;
    if (kind !== expected) return undefined;
    const token = escaped ? decodeAscii(text, start, i) : plain(text.slice(start, i));
    if (key === undefined) {
      key = token;
    } else {
      setOwn(store, key, token);
      key = undefined;
    }
    start = i + 1;
    escaped = false;
  }
  return key === undefined ? adoptRootMap(store) : undefined;
}

/** Scratch of {@link decodeAscii} (grown as needed; one parse at a time). */
let asciiScratch = new Uint8Array(256);
const asciiText = new TextDecoder();

/**
 * `text.slice(from, to)` with its `%XX` escapes decoded, all of them checked ASCII by the caller: written
 * byte by byte and read back as one flat string (no pieces, no cons string).
 */
function decodeAscii(text: string, from: number, to: number): string {
  if (asciiScratch.length < to - from) asciiScratch = new Uint8Array(2 * (to - from));
  const out = asciiScratch;
  let k = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 37 /* % */) {
      out[k++] = hexValue(text.charCodeAt(i + 1)) * 16 + hexValue(text.charCodeAt(i + 2));
      i += 2;
    } else {
      out[k++] = c;
    }
  }
  return asciiText.decode(out.subarray(0, k));
}

/**
 * Parses one value of the Rest.li 2.0 URI grammar (wire facts §2.1, §2.4): the raw text of a query
 * parameter value or of a compound/complex key path segment, percent-escapes still in. Returns a string, or
 * a DataMap / DataList whose leaves are strings. Duplicate map keys: the last one wins. No trimming, and `+`
 * stays `+`.
 *
 * Errors are {@link UriElementParseError}s with the reference's messages and a `column`:
 * `unexpected end of input`; `expected ':' but found ',' (column 2)`; `unexpected token: ')' (column 9) at
 * start of element`; `expected string token, found grammar token: ...`; `tokens left over after parsing;
 * first excess token: ':' (column 5)`; and, for bad escapes (which the reference lets escape as an unchecked
 * exception), `Malformed percent-encoded octet at index N[, invalid hexadecimal digit 'c']`.
 *
 * @throws UriElementParseError for text outside the grammar or nested deeper than `maxDepth`
 * @throws InvalidOptionException for a `maxDepth` that is not a positive integer
 * @example
 * ```ts
 * parseElement("List(a,List(),())");  // DataList ['a', DataList [], DataMap {}]
 * parseElement("(empty:'')");          // DataMap { empty: '' }
 * parseElement('(notEmpty:%27%27)');   // DataMap { notEmpty: "''" }
 * ```
 */
export function parseElement(text: string, options?: ParseElementOptions): UriElement {
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_URI_DEPTH;
  if (maxDepth !== DEFAULT_MAX_URI_DEPTH && (!Number.isSafeInteger(maxDepth) || maxDepth < 1))
    throw new InvalidOptionException(
      `parseElement: maxDepth must be a positive integer, got ${String(maxDepth)}`,
    );
  const flat = parseFlat(text, maxDepth);
  if (flat !== undefined) return flat;
  const tokens = tokenize(text);
  const parser = new Parser(tokens, maxDepth);
  const result = parser.element();
  if (tokens.pos < tokens.length) {
    throw fail(
      tokens,
      tokens.pos,
      `tokens left over after parsing; first excess token: ${tokens.describe(tokens.pos)}`,
    );
  }
  if (typeof result === 'string') return result;
  return Array.isArray(result) ? adoptRootList(result) : adoptRootMap(result as Store);
}
