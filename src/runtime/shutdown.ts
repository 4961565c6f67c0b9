import type { IncomingMessage, Server, ServerResponse } from 'node:http';
// a value import one way only: front-door.ts imports this module's types alone
import { connectionClose } from './front-door';

/**
 * Graceful shutdown of one process (issue 24). {@link GracefulShutdown.shutdown}:
 *
 * 1. readiness turns 503 at once (`onDraining` listeners; the runtime wires the Health object);
 * 2. every server stops accepting connections (`server.close()`, which also closes idle keep-alive
 *    connections at once); in-flight responses whose headers are not sent yet get `Connection: close`, and
 *    a connection that turns idle after its response is closed then;
 * 3. in-flight requests and their attachment streams get `deadlineMs` to finish;
 * 4. what is left is aborted: every connection is destroyed, which the request path sees as a client that
 *    hung up (handlers' `ctx.signal` aborts, response writers' `onAbort` is called, request attachment
 *    readers are drained);
 * 5. the hooks run, in the order they were added (the app's `close()`, which closes its queue: running jobs
 *    finish or are released; then whatever others registered, such as flushing traces).
 *
 * Requests that arrive on an open connection after step 1 are refused by the front door with a 503
 * `ErrorResponse` and `Connection: close` in `stop` mode, and served (with `Connection: close`) in `reload`
 * mode, where the runner has already started a replacement worker and the service as a whole is up.
 */

/** `stop`: the process is going away; `reload`: the runner replaces this worker (SIGHUP). */
export type ShutdownMode = 'stop' | 'reload';

/** Where a shutdown is. */
export type ShutdownState = 'running' | 'draining' | 'closing' | 'closed';

/** Options of {@link GracefulShutdown}. */
export interface GracefulShutdownOptions {
  /** Milliseconds in-flight requests get to finish before they are aborted. Default 30 000. */
  readonly deadlineMs?: number;
  /** Where progress lines go. Default: none. */
  readonly log?: (line: string) => void;
}

/** How long in-flight requests may take after SIGTERM before they are aborted, by default (30 s). */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 30_000;

/** A step run once the requests are over: close a queue, flush an exporter... */
export type ShutdownHook = () => unknown;

/** What a shutdown did. */
export interface ShutdownReport {
  readonly mode: ShutdownMode;
  /** Requests still running at the deadline, which were aborted. */
  readonly aborted: number;
  /** Hooks that threw, with their errors. */
  readonly failedHooks: ReadonlyArray<{ readonly name: string; readonly error: unknown }>;
  readonly durationMs: number;
}

interface Tracked {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly server: Server | undefined;
}

/** The shutdown sequence of one process, and the in-flight requests it waits for. */
export class GracefulShutdown {
  readonly deadlineMs: number;
  readonly #log: (line: string) => void;
  readonly #servers = new Set<Server>();
  readonly #inFlight = new Set<Tracked>();
  readonly #hooks: Array<{ readonly name: string; readonly run: ShutdownHook }> = [];
  readonly #onDraining: Array<(mode: ShutdownMode) => void> = [];
  #state: ShutdownState = 'running';
  #mode: ShutdownMode = 'stop';
  #done: Promise<ShutdownReport> | undefined;
  #wakeDrain: (() => void) | undefined;

  constructor(options: GracefulShutdownOptions = {}) {
    const deadline = options.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS;
    if (!Number.isFinite(deadline) || deadline < 0)
      throw new TypeError('GracefulShutdown: deadlineMs must be a number of milliseconds ≥ 0');
    this.deadlineMs = deadline;
    this.#log = options.log ?? (() => undefined);
  }

  get state(): ShutdownState {
    return this.#state;
  }

  get mode(): ShutdownMode {
    return this.#mode;
  }

  /** Requests being served now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** A server to stop listening at shutdown (the front door adds the one it is installed on). */
  addServer(server: Server): this {
    this.#servers.add(server);
    return this;
  }

  /**
   * Adds a step run after the requests are over, in the order added (`first` puts it before the others); a
   * hook that throws is reported, not fatal.
   */
  addHook(name: string, hook: ShutdownHook, options: { readonly first?: boolean } = {}): this {
    if (options.first === true) this.#hooks.unshift({ name, run: hook });
    else this.#hooks.push({ name, run: hook });
    return this;
  }

  /** Called first thing when shutdown begins (readiness turns 503 here). */
  onDraining(listener: (mode: ShutdownMode) => void): this {
    this.#onDraining.push(listener);
    return this;
  }

