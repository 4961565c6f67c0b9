import { LATEST_PROTOCOL_VERSION, type ProtocolVersion } from './protocol-version';
import { latin1Bytes, utf8Bytes } from '../data/bytes';

/**
 * Protocol headers (wire facts §3.3, §3.4). Their names share a prefix, `X-Svc` by default; a deployment
 * that talks to existing Rest.li peers configures `X-RestLi`, and a server may accept several prefixes.
 *
 * | header | sent by | value |
 * |---|---|---|
 * | `<prefix>-Protocol-Version` | client on every request; server on every response | `2.0.0`; server echoes the request's (`1.0.0` if absent) |
 * | `<prefix>-Method` | client on POST (and any request it likes) | lower-case resource method, e.g. `batch_create`; servers accept any case |
 * | `<prefix>-Id` | server on create (and id responses) | the key's header form (keys.ts) |
 * | `<prefix>-Error-Response` | server on every top-level error response | `true` |
 */

/** The default header prefix. */
export const DEFAULT_HEADER_PREFIX = 'X-Svc';
/** The prefix Rest.li peers use. */
export const RESTLI_HEADER_PREFIX = 'X-RestLi';

/** Value of the error-response header. */
export const ERROR_RESPONSE_HEADER_VALUE = 'true';
/** Version a client sends. */
export const CLIENT_PROTOCOL_VERSION = /* @__PURE__ */ LATEST_PROTOCOL_VERSION.toString();

/** The 1.0.0-protocol names of the id and error headers (the reference uses them for 1.0.0 requests). */
export const LEGACY_ID_HEADER = 'X-LinkedIn-Id';
/** The 1.0.0-protocol name of the header that marks an error response. */
export const LEGACY_ERROR_RESPONSE_HEADER = 'X-LinkedIn-Error-Response';

/** The protocol header names for one prefix, as written (canonical case). */
export interface ProtocolHeaderNames {
  readonly prefix: string;
  readonly protocolVersion: string;
  readonly method: string;
  readonly id: string;
  readonly errorResponse: string;
}

/** The names of the protocol headers with `prefix` (`X-Svc-Protocol-Version`, ...). */
export function protocolHeaderNames(prefix: string = DEFAULT_HEADER_PREFIX): ProtocolHeaderNames {
  if (!isHttpToken(prefix)) {
    throw new TypeError(`headerPrefix must be an HTTP token, got '${prefix}'`);
  }
  return Object.freeze({
    prefix,
    protocolVersion: `${prefix}-Protocol-Version`,
    method: `${prefix}-Method`,
    id: `${prefix}-Id`,
    errorResponse: `${prefix}-Error-Response`,
  });
}

/** Request or response headers as Node gives them (lower-case names) or as a fetch `Headers`. */
export type HeaderSource =
  { readonly [name: string]: string | readonly string[] | undefined } | { get(name: string): string | null };

/** The value of header `name` (case-insensitive); the first one if repeated; undefined when absent. */
export function getHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(name: string): string | null }).get(name);
    return v ?? undefined;
  }
  const record = headers as { readonly [name: string]: string | readonly string[] | undefined };
  const lower = name.toLowerCase();
  let v = Object.prototype.hasOwnProperty.call(record, lower) ? record[lower] : undefined;
  if (v === undefined) {
    for (const k of Object.keys(record)) {
      if (k.length === lower.length && k.toLowerCase() === lower) {
        v = record[k];
        break;
      }
    }
  }
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : v[0];
}

const ACCEPTED = Symbol('svc.protocolHeaders.accepted');

/** Options of {@link ProtocolHeaders}. */
export interface ProtocolHeadersOptions {
  /** Prefix of the headers written, and read first (default `X-Svc`). */
  readonly headerPrefix?: string;
  /**
   * Further prefixes a server also reads, in order, when the primary header is absent (e.g. `['X-RestLi']`
   * for a server that takes requests from Rest.li clients and Svc clients alike).
   */
  readonly acceptPrefixes?: readonly string[];
}

