import { IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import { ownSymbol } from './http-adapter';
import { compiledFunction } from './compiled-code';
import { SecondSightings } from './second-sightings';

/**
 * Node's `IncomingMessage` with a quicker `headers`: the same object, key for key and value for value, built
 * from `rawHeaders` with less work per header. createSvcServer's requests are of this class, and so are
 * fastify's when it runs on svcServerOptions or svcHttpsServerOptions (their `IncomingMessage` option).
 *
 * Why: Node builds `headers` on first read (every request reads it: the protocol version, content type,
 * method override), and for a name it does not know (`x-restli-protocol-version`) it lower-cases the name,
 * prefixes a marker, slices the marker off again and reads and writes the result under that new string,
 * which V8 must look up in its string table each time. Its getter took ~4.0k instructions per request of
 * bench/resources, this one ~1.7k: a get by id through createSvcServer 68.7k → 67.3k (callgrind over HTTP).
 * Here a name is matched by length, first character and text against a table of names (interned strings),
 * and is then a constant key; a repeated one is found among the keys already set, not read back.
 *
 * Same result as Node's: each name's rule (first one kept, joined with ", ", cookies joined with "; ",
 * `set-cookie` as an array) is read from Node's own `_addHeaderLine` when this module loads, for every name
 * in the table, so a Node that changes a rule changes ours too; a name not in the table is added by Node's
 * `_addHeaderLine` itself. `joinDuplicateHeaders` is honoured, the count of headers Node kept
 * (`maxHeadersCount`) is Node's, and `req.headers = …` still replaces the object. Where Node keeps these
 * elsewhere (another Node version), the class is Node's own, unchanged.
 */

/** How a repeated header is kept (read from Node for each name, see {@link ruleOf}). */
const enum Rule {
  /** Node's "drop duplicates" fields (`host`, `content-type`...): the first value is kept. */
  FIRST = 0,
  /** Joined with ", " (most names, and every name Node does not know). */
  JOIN = 1,
  /** `cookie`: joined with "; ". */
  COOKIE = 2,
  /** `set-cookie`: an array of the values. */
  LIST = 3,
}

interface Known {
  /** The lower-case name, interned (a constant key for V8's property caches). */
  readonly key: string;
  readonly rule: Rule;
}

/** Node's symbols for the headers object and the number of raw header entries it keeps. */
function nodeSymbols(): { readonly headers: symbol; readonly count: symbol } | undefined {
  try {
    const probe = new IncomingMessage(null as never);
    const headers = ownSymbol(probe, 'kHeaders');
    const count = ownSymbol(probe, 'kHeadersCount');
    return headers !== undefined && count !== undefined ? { headers, count } : undefined;
  } catch {
    return undefined;
  }
}

type AddHeaderLine = (this: unknown, name: string, value: string, dest: object) => void;
const nodeAddHeaderLine = (IncomingMessage.prototype as unknown as { _addHeaderLine?: AddHeaderLine })
  ._addHeaderLine;

/** How Node keeps `name` when it comes twice: found by asking Node (`_addHeaderLine`) to add it twice. */
function ruleOf(add: AddHeaderLine, name: string): Rule | undefined {
  const dest: Record<string, unknown> = {};
  add.call({ joinDuplicateHeaders: false }, name, 'a', dest);
  add.call({ joinDuplicateHeaders: false }, name, 'b', dest);
  const v = dest[name];
  if (Array.isArray(v) && v.length === 2) return Rule.LIST;
  if (v === 'a') return Rule.FIRST;
  if (v === 'a, b') return Rule.JOIN;
  if (v === 'a; b') return Rule.COOKIE;
  return undefined;
}

/**
 * The names matched without lower-casing: Node's known fields, and others requests commonly carry (the
 * protocol's, tracing's, CORS'). A server adds its own protocol header names ({@link knowHeaderNames}).
 */
// prettier-ignore
const COMMON_NAMES = [
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host',
  'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
  'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent', 'set-cookie', 'cookie', 'date',
  'vary', 'origin', 'expect', 'accept', 'upgrade', 'if-match', 'connection', 'cache-control',
  'if-none-match', 'accept-encoding', 'accept-language', 'x-forwarded-for', 'x-forwarded-host',
  'x-forwarded-proto', 'content-encoding', 'transfer-encoding', 'accept-charset', 'keep-alive', 'pragma',
  'te', 'range', 'x-request-id', 'x-correlation-id', 'traceparent', 'tracestate', 'baggage',
  'x-restli-protocol-version', 'x-restli-method', 'x-http-method-override', 'access-control-request-method',
  'access-control-request-headers', 'sec-fetch-mode', 'sec-fetch-site', 'sec-fetch-dest',
];

/**
 * Known names by length and first character (as spelled): each name under its lower case and its usual
 * capitalisation (`Content-Type`), so that most names are found by one compare of their text.
 */
const table: Array<Array<readonly [string, Known]> | undefined> = [];
/** Names longer than this are not in the table (Node's step serves them). */
const MAX_NAME = 48;
const slot = (name: string): number => name.length * 128 + name.charCodeAt(0);
let rulesOf: AddHeaderLine | undefined = nodeAddHeaderLine;
/** Names a server added; bounded, so that servers made with many prefixes cannot grow the table. */
let added = 0;
const MAX_ADDED = 64;

/** `name` as an interned string (a literal is; a computed name is made one by using it as a key). */
function interned(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
}

function capitalised(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

function enter(spelled: string, known: Known): void {
  if (spelled.length > MAX_NAME || spelled.charCodeAt(0) >= 128) return;
  (table[slot(spelled)] ??= []).push([interned(spelled), known]);
}

/** Adds `name` to the table; false when it was there already or cannot be. */
function know(name: string): boolean {
  if (rulesOf === undefined) return false;
  const key = interned(name.toLowerCase());
  if (key.length === 0 || key.length > MAX_NAME || knownName(key) !== undefined) return false;
  const rule = ruleOf(rulesOf, key);
  if (rule === undefined) {
    // Node keeps this name in a way this module does not know: Node's own getter serves
    rulesOf = undefined;
    return false;
  }
  const known: Known = { key, rule };
  enter(key, known);
  const upper = capitalised(key);
  if (upper !== key) enter(upper, known);
  if (key === 'etag') enter('ETag', known);
  return true;
}

/** Adds a server's own header names (its protocol version header...) to the names matched directly. */
export function knowHeaderNames(names: Iterable<string>): void {
  for (const name of names) {
    if (added >= MAX_ADDED) return;
    if (know(name)) added++;
  }
}

function knownName(name: string): Known | undefined {
  const bucket = table[slot(name)];
  if (bucket === undefined) return undefined;
  for (let i = 0; i < bucket.length; i++) {
    const entry = bucket[i]!;
    if (entry[0] === name) return entry[1];
  }
  return undefined;
}

const symbols = nodeSymbols();
for (const name of COMMON_NAMES) know(name);

type Message = IncomingMessage & Record<symbol, unknown>;

/**
 * The keys set so far by {@link buildHeaders} (reused; entries past its count are stale): a table name seen
 * before is found by comparing interned strings, where reading the object for it (absent, so looked up along
 * its prototypes) cost more.
 */
const keysSet: string[] = [];

/**
 * A list of raw header names (as spelled, in order) whose headers object is built by one object literal:
 * every name a table name, none twice, the list seen twice before. Why: a client sends the same names in
 * the same order on every request, and setting each key on a new object (a keyed store that adds a
 * property) took ~250 instructions a header; the literal takes the object's final shape at once (see
 * {@link shapedHeaders}).
 * A get by id (3 headers) through createSvcServer 66.1k → 64.2k instructions, through svcPlugin 68.8k →
 * 67.5k (callgrind over HTTP, bench/resources).
 * Where code cannot be compiled from strings, every list is built the long way.
 */
interface Shape {
  readonly names: readonly string[];
  readonly build: (raw: readonly string[]) => Record<string, unknown>;
}

/** The shapes compiled so far; bounded, never evicted (a server's clients send a few lists of names). */
const shapes: Shape[] = [];
const MAX_SHAPES = 8;
/**
 * Lists that could have a shape, by their names joined by newlines (which no name holds): a list is compiled
 * the second time it is seen (clients taking turns each get theirs).
 */
const sightings = new SecondSightings();
/** Whether code can be compiled from strings here (false under a policy that forbids it). */
let canCompile = true;

/** The headers object of `raw`'s first `n` entries when their names have a shape; undefined otherwise. */
function shapedHeaders(raw: readonly string[], n: number): Record<string, unknown> | undefined {
  for (let s = 0; s < shapes.length; s++) {
    const shape = shapes[s]!;
    const names = shape.names;
    if (names.length * 2 !== n) continue;
    let i = 0;
    while (i < names.length && raw[2 * i] === names[i]) i++;
    if (i === names.length) return shape.build(raw);
  }
  return undefined;
}

/** Notes a list of names built the long way that could have a shape (`keys`: their table keys). */
function candidate(names: readonly string[], keys: readonly Known[]): void {
  if (!sightings.second(names.join('\n'))) return;
  let literal = '';
  keys.forEach((known, i) => {
    literal += `${JSON.stringify(known.key)}: ${known.rule === Rule.LIST ? `[r[${2 * i + 1}]]` : `r[${2 * i + 1}]`}, `;
  });
  const build = compiledFunction<Shape['build']>(
    [],
    `"use strict"; return function build(r) { return { ${literal}}; };`,
    [],
  );
  if (build === undefined) canCompile = false;
  else shapes.push({ names, build });
}

/** The getter (see the module comment); the same steps as Node's `_addHeaderLine`, per rule. */
function buildHeaders(
  message: Message,
  kHeaders: symbol,
  kCount: symbol,
  add: AddHeaderLine,
): IncomingHttpHeaders {
  const raw = message.rawHeaders;
  const n = message[kCount] as number;
  if (shapes.length > 0) {
    const shaped = shapedHeaders(raw, n);
    if (shaped !== undefined) return (message[kHeaders] = shaped) as IncomingHttpHeaders;
  }
  const dest: Record<string, unknown> = {};
  message[kHeaders] = dest;
  const joinDuplicates = (message as { joinDuplicateHeaders?: boolean }).joinDuplicateHeaders === true;
  // the table names of the headers so far, while each is one (none twice): a list that may get a shape
  let shapeable: Known[] | undefined = canCompile && shapes.length < MAX_SHAPES ? [] : undefined;
  let set = 0;
  for (let i = 0; i < n; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    let known = knownName(name);
    if (known === undefined) {
      const lower = name.toLowerCase();
      if (lower !== name) known = knownName(lower);
      if (known === undefined) {
        // a name not in the table: Node's own step, so that its rules hold for every name (its key is no
        // table name's: those were matched above)
        add.call(message, name, value, dest);
        shapeable = undefined;
        continue;
      }
    }
    const key = known.key;
    let again = false;
    for (let k = 0; k < set; k++)
      if (keysSet[k] === key) {
        again = true;
        break;
      }
    if (!again) {
      keysSet[set++] = key;
      dest[key] = known.rule === Rule.LIST ? [value] : value;
      shapeable?.push(known);
      continue;
    }
    shapeable = undefined;
    // a key set before holds what its first header set: a string, or set-cookie's array
    const rule = known.rule;
    if (rule === Rule.JOIN) dest[key] = `${dest[key] as string}, ${value}`;
    else if (rule === Rule.COOKIE) dest[key] = `${dest[key] as string}; ${value}`;
    else if (rule === Rule.LIST) (dest[key] as string[]).push(value);
    else if (joinDuplicates) dest[key] = `${dest[key] as string}, ${value}`;
    // else Node drops the duplicate
  }
  if (shapeable !== undefined && n > 0) {
    const names: string[] = [];
    for (let i = 0; i < n; i += 2) names.push(raw[i]!);
    candidate(names, shapeable);
  }
  return dest as IncomingHttpHeaders;
}

/** Node's `IncomingMessage` with the quicker `headers` (see the module comment); Node's own where unsupported. */
export const SvcIncomingMessage: typeof IncomingMessage = makeClass();

function makeClass(): typeof IncomingMessage {
  const add = nodeAddHeaderLine;
  if (symbols === undefined || rulesOf === undefined || add === undefined) return IncomingMessage;
  const { headers: kHeaders, count: kCount } = symbols;
  class SvcIncomingMessageClass extends IncomingMessage {}
  Object.defineProperty(SvcIncomingMessageClass.prototype, 'headers', {
    get(this: Message): IncomingHttpHeaders {
      // Node's test: a falsy value (none built yet, or one set to it) is built again
      const own = this[kHeaders] as IncomingHttpHeaders | undefined;
      if (own) return own;
      return buildHeaders(this, kHeaders, kCount, add);
    },
    set(this: Message, value: unknown) {
      this[kHeaders] = value;
    },
    enumerable: false,
    configurable: false,
  });
  return SvcIncomingMessageClass;
}
