import {
  MultipartFormatError,
  mediaTypeEssence,
  multipartBoundary,
  readMultipart,
} from '../streams/multipart';
import { TunnelingError } from '../resources/errors';
import type { RequestFilter, RequestHeaders, ResourceRequest } from '../resources/request';

/**
 * Query tunneling, the server side (wire facts §5.3): a `POST` carrying `X-HTTP-Method-Override` is turned
 * back into the request it stands for before anything else looks at it, so that handlers cannot tell a
 * tunneled request from a direct one. The plugin installs it first, always.
 */

/** `ctx.attributes` key set to `true` on a request that arrived tunneled (the reference's `IS_QUERY_TUNNELED`). */
export const IS_QUERY_TUNNELED = 'svc.isQueryTunneled';

/** The name the filter runs under. */
export const TUNNELING_FILTER_NAME = 'tunneling';

/** Options of {@link tunnelingFilter}. */
export interface TunnelingFilterOptions {
  /**
   * Largest restored query or body, in bytes (413 beyond). Default 1 MiB; the plugin passes its
   * `maxBodyBytes`, which already bounds the whole envelope.
   */
  readonly maxBodyBytes?: number;
}

const OVERRIDE = 'x-http-method-override';
const FORM = 'application/x-www-form-urlencoded';
const MIXED = 'multipart/mixed';
const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * The decode filter. The restored request:
 * - method: the override (exactly `GET POST PUT DELETE OPTIONS`; anything else, a wrong case included,
 *   is a 400, as is an override on a method other than POST);
 * - query: the form body, or the first form-urlencoded part of `multipart/mixed`, appended to the URI's
 *   query with `&` (after a bare `?`, nothing);
 * - body and Content-Type: the other part of `multipart/mixed`; none for a form body;
 * - headers: the same minus the override, `Content-Length` and the envelope's `Content-Type`. The method
 *   header (`X-Svc-Method`) is kept as sent: when it disagrees with the override, the request is judged as
 *   the same request sent directly would be (the override gives the HTTP method, routing does the rest).
 */
export function tunnelingFilter(options: TunnelingFilterOptions = {}): RequestFilter {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new RangeError(
      `tunnelingFilter: 'maxBodyBytes' must be a positive integer, got ${String(maxBodyBytes)}`,
    );
  return {
    name: TUNNELING_FILTER_NAME,
    // an override on any method is judged here (one on a GET is a 400), so no request with it is skipped
    requestOnlyWith: OVERRIDE,
    request: (request) => {
      const override = headerValue(request.headers, OVERRIDE);
      if (override === undefined) return request;
      return decodeTunneled(request, override, maxBodyBytes);
    },
  };
}

function headerValue(headers: RequestHeaders, name: string): string | readonly string[] | undefined {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  // the name's length first: every request without the override (all but tunneled ones) scanned its
  // headers with a lower-cased copy of each name (~0.1 µs per request, measured in-process)
  for (const key of Object.keys(headers))
    if (key.length === name.length && key.toLowerCase() === name) return headers[key];
  return undefined;
}

function decodeTunneled(
  request: ResourceRequest,
  override: string | readonly string[],
  maxBodyBytes: number,
): ResourceRequest | Promise<ResourceRequest> {
  if (typeof override !== 'string')
    throw new TunnelingError('SVC_ERR_TUNNEL_BAD_OVERRIDE', 'X-HTTP-Method-Override is given more than once');
  if (!METHODS.has(override))
    throw new TunnelingError(
      'SVC_ERR_TUNNEL_BAD_OVERRIDE',
      `Invalid HTTP method override header '${override.slice(0, 40)}': expected one of GET, POST, PUT, DELETE, OPTIONS`,
    );
  if (request.method !== 'POST')
    throw new TunnelingError(
      'SVC_ERR_TUNNEL_BAD_OVERRIDE',
      `X-HTTP-Method-Override is only honoured on POST, not on ${request.method}`,
    );
  const contentType = headerValue(request.headers, 'content-type');
  const body = request.body ?? new Uint8Array(0);
  if (contentType === undefined) {
    if (body.byteLength > 0)
      throw new TunnelingError(
        'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE',
        'a tunneled request body needs a Content-Type',
      );
    return restore(request, override, undefined, undefined);
  }
  if (typeof contentType !== 'string')
    throw new TunnelingError('SVC_ERR_TUNNEL_UNSUPPORTED_TYPE', 'Content-Type is given more than once');
  const essence = mediaTypeEssence(contentType);
  if (essence === FORM) {
    if (body.byteLength > maxBodyBytes) throw tooLarge('query', maxBodyBytes);
    return restore(request, override, queryText(body), undefined);
  }
  if (essence === MIXED) return decodeMixed(request, override, contentType, body, maxBodyBytes);
  throw new TunnelingError(
    'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE',
    `a tunneled request body must be ${FORM} or ${MIXED}, not '${essence.slice(0, 80)}'`,
  );
}

