/**
 * The base class of generated fixed classes: immutable bytes of the schema's size (brief, "Other generated
 * classes" 2).
 */
import { ByteString } from '../data/byte-string';
import type { FixedDataSchema } from '../schema/fixed-schema';
import { describeValue } from './coercers';
import { TemplateOutputCastException } from './errors';
import { DATA } from './internal';

/**
 * @example
 * ```ts
 * const md5 = new MD5(ByteString.copy(digest)); // TemplateOutputCastException unless 16 bytes
 * md5.bytes().length;                          // 16
 * ```
 */
export abstract class FixedTemplate {
  /** @internal */
  declare readonly [DATA]: ByteString;

  /**
   * From a ByteString, or a string in Avro form (each char one byte).
   * @throws TemplateOutputCastException when the value is not bytes or its length is not the schema's size.
   */
  constructor(value: ByteString | string) {
    let bytes: ByteString;
    if (value instanceof ByteString) bytes = value;
    else if (typeof value === 'string' && ByteString.isAvroString(value))
      bytes = ByteString.fromAvroString(value);
    else throw new TemplateOutputCastException(`${new.target.name} holds bytes, not ${describeValue(value)}`);
    const size = this.schema().getSize();
    if (bytes.length !== size) {
      throw new TemplateOutputCastException(
        `${new.target.name} has size ${size}, but the ByteString has length ${bytes.length}`,
      );
    }
    this[DATA] = bytes;
  }

  /** The fixed schema of the class. */
  abstract schema(): FixedDataSchema;

  /** The bytes. */
  bytes(): ByteString {
    return this[DATA];
  }

  /** The bytes (same as {@link bytes}). */
  data(): ByteString {
    return this[DATA];
  }

  /** Fixed values are immutable; a clone is this value. */
  clone(): this {
    return this;
  }

  /** True for a fixed template with the same bytes. */
  equals(other: unknown): boolean {
    return other instanceof FixedTemplate && other[DATA].equals(this[DATA]);
  }

  /** The ByteString's description (`ByteString(length=16, bytes=...)`), as `bytes().toString()`. */
  toString(): string {
    return this[DATA].toString();
  }
}