  /**
   * Counts a request as in flight until its response closes. The front door calls it for every request it
   * passes on; a response that starts after shutdown began gets `Connection: close`.
   */
  track(req: IncomingMessage, res: ServerResponse, server?: Server): void {
    const t: Tracked = { req, res, server };
    this.#inFlight.add(t);
    if (this.#state !== 'running') closeAfter(req, res);
    res.once('close', () => {
      this.#inFlight.delete(t);
      if (this.#state === 'draining') {
        // a keep-alive connection whose response began before the signal is idle now: close it
        closeIdle(server);
        if (this.#inFlight.size === 0) this.#wakeDrain?.();
      }
    });
  }

  /** Starts the sequence (once; later calls return the same promise). */
  shutdown(mode: ShutdownMode = 'stop'): Promise<ShutdownReport> {
    this.#done ??= this.#run(mode);
    return this.#done;
  }

  async #run(mode: ShutdownMode): Promise<ShutdownReport> {
    const started = performance.now();
    this.#mode = mode;
    this.#state = 'draining';
    for (const listener of this.#onDraining) listener(mode);
    const deadlineAt = performance.now() + this.deadlineMs;
    // a server emits 'close' once it stopped listening and its last connection ended
    const serversClosed = Promise.all(
      [...this.#servers].map(
        (server) => new Promise<void>((resolve) => server.once('close', () => resolve())),
      ),
    );
    for (const server of this.#servers) {
      // ERR_SERVER_NOT_RUNNING when it never listened or closed already: nothing to stop then
      server.close(() => undefined);
    }
    for (const t of this.#inFlight) if (!t.res.headersSent) closeAfter(t.req, t.res);
    if (this.#inFlight.size > 0)
      this.#log(`waiting for ${this.#inFlight.size} request(s) in flight (at most ${this.deadlineMs} ms)`);
    let clean = await this.#drained(this.deadlineMs);
    if (clean) {
      // the app closes only once no connection is left: a request still on its way on a connection accepted
      // before the signal (its bytes not read yet) is then answered (or, when stopping, refused whole)
      // rather than meeting a closed app
      for (const server of this.#servers) closeIdle(server);
      clean = await Promise.race([
        serversClosed.then(() => true),
        new Promise<boolean>((resolve) =>
          setTimeout(() => resolve(false), Math.max(0, deadlineAt - performance.now())).unref(),
        ),
      ]);
    }
    let aborted = 0;
    if (!clean) {
      aborted = this.#inFlight.size;
      this.#log(`deadline of ${this.deadlineMs} ms passed: aborting ${aborted} request(s) in flight`);
      // destroying the sockets is a client hang-up to the request path: handlers' signals abort, response
      // writers get onAbort, request readers are drained
      for (const server of this.#servers) closeAll(server);
      for (const t of this.#inFlight) {
        t.req.socket.destroy();
        t.res.destroy();
      }
      await this.#drained(1000);
    }
    this.#state = 'closing';
    const failedHooks: Array<{ name: string; error: unknown }> = [];
    for (const hook of this.#hooks) {
      try {
        await hook.run();
      } catch (error) {
        failedHooks.push({ name: hook.name, error });
        this.#log(
          `shutdown step '${hook.name}' failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.#state = 'closed';
    return { mode, aborted, failedHooks, durationMs: performance.now() - started };
  }

  /** Resolves true once nothing is in flight, false after `ms`. */
  #drained(ms: number): Promise<boolean> {
    if (this.#inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wakeDrain = undefined;
        resolve(this.#inFlight.size === 0);
      }, ms);
      this.#wakeDrain = () => {
        clearTimeout(timer);
        this.#wakeDrain = undefined;
        resolve(true);
      };
    });
  }
}

/** Asks the connection to close after this response, where the protocol has the header (connectionClose). */
function closeAfter(req: IncomingMessage, res: ServerResponse): void {
  const { Connection } = connectionClose(req);
  if (Connection !== undefined) res.setHeader('Connection', Connection);
}

// An HTTP/2 server (node:http2, the TLS server of src/security/) has neither method: `close()` already sends
// each session GOAWAY, so its idle sessions end by themselves, and what is left at the deadline is
// destroyed with the sessions' sockets by the process exit.
function closeIdle(server: Server | undefined): void {
  (server as Partial<Server> | undefined)?.closeIdleConnections?.();
}

function closeAll(server: Server): void {
  (server as Partial<Server>).closeAllConnections?.();
}
