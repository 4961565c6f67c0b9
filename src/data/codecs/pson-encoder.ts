/**
 * Writes a data graph as PSON, byte-compatible with Rest.li's `PsonDataCodec` (restli-wire-facts.md §1).
 *
 * Accepts wrapped containers and raw decoded nodes anywhere (a raw object/array is read directly as the
 * store; nothing is adopted or wrapped while encoding). Map entries come out in store order (insertion
 * order); the reference uses HashMap order, and peers must accept any order.
 *
 * Why it looks like this (timings: Node 20, bench/fixtures/data-documents.ts 1 KB record):
 * - One module-level output buffer, grown by doubling and reused across calls, with direct byte writes;
 *   the result is a copy of the used part (a fresh, even pooled, buffer per call was ~6% slower).
 *   Module-level state is safe because encoding is synchronous and calls no user code: it cannot re-enter.
 * - Map keys come from a table shared by all documents (see {@link writeKey}).
 * - Strings are written straight into the buffer (pson-utf8.ts).
 * - Recursion for the usual shallow graphs (fastest), with an explicit-stack writer for any subtree deeper
 *   than {@link RECURSION_LIMIT}, so a 200,000-deep list encodes without overflowing the call stack.
 * - A number whose slot carries a long mark (long-marks.ts: the application put a bigint there) is a long
 *   whatever its size. Stores are asked for marks only once the process has made one, and a container with
 *   marks takes its own loop, so data without them pays one flag test per container.
 */
import { BYTE_PARTS, type ByteString } from '../byte-string';
import { DataEncodingException } from '../errors';
import {
  hasMapMark as hasMapMarkImported,
  longMarks,
  marksOfStore as marksOfStoreImported,
  type ListLongs,
  type MapLongs,
} from '../long-marks';
import {
  KIND,
  KIND_BYTES,
  KIND_LIST,
  KIND_MAP,
  KIND_NULL,
  LONGS,
  LONG_MAX,
  LONG_MIN,
  STORE,
  type Store,
} from '../internal';
import { PSON_HEADER, PSON_HEADER_LENGTH } from './pson-markers';
import { encodeUtf8 } from './pson-utf8';
import { writeVarUint } from './varint';
import { allocBytes, copyBytes } from '../bytes';

// Local aliases: an imported binding is a getter call on the module object under swc (hot paths).
const hasMapMark = hasMapMarkImported;
const marksOfStore = marksOfStoreImported;

/** How the encoder writes strings and collections; see `PsonCodecOptions` for the meaning and defaults. */
export interface PsonWriteOptions {
  readonly encodeStringLength: boolean;
  readonly encodeCollectionCount: boolean;
}

// Element codes as local constants: imported bindings compile to loads from the module object (getters
// under swc), where a local const is a constant V8 can fold. pson-markers.ts documents each one.
const NULL = 0x00;
const BOOLEAN = 0x01;
const INT = 0x02;
const LONG = 0x03;
const DOUBLE = 0x05;
const BINARY = 0x06;
const STRING_EMPTY = 0x08;
const STRING = 0x09;
const STRING_WITH_LENGTH_4 = 0x0a;
const ARRAY_EMPTY = 0x10;
const ARRAY = 0x11;
const ARRAY_WITH_COUNT = 0x12;
const OBJECT_EMPTY = 0x20;
const OBJECT = 0x21;
const OBJECT_WITH_COUNT = 0x22;
const LAST = 0xff;
const MAP_END = 0x80;

/** Nesting handled by recursion; deeper subtrees go to the explicit-stack writer. */
const RECURSION_LIMIT = 200;
const INITIAL_CAPACITY = 16 * 1024;
/** A buffer grown past this is dropped after the call, so one huge document does not pin its memory. */
const RETAINED_CAPACITY = 4 * 1024 * 1024;
const TWO_32 = 4294967296;
const TWO_63 = 2 ** 63;
/** Local alias: an imported binding is a getter call under swc (see the element codes above). */
const marksMade = longMarks;

