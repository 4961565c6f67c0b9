import { performance } from 'node:perf_hooks';
import pino, { type Logger } from 'pino';
import type {
  EncodedResponse,
  Invocation,
  RequestObserver,
  RequestProbe,
  ResourceRequest,
} from '../resources';
import { type ExcludeOption, excluder } from './exclude';
import { DEFAULT_REQUEST_ID_HEADER, isLastProcessUniqueId } from './request-id';
import { accessLineText, accessTarget, methodOf, plainAccessLine, wallClock } from './access-line';
import { LineWriter } from './line-writer';
// a body's length is remembered for the adapter, which writes the response next (response-facts.ts)
import { responseBodyBytes } from '../resources/response-facts';
import { markRequestStream, streamedBytes } from './streamed-bytes';

/**
 * One access-log line per request, written off the hot path: lines in pino's JSON form, buffered and
 * written in 64 KiB blocks by a {@link LineWriter} (not one `write(2)` per line, and not pino's
 * sonic-boom destination, which cost ~4 µs a line: line-writer.ts), rather than fastify's own request
 * logging (two lines per request through its logger).
 * Turn fastify's off (`disableRequestLogging`, see {@link fastifyRequestIdOptions}).
 *
 * ```ts
 * const accessLog = createAccessLog(); // stdout
 * await app.register(svcPlugin, { resources, observers: [requestIds(), accessLog.observer] });
 * // on shutdown, after the server closed:
 * await accessLog.flush();
 * ```
 *
 * A line: `{"level":30,"time":...,"reqId":"…","http":"GET","url":"/photos/1","resource":"photos",
 * "method":"get","status":200,"ms":0.41,"bytesIn":0,"bytesOut":312,"msg":"request"}`; an error response
 * adds `"error":"<name>"` and `"code"` when the error has one.
 */

/** Options of {@link createAccessLog}; defaults in {@link DEFAULT_ACCESS_LOG_OPTIONS}. */
export interface AccessLogOptions {
  /**
   * Write through this pino logger (the application's, say) instead of a logger of our own. It should
   * write to an asynchronous destination too, or the lines cost what fastify's do.
   */
  readonly logger?: Logger;
  /** Where our own logger writes: a file descriptor or a path. Default 1 (stdout). */
  readonly destination?: number | string;
  /** Bytes gathered before a write, for our own destination (line-writer.ts). Default 65 536. */
  readonly blockBytes?: number;
  /** Milliseconds a line may wait for its block, for our own destination. Default 200. */
  readonly flushMs?: number;
  /**
   * Most bytes waiting for a slow destination, for our own destination; lines past it are dropped and
   * counted (line-writer.ts). Default 16 MiB.
   */
  readonly maxQueuedBytes?: number;
  /** Requests not logged (health checks, the scrape): paths, or a test of the path. */
  readonly exclude?: ExcludeOption;
  /** The request id header ({@link requestIds}). Default `x-request-id`. */
  readonly requestIdHeader?: string;
}

/** The defaults of `createAccessLog`: standard output, 64 KiB blocks, flushed after 200 ms, 16 MiB held at most. */
export const DEFAULT_ACCESS_LOG_OPTIONS = Object.freeze({
  destination: 1,
  blockBytes: 65_536,
  flushMs: 200,
  maxQueuedBytes: 16 * 1024 * 1024,
});

/** An access log: the observer for the server, and the flush the graceful shutdown calls. */
export interface AccessLog {
  readonly observer: RequestObserver;
  readonly logger: Logger;
  /** Writes out what is buffered; resolves once written. */
  flush(): Promise<void>;
  /** Flushes, then closes our own destination (a logger given in the options is only flushed). */
  close(): Promise<void>;
}

