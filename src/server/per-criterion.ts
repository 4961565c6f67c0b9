import {
  type Observable,
  catchError,
  defer,
  from,
  ignoreElements,
  isObservable,
  map,
  mergeMap,
  of,
  toArray,
} from 'rxjs';
import { concat } from 'rxjs';
import { collected, isPromiseLike } from './handler-answer';
import type { ResourceContext } from '../resources/request';

/**
 * The per-criterion form of a batch finder (the brief's design card: "batch-finder criteria run as parallel
 * streams that merge into ordered per-criteria results"). Each criterion's handler answer becomes a stream
 * (a value, a promise, or the handler's own Observable of entities); `mergeMap` runs up to `concurrency` of
 * them at once, and each settles into the slot of its criterion, so the merged result is in request order
 * whatever order they finish in. Unsubscribing the result unsubscribes every running criterion.
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

/** One criterion's answer as a stream of one value: the collected entities, the page, or null. */
function answerOf(
  handler: CriterionHandler,
  criterion: unknown,
  params: unknown,
  ctx: ResourceContext,
): Observable<unknown> {
  return defer(() => {
    const out = handler(criterion, params, ctx);
    if (isObservable(out)) return out.pipe(toArray(), map(collected));
    if (isPromiseLike(out)) return from(out);
    return of(out);
  });
}

/** Runs every criterion, at most `concurrency` at once; one value: the outcomes in request order. */
export function runPerCriterion(
  handler: CriterionHandler,
  criteria: readonly unknown[],
  params: unknown,
  ctx: ResourceContext,
  concurrency: number,
): Observable<CriterionOutcomes> {
  return defer(() => {
    const outcomes: CriterionOutcome[] = new Array<CriterionOutcome>(criteria.length).fill(MISSING);
    const all = from(criteria.keys()).pipe(
      mergeMap(
        (i) =>
          answerOf(handler, criteria[i], params, ctx).pipe(
            map((v): CriterionOutcome =>
              v === undefined || v === null ? MISSING : { kind: 'result', value: v },
            ),
            catchError((error: unknown) => of<CriterionOutcome>({ kind: 'error', error })),
            map((o) => {
              outcomes[i] = o;
              return o;
            }),
          ),
        concurrency,
      ),
      ignoreElements(),
    );
    return concat(
      all,
      defer(() => of(new CriterionOutcomes(outcomes))),
    );
  });
}
