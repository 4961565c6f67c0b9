import { DataList, DataMap, type DataValue, MAX_NESTING_DEPTH } from '../data';
import { MaskSyntaxError, UriElementParseError } from './errors';
import { percentDecode } from './uri-component-encoding';

/**
 * Projection masks (wire facts §2.3): the `fields`, `metadataFields` and `pagingFields` query parameters,
 * in the syntax `a,b:(c,d),-e,f:($start:1,$count:2)`, and their application to response entities.
 *
 * A mask is a DataMap, as in the reference's `MaskTree`: field name → `1` (include), `0` (exclude) or a
 * nested mask; `$*` stands for every field of a map or every item of an array; `$start` / `$count` select a
 * range of an array. A field whose own name starts with `$` is written `$$name` in a mask.
 */

/** The mask value that includes a field. */
export const MASK_POSITIVE = 1;
/** The mask value that excludes a field. */
export const MASK_NEGATIVE = 0;
/** Every field of a map, every item of an array. */
export const MASK_WILDCARD = '$*';
/** In a projection mask, the index of the first array item kept (`tags:($start:2,$count:5)`). */
export const MASK_START = '$start';
/** In a projection mask, how many array items are kept from `$start` on. */
export const MASK_COUNT = '$count';

const INT_MAX = 2147483647;

/** Java's `Character.isWhitespace`, which the reference's mask parser skips inside names. */
function isJavaWhitespace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13) || (c >= 28 && c <= 31)) return true;
  if (c < 0x1680) return false;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x2006) ||
    (c >= 0x2008 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x205f ||
    c === 0x3000
  );
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function malformed(what: string, column: number): MaskSyntaxError {
  return new MaskSyntaxError(`Malformed mask syntax: ${what}`, column);
}

/**
 * Parses mask syntax into a mask DataMap. Accepts what the reference's `URIMaskUtil.decodeMaskUriFormat`
 * accepts (empty items are skipped, whitespace inside names is dropped, the last of two masks for one name
 * wins), with its messages: `Malformed mask syntax: expected '(' token`, `... unexpected range value`,
 * `... unexpected end of buffer after ':'`, `... empty parent field name`, `... unexpected ')' token`,
 * `... unmatched nesting`, `... expected closing token` (a range value ending the whole text).
 *
 * The text is taken as it is: {@link parseProjectionParam} percent-decodes a raw query value first.
 *
 * @example
 * ```ts
 * Data.toJS(parseMask('a,b:(c,d),-e,f:($start:1,$count:2)'));
 * // { a: 1, b: { c: 1, d: 1 }, e: 0, f: { $start: 1, $count: 2 } }
 * ```
 * @throws MaskSyntaxError
 */
export function parseMask(text: string): DataMap {
  const root = new DataMap();
  const stack: DataMap[] = [root];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let value = MASK_POSITIVE;
    if (text.charCodeAt(i) === 45 /* - */) {
      value = MASK_NEGATIVE;
      i++;
    }
    let field = '';
    let descend = false;
    let ascend = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 44 /* , */) {
        i++;
        break;
      }
      if (c === 41 /* ) */) {
        ascend = true;
        i++;
        break;
      }
      if (c === 58 /* : */) {
        if (i + 1 >= n) throw malformed("unexpected end of buffer after ':'", i);
        if (field === MASK_START || field === MASK_COUNT) {
          i++;
          if (!isDigit(text.charCodeAt(i))) throw malformed('unexpected range value', i);
          let range = 0;
          for (;;) {
            if (i >= n) throw malformed('expected closing token', i);
            const d = text.charCodeAt(i);
            if (d === 44) {
              i++;
              break;
            }
            if (d === 41) {
              ascend = true;
              i++;
              break;
            }
            if (!isDigit(d)) throw malformed('unexpected range value', i);
            range = range * 10 + (d - 48);
            if (range > INT_MAX) throw malformed('unexpected range value', i);
            i++;
          }
          value = range;
          break;
        }
        if (text.charCodeAt(i + 1) !== 40 /* ( */) throw malformed("expected '(' token", i + 1);
        descend = true;
        i += 2;
        break;
      }
      if (!isJavaWhitespace(c)) field += text.charAt(i);
    }
    const top = stack[stack.length - 1]!;
    if (descend) {
      if (field === '') throw malformed('empty parent field name', i - 2);
      // the product's one nesting limit (data/limits.ts): projection walks recurse along the mask
      if (stack.length >= MAX_NESTING_DEPTH)
        throw malformed(`nesting deeper than ${MAX_NESTING_DEPTH} levels`, i - 2);
      const sub = new DataMap();
      top.put(field, sub);
      stack.push(sub);
    } else if (field !== '') {
      top.put(field, value);
    }
    if (ascend) {
      if (stack.length === 1) throw malformed("unexpected ')' token", i - 1);
      stack.pop();
    }
  }
  if (stack.length !== 1) throw malformed('unmatched nesting', n);
  return root;
}

