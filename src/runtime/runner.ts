import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { CrashLoopError } from './errors';
import { StopSignals } from './stop-signals';

/**
 * The multi-process runner's primary (issue 24): forks N workers that share the listening port
 * (`node:cluster`, round-robin: the primary accepts and hands connections out), replaces a worker that dies
 * (with backoff), gives up with {@link CrashLoopError} when workers keep dying, replaces workers one by one
 * on SIGHUP (the new one listens before the old one drains, so no connection is refused), and on SIGTERM
 * or SIGINT asks every worker to shut down gracefully and exits once they have (0 when all exited 0). A
 * second SIGTERM/SIGINT kills the workers and exits at once.
 *
 * Workers run the same program (`cluster.fork()` re-runs the entry point); serve.ts tells the roles apart.
 */

/** Messages the primary sends a worker. */
export interface RunnerMessage {
  readonly svc: 'shutdown';
  readonly mode: 'stop' | 'reload';
}

/** True for a message of the runner's. */
export function isRunnerMessage(m: unknown): m is RunnerMessage {
  return typeof m === 'object' && m !== null && (m as { svc?: unknown }).svc === 'shutdown';
}

/** Options of {@link runPrimary}; defaults in {@link DEFAULT_RUNNER_OPTIONS}. */
export interface RunnerOptions {
  /** Worker processes: a number, or `auto` for one per CPU (`os.availableParallelism()`). */
  readonly workers: number | 'auto';
  /** First delay before a dead worker is replaced, ms; doubles with each death in the window. Default 100. */
  readonly restartDelayMs?: number;
  /** Longest delay before a replacement, ms. Default 5 000. */
  readonly maxRestartDelayMs?: number;
  /** Give up after more than this many worker deaths within `crashWindowMs`. Default 5. */
  readonly maxCrashes?: number;
  /** The window for `maxCrashes`, ms. Default 60 000. */
  readonly crashWindowMs?: number;
  /**
   * How long a worker may take to exit once asked (its own drain deadline plus its hooks) before it is
   * killed, ms. Default 40 000 (the default 30 s drain + 10 s).
   */
  readonly workerExitTimeoutMs?: number;
  /** Where progress lines go. Default stderr, prefixed `svc runner: `. */
  readonly log?: (line: string) => void;
  /** Called once, when the first `workers` workers listen, with the address they share. */
  readonly onListening?: (address: { readonly address: string; readonly port: number }) => void;
}

/** The defaults of the multi-process runner: restart delays and how many crashes end it. */
export const DEFAULT_RUNNER_OPTIONS = Object.freeze({
  restartDelayMs: 100,
  maxRestartDelayMs: 5000,
  maxCrashes: 5,
  crashWindowMs: 60_000,
  workerExitTimeoutMs: 40_000,
});

/** The number of workers `n|auto` stands for. @throws TypeError for anything else */
export function workerCount(workers: number | string): number {
  if (workers === 'auto') return os.availableParallelism();
  const n = typeof workers === 'number' ? workers : /^\d+$/.test(workers) ? Number(workers) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > 1024)
    throw new TypeError(`workers must be 'auto' or a whole number from 1 to 1024, got '${String(workers)}'`);
  return n;
}

function describeExit(code: number | null, signal: string | null): string {
  return signal !== null ? `killed by ${signal}` : `exit code ${String(code)}`;
}

/**
 * Runs the primary until the service stops; resolves with the process exit code (0 after a clean
 * shutdown, 1 after a crash loop or an unclean one). Call only in the cluster primary.
 */