let out: Uint8Array = allocBytes(INITIAL_CAPACITY);
let view: DataView = new DataView(out.buffer, out.byteOffset, out.byteLength);
let pos = 0;
let withLength = true;
let withCount = false;
/** See {@link writeKey}. */
interface KeyEntry {
  /** UTF-8 bytes and the closing NUL. */
  readonly bytes: Uint8Array;
  /** The {@link documentNumber} in which `index` was given. */
  document: number;
  index: number;
}
const keyTable = new Map<string, KeyEntry>();
/** Total length of the keys in {@link keyTable}. */
let keyTableChars = 0;
/**
 * The table only grows with distinct keys; past these limits it starts afresh (between documents), so
 * generated or hostile keys cannot pile up.
 */
const KEY_TABLE_MAX_KEYS = 10_000;
const KEY_TABLE_MAX_CHARS = 1 << 20;
/** Counts encodePson calls; a key's entry is numbered in this document only when its `document` matches. */
let documentNumber = 0;
/** The index the next new key of this document gets (1, 2, 3... by first appearance). */
let nextKeyIndex = 1;

/** Encodes `root` (a DataMap or DataList) as a complete PSON document. */
export function encodePson(root: object, options: PsonWriteOptions): Uint8Array {
  withLength = options.encodeStringLength;
  withCount = options.encodeCollectionCount;
  pos = 0;
  nextKeyIndex = 1;
  documentNumber++;
  if (keyTable.size > KEY_TABLE_MAX_KEYS || keyTableChars > KEY_TABLE_MAX_CHARS) {
    keyTable.clear();
    keyTableChars = 0;
  }
  try {
    for (let i = 0; i < PSON_HEADER_LENGTH; i++) out[i] = PSON_HEADER[i]!;
    pos = PSON_HEADER_LENGTH;
    writeObject(root, 0);
    return copyBytes(out, pos);
  } finally {
    if (out.length > RETAINED_CAPACITY) setBuffer(allocBytes(INITIAL_CAPACITY));
  }
}

function setBuffer(b: Uint8Array): void {
  out = b;
  view = new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Makes room for `n` more bytes. */
function ensure(n: number): void {
  if (pos + n > out.length) grow(n);
}

function grow(n: number): void {
  let size = out.length * 2;
  while (size < pos + n) size *= 2;
  const next = allocBytes(size);
  next.set(out.subarray(0, pos));
  setBuffer(next);
}

function writeValue(v: unknown, depth: number): void {
  // `typeof v === ...` tests rather than a `switch (typeof v)`, which V8 compiles to a call making the
  // type's name and string compares (value-check.ts measured it)
  if (typeof v === 'string') writeString(v);
  else if (typeof v === 'number') writeNumber(v);
  else if (typeof v === 'object') {
    if (v === null) {
      // raw null: Data.NULL in a decoded node
      ensure(1);
      out[pos++] = NULL;
    } else {
      writeObject(v, depth);
    }
  } else if (typeof v === 'boolean') {
    ensure(2);
    out[pos++] = BOOLEAN;
    out[pos++] = v ? 1 : 0;
  } else if (typeof v === 'bigint') writeBigint(v);
  else throw new DataEncodingException(`Cannot write a value of type ${typeof v} as PSON`);
}

function writeObject(v: object, depth: number): void {
  const kind = (v as { [KIND]?: number })[KIND];
  if (kind === undefined) {
    const longs = marksMade.made ? marksOfStore(v as Store | unknown[]) : undefined;
    if (Array.isArray(v)) writeList(v, depth, longs as ListLongs | undefined);
    else writeMap(v as Store, depth, longs as MapLongs | undefined);
  } else if (kind === KIND_MAP) {
    const map = v as { [STORE]: Store; [LONGS]: MapLongs | null };
    writeMap(map[STORE], depth, map[LONGS] ?? undefined);
  } else if (kind === KIND_LIST) {
    const list = v as { [STORE]: unknown[]; [LONGS]: ListLongs | null };
    writeList(list[STORE], depth, list[LONGS] ?? undefined);
  } else if (kind === KIND_BYTES) {
    writeBytes(v as ByteString);
  } else if (kind === KIND_NULL) {
    ensure(1);
    out[pos++] = NULL;
  } else {
    throw new DataEncodingException(`Cannot write an object of unknown kind ${String(kind)} as PSON`);
  }
}

/** Writes a map; `longs` are its marks (see long-marks.ts), found by the caller. */
function writeMap(store: Store, depth: number, longs: MapLongs | undefined): void {
  const keys = Object.keys(store);
  const n = keys.length;
  if (n === 0) {
    ensure(1);
    out[pos++] = OBJECT_EMPTY;
    return;
  }
  if (depth >= RECURSION_LIMIT) {
    writeDeep(store, longs);
    return;
  }
  openMap(n);
  if (longs === undefined) {
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      writeKey(key);
      writeValue(store[key], depth + 1);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      writeKey(key);
      const v = store[key];
      if (typeof v === 'number' && hasMapMark(longs, key)) writeMarkedLong(v);
      else writeValue(v, depth + 1);
    }
  }
  ensure(1);
  out[pos++] = MAP_END;
}

