import { Readable } from 'node:stream';
import type { JsonCodec } from '../data';
import { applyProjection, collectionMetadataMap, pagingLinks } from '../protocol';
import { ClientClosedError, HandlerTimeoutError } from '../resources/errors';
import { type ConnectionEvents, type EncodedResponse, responseCompleted } from '../resources/request';
import { DemandPuller, type DemandSource } from '../streams';
import type { BoundCall, Context } from './bind';
import { streamedElement } from './response-builder';

/** Elements asked of the source at a time: the most a streamed answer fetches ahead of the socket. */
export const STREAM_WINDOW = 256;

/** What {@link streamCollection} needs of the pipeline. */
export interface StreamedCollectionOptions {
  readonly codec: JsonCodec;
  /** The response headers (protocol version, content type). */
  readonly headers: { readonly [name: string]: string };
  /** The client's connection: its closing cancels the source. */
  readonly connection: ConnectionEvents | undefined;
  /** The method's timeout; reaching it mid-stream cancels the source and cuts the response off. */
  readonly timeoutMs: number | undefined;
  readonly label: string;
}

/**
 * A finder's or get_all's answer made with `withDemand` (issue 27), written as it is produced: the source is
 * asked for {@link STREAM_WINDOW} elements at a time, and for more only once the response stream has taken
 * the previous ones and wants more (the socket drained), so a slow client slows the source and memory stays
 * flat however long the collection. The method pages itself (`paging: true`: the source honours
 * `ctx.paging`), and the paging record comes after the elements, without a total.
 *
 * Until the first elements (or the end) have come, nothing is sent: a source that fails first is answered
 * with its ErrorResponse as always. Later, the status is sent already: a failure, the client going away or
 * the method's timeout cancel the source (a database query is cancelled on the server) and cut the response
 * off, which the client sees as a truncated body.
 */
export async function streamCollection(
  call: BoundCall,
  source: DemandSource<unknown>,
  options: StreamedCollectionOptions,
): Promise<EncodedResponse> {
  const ctx = call.invocation.ctx as Context;
  const controller = (ctx.abortController ??= new AbortController());
  const puller = new DemandPuller(source, STREAM_WINDOW);
  // set once the response stream exists (the abort listener may run before: during the first fetch)
  const held: { body?: Readable } = {};
  const onAbort = (): void => {
    const reason: unknown = controller.signal.reason;
    puller.cancel(reason);
    held.body?.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  };
  controller.signal.addEventListener('abort', onAbort, { once: true });
  const abort = (reason: Error): void => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () => abort(new HandlerTimeoutError(options.label, options.timeoutMs!)),
          options.timeoutMs,
        );
  const connection = options.connection;
  const onClose = (): void => {
    if (!responseCompleted(connection!)) abort(new ClientClosedError(options.label));
  };
  const cleanup = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    connection?.off('close', onClose);
    controller.signal.removeEventListener('abort', onAbort);
  };
  if (connection !== undefined) {
    if (connection.destroyed) onClose();
    else connection.once('close', onClose);
  }
  if (controller.signal.aborted) onAbort();
  const codec = options.codec;
  let count = 0;
  const encode = (batch: readonly unknown[]): string => {
    let text = '';
    for (const e of batch) {
      text += (count === 0 ? '' : ',') + codec.mapToString(streamedElement(call, e, count));
      count++;
    }
    return text;
  };
  let first: unknown[] | undefined;
  try {
    first = await puller.next();
  } catch (err) {
    cleanup();
    puller.cancel(err);
    throw err;
  }
  let ended = first === undefined;
  let head = `{"elements":[${first === undefined ? '' : encode(first)}`;
  const tail = (): string => {
    const { start, count: pageCount } = ctx.paging;
    const links = pagingLinks({
      requestUri: ctx.requestUri,
      start,
      count: pageCount,
      elementCount: count,
      total: undefined,
      type: ctx.responseType,
    });
    let paging = collectionMetadataMap({ start, count: pageCount, links });
    if (ctx.pagingProjection !== undefined) paging = applyProjection(paging, ctx.pagingProjection);
    return `],"paging":${codec.mapToString(paging)}}`;
  };
  let reading = false;
  const body = new Readable({
    read() {
      if (reading) return;
      if (head !== '') {
        const h = head;
        head = '';
        if (ended) {
          cleanup();
          this.push(h + tail());
          this.push(null);
          return;
        }
        this.push(h);
        return;
      }
      reading = true;
      puller.next().then(
        (batch) => {
          reading = false;
          if (this.destroyed) return;
          if (batch === undefined) {
            ended = true;
            cleanup();
            this.push(tail());
            this.push(null);
          } else {
            this.push(encode(batch));
          }
        },
        (err: unknown) => {
          reading = false;
          cleanup();
          this.destroy(err instanceof Error ? err : new Error(String(err)));
        },
      );
    },
    destroy(err, callback) {
      cleanup();
      // the client went away or the write failed: the source stops now (its teardown cancels its query)
      if (!ended) puller.cancel(err ?? new ClientClosedError(options.label));
      callback(err);
    },
  });
  held.body = body;
  return { status: 200, headers: options.headers, body: undefined, stream: body };
}
