/**
 * Writes a store graph that holds bigints (longs beyond ±2^53) as JSON through `JSON.stringify`, which
 * refuses bigints: each bigint is swapped for a marker string (U+0000 and its digits) for the length of one
 * `JSON.stringify` call, and the markers' JSON (`"\u0000-123"`) is then replaced by the digits. Node 20 has
 * no `JSON.rawJSON`, and a replacer function costs about half of the whole exact writer.
 *
 * A marker is told apart from data by counting: each marker is written exactly once, so when the output
 * holds a marker's opening (`"\u0000`) more often than markers were placed, some string of the data
 * holds it too (a value starting with U+0000, say) and the caller writes with the iterative writer
 * (json-writer.ts) instead. So the output is byte for byte what that writer gives.
 *
 * Measured (bench/json-codec.bench.ts "exact encode", same run, a loaded 2-core machine, ±20-60%): 1 KB
 * record with longs 0.7-0.9x of lossy `JSON.stringify` and 1.9-3x lossless-json, json-bigint and
 * json-with-bigint (the iterative writer it replaces: 0.22x of `JSON.stringify`). On the 1 MB document the
 * search for the markers cost most: `JSON.stringify` returns such a text unflattened, and the first look
 * into it flattens it (5-10 ms here, more than the stringify). So a large document with few bigints is
 * written in pieces instead ({@link writeSparse}: ~0.8x of lossy on that document, from ~0.45x), with
 * nothing searched. Finding the bigints is a walk of ~6% of `JSON.stringify`.
 *
 * The stores are changed for the length of the call only and put back in a `finally`; nothing else runs in
 * between (JSON.stringify of stores calls no user code: stores hold plain data, and ByteString's `toJSON`).
 */
import { KIND, setOwn, type Store } from '../internal';
import { NodeBuffer, utf8Bytes } from '../bytes';

const encoder = new TextEncoder();

/** Root stores known to have held a bigint: their encoder looks for bigints before `JSON.stringify`. */
const mayHoldLongs = new WeakSet<object>();

/** Notes that the graph below `root` (a store) holds a bigint (decoders, and the encoder when it found one). */
export function noteLongs(root: object): void {
  mayHoldLongs.add(root);
}

/** Whether the graph below `root` (a store) was found to hold a bigint. */
export function mayHoldLongsBelow(root: object): boolean {
  return mayHoldLongs.has(root);
}

/** Depth the walk recurses to; a deeper graph is left to the iterative writer (JSON.stringify recurses too). */
const RECURSION_LIMIT = 500;

/** U+0000 as JSON.stringify escapes it: a marker's JSON is a quote, this, the digits and a quote. */
const NUL_ESCAPE = '\\u0000';

/**
 * The JSON of `root` (a store) with its bigints written as digits; `undefined` when this way cannot write it
 * (too deep, a string of the data looks like a marker), and the caller takes the iterative writer.
 * `JSON.stringify`'s own errors (a RangeError for a graph deeper than the stack) also give `undefined`.
 */
export function stringifyWithLongs(root: Store | unknown[]): string | undefined {
  return writeWithLongs(root, false) as string | undefined;
}

/**
 * {@link stringifyWithLongs} as UTF-8 bytes. An ASCII text (the usual JSON with longs: ids, numbers, ASCII
 * keys) is encoded once as it came out of `JSON.stringify`, and the markers are then cut out of the bytes
 * in place: the string path builds the text of pieces (a rope), which `Buffer.from` must first flatten.
 * Measured on the 1 KB record of bench/json-codec (3 longs), in-process on a loaded machine: 6.2-6.4 →
 * 6.1 µs, against 8.7-9.1 µs for json-bigint's stringify + `Buffer.from`; most of what is left over the
 * string (~0.9 µs) is making any Buffer of a 1 KB text at all (`Buffer.from` alone: 0.8-0.9 µs).
 */
export function bytesWithLongs(root: Store | unknown[]): Uint8Array | undefined {
  const out = writeWithLongs(root, NodeBuffer !== undefined);
  return typeof out === 'string' ? utf8Bytes(out) : out;
}