/**
 * The protocol headers of one server or client: what to write (`names`) and how to read a header under
 * any of the accepted prefixes.
 *
 * @example
 * ```ts
 * const h = new ProtocolHeaders({ acceptPrefixes: ['X-RestLi'] });
 * h.names.method;                                           // 'X-Svc-Method'
 * h.read(req.headers, 'method');                            // X-Svc-Method, else X-RestLi-Method
 * ```
 */
export class ProtocolHeaders {
  readonly names: ProtocolHeaderNames;
  // declared, set by the constructor: a class field with a computed key keeps the class in every bundle
  /** @internal */ declare readonly [ACCEPTED]: readonly ProtocolHeaderNames[];

  constructor(options: ProtocolHeadersOptions = {}) {
    this.names = protocolHeaderNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX);
    const extra = (options.acceptPrefixes ?? [])
      .filter((p) => p.toLowerCase() !== this.names.prefix.toLowerCase())
      .map((p) => protocolHeaderNames(p));
    this[ACCEPTED] = [this.names, ...extra];
  }

  /** Every accepted set of names, the written one first. */
  get accepted(): readonly ProtocolHeaderNames[] {
    return this[ACCEPTED];
  }

  /** The value of protocol header `which` under the first accepted prefix that has it. */
  read(headers: HeaderSource, which: Exclude<keyof ProtocolHeaderNames, 'prefix'>): string | undefined {
    for (const names of this[ACCEPTED]) {
      const v = getHeader(headers, names[which]);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /**
   * Name of the id header for a response to a request of `version`: `<prefix>-Id`; with the Rest.li prefix
   * and a 1.0.0 request, the reference's `X-LinkedIn-Id`.
   */
  idHeader(version: ProtocolVersion): string {
    return this.isLegacy(version) ? LEGACY_ID_HEADER : this.names.id;
  }

  /** Name of the error-response header for `version` (see {@link idHeader}). */
  errorResponseHeader(version: ProtocolVersion): string {
    return this.isLegacy(version) ? LEGACY_ERROR_RESPONSE_HEADER : this.names.errorResponse;
  }

  private isLegacy(version: ProtocolVersion): boolean {
    return version.major < 2 && this.names.prefix.toLowerCase() === RESTLI_HEADER_PREFIX.toLowerCase();
  }
}

const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Text as an HTTP header value. Keys go into the id header raw (wire facts §7), and HTTP carries header
 * values as bytes that both ends read as Latin-1 (Node writes a string's characters as Latin-1 bytes and
 * refuses any other). So: text within Latin-1 goes out as it is (a Java peer reads `é` as `é`); text with
 * characters beyond it is sent as its UTF-8 bytes, which {@link fromHeaderValue} decodes (a Latin-1 reader
 * sees mojibake, where a servlet container would have written `?`); control characters, which would end
 * or split the header, become `%XX`.
 *
 * @example
 * ```ts
 * toHeaderValue('café');  // 'café' (bytes 63 61 66 E9)
 * toHeaderValue('東京');   // the UTF-8 bytes E6 9D B1 E4 BA AC, one character each
 * ```
 */
export function toHeaderValue(text: string): string {
  if (HEADER_SAFE.test(text)) return text;
  let out = '';
  const bytes = /[\u0100-\uffff]/.test(text) ? utf8Bytes(text) : latin1Bytes(text);
  for (const byte of bytes) {
    out +=
      (byte < 0x20 && byte !== 0x09) || byte === 0x7f
        ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
        : String.fromCharCode(byte);
  }
  return out;
}

/**
 * A header value as text: the inverse of {@link toHeaderValue}. HTTP clients and servers read header bytes
 * as Latin-1; bytes beyond ASCII that form valid UTF-8 are decoded as such, anything else is kept as read
 * (Latin-1 text such as `é` alone is not valid UTF-8).
 */
export function fromHeaderValue(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(latin1Bytes(value));
  } catch {
    return value;
  }
}

const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** True for an HTTP token (RFC 9110 §5.6.2): what a header name must be. */
export function isHttpToken(text: string): boolean {
  return HTTP_TOKEN.test(text);
}
