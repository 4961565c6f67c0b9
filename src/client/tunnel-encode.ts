import { latin1Bytes } from '../data/bytes';
import { makeMultipartBoundary } from '../streams/multipart/boundary';
import { writeMultipart } from '../streams/multipart/writer';
import type { HttpRequest } from './build-request';
import { RequestBuildError } from './errors';

/**
 * Query tunneling, the client side (wire facts §5.1–5.2): a request whose query is long (or that is forced)
 * goes out as a `POST` with the query in the body and the real method in `X-HTTP-Method-Override`, so that
 * long `ids=List(...)` and batch-finder criteria fit, and identifiers stay out of URIs and access logs.
 */

/**
 * Default threshold, in characters of the percent-encoded query (without `?`): 4096. The reference ships
 * tunneling off; we turn it on well under what Node's server (16 KiB of headers) and proxies accept.
 */
export const DEFAULT_QUERY_TUNNEL_THRESHOLD = 4096;

/** When to tunnel one request. */
export interface TunnelPolicy {
  /** Tunnel whatever the query length (the reference's `FORCE_QUERY_TUNNEL`). */
  readonly force: boolean;
  /** Tunnel when the query has at least this many characters; `false`: never by length. */
  readonly threshold: number | false;
}

/** Validates a threshold option (`ClientOptions.queryTunnelThreshold`, per request the same). */
export function isQueryTunnelThreshold(value: unknown): value is number | false {
  return (
    value === false ||
    value === Number.POSITIVE_INFINITY ||
    (Number.isSafeInteger(value) && (value as number) > 0)
  );
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * The request as it is sent under `policy`: unchanged, or tunneled. A request is tunneled when its query is
 * not empty and either `policy.force` or its length `>=` the threshold. The tunneled form:
 * - no body: `POST` to the URL without its query, `Content-Type: application/x-www-form-urlencoded`, the
 *   query as the body byte for byte;
 * - a body: `POST`, `multipart/mixed` with exactly two parts, the query (form-urlencoded) then the body
 *   under its own Content-Type, with a random boundary found neither in the parts nor in the URL;
 * - `X-HTTP-Method-Override: <original method>`, `Content-Length`, every other header kept.
 * Pure: the same request in, an equivalent request out (boundaries are random).
 *
 * @throws RequestBuildError for a body without a Content-Type, or a forced request with attachments (a
 *   streamed `multipart/related` body is not tunneled; a long one is sent as it is)
 */
export function tunnelRequest(request: HttpRequest, policy: TunnelPolicy): HttpRequest {
  const q = request.url.indexOf('?');
  if (q === -1 || q === request.url.length - 1) return request;
  const query = request.url.slice(q + 1);
  const tunnel = policy.force || (policy.threshold !== false && query.length >= policy.threshold);
  if (!tunnel) return request;
  if (request.attachments !== undefined) {
    if (!policy.force) return request;
    throw new RequestBuildError('a request with attachments cannot be tunneled');
  }
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-type') contentType = value;
    else if (lower !== 'content-length' && lower !== 'x-http-method-override') headers[name] = value;
  }
  const url = request.url.slice(0, q);
  const uq = request.uri.indexOf('?');
  const uri = uq === -1 ? request.uri : request.uri.slice(0, uq);
  let body: Uint8Array;
  const queryBytes = latin1Bytes(query);
  if (request.body === undefined || request.body.byteLength === 0) {
    headers['Content-Type'] = FORM;
    body = queryBytes;
  } else {
    if (contentType === undefined)
      throw new RequestBuildError('a request body without a Content-Type cannot be tunneled');
    const boundary = makeMultipartBoundary([request.body, request.url]);
    body = writeMultipart(boundary, [
      { headers: { 'Content-Type': FORM }, body: queryBytes },
      { headers: { 'Content-Type': contentType }, body: request.body },
    ]);
    headers['Content-Type'] = `multipart/mixed; boundary="${boundary}"`;
  }
  headers['X-HTTP-Method-Override'] = request.method;
  headers['Content-Length'] = String(body.byteLength);
  return { ...request, method: 'POST', url, uri, headers, body };
}
