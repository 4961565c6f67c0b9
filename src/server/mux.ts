import type { CodecRegistry, DataCodec } from '../data';
import { DataMap, JSON_CONTENT_TYPE } from '../data';
import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { getHeader, isHttpToken } from '../protocol';
import { RequestBodyError, SvcPluginOptionsError } from '../resources/errors';
import type { ConnectionEvents, EncodedResponse, ResourceRequest, SvcLogger } from '../resources/request';
import { SERVER_MUX_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SERVER_MUX_CODES);

/**
 * Multiplexed requests, the reference's `/mux` (Rest.li's multiplexer, `MultiplexedRequestHandlerImpl`):
 * `POST /mux` with a `MultiplexedRequestContent` body
 *
 *   {"requests": {"0": {"method": "GET", "relativeUrl": "/photos/1", "headers": {}, "dependentRequests": {}}}}
 *
 * is answered 200 with a `MultiplexedResponseContent`, `{"responses": {"0": {"status", "headers", "body"}}}`,
 * whatever the individual answers were. Bodies travel as data (a JSON object in a JSON envelope), never as
 * strings. What follows the reference, and where Svc is stricter:
 *
 * - each individual request goes through the same pipeline as a request of its own (request filters, so
 *   the security guard and rate limits count it; routing, binding, validation, handlers, response filters,
 *   observers), with the envelope's headers (all but `Content-Length`; `Accept` is dropped so individual
 *   answers are JSON, as the reference does) overridden by its own; cookies come from the envelope only;
 * - individual requests run in parallel, at most `concurrency` at once across the whole envelope;
 *   `dependentRequests` run after their parent has been answered (whatever its status), in parallel with
 *   each other, as the reference runs them (its client's "sequential" requests are such chains);
 * - limits answered as the reference answers them: not a POST 405 (`Invalid method`); no requests 400
 *   (`No individual requests to process`); more than `maxRequests` (dependents included; default 20, the
 *   reference's) 400 (`The server is configured to serve up to 20 requests, but received 21`); an envelope
 *   that is not a `MultiplexedRequestContent` 400; an individual header outside the allowed list 400 in
 *   that individual response (`Request header X is not allowed in the individual request.`);
 * - Svc's own rules: a nested `/mux`, a `multipart/related` (attachments) envelope or individual
 *   `Content-Type`, duplicated ids, and an individual body over `maxIndividualBodyBytes` are refused
 *   (individual 400, envelope 400, individual 415, envelope 400, individual 413); the reference would
 *   recurse into a nested mux and cannot carry attachments in an `IndividualBody` either. Individual
 *   responses that stream attachments answer 500 (`Unable to set body for individual response: <id>`).
 *   The method headers (`X-RestLi-Method`, `X-Svc-Method`) are allowed in individual requests by default,
 *   beyond the reference's empty list, so that batch methods can be multiplexed by Svc's client.
 * - the envelope is compressed (and its request body inflated) as a whole, never per part;
 * - a client that hangs up stops the envelope: queued individual requests never start, running ones see
 *   `ctx.signal` abort (their connection is the envelope's).
 */

/** The path the multiplexer answers below the server's prefix. */
export const MUX_PATH = '/mux';
/** The reference's `RestLiConfig` default. */
export const DEFAULT_MUX_MAX_REQUESTS = 20;
/** Individual requests served at once; enough to overlap I/O-bound handlers without flooding the loop. */
export const DEFAULT_MUX_CONCURRENCY = 8;
/** The largest sum of individual response bodies one envelope collects (they are buffered, as the reference does). */
export const DEFAULT_MUX_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Options of the multiplexer (`svcPlugin` / `createSvcServer` option `mux`); every default listed here. */
export interface MuxOptions {
  /** Most individual requests in one envelope, dependent ones included. Default 20 (the reference's). */
  readonly maxRequests?: number;
  /** Most individual requests in flight at once per envelope. Default 8. */
  readonly concurrency?: number;
  /**
   * Request headers an individual request may carry itself (case-insensitive); the method headers of the
   * accepted families are always allowed. Default none, as the reference (`individualRequestHeaderWhitelist`).
   */
  readonly allowedHeaders?: readonly string[];
  /** Largest individual request body (re-encoded as JSON), bytes. Default the server's `maxBodyBytes`. */
  readonly maxIndividualBodyBytes?: number;
  /** Largest sum of individual response bodies per envelope, bytes (above: 500 for the rest). Default 16 MiB. */
  readonly maxResponseBytes?: number;
}