/** Writes a list; `longs` are its marks (see long-marks.ts), found by the caller. */
function writeList(items: unknown[], depth: number, longs: ListLongs | undefined): void {
  const n = items.length;
  if (n === 0) {
    ensure(1);
    out[pos++] = ARRAY_EMPTY;
    return;
  }
  if (depth >= RECURSION_LIMIT) {
    writeDeep(items, longs);
    return;
  }
  openList(n);
  if (longs === undefined) {
    for (let i = 0; i < n; i++) writeValue(items[i], depth + 1);
  } else {
    for (let i = 0; i < n; i++) {
      const v = items[i];
      if (typeof v === 'number' && longs[i] === true) writeMarkedLong(v);
      else writeValue(v, depth + 1);
    }
  }
  ensure(1);
  out[pos++] = LAST;
}

function openMap(n: number): void {
  ensure(6);
  if (withCount) {
    out[pos++] = OBJECT_WITH_COUNT;
    pos = writeVarUint(out, pos, n);
  } else {
    out[pos++] = OBJECT;
  }
}

function openList(n: number): void {
  ensure(6);
  if (withCount) {
    out[pos++] = ARRAY_WITH_COUNT;
    pos = writeVarUint(out, pos, n);
  } else {
    out[pos++] = ARRAY;
  }
}

/** The store of a map or list value (wrapped or raw), or null for anything else. */
function containerStore(v: unknown): Store | unknown[] | null {
  if (typeof v !== 'object' || v === null) return null;
  const kind = (v as { [KIND]?: number })[KIND];
  if (kind === undefined) return v as Store | unknown[];
  if (kind === KIND_MAP || kind === KIND_LIST) return (v as { [STORE]: Store | unknown[] })[STORE];
  return null;
}

/** The marks of a container value `v` (a wrapper or a raw store) whose store is `store`. */
function marksOf(v: object, store: Store | unknown[]): MapLongs | ListLongs | undefined {
  if (v === store) return marksOfStore(store);
  return (v as { [LONGS]: MapLongs | ListLongs | null })[LONGS] ?? undefined;
}

/**
 * Writes the container `root` and everything below it with an explicit stack (any depth). Same bytes as
 * the recursive writer; leaves still go through {@link writeValue}, which does not recurse for them.
 */
