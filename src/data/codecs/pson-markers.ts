/**
 * PSON element codes and framing bytes, as Rest.li's `PsonDataCodec` defines them
 * (see /work/shared/reference/restli-wire-facts.md §1.1).
 */

/** `#!PSON1\n`: every document starts with these 8 bytes. */
export const PSON_HEADER: readonly number[] = [0x23, 0x21, 0x50, 0x53, 0x4f, 0x4e, 0x31, 0x0a];
export const PSON_HEADER_LENGTH = 8;

export const PSON_NULL = 0x00;
/** One payload byte: 1 = true, 0 = false (any non-zero byte decodes as true). */
export const PSON_BOOLEAN = 0x01;
/** int32, little-endian. */
export const PSON_INT = 0x02;
/** int64, little-endian. */
export const PSON_LONG = 0x03;
/** IEEE-754 binary32, little-endian. Decoded, never written (numbers are written as int, long or double). */
export const PSON_FLOAT = 0x04;
/** IEEE-754 binary64, little-endian. */
export const PSON_DOUBLE = 0x05;
/** int32 byte count, then the raw bytes. */
export const PSON_BINARY = 0x06;
/** The empty string, whatever the options. */
export const PSON_STRING_EMPTY = 0x08;
/** UTF-8 bytes closed by a NUL (written when `encodeStringLength` is false). */
export const PSON_STRING = 0x09;
/** int32 N = UTF-8 byte count + 1 (it counts the NUL), the bytes, then a NUL. The default string form. */
export const PSON_STRING_WITH_LENGTH_4 = 0x0a;
/** As {@link PSON_STRING_WITH_LENGTH_4} with an int16 length. Never written by the reference, but decoded. */
export const PSON_STRING_WITH_LENGTH_2 = 0x0b;
export const PSON_ARRAY_EMPTY = 0x10;
/** Items closed by {@link PSON_LAST}. */
export const PSON_ARRAY = 0x11;
/** Unsigned varint item count, items, {@link PSON_LAST}. */
export const PSON_ARRAY_WITH_COUNT = 0x12;
export const PSON_OBJECT_EMPTY = 0x20;
/** (key index, value) pairs closed by key index 0. */
export const PSON_OBJECT = 0x21;
/** Unsigned varint entry count, pairs, key index 0. */
export const PSON_OBJECT_WITH_COUNT = 0x22;
/** Closes a list. */
export const PSON_LAST = 0xff;
/** Key index 0 as a varint: closes a map. */
export const PSON_MAP_END = 0x80;

/** What a marker introduces, for error messages; undefined for an illegal code. */
export function psonMarkerName(marker: number): string | undefined {
  switch (marker) {
    case PSON_NULL:
      return 'null';
    case PSON_BOOLEAN:
      return 'a boolean';
    case PSON_INT:
      return 'an int';
    case PSON_LONG:
      return 'a long';
    case PSON_FLOAT:
      return 'a float';
    case PSON_DOUBLE:
      return 'a double';
    case PSON_BINARY:
      return 'bytes';
    case PSON_STRING_EMPTY:
    case PSON_STRING:
    case PSON_STRING_WITH_LENGTH_4:
    case PSON_STRING_WITH_LENGTH_2:
      return 'a string';
    case PSON_ARRAY_EMPTY:
    case PSON_ARRAY:
    case PSON_ARRAY_WITH_COUNT:
      return 'a list';
    case PSON_OBJECT_EMPTY:
    case PSON_OBJECT:
    case PSON_OBJECT_WITH_COUNT:
      return 'a map';
    case PSON_LAST:
      return 'the end-of-list marker';
    default:
      return undefined;
  }
}
