import { Observable, type Subscription, isObservable, map, toArray } from 'rxjs';
import { collected, isPromiseLike } from './handler-answer';
import type { ResourceContext } from '../resources/request';
import { SLICED_BATCH_SIZE, SLICE_BUDGET_MS, type SliceOwner, nextSlice } from '../resources/slices';

/**
 * The per-criterion form of a batch finder (the brief's design card: "batch-finder criteria run as parallel
 * streams that merge into ordered per-criteria results"). Each criterion's handler answer (a value, a
 * promise, or the handler's own Observable of entities) runs with at most `concurrency` of them pending at
 * once, and each settles into the slot of its criterion, so the merged result is in request order whatever
 * order they finish in. Unsubscribing the result unsubscribes every running criterion and starts no more.
 *
 * Written by hand rather than as `mergeMap` over the criteria: (1) a large batch (at least
 * {@link SLICED_BATCH_SIZE} criteria) starts its criteria {@link SLICE_BUDGET_MS} at a time, each slice in
 * its own event-loop turn (issue 22: 1 000 criteria answered synchronously ran in one piece, 12–29 ms in
 * which no other request was served; bench/batch-stall.bench.ts), and (2) a criterion answered with a value
 * or a promise costs no subscriber chain (RxJS's per-criterion operators were most of the framework's
 * allocation in a 1 000-criterion request).
 */

/** One criterion's outcome: its answer (a finder's), its error, or nothing found. */
export type CriterionOutcome =
  | { readonly kind: 'result'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'missing' };

/** The outcomes of every criterion, in request order (what the response builder takes from this form). */
export class CriterionOutcomes {
  constructor(readonly items: readonly CriterionOutcome[]) {}
}

const MISSING: CriterionOutcome = Object.freeze({ kind: 'missing' });

/** A per-criterion handler as the pipeline calls it. */
export type CriterionHandler = (criterion: unknown, params: unknown, ctx: ResourceContext) => unknown;

function outcomeOf(v: unknown): CriterionOutcome {
  return v === undefined || v === null ? MISSING : { kind: 'result', value: v };
}

/** Runs every criterion, at most `concurrency` at once; one value: the outcomes in request order. */
export function runPerCriterion(
  handler: CriterionHandler,
  criteria: readonly unknown[],
  params: unknown,
  ctx: ResourceContext,
  concurrency: number,
): Observable<CriterionOutcomes> {
  return new Observable<CriterionOutcomes>((subscriber) => {
    const outcomes: CriterionOutcome[] = new Array<CriterionOutcome>(criteria.length).fill(MISSING);
    return runCriteria(handler, criteria.length, (i) => criteria[i], params, ctx, concurrency, {
      settle: (i, outcome) => {
        outcomes[i] = outcome;
      },
    }).subscribe({
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        subscriber.next(new CriterionOutcomes(outcomes));
        subscriber.complete();
      },
    });
  });
}

/** What {@link runCriteria} tells its caller as it goes. */
export interface CriteriaHooks {
  /** Criterion `i` is finished: its outcome, final (called once per criterion, in any order). */
  settle(i: number, outcome: CriterionOutcome): void;
  /** The slice is over: called before the runner waits for its next turn. */
  beforeTurn?(): void;
}

/**
 * The runner of {@link runPerCriterion} over `count` criteria got one at a time from `criterionAt(i)` (called
 * when criterion `i` starts, so that a caller can make each criterion as it is needed: lazy-criteria.ts),
 * each outcome handed to `hooks.settle` as it is known. Completes once every criterion has settled.
 * `criterionAt` throwing fails the whole run (unlike a handler throwing, which is that criterion's error).
 */
export function runCriteria(
  handler: CriterionHandler,
  count: number,
  criterionAt: (i: number) => unknown,
  params: unknown,
  ctx: ResourceContext,
  concurrency: number,
  hooks: CriteriaHooks,
): Observable<void> {
  return new Observable<void>((subscriber) => {
    const n = count;
    const running = new Set<Subscription>();
    const sliced = n >= SLICED_BATCH_SIZE;
    let next = 0;
    let pending = 0;
    let closed = false;
    /** Waiting for the next slice's turn. */
    let waiting = false;
    /** Inside the loop of {@link pump}: an answer that arrives synchronously lets the loop go on. */
    let pumping = false;
    /**
     * When the current slice ends. Shared by every pump of a turn: answers that are already-resolved
     * promises call back in microtasks, which would otherwise chain through every criterion without a turn.
     */
    let sliceEnd = sliced ? performance.now() + SLICE_BUDGET_MS : Infinity;

    const fail = (error: unknown): void => {
      if (closed) return;
      closed = true;
      for (const s of running) s.unsubscribe();
      subscriber.error(error);
    };
    const settle = (i: number, outcome: CriterionOutcome): void => {
      try {
        hooks.settle(i, outcome);
      } catch (error) {
        fail(error);
      }
    };
    const finishOne = (): void => {
      pending--;
      if (!closed && !waiting && !pumping) pump();
    };
    const start = (i: number): void => {
      const criterion = criterionAt(i);
      let out: unknown;
      try {
        out = handler(criterion, params, ctx);
      } catch (error) {
        settle(i, { kind: 'error', error });
        return;
      }
      if (isObservable(out)) {
        pending++;
        let done = false;
        const holder: { subscription?: Subscription } = {};
        const end = (): void => {
          done = true;
          if (holder.subscription !== undefined) running.delete(holder.subscription);
          finishOne();
        };
        holder.subscription = out.pipe(toArray(), map(collected)).subscribe({
          next: (v) => settle(i, outcomeOf(v)),
          error: (error: unknown) => {
            settle(i, { kind: 'error', error });
            end();
          },
          complete: end,
        });
        if (!done) running.add(holder.subscription);
        return;
      }
      if (isPromiseLike(out)) {
        pending++;
        out.then(
          (v) => {
            if (closed) return;
            settle(i, outcomeOf(v));
            finishOne();
          },
          (error: unknown) => {
            if (closed) return;
            settle(i, { kind: 'error', error });
            finishOne();
          },
        );
        return;
      }
      settle(i, outcomeOf(out));
    };
    const pump = (): void => {
      pumping = true;
      try {
        while (!closed && next < n && pending < concurrency) {
          if (performance.now() >= sliceEnd) {
            // the rest in a later turn, after the I/O that waits (slices.ts); a gone client ends it there
            waiting = true;
            hooks.beforeTurn?.();
            nextSlice(ctx as unknown as SliceOwner, 'batch finder criteria').then(
              () => {
                waiting = false;
                sliceEnd = performance.now() + SLICE_BUDGET_MS;
                if (!closed) pump();
              },
              (error: unknown) => {
                waiting = false;
                fail(error);
              },
            );
            return;
          }
          start(next++);
        }
      } catch (error) {
        fail(error);
      } finally {
        pumping = false;
      }
      if (!closed && next === n && pending === 0) {
        closed = true;
        subscriber.next();
        subscriber.complete();
      }
    };
    pump();
    return () => {
      closed = true;
      for (const s of running) s.unsubscribe();
      running.clear();
    };
  });
}
