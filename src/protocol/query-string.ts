import { DataList, DataMap, type DataValue } from '../data';
import { QuerySyntaxError, UriElementParseError } from './errors';
import { encodeMask } from './mask';
import { contextualEncode, percentDecode } from './uri-component-encoding';
import { encodeElement, encodeUriString } from './uri-element-encoder';
import { type ParseElementOptions, parseElement } from './uri-element-parser';

/** Names of the query parameters the framework itself reads (wire facts §3.3). */
export const QueryParam = {
  /** Finder name. */
  FINDER: 'q',
  /** Batch finder name. */
  BATCH_FINDER: 'bq',
  /** Action name. */
  ACTION: 'action',
  /** Batch keys: `ids=List(...)`. */
  IDS: 'ids',
  START: 'start',
  COUNT: 'count',
  /** Projection of the entities. */
  FIELDS: 'fields',
  /** Projection of collection metadata. */
  METADATA_FIELDS: 'metadataFields',
  /** Projection of paging. */
  PAGING_FIELDS: 'pagingFields',
  /** Alternative key name: the path key is of that kind. */
  ALT_KEY: 'altkey',
  RETURN_ENTITY: '$returnEntity',
  FILL_IN_DEFAULTS: '$fillInDefaults',
} as const;

/**
 * The projection parameters: their values use the mask syntax (mask.ts), never the element grammar, so the
 * server hands their raw text over unparsed.
 */
export const PROJECTION_PARAMS: ReadonlySet<string> = new Set([
  QueryParam.FIELDS,
  QueryParam.METADATA_FIELDS,
  QueryParam.PAGING_FIELDS,
]);

/**
 * A decoded parameter name, as the framework's own literal when it is one of its names. A decoded name is a
 * new string on every request, and V8 looks a new string used as a property key (the query map's entry)
 * up in its string table first; the literal is there already. Comparing costs less than that lookup.
 */
function knownName(name: string): string {
  switch (name) {
    case QueryParam.IDS:
      return QueryParam.IDS;
    case QueryParam.FINDER:
      return QueryParam.FINDER;
    case QueryParam.FIELDS:
      return QueryParam.FIELDS;
    case QueryParam.START:
      return QueryParam.START;
    case QueryParam.COUNT:
      return QueryParam.COUNT;
    case QueryParam.ACTION:
      return QueryParam.ACTION;
    default:
      return name;
  }
}

function isProjectionParam(name: string): boolean {
  return (
    name === QueryParam.FIELDS || name === QueryParam.METADATA_FIELDS || name === QueryParam.PAGING_FIELDS
  );
}

/** Query parameters by name: a DataMap, a Map, an iterable of pairs or a plain object of data values. */
export type QueryParamsInit =
  | DataMap
  | ReadonlyMap<string, DataValue>
  | Iterable<readonly [string, DataValue]>
  | { readonly [name: string]: DataValue };