function writeDeep(root: Store | unknown[], rootLongs: MapLongs | ListLongs | undefined): void {
  const stores: Array<Store | unknown[]> = [];
  const keyLists: Array<string[] | null> = [];
  const next: number[] = [];
  const marks: Array<MapLongs | ListLongs | undefined> = [];
  const open = (store: Store | unknown[], longs: MapLongs | ListLongs | undefined): void => {
    if (Array.isArray(store)) {
      if (store.length === 0) {
        ensure(1);
        out[pos++] = ARRAY_EMPTY;
        return;
      }
      openList(store.length);
      keyLists.push(null);
      marks.push(longs);
    } else {
      const keys = Object.keys(store);
      if (keys.length === 0) {
        ensure(1);
        out[pos++] = OBJECT_EMPTY;
        return;
      }
      openMap(keys.length);
      keyLists.push(keys);
      marks.push(longs);
    }
    stores.push(store);
    next.push(0);
  };
  open(root, rootLongs);
  while (stores.length > 0) {
    const top = stores.length - 1;
    const store = stores[top]!;
    const keys = keyLists[top]!;
    const i = next[top]!;
    const longs = marks[top];
    let v: unknown;
    let marked = false;
    if (keys === null) {
      const items = store as unknown[];
      if (i === items.length) {
        ensure(1);
        out[pos++] = LAST;
        stores.pop();
        keyLists.pop();
        next.pop();
        marks.pop();
        continue;
      }
      v = items[i];
      marked = longs !== undefined && (longs as ListLongs)[i] === true;
    } else {
      if (i === keys.length) {
        ensure(1);
        out[pos++] = MAP_END;
        stores.pop();
        keyLists.pop();
        next.pop();
        marks.pop();
        continue;
      }
      const key = keys[i]!;
      writeKey(key);
      v = (store as Store)[key];
      marked = longs !== undefined && hasMapMark(longs as MapLongs, key);
    }
    next[top] = i + 1;
    if (marked && typeof v === 'number') {
      writeMarkedLong(v);
      continue;
    }
    const child = containerStore(v);
    if (child === null) writeValue(v, 0);
    else open(child, marksMade.made ? marksOf(v as object, child) : undefined);
  }
}

/**
 * A key: `+index` when seen before in this document, else `-index` and the key as a C-string.
 *
 * One table serves every document: per key its UTF-8 C-string bytes, made once, and the document and
 * index it was last numbered in. A key is then one Map lookup whether it is new to this document or not,
 * where a per-document Map cost a lookup plus an insert per key and re-encoded the key's text each time
 * (1 KB record: ~8.5 -> ~4.3 µs per encode; the 1 MB document, whose keys repeat, ran as fast either way).
 */
function writeKey(key: string): void {
  let entry = keyTable.get(key);
  if (entry !== undefined && entry.document === documentNumber) {
    // zigzag(+i) = 2i
    ensure(5);
    const z = entry.index * 2;
    if (z < 0x80) out[pos++] = z | 0x80;
    else pos = writeVarUint(out, pos, z);
    return;
  }
  if (entry === undefined) entry = newKeyEntry(key);
  const index = nextKeyIndex++;
  entry.document = documentNumber;
  entry.index = index;
  // zigzag(-i) = 2i - 1
  const z = index * 2 - 1;
  const bytes = entry.bytes;
  const n = bytes.length;
  ensure(5 + n);
  if (z < 0x80) out[pos++] = z | 0x80;
  else pos = writeVarUint(out, pos, z);
  if (n <= 32) {
    for (let i = 0; i < n; i++) out[pos + i] = bytes[i]!;
  } else {
    out.set(bytes, pos);
  }
  pos += n;
}