/** {@link MuxOptions} resolved. */
export interface ResolvedMux {
  readonly maxRequests: number;
  readonly concurrency: number;
  /** Lower-case names. */
  readonly allowedHeaders: readonly string[];
  readonly maxIndividualBodyBytes: number | undefined;
  readonly maxResponseBytes: number;
}

/** A refused multiplexed request (`SVC_ERR_PROTOCOL_MUX_*`; 400, 405 or 415 by code). */
export class MultiplexedRequestError extends SvcError {
  constructor(
    code:
      'SVC_ERR_PROTOCOL_MUX_BAD_REQUEST' | 'SVC_ERR_PROTOCOL_MUX_METHOD' | 'SVC_ERR_PROTOCOL_MUX_MEDIA_TYPE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

function positive(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
    throw new SvcPluginOptionsError('mux', `'${name}' must be a positive integer`);
  return v;
}

/**
 * The `mux` server option resolved: on unless `false` (the reference's servers always serve `/mux`).
 * @throws SvcPluginOptionsError
 */
export function muxOption(options: unknown): ResolvedMux | undefined {
  if (options === false) return undefined;
  if (options !== undefined && options !== true && (typeof options !== 'object' || options === null))
    throw new SvcPluginOptionsError('mux', 'must be true, false or multiplexer options');
  const o = (typeof options === 'object' ? options : {}) as MuxOptions;
  const allowed: unknown = o.allowedHeaders ?? [];
  if (!Array.isArray(allowed) || !allowed.every((h) => typeof h === 'string' && isHttpToken(h)))
    throw new SvcPluginOptionsError('mux', "'allowedHeaders' must list header names");
  return Object.freeze({
    maxRequests: positive('maxRequests', o.maxRequests, DEFAULT_MUX_MAX_REQUESTS),
    concurrency: positive('concurrency', o.concurrency, DEFAULT_MUX_CONCURRENCY),
    allowedHeaders: Object.freeze((allowed as string[]).map((h) => h.toLowerCase())),
    maxIndividualBodyBytes:
      o.maxIndividualBodyBytes === undefined
        ? undefined
        : positive('maxIndividualBodyBytes', o.maxIndividualBodyBytes, 0),
    maxResponseBytes: positive('maxResponseBytes', o.maxResponseBytes, DEFAULT_MUX_MAX_RESPONSE_BYTES),
  });
}

/** What the pipeline lends the multiplexer. */
export interface MuxHost {
  readonly codecs: CodecRegistry;
  readonly json: DataCodec;
  readonly maxBodyBytes: number;
  /** Lower-case method header names of the accepted families (always allowed in individual requests). */
  readonly methodHeaders: readonly string[];
  /** Serves one individual request through the whole pipeline (never rejects). */
  serve(request: ResourceRequest, log: SvcLogger): EncodedResponse | Promise<EncodedResponse>;
  /** The error response for `err` as `request` would get it (never rejects). */
  fail(request: ResourceRequest, err: unknown, log: SvcLogger): EncodedResponse | Promise<EncodedResponse>;
}

/** One parsed individual request. */
interface Individual {
  readonly id: string;
  readonly method: string;
  readonly relativeUrl: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: DataMap | undefined;
  readonly dependents: readonly Individual[];
}

function bad(message: string, cause?: unknown): MultiplexedRequestError {
  return new MultiplexedRequestError(
    'SVC_ERR_PROTOCOL_MUX_BAD_REQUEST',
    message,
    cause === undefined ? undefined : { cause },
  );
}

/** Reads `requests` of a MultiplexedRequestContent (or `dependentRequests` of an IndividualRequest). */
function readRequests(map: unknown, where: string, ids: Set<string>, count: { n: number }): Individual[] {
  if (!(map instanceof DataMap)) throw bad(`Invalid multiplexed request: '${where}' is not a map`);
  const out: Individual[] = [];
  for (const [id, value] of map) {
    const at = `${where}/${id}`;
    if (ids.has(id)) throw bad(`Invalid multiplexed request: the id '${id}' is used twice`);
    ids.add(id);
    count.n++;
    if (!(value instanceof DataMap)) throw bad(`Invalid multiplexed request: '${at}' is not a record`);
    const method = value.get('method');
    const relativeUrl = value.get('relativeUrl');
    if (typeof method !== 'string') throw bad(`Invalid multiplexed request: '${at}/method' is required`);
    if (typeof relativeUrl !== 'string')
      throw bad(`Invalid multiplexed request: '${at}/relativeUrl' is required`);
    const headers = new Map<string, string>();
    const rawHeaders = value.get('headers');
    if (rawHeaders !== undefined) {
      if (!(rawHeaders instanceof DataMap))
        throw bad(`Invalid multiplexed request: '${at}/headers' is not a map of strings`);
      for (const [name, v] of rawHeaders) {
        if (typeof v !== 'string')
          throw bad(`Invalid multiplexed request: '${at}/headers/${name}' is not a string`);
        headers.set(name, v);
      }
    }
    const body = value.get('body');
    if (body !== undefined && !(body instanceof DataMap))
      throw bad(`Invalid multiplexed request: '${at}/body' is not a record`);
    const dependent = value.get('dependentRequests');
    const dependents =
      dependent === undefined ? [] : readRequests(dependent, `${at}/dependentRequests`, ids, count);
    out.push({ id, method, relativeUrl, headers, body, dependents });
  }
  return out;
}

/**
 * Parses and checks an envelope: its individual requests, or the envelope-level error.
 * @throws MultiplexedRequestError
 */
export function readEnvelope(content: DataMap | undefined, maxRequests: number): Individual[] {
  if (content === undefined) throw bad('No individual requests to process');
  const requests = content.get('requests');
  if (requests === undefined) throw bad("Invalid multiplexed request: 'requests' is required");
  const count = { n: 0 };
  const individuals = readRequests(requests, 'requests', new Set(), count);
  if (count.n === 0) throw bad('No individual requests to process');
  if (count.n > maxRequests)
    throw bad(`The server is configured to serve up to ${maxRequests} requests, but received ${count.n}`);
  return individuals;
}

/**
 * The close of the envelope's connection, relayed to each running individual request (one listener on the
 * real connection, however many individual requests: a `ServerResponse` warns past ten listeners).
 */
class SharedConnection {
  closed = false;
  private readonly listeners = new Set<() => void>();
  constructor(private readonly real: ConnectionEvents | undefined) {}
  /** Starts watching; returns the function that stops. */
  watch(): () => void {
    const real = this.real;
    if (real === undefined) return () => undefined;
    const onClose = (): void => {
      if (real.writableFinished) return;
      this.closed = true;
      for (const l of [...this.listeners]) l();
    };
    if (real.destroyed) onClose();
    else real.once('close', onClose);
    return () => real.off('close', onClose);
  }
  /** The connection an individual request sees: closes with the envelope's, finished once answered. */
  individual(): ConnectionEvents & { finish(): void } {
    return new IndividualConnection(this);
  }
  /** @internal */
  add(listener: () => void): void {
    this.listeners.add(listener);
  }
  /** @internal */
  remove(listener: () => void): void {
    this.listeners.delete(listener);
  }
}

/** One individual request's view of the envelope's connection. */
class IndividualConnection implements ConnectionEvents {
  private finished = false;
  /** The listeners given to `once`, by the wrapper registered for each. */
  private readonly owned = new Map<() => void, () => void>();
  constructor(private readonly shared: SharedConnection) {}
  get writableFinished(): boolean {
    return this.finished;
  }
  get destroyed(): boolean {
    return this.shared.closed;
  }
  once(_event: 'close', listener: () => void): this {
    const wrapper = (): void => {
      this.shared.remove(wrapper);
      this.owned.delete(listener);
      listener();
    };
    this.owned.set(listener, wrapper);
    this.shared.add(wrapper);
    return this;
  }
  off(_event: 'close', listener: () => void): this {
    const wrapper = this.owned.get(listener);
    if (wrapper !== undefined) {
      this.shared.remove(wrapper);
      this.owned.delete(listener);
    }
    return this;
  }
  /** The individual response is in: nothing to cancel any more. */
  finish(): void {
    this.finished = true;
    for (const wrapper of this.owned.values()) this.shared.remove(wrapper);
    this.owned.clear();
  }
}

/** A counting semaphore: at most `limit` holders. */
class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  acquire(): Promise<void> | undefined {
    if (this.active < this.limit) {
      this.active++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.active--;
  }
}

/** Request headers never inherited from the envelope: its framing, its encoding and (as the reference) Accept. */
const NOT_INHERITED: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'accept',
  'expect',
  'connection',
  'keep-alive',
  'upgrade',
  // an individual body is data re-encoded as JSON (below), whatever the envelope's Content-Type
  'content-type',
]);

