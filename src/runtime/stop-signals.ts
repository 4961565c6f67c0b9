/**
 * How long after a stop signal (SIGTERM, SIGINT, SIGHUP) another one is taken for the same stop relayed,
 * not for a second one. A terminal's Ctrl-C reaches every process of its foreground group, and npm (as
 * yarn, pnpm and nodemon) passes the signal it got on to its child as well: `npm start` and one Ctrl-C
 * delivered SIGINT to the server twice within milliseconds, which it took for an impatient second Ctrl-C
 * and exited at once, without its shutdown (the example's data directory was left in the OS temp dir, on
 * every such stop). `timeout`, which signals its whole process group, did the same with SIGTERM. A person
 * pressing Ctrl-C again to cut a shutdown short does so after this window; within it the repeat is ignored.
 */
export const RELAYED_SIGNAL_MS = 500;

/** What a stop signal means, given the ones before it: see {@link StopSignals.classify}. */
export type StopSignalKind = 'first' | 'relayed' | 'again';

/**
 * Tells the signal that stops a process from the same stop relayed and from a second one (see above). The
 * window runs from the moment the stop began, whatever began it (a signal, or a worker's runner asking it
 * to stop: the runner and its workers share the terminal's process group, so each worker gets the
 * terminal's Ctrl-C as well as the runner's request, in either order).
 */
export class StopSignals {
  #since: number | undefined;
  readonly #relayedWithinMs: number;

  constructor(relayedWithinMs: number = RELAYED_SIGNAL_MS) {
    this.#relayedWithinMs = relayedWithinMs;
  }

  /** Notes that the stop begins now, unless it began before. `now` in ms (`performance.now()` by default). */
  begin(now: number = performance.now()): void {
    this.#since ??= now;
  }

  /**
   * What a stop signal arriving `now` means: `first` when no stop has begun (it begins now), `relayed`
   * within the window after the stop began (ignore it), `again` after that (cut the shutdown short).
   */
  classify(now: number = performance.now()): StopSignalKind {
    if (this.#since === undefined) {
      this.#since = now;
      return 'first';
    }
    return now - this.#since < this.#relayedWithinMs ? 'relayed' : 'again';
  }
}
