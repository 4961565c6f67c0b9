import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Waits until `probe()` has stayed the same across `turns` whole turns of the event loop: the point where
 * an in-memory pipeline (streams, promises; no timers or I/O of its own) has done all it will do without
 * new input. Use it before checking that something did not happen (a source not pulled, a buffer not
 * drained): it is counted in event-loop turns, never in milliseconds, so a loaded machine does not make it
 * pass early. Fails when the value keeps changing for `limit` turns.
 */
export async function quiescent(probe: () => unknown, turns = 3, limit = 10_000): Promise<void> {
  let last = JSON.stringify(probe());
  let same = 0;
  for (let i = 0; i < limit; i++) {
    await nextTurn();
    const now = JSON.stringify(probe());
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= turns) return;
  }
  throw new Error(`still changing after ${limit} turns of the event loop: ${last}`);
}
