/** Where a message points: record field names, map keys, union member keys and list indices, from the root. */
export type ValidationPath = readonly (string | number)[];

/** The separator between the parts of a message (the reference's `Message.MESSAGE_FIELD_SEPARATOR`). */
const SEPARATOR = ' :: ';

/**
 * One validation message: a path into the data and a reason, written like the reference's messages:
 * `ERROR :: /bar/requiredInt :: field is required but not found and has no default value`.
 *
 * The path is each component prefixed with `/` and not escaped (as in the reference, so a key holding `/`
 * reads ambiguously); the root's path is empty, which gives `ERROR ::  :: <text>`.
 */
export class ValidationMessage {
  readonly #path: ValidationPath;
  readonly #text: string;
  readonly #error: boolean;

  constructor(path: ValidationPath, text: string, error = true) {
    this.#path = path;
    this.#text = text;
    this.#error = error;
  }

  /** The path components (names, keys, indices). */
  getPath(): ValidationPath {
    return this.#path;
  }

  /** The path as text: `/field/0/inner`; empty for the root. */
  getPathString(): string {
    const path = this.#path;
    let s = '';
    for (let i = 0; i < path.length; i++) {
      const c = path[i]!;
      // '/' + c, with the small indices' texts made once: String(c) per component was half the time of
      // getMessage() for a failed ~1 KB record (bench/validation.bench.ts, "invalid 1KB": ~60 → ~35 ns)
      s +=
        typeof c === 'number' && c >= 0 && c < INDEX_TEXTS.length && c % 1 === 0 ? INDEX_TEXTS[c]! : '/' + c;
    }
    return s;
  }

  /** The reason, e.g. `"C" is not an enum symbol`. */
  getText(): string {
    return this.#text;
  }

  /** True for errors (every message validation itself emits is one); false for information. */
  isError(): boolean {
    return this.#error;
  }

  /** `ERROR :: <path> :: <text>` (`INFO` for information). */
  toString(): string {
    return (this.#error ? ERROR : INFO) + this.getPathString() + SEPARATOR + this.#text;
  }
}

const ERROR = `ERROR${SEPARATOR}`;
const INFO = `INFO${SEPARATOR}`;
/** `/0` ... `/63`: list indices in paths. */
const INDEX_TEXTS: readonly string[] = Array.from({ length: 64 }, (_, i) => `/${i}`);

/** The messages one per line, each line ending in `\n`; empty for none (the reference's message-list text). */
export function messagesToString(messages: readonly ValidationMessage[]): string {
  // one message (the usual failure) without the empty string to start from
  if (messages.length === 1) return messages[0]!.toString() + '\n';
  let s = '';
  for (let i = 0; i < messages.length; i++) s += messages[i]!.toString() + '\n';
  return s;
}