/** Response headers an individual response does not carry: framing; cookies go on the envelope. */
const NOT_KEPT: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'set-cookie',
]);

function isMultipart(contentType: string): boolean {
  return /^\s*multipart\//i.test(contentType);
}

/** An individual answer as it goes into the envelope, and the cookies it set. */
interface IndividualAnswer {
  readonly response: DataMap;
  readonly cookies: readonly string[];
}

/**
 * Serves a `POST /mux` envelope: the aggregated 200, or the envelope's error response (`refuse`, in the
 * request's header family). Never rejects.
 */
export async function serveMux(
  host: MuxHost,
  options: ResolvedMux,
  request: ResourceRequest,
  log: SvcLogger,
  refuse: (err: unknown) => EncodedResponse | Promise<EncodedResponse>,
): Promise<EncodedResponse> {
  let individuals: Individual[];
  try {
    if (request.method !== 'POST')
      throw new MultiplexedRequestError('SVC_ERR_PROTOCOL_MUX_METHOD', 'Invalid method');
    if (request.bodyStream !== undefined) {
      // the parts are not read: discard them as they come
      request.bodyStream.resume();
      throw bad('Invalid multiplexed request: a MultiplexedRequestContent carries no attachments');
    }
    const contentType = getHeader(request.headers, 'content-type');
    if (contentType !== undefined && host.codecs.find(contentType) === undefined)
      throw new MultiplexedRequestError(
        'SVC_ERR_PROTOCOL_MUX_MEDIA_TYPE',
        `Unsupported content type for a multiplexed request: ${contentType}`,
      );
    let content: DataMap | undefined;
    const bytes = request.body;
    if (bytes !== undefined && bytes.byteLength > 0) {
      try {
        content = (contentType === undefined ? host.json : host.codecs.find(contentType)!).bytesToMap(bytes);
      } catch (err) {
        throw bad('Invalid multiplexed request: the body is not a MultiplexedRequestContent', err);
      }
    }
    individuals = readEnvelope(content, options.maxRequests);
  } catch (err) {
    return refuse(err);
  }

  const connection = new SharedConnection(request.connection);
  const unwatch = connection.watch();
  const limiter = new Limiter(options.concurrency);
  const responses = new DataMap();
  const cookies = new Map<string, string>();
  const budget = { left: options.maxResponseBytes };
  // the prefix the envelope came under (`/api` of `/api/mux`), for the individual requests' URLs
  const q = request.url.indexOf('?');
  const target = q === -1 ? request.url : request.url.slice(0, q);
  const base = target.endsWith(MUX_PATH) ? target.slice(0, -MUX_PATH.length) : '';

  const runOne = async (ind: Individual): Promise<void> => {
    const wait = limiter.acquire();
    if (wait !== undefined) await wait;
    try {
      // the client went away: nobody reads the answer, start nothing more
      if (connection.closed) return;
      const answer = await serveIndividual(host, options, request, ind, base, connection, budget, log);
      responses.put(ind.id, answer.response);
      for (const c of answer.cookies) cookies.set(cookieKey(c), c);
    } finally {
      limiter.release();
    }
  };
  const runLevel = (level: readonly Individual[]): Promise<unknown> =>
    Promise.all(
      level.map((ind) =>
        runOne(ind).then(() =>
          ind.dependents.length === 0 || connection.closed ? undefined : runLevel(ind.dependents),
        ),
      ),
    );
  try {
    await runLevel(individuals);
  } finally {
    unwatch();
  }
  const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE };
  // a header object holds one value per name: several cookies are joined as Node would list them
  if (cookies.size > 0) headers['set-cookie'] = [...cookies.values()].join(', ');
  return {
    status: 200,
    headers,
    body: host.json.mapToBytes(new DataMap({ responses })),
  };
}

