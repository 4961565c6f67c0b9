/**
 * Reads a PSON document into raw nodes (plain objects and arrays, see internal.ts), accepting every form
 * Rest.li's `PsonDataCodec` writes or reads (restli-wire-facts.md §1).
 *
 * Input is hostile until proven otherwise: every read is bounds-checked first, no length or count is used
 * to allocate before it has been checked against the bytes left, varints are at most 5 bytes, nesting is
 * limited by `maxDepth`, and every problem is a {@link DataDecodingException} naming the byte offset.
 *
 * Stricter than the reference where it would otherwise accept garbage: trailing bytes after the top-level
 * value, a key index that was never defined, the wrong top-level type, and strings that are not valid UTF-8
 * are errors. The reference reads malformed UTF-8 as U+FFFD, which can make two distinct keys one and
 * silently lose an entry; Svc data holds well-formed Unicode only, and since valid UTF-8 cannot encode a lone
 * surrogate, no decoded string holds one. A key cannot hold U+0000 (it ends at the first NUL). NaN and
 * ±Infinity are data, noted for the JSON encoder (non-finite.ts).
 *
 * Why it looks like this:
 * - Raw nodes, not DataMaps: the containers adopt them lazily, so decoding allocates one wrapper in all.
 * - Module-level reader state: decoding is synchronous and calls no user code, so it cannot re-enter.
 * - Each distinct key is read once per document and then referred to by index (PSON's advantage over JSON
 *   and msgpack); its text comes from caches shared by all documents (see {@link readKeyText}).
 * - Strings are decoded by pson-utf8.ts. Short ASCII strings need no check; a string from the native decoder
 *   costs one search for U+FFFD (its mark for malformed bytes, ~30 ns), and only a string holding one has
 *   its bytes validated.
 * - Recursion for the usual shallow documents (fastest), with an explicit-stack reader for subtrees deeper
 *   than {@link RECURSION_LIMIT}, so a high `maxDepth` cannot overflow the call stack.
 * - A long marker inside ±(2^53-1) reads as a number, the one form of such a long in memory, and its slot
 *   gets a long mark (long-marks.ts), so a PSON → PSON pass-through writes a long as a long, as the reference
 *   keeps `Long` apart from `Integer`. `readLong` raises a flag that the container readers take down.
 */
import { ByteString } from '../byte-string';
import { DataDecodingException } from '../errors';
import { makeStoreConstructor, setOwn, type Store } from '../internal';
import {
  attachLongs as attachLongsImported,
  collectMapMark as collectMapMarkImported,
  dropMapMark as dropMapMarkImported,
  type ListLongs,
  type MapLongs,
} from '../long-marks';
import { noteNonFinite } from '../non-finite';

// Local aliases: an imported binding is a getter call on the module object under swc (hot paths).
const collectMapMark = collectMapMarkImported;
const attachLongs = attachLongsImported;
const dropMapMark = dropMapMarkImported;

/** This decoder's own map store constructor (see makeStoreConstructor for why it is not shared). */
const StoreObject = makeStoreConstructor();
import { PSON_HEADER, PSON_HEADER_LENGTH, psonMarkerName } from './pson-markers';
import { decodeUtf8 } from './pson-utf8';
import { utf8ErrorOffset } from './utf8';
import { MAX_VARINT_BYTES } from './varint';
import { hexText } from '../bytes';

// Element codes as local constants: imported bindings compile to loads from the module object (getters
// under swc), where a local const is a constant V8 can fold. pson-markers.ts documents each one.
const NULL = 0x00;
const BOOLEAN = 0x01;
const INT = 0x02;
const LONG = 0x03;
const FLOAT = 0x04;
const DOUBLE = 0x05;
const BINARY = 0x06;
const STRING_EMPTY = 0x08;
const STRING = 0x09;
const STRING_WITH_LENGTH_4 = 0x0a;
const STRING_WITH_LENGTH_2 = 0x0b;
const ARRAY_EMPTY = 0x10;
const ARRAY = 0x11;
const ARRAY_WITH_COUNT = 0x12;
const OBJECT_EMPTY = 0x20;
const OBJECT = 0x21;
const OBJECT_WITH_COUNT = 0x22;
const LAST = 0xff;