function entriesOf(params: QueryParamsInit): Iterable<readonly [string, DataValue]> {
  if (params instanceof DataMap || params instanceof Map) return params as Iterable<[string, DataValue]>;
  if (typeof (params as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return params as Iterable<readonly [string, DataValue]>;
  }
  return Object.entries(params as { readonly [name: string]: DataValue });
}

/**
 * The query string (without `?`) of `params` in Rest.li 2.0 form (wire facts §2.3): each name and value
 * encoded for a query parameter (values in the element grammar), pairs sorted by encoded name in UTF-16
 * order (`$returnEntity` < `Zed` < `count`). Projection parameters take a mask string or a mask DataMap
 * (mask.ts) and are written in mask syntax. An empty value is written as the bare name.
 *
 * @example
 * ```ts
 * encodeQueryParams({ q: 'search', count: 5, filter: Data.fromJS({ name: 'Jo Ann' }) });
 * // 'count=5&filter=(name:Jo%20Ann)&q=search'
 * ```
 */
export function encodeQueryParams(params: QueryParamsInit): string {
  const pairs: Array<readonly [string, string]> = [];
  for (const [name, value] of entriesOf(params)) {
    let text: string;
    if (PROJECTION_PARAMS.has(name)) {
      if (typeof value === 'string') text = contextualEncode(value, 'query');
      else if (value instanceof DataMap) text = contextualEncode(encodeMask(value), 'query');
      else throw new TypeError(`projection parameter '${name}' takes a mask string or a mask DataMap`);
    } else {
      text = encodeElement(value, 'query');
    }
    pairs.push([encodeUriString(name, 'query'), text]);
  }
  // insertion sort: a query has a handful of parameters (see sortStrings for why not Array.prototype.sort)
  for (let i = 1; i < pairs.length; i++) {
    const p = pairs[i]!;
    let j = i - 1;
    while (j >= 0 && pairs[j]![0] > p[0]) {
      pairs[j + 1] = pairs[j]!;
      j--;
    }
    pairs[j + 1] = p;
  }
  let out = '';
  for (let i = 0; i < pairs.length; i++) {
    const [name, text] = pairs[i]!;
    if (i > 0) out += '&';
    out += text === '' ? name : `${name}=${text}`;
  }
  return out;
}

/** `path?query`, or just `path` when there are no parameters. */
export function buildUri(path: string, params?: QueryParamsInit): string {
  if (params === undefined) return path;
  const query = encodeQueryParams(params);
  return query === '' ? path : `${path}?${query}`;
}

/** The raw query of a request target (`/r?x=1#f` → `x=1`), or undefined when there is no `?`. */
export function rawQueryOf(uri: string): string | undefined {
  const q = uri.indexOf('?');
  if (q === -1) return undefined;
  const hash = uri.indexOf('#', q + 1);
  return hash === -1 ? uri.slice(q + 1) : uri.slice(q + 1, hash);
}

/** The raw path of a request target (`/r/1?x` → `/r/1`). */
export function rawPathOf(uri: string): string {
  let end = uri.length;
  const q = uri.indexOf('?');
  if (q !== -1) end = q;
  const hash = uri.indexOf('#');
  if (hash !== -1 && hash < end) end = hash;
  return uri.slice(0, end);
}

function querySyntax(
  reason: string,
  requestUri: string | undefined,
  param?: string,
  cause?: unknown,
): QuerySyntaxError {
  const message = requestUri === undefined ? reason : `Invalid query parameters syntax: ${requestUri}`;
  return new QuerySyntaxError(message, reason, param, cause === undefined ? undefined : { cause });
}

/**
 * Splits a raw query the way the reference's server does (wire facts §2.4): on `&`, then at the first
 * `=`; the name is URL-decoded (`+` is a space), the value stays raw. An empty piece is skipped, a piece
 * starting with `=` (no name) is ignored, a piece without `=` has the value `''` (the empty raw text).
 *
 * @throws QuerySyntaxError for a bad percent-escape in a name
 */
export function splitQuery(rawQuery: string, requestUri?: string): Array<[name: string, rawValue: string]> {
  const out: Array<[string, string]> = [];
  const n = rawQuery.length;
  // one scan by character codes: a finder's query is a few short pieces, for which `indexOf` costs more
  // in its call than in its search (~180 instructions a call, callgrind over HTTP: 1.8k of a finder's
  // ~185k); a long value is skipped with `indexOf` (nextAmpersand)
  let start = 0;
  while (start < n) {
    let i = start;
    let eq = -1;
    // a name with `%`, `+` or U+0000 goes through decodeName; any other is its own decoding
    let plain = true;
    for (; i < n; i++) {
      const c = rawQuery.charCodeAt(i);
      if (c === 0x26 /* & */) break;
      if (c === 0x3d /* = */) {
        eq = i;
        i = nextAmpersand(rawQuery, i + 1);
        break;
      }
      if (c === 0x25 /* % */ || c === 0x2b /* + */ || c === 0) plain = false;
    }
    if (i > start && eq !== start) {
      const rawName = rawQuery.slice(start, eq === -1 ? i : eq);
      out.push([
        plain ? knownName(rawName) : decodeName(rawName, requestUri),
        eq === -1 ? '' : rawQuery.slice(eq + 1, i),
      ]);
    }
    start = i + 1;
  }
  return out;
}

/** The index of the next `&` at or after `from`, or the length: short runs by hand, long ones by `indexOf`. */
function nextAmpersand(text: string, from: number): number {
  const n = text.length;
  const near = Math.min(n, from + 64);
  for (let i = from; i < near; i++) if (text.charCodeAt(i) === 0x26) return i;
  if (near === n) return n;
  const amp = text.indexOf('&', near);
  return amp === -1 ? n : amp;
}

/** A parameter name, URL-decoded (`+` is a space). */
function decodeName(rawName: string, requestUri: string | undefined): string {
  let name: string;
  try {
    name = percentDecode(rawName, true);
  } catch (err) {
    throw querySyntax(
      `bad query parameter name '${rawName}': ${(err as Error).message}`,
      requestUri,
      rawName,
      err,
    );
  }
  // Svc data never holds U+0000 in a key (the parsed query is a DataMap)
  if (name.includes('\u0000'))
    throw querySyntax(`query parameter name '${rawName}' holds U+0000`, requestUri, undefined);
  return knownName(name);
}

/** A parameter whose value is a `List(...)` of more items than a bound, found by {@link findLongList}. */
export interface LongList {
  /** The parameter's (decoded) name. */
  readonly name: string;
  /** Its top-level items. */
  readonly items: number;
  /** The query with `List()` in place of that value: what is left to parse. */
  readonly query: string;
  /** Where the value (`List(...)`, as sent) starts in the raw query, and where it ends (exclusive). */
  readonly valueStart: number;
  readonly valueEnd: number;
}

/**
 * The first parameter of a raw query whose value is a `List(...)` of more than `maxItems` top-level items,
 * counted without parsing it: a scan for `(`, `)` and `,` (structural characters are never
 * percent-encoded in the grammar; data characters always are). Parsing such a list costs ~2 µs per item
 * (issue 22: a tunneled query of 16 000 criteria held the event loop 80 ms only to be refused), counting it
 * ~1 ns per character. A malformed list is counted as far as it goes.
 */
export function findLongList(rawQuery: string, maxItems: number): LongList | undefined {
  let from = 0;
  const length = rawQuery.length;
  while (from < length) {
    let to = rawQuery.indexOf('&', from);
    if (to === -1) to = length;
    const eq = rawQuery.indexOf('=', from);
    // an item takes at least two characters (itself and a comma)
    if (eq !== -1 && eq < to && to - eq > 2 * maxItems && rawQuery.startsWith('List(', eq + 1)) {
      const items = countListItems(rawQuery, eq + 6, to);
      if (items > maxItems) {
        let name: string;
        try {
          name = knownName(percentDecode(rawQuery.slice(from, eq), true));
        } catch {
          return undefined; // the parser reports the bad name
        }
        return {
          name,
          items,
          query: `${rawQuery.slice(0, eq + 1)}List()${rawQuery.slice(to)}`,
          valueStart: eq + 1,
          valueEnd: to,
        };
      }
    }
    from = to + 1;
  }
  return undefined;
}

/** Top-level items of a list whose text starts at `start` (after `List(`) and ends at or before `end`. */
function countListItems(text: string, start: number, end: number): number {
  if (start >= end || text.charCodeAt(start) === 0x29 /* ) */) return 0;
  let depth = 0;
  let items = 1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28 /* ( */) depth++;
    else if (c === 0x29 /* ) */) {
      if (depth === 0) break;
      depth--;
    } else if (c === 0x2c /* , */ && depth === 0) items++;
  }
  return items;
}

