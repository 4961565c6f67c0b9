import { type ClientAuth, isClientAuth } from './auth';
import { CodecRegistry, type DataCodec, JSON_CONTENT_TYPE, JsonCodec, parseMediaType } from '../data';
import {
  DEFAULT_HEADER_PREFIX,
  LATEST_PROTOCOL_VERSION,
  NEXT_PROTOCOL_VERSION,
  RESTLI_HEADER_PREFIX,
  ProtocolVersion,
  type ProtocolHeaderNames,
  protocolHeaderNames,
  isHttpToken,
} from '../protocol';
import type { NodeReadable } from '../streams/node-readable';
import type { HttpRequest } from './build-request';
import { ClientOptionsError, UnsupportedProtocolVersionError } from './errors';
import type { RawResponse } from './transport';
import { DEFAULT_QUERY_TUNNEL_THRESHOLD, isQueryTunnelThreshold } from './tunnel-encode';
import { type ClientAttachments, clientPlatform } from './platform';

/** The platform's default codecs; JSON alone when the platform names none (the web platform). */
function defaultCodecs(): CodecRegistry {
  const platform = clientPlatform();
  return platform.codecs === undefined ? new CodecRegistry().register(new JsonCodec()) : platform.codecs();
}

/**
 * The client's options: one object, validated once by {@link resolveClientOptions}, every default in
 * {@link DEFAULT_CLIENT_OPTIONS}.
 */

/**
 * How the protocol version of a request is chosen (the reference's `ProtocolVersionOption`; brief,
 * "Versioning"). The client encodes 2.0.0 only, so every choice that lands on 1.0.0 is refused with an
 * {@link UnsupportedProtocolVersionError}.
 */
export const ProtocolVersionOption = {
  /**
   * The latest version the server supports: the version it announces (see
   * {@link ClientOptions.announcedProtocolVersion}), capped at the latest; a server that announces nothing
   * is taken to run the latest, as the reference does.
   */
  USE_LATEST_IF_AVAILABLE: 'USE_LATEST_IF_AVAILABLE',
  /** The latest version (2.0.0), whatever the server runs. */
  FORCE_USE_LATEST: 'FORCE_USE_LATEST',
  /** The version under development (2.0.0 too, as in the reference). */
  FORCE_USE_NEXT: 'FORCE_USE_NEXT',
  /** The deprecated version (1.0.0): refused, the client cannot encode it. */
  FORCE_USE_PREVIOUS: 'FORCE_USE_PREVIOUS',
} as const;

export type ProtocolVersionOption = (typeof ProtocolVersionOption)[keyof typeof ProtocolVersionOption];

/** 1.0.0, the reference's "previous" version: what the client refuses to encode. */
const PREVIOUS_PROTOCOL_VERSION = new ProtocolVersion(1, 0, 0);

/**
 * The version a server announces for a resource, for {@link ProtocolVersionOption.USE_LATEST_IF_AVAILABLE}:
 * a fixed value, or a function asked once per resource name (the reference reads it from service
 * discovery). `undefined` means the server announces nothing.
 */
export type AnnouncedVersionSource =
  string | ((resource: string) => string | undefined | PromiseLike<string | undefined>);

/** The response as the client needs it from a fetch implementation. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { forEach(callback: (value: string, name: string) => void): void };
  arrayBuffer(): Promise<ArrayBuffer>;
  /**
   * The body as a stream, instead of `arrayBuffer()` (one or the other): a `multipart/related` response's
   * attachments are read from it as they arrive. Optional: without it, such a response is read whole
   * (bounded by `maxResponseBytes`) and then split.
   */
  stream?(): NodeReadable;
}

/** What the client asks of a fetch implementation; Node's global `fetch` and undici's fit. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  /**
   * The body: bytes, or a request with attachments: a Node stream, sent as it is produced (the Node
   * platform), or a `Blob` of the message's parts (the web platform; see `web-platform.ts`).
   */
  body?: Uint8Array | NodeReadable | Blob;
  /** Set with a stream body, as the WHATWG `fetch` requires. */
  duplex?: 'half';
  signal: AbortSignal;
  /**
   * The largest body the client will read. A hint: `nodeHttpFetch` stops reading past it; for any other
   * fetch the client checks `Content-Length` and the size read.
   */
  maxResponseBytes?: number;
}