/** Nesting handled by recursion; deeper subtrees go to the explicit-stack reader. */
const RECURSION_LIMIT = 200;
/** Keys up to this many UTF-8 bytes go through the key caches. */
const KEY_CACHE_MAX_LENGTH = 64;
const KEY_CACHE_MASK = 1023;
/** Key numbers below this are remembered with their text from one document to the next. */
const KEYS_BY_INDEX = 1024;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_32 = 4294967296;

/** What {@link readValue} returns for the end-of-list marker. */
const END: unique symbol = Symbol('pson.end');

// Floats, doubles and longs outside ±2^53 are read by copying their bytes into these views, rather than
// through a DataView made per document: with a Buffer and a DataView made per input, a one-key document
// took 460 ns to decode instead of 140.
const scratch = new ArrayBuffer(8);
const scratchBytes = new Uint8Array(scratch);
const scratchF64 = new Float64Array(scratch);
const scratchF32 = new Float32Array(scratch);
const scratchI64 = new BigInt64Array(scratch);

const NO_BYTES = new Uint8Array(0);
let src: Uint8Array = NO_BYTES;
let pos = 0;
let end = 0;
let maxDepth = 0;
/** Set by {@link readLong} when it returned a number: the slot the value goes into is to be marked long. */
let smallLong = false;
/** Key dictionary: keys[i] is key index i; keys[0] is a placeholder, so `keys.length` is the next new index. */
let keys: string[] = [];
/** Cross-document key cache, by a hash of the key bytes: the bytes (to confirm a hit) and the string. */
const keyCacheBytes: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(KEY_CACHE_MASK + 1);
const keyCacheStrings: Array<string | undefined> = new Array<string | undefined>(KEY_CACHE_MASK + 1);
/** The bytes and text key number i had when last seen, in any document. */
const keyBytesByIndex: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(KEYS_BY_INDEX);
const keyStringsByIndex: Array<string | undefined> = new Array<string | undefined>(KEYS_BY_INDEX);

/**
 * Decodes a whole PSON document whose top-level value must be a map (`wantList` false) or a list.
 * Nesting deeper than `depthLimit` (the top-level container is depth 1) is an error.
 */
export function decodePson(bytes: Uint8Array, wantList: boolean, depthLimit: number): Store | unknown[] {
  // A plain Uint8Array view: Buffer's own `slice` would share memory where we mean to copy.
  src = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  pos = 0;
  end = src.length;
  maxDepth = depthLimit;
  keys = [''];
  smallLong = false;
  try {
    readHeader();
    checkTopLevel(wantList);
    const value = readValue(1) as Store | unknown[];
    if (pos !== end) fail(`Unexpected ${end - pos} trailing byte(s) after the top-level value`, pos);
    return value;
  } finally {
    // do not keep the caller's buffer or the keys alive
    src = NO_BYTES;
    keys = [];
  }
}

/** Copies the `n` bytes at `pos` into the scratch views (little-endian platforms read them as they are). */
function toScratch(n: number): void {
  for (let i = 0; i < n; i++) scratchBytes[LITTLE_ENDIAN ? i : n - 1 - i] = src[pos + i]!;
}

function fail(message: string, at: number): never {
  throw new DataDecodingException(message, at, 'SVC_ERR_DATA_PSON_DECODE');
}

function truncated(what: string, at: number): never {
  fail(`Truncated input: ${end - at} byte(s) left where ${what} was expected`, at);
}

function illegalCode(marker: number, at: number): never {
  // the reference prints the code as a Java (signed) byte
  fail(`Illegal PSON element code ${(marker << 24) >> 24}`, at);
}