/** Options of {@link parseQueryParams}. */
export interface ParseQueryOptions {
  /** The request URI, for the error message `Invalid query parameters syntax: <uri>` (else the reason). */
  readonly requestUri?: string;
  /** Passed to the element parser. */
  readonly maxDepth?: number;
  /**
   * The request speaks protocol 1.0.0 (no version header, or `1.0.0`): its batch `ids` may come in the 1.0.0
   * forms (wire facts §3.2), which are read besides the 2.0.0 one. Default false.
   */
  readonly protocol1?: boolean;
}

/**
 * Parses a raw query into a DataMap of parameter name → value, as the server does (wire facts §2.4): each
 * value goes raw to {@link parseElement} (`+` stays `+`, a bare `''` is the empty string, `%27%27` the
 * literal `''`), except the projection parameters, whose raw text is kept as a string for the mask parser.
 * A value that is not in the grammar, an empty value included, is an error, as is a repeated name.
 *
 * @throws QuerySyntaxError with `reason` `unexpected repeated query param in URI: <name>` or
 *   `error while parsing query param '<name>'\n<parser message>` (the parser error is the `cause`)
 */
export function parseQueryParams(rawQuery: string | undefined, options?: ParseQueryOptions): DataMap {
  const result = new DataMap();
  if (rawQuery === undefined || rawQuery === '') return result;
  const requestUri = options?.requestUri;
  const parseOptions = options?.maxDepth === undefined ? undefined : { maxDepth: options.maxDepth };
  const protocol1 = options?.protocol1 === true;
  if (rawQuery.indexOf('&') === -1) {
    // one parameter (batch_get's `ids`, most gets): no pairs to make, no repeats to look for
    const eq = rawQuery.indexOf('=');
    if (eq === 0) return result;
    const name = decodeName(eq === -1 ? rawQuery : rawQuery.slice(0, eq), requestUri);
    // (a 1.0.0 flattened complex id, ids[0].x=..., is read below)
    if (!protocol1 || !name.startsWith('ids[')) {
      putParam(result, name, eq === -1 ? '' : rawQuery.slice(eq + 1), parseOptions, requestUri);
      return result;
    }
  }
  let pairs = splitQuery(rawQuery, requestUri);
  if (protocol1) pairs = takeProtocol1Ids(pairs, result, requestUri);
  if (pairs.length > 1) {
    const repeated = repeatedName(pairs);
    if (repeated !== undefined)
      throw querySyntax(`unexpected repeated query param in URI: ${repeated}`, requestUri, repeated);
  }
  for (const [name, raw] of pairs) putParam(result, name, raw, parseOptions, requestUri);
  return result;
}