/** A fetch implementation: `nodeHttpFetch` by default on Node, `webFetch` in browsers; injectable (global `fetch`, undici, proxies, tests). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

/**
 * A client filter: sees every built request on its way out and its raw response on the way back, and may
 * replace either (query tunnelling and attachments plug in here). `next` sends the request on, through the
 * later filters and then the transport.
 *
 * @example
 * ```ts
 * const timing: ClientFilter = async (req, next) => {
 *   const t = Date.now();
 *   try { return await next(req); } finally { log(req.url, Date.now() - t); }
 * };
 * ```
 */
export type ClientFilter = (
  request: HttpRequest,
  next: (request: HttpRequest) => Promise<RawResponse>,
) => Promise<RawResponse>;

/** When the method header (`X-Svc-Method`) is sent. */
export type MethodHeaderMode = 'post' | 'always';

/** Options of {@link SvcClient} (and of {@link buildRequest}). */
export interface ClientOptions {
  /** Where the resources live, e.g. `http://127.0.0.1:8080` or `https://api.example.com/v1`. Required. */
  readonly baseUrl: string | URL;
  /**
   * Prefix of the protocol headers: `X-Svc` (default), or `X-RestLi` to talk to Rest.li servers. A Rest.li
   * server reads only `X-RestLi-*` headers: without them it takes a request for protocol 1.0.0 and parses
   * its keys and lists the 1.0.0 way. With `X-RestLi` the client also sends what a Java Rest.li client
   * sends besides ({@link RESTLI_CLIENT_HEADERS}).
   */
  readonly headerPrefix?: string;
  /**
   * `2.0.0` (default), or a {@link ProtocolVersionOption}. `1.0.0` and anything else the client cannot
   * encode is refused when the client is created.
   */
  readonly protocolVersion?: string;
  /** The server's announced version, for `USE_LATEST_IF_AVAILABLE`; ignored otherwise. */
  readonly announcedProtocolVersion?: AnnouncedVersionSource;
  /** Media type of request bodies: `application/json` (default) or `application/x-pson`; any type `codecs` has. */
  readonly contentType?: string;
  /**
   * Response types to ask for, most preferred first; each needs a codec in `codecs`. Empty (default): no
   * `Accept` header, so the server answers JSON.
   */
  readonly accept?: readonly string[];
  /**
   * Codecs for bodies, by media type. Default: JSON and PSON (`createDefaultCodecRegistry()`) through the
   * package root; JSON only through `svc-framework/client`, where a page that speaks PSON passes
   * `createDefaultCodecRegistry()` (the PSON codec is ~5 KB of a page; see README.md, "Size").
   */
  readonly codecs?: CodecRegistry;
  /**
   * Milliseconds for a whole exchange (connect, send, wait, read the body); `Infinity` for none. Default
   * 10 000, the reference's default request timeout.
   */
  readonly timeoutMs?: number;
  /**
   * The largest response body the client reads, in bytes; a larger one fails with
   * `ResponseTooLargeError` and its connection is dropped. Default 64 MiB; `Infinity` for no limit.
   * (The reference's HTTP client has a limit too, 2 MB by default; ours is roomier for batch responses.)
   */
  readonly maxResponseBytes?: number;
  /** Aborts every request of the client (e.g. on shutdown); a request's own signal is honoured as well. */
  readonly signal?: AbortSignal;
  /**
   * The fetch implementation; default `nodeHttpFetch` through the package root (`node:http`, which sends
   * the URI byte for byte), `webFetch` (the platform's `fetch`) through `svc-framework/client`. The global
   * `fetch` percent-encodes `'` in queries, so it cannot send the empty string (`''`) of the URI grammar.
   */
  readonly fetch?: FetchLike;
  /** Headers sent with every request (protocol headers the client computes take precedence). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * `post` (default): send the method header on POST only, as the reference's client does (there it is
   * needed to tell `batch_create` from `create`); `always`: on every request.
   */
  readonly methodHeader?: MethodHeaderMode;
  /** Filters around the transport, the first outermost (default none). */
  readonly filters?: readonly ClientFilter[];
  /**
   * Query tunneling: a request whose percent-encoded query (without `?`) has at least this many characters
   * is sent as a `POST` with `X-HTTP-Method-Override` (see `tunnel-encode.ts`). Default 4096
   * ({@link DEFAULT_QUERY_TUNNEL_THRESHOLD}); `false` (or `Infinity`) never tunnels by length. A request
   * may override it, or force tunneling with `forceQueryTunnel`.
   */
  readonly queryTunnelThreshold?: number | false;
  /**
   * The credential sent as `Authorization: Bearer ...` (auth.ts): a token, or a function asked before each
   * exchange that may refresh it. Default none.
   */
  readonly auth?: ClientAuth;
  /**
   * How requests and responses with attachments (`multipart/related`) are written and read. Default: the
   * platform's, Node streams through the package root; none through `svc-framework/client`, where a page
   * that sends or receives attachments passes `webAttachments` (the multipart code is ~5 KB of a page; see
   * README.md, "Size") and without it such a call fails with a `ClientOptionsError`.
   */
  readonly attachments?: ClientAttachments;
}

