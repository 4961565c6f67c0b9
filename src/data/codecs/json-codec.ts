import { adoptRootList, adoptRootMap } from '../adopt';
import type { DataList } from '../data-list';
import type { DataMap } from '../data-map';
import { DataDecodingException, DataEncodingException, InvalidOptionException } from '../errors';
import { KIND, KIND_LIST, KIND_MAP, STORE, type Store } from '../internal';
import { MAX_NESTING_DEPTH } from '../limits';
import { holdsNonFinite, nonFinite } from '../non-finite';
import type { DataCodec } from './data-codec';
import { JsonSyntaxError, parseJsonExact } from './json-exact-parser';
import { NEEDS_EXACT, parseFast } from './json-fast-path';
import { bytesWithLongs, mayHoldLongsBelow, noteLongs, stringifyWithLongs } from './json-long-encode';
import { writeJson } from './json-writer';
import { utf8ErrorOffset } from './utf8';
import { utf8Bytes, utf8Length } from '../bytes';

/** The media type of JSON bodies, `application/json`. */
export const JSON_CONTENT_TYPE = 'application/json';

/** Options of {@link JsonCodec}. */
export interface JsonCodecOptions {
  /**
   * Deepest nesting the decoder accepts; the top-level container is depth 1. Default
   * {@link MAX_NESTING_DEPTH} (1000). Deeper input is a `DataDecodingException` naming the limit and the byte
   * offset, found without parsing the rest. Encoding has no depth limit.
   */
  readonly maxDepth?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * JSON codec with exact 64-bit longs.
 *
 * Decoding takes `JSON.parse` whenever its result is, or can be made, exactly what the exact parser would
 * give (see json-fast-path.ts: longs beyond ±2^53 that it rounded are written back as `bigint`s from the
 * text, json-long-patch.ts), and otherwise the exact parser (rules in json-exact-parser.ts). Decoded objects are adopted lazily by the containers, so decoding costs about what
 * `JSON.parse` costs. Refused with a `DataDecodingException` (code `SVC_ERR_DATA_JSON_DECODE`, with the byte
 * offset): malformed JSON, invalid UTF-8, nesting deeper than `maxDepth`, escapes leaving a lone surrogate,
 * and U+0000 in a key (Svc data holds well-formed Unicode only).
 *
 * Encoding takes `JSON.stringify`; a bigint is written digit for digit (through `JSON.stringify` too, see
 * json-long-encode.ts), and a non-finite number as the string "NaN", "Infinity" or "-Infinity", as Rest.li's
 * Jackson codec writes it (the schema layer reads such strings back for float and double fields). Finding
 * out costs nothing until the process has seen a non-finite number (non-finite.ts).
 *
 * Integral doubles beyond ±2^53 are written as plain digits (that is what `JSON.stringify` prints), and a
 * reader must take such digits as a long to keep longs exact; so such a double comes back as a bigint
 * whose `Number(...)` is exactly the original double (validation against a double schema restores it).
 *
 * Duplicate keys: the last one wins (as in JSON.parse and Rest.li's Jackson codec). A number beyond the double
 * range (`1e400`) is ±Infinity on both paths, as in Jackson.
 */
export class JsonCodec implements DataCodec {
  readonly contentType = JSON_CONTENT_TYPE;
  private readonly maxDepth: number;

  /** @throws InvalidOptionException when `maxDepth` is not a positive integer. */
  constructor(options: JsonCodecOptions = {}) {
    const maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
    if (!Number.isInteger(maxDepth) || maxDepth < 1) {
      throw new InvalidOptionException(
        `JsonCodec: maxDepth must be a positive integer, got ${String(maxDepth)}`,
      );
    }
    this.maxDepth = maxDepth;
  }

  mapToString(map: DataMap): string {
    return encode(map);
  }

  listToString(list: DataList): string {
    return encode(list);
  }

  /**
   * The maps' JSON joined by commas: exactly `maps.map((m) => codec.mapToString(m)).join(',')`, for a writer
   * of many elements (a streamed collection writes each batch of rows so, src/server/streamed-collection.ts).
   * One `JSON.stringify` over them all when none holds a long beyond ±2^53 or a non-finite number (else
   * each as {@link mapToString} writes it): 0.65-0.8 µs a row instead of 1.2-1.7 µs for the 90-byte photos
   * of the PostgreSQL bench, one call per row.
   */
  mapsToString(maps: readonly DataMap[]): string {
    const stores: Store[] = new Array<Store>(maps.length);
    for (let i = 0; i < maps.length; i++) {
      const store = maps[i]![STORE];
      if (mayHoldLongsBelow(store)) return joinEach(maps);
      stores[i] = store;
    }
    let out: string;
    try {
      out = JSON.stringify(stores);
    } catch {
      // a bigint nobody noted yet, or too deep: each one's own encode knows what to do
      return joinEach(maps);
    }
    if (nonFinite.seen && out.includes('null') && holdsNonFinite(stores)) return joinEach(maps);
    // `[a,b]` → `a,b`: JSON.stringify writes an array's items as it writes each alone, comma-separated
    return out.slice(1, -1);
  }

  stringToMap(text: string): DataMap {
    return adoptRootMap(expect(this.decodeString(text), KIND_MAP, text, null) as Store);
  }

  stringToList(text: string): DataList {
    return adoptRootList(expect(this.decodeString(text), KIND_LIST, text, null) as unknown[]);
  }

  mapToBytes(map: DataMap): Uint8Array {
    return encodeBytes(map);
  }

  listToBytes(list: DataList): Uint8Array {
    return encodeBytes(list);
  }

  bytesToMap(bytes: Uint8Array): DataMap {
    const text = bytesToText(bytes);
    return adoptRootMap(expect(decodeText(text, true, bytes, this.maxDepth), KIND_MAP, text, bytes) as Store);
  }

  bytesToList(bytes: Uint8Array): DataList {
    const text = bytesToText(bytes);
    return adoptRootList(
      expect(decodeText(text, true, bytes, this.maxDepth), KIND_LIST, text, bytes) as unknown[],
    );
  }

  private decodeString(text: string): unknown {
    // Only a JS string can hold a raw lone surrogate (bytes pass a fatal UTF-8 decoder); V8 answers at once
    // for text without chars above U+00FF.
    const wellFormed = (text as unknown as { isWellFormed(): boolean }).isWellFormed();
    return decodeText(text, wellFormed, null, this.maxDepth);
  }
}

/**
 * {@link encode} as UTF-8 bytes. A graph with longs is written by `bytesWithLongs`, which cuts its markers
 * out of the encoded bytes rather than building the text of pieces first (see there); anything else is
 * encoded text.
 */
function encodeBytes(root: DataMap | DataList): Uint8Array {
  const store = root[STORE];
  if (!nonFinite.seen && mayHoldLongsBelow(store)) {
    const bytes = bytesWithLongs(store);
    if (bytes !== undefined) return bytes;
  }
  return utf8Bytes(encode(root));
}

function encode(root: DataMap | DataList): string {
  const store = root[STORE];
  let out: string | undefined;
  if (mayHoldLongsBelow(store)) {
    // a decoded document with longs, or a graph that held one the last time: skip the attempt that throws
    out = stringifyWithLongs(store);
    if (out === undefined) return writeJson(root);
  } else {
    try {
      // The store graph is plain JSON-shaped data (see internal.ts), so JSON.stringify takes its native path.
      out = JSON.stringify(store);
    } catch (err) {
      // TypeError: the graph holds a bigint; RangeError: deeper than the call stack. The iterative writer
      // writes both, and reports anything that is really unwritable.
      if (err instanceof TypeError) {
        noteLongs(store);
        out = stringifyWithLongs(store);
        if (out === undefined) return writeJson(root);
      } else if (err instanceof RangeError) {
        return writeJson(root);
      } else {
        throw new DataEncodingException('JSON encoding failed', { cause: err });
      }
    }
  }
  // JSON.stringify writes NaN and ±Infinity as null
  if (nonFinite.seen && out.includes('null') && holdsNonFinite(store)) return writeJson(root);
  return out;
}

function joinEach(maps: readonly DataMap[]): string {
  let out = '';
  for (let i = 0; i < maps.length; i++) out += (i === 0 ? '' : ',') + encode(maps[i]!);
  return out;
}

function bytesToText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch (err) {
    const at = utf8ErrorOffset(bytes);
    throw new DataDecodingException('Invalid UTF-8 in JSON input', at, 'SVC_ERR_DATA_JSON_DECODE', {
      cause: err,
    });
  }
}

function decodeText(text: string, wellFormed: boolean, bytes: Uint8Array | null, maxDepth: number): unknown {
  if (wellFormed) {
    const value = parseFast(text, maxDepth);
    if (value !== NEEDS_EXACT) return value;
  }
  try {
    return parseJsonExact(text, maxDepth);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw decodingError(err.message, err.charOffset, text, bytes);
    throw err;
  }
}

function expect(value: unknown, kind: number, text: string, bytes: Uint8Array | null): unknown {
  const isList = Array.isArray(value);
  const ok =
    typeof value === 'object' &&
    value !== null &&
    (value as { [KIND]?: number })[KIND] === undefined &&
    (kind === KIND_LIST ? isList : !isList);
  if (!ok) {
    const want = kind === KIND_LIST ? 'an array' : 'an object';
    throw decodingError(`Expected ${want} at the top level`, firstNonWs(text), text, bytes);
  }
  return value;
}

function firstNonWs(text: string): number {
  const m = /[^ \t\r\n]/.exec(text);
  return m === null ? 0 : m.index;
}

function decodingError(
  message: string,
  charOffset: number,
  text: string,
  bytes: Uint8Array | null,
): DataDecodingException {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < charOffset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  // text came from bytes with any BOM stripped; count it back in
  const bom = bytes !== null && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const byteOffset = bom + utf8Length(text.slice(0, charOffset));
  return new DataDecodingException(
    `${message} at line ${line}, column ${charOffset - lineStart + 1}`,
    byteOffset,
  );
}
