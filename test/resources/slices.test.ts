/**
 * The slicing tools of issue 22 (src/resources/slices.ts): steps run at once or a time budget at a time,
 * other work runs between slices, and an aborted request stops at its next slice.
 */
import {
  ITEMS_PER_STEP,
  SLICE_BUDGET_MS,
  type Steps,
  nextSlice,
  runNow,
  runSliced,
} from '../../src/resources/slices';

/** Steps over `n` items that each keep the CPU busy for `busyMs`, yielding as the binder does. */
function* work(n: number, busyMs: number, done: number[]): Steps<number> {
  for (let i = 0; i < n; i++) {
    if ((i + 1) % ITEMS_PER_STEP === 0) yield;
    const until = performance.now() + busyMs;
    while (performance.now() < until) {
      // busy: an item that costs CPU time
    }
    done.push(i);
  }
  return n;
}

describe('steps', () => {
  it('run to their end at once with runNow, returning their result', () => {
    const done: number[] = [];
    expect(runNow(work(100, 0, done))).toBe(100);
    expect(done).toHaveLength(100);
  });

  it('run without a turn of their own when they fit in one slice', async () => {
    const done: number[] = [];
    let turns = 0;
    const tick = setImmediate(() => turns++);
    expect(await runSliced(work(3, 0, done), {}, 'small')).toBe(3);
    expect(turns).toBe(0);
    clearImmediate(tick);
  });

  it('give the turn back once a slice has used its budget, so that waiting work runs in between', async () => {
    const done: number[] = [];
    const seen: number[] = [];
    // each group of items takes more than the budget: every yield ends a slice
    const steps = work(4 * ITEMS_PER_STEP, (2 * SLICE_BUDGET_MS) / ITEMS_PER_STEP, done);
    const running = runSliced(steps, {}, 'large');
    const other = new Promise<void>((resolve) =>
      setImmediate(() => {
        seen.push(done.length);
        resolve();
      }),
    );
    await Promise.all([running, other]);
    expect(done).toHaveLength(4 * ITEMS_PER_STEP);
    // the other callback ran while the steps were part way
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[0]).toBeLessThan(4 * ITEMS_PER_STEP);
  });

  it('stop at the next slice once their request is aborted, with the abort reason', async () => {
    const controller = new AbortController();
    const done: number[] = [];
    const steps = work(10 * ITEMS_PER_STEP, (2 * SLICE_BUDGET_MS) / ITEMS_PER_STEP, done);
    const running = runSliced(steps, { abortController: controller }, 'aborted');
    const reason = new Error('client gone');
    setImmediate(() => controller.abort(reason));
    await expect(running).rejects.toBe(reason);
    expect(done.length).toBeLessThan(10 * ITEMS_PER_STEP);
  });
});

describe('nextSlice', () => {
  it('runs waiting slices one per turn, oldest first, with other callbacks running between them', async () => {
    const order: string[] = [];
    const owner = {};
    const a = nextSlice(owner, 'a').then(() => order.push('a'));
    const b = nextSlice(owner, 'b').then(() => order.push('b'));
    setImmediate(() => order.push('immediate'));
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'immediate', 'b']);
  });

  it('fails with a ClientClosedError when the request was aborted without a reason that is an Error', async () => {
    const controller = new AbortController();
    controller.abort('gone');
    await expect(nextSlice({ abortController: controller }, 'GET /items')).rejects.toMatchObject({
      name: 'ClientClosedError',
    });
  });
});