function newKeyEntry(key: string): KeyEntry {
  // The data layer refuses both at insertion; a raw store built around it must not corrupt the stream.
  const shown = (): string => JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}...` : key);
  if (key.indexOf('\u0000') !== -1) {
    // The reference writes it and the stream is corrupt from there on (facts §1.5); refuse instead.
    throw new DataEncodingException(
      `Map key ${shown()} contains U+0000, which PSON cannot write: keys are NUL-terminated strings`,
    );
  }
  if (!(key as unknown as { isWellFormed(): boolean }).isWellFormed()) {
    // The reference writes it as `?`, and two keys can become one; refuse instead.
    throw new DataEncodingException(
      `Map key ${shown()} holds a lone UTF-16 surrogate, which UTF-8 cannot write`,
    );
  }
  keyTableChars += key.length;
  const bytes = new Uint8Array(key.length * 3 + 1);
  const n = encodeUtf8(bytes, 0, key);
  bytes[n] = 0;
  const entry: KeyEntry = { bytes: bytes.slice(0, n + 1), document: 0, index: 0 };
  keyTable.set(key, entry);
  return entry;
}

function writeString(s: string): void {
  const len = s.length;
  if (len === 0) {
    ensure(1);
    out[pos++] = STRING_EMPTY;
    return;
  }
  // at most 3 bytes per UTF-16 unit (a surrogate pair is 4 bytes for 2 units), marker, length, NUL
  ensure(len * 3 + 6);
  // a NUL-terminated string would end at a NUL inside it: such a string is written with its length whatever
  // the options say (every reader takes both forms)
  if (withLength || s.indexOf('\u0000') !== -1) {
    writeWithLength(s);
  } else {
    out[pos++] = STRING;
    pos = encodeUtf8(out, pos, s);
    out[pos++] = 0;
  }
}

/** Writes the non-empty `s` as `0x0A`; the caller made room. */
function writeWithLength(s: string): void {
  out[pos] = STRING_WITH_LENGTH_4;
  const lengthAt = pos + 1;
  pos += 5;
  const start = pos;
  pos = encodeUtf8(out, pos, s);
  out[pos++] = 0;
  // N counts the NUL
  const n = pos - start;
  out[lengthAt] = n;
  out[lengthAt + 1] = n >>> 8;
  out[lengthAt + 2] = n >>> 16;
  out[lengthAt + 3] = n >>> 24;
}

function writeNumber(n: number): void {
  ensure(9);
  if ((n | 0) === n) {
    if (n === 0 && 1 / n < 0) {
      writeDouble(n); // -0: only a double keeps the sign
      return;
    }
    out[pos] = INT;
    out[pos + 1] = n;
    out[pos + 2] = n >> 8;
    out[pos + 3] = n >> 16;
    out[pos + 4] = n >> 24;
    pos += 5;
    return;
  }
  // An integral number inside the long range is a long, as JSON writes it without a fraction (and reads it
  // back as a number or bigint); NaN, ±Infinity, fractions and anything beyond the range are doubles.
  if (n >= -TWO_63 && n < TWO_63 && Math.floor(n) === n) {
    writeLongBits(n);
    return;
  }
  writeDouble(n);
}

/** A number in a slot marked long: the long marker even inside int32 (a mark over anything else is stale). */
function writeMarkedLong(n: number): void {
  if (!Number.isSafeInteger(n) || (n === 0 && 1 / n < 0)) {
    writeNumber(n);
    return;
  }
  ensure(9);
  writeLongBits(n);
}

/** Writes the integral `n` (inside the long range) as a PSON long; the caller made room. */
function writeLongBits(n: number): void {
  // ToUint32 is the low word of the two's complement, and the division by 2^32 is exact, for any integral
  // double in the range
  const lo = n >>> 0;
  const hi = Math.floor(n / TWO_32);
  out[pos] = LONG;
  out[pos + 1] = lo;
  out[pos + 2] = lo >>> 8;
  out[pos + 3] = lo >>> 16;
  out[pos + 4] = lo >>> 24;
  out[pos + 5] = hi;
  out[pos + 6] = hi >> 8;
  out[pos + 7] = hi >> 16;
  out[pos + 8] = hi >> 24;
  pos += 9;
}

function writeDouble(n: number): void {
  out[pos] = DOUBLE;
  view.setFloat64(pos + 1, n, true);
  pos += 9;
}

function writeBigint(n: bigint): void {
  if (n < LONG_MIN || n > LONG_MAX) throw new DataEncodingException(`${n} is outside the 64-bit long range`);
  ensure(9);
  out[pos] = LONG;
  view.setBigInt64(pos + 1, n, true);
  pos += 9;
}

function writeBytes(bytes: ByteString): void {
  const n = bytes.length;
  ensure(5 + n);
  out[pos] = BINARY;
  out[pos + 1] = n;
  out[pos + 2] = n >>> 8;
  out[pos + 3] = n >>> 16;
  out[pos + 4] = n >>> 24;
  pos += 5;
  for (const part of bytes[BYTE_PARTS]) {
    out.set(part, pos);
    pos += part.length;
  }
}