/** Creates an access log (see the file comment). */
export function createAccessLog(options: AccessLogOptions = {}): AccessLog {
  const own = options.logger === undefined;
  const destination = own
    ? new LineWriter(options.destination ?? DEFAULT_ACCESS_LOG_OPTIONS.destination, {
        blockBytes: options.blockBytes ?? DEFAULT_ACCESS_LOG_OPTIONS.blockBytes,
        flushMs: options.flushMs ?? DEFAULT_ACCESS_LOG_OPTIONS.flushMs,
        maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_ACCESS_LOG_OPTIONS.maxQueuedBytes,
      })
    : undefined;
  // a pino logger over the same writer, for whoever wants to add lines of their own
  const logger = options.logger ?? pino({ base: undefined }, destination);
  const excluded = excluder(options.exclude);
  const idHeader = (options.requestIdHeader ?? DEFAULT_REQUEST_ID_HEADER).toLowerCase();

  class Probe implements RequestProbe {
    invocation: Invocation | undefined;
    readonly readMark: number | undefined;
    constructor(
      readonly request: ResourceRequest,
      readonly started: number,
    ) {
      this.readMark = request.bodyStream === undefined ? undefined : markRequestStream(request);
    }
    routed(invocation: Invocation): void {
      this.invocation = invocation;
    }
    finished(response: EncodedResponse, error: unknown): void {
      // in hundredths of a millisecond, written as milliseconds by `write`
      const now = performance.now();
      const ms = Math.round((now - this.started) * 100);
      const request = this.request;
      if (request.bodyStream !== undefined || response.stream !== undefined) {
        streamedBytes(request, this.readMark, response, (bytesIn, bytesOut) =>
          this.write(response, error, ms, bytesIn, bytesOut + responseBodyBytes(response), performance.now()),
        );
      } else {
        this.write(response, error, ms, request.body?.byteLength ?? 0, responseBodyBytes(response), now);
      }
    }
    /** `now`: `performance.now()` when the line is written. */
    write(
      response: EncodedResponse,
      error: unknown,
      hundredths: number,
      bytesIn: number,
      bytesOut: number,
      now: number,
    ): void {
      const request = this.request;
      const inv = this.invocation;
      const id = request.headers[idHeader];
      let errorName: string | undefined;
      let code: string | undefined;
      if (error !== undefined && error !== null) {
        const e = error as { name?: unknown; code?: unknown };
        errorName = typeof e.name === 'string' ? e.name : typeof error;
        if (typeof e.code === 'string') code = e.code;
      }
      if (destination === undefined) {
        logger.info(
          {
            reqId: typeof id === 'string' ? id : undefined,
            http: request.method,
            url: request.url,
            resource: inv?.resource.path,
            method: inv === undefined ? undefined : methodOf(inv),
            status: response.status,
            ms: hundredths / 100,
            bytesIn,
            bytesOut,
            error: errorName,
            code,
          },
          'request',
        );
        return;
      }
      // our own writer: the line pino would write, built directly, not through pino's generic serializer
      // (access-line.ts), from cached parts when it can be
      const time = wallClock(now);
      const idText = typeof id === 'string' ? id : undefined;
      const target = inv === undefined ? undefined : accessTarget(inv);
      if (errorName === undefined) {
        const line = plainAccessLine(
          time,
          idText,
          idText !== undefined && isLastProcessUniqueId(idText),
          request.method,
          request.url,
          target,
          response.status,
          hundredths,
          bytesIn,
          bytesOut,
        );
        if (line !== undefined) {
          destination.write(line, true);
          return;
        }
      }
      destination.write(
        accessLineText(
          time,
          idText,
          request.method,
          request.url,
          target,
          response.status,
          hundredths,
          bytesIn,
          bytesOut,
          errorName,
          code,
        ),
      );
    }
  }

  const observer: RequestObserver = {
    start(request) {
      if (destination === undefined && !logger.isLevelEnabled('info')) return undefined;
      if (excluded !== undefined && excluded(request)) return undefined;
      return new Probe(request, performance.now());
    },
  };

  const flush = (): Promise<void> =>
    destination !== undefined
      ? destination.flush()
      : new Promise((resolve) => {
          logger.flush(() => resolve());
        });
  return Object.freeze({
    observer,
    logger,
    flush,
    async close() {
      if (destination !== undefined) await destination.close();
      else await flush();
    },
  });
}
