import { ReplayInputError } from './errors';

/**
 * Recorded requests, read from the two formats `svc replay` takes:
 *
 * - **HAR 1.2** (what browsers, proxies and most HTTP tools export): each `log.entries[i].request` gives the
 *   method, the URL (its path and query are replayed; the origin is the recording's, not ours), the headers
 *   and `postData` (`text`, base64 when `encoding` is `base64`).
 * - **The request log**: one JSON object per line (`.jsonl`), blank lines and lines starting with `#`
 *   skipped:
 *   `{"method":"POST","path":"/photos","headers":{"X-RestLi-Protocol-Version":"2.0.0"},"body":{"title":"Dusk"}}`.
 *   `method` and `path` (path and query, from `/`) are required; the body is `body` (a JSON value, sent as
 *   JSON; `Content-Type: application/json` unless the headers name another), `bodyText` (a string as is) or
 *   `bodyBase64` (bytes). Other members (a recorded `status`, `response`...) are ignored.
 *
 * A file whose text parses as one JSON object with `log.entries` is HAR; anything else is read as a log.
 */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, from the leading `/`, as sent. */
  readonly path: string;
  /** Header name → value, as recorded (hop-by-hop headers are dropped when sent). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array | undefined;
  /** Where it was read from, for the report: `photos.har entry 3`, `traffic.jsonl line 7`. */
  readonly source: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const METHOD = /^[A-Za-z]+$/;

function checkedMethod(v: unknown, file: string, at: string): string {
  if (typeof v !== 'string' || !METHOD.test(v))
    throw new ReplayInputError(file, "'method' must be an HTTP method name", at);
  return v.toUpperCase();
}

/** Reads one recording file's text (HAR or request log). */
export function parseRecording(text: string, file: string): RecordedRequest[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    let whole: unknown;
    try {
      whole = JSON.parse(text);
    } catch {
      whole = undefined; // several objects: a request log
    }
    if (isObject(whole) && isObject(whole['log'])) return parseHar(whole['log'], file);
  }
  return parseRequestLog(text, file);
}

function parseHar(log: { [k: string]: Json }, file: string): RecordedRequest[] {
  const entries = log['entries'];
  if (!Array.isArray(entries)) throw new ReplayInputError(file, "a HAR file's log has no 'entries' list");
  return entries.map((entry, i) => {
    const at = `log.entries[${i}]`;
    const request = isObject(entry) ? entry['request'] : undefined;
    if (!isObject(request)) throw new ReplayInputError(file, "an entry has no 'request'", at);
    const method = checkedMethod(request['method'], file, at);
    let url: URL;
    try {
      const given = request['url'];
      if (typeof given !== 'string') throw new TypeError('no url');
      url = new URL(given);
    } catch {
      throw new ReplayInputError(file, "'request.url' is not an absolute URL", at);
    }
    const headers: [string, string][] = [];
    const given = request['headers'];
    if (Array.isArray(given)) {
      for (const h of given) {
        if (isObject(h) && typeof h['name'] === 'string' && typeof h['value'] === 'string')
          headers.push([h['name'], h['value']]);
      }
    }
    let body: Uint8Array | undefined;
    const post = request['postData'];
    if (isObject(post) && typeof post['text'] === 'string') {
      body =
        post['encoding'] === 'base64'
          ? Buffer.from(post['text'], 'base64')
          : Buffer.from(post['text'], 'utf8');
      if (
        typeof post['mimeType'] === 'string' &&
        post['mimeType'] !== '' &&
        !headers.some(([n]) => n.toLowerCase() === 'content-type')
      )
        headers.push(['Content-Type', post['mimeType']]);
    }
    return { method, path: url.pathname + url.search, headers, body, source: `${file} entry ${i + 1}` };
  });
}

function parseRequestLog(text: string, file: string): RecordedRequest[] {
  const out: RecordedRequest[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = `line ${i + 1}`;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new ReplayInputError(file, 'not a HAR file, and this line of a request log is not JSON', at);
    }
    if (!isObject(entry)) throw new ReplayInputError(file, 'a request log line must be a JSON object', at);
    const method = checkedMethod(entry['method'], file, at);
    const path = entry['path'];
    if (typeof path !== 'string' || !path.startsWith('/'))
      throw new ReplayInputError(file, "'path' must be a path and query starting with '/'", at);
    const headers: [string, string][] = [];
    const given = entry['headers'];
    if (given !== undefined) {
      if (!isObject(given)) throw new ReplayInputError(file, "'headers' must be an object", at);
      for (const [n, v] of Object.entries(given)) {
        if (typeof v !== 'string') throw new ReplayInputError(file, `header '${n}' must be a string`, at);
        headers.push([n, v]);
      }
    }
    let body: Uint8Array | undefined;
    if (entry['body'] !== undefined) {
      body = Buffer.from(JSON.stringify(entry['body']), 'utf8');
      if (!headers.some(([n]) => n.toLowerCase() === 'content-type'))
        headers.push(['Content-Type', 'application/json']);
    } else if (typeof entry['bodyText'] === 'string') body = Buffer.from(entry['bodyText'], 'utf8');
    else if (typeof entry['bodyBase64'] === 'string') body = Buffer.from(entry['bodyBase64'], 'base64');
    out.push({ method, path, headers, body, source: `${file} ${at}` });
  }
  return out;
}