function tooDeep(at: number): never {
  fail(`Nesting deeper than the maximum depth of ${maxDepth}`, at);
}

function readHeader(): void {
  let ok = end >= PSON_HEADER_LENGTH;
  for (let i = 0; ok && i < PSON_HEADER_LENGTH; i++) ok = src[i] === PSON_HEADER[i];
  if (!ok) {
    const got = hexText(src.subarray(0, PSON_HEADER_LENGTH)).toUpperCase();
    const hint = end < PSON_HEADER_LENGTH ? ` (input is only ${end} byte(s) long)` : '';
    fail(
      `Expecting header 0x${hexText(Uint8Array.from(PSON_HEADER)).toUpperCase()} but got 0x${got}${hint}`,
      0,
    );
  }
  pos = PSON_HEADER_LENGTH;
}

function checkTopLevel(wantList: boolean): void {
  if (pos >= end) truncated('the top-level value', pos);
  const m = src[pos]!;
  const isList = m === ARRAY || m === ARRAY_EMPTY || m === ARRAY_WITH_COUNT;
  const isMap = m === OBJECT || m === OBJECT_EMPTY || m === OBJECT_WITH_COUNT;
  if (wantList ? isList : isMap) return;
  const name = psonMarkerName(m);
  if (name === undefined) illegalCode(m, pos);
  fail(`Expected ${wantList ? 'a list' : 'a map'} at the top level but found ${name}`, pos);
}

/**
 * Reads one element at `pos`: a leaf, a container (recursively, or with the explicit stack when `depth` is
 * past {@link RECURSION_LIMIT}), or {@link END} for the end-of-list marker. `depth` is the depth the element
 * would have as a container.
 */
function readValue(depth: number): unknown {
  if (pos >= end) truncated('an element code', pos);
  const at = pos;
  const m = src[pos++]!;
  switch (m) {
    case STRING_WITH_LENGTH_4: {
      if (end - pos < 4) truncated('the 4-byte length of a string', pos);
      const n = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24);
      pos += 4;
      return readSizedString(n, pos - 4);
    }
    case INT: {
      if (end - pos < 4) truncated('a 4-byte int', pos);
      const n = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24);
      pos += 4;
      return n;
    }
    case OBJECT:
      if (depth > maxDepth) tooDeep(at);
      if (depth > RECURSION_LIMIT) return readDeep(m, depth);
      return readMap(depth, -1);
    case ARRAY:
      if (depth > maxDepth) tooDeep(at);
      if (depth > RECURSION_LIMIT) return readDeep(m, depth);
      return readList(depth, -1);
    case LONG:
      return readLong();
    case DOUBLE: {
      if (end - pos < 8) truncated('an 8-byte double', pos);
      toScratch(8);
      const d = scratchF64[0]!;
      if (d - d !== 0) noteNonFinite();
      pos += 8;
      return d;
    }
    case BOOLEAN:
      if (pos >= end) truncated('the byte of a boolean', pos);
      return src[pos++] !== 0;
    case STRING_EMPTY:
      return '';
    case NULL:
      return null;
    case OBJECT_EMPTY:
      if (depth > maxDepth) tooDeep(at);
      return {};
    case ARRAY_EMPTY:
      if (depth > maxDepth) tooDeep(at);
      return [];
    case LAST:
      return END;
    case STRING:
      return readCString('a NUL-terminated string');
    case STRING_WITH_LENGTH_2: {
      if (end - pos < 2) truncated('the 2-byte length of a string', pos);
      const n = ((src[pos]! | (src[pos + 1]! << 8)) << 16) >> 16; // int16, as Java reads a short
      pos += 2;
      return readSizedString(n, pos - 2);
    }
    case FLOAT: {
      if (end - pos < 4) truncated('a 4-byte float', pos);
      toScratch(4);
      const f = scratchF32[0]!;
      if (f - f !== 0) noteNonFinite();
      pos += 4;
      return f;
    }
    case BINARY:
      return readBytes();
    case OBJECT_WITH_COUNT:
    case ARRAY_WITH_COUNT:
      if (depth > maxDepth) tooDeep(at);
      if (depth > RECURSION_LIMIT) return readDeep(m, depth);
      return m === OBJECT_WITH_COUNT
        ? readMap(depth, readVarUint('the entry count of a map'))
        : readList(depth, readVarUint('the item count of a list'));
    default:
      return illegalCode(m, at);
  }
}