/**
 * Where the bigints of a root stood when it was last written with markers: (container, key or index) pairs,
 * in walk order. The next write of the same root swaps those slots without walking the graph again, and
 * takes the walk when they no longer say it all (see {@link writeMarked}). Weak: an entry lives as long as
 * its root. Measured on the 1 KB record of bench/json-codec (3 longs), Node 20: the walk it saves is
 * ~0.7 µs of ~5.6 µs for `mapToString` in-process; instructions per call (callgrind) `mapToString` 68.0k
 * → 63.5k, `mapToBytes` 77.3k → 71.6k.
 */
const knownSlots = new WeakMap<object, unknown[]>();

function writeWithLongs(root: Store | unknown[], asBytes: boolean): string | Uint8Array | undefined {
  const known = knownSlots.get(root);
  if (known !== undefined) {
    const out = writeMarked(root, known, asBytes);
    if (out !== undefined) return out;
    knownSlots.delete(root); // the graph changed, or it never could: the walk decides
  }
  const slots: unknown[] = [];
  const walk: Walk = { entries: 0, holders: new Set() };
  if (collect(root, slots, 1, walk) < 0) return undefined;
  if (slots.length === 0) {
    mayHoldLongs.delete(root);
    try {
      return JSON.stringify(root);
    } catch {
      return undefined;
    }
  }
  if (walk.entries >= SPARSE_ENTRIES_PER_LONG * (slots.length / 2)) {
    try {
      return writeSparse(root, walk.holders);
    } catch {
      return undefined;
    }
  }
  const out = writeMarked(root, slots, asBytes);
  if (out !== undefined) knownSlots.set(root, slots);
  return out;
}

/**
 * The JSON of `root` with the bigints at `slots` ((container, key or index) pairs) swapped for markers and
 * the markers then cut out; undefined when that does not give the text: a slot no longer holds a bigint, a
 * bigint stands elsewhere (`JSON.stringify` throws on it), a container of the slots is no longer below
 * `root` or stands twice (its marker is written zero or two times), or a string of the data looks like a
 * marker. So a stale list of slots (the graph changed since) never gives wrong text, only undefined.
 */
function writeMarked(
  root: Store | unknown[],
  slots: readonly unknown[],
  asBytes: boolean,
): string | Uint8Array | undefined {
  const markers = slots.length / 2;
  const values: bigint[] = new Array<bigint>(markers);
  let placed = 0;
  let out: string;
  try {
    for (; placed < markers; placed++) {
      const node = slots[2 * placed] as Record<string | number, unknown>;
      const key = slots[2 * placed + 1] as string | number;
      const value = node[key];
      if (typeof value !== 'bigint') return undefined;
      values[placed] = value;
      put(node, key, `\u0000${String(value)}`);
    }
    out = JSON.stringify(root);
  } catch {
    return undefined;
  } finally {
    for (let i = 0; i < placed; i++) put(slots[2 * i] as object, slots[2 * i + 1], values[i]);
  }
  // Where the markers are: for each, its opening quote, the start of its digits and its closing quote. More
  // of them than were placed: the data holds one too. The search is for the escape, whose backslash is rare
  // in JSON text: a search for the quote before it, which is not, took 1 ms on the 1 MB document (V8 looks
  // for the first char, then compares), this one 0.03 ms.
  const cuts: number[] = [];
  for (let at = out.indexOf(NUL_ESCAPE); at !== -1; at = out.indexOf(NUL_ESCAPE, at + NUL_ESCAPE.length)) {
    if (out.charCodeAt(at - 1) !== 0x22) continue; // U+0000 inside a string: not a marker's
    if (cuts.length / 3 >= markers) return undefined;
    const digitsAt = at + NUL_ESCAPE.length;
    cuts.push(at - 1, digitsAt, out.indexOf('"', digitsAt));
  }
  if (cuts.length / 3 !== markers) return undefined;
  // bytes, when each char is one byte (ASCII: char offsets are byte offsets)
  if (asBytes && NodeBuffer!.byteLength(out, 'utf8') === out.length) return cutBytes(out, cuts);
  let written = '';
  let from = 0;
  for (let i = 0; i < cuts.length; i += 3) {
    written += out.slice(from, cuts[i]) + out.slice(cuts[i + 1], cuts[i + 2]);
    from = cuts[i + 2]! + 1;
  }
  return written + out.slice(from);
}

/**
 * The ASCII `text` as bytes with each marker (`"`, the escape, the digits, `"`) replaced by its digits:
 * encoded whole, then compacted in place, front to back.
 */
