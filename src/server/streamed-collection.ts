import { Readable } from 'node:stream';
import type { DataMap, JsonCodec } from '../data';
import { applyProjection, collectionMetadataMap, pagingLinks } from '../protocol';
import { ClientClosedError, HandlerTimeoutError } from '../resources/errors';
import { type ConnectionEvents, type EncodedResponse, responseCompleted } from '../resources/request';
import { DemandPuller, type DemandSource } from '../streams';
import type { BoundCall, Context } from './bind';
import { streamedElement } from './response-builder';

/**
 * Elements asked of the source at a time, at most. A streamed answer holds two such batches ahead of the
 * socket at most: one written, the next being fetched.
 */
export const STREAM_WINDOW = 1024;
/** The first batch: small, so that the status and the first elements go out after a short fetch. */
export const FIRST_BATCH = 64;
/**
 * What a batch's JSON aims at: batches are sized from the elements' encoded length so far, so that each
 * socket write carries ~64 KB whatever the rows' width (1,000-character rows are asked for ~60 at a time,
 * 90-byte ones ~730). Batches of 256 rows (23 KB) cost the PostgreSQL export 3.7-5.1 µs of server CPU a row
 * and 0.29× a bare cursor's rows/s; sized so, 2.5-2.8 µs and 0.55× (the machine loaded; with the rest of
 * this file and the cursor's read-ahead, 0.72-0.74×: src/postgres/README.md, "Figures").
 */
export const BATCH_BYTES = 64 * 1024;

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
 * asked for a batch of elements at a time ({@link FIRST_BATCH}, then ~{@link BATCH_BYTES} of JSON, at most
 * {@link STREAM_WINDOW}), the next one while the previous one is written, and for more only once the
 * response stream has taken the previous ones and wants more (the socket drained), so a slow client slows
 * the source and memory stays flat however long the collection. The method pages itself (`paging: true`: the source honours
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
  let chars = 0;
  const encode = (batch: readonly unknown[]): string => {
    if (batch.length === 0) return '';
    const lead = count === 0 ? '' : ',';
    const maps = new Array<DataMap>(batch.length);
    for (let i = 0; i < batch.length; i++) maps[i] = streamedElement(call, batch[i], count++);
    // one JSON.stringify per batch, not per element (json-codec.ts mapsToString): the same bytes
    const text = lead + codec.mapsToString(maps);
    chars += text.length;
    return text;
  };
  /** The next batch's size: what makes ~BATCH_BYTES at the mean encoded length so far. */
  const nextSize = (): number =>
    Math.max(1, Math.min(STREAM_WINDOW, Math.floor((BATCH_BYTES * count) / Math.max(1, chars))));
  let first: unknown[] | undefined;
  try {
    first = await puller.next(FIRST_BATCH);
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
  // The next batch, asked for as soon as the previous one arrived, so the source (a database) fetches it
  // while the socket writes the previous one: without it, each batch's round trip to the database and each
  // socket drain took turns, and the server sat idle 60-70% of a PostgreSQL export. At most one batch is so
  // fetched ahead of what the response stream took.
  let ahead: Promise<unknown[] | undefined> | undefined;
  const fetchAhead = (): void => {
    ahead = puller.next(nextSize());
    // consumed by read() below; a cancel before that must not count as an unhandled rejection
    ahead.catch(() => undefined);
  };
  if (!ended) fetchAhead();
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
      const next = ahead ?? puller.next(nextSize());
      ahead = undefined;
      next.then(
        (batch) => {
          reading = false;
          if (this.destroyed) return;
          if (batch === undefined) {
            ended = true;
            cleanup();
            this.push(tail());
            this.push(null);
          } else {
            // the fetch first (sized from the batches before this one), so it runs while this one encodes
            fetchAhead();
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
