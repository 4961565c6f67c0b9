import type { RunningJob } from './driver';

/**
 * The seam through which queued work is observed (traces, metrics: `src/runtime/`) without this layer
 * knowing them: when a job is added, observers may give headers to carry with it (the W3C `traceparent`
 * of the request that enqueued it), which the job keeps in `data.headers`; when a worker runs an attempt,
 * each observer may follow it with a probe. With no observer each point is one branch.
 */
export interface JobObserver {
  /** Headers to carry with the job `name` being added, read in the enqueuer's context; undefined for none. */
  enqueuing(name: string): { readonly [name: string]: string } | undefined;
  /** A probe of one attempt (its `data.headers` are those given when it was added), or undefined. */
  attempt(job: RunningJob): JobProbe | undefined;
}

/** What an observer follows of one attempt. No method may throw. */
export interface JobProbe {
  /** Runs the processor inside the probe's context (the attempt's trace span, say); returns fn's value. */
  run<T>(fn: () => T): T;
  /**
   * The attempt ended: `error` undefined for success; `final` when the job will not run again (success,
   * last attempt, unrecoverable, cancelled).
   */
  finished(error: unknown, final: boolean): void;
}

/** Several job observers as one (undefined for none). */
export function composeJobObservers(observers: readonly JobObserver[] | undefined): JobObserver | undefined {
  if (observers === undefined || observers.length === 0) return undefined;
  if (observers.length === 1) return observers[0];
  const list = [...observers];
  return {
    enqueuing(name) {
      let headers: { [name: string]: string } | undefined;
      for (const o of list) {
        const h = o.enqueuing(name);
        if (h !== undefined) headers = { ...headers, ...h };
      }
      return headers;
    },
    attempt(job) {
      const probes = list.map((o) => o.attempt(job)).filter((p): p is JobProbe => p !== undefined);
      if (probes.length === 0) return undefined;
      return {
        run<T>(fn: () => T): T {
          let f = fn;
          for (let i = probes.length - 1; i >= 0; i--) {
            const inner = f;
            const p = probes[i]!;
            f = () => p.run(inner);
          }
          return f();
        },
        finished(error, final) {
          for (const p of probes) p.finished(error, final);
        },
      };
    },
  };
}
