import { IllegalDataValueException, IndexOutOfBoundsException } from './errors';
import { KIND, KIND_BYTES } from './internal';
import { bytesEqual, hexText, latin1Bytes, latin1Text, utf8Bytes, utf8Text } from './bytes';

const EMPTY_BYTES = new Uint8Array(0);
// A char above U+00FF cannot be one byte of an "Avro string".
// eslint-disable-next-line no-control-regex -- U+0000 is a valid byte here
const NOT_LATIN1 = /[^\u0000-\u00ff]/;

/** Internal access to the parts of a ByteString, for encoders that copy bytes straight into their output. */
export const BYTE_PARTS = Symbol('svc.bytes.parts');

/**
 * Immutable bytes.
 *
 * A ByteString is a list of byte views ("parts"); `slice` and `concat` build new lists of views over the same
 * memory, so neither copies. Bytes only enter through a copy (`copy`, `fromAvroString`, `fromUtf8`) or
 * through `unsafeWrap`, whose caller promises never to change the array again.
 */
export class ByteString {
  declare readonly [KIND]: number;
  /** @internal */
  readonly [BYTE_PARTS]: readonly Uint8Array[];
  /** Number of bytes. */
  readonly length: number;

  private constructor(parts: readonly Uint8Array[], length: number) {
    this[BYTE_PARTS] = parts;
    this.length = length;
  }

  static readonly EMPTY: ByteString = new ByteString([], 0);

  /** A ByteString holding a copy of `bytes`. */
  static copy(bytes: Uint8Array | ArrayLike<number>): ByteString {
    if (bytes.length === 0) return ByteString.EMPTY;
    return new ByteString([Uint8Array.from(bytes)], bytes.length);
  }

  /**
   * A ByteString over `bytes` without copying. The caller must not modify `bytes` afterwards; use it for
   * buffers that are handed over (decoded payloads, attachment chunks).
   */
  static unsafeWrap(bytes: Uint8Array): ByteString {
    if (bytes.length === 0) return ByteString.EMPTY;
    return new ByteString([bytes], bytes.length);
  }

  /**
   * Bytes from the "Avro string" form used for `bytes` and `fixed` in JSON: each char U+0000..U+00FF is one
   * byte. Throws {@link IllegalDataValueException} for any char above U+00FF.
   */
  static fromAvroString(s: string): ByteString {
    const bad = NOT_LATIN1.exec(s);
    if (bad !== null) {
      throw new IllegalDataValueException(
        `${JSON.stringify(s.length > 40 ? s.slice(0, 40) + '...' : s)} is not a valid string representation of bytes: ` +
          `char U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at index ${bad.index} is above U+00FF`,
        'SVC_ERR_DATA_INVALID_BYTES_STRING',
      );
    }
    return ByteString.unsafeWrap(latin1Bytes(s));
  }

  /** True when `s` is a valid Avro string (every char U+0000..U+00FF). */
  static isAvroString(s: string): boolean {
    return !NOT_LATIN1.test(s);
  }

  /** The UTF-8 bytes of `s`. */
  static fromUtf8(s: string): ByteString {
    return ByteString.unsafeWrap(utf8Bytes(s));
  }

  /** Concatenation of `parts` without copying. */
  static concatAll(parts: readonly ByteString[]): ByteString {
    const views: Uint8Array[] = [];
    let length = 0;
    for (const p of parts) {
      for (const v of p[BYTE_PARTS]) views.push(v);
      length += p.length;
    }
    if (length === 0) return ByteString.EMPTY;
    return new ByteString(views, length);
  }

  isEmpty(): boolean {
    return this.length === 0;
  }

  /** The byte at `index`. */
  byteAt(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) {
      throw new IndexOutOfBoundsException(
        `Index ${index} is out of bounds for ByteString of length ${this.length}`,
      );
    }
    for (const part of this[BYTE_PARTS]) {
      if (index < part.length) return part[index]!;
      index -= part.length;
    }
    /* istanbul ignore next -- unreachable: the bounds were checked above */
    throw new IndexOutOfBoundsException(`Index ${index} is out of bounds`);
  }

  /** The bytes from `offset` (inclusive) for `length` bytes, sharing memory with this ByteString. */
  slice(offset: number, length: number = this.length - offset): ByteString {
    if (
      !Number.isInteger(offset) ||
      !Number.isInteger(length) ||
      offset < 0 ||
      length < 0 ||
      offset + length > this.length
    ) {
      throw new IndexOutOfBoundsException(
        `Slice (offset ${offset}, length ${length}) is out of bounds for ByteString of length ${this.length}`,
      );
    }
    if (length === 0) return ByteString.EMPTY;
    if (offset === 0 && length === this.length) return this;
    const views: Uint8Array[] = [];
    let skip = offset;
    let want = length;
    for (const part of this[BYTE_PARTS]) {
      if (want === 0) break;
      if (skip >= part.length) {
        skip -= part.length;
        continue;
      }
      const take = Math.min(part.length - skip, want);
      views.push(part.subarray(skip, skip + take));
      want -= take;
      skip = 0;
    }
    return new ByteString(views, length);
  }

  /** This followed by `others`, without copying. */
  concat(...others: ByteString[]): ByteString {
    return ByteString.concatAll([this, ...others]);
  }

  /** A fresh copy of the bytes. */
  copyBytes(): Uint8Array {
    const parts = this[BYTE_PARTS];
    if (parts.length === 0) return new Uint8Array(0);
    if (parts.length === 1) return parts[0]!.slice();
    const out = new Uint8Array(this.length);
    this.copyTo(out, 0);
    return out;
  }

  /** Copies the bytes into `target` at `offset`; returns the offset after the last byte written. */
  copyTo(target: Uint8Array, offset: number): number {
    if (offset < 0 || offset + this.length > target.length) {
      throw new IndexOutOfBoundsException(
        `Target of length ${target.length} cannot take ${this.length} bytes at ${offset}`,
      );
    }
    for (const part of this[BYTE_PARTS]) {
      target.set(part, offset);
      offset += part.length;
    }
    return offset;
  }

  /** One contiguous view of the bytes; copies only when the ByteString has several parts. Do not modify it. */
  toReadonlyBytes(): Uint8Array {
    const parts = this[BYTE_PARTS];
    if (parts.length === 0) return EMPTY_BYTES;
    if (parts.length === 1) return parts[0]!;
    return this.copyBytes();
  }

  /** The "Avro string" form (each byte one char U+0000..U+00FF), as used for bytes and fixed in JSON. */
  asAvroString(): string {
    return latin1Text(this.toReadonlyBytes());
  }

  /** The bytes decoded as UTF-8 (malformed sequences become U+FFFD). */
  asUtf8String(): string {
    return utf8Text(this.toReadonlyBytes());
  }

  equals(other: unknown): boolean {
    if (this === other) return true;
    if (!(other instanceof ByteString) || other.length !== this.length) return false;
    const a = this.toReadonlyBytes();
    const b = other.toReadonlyBytes();
    return bytesEqual(a, b);
  }

  /** For `JSON.stringify`: the Avro string form. */
  toJSON(): string {
    return this.asAvroString();
  }

  toString(): string {
    const hex = hexText(this.toReadonlyBytes().subarray(0, 32));
    return `ByteString(length=${this.length}, bytes=${hex}${this.length > 32 ? '...' : ''})`;
  }
}
Object.defineProperty(ByteString.prototype, KIND, { value: KIND_BYTES });
