import { ByteString, DataList, DataMap, DataNull, type DataValue, JsonCodec, PsonCodec } from '../data';

/**
 * Comparing two answers to one replayed request: what a client of the service can notice, and nothing that
 * may legitimately differ between two correct instances.
 *
 * - **Status**: equal.
 * - **Protocol headers** (every `X-RestLi-*` and `X-Svc-*` header, `Content-Type`, `Location`): equal,
 *   names compared case-insensitively; `Location` without each instance's own origin (the two listen on
 *   different ports); media types without spaces around their parameters. Other headers (`Date`,
 *   `Content-Length`, `Connection`, request ids, `Server`...) are not compared.
 * - **Bodies**: JSON and PSON bodies as data (key order ignored, longs exact), leaf by leaf, naming each
 *   path that differs; in error responses `stackTrace` and `exceptionClass` are ignored (what a server
 *   says of its implementation: a Java server names its exception class, Svc in production mode does not); `ignoreFields` adds paths (`/elements/*\/takenAt`, `*` one component).
 *   Other bodies byte for byte.
 */
export interface Answer {
  readonly status: number;
  /** Header names lower-case. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
}

/** One difference between the old answer and the new. */
export interface Difference {
  /** `status`, `header x-restli-id`, `body /elements/0/title`, `body`. */
  readonly what: string;
  /** The old and new values as text (undefined: absent). */
  readonly old: string | undefined;
  readonly new: string | undefined;
}

/** Options of {@link compareAnswers}. */
export interface CompareOptions {
  /** Each instance's origin (`http://127.0.0.1:8080`), removed from its `Location`. */
  readonly oldOrigin?: string;
  readonly newOrigin?: string;
  /** More header names to ignore (lower-case). Default none. */
  readonly ignoreHeaders?: readonly string[];
  /** Body paths to ignore, `/a/*\/b` (`*`: any one component). Default none. */
  readonly ignoreFields?: readonly string[];
}

const ALWAYS_COMPARED: ReadonlySet<string> = new Set(['content-type', 'location']);

function isProtocolHeader(name: string): boolean {
  return name.startsWith('x-restli-') || name.startsWith('x-svc-') || ALWAYS_COMPARED.has(name);
}

function isErrorAnswer(a: Answer): boolean {
  return (
    a.headers.get('x-restli-error-response') !== undefined ||
    a.headers.get('x-svc-error-response') !== undefined
  );
}

function normalHeader(name: string, value: string, origin: string | undefined): string {
  if (name === 'location' && origin !== undefined && value.startsWith(origin))
    return value.slice(origin.length);
  if (name === 'content-type') return value.replace(/\s*;\s*/g, '; ').toLowerCase();
  return value;
}

/** The body as data, or undefined when it is neither JSON nor PSON (or does not decode). */
function bodyData(a: Answer): DataValue | undefined {
  if (a.body.length === 0) return undefined;
  const type = (a.headers.get('content-type') ?? '').toLowerCase();
  try {
    if (type.includes('application/x-pson')) return new PsonCodec().bytesToMap(a.body);
    // no Content-Type: JSON if it reads as JSON (a recording may have lost the header)
    if (type.includes('json') || type === '') {
      const text = Buffer.from(a.body).toString('utf8').trimStart();
      const codec = new JsonCodec();
      return text.startsWith('[') ? codec.bytesToList(a.body) : codec.bytesToMap(a.body);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Every leaf of `value` by path (`/a/0/b`), as canonical text; empty containers are leaves. */
function leaves(value: DataValue, path: string, out: Map<string, string>): void {
  if (value instanceof DataMap) {
    if (value.size === 0) out.set(path, '{}');
    for (const [k, v] of value) leaves(v, `${path}/${k}`, out);
  } else if (value instanceof DataList) {
    if (value.size === 0) out.set(path, '[]');
    value.forEach((v, i) => leaves(v, `${path}/${i}`, out));
  } else if (value instanceof DataNull) out.set(path, 'null');
  else if (value instanceof ByteString) out.set(path, `bytes ${JSON.stringify(value.asAvroString())}`);
  else if (typeof value === 'string') out.set(path, JSON.stringify(value));
  else out.set(path, String(value));
}

function pathPattern(pattern: string): RegExp {
  const parts = pattern
    .replace(/^\//, '')
    .split('/')
    .map((p) => (p === '*' ? '[^/]*' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // a pattern also covers everything below the path it names
  return new RegExp(`^/${parts.join('/')}(/.*)?$`);
}

/** The differences between the old and the new answer (none: the client cannot tell them apart). */
export function compareAnswers(
  oldAnswer: Answer,
  newAnswer: Answer,
  options: CompareOptions = {},
): Difference[] {
  const out: Difference[] = [];
  if (oldAnswer.status !== newAnswer.status)
    out.push({ what: 'status', old: String(oldAnswer.status), new: String(newAnswer.status) });

  const ignoredHeaders = new Set((options.ignoreHeaders ?? []).map((h) => h.toLowerCase()));
  const names = new Set(
    [...oldAnswer.headers.keys(), ...newAnswer.headers.keys()].filter(
      (n) => isProtocolHeader(n) && !ignoredHeaders.has(n),
    ),
  );
  for (const name of [...names].sort()) {
    const o = oldAnswer.headers.get(name);
    const n = newAnswer.headers.get(name);
    const on = o === undefined ? undefined : normalHeader(name, o, options.oldOrigin);
    const nn = n === undefined ? undefined : normalHeader(name, n, options.newOrigin);
    if (on !== nn) out.push({ what: `header ${name}`, old: o, new: n });
  }

  const ignored = (options.ignoreFields ?? []).map(pathPattern);
  // what a server tells about its implementation: a Java server names its exception class and may send
  // its stack trace, Svc in production mode sends neither and in development mode both
  if (isErrorAnswer(oldAnswer) || isErrorAnswer(newAnswer))
    ignored.push(pathPattern('/stackTrace'), pathPattern('/exceptionClass'));
  const od = bodyData(oldAnswer);
  const nd = bodyData(newAnswer);
  if (od !== undefined && nd !== undefined) {
    const ol = new Map<string, string>();
    const nl = new Map<string, string>();
    leaves(od, '', ol);
    leaves(nd, '', nl);
    const paths = new Set([...ol.keys(), ...nl.keys()]);
    for (const p of [...paths].sort()) {
      if (ignored.some((r) => r.test(p === '' ? '/' : p))) continue;
      const o = ol.get(p);
      const n = nl.get(p);
      if (o !== n) out.push({ what: `body ${p === '' ? '/' : p}`, old: o, new: n });
    }
  } else if (Buffer.compare(Buffer.from(oldAnswer.body), Buffer.from(newAnswer.body)) !== 0) {
    out.push({
      what: 'body',
      old: `${oldAnswer.body.length} bytes`,
      new: `${newAnswer.body.length} bytes`,
    });
  }
  return out;
}