function readMap(depth: number, count: number): Store {
  const map = new StoreObject();
  let n = 0;
  let longs: MapLongs | undefined;
  for (;;) {
    const key = readKey();
    if (key === null) break;
    const at = pos;
    const v = readValue(depth + 1);
    if (v === END) fail('Unexpected end of array', at);
    setOwn(map, key, v);
    if (smallLong) {
      smallLong = false;
      longs = collectMapMark(longs, key);
    } else if (longs !== undefined) {
      dropMapMark(longs, key); // a key repeated in the map: the last value wins, and it is no long
    }
    n++;
  }
  if (count >= 0 && n !== count) {
    fail(`Actual number object fields (${n}) is not the same as expected (${count})`, pos - 1);
  }
  // after the entries: a property added midway would give the store a hidden class of its own
  if (longs !== undefined) attachLongs(map, longs);
  return map;
}

function readList(depth: number, count: number): unknown[] {
  const list: unknown[] = [];
  let longs: ListLongs | undefined;
  for (;;) {
    const v = readValue(depth + 1);
    if (v === END) break;
    list.push(v);
    if (smallLong) {
      smallLong = false;
      (longs ??= [])[list.length - 1] = true;
    }
  }
  if (count >= 0 && list.length !== count) {
    fail(`Actual number array items (${list.length}) is not the same as expected (${count})`, pos - 1);
  }
  if (longs !== undefined) attachLongs(list, longs);
  return list;
}

/** Reads a map key index and, for a new key, its text; null for the end-of-map index 0. */
function readKey(): string | null {
  const at = pos;
  if (pos >= end) truncated('a map key index', pos);
  const b = src[pos]!;
  let u: number;
  if (b >= 0x80) {
    u = b & 0x7f;
    pos++;
  } else {
    u = readVarUint('a map key index');
  }
  if (u === 0) return null;
  if (u % 2 === 0) {
    // zigzag: even = +index, a key defined earlier in this document
    const index = u / 2;
    if (index >= keys.length)
      fail(`Received key index ${index} but only ${keys.length - 1} key(s) are defined`, at);
    return keys[index]!;
  }
  // odd = -index: a new key, which must take the next index
  const index = (u + 1) / 2;
  if (index !== keys.length) fail(`Received new key index ${index} but expecting ${keys.length}`, at);
  const key = readKeyText(index);
  keys.push(key);
  return key;
}

/** An unsigned varint of at most 5 bytes whose value fits 32 bits. */
function readVarUint(what: string): number {
  const at = pos;
  let value = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    if (pos >= end) truncated(what, at);
    const b = src[pos++]!;
    value += (b & 0x7f) * scale;
    if (b >= 0x80) {
      if (value > 0xffffffff) fail(`Varint overflows 32 bits in ${what}`, at);
      return value;
    }
    scale *= 128;
  }
  return fail(`Varint longer than ${MAX_VARINT_BYTES} bytes in ${what}`, at);
}

/** A string of declared size `n` (which counts the NUL) at `pos`; `lengthAt` is where the size was. */
function readSizedString(n: number, lengthAt: number): string {
  if (n <= 0) fail(n === 0 ? 'String size should not be 0' : `String size ${n} is negative`, lengthAt);
  if (n > end - pos) truncated(`a string of ${n - 1} byte(s) and its NUL`, pos);
  if (n === 1) {
    if (src[pos] !== 0) fail('C string not terminated with null', pos);
    pos++;
    return '';
  }
  // As in the reference, the byte after the N-1 string bytes is skipped without checking it is a NUL.
  const start = pos;
  pos += n;
  return text(start, start + n - 1);
}

