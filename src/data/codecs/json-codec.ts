import { adoptRootList, adoptRootMap } from '../adopt';
import type { DataList } from '../data-list';
import type { DataMap } from '../data-map';
import { DataDecodingException, DataEncodingException } from '../errors';
import { KIND, KIND_LIST, KIND_MAP, STORE, type Store } from '../internal';
import type { DataCodec } from './data-codec';
import { JsonSyntaxError, parseJsonExact } from './json-exact-parser';
import { writeJson } from './json-writer';
import { bytesMayHoldUnsafeInteger, textMayHoldUnsafeInteger } from './unsafe-integer-scan';
import { utf8ErrorOffset } from './utf8';

export const JSON_CONTENT_TYPE = 'application/json';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * JSON codec with exact 64-bit longs.
 *
 * Decoding takes `JSON.parse` whenever the text cannot hold an integer outside ±2^53 (a cheap scan decides;
 * see unsafe-integer-scan.ts) and otherwise an exact parser that keeps such integers as `bigint`. Decoded
 * objects are adopted lazily by the containers, so decoding costs about what `JSON.parse` costs. Encoding
 * takes `JSON.stringify` unless the graph holds a bigint, which it writes digit for digit.
 *
 * Integral doubles beyond ±2^53 are written as plain digits (that is what `JSON.stringify` prints), and a
 * reader must take such digits as a long to keep longs exact; so such a double comes back as a bigint
 * whose `Number(...)` is exactly the original double (validation against a double schema restores it).
 *
 * Duplicate keys: the last one wins (as in JSON.parse and Rest.li's Jackson codec). A number too large for a
 * double is an error on the exact path; on the fast path (no 16-digit run in the text) such a number can only
 * be written with a huge exponent (`1e999`), which `JSON.parse` reads as Infinity, as Jackson does.
 */
export class JsonCodec implements DataCodec {
  readonly contentType = JSON_CONTENT_TYPE;

  mapToString(map: DataMap): string {
    return encode(map);
  }

  listToString(list: DataList): string {
    return encode(list);
  }

  stringToMap(text: string): DataMap {
    return adoptRootMap(
      expect(decodeText(text, textMayHoldUnsafeInteger(text), null), KIND_MAP, text, null) as Store,
    );
  }

  stringToList(text: string): DataList {
    return adoptRootList(
      expect(decodeText(text, textMayHoldUnsafeInteger(text), null), KIND_LIST, text, null) as unknown[],
    );
  }

  mapToBytes(map: DataMap): Uint8Array {
    return Buffer.from(encode(map), 'utf8');
  }

  listToBytes(list: DataList): Uint8Array {
    return Buffer.from(encode(list), 'utf8');
  }

  bytesToMap(bytes: Uint8Array): DataMap {
    const text = bytesToText(bytes);
    return adoptRootMap(
      expect(decodeText(text, bytesMayHoldUnsafeInteger(bytes), bytes), KIND_MAP, text, bytes) as Store,
    );
  }

  bytesToList(bytes: Uint8Array): DataList {
    const text = bytesToText(bytes);
    return adoptRootList(
      expect(decodeText(text, bytesMayHoldUnsafeInteger(bytes), bytes), KIND_LIST, text, bytes) as unknown[],
    );
  }
}

function encode(root: DataMap | DataList): string {
  try {
    // The store graph is plain JSON-shaped data (see internal.ts), so JSON.stringify takes its native path.
    return JSON.stringify(root[STORE]);
  } catch (err) {
    // TypeError: the graph holds a bigint; RangeError: deeper than the call stack. Both are written by the
    // iterative writer, which also reports anything that is really unwritable.
    if (err instanceof TypeError || err instanceof RangeError) return writeJson(root);
    throw new DataEncodingException('JSON encoding failed', { cause: err });
  }
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

function decodeText(text: string, exact: boolean, bytes: Uint8Array | null): unknown {
  if (!exact) {
    try {
      return JSON.parse(text);
    } catch {
      // fall through: the exact parser finds and reports the problem with its offset
    }
  }
  try {
    return parseJsonExact(text);
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
  const byteOffset = bom + Buffer.byteLength(text.slice(0, charOffset), 'utf8');
  return new DataDecodingException(
    `${message} at line ${line}, column ${charOffset - lineStart + 1}`,
    byteOffset,
  );
}
