import type { FastifyReply } from 'fastify';
import type { EncodedResponse } from '../resources/request';
import { REPLY_READY_HEADERS, beyondAscii, ownSymbol } from './http-adapter';
import { responseBodyBytes, responseBodyToWrite } from '../resources/response-facts';

/**
 * svcPlugin's short way to write a plain response: `res.writeHead(status, headers)` and `res.end(body)` on
 * Node's response, the two calls fastify's `reply.send` ends in, when nothing fastify would add between them
 * can apply. `reply.send` for an already encoded body still costs, per response: a `reply.header` per header
 * (lower-casing, a set-cookie check), the content-type parse of `send`, the serializer, the onSend hook
 * runner and the content-length check (`Buffer.byteLength` of the body). Measured on the example's get by
 * id (CPU µs per request at a fixed 3 000 requests/s, server pinned to one core, minimum of 5 alternating
 * runs on a shared 2-core machine): bare fastify 55.0, svcPlugin through reply.send 75.0, written here 70.5
 * (medians 59.5, 76.2, 73.7).
 *
 * The response written is the one `reply.send` writes, byte for byte: the same header names (lower case,
 * in the same order, `content-length` last, computed as fastify does), the same status, the same body.
 * The short way is taken only when fastify would add nothing of its own:
 * - the route has no onSend hook (a plugin's compression, a hook rewriting bodies), no header was set on
 *   the reply (a CORS plugin's or a hook's `reply.header`), and no trailer;
 * - HTTP/1 (fastify writes HTTP/2 bodies in chunks of its own);
 * - a status with a body (not 1xx, 204 or 304), a body that is a string or bytes, and a content-type
 *   among the headers (fastify would otherwise add its own), no `set-cookie` (fastify merges those);
 * Otherwise, or when fastify's internals are not where this module looks for them (another fastify
 * version), the caller sends through `reply.send` as before. Nothing changes for hooks that watch
 * responses (onResponse, fastify's request log): they listen on Node's response, which ends the same way.
 */

/** fastify's per-reply and per-request internals this module reads, looked up once by description. */
interface Internals {
  readonly replyHeaders: symbol;
  readonly replyTrailers: symbol;
  readonly routeContext: symbol;
}

/** undefined until the first reply is seen; null when this fastify keeps them elsewhere (short way off). */
let internals: Internals | null | undefined;

function lookUp(reply: FastifyReply): Internals | null {
  const replyHeaders = ownSymbol(reply, 'fastify.reply.headers');
  const replyTrailers = ownSymbol(reply, 'fastify.reply.trailers');
  const routeContext = ownSymbol(reply.request, 'fastify.context');
  if (replyHeaders === undefined || replyTrailers === undefined || routeContext === undefined) return null;
  return { replyHeaders, replyTrailers, routeContext };
}

type Internal = Record<symbol, unknown>;

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

/** The last name lower-cased and its lower case: the observers add the same one or two on every response. */
let lastName = '';
let lastLowerCase = '';

function lowerCase(name: string): string {
  if (name !== lastName) {
    lastLowerCase = name.toLowerCase();
    lastName = name;
  }
  return lastLowerCase;
}

/**
 * Writes `out` straight to Node's response when fastify would send exactly that (see above) and says
 * whether it did; `extra` are the observers' headers, set after `out.headers` as `send` sets them.
 */
export function sendDirect(
  reply: FastifyReply,
  out: EncodedResponse,
  extra: { readonly [name: string]: string } | undefined,
): boolean {
  const status = out.status;
  let body = out.body;
  if (body === undefined || out.stream !== undefined || status < 200 || status === 204 || status === 304)
    return false;
  if (internals === undefined) internals = lookUp(reply);
  if (internals === null) return false;
  const replyHeaders = (reply as unknown as Internal)[internals.replyHeaders];
  const context = (reply.request as unknown as Internal)[internals.routeContext] as
    { onSend?: unknown } | undefined;
  if (
    typeof replyHeaders !== 'object' ||
    replyHeaders === null ||
    !isEmpty(replyHeaders) ||
    (reply as unknown as Internal)[internals.replyTrailers] !== null ||
    context === undefined ||
    context.onSend !== null ||
    reply.request.raw.httpVersionMajor !== 1
  )
    return false;
  // the pipeline's shared headers of a plain response are kept as reply.header() would keep them already
  // (lower-case ASCII, typed: http-adapter.ts): copied as they are, ~0.65k instructions less per response
  // than the loop below (callgrind over HTTP, the example's get by id)
  let headers: Record<string, string>;
  let latin1 = false;
  let typed = true;
  const copy = REPLY_READY_HEADERS.get(out.headers);
  if (copy !== undefined) {
    headers = copy() as Record<string, string>;
    // the observers' headers (a request id's echo) after them, as the loop below would set them: ~2k
    // instructions less than that loop over every header (callgrind, bench/runtime-observe's access log)
    if (extra !== undefined)
      for (const name in extra) {
        const key = lowerCase(name);
        if (key === 'set-cookie') return false;
        const value = extra[name]!;
        headers[key] = value;
        if (!latin1 && beyondAscii(value)) latin1 = true;
      }
  } else {
    // the headers as reply.header() keeps them: lower-case names, a later name replacing an earlier one
    headers = {};
    typed = false;
    for (const set of [out.headers, extra]) {
      if (set === undefined) continue;
      for (const name in set) {
        const key = name.toLowerCase();
        if (key === 'set-cookie') return false;
        if (key === 'content-type') typed = true;
        const value = set[name]!;
        headers[key] = value;
        if (!latin1 && beyondAscii(value)) latin1 = true;
      }
    }
  }
  if (!typed) return false;
  // a two-byte text of 1-8k chars goes out as its UTF-8 bytes, made once with its length
  // (response-facts.ts); any other text in one write with the headers, in the body's encoding, so that
  // headers with Latin-1 characters (a raw key in the id header) need it as bytes, as send() does
  let length: number;
  if (typeof body === 'string') {
    length = responseBodyBytes(out);
    body = responseBodyToWrite(out, body);
    if (typeof body === 'string' && latin1) body = Buffer.from(body, 'utf8');
  } else length = body.byteLength;
  // fastify keeps a content-length it is given only if it is the body's (and always for HEAD); it replaces
  // a wrong one in place, and adds a missing one last
  const given = headers['content-length'];
  if (given === undefined || (reply.request.raw.method !== 'HEAD' && Number(given) !== length))
    headers['content-length'] = String(length);
  const res = reply.raw;
  res.writeHead(status, headers);
  res.end(
    typeof body === 'string' || Buffer.isBuffer(body)
      ? body
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  );
  return true;
}