/**
 * The first name that comes again, in the order of its second coming. A few names are compared pairwise (a
 * `Set` per request cost more than the comparisons, callgrind: 1.8k instructions of a finder); many through
 * a `Set`.
 */
function repeatedName(pairs: ReadonlyArray<readonly [string, string]>): string | undefined {
  if (pairs.length <= 16) {
    for (let i = 1; i < pairs.length; i++) {
      const name = pairs[i]![0];
      for (let j = 0; j < i; j++) if (pairs[j]![0] === name) return name;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [name] of pairs) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** Parses one parameter's raw value into `result` (the raw text of a projection parameter). */
function putParam(
  result: DataMap,
  name: string,
  raw: string,
  parseOptions: ParseElementOptions | undefined,
  requestUri: string | undefined,
): void {
  // set, not put: names are unique here, so there is no previous value to look up
  if (isProjectionParam(name)) {
    result.set(name, raw);
    return;
  }
  try {
    result.set(name, parseElement(raw, parseOptions));
  } catch (err) {
    if (!(err instanceof UriElementParseError)) throw err;
    const reason = `error while parsing query param '${name}'\n${err.message}`;
    // a depth bomb: name the limit rather than echo the (huge) URI
    if (err.tooDeep) {
      const limit = err.message.slice(0, err.message.indexOf(' levels') + 7);
      throw new QuerySyntaxError(
        `Invalid query parameters syntax: query param '${name}' has ${limit}`,
        reason,
        name,
        { cause: err },
      );
    }
    throw querySyntax(reason, requestUri, name, err);
  }
}

const PROTOCOL1_COMPLEX_ID = /^ids\[(\d{1,9})\]\.(.+)$/s;

/**
 * The batch ids of a 1.0.0 request (wire facts §3.2; the reference's `QueryParamsDataMap`), put into `result`
 * as `ids`; returns the other pairs. The 1.0.0 forms:
 *
 * - repeated `ids=1&ids=2`: a list of strings, each URL-decoded once (`+` is a space, as Java's decoder
 *   reads it); a compound key's id is its `a=1&b=2` text, URL-encoded once more, which the key decoder
 *   reads (`decodeBatchIds` with `protocol1`);
 * - complex keys flattened as `ids[0].field=v&ids[0].$params.p=w` (brackets usually sent as `%5B` `%5D`):
 *   a list of maps, in index order.
 *
 * One `ids` (the 2.0.0 form, which 1.0.0 requests from curl and Svc clients use too) is left for the
 * element parser.
 */
function takeProtocol1Ids(
  pairs: Array<[string, string]>,
  result: DataMap,
  requestUri: string | undefined,
): Array<[string, string]> {
  let plain: string[] | undefined;
  let flat: Array<[number, string, string]> | undefined;
  const rest: Array<[string, string]> = [];
  for (const pair of pairs) {
    const [name, raw] = pair;
    if (name === QueryParam.IDS) (plain ??= []).push(raw);
    else {
      const m = name.startsWith('ids[') ? PROTOCOL1_COMPLEX_ID.exec(name) : null;
      if (m === null) rest.push(pair);
      else (flat ??= []).push([Number(m[1]), m[2]!, raw]);
    }
  }
  if (plain !== undefined && flat !== undefined)
    throw querySyntax('ids given both as ids= and as ids[i].field=', requestUri, QueryParam.IDS);
  const decode = (raw: string): string => {
    try {
      return percentDecode(raw, true);
    } catch (err) {
      throw querySyntax(
        `bad percent-escape in ids: ${(err as Error).message}`,
        requestUri,
        QueryParam.IDS,
        err,
      );
    }
  };
  if (plain !== undefined) {
    // one ids= is the 2.0.0 form (or one 1.0.0 id, which reads the same): the element parser takes it
    if (plain.length === 1) rest.push([QueryParam.IDS, plain[0]!]);
    else result.set(QueryParam.IDS, new DataList(plain.map(decode)));
  }
  if (flat !== undefined) {
    const items: DataMap[] = [];
    for (const [index, path, raw] of flat) {
      if (index >= flat.length)
        throw querySyntax(
          `ids[${index}] is out of order (${flat.length} fields given)`,
          requestUri,
          QueryParam.IDS,
        );
      while (items.length <= index) items.push(new DataMap());
      let target = items[index]!;
      const names = path.split('.');
      for (let i = 0; i < names.length - 1; i++) {
        const name = names[i]!;
        let child = target.get(name);
        if (child === undefined) target.put(name, (child = new DataMap()));
        if (!(child instanceof DataMap))
          throw querySyntax(`ids[${index}].${path} conflicts with another field`, requestUri, QueryParam.IDS);
        target = child;
      }
      const last = names[names.length - 1]!;
      if (last === '' || target.has(last))
        throw querySyntax(`ids[${index}].${path} is empty or repeated`, requestUri, QueryParam.IDS);
      target.put(last, decode(raw));
    }
    result.set(QueryParam.IDS, new DataList(items));
  }
  return rest;
}