/** The defaults of {@link ClientOptions}. */
export interface ClientDefaults {
  readonly headerPrefix: string;
  readonly protocolVersion: string;
  readonly contentType: string;
  readonly accept: readonly string[];
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly methodHeader: MethodHeaderMode;
  readonly queryTunnelThreshold: number | false;
}

/** Every default in one place. */
export const DEFAULT_CLIENT_OPTIONS: ClientDefaults = Object.freeze({
  headerPrefix: DEFAULT_HEADER_PREFIX,
  protocolVersion: LATEST_PROTOCOL_VERSION.toString(),
  contentType: JSON_CONTENT_TYPE,
  accept: Object.freeze([]),
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024 * 1024,
  methodHeader: 'post',
  queryTunnelThreshold: DEFAULT_QUERY_TUNNEL_THRESHOLD,
});

/**
 * Headers a Java Rest.li client sends on every request besides the protocol headers: its transport (R2)
 * writes the message type as the wire attribute `X-LI-R2-W-MsgType: REST`. Sent with
 * `headerPrefix: 'X-RestLi'`, so that a request looks to a Rest.li server, its filters and the proxies in
 * front of it like a Java client's; a header of the same name in `headers` (client or request) wins.
 */
export const RESTLI_CLIENT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-LI-R2-W-MsgType': 'REST',
});

const RESOLVED = Symbol('svc.client.resolvedOptions');

/** How the version of each request is found. */
export type ProtocolVersionChoice =
  | { readonly kind: 'fixed'; readonly version: ProtocolVersion }
  | { readonly kind: 'announced'; readonly source: AnnouncedVersionSource | undefined };

/** Validated options with defaults filled in (frozen). */
export interface ResolvedClientOptions {
  /** @internal */ readonly [RESOLVED]: true;
  /** The base URL without a trailing slash. */
  readonly baseUrl: string;
  readonly headerNames: ProtocolHeaderNames;
  /** Headers sent for the kind of peer the prefix names: {@link RESTLI_CLIENT_HEADERS} for `X-RestLi`. */
  readonly peerHeaders: Readonly<Record<string, string>>;
  readonly protocolVersion: ProtocolVersionChoice;
  /** The request body media type (lower-case essence). */
  readonly contentType: string;
  readonly requestCodec: DataCodec;
  readonly accept: readonly string[];
  /** The `Accept` header value, undefined when none is sent. */
  readonly acceptHeader: string | undefined;
  readonly codecs: CodecRegistry;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly fetch: FetchLike;
  readonly headers: Readonly<Record<string, string>>;
  readonly methodHeader: MethodHeaderMode;
  readonly filters: readonly ClientFilter[];
  readonly queryTunnelThreshold: number | false;
  readonly auth: ClientAuth | undefined;
  /** `ClientOptions.attachments`; undefined: the platform's. */
  readonly attachments: ClientAttachments | undefined;
}

/** True for options already resolved by {@link resolveClientOptions}. */
export function isResolvedClientOptions(o: unknown): o is ResolvedClientOptions {
  return typeof o === 'object' && o !== null && (o as { [RESOLVED]?: unknown })[RESOLVED] === true;
}