/**
 * Mask syntax of a mask DataMap (the inverse of {@link parseMask}), entries in the map's order. The result
 * is not URL-encoded; `encodeQueryParams` does that.
 */
export function encodeMask(mask: DataMap): string {
  let out = '';
  for (const [name, value] of mask) {
    if (out !== '') out += ',';
    if ((name === MASK_START || name === MASK_COUNT) && typeof value === 'number') out += `${name}:${value}`;
    else if (value === MASK_POSITIVE) out += name;
    else if (value === MASK_NEGATIVE) out += `-${name}`;
    else if (value instanceof DataMap) out += `${name}:(${encodeMask(value)})`;
    else throw new TypeError(`mask value of '${name}' must be 0, 1 or a mask DataMap`);
  }
  return out;
}

/** A path: its segments, or anything with `getPathComponents()` (a generated `PathSpec`). */
export type MaskPath = readonly string[] | { getPathComponents(): readonly string[] };

/** A mask segment for a data field name: `$` doubled, except for the wildcard `$*`. */
export function escapeMaskSegment(segment: string): string {
  return segment === MASK_WILDCARD || !segment.includes('$') ? segment : segment.replaceAll('$', () => '$$');
}

/**
 * A mask selecting the given paths (and excluding the `negative` ones), e.g. from generated path specs:
 * `maskFromPaths([Greeting.fields().message(), ['tone']])` → `message,tone`. A path that covers another
 * (a prefix) wins over it.
 */
export function maskFromPaths(positive: Iterable<MaskPath>, negative: Iterable<MaskPath> = []): DataMap {
  const root = new DataMap();
  const add = (path: MaskPath, op: number): void => {
    const segments = Array.isArray(path)
      ? (path as readonly string[])
      : (path as { getPathComponents(): readonly string[] }).getPathComponents();
    if (segments.length === 0) return;
    let node = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const name = escapeMaskSegment(segments[i]!);
      const existing = node.get(name);
      if (typeof existing === 'number') return; // already covered as a whole
      if (existing instanceof DataMap) node = existing;
      else {
        const sub = new DataMap();
        node.put(name, sub);
        node = sub;
      }
    }
    node.put(escapeMaskSegment(segments[segments.length - 1]!), op);
  };
  for (const p of positive) add(p, MASK_POSITIVE);
  for (const p of negative) add(p, MASK_NEGATIVE);
  return root;
}

/**
 * The mask of a projection parameter as the server reads it: undefined when the parameter is absent;
 * otherwise its raw text, percent-decoded (a client may have escaped `,` `:` `(` `)` `$`; field names never
 * contain `%`, so decoding is safe) and parsed.
 *
 * @throws MaskSyntaxError (a bad percent-escape included)
 */
export function parseProjectionParam(raw: DataValue | undefined): DataMap | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw malformed('expected a mask string', 0);
  let text = raw;
  if (raw.includes('%')) {
    try {
      text = percentDecode(raw);
    } catch (err) {
      if (err instanceof UriElementParseError) throw malformed(err.message, err.column);
      throw err;
    }
  }
  return parseMask(text);
}

