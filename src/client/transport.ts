import { Readable } from 'node:stream';
import { type AttachmentReader, decodeRelated, encodeRelated, mediaTypeEssence } from '../streams';
import type { HttpRequest } from './build-request';
import { type ResponseHeaders, RequestTimeoutError, ResponseTooLargeError, TransportError } from './errors';
import type { FetchLike } from './options';

/** A response as received: status, headers (lower-case names) and the whole body. */
export interface RawResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The whole body; of a `multipart/related` response, its first part (and `content-type` is that part's). */
  readonly body: Uint8Array;
  /** The attachments of a `multipart/related` response, streaming in; undefined otherwise. */
  readonly attachments?: AttachmentReader;
}

/** How {@link sendHttp} sends. */
export interface TransportOptions {
  readonly fetch: FetchLike;
  /** For the whole exchange, body included; `Infinity` for none. */
  readonly timeoutMs: number;
  /** The largest body read (default: no limit); see `ClientOptions.maxResponseBytes`. */
  readonly maxResponseBytes?: number;
  /** Signals that abort the request (the client's, the request's); any of them aborting is enough. */
  readonly signals?: readonly (AbortSignal | undefined)[];
}

/**
 * Sends `request` and reads the whole response body. Whatever the fetch implementation throws is sorted
 * into the client's three outcomes:
 *
 * - a signal aborted: the promise rejects with that signal's `reason` (as `fetch` does), also when it was
 *   aborted before the call;
 * - the timeout passed: {@link RequestTimeoutError} (the request is aborted, so the socket is released);
 * - anything else (connection refused or reset, DNS, a body cut short): {@link TransportError} with the
 *   fetch error as `cause`.
 *
 * The decision is made from the client's own state, not from the error's shape, so an injected fetch that
 * rejects with an error of its own still gives the same outcomes.
 */
export async function sendHttp(request: HttpRequest, options: TransportOptions): Promise<RawResponse> {
  const { url } = request;
  const signals = (options.signals ?? []).filter((s): s is AbortSignal => s !== undefined);
  for (const s of signals) if (s.aborted) throw s.reason;

  const controller = new AbortController();
  let abortedBy: AbortSignal | undefined;
  let timedOut = false;
  const listeners: Array<() => void> = [];
  for (const s of signals) {
    const onAbort = (): void => {
      abortedBy ??= s;
      controller.abort(s.reason);
    };
    s.addEventListener('abort', onAbort, { once: true });
    listeners.push(() => s.removeEventListener('abort', onAbort));
  }
  const timer = Number.isFinite(options.timeoutMs)
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new RequestTimeoutError(url, options.timeoutMs));
      }, options.timeoutMs)
    : undefined;

  const limit = options.maxResponseBytes ?? Number.POSITIVE_INFINITY;
  const tooLarge = (): ResponseTooLargeError => {
    const err = new ResponseTooLargeError(url, limit);
    controller.abort(err);
    return err;
  };
  const outcome = (err: unknown): unknown => {
    if (err instanceof ResponseTooLargeError) return err;
    if (abortedBy !== undefined) return abortedBy.reason;
    if (timedOut) return new RequestTimeoutError(url, options.timeoutMs);
    return new TransportError(url, err);
  };

  try {
    let response: Awaited<ReturnType<FetchLike>>;
    const related = request.attachments === undefined ? undefined : relatedBody(request);
    try {
      response = await options.fetch(url, {
        method: request.method,
        headers: related === undefined ? { ...request.headers } : related.headers,
        ...(related !== undefined
          ? { body: related.body, duplex: 'half' as const }
          : request.body === undefined
            ? {}
            : { body: request.body }),
        signal: controller.signal,
        ...(Number.isFinite(limit) ? { maxResponseBytes: limit } : {}),
      });
    } catch (err) {
      related?.body.destroy();
      throw outcome(err);
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      const lower = name.toLowerCase();
      const prev = headers[lower];
      headers[lower] = prev === undefined ? value : `${prev}, ${value}`;
    });
    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) throw tooLarge();
    const type = headers['content-type'];
    if (type !== undefined && mediaTypeEssence(type) === 'multipart/related' && response.status < 300) {
      return await readRelated(response, headers, type, limit, outcome);
    }
    let body: Uint8Array;
    try {
      body = new Uint8Array(await response.arrayBuffer());
    } catch (err) {
      throw outcome(err);
    }
    if (body.byteLength > limit) throw tooLarge();
    // an abort that raced the last chunk still wins: the caller asked to stop
    if (abortedBy !== undefined) throw abortedBy.reason;
    return { status: response.status, headers: Object.freeze(headers), body };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    for (const remove of listeners) remove();
  }
}

/**
 * The envelope of a request with attachments: the body as the first part under its own Content-Type, the
 * attachments after it, streamed as the socket drains (`encodeRelated`).
 */
function relatedBody(request: HttpRequest): { headers: Record<string, string>; body: Readable } {
  const headers: Record<string, string> = {};
  let payloadType = 'application/json';
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') payloadType = value;
    else headers[name] = value;
  }
  const message = encodeRelated(
    { contentType: payloadType, bytes: request.body ?? new Uint8Array(0) },
    request.attachments ?? [],
  );
  headers['Content-Type'] = message.contentType;
  return { headers, body: message.body };
}

/**
 * A `multipart/related` response: its first part becomes the body (read whole, bounded by the limit) and
 * its Content-Type the response's, the parts after it an attachment reader that streams from the socket
 * (read it, or drain it, to free the connection).
 */
async function readRelated(
  response: Awaited<ReturnType<FetchLike>>,
  headers: Record<string, string>,
  type: string,
  limit: number,
  outcome: (err: unknown) => unknown,
): Promise<RawResponse> {
  let source: Readable;
  try {
    source =
      response.stream !== undefined
        ? response.stream()
        : Readable.from([new Uint8Array(await response.arrayBuffer())]);
  } catch (err) {
    throw outcome(err);
  }
  try {
    const related = decodeRelated(source, type, Number.isFinite(limit) ? { maxPayloadBytes: limit } : {});
    const payload = await related.payload;
    const attachments = await related.attachments;
    const out: Record<string, string> = { ...headers };
    delete out['content-length'];
    if (payload.contentType === undefined) delete out['content-type'];
    else out['content-type'] = payload.contentType;
    return {
      status: response.status,
      headers: Object.freeze(out),
      body: payload.bytes,
      ...(attachments === undefined ? {} : { attachments }),
    };
  } catch (err) {
    source.destroy();
    throw outcome(err);
  }
}
