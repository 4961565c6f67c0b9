import { adoptRootList, adoptRootMap } from '../adopt';
import type { DataList } from '../data-list';
import type { DataMap } from '../data-map';
import { InvalidOptionException } from '../errors';
import type { Store } from '../internal';
import { MAX_NESTING_DEPTH } from '../limits';
import type { DataCodec } from './data-codec';
import { decodePson } from './pson-decoder';
import { encodePson, type PsonWriteOptions } from './pson-encoder';

/** The MIME type of PSON, as Rest.li names it (`RestConstants`, `ContentType.PSON`). */
export const PSON_CONTENT_TYPE = 'application/x-pson';

/** Options of {@link PsonCodec}; every default matches Rest.li's `PsonDataCodec.Options`. */
export interface PsonCodecOptions {
  /**
   * Write non-empty strings with a 4-byte length (`0x0A`) rather than NUL-terminated (`0x09`).
   * Default `true`. With `false`, a string value containing U+0000 is still written with its length, since
   * a NUL-terminated string would end at the NUL. Decoding accepts both forms whatever this says.
   */
  readonly encodeStringLength?: boolean;
  /**
   * Write non-empty maps and lists with their entry/item count (`0x22`/`0x12`) rather than without
   * (`0x21`/`0x11`). Default `false`. Decoding accepts both forms and checks the count when there is one.
   */
  readonly encodeCollectionCount?: boolean;
  /**
   * Deepest nesting the decoder accepts; the top-level container is depth 1. Default
   * {@link MAX_NESTING_DEPTH} (1000). Deeper input is a `DataDecodingException` naming the limit and the byte
   * offset, which guards against hostile documents. Encoding has no depth limit.
   */
  readonly maxDepth?: number;
}

const DEFAULTS: Required<PsonCodecOptions> = {
  encodeStringLength: true,
  encodeCollectionCount: false,
  maxDepth: MAX_NESTING_DEPTH,
};

/**
 * PSON ("#!PSON1"), Rest.li's binary JSON: byte-compatible with `PsonDataCodec`.
 *
 * Little-endian numbers, inverted varints, and one key dictionary per document, so each distinct map key is
 * written once and then referred to by index. Numbers are written as JSON writes them: an integral number
 * inside the 64-bit long range as int (inside int32) or long, every bigint as long, and everything else as
 * double (fractions, numbers beyond the long range, NaN, ±Infinity, and -0, so its sign survives). Decoding
 * gives numbers, and bigints for longs outside ±(2^53-1), as the JSON codec does; so a long keeps its wire
 * type through PSON -> JSON -> PSON and back. Map entries are written in insertion order. Decoded containers
 * are adopted lazily, as with the JSON codec.
 *
 * Decoding throws `DataDecodingException` (code `SVC_ERR_DATA_PSON_DECODE`, with the byte offset) on any
 * malformed, truncated or trailing input, nesting deeper than `maxDepth`, and strings that are not valid
 * UTF-8 (the reference reads those as U+FFFD, which can make two keys one; Svc data holds well-formed
 * Unicode only). Encoding throws `DataEncodingException` for a map key holding U+0000 or a lone surrogate,
 * which the data layer refuses at insertion anyway (the reference would corrupt the stream or merge keys).
 *
 * @example
 * ```ts
 * const codec = new PsonCodec();
 * const bytes = codec.mapToBytes(new DataMap({ a: 1 })); // 23 21 50 53 4F 4E 31 0A 21 81 61 00 02 01 00 00 00 80
 * codec.bytesToMap(bytes).get('a'); // 1
 * ```
 * @see restli-wire-facts.md §1
 */
export class PsonCodec implements DataCodec {
  readonly contentType = PSON_CONTENT_TYPE;
  private readonly write: PsonWriteOptions;
  private readonly maxDepth: number;

  /** @throws InvalidOptionException when `maxDepth` is not a positive integer. */
  constructor(options: PsonCodecOptions = {}) {
    const maxDepth = options.maxDepth ?? DEFAULTS.maxDepth;
    if (!Number.isInteger(maxDepth) || maxDepth < 1) {
      throw new InvalidOptionException(
        `PsonCodec: maxDepth must be a positive integer, got ${String(maxDepth)}`,
      );
    }
    this.write = {
      encodeStringLength: options.encodeStringLength ?? DEFAULTS.encodeStringLength,
      encodeCollectionCount: options.encodeCollectionCount ?? DEFAULTS.encodeCollectionCount,
    };
    this.maxDepth = maxDepth;
  }

  /** A complete PSON document (header included) holding `map`. */
  mapToBytes(map: DataMap): Uint8Array {
    return encodePson(map, this.write);
  }

  /** A complete PSON document (header included) holding `list`. */
  listToBytes(list: DataList): Uint8Array {
    return encodePson(list, this.write);
  }

  /** The map in a PSON document; the input is not retained (bytes values are copied). */
  bytesToMap(bytes: Uint8Array): DataMap {
    return adoptRootMap(decodePson(bytes, false, this.maxDepth) as Store);
  }

  /** The list in a PSON document; the input is not retained (bytes values are copied). */
  bytesToList(bytes: Uint8Array): DataList {
    return adoptRootList(decodePson(bytes, true, this.maxDepth) as unknown[]);
  }
}