/** Cookies are the same cookie when name, domain (case-insensitive) and path are (as the reference merges them). */
function cookieKey(setCookie: string): string {
  const parts = setCookie.split(';').map((p) => p.trim());
  const name = (parts[0] ?? '').split('=')[0] ?? '';
  let domain = '';
  let path = '';
  for (const p of parts.slice(1)) {
    const [k, ...v] = p.split('=');
    const key = (k ?? '').trim().toLowerCase();
    if (key === 'domain') domain = v.join('=').trim().toLowerCase();
    else if (key === 'path') path = v.join('=').trim();
  }
  return `${name};${domain};${path}`;
}

async function serveIndividual(
  host: MuxHost,
  options: ResolvedMux,
  envelope: ResourceRequest,
  ind: Individual,
  base: string,
  shared: SharedConnection,
  budget: { left: number },
  log: SvcLogger,
): Promise<IndividualAnswer> {
  const connection = shared.individual();
  // headers: the envelope's, then the individual's own (allowed ones only)
  const headers: Record<string, string | readonly string[]> = {};
  for (const [name, value] of Object.entries(envelope.headers)) {
    const lower = name.toLowerCase();
    if (value !== undefined && !NOT_INHERITED.has(lower)) headers[lower] = value;
  }
  const rel = ind.relativeUrl.startsWith('/') ? ind.relativeUrl : `/${ind.relativeUrl}`;
  const hash = rel.indexOf('#');
  const target = hash === -1 ? rel : rel.slice(0, hash);
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const method = ind.method.toUpperCase();
  const bare: ResourceRequest = {
    method: method === 'HEAD' ? 'GET' : method,
    url: `${base}${target}`,
    path,
    query: q === -1 ? undefined : target.slice(q + 1),
    headers,
    body: undefined,
    attributes: envelope.attributes,
    connection,
    ...(envelope.socket === undefined ? {} : { socket: envelope.socket }),
  };
  let out: EncodedResponse | Promise<EncodedResponse>;
  try {
    for (const [name, value] of ind.headers) {
      const lower = name.toLowerCase();
      if (!options.allowedHeaders.includes(lower) && !host.methodHeaders.includes(lower))
        throw bad(`Request header ${name} is not allowed in the individual request.`);
      headers[lower] = value;
    }
    if (!isHttpToken(ind.method)) throw bad(`Invalid method for request id=${ind.id}: ${ind.method}`);
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(ind.relativeUrl))
      throw bad(
        `Invalid relativeUrl for request id=${ind.id}: an individual request names a path, not a URL`,
      );
    if (path === MUX_PATH) throw bad(`Nested multiplexed requests are not allowed (request id=${ind.id})`);
    const type = headers['content-type'];
    if (typeof type === 'string' && (isMultipart(type) || host.codecs.find(type) === undefined))
      throw new MultiplexedRequestError(
        'SVC_ERR_PROTOCOL_MUX_MEDIA_TYPE',
        `Unsupported media type for request id=${ind.id}`,
      );
    let body: Uint8Array | undefined;
    if (ind.body !== undefined) {
      const codec = typeof type === 'string' ? host.codecs.find(type)! : host.json;
      if (typeof type !== 'string') headers['content-type'] = JSON_CONTENT_TYPE;
      body = codec.mapToBytes(ind.body);
      if (body.byteLength > (options.maxIndividualBodyBytes ?? host.maxBodyBytes))
        throw new RequestBodyError('Request body is too large', 'SVC_ERR_BIND_BODY_TOO_LARGE');
    }
    out = host.serve({ ...bare, body }, log);
  } catch (err) {
    out = host.fail(bare, err, log);
  }
  try {
    const answer = await out;
    // HEAD is served as GET (as the adapters do) and answered without the body
    if (method === 'HEAD' && answer.stream !== undefined) answer.stream.destroy();
    return await individualAnswer(
      host,
      ind.id,
      method === 'HEAD' ? { ...answer, body: undefined, stream: undefined } : answer,
      budget,
    );
  } finally {
    connection.finish();
  }
}

