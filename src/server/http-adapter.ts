import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../protocol';
import type { EncodedResponse, SvcLogger } from '../resources/request';
import { isNotedAscii } from '../resources/response-facts';
import type { ResourcePipeline } from './pipeline';

/**
 * What both HTTP adapters (the fastify plugin, plugin.ts, and the standalone `node:http` server,
 * node-server.ts) do alike at the level of Node's `http.Server`: answering `Expect` headers and half-closed
 * connections in the protocol's way, and writing an encoded response on a bare `ServerResponse`.
 */

/** Request attributes when no filter set any (shared: never written to). */
export const EMPTY_ATTRIBUTES: ReadonlyMap<string | symbol, unknown> = new Map();

// eslint-disable-next-line no-control-regex -- any byte beyond ASCII
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Whether a response header value holds characters beyond ASCII, which decides how an adapter writes the
 * body. A value an observer noted ASCII (a request id it tested or made: response-facts.ts) is not tested
 * again.
 */
export function beyondAscii(value: string): boolean {
  return !isNotedAscii(value) && NON_ASCII.test(value);
}

/** Makes a writable copy of a shared header object (its names and values, in its order). */
export type HeadersCopier = () => { [name: string]: string | number };

/**
 * Header objects the pipeline shares between responses (the plain responses' version and content type,
 * frozen) whose values are known to be ASCII: an adapter writes them without testing each value again. Each
 * maps to the function that copies it for a response ({@link literalCopier}).
 */
export const ASCII_HEADERS = new WeakMap<object, HeadersCopier>();

/**
 * Shared header objects of {@link ASCII_HEADERS} whose names are also lower case, with a content type and
 * neither `content-length` nor `set-cookie`: the headers as fastify's `reply.header` would keep them, which
 * the plugin's short way copies as they are (fastify-direct-send.ts), with the same copier.
 */
export const REPLY_READY_HEADERS = new WeakMap<object, HeadersCopier>();

/** `headers`, frozen and noted in {@link ASCII_HEADERS} (and {@link REPLY_READY_HEADERS}) as they qualify. */
export function sharedHeaders(headers: { [name: string]: string }): { readonly [name: string]: string } {
  const frozen = Object.freeze(headers);
  let ascii = true;
  let lower = true;
  let typed = false;
  for (const name in frozen) {
    if (NON_ASCII.test(frozen[name]!)) ascii = false;
    const key = name.toLowerCase();
    if (key !== name || key === 'content-length' || key === 'set-cookie') lower = false;
    if (key === 'content-type') typed = true;
  }
  if (!ascii) return frozen;
  const copier = literalCopier(frozen);
  ASCII_HEADERS.set(frozen, copier);
  if (lower && typed) REPLY_READY_HEADERS.set(frozen, copier);
  return frozen;
}

/**
 * A function that copies `frozen` as an object literal of its names and values, made once per shared
 * header object: V8 clones a frozen object's properties the slow way, and spreading one cost ~0.7k
 * instructions per response (callgrind over HTTP, the example's get through either adapter); the literal
 * takes ~3 ns (in-process). The spread serves where code cannot be made from text (a policy against
 * `Function`) and for a `__proto__` name, which a literal would take for the prototype.
 */
function literalCopier(frozen: { readonly [name: string]: string }): HeadersCopier {
  const spread: HeadersCopier = () => ({ ...frozen });
  const names = Object.keys(frozen);
  if (names.includes('__proto__')) return spread;
  // names and values as JSON string literals, which are JavaScript's too
  const fields = names.map((n) => `${JSON.stringify(n)}: ${JSON.stringify(frozen[n])}`).join(', ');
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- constant text made from the shared headers
    const make = new Function(
      `"use strict"; return function copyHeaders() { return { ${fields} }; };`,
    ) as () => HeadersCopier;
    return make();
  } catch {
    return spread;
  }
}

/** Whether an object has no enumerable key (a response's extra headers: most have none). */
export function hasNoKeys(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/**
 * Sets a response's headers through `set` (fastify's `reply.header`, Node's `res.setHeader`); says whether a
 * value holds characters beyond ASCII, which decides how the body is written (see the adapters' `send`).
 * `set` is a module-level function taking the target, so that no closure is made per response.
 */
export function setHeaders<T>(
  headers: { readonly [name: string]: string },
  target: T,
  set: (target: T, name: string, value: string) => unknown,
): boolean {
  let latin1 = false;
  for (const name in headers) {
    const value = headers[name]!;
    set(target, name, value);
    if (!latin1 && beyondAscii(value)) latin1 = true;
  }
  return latin1;
}

export function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return v instanceof Promise;
}