const BAD_HEADER_VALUE = /[\r\n\0]/;
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Validates `options` and fills in the defaults.
 *
 * @throws ClientOptionsError naming the option
 * @throws UnsupportedProtocolVersionError for `1.0.0`, `FORCE_USE_PREVIOUS` or a version outside [2.0.0, 2.0.0]
 */
export function resolveClientOptions(options: ClientOptions | ResolvedClientOptions): ResolvedClientOptions {
  if (isResolvedClientOptions(options)) return options;
  if (typeof options !== 'object' || options === null) {
    throw new ClientOptionsError('options', 'expected an options object');
  }
  const d = DEFAULT_CLIENT_OPTIONS;
  const baseUrl = resolveBaseUrl(options.baseUrl);

  let headerNames: ProtocolHeaderNames;
  try {
    headerNames = protocolHeaderNames(options.headerPrefix ?? d.headerPrefix);
  } catch (err) {
    throw new ClientOptionsError('headerPrefix', (err as Error).message);
  }

  const protocolVersion = resolveProtocolVersion(options.protocolVersion ?? d.protocolVersion);
  const announced = options.announcedProtocolVersion;
  if (announced !== undefined && typeof announced !== 'string' && typeof announced !== 'function') {
    throw new ClientOptionsError('announcedProtocolVersion', 'expected a version string or a function');
  }

  const codecs = options.codecs ?? defaultCodecs();
  if (typeof (codecs as { find?: unknown }).find !== 'function') {
    throw new ClientOptionsError('codecs', 'expected a CodecRegistry');
  }
  const contentTypeText = options.contentType ?? d.contentType;
  const contentType = typeof contentTypeText === 'string' ? parseMediaType(contentTypeText) : undefined;
  const requestCodec = contentType === undefined ? undefined : codecs.find(contentType.essence);
  if (contentType === undefined || requestCodec === undefined) {
    throw new ClientOptionsError(
      'contentType',
      `'${String(contentTypeText)}' is not one of the codecs' types (${codecs.contentTypes().join(', ')})`,
    );
  }

  const acceptList = options.accept ?? d.accept;
  if (!Array.isArray(acceptList)) throw new ClientOptionsError('accept', 'expected an array of media types');
  const accept: string[] = [];
  for (const t of acceptList as readonly unknown[]) {
    const mt = typeof t === 'string' ? parseMediaType(t) : undefined;
    if (mt === undefined || codecs.find(mt.essence) === undefined) {
      throw new ClientOptionsError(
        'accept',
        `'${String(t)}' is not one of the codecs' types (${codecs.contentTypes().join(', ')}); the client must be able to read what it asks for`,
      );
    }
    if (accept.includes(mt.essence))
      throw new ClientOptionsError('accept', `'${mt.essence}' is listed twice`);
    accept.push(mt.essence);
  }

  const timeoutMs = options.timeoutMs ?? d.timeoutMs;
  if (
    typeof timeoutMs !== 'number' ||
    !(
      timeoutMs === Number.POSITIVE_INFINITY ||
      (Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)
    )
  ) {
    throw new ClientOptionsError(
      'timeoutMs',
      `expected a positive integer number of milliseconds up to ${MAX_TIMER_MS}, or Infinity; got ${String(timeoutMs)}`,
    );
  }

  const maxResponseBytes = options.maxResponseBytes ?? d.maxResponseBytes;
  if (
    typeof maxResponseBytes !== 'number' ||
    !(
      maxResponseBytes === Number.POSITIVE_INFINITY ||
      (Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)
    )
  ) {
    throw new ClientOptionsError(
      'maxResponseBytes',
      `expected a positive integer number of bytes, or Infinity; got ${String(maxResponseBytes)}`,
    );
  }

  const signal = options.signal;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new ClientOptionsError('signal', 'expected an AbortSignal');
  }

  const fetchImpl: unknown = options.fetch ?? clientPlatform().fetch;
  if (typeof fetchImpl !== 'function') {
    throw new ClientOptionsError(
      'fetch',
      'expected a fetch-shaped function (url, init) => Promise<Response>',
    );
  }

  const headers = validateHeaders(options.headers ?? {}, 'headers');

  const methodHeader = options.methodHeader ?? d.methodHeader;
  if (methodHeader !== 'post' && methodHeader !== 'always') {
    throw new ClientOptionsError(
      'methodHeader',
      `expected 'post' or 'always', got '${String(methodHeader)}'`,
    );
  }

  const filters: unknown = options.filters ?? [];
  if (!Array.isArray(filters) || !(filters as readonly unknown[]).every((f) => typeof f === 'function')) {
    throw new ClientOptionsError('filters', 'expected an array of filter functions');
  }

  const queryTunnelThreshold = options.queryTunnelThreshold ?? d.queryTunnelThreshold;
  if (!isQueryTunnelThreshold(queryTunnelThreshold)) {
    throw new ClientOptionsError(
      'queryTunnelThreshold',
      `expected a positive integer number of characters, Infinity or false; got ${String(queryTunnelThreshold)}`,
    );
  }

  const auth = options.auth;
  if (auth !== undefined && !isClientAuth(auth))
    throw new ClientOptionsError(
      'auth',
      'expected a token (a header-safe string) or a function returning one',
    );

  const attachments = options.attachments;
  if (
    attachments !== undefined &&
    (typeof attachments !== 'object' ||
      attachments === null ||
      typeof attachments.relatedBody !== 'function' ||
      typeof attachments.readRelated !== 'function')
  ) {
    throw new ClientOptionsError('attachments', 'expected webAttachments (or another ClientAttachments)');
  }

  return Object.freeze({
    [RESOLVED]: true as const,
    auth,
    attachments,
    baseUrl,
    headerNames,
    peerHeaders:
      headerNames.prefix.toLowerCase() === RESTLI_HEADER_PREFIX.toLowerCase()
        ? RESTLI_CLIENT_HEADERS
        : Object.freeze({}),
    protocolVersion:
      protocolVersion === ProtocolVersionOption.USE_LATEST_IF_AVAILABLE
        ? Object.freeze({ kind: 'announced' as const, source: announced })
        : Object.freeze({ kind: 'fixed' as const, version: protocolVersion }),
    contentType: contentType.essence,
    requestCodec,
    accept: Object.freeze(accept),
    acceptHeader: acceptHeaderFor(accept),
    codecs,
    timeoutMs,
    maxResponseBytes,
    signal,
    fetch: fetchImpl as FetchLike,
    headers,
    methodHeader,
    filters: Object.freeze([...(filters as readonly ClientFilter[])]),
    queryTunnelThreshold,
  });
}