export function runPrimary(options: RunnerOptions): Promise<number> {
  const o = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  const n = workerCount(o.workers);
  const log = o.log ?? ((line: string) => process.stderr.write(`svc runner: ${line}\n`));
  /** Workers the runner asked to go (their exit is not a crash). */
  const leaving = new Set<Worker>();
  const crashes: number[] = [];
  let stopping = false;
  let reloading = false;
  let listened = 0;
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const restartTimers = new Set<NodeJS.Timeout>();

  const live = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('exit', (code, signal) => onExit(worker, code, signal));
    return worker;
  };

  const listening = (worker: Worker): Promise<boolean> =>
    new Promise((resolve) => {
      const onListening = (): void => {
        worker.off('exit', onExit2);
        resolve(true);
      };
      const onExit2 = (): void => {
        worker.off('listening', onListening);
        resolve(false);
      };
      worker.once('listening', onListening);
      worker.once('exit', onExit2);
    });

  const ask = (worker: Worker, mode: 'stop' | 'reload'): Promise<void> => {
    leaving.add(worker);
    const exited = new Promise<void>((resolve) => {
      if (worker.isDead()) resolve();
      else worker.once('exit', () => resolve());
    });
    try {
      worker.send({ svc: 'shutdown', mode } satisfies RunnerMessage);
      // and no new connection goes its way: the primary hands accepted connections to workers, and one
      // handed to a worker that then exits is never answered nor closed (Node's round-robin waits for an
      // acknowledgement that never comes); disconnect() takes the worker out of the rotation at once,
      // while it drains what it has
      worker.disconnect();
    } catch {
      // its channel is gone already: it is exiting
    }
    const timer = setTimeout(() => {
      log(`worker ${worker.process.pid} did not exit within ${o.workerExitTimeoutMs} ms: killing it`);
      worker.process.kill('SIGKILL');
    }, o.workerExitTimeoutMs);
    return exited.finally(() => clearTimeout(timer));
  };

  const giveUp = (why: string): void => {
    stopping = true;
    for (const t of restartTimers) clearTimeout(t);
    const err = new CrashLoopError(why);
    log(`${err.message}; stopping the other workers`);
    void Promise.all(live().map((w) => ask(w, 'stop'))).then(() => finish(1));
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null): void => {
    if (leaving.delete(worker) || stopping) return;
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && crashes[0]! < now - o.crashWindowMs) crashes.shift();
    const how = describeExit(code, signal);
    if (crashes.length > o.maxCrashes) {
      giveUp(
        `workers died ${crashes.length} times within ${Math.round(o.crashWindowMs / 1000)} s (the last: ${how}); ` +
          "giving up (see the workers' errors above)",
      );
      return;
    }
    const delay = Math.min(o.restartDelayMs * 2 ** (crashes.length - 1), o.maxRestartDelayMs);
    log(`worker ${worker.process.pid} died (${how}); starting a replacement in ${delay} ms`);
    const timer = setTimeout(() => {
      restartTimers.delete(timer);
      if (!stopping) fork();
    }, delay);
    restartTimers.add(timer);
  };

  const reload = async (): Promise<void> => {
    if (reloading || stopping) {
      log(reloading ? 'SIGHUP: a reload is in progress already' : 'SIGHUP: stopping, not reloading');
      return;
    }
    reloading = true;
    const old = live();
    log(`SIGHUP: replacing ${old.length} worker(s) one by one`);
    try {
      for (const worker of old) {
        if (stopping) break;
        if (worker.isDead()) continue;
        // the replacement listens before the old worker stops taking connections: no connection waits
        // for a worker that is gone
        const replacement = fork();
        if (!(await listening(replacement))) {
          log(
            'a replacement worker died before it listened: reload abandoned (the old workers keep running)',
          );
          return;
        }
        await ask(worker, 'reload');
      }
      log('reload complete');
    } finally {
      reloading = false;
    }
  };

  const signals = new StopSignals();
  const stop = (signal: NodeJS.Signals): void => {
    // the stop under way, relayed (npm passes a terminal's Ctrl-C on to its child, which had it already)
    if (signals.classify() === 'relayed') return;
    if (stopping) {
      log(`${signal} again: killing the workers`);
      for (const w of live()) w.process.kill('SIGKILL');
      finish(1);
      return;
    }
    stopping = true;
    for (const t of restartTimers) clearTimeout(t);
    log(`${signal}: stopping ${live().length} worker(s) gracefully`);
    const codes: Array<number | null> = [];
    void Promise.all(
      live().map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', (code) => {
              codes.push(code);
              resolve();
            });
            void ask(w, 'stop');
          }),
      ),
    ).then(() => {
      const clean = codes.every((c) => c === 0);
      log(clean ? 'stopped' : `stopped; a worker exited unclean (${codes.join(', ')})`);
      finish(clean ? 0 : 1);
    });
  };

  const onSigterm = (): void => stop('SIGTERM');
  const onSigint = (): void => stop('SIGINT');
  const onSighup = (): void => void reload();
  process.on('SIGTERM', onSigterm);
  process.on('SIGINT', onSigint);
  process.on('SIGHUP', onSighup);

  cluster.on('listening', (worker, address) => {
    // once, when the first n workers listen: the service then runs at full width; later ones are replacements
    if (++listened > n) log(`worker ${worker.process.pid} listening (a replacement)`);
    if (listened !== n) return;
    o.onListening?.({ address: address.address ?? '', port: address.port });
  });

  for (let i = 0; i < n; i++) fork();
  log(`started ${n} worker(s) (pid ${process.pid} is the runner: SIGTERM stops, SIGHUP reloads)`);

  return done.finally(() => {
    process.off('SIGTERM', onSigterm);
    process.off('SIGINT', onSigint);
    process.off('SIGHUP', onSighup);
  });
}
