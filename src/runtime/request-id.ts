import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyBaseLogger, LogController } from 'fastify';
import { type FastifyChildLoggerFactory, lazyChildLoggerFactory, lazyChildren } from './lazy-child-logger';
import type { RequestObserver, ResourceRequest } from '../resources';
import { noteAsciiHeaderValue } from '../resources/response-facts';

/**
 * Request ids: the `X-Request-Id` a client (or a proxy in front) sent, or a new one; echoed on the
 * response, written in the access log line and, through fastify's request logger, in every log line of
 * the request (error responses' logs included). The id lives in the request's own headers, so that every
 * layer that reads it (fastify's `genReqId`, the observer, the access log) sees the same one.
 */

/** Options of {@link requestIds} and {@link fastifyRequestIdOptions}. */
export interface RequestIdOptions {
  /** The header, lower case. Default `x-request-id`. */
  readonly header?: string;
  /**
   * Makes an id when the request has none (or an unusable one). Default {@link processUniqueId}: UUID-shaped,
   * a random prefix drawn once per process and a counter.
   */
  readonly generate?: () => string;
  /** Echo the id on the response. Default true. */
  readonly echo?: boolean;
}

/** The header a request id is read from and answered in, `x-request-id`. */
export const DEFAULT_REQUEST_ID_HEADER = 'x-request-id';

/** An id taken as sent: 1 to 200 visible ASCII characters (no spaces: it goes into log lines and headers). */
const USABLE_ID = /^[\x21-\x7e]{1,200}$/;

type MutableHeaders = { [name: string]: string | string[] | undefined };

/** The request's id (as {@link requestIds} or {@link fastifyRequestIdOptions} set it), if any. */
export function requestIdOf(
  request: Pick<ResourceRequest, 'headers'>,
  header = DEFAULT_REQUEST_ID_HEADER,
): string | undefined {
  const v = request.headers[header];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The random part of {@link processUniqueId}'s ids: the first 24 characters of a v4 UUID, drawn once.
 */
const ID_PREFIX = randomUUID().slice(0, 24);
let idCounter = 0;
/** The length of {@link processUniqueId}'s ids, a UUID's. */
const ID_LENGTH = 36;
/** The two hexadecimal digits of each byte. */
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** {@link ID_PREFIX} and the first 10 of the counter's 12 digits, for the counter's run of 256 `idHeadOf`. */
let idHead = '';
let idHeadOf = -1;
/** Where the last char of the last id goes, read to flatten it (see `processUniqueId`): a store V8 keeps. */
const flattenSink = new Uint16Array(1);

/**
 * A request id unique to this process and, with its random prefix, among processes: a v4 UUID's first 24
 * characters drawn once, then a 12-digit hexadecimal counter (`1b4e28ba-2fa1-41d2-883f-00000000002a`). It
 * costs a counter; `crypto.randomUUID` per request took ~1 µs (its entropy refills included) under load, 3-4%
 * of a small request (bench/runtime-observe). Ids made so are not secrets; nothing should rely on them being
 * unguessable.
 */
export function processUniqueId(): string {
  idCounter = (idCounter + 1) % 0x1000000000000;
  // the prefix and the counter's first 10 digits, one flat string made once per 256 ids, then the last 2
  // digits from a table: the counter's `toString(16)`, its padding and two joins per id were ~0.4k
  // instructions of the access log's ~10k (callgrind, bench/runtime-observe's access-log-standalone case)
  const high = Math.floor(idCounter / 256);
  if (high !== idHeadOf) {
    const h = high.toString(16);
    idHead = Buffer.from(ID_PREFIX + ('0000000000'.slice(h.length) + h), 'latin1').toString('latin1');
    idHeadOf = high;
  }
  const id = idHead + HEX2[idCounter - high * 256]!;
  // reading a char of the joined id makes V8 flatten it here, in place (the cheapest way measured, ~30 ns):
  // left joined, Node's test of the echoed header value flattened it in V8's runtime instead of the regular
  // expression's fast path, ~0.6k instructions a request (callgrind, bench/runtime-observe's
  // access-log-standalone case). Slices of a string of 256 ids cost less still, but each would keep its
  // 9 KiB block alive for as long as the application keeps the id.
  flattenSink[0] = id.charCodeAt(ID_LENGTH - 1);
  return (lastProcessUniqueId = id);
}

/** The id {@link processUniqueId} made last. */
let lastProcessUniqueId: string | undefined;

/**
 * Whether `id` is the one {@link processUniqueId} made last (hexadecimal digits and dashes: JSON needs no
 * escape in it). For the access log, which then writes the id of a request that came without one as it is;
 * any other string is not known so (false), and gets checked as any.
 */
export function isLastProcessUniqueId(id: string): boolean {
  return id === lastProcessUniqueId;
}

/**
 * The id {@link ensureId} took or made last. fastify's `genReqId` and the `requestIds` observer both ensure
 * the same request's id, one after the other: the second then finds the id the first left and need not
 * test it again (the test is a regular expression run, ~860 of the ~24 500 instructions the access-log case
 * added to a get by id: callgrind, bench/runtime-observe's access-log setup).
 */
let lastEnsured: string | undefined;

/** Takes the id of `headers`, or puts a new one there; returns it. */
function ensureId(headers: MutableHeaders, header: string, generate: () => string): string {
  const v = headers[header];
  if (typeof v === 'string' && (v === lastEnsured || USABLE_ID.test(v))) return (lastEnsured = v);
  const id = generate();
  headers[header] = id;
  // a generator of the application's own is not known to make usable ids: those are tested as any
  if (generate === processUniqueId) lastEnsured = id;
  return id;
}

function resolve(options: RequestIdOptions): { header: string; generate: () => string; echo: boolean } {
  const header = (options.header ?? DEFAULT_REQUEST_ID_HEADER).toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(header))
    throw new TypeError(`requestIds: bad header name '${header}'`);
  const generate = options.generate ?? processUniqueId;
  if (typeof generate !== 'function') throw new TypeError('requestIds: generate must be a function');
  return { header, generate, echo: options.echo ?? true };
}