function resolveBaseUrl(value: unknown): string {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new ClientOptionsError('baseUrl', 'required: a URL string such as http://127.0.0.1:8080');
  }
  let url: URL;
  try {
    url = new URL(value.toString());
  } catch {
    throw new ClientOptionsError('baseUrl', `'${value.toString()}' is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientOptionsError('baseUrl', `'${url.protocol}' is not http: or https:`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ClientOptionsError('baseUrl', 'must not have a query or a fragment');
  }
  if (url.username !== '' || url.password !== '') {
    // fetch refuses credentials in URLs; say so now rather than on the first request
    throw new ClientOptionsError(
      'baseUrl',
      'must not carry credentials; send an Authorization header instead',
    );
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The version a fixed option or version string stands for, or `USE_LATEST_IF_AVAILABLE`.
 *
 * @throws UnsupportedProtocolVersionError
 */
function resolveProtocolVersion(value: unknown): ProtocolVersion | 'USE_LATEST_IF_AVAILABLE' {
  switch (value) {
    case ProtocolVersionOption.USE_LATEST_IF_AVAILABLE:
      return value;
    case ProtocolVersionOption.FORCE_USE_LATEST:
      return LATEST_PROTOCOL_VERSION;
    case ProtocolVersionOption.FORCE_USE_NEXT:
      return NEXT_PROTOCOL_VERSION;
    case ProtocolVersionOption.FORCE_USE_PREVIOUS:
      return checkEncodable(PREVIOUS_PROTOCOL_VERSION, 'FORCE_USE_PREVIOUS');
    default:
      break;
  }
  if (typeof value !== 'string') {
    throw new ClientOptionsError(
      'protocolVersion',
      `expected a version such as '2.0.0' or one of ${Object.keys(ProtocolVersionOption).join(', ')}`,
    );
  }
  let version: ProtocolVersion;
  try {
    version = ProtocolVersion.parse(value);
  } catch {
    throw new ClientOptionsError(
      'protocolVersion',
      `'${value}' is neither a version (x.y.z) nor one of ${Object.keys(ProtocolVersionOption).join(', ')}`,
    );
  }
  return checkEncodable(version, value);
}

/**
 * `version` if the client can encode it (only 2.0.0: the latest, which is also the next).
 *
 * @throws UnsupportedProtocolVersionError
 */
export function checkEncodable(version: ProtocolVersion, asked: string): ProtocolVersion {
  if (version.compareTo(LATEST_PROTOCOL_VERSION) < 0 || version.compareTo(NEXT_PROTOCOL_VERSION) > 0) {
    const v = version.toString();
    const why =
      version.compareTo(LATEST_PROTOCOL_VERSION) < 0
        ? `the client encodes requests in protocol ${LATEST_PROTOCOL_VERSION.toString()} only (1.0.0 writes keys, lists and records differently)`
        : `the newest protocol version is ${NEXT_PROTOCOL_VERSION.toString()}`;
    throw new UnsupportedProtocolVersionError(
      v,
      `Protocol version ${v}${asked === v ? '' : ` (${asked})`} is not supported: ${why}`,
    );
  }
  return version;
}

/**
 * The version for a request under `USE_LATEST_IF_AVAILABLE`, given what the server announces (the
 * reference's rule): nothing announced → the latest; below 1.0.0 → an error; 1.0.0 → 1.0.0, refused here;
 * between → the announced one; the latest or newer → the latest.
 *
 * @throws UnsupportedProtocolVersionError
 */
export function versionForAnnounced(announced: string | undefined): ProtocolVersion {
  if (announced === undefined) return LATEST_PROTOCOL_VERSION;
  let v: ProtocolVersion;
  try {
    v = ProtocolVersion.parse(announced);
  } catch {
    throw new UnsupportedProtocolVersionError(
      announced,
      `The server announces a malformed protocol version '${announced}'`,
    );
  }
  if (v.compareTo(PREVIOUS_PROTOCOL_VERSION) < 0) {
    throw new UnsupportedProtocolVersionError(
      v.toString(),
      `The server announces protocol version ${v.toString()}, below the earliest supported version ${PREVIOUS_PROTOCOL_VERSION.toString()}`,
    );
  }
  const chosen = v.compareTo(LATEST_PROTOCOL_VERSION) >= 0 ? LATEST_PROTOCOL_VERSION : v;
  return checkEncodable(chosen, `announced by the server: ${announced}`);
}

function isAbortSignal(s: unknown): s is AbortSignal {
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof (s as AbortSignal).aborted === 'boolean' &&
    typeof (s as AbortSignal).addEventListener === 'function'
  );
}

/**
 * Header names as HTTP tokens, values without CR, LF or NUL (so that no header can be smuggled).
 *
 * @throws ClientOptionsError (option `where`)
 */
export function validateHeaders(headers: unknown, where: string): Readonly<Record<string, string>> {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new ClientOptionsError(where, 'expected an object of header names to string values');
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (!isHttpToken(name)) throw new ClientOptionsError(where, `'${name}' is not a valid header name`);
    if (typeof value !== 'string' || BAD_HEADER_VALUE.test(value)) {
      throw new ClientOptionsError(where, `header '${name}' must be a string without CR, LF or NUL`);
    }
    out[name] = value;
  }
  return Object.freeze(out);
}

/**
 * The `Accept` header for `types` (most preferred first): none for no types, the bare type for one, and
 * `type;q=1.0,type2;q=0.9,...` for several, as the reference's client writes it, but with the q-values
 * rounded to one decimal: the reference computes them in floating point (`0.7000000000000001` for the
 * 4th type, wire facts §3.3), which RFC 9110 §12.4.2 does not allow (at most three decimals) and which a
 * strict server may reject, while every parser reads the rounded values alike. From the 10th type on, q
 * stays at 0.1 (the reference's would reach ~0 and then go negative). (`buildAcceptHeader` in the
 * protocol layer reproduces the reference byte for byte; the client deliberately does not use it.)
 */
export function acceptHeaderFor(types: readonly string[]): string | undefined {
  if (types.length === 0) return undefined;
  if (types.length === 1) return types[0];
  return types.map((t, i) => `${t};q=${(Math.max(10 - i, 1) / 10).toFixed(1)}`).join(',');
}