/** An individual response as data: status, headers, the body decoded by its Content-Type. */
async function individualAnswer(
  host: MuxHost,
  id: string,
  out: EncodedResponse,
  budget: { left: number },
): Promise<IndividualAnswer> {
  const headers = new DataMap();
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(out.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie') cookies.push(value);
    else if (!NOT_KEPT.has(lower)) headers.put(name, value);
  }
  const contentType = getHeader(out.headers, 'content-type');
  let bytes: Uint8Array | undefined;
  try {
    if (out.stream !== undefined) {
      if (contentType !== undefined && isMultipart(contentType)) {
        out.stream.destroy();
        throw new Error('attachments');
      }
      bytes = await collect(out.stream, budget);
    } else if (out.body !== undefined) {
      bytes = typeof out.body === 'string' ? Buffer.from(out.body, 'utf8') : out.body;
      if (bytes.byteLength > budget.left) throw new Error('too large');
      budget.left -= bytes.byteLength;
    }
  } catch {
    return serverError(host, `Unable to set body for individual response: ${id}`);
  }
  const response = new DataMap({ status: out.status, headers });
  if (bytes !== undefined && bytes.byteLength > 0) {
    const codec = contentType === undefined ? host.json : host.codecs.find(contentType);
    if (codec === undefined) return serverError(host, `Invalid content type for individual response: ${id}`);
    try {
      response.put('body', codec.bytesToMap(bytes));
    } catch {
      return serverError(host, `Unable to set body for individual response: ${id}`);
    }
    // the body is JSON inside the envelope now
    if (contentType !== undefined) headers.put('content-type', JSON_CONTENT_TYPE);
  }
  return { response, cookies };
}

/** A 500 individual response with the reference's ErrorResponse body (status and message). */
function serverError(_host: MuxHost, message: string): IndividualAnswer {
  return {
    response: new DataMap({
      status: 500,
      headers: new DataMap(),
      body: new DataMap({ status: 500, message }),
    }),
    cookies: [],
  };
}

/** Reads a streamed body within the envelope's budget. */
async function collect(
  stream: NonNullable<EncodedResponse['stream']>,
  budget: { left: number },
): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    size += b.byteLength;
    if (size > budget.left) {
      stream.destroy();
      throw new Error('too large');
    }
    chunks.push(b);
  }
  budget.left -= size;
  return Buffer.concat(chunks, size);
}