/** UTF-8 bytes up to a NUL, which is consumed. */
function readCString(what: string): string {
  const start = pos;
  const zero = src.indexOf(0, start);
  if (zero === -1) truncated(what, start);
  pos = zero + 1;
  return text(start, zero);
}

/** The string in the UTF-8 bytes `src[start, stop)`; malformed UTF-8 is an error naming its offset. */
function text(start: number, stop: number): string {
  const s = decodeUtf8(src, start, stop);
  if (s !== null) return s;
  const bad = start + utf8ErrorOffset(src.subarray(start, stop));
  return fail('Invalid UTF-8 in a string: Svc data holds well-formed Unicode only', bad);
}

/**
 * The text of new key number `index` (UTF-8 up to a NUL, which is consumed), through caches shared by all
 * documents: the same keys come back document after document, usually with the same numbers. Handing V8
 * the same string object again spares creating the string and re-internalising the property name on every
 * store. First try the key this number had last time (one compare loop), then a cache by hash of the bytes.
 * 1 KB record (40 keys): no cache ~9.5 µs per decode; hash cache ~5.5 µs; by number first ~4.3 µs.
 */
function readKeyText(index: number): string {
  const start = pos;
  if (index < KEYS_BY_INDEX) {
    const candidate = keyBytesByIndex[index];
    if (candidate !== undefined) {
      const n = candidate.length;
      if (end - start > n && src[start + n] === 0) {
        let k = 0;
        while (k < n && src[start + k] === candidate[k]) k++;
        if (k === n) {
          pos = start + n + 1;
          return keyStringsByIndex[index]!;
        }
      }
    }
  }
  const key = readKeyTextByHash();
  // long keys are not remembered: the caches must stay small whatever the input
  if (index < KEYS_BY_INDEX && pos - 1 - start <= KEY_CACHE_MAX_LENGTH) {
    keyBytesByIndex[index] = src.subarray(start, pos - 1).slice();
    keyStringsByIndex[index] = key;
  }
  return key;
}

function readKeyTextByHash(): string {
  const start = pos;
  let hash = 0;
  let i = start;
  const limit = end - start > KEY_CACHE_MAX_LENGTH ? start + KEY_CACHE_MAX_LENGTH : end;
  for (; i < limit; i++) {
    const c = src[i]!;
    if (c === 0) break;
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  if (i === limit) return readCString('a NUL-terminated map key'); // long key or truncated: no caching
  const length = i - start;
  pos = i + 1;
  const slot = (hash ^ length) & KEY_CACHE_MASK;
  const cached = keyCacheBytes[slot];
  if (cached !== undefined && cached.length === length) {
    let k = 0;
    while (k < length && cached[k] === src[start + k]) k++;
    if (k === length) return keyCacheStrings[slot]!;
  }
  const key = text(start, i);
  keyCacheBytes[slot] = src.slice(start, i);
  keyCacheStrings[slot] = key;
  return key;
}

function readLong(): number | bigint {
  if (end - pos < 8) truncated('an 8-byte long', pos);
  const lo = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
  const hi = src[pos + 4]! | (src[pos + 5]! << 8) | (src[pos + 6]! << 16) | (src[pos + 7]! << 24);
  // -2^53 < value < 2^53 exactly when hi is in [-2^21, 2^21) and not (hi = -2^21, lo = 0)
  if (hi >= -0x200000 && hi < 0x200000 && (hi !== -0x200000 || lo !== 0)) {
    pos += 8;
    smallLong = true;
    return hi * TWO_32 + lo;
  }
  toScratch(8);
  pos += 8;
  return scratchI64[0]!;
}

function readBytes(): ByteString {
  if (end - pos < 4) truncated('the 4-byte length of bytes', pos);
  const lengthAt = pos;
  const n = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24);
  pos += 4;
  if (n < 0) fail(`Byte count ${n} is negative`, lengthAt);
  if (n > end - pos) truncated(`${n} byte(s) of binary data`, pos);
  if (n === 0) return ByteString.EMPTY;
  // a copy: the ByteString must not share memory with the caller's input
  const copy = src.slice(pos, pos + n);
  pos += n;
  return ByteString.unsafeWrap(copy);
}