const EXPECTATIONS = Symbol.for('svc.expectationListener');
const HALF_CLOSE = Symbol.for('svc.halfClose');

/** A request without a body, or a GET or HEAD (tunneled ones too: a batch finder sent as a POST form). */
function readsOnly(req: IncomingMessage): boolean {
  const headers = req.headers;
  if (headers['transfer-encoding'] === undefined && Number(headers['content-length'] ?? 0) <= 0) return true;
  const override = headers['x-http-method-override'];
  const method = typeof override === 'string' ? override.toUpperCase() : req.method;
  return method === 'GET' || method === 'HEAD';
}

/**
 * A client's FIN after its request, read as RFC 9112 allows either way: as the end of what it sends (a
 * half-close: some HTTP clients and proxies shut down their sending side once the body is sent, and still
 * read the answer) or as a hang-up. Node's HTTP server takes every FIN for a hang-up: it aborts the
 * connection's requests, complete or not, and ends the socket, so an upload whose handler answers
 * asynchronously was carried out and never answered (issue 22). Here a request whose body was sent whole
 * is answered, then the connection is closed; a FIN while a read waits (a request without a body, a GET
 * or HEAD, tunneled ones included: a get, a finder, a batch finder, which a client stops by closing) is
 * still a hang-up, so its handler is cancelled at once (`ctx.signal`); and a FIN that cuts a body short
 * fails it as a broken-off body, as before.
 */
export function answerHalfClosedRequests(server: Server): void {
  const s = server as Server & { httpAllowHalfOpen?: boolean; [HALF_CLOSE]?: true };
  if (s[HALF_CLOSE] === true) return;
  // an HTTP/2 stream has its own half-close, which Node answers already; its reset is the hang-up
  if (typeof s.httpAllowHalfOpen !== 'boolean') {
    s[HALF_CLOSE] = true;
    s.on('request', closeOnReset);
    return;
  }
  s[HALF_CLOSE] = true;
  s.httpAllowHalfOpen = true;
  s.on('connection', (socket: Socket) => {
    socket.once('end', () => {
      // Node's own listener ran first: it marked the response in progress as the connection's last
      const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (res === undefined || res === null || res.writableEnded) return;
      if (readsOnly(res.req)) socket.destroy();
    });
  });
}

/**
 * A client that resets an HTTP/2 stream (an aborted fetch) makes Node emit 'aborted' on the request, but
 * Node (20) destroys the stream, and the compatibility response emits the 'close' that cancels the handler
 * and aborts response attachments, only once the request body was read to its end and the response's
 * buffered writes were flushed, which a reset stream never does: a download the client abandoned stayed
 * open, its handler and attachment writers running, until the whole session closed. Nothing more can be
 * sent or received on a reset stream, so it is destroyed at once.
 */
function closeOnReset(req: IncomingMessage): void {
  if (req.httpVersionMajor < 2) return;
  req.once('aborted', () => (req as IncomingMessage & { stream?: { destroy(): void } }).stream?.destroy());
}

/**
 * An `Expect` header other than `100-continue` makes Node answer 417 itself, with an empty body, unless the
 * server listens for `checkExpectation`: answer it as an ErrorResponse instead (once per server).
 */
export function answerExpectations(server: Server, pipeline: ResourcePipeline, log: SvcLogger): void {
  const s = server as Server & { [EXPECTATIONS]?: true };
  if (s[EXPECTATIONS] === true || s.listenerCount('checkExpectation') > 0) return;
  s[EXPECTATIONS] = true;
  s.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const expectation = String(req.headers.expect ?? '').slice(0, 64);
    const out = pipeline.handleError(
      {
        method: req.method ?? 'GET',
        url,
        path: q === -1 ? url : url.slice(0, q),
        query: q === -1 ? undefined : url.slice(q + 1),
        headers: req.headers,
        body: undefined,
        attributes: EMPTY_ATTRIBUTES,
      },
      new ServiceError(417, `The expectation '${expectation}' is not supported`),
      log,
    );
    const write = (r: EncodedResponse): void => {
      const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
      // HTTP/2 has no Connection header (RFC 9113 §8.2.2): Node drops it with a warning (the stream ends anyway)
      const close = req.httpVersionMajor >= 2 ? {} : { connection: 'close' };
      res.writeHead(r.status, { ...r.headers, 'content-length': String(body.length), ...close });
      res.end(body);
    };
    if (isPromise(out)) void out.then(write);
    else write(out);
  });
}

/**
 * An own symbol of `target` by its description: how the adapters find a library's internals it keeps on
 * symbols of its own (fastify's reply state, Node's request headers), undefined where it keeps none.
 */
export function ownSymbol(target: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(target).find((s) => s.description === description);
}