// ---------------------------------------------------------------------------------------------------------
// Applying a mask (the reference's CopyFilter over its default-mode rules)

/**
 * How fields a mask node does not name are treated. LOW modes come from the children: a node with a
 * positive child hides unnamed fields (HIDE_LOW), one with only negative children shows them (SHOW_LOW);
 * HIGH modes come from a simple wildcard (`$*: 0` hides all, `$*: 1` shows all).
 */
type NodeMode = 'SHOW_LOW' | 'HIDE_LOW' | 'SHOW_HIGH' | 'HIDE_HIGH';

function isMergedWith1(m: DataValue | undefined): boolean {
  return m === MASK_POSITIVE || (m instanceof DataMap && isMergedWith1(m.get(MASK_WILDCARD)));
}

class Projector {
  private readonly modes = new Map<DataMap, NodeMode>();
  constructor(private readonly alwaysIncluded: ReadonlySet<string>) {}

  mode(mask: DataMap): NodeMode {
    let m = this.modes.get(mask);
    if (m !== undefined) return m;
    const w = mask.get(MASK_WILDCARD);
    if (w === MASK_NEGATIVE) m = 'HIDE_HIGH';
    else if (w !== undefined && isMergedWith1(mask)) m = 'SHOW_HIGH';
    else {
      m = 'SHOW_LOW';
      for (const [k, v] of mask) {
        if (k === MASK_START || k === MASK_COUNT || v === MASK_POSITIVE) {
          m = 'HIDE_LOW';
          break;
        }
        if (v instanceof DataMap) {
          const child = this.mode(v);
          if (child === 'HIDE_LOW' || child === 'SHOW_HIGH') {
            m = 'HIDE_LOW';
            break;
          }
        }
      }
    }
    this.modes.set(mask, m);
    return m;
  }

  private needsRemoving(mode: NodeMode, effective: DataMap): boolean {
    if (mode === 'HIDE_HIGH') return true;
    if (mode !== 'HIDE_LOW') return false;
    const m = this.mode(effective);
    return m === 'SHOW_LOW' || m === 'HIDE_HIGH';
  }

  filter(data: DataValue, mask: DataMap): DataValue {
    if (data instanceof DataMap) return this.filterMap(data, mask);
    if (data instanceof DataList) return this.filterList(data, mask);
    return data; // a nested mask on a primitive: the reference fails (500); keep the value
  }

  private filterList(list: DataList, mask: DataMap): DataList {
    const s = mask.get(MASK_START);
    const c = mask.get(MASK_COUNT);
    const start = typeof s === 'number' && s >= 0 ? s : 0;
    const count = typeof c === 'number' && c >= 0 ? c : Number.MAX_SAFE_INTEGER;
    const w = mask.get(MASK_WILDCARD);
    const out = new DataList();
    if (w === MASK_NEGATIVE || start >= list.size || count <= 0) return out;
    const end = Math.min(list.size, start + count);
    for (let i = start; i < end; i++) {
      const item = list.get(i);
      out.add(w instanceof DataMap ? this.filter(item, w) : item);
    }
    return out;
  }