/**
 * Reads the container whose marker `m` (a non-empty form) was just consumed, and everything below it, with
 * an explicit stack. Leaves and empty containers still go through {@link readValue}, which does not recurse
 * for them. `depth` is the container's depth.
 */
function readDeep(m: number, depth: number): Store | unknown[] {
  const nodes: Array<Store | unknown[]> = [];
  const counts: number[] = [];
  const seen: number[] = [];
  /** Long marks collected per frame, attached to the node when it is closed (see readMap). */
  const longs: Array<MapLongs | ListLongs | undefined> = [];
  const close = (): void => {
    const node = nodes.pop()!;
    counts.pop();
    seen.pop();
    const marks = longs.pop();
    if (marks !== undefined) attachLongs(node, marks);
  };
  const open = (marker: number): Store | unknown[] => {
    let node: Store | unknown[];
    let count = -1;
    if (marker === ARRAY || marker === ARRAY_WITH_COUNT) {
      if (marker === ARRAY_WITH_COUNT) count = readVarUint('the item count of a list');
      node = [];
    } else {
      if (marker === OBJECT_WITH_COUNT) count = readVarUint('the entry count of a map');
      node = new StoreObject();
    }
    nodes.push(node);
    counts.push(count);
    seen.push(0);
    longs.push(undefined);
    return node;
  };
  /** True when the next element is a non-empty container form, which gets its own frame. */
  const opensFrame = (marker: number): boolean =>
    marker === ARRAY || marker === ARRAY_WITH_COUNT || marker === OBJECT || marker === OBJECT_WITH_COUNT;

  const root = open(m);
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const node = nodes[top]!;
    const childDepth = depth + top + 1;
    if (Array.isArray(node)) {
      if (pos >= end) truncated('an element code', pos);
      const marker = src[pos]!;
      if (marker === LAST) {
        if (counts[top]! >= 0 && seen[top] !== counts[top]) {
          fail(`Actual number array items (${seen[top]}) is not the same as expected (${counts[top]})`, pos);
        }
        pos++;
        close();
        continue;
      }
      seen[top]!++;
      if (opensFrame(marker)) {
        if (childDepth > maxDepth) tooDeep(pos);
        pos++;
        node.push(open(marker));
      } else {
        node.push(readValue(childDepth));
        if (smallLong) {
          smallLong = false;
          ((longs[top] as ListLongs | undefined) ??= [])[node.length - 1] = true;
        }
      }
    } else {
      const key = readKey();
      if (key === null) {
        if (counts[top]! >= 0 && seen[top] !== counts[top]) {
          fail(
            `Actual number object fields (${seen[top]}) is not the same as expected (${counts[top]})`,
            pos - 1,
          );
        }
        close();
        continue;
      }
      seen[top]!++;
      if (pos >= end) truncated('an element code', pos);
      const marker = src[pos]!;
      if (marker === LAST) fail('Unexpected end of array', pos);
      if (opensFrame(marker)) {
        if (childDepth > maxDepth) tooDeep(pos);
        pos++;
        const marks = longs[top] as MapLongs | undefined;
        if (marks !== undefined) dropMapMark(marks, key);
        setOwn(node, key, open(marker));
      } else {
        setOwn(node, key, readValue(childDepth));
        const marks = longs[top] as MapLongs | undefined;
        if (smallLong) {
          smallLong = false;
          longs[top] = collectMapMark(marks, key);
        } else if (marks !== undefined) {
          dropMapMark(marks, key);
        }
      }
    }
  }
  return root;
}
