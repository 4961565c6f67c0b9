import type { AttachmentReader } from '../streams/attachment-reader';
import { mediaTypeEssence } from '../streams/multipart/content-type';
import type { HttpRequest } from './build-request';
import {
  ClientOptionsError,
  type ResponseHeaders,
  RequestTimeoutError,
  ResponseTooLargeError,
  TransportError,
} from './errors';
import type { FetchLike } from './options';
import { type ClientAttachments, type RelatedRequestBody, clientPlatform } from './platform';

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
  /** How `multipart/related` messages are written and read; default {@link clientPlatform}(). */
  readonly platform?: ClientAttachments;
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
    // attachments not turned on (the browser entry's default): the caller's to fix, not the network's
    if (err instanceof ClientOptionsError) {
      controller.abort(err);
      return err;
    }
    if (abortedBy !== undefined) return abortedBy.reason;
    if (timedOut) return new RequestTimeoutError(url, options.timeoutMs);
    return new TransportError(url, err);
  };

  const platform = options.platform ?? clientPlatform();
  try {
    let response: Awaited<ReturnType<FetchLike>>;
    let related: RelatedRequestBody | undefined;
    try {
      if (request.attachments !== undefined) related = await platform.relatedBody(request);
      response = await options.fetch(url, {
        method: request.method,
        headers: related === undefined ? { ...request.headers } : related.headers,
        ...(related !== undefined
          ? { body: related.body, ...(related.duplex === undefined ? {} : { duplex: related.duplex }) }
          : request.body === undefined
            ? {}
            : { body: request.body }),
        signal: controller.signal,
        ...(Number.isFinite(limit) ? { maxResponseBytes: limit } : {}),
      });
    } catch (err) {
      related?.cancel(err instanceof Error ? err : new Error(String(err)));
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
      return await readRelated(platform, response, headers, type, limit, outcome);
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
 * A `multipart/related` response: its first part becomes the body (read whole, bounded by the limit) and
 * its Content-Type the response's, the parts after it an attachment reader that streams from the socket
 * (read it, or drain it, to free the connection).
 */
async function readRelated(
  platform: ClientAttachments,
  response: Awaited<ReturnType<FetchLike>>,
  headers: Record<string, string>,
  type: string,
  limit: number,
  outcome: (err: unknown) => unknown,
): Promise<RawResponse> {
  try {
    const parts = await platform.readRelated(response, type, limit);
    const out: Record<string, string> = { ...headers };
    delete out['content-length'];
    if (parts.contentType === undefined) delete out['content-type'];
    else out['content-type'] = parts.contentType;
    return {
      status: response.status,
      headers: Object.freeze(out),
      body: parts.body,
      ...(parts.attachments === undefined ? {} : { attachments: parts.attachments }),
    };
  } catch (err) {
    throw outcome(err);
  }
}