  private filterMap(map: DataMap, mask: DataMap): DataMap {
    const mode = this.mode(mask);
    const rawWildcard = mask.get(MASK_WILDCARD);
    const complexWildcard = rawWildcard instanceof DataMap ? rawWildcard : undefined;
    const out = new DataMap();
    for (const [name, child] of map) {
      if (this.alwaysIncluded.has(name)) {
        out.put(name, child);
        continue;
      }
      const op = mask.get(name.includes('$') ? name.replaceAll('$', () => '$$') : name);
      const complexChild = child instanceof DataMap || child instanceof DataList;
      if (typeof op === 'number') {
        if (op === MASK_NEGATIVE) continue;
        out.put(
          name,
          complexWildcard !== undefined && complexChild
            ? this.filter(child, withWildcard1(complexWildcard))
            : child,
        );
      } else if (op instanceof DataMap) {
        const effective =
          rawWildcard === MASK_POSITIVE
            ? composeMasks(op, wildcardMask(MASK_POSITIVE))
            : complexWildcard !== undefined
              ? composeMasks(op, complexWildcard)
              : op;
        if (this.needsRemoving(mode, effective)) continue;
        out.put(name, complexChild ? this.filter(child, effective) : child);
      } else if (op === undefined) {
        if (mode === 'HIDE_HIGH') continue;
        if (
          mode === 'HIDE_LOW' &&
          (complexWildcard === undefined || this.mode(complexWildcard) !== 'HIDE_LOW')
        )
          continue;
        if (complexWildcard !== undefined) {
          if (complexChild) out.put(name, this.filter(child, complexWildcard));
          else if (!this.needsRemoving(mode, complexWildcard)) out.put(name, child);
        } else {
          out.put(name, child);
        }
      }
      // any other mask value is not a mask: the field is dropped
    }
    return out;
  }
}

function wildcardMask(v: number): DataMap {
  return new DataMap([[MASK_WILDCARD, v]]);
}

/** `mask` composed with `$*: 1`: everything shown unless `mask` hides it. */
function withWildcard1(mask: DataMap): DataMap {
  return composeMasks(mask, wildcardMask(MASK_POSITIVE));
}

/** The union of two masks; a negative wins over a positive, nested masks are composed. */
function composeMasks(a: DataMap, b: DataMap): DataMap {
  const out = new DataMap(a);
  for (const [k, vb] of b) {
    const va = out.get(k);
    if (va === undefined) out.put(k, vb);
    else if (k === MASK_START || k === MASK_COUNT) continue;
    else if (va === MASK_NEGATIVE || vb === MASK_NEGATIVE) out.put(k, MASK_NEGATIVE);
    else if (va instanceof DataMap && vb instanceof DataMap) out.put(k, composeMasks(va, vb));
    else if (va instanceof DataMap) out.put(k, withWildcard1(va));
    else if (vb instanceof DataMap) out.put(k, withWildcard1(vb));
    else out.put(k, MASK_POSITIVE);
  }
  return out;
}

/** Options of {@link applyProjection}. */
export interface ProjectionOptions {
  /** Field names kept whatever the mask says, at every level (e.g. the key fields), as the reference does. */
  readonly alwaysIncluded?: Iterable<string>;
}

/**
 * Trims `data` to what `mask` selects, the reference's way (its `CopyFilter`): a positive mask keeps only
 * the named fields, a negative one drops the named fields, nested masks apply to nested records, `$*` to
 * every value of a map or item of an array, and `$start`/`$count` cut arrays. Arrays are only projected
 * item by item under `$*` (`items:($*:(name))`). An empty mask selects nothing but the always-included fields. No mask
 * (undefined) returns `data` itself. The input is not modified; unselected subtrees are shared, not copied.
 *
 * @example
 * ```ts
 * applyProjection(Data.fromJS({ id: 1, name: 'x', tags: ['a', 'b', 'c'] }) as DataMap, parseMask('name,tags:($start:1,$count:1)'));
 * // { name: 'x', tags: ['b'] }
 * ```
 */
export function applyProjection(
  data: DataMap,
  mask: DataMap | undefined,
  options?: ProjectionOptions,
): DataMap {
  if (mask === undefined) return data;
  const always = new Set(options?.alwaysIncluded ?? []);
  if (mask.isEmpty()) {
    // The reference returns everything for an empty mask plus always-included fields (its empty mask shows
    // all); an empty projection means "nothing", so Svc keeps just the always-included fields.
    const out = new DataMap();
    for (const name of always) {
      const v = data.get(name);
      if (v !== undefined) out.put(name, v);
    }
    return out;
  }
  return new Projector(always).filter(data, mask) as DataMap;
}