async function decodeMixed(
  request: ResourceRequest,
  override: string,
  contentType: string,
  body: Uint8Array,
  maxBodyBytes: number,
): Promise<ResourceRequest> {
  let boundary: string | undefined;
  try {
    boundary = multipartBoundary(contentType);
  } catch (e) {
    throw new TunnelingError('SVC_ERR_TUNNEL_MALFORMED', (e as Error).message, { cause: e });
  }
  if (boundary === undefined)
    throw new TunnelingError('SVC_ERR_TUNNEL_MALFORMED', `${MIXED} without a boundary parameter`);
  // three parts are read so that "more than two" is told apart from a broken envelope
  let parts;
  try {
    parts = await readMultipart(body, { boundary, maxParts: 3, maxPartBytes: maxBodyBytes });
  } catch (e) {
    if (e instanceof MultipartFormatError && e.code === 'SVC_ERR_TUNNEL_MULTIPART_TOO_LARGE')
      throw tooLarge('part', maxBodyBytes, e);
    if (e instanceof MultipartFormatError && /more than/.test(e.message))
      throw new TunnelingError(
        'SVC_ERR_TUNNEL_MALFORMED',
        'a tunneled multipart/mixed body has more than two parts',
        {
          cause: e,
        },
      );
    throw e;
  }
  if (parts.length > 2)
    throw new TunnelingError(
      'SVC_ERR_TUNNEL_MALFORMED',
      'a tunneled multipart/mixed body has more than two parts',
    );
  let query: string | undefined;
  let entity: { contentType: string; bytes: Uint8Array } | undefined;
  for (const part of parts) {
    const type = part.headers.get('content-type');
    if (type === undefined || type === '')
      throw new TunnelingError(
        'SVC_ERR_TUNNEL_UNSUPPORTED_TYPE',
        `part ${part.index} of the tunneled multipart/mixed body has no Content-Type`,
      );
    if (query === undefined && mediaTypeEssence(type) === FORM) query = queryText(part.body);
    else if (entity === undefined) entity = { contentType: type, bytes: part.body };
    else
      throw new TunnelingError(
        'SVC_ERR_TUNNEL_MALFORMED',
        'a tunneled multipart/mixed body has two query parts',
      );
  }
  if (query === undefined)
    throw new TunnelingError(
      'SVC_ERR_TUNNEL_MALFORMED',
      `a tunneled multipart/mixed body needs a ${FORM} part with the query`,
    );
  return restore(request, override, query, entity);
}

function tooLarge(what: string, max: number, cause?: unknown): TunnelingError {
  return new TunnelingError(
    'SVC_ERR_TUNNEL_TOO_LARGE',
    `the tunneled ${what} is larger than ${max} bytes`,
    cause === undefined ? undefined : { cause },
  );
}

/** The query bytes as sent: percent-encoded ASCII, taken byte for byte (never re-encoded). */
function queryText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function restore(
  request: ResourceRequest,
  method: string,
  tunneledQuery: string | undefined,
  entity: { contentType: string; bytes: Uint8Array } | undefined,
): ResourceRequest {
  let query = request.query;
  if (tunneledQuery !== undefined && tunneledQuery !== '')
    query = query === undefined || query === '' ? tunneledQuery : `${query}&${tunneledQuery}`;
  const q = request.url.indexOf('?');
  const base = q === -1 ? request.url : request.url.slice(0, q);
  const headers: Record<string, string | readonly string[] | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === OVERRIDE || lower === 'content-length' || lower === 'content-type') continue;
    headers[name] = value;
  }
  if (entity !== undefined) {
    headers['content-type'] = entity.contentType;
    headers['content-length'] = String(entity.bytes.byteLength);
  }
  const attributes = new Map(request.attributes);
  attributes.set(IS_QUERY_TUNNELED, true);
  const restored: ResourceRequest = {
    ...request,
    method,
    url: query === undefined ? base : `${base}?${query}`,
    query,
    headers,
    body: entity?.bytes,
    attributes,
  };
  urlPaths.set(restored, base);
  return restored;
}

/**
 * The target's path of each restored request (its URL up to `?`). A restored URL is the path and the
 * tunneled query joined without a copy; finding its `?` would copy the whole of it into one flat string
 * (~63 KB for 1 000 criteria), kept to the end of the request (issue 22).
 */
const urlPaths = new WeakMap<ResourceRequest, string>();

/** A request's URL up to its `?` (without reading the whole URL when the request was tunneled). */
export function urlPathOf(request: ResourceRequest): string {
  const known = urlPaths.get(request);
  if (known !== undefined) return known;
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}