function cutBytes(text: string, cuts: readonly number[]): Uint8Array {
  // encodeInto a fresh pooled Buffer: ~0.3 µs less than Buffer.from(text) for a 1 KB text (Node 20)
  const bytes = NodeBuffer!.allocUnsafe(text.length);
  encoder.encodeInto(text, bytes);
  let write = cuts[0]!;
  let read = cuts[0]!;
  for (let i = 0; i < cuts.length; i += 3) {
    const quote = cuts[i]!;
    if (quote > read) {
      bytes.copyWithin(write, read, quote);
      write += quote - read;
    }
    bytes.copyWithin(write, cuts[i + 1]!, cuts[i + 2]);
    write += cuts[i + 2]! - cuts[i + 1]!;
    read = cuts[i + 2]! + 1;
  }
  bytes.copyWithin(write, read, bytes.length);
  write += bytes.length - read;
  return bytes.subarray(0, write);
}

function put(node: object, key: unknown, value: unknown): void {
  if (typeof key === 'number') (node as unknown[])[key] = value;
  else setOwn(node as Store, key as string, value);
}

/** What {@link collect} learns on its walk: entries seen, and the containers on a path to a bigint. */
interface Walk {
  entries: number;
  readonly holders: Set<object>;
}

/**
 * Pushes (container, key or index) for every bigint below `node`, counting entries and noting every
 * container with a bigint below it in `walk`; answers the number of bigints below, or -1 when the graph is
 * deeper than {@link RECURSION_LIMIT}. Stores hold leaves and child stores only (internal.ts); an object
 * with a kind brand is a leaf (ByteString).
 */
function collect(node: Store | unknown[], slots: unknown[], depth: number, walk: Walk): number {
  if (depth > RECURSION_LIMIT) return -1;
  const before = slots.length;
  if (Array.isArray(node)) {
    walk.entries += node.length;
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v === 'object') {
        if (v !== null && (v as { [KIND]?: number })[KIND] === undefined) {
          if (collect(v as Store | unknown[], slots, depth + 1, walk) < 0) return -1;
        }
      } else if (typeof v === 'bigint') slots.push(node, i);
    }
  } else {
    for (const k in node) {
      walk.entries++;
      const v: unknown = node[k];
      if (typeof v === 'object') {
        if (v !== null && (v as { [KIND]?: number })[KIND] === undefined) {
          if (collect(v as Store | unknown[], slots, depth + 1, walk) < 0) return -1;
        }
      } else if (typeof v === 'bigint') slots.push(node, k);
    }
  }
  const found = (slots.length - before) / 2;
  if (found > 0) walk.holders.add(node);
  return found;
}

/**
 * Entries per bigint from which a document is written in pieces ({@link writeSparse}) rather than with
 * markers: a large document with few longs. `JSON.stringify` returns a large text unflattened (a rope),
 * and the search for the markers flattens it, which cost more than the stringify itself on the 1 MB
 * document of bench/json-codec (5 longs: 8.5 ms against 3.6 ms for the lossy stringify). In pieces, only
 * the containers on a path to a bigint are written entry by entry, each other entry by one
 * `JSON.stringify`, and the pieces are concatenated: nothing is searched, nothing flattened.
 */
const SPARSE_ENTRIES_PER_LONG = 256;

/**
 * The JSON of `node`, writing the containers in `holders` (those with a bigint below) entry by entry and
 * every other value with `JSON.stringify`: the same text as one `JSON.stringify` with the bigints as digits
 * (keys in the order `for...in` and `JSON.stringify` both give an object's own keys; stores hold no
 * `undefined`, functions or symbols, written as `JSON.stringify` would anyway).
 */
function writeSparse(node: Store | unknown[], holders: ReadonlySet<object>): string {
  if (Array.isArray(node)) {
    let out = '[';
    for (let i = 0; i < node.length; i++) {
      if (i > 0) out += ',';
      out += sparseValue(node[i], holders) ?? 'null';
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const k in node) {
    const v = sparseValue(node[k], holders);
    if (v === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${v}`;
    first = false;
  }
  return `${out}}`;
}

function sparseValue(v: unknown, holders: ReadonlySet<object>): string | undefined {
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'object' && v !== null && holders.has(v)) return writeSparse(v as Store, holders);
  return JSON.stringify(v);
}
