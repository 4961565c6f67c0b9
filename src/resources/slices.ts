import { ClientClosedError } from './errors';

/**
 * Large batches run in slices, so that no single request stalls the server (issue 22): between slices the
 * event loop serves other requests' I/O. Two tools:
 *
 * - {@link nextSlice}: a promise that resolves in a later turn (one waiting slice per turn, oldest first);
 * - {@link Steps}: per-item work written as a generator that `yield`s between small groups of items, which
 *   {@link runNow} runs to the end at once (small requests: no extra turn) and {@link runSliced} runs a
 *   time budget at a time (large ones).
 *
 * Slicing by time rather than by item count keeps every slice about as long whatever an item costs (a
 * criterion with ten fields, a patch, an id): measured with bench/batch-stall.bench.ts, stages sliced by
 * count (a whole stage per turn) blocked the loop 3-8 ms for 1 000 entities, which put the gets' p99
 * at 2-5x the quiet figure.
 */

/**
 * Batches of at least this many items (ids, elements, criteria) are served in slices. Below it a whole
 * request costs well under a millisecond of framework work (bench/batch-finder.bench.ts: ~10 µs per
 * criterion), less than the hops would be worth.
 */
export const SLICED_BATCH_SIZE = 100;

/**
 * Milliseconds of work a slice runs before it gives the turn back. A plain get costs ~50 µs of server time;
 * a get that arrives while a slice runs waits for the rest of it. Beside two batch finders in flight (which
 * always have a slice waiting), 0.5 ms took the gets' median from ~0.8 ms to ~0.45 ms and their p99 from
 * 3.0-5.1 ms to 2.0-2.2 ms, with as many batches answered in the same time (bench/batch-stall, two pairs
 * of runs alternated, 2026-11-28): a turn between slices costs a few microseconds.
 */
export const SLICE_BUDGET_MS = 0.5;

/** Items a step function handles between two yields (the clock is read at each yield: ~50 ns). */
export const ITEMS_PER_STEP = 16;

/** Work that yields between groups of items and returns its result at the end. */
export type Steps<T> = Generator<void, T, void>;

/** What a slice checks before it runs: the request's abort signal (client gone, timeout). */
export interface SliceOwner {
  abortController?: AbortController;
}

/** Slices waiting for their turn, oldest first (see {@link nextSlice}). */
const waitingSlices: Array<() => void> = [];

/** Runs the oldest waiting slice; another turn is asked for when more wait. */
function runOneSlice(): void {
  const next = waitingSlices.shift();
  if (waitingSlices.length > 0) setImmediate(runOneSlice);
  next?.();
}

/**
 * Resolves in a later turn of the event loop (`setImmediate`: after pending I/O, so waiting requests get
 * their turn), then fails if the request was aborted meanwhile (client gone, timeout). One slice per turn,
 * whatever the number of large batches under way: `setImmediate` callbacks queued together run back to
 * back, which let two batches' slices run one after the other before any I/O (measured: the gets' p99
 * beside two batch finders at once).
 */
export function nextSlice(owner: SliceOwner, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (
      waitingSlices.push(() => {
        const signal = owner.abortController?.signal;
        if (signal?.aborted !== true) resolve();
        else reject(signal.reason instanceof Error ? signal.reason : new ClientClosedError(label));
      }) === 1
    )
      setImmediate(runOneSlice);
  });
}

/** Runs steps to the end at once. */
export function runNow<T>(steps: Steps<T>): T {
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}

/** Runs steps {@link SLICE_BUDGET_MS} at a time, each slice in its own turn (see {@link nextSlice}). */
export async function runSliced<T>(steps: Steps<T>, owner: SliceOwner, label: string): Promise<T> {
  let deadline = performance.now() + SLICE_BUDGET_MS;
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    if (performance.now() >= deadline) {
      await nextSlice(owner, label);
      deadline = performance.now() + SLICE_BUDGET_MS;
    }
  }
}