/**
 * The observer that gives every request an id: the one it came with, else a new one (put in the request's
 * headers, where the access log and handlers read it: `ctx.headers['x-request-id']`), and echoes it on
 * the response. It needs no probe: it costs the header check and, for a request without an id, one UUID.
 * Put it first among the observers.
 */
export function requestIds(options: RequestIdOptions = {}): RequestObserver {
  const { header, generate, echo } = resolve(options);
  return {
    // the server's own logger binds the id from here (src/server/request-logger.ts)
    requestIdHeader: header,
    start(request) {
      const id = ensureId(request.headers as MutableHeaders, header, generate);
      if (echo) {
        // both adapters write these with the response's own headers (a multiplexed individual request has
        // none: its id goes back in its own envelope entry's headers only if a filter puts it there)
        const extra = request.responseHeaders;
        if (extra !== undefined) {
          extra[header] = id;
          // an id ensureId tested or made is ASCII: the adapter need not test it again (response-facts.ts)
          if (id === lastEnsured) noteAsciiHeaderValue(id);
        }
      }
      return undefined;
    },
  };
}

/**
 * fastify's log controller with its per-request lines off: the two it would write per request are not even
 * looked at (no `isLogDisabled` call per request); its other lines (errors it handles itself) are off too,
 * as with `disableRequestLogging`.
 */
class QuietRequests extends LogController {
  constructor() {
    super({ disableRequestLogging: true, requestIdLogLabel: 'reqId' });
  }
  override incomingRequest(): void {}
  override requestCompleted(): void {}
}

/** fastify server options of {@link fastifyRequestIdOptions}. */
interface FastifyRequestIdServerOptions {
  readonly requestIdHeader: false;
  readonly genReqId: (req: IncomingMessage) => string;
  readonly logController: LogController;
}

/**
 * fastify server options that make fastify's request id the same id (`request.id`, and `reqId` in every
 * line `request.log` writes), turn off fastify's own two lines per request (the access log writes one),
 * and make each request's logger on its first use (lazy-child-logger.ts). Give it the logger:
 * `fastify({ ...svcServerOptions(), ...fastifyRequestIdOptions({ loggerInstance }) })`: the options then
 * hold `loggerInstance` (the same logger, its children made lazily: {@link lazyChildren}), which costs
 * ~2.4k instructions a request less than the form without one,
 * `fastify({ ...fastifyRequestIdOptions(), loggerInstance })`, whose `childLoggerFactory` fastify checks
 * on every request (callgrind, bench/runtime-observe's access-log case).
 */
export function fastifyRequestIdOptions<L extends FastifyBaseLogger>(
  options: RequestIdOptions & { readonly loggerInstance: L },
): FastifyRequestIdServerOptions & { readonly loggerInstance: L };
export function fastifyRequestIdOptions(
  options?: RequestIdOptions,
): FastifyRequestIdServerOptions & { readonly childLoggerFactory: FastifyChildLoggerFactory };
export function fastifyRequestIdOptions(
  options: RequestIdOptions & { readonly loggerInstance?: FastifyBaseLogger } = {},
): FastifyRequestIdServerOptions & {
  readonly loggerInstance?: FastifyBaseLogger;
  readonly childLoggerFactory?: FastifyChildLoggerFactory;
} {
  const { header, generate } = resolve(options);
  const common = {
    requestIdHeader: false as const,
    genReqId: (req: IncomingMessage) => ensureId(req.headers, header, generate),
    logController: new QuietRequests(),
  };
  const logger = options.loggerInstance;
  return Object.freeze(
    logger === undefined
      ? { ...common, childLoggerFactory: lazyChildLoggerFactory }
      : { ...common, loggerInstance: lazyChildren(logger) },
  );
}
