import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  LEGACY_ERROR_RESPONSE_HEADER,
  LEGACY_ID_HEADER,
  RESTLI_HEADER_PREFIX,
  protocolHeaderNames,
} from '../protocol';
import { SvcPluginOptionsError } from '../resources/errors';

/**
 * Cross-origin calls to the standalone server (`createSvcServer({ cors })`): what a web page of another
 * origin needs to call the service with the typed client (`svc-framework/client`). The fastify plugin
 * leaves this to `@fastify/cors` (src/client/README.md, "CORS"); the standalone server has no plugin
 * system, so it answers the CORS protocol (the Fetch standard's CORS section) itself, in front of the
 * pipeline:
 *
 * - a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered here, 204, and
 *   never reaches a resource (a resource's own `OPTIONS` description is an `OPTIONS` without
 *   `Access-Control-Request-Method`); from an origin not allowed, 403 without CORS headers;
 * - any other request from an allowed origin gets `Access-Control-Allow-Origin` (and the exposed headers,
 *   credentials) on whatever the pipeline answers, errors included, so that the page can read an
 *   ErrorResponse; from an origin not allowed it is served as it would be without CORS, with no CORS
 *   headers, so the browser withholds the answer from the page.
 */
export interface SvcCorsOptions {
  /**
   * The origins allowed: `'*'` (any origin), one origin or a list (`'https://app.example.com'`, compared
   * exactly with the request's `Origin`), or a function deciding per origin. Required.
   */
  readonly origin: string | readonly string[] | ((origin: string) => boolean);
  /**
   * Allow credentials (cookies, HTTP authentication): `Access-Control-Allow-Credentials: true`. The
   * request's origin is then echoed even with `origin: '*'` (browsers refuse `*` with credentials).
   * Default false.
   */
  readonly credentials?: boolean;
  /**
   * Response headers a page may read, besides the CORS-safelisted ones. Default: the protocol headers of
   * the server's prefix (`<prefix>-Protocol-Version`, `-Id`, `-Error-Response`, `-Method`; with the
   * `X-RestLi` prefix also the 1.0.0 names `X-LinkedIn-Id` and `X-LinkedIn-Error-Response`), `Location`
   * and `Content-Encoding`. Given, it replaces the default: start from {@link defaultExposedHeaders}.
   */
  readonly exposedHeaders?: readonly string[];
  /**
   * Request headers a page may send. Default: whatever the preflight asks for
   * (`Access-Control-Request-Headers` echoed), as the protocol's headers, `Content-Type` and
   * `Authorization` all need allowing.
   */
  readonly allowedHeaders?: readonly string[];
  /** Methods a page may use. Default GET, HEAD, POST, PUT, PATCH, DELETE. */
  readonly methods?: readonly string[];
  /**
   * How long a browser may cache a preflight's answer, in seconds (`Access-Control-Max-Age`). Default 600;
   * 0 sends no header (the browser's own default, 5 s in Chromium, applies).
   */
  readonly maxAge?: number;
}

const DEFAULT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const DEFAULT_MAX_AGE = 600;

/** The headers a page may read by default: the protocol's, `Location` and `Content-Encoding`. */
export function defaultExposedHeaders(headerPrefix?: string): string[] {
  const names = protocolHeaderNames(headerPrefix);
  const out = [names.protocolVersion, names.id, names.errorResponse, names.method];
  if (names.prefix.toLowerCase() === RESTLI_HEADER_PREFIX.toLowerCase())
    out.push(LEGACY_ID_HEADER, LEGACY_ERROR_RESPONSE_HEADER);
  out.push('Location', 'Content-Encoding');
  return out;
}

/**
 * Answers the CORS side of a request on the standalone server: true when it answered the request itself
 * (a preflight), false when the request goes on to the pipeline (with CORS headers set on `res` when its
 * origin is allowed).
 */
export type CorsHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The CORS handler of `options` for a server writing protocol headers under `headerPrefix`.
 * @throws SvcPluginOptionsError for an option it cannot use.
 */
export function corsHandler(options: SvcCorsOptions, headerPrefix?: string): CorsHandler {
  if (typeof options !== 'object' || options === null)
    throw new SvcPluginOptionsError('cors', 'must be an object');
  const allowed = originTest(options.origin);
  const credentials = options.credentials ?? false;
  if (typeof credentials !== 'boolean')
    throw new SvcPluginOptionsError('cors.credentials', 'must be a boolean');
  const maxAge = options.maxAge ?? DEFAULT_MAX_AGE;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0)
    throw new SvcPluginOptionsError('cors.maxAge', 'must be a non-negative integer of seconds');
  const exposed = headerList(
    'cors.exposedHeaders',
    options.exposedHeaders ?? defaultExposedHeaders(headerPrefix),
  );
  const methods = headerList('cors.methods', options.methods ?? DEFAULT_METHODS);
  const allowedHeaders =
    options.allowedHeaders === undefined
      ? undefined
      : headerList('cors.allowedHeaders', options.allowedHeaders);
  // with '*' and no credentials, every answer is the same whatever the origin: no Vary needed
  const anyOrigin = options.origin === '*' && !credentials;

  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined) return false;
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!anyOrigin) res.setHeader('vary', preflight ? 'Origin, Access-Control-Request-Headers' : 'Origin');
    if (!allowed(origin)) {
      if (!preflight) return false;
      res.writeHead(403, { 'content-length': '0' }).end();
      req.resume();
      return true;
    }
    res.setHeader('access-control-allow-origin', anyOrigin ? '*' : origin);
    if (credentials) res.setHeader('access-control-allow-credentials', 'true');
    if (!preflight) {
      if (exposed !== '') res.setHeader('access-control-expose-headers', exposed);
      return false;
    }
    res.setHeader('access-control-allow-methods', methods);
    const asked = req.headers['access-control-request-headers'];
    const headers = allowedHeaders ?? asked;
    if (headers !== undefined && headers !== '') res.setHeader('access-control-allow-headers', headers);
    if (maxAge > 0) res.setHeader('access-control-max-age', String(maxAge));
    res.writeHead(204, { 'content-length': '0' }).end();
    req.resume();
    return true;
  };
}

function originTest(origin: SvcCorsOptions['origin']): (origin: string) => boolean {
  if (typeof origin === 'function') return origin;
  if (origin === '*') return () => true;
  const list: readonly unknown[] =
    typeof origin === 'string' ? [origin] : Array.isArray(origin) ? origin : [];
  if (list.length === 0 || !list.every((o) => typeof o === 'string' && o !== ''))
    throw new SvcPluginOptionsError(
      'cors.origin',
      "must be '*', an origin, a non-empty list of origins or a function of the origin",
    );
  const set = new Set(list as string[]);
  return (o) => set.has(o);
}

function headerList(option: string, names: readonly string[]): string {
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string' && /^[!#$%&'*+.^_`|~\w-]+$/.test(n)))
    throw new SvcPluginOptionsError(option, 'must be a list of header names (or methods)');
  return names.join(', ');
}
