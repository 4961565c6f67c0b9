import type { Observable } from 'rxjs';
import { type Subscription, isObservable } from 'rxjs';
import { InvalidResultError } from '../resources/errors';

/**
 * What a handler's Observable means, per method (src/resources/README.md, "Reactive handlers"):
 *
 * - `stream` (finders, get_all, a per-criterion batch finder's handler): a stream of entities. Every value
 *   is an element, in order; a list value adds its items (chunks). A single page value
 *   (`{ elements, total?, metadata? }`) or list is the whole answer, so `of(page)` keeps working. An empty
 *   stream is an empty collection.
 * - `single` (every other method): one value, the result. Completing empty is no result (a 404 for get, a
 *   500 where a result is required); a second value is the handler's bug: a 500 naming the method, and the
 *   subscription is cancelled rather than silently dropping values.
 */
export type AnswerMode = 'stream' | 'single';

/** The answer, or a rejection with the Observable's error, the promise's, or the abort signal's reason. */
export function awaitAnswer(
  out: PromiseLike<unknown> | Observable<unknown>,
  mode: AnswerMode,
  label: string,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    // set once subscribed; read by the abort listener, which may run first
    const held: { subscription?: Subscription } = {};
    let done = false;
    const onAbort = (): void => {
      if (done) return;
      done = true;
      // unsubscribing is the cancellation: a handler's Observable (and every inner one, a batch finder's
      // criteria included) runs its teardown now
      held.subscription?.unsubscribe();
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    if (!isObservable(out)) {
      out.then(
        (v) => finish(() => resolve(v)),
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the handler's own reason, passed on
        (e: unknown) => finish(() => reject(e)),
      );
      return;
    }
    const values: unknown[] = [];
    const subscription = out.subscribe({
      next: (v) => {
        if (done) return;
        if (mode === 'single' && values.length === 1) {
          finish(() =>
            reject(
              new InvalidResultError(
                label,
                'its Observable emitted more than one value (this method answers with one; finders and get_all stream entities)',
              ),
            ),
          );
          // a synchronous source is unsubscribed right after subscribe() returns (below)
          held.subscription?.unsubscribe();
          return;
        }
        values.push(v);
      },
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the handler's own error, passed on
      error: (e: unknown) => finish(() => reject(e)),
      complete: () => finish(() => resolve(mode === 'single' ? values[0] : collected(values))),
    });
    held.subscription = subscription;
    if (done) subscription.unsubscribe();
  });
}

/** A stream's values as a finder's answer: one list or page value is the answer itself, else the elements. */
export function collected(values: readonly unknown[]): unknown {
  if (values.length === 1 && (Array.isArray(values[0]) || isPage(values[0]))) return values[0];
  if (!values.some((v) => Array.isArray(v))) return values;
  const elements: unknown[] = [];
  for (const v of values) {
    if (Array.isArray(v)) elements.push(...(v as unknown[]));
    else elements.push(v);
  }
  return elements;
}

/** A `CollectionPage`: an object with an `elements` list that is not an entity (generated records have `data()`). */
function isPage(v: unknown): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as { elements?: unknown }).elements) &&
    typeof (v as { data?: unknown }).data !== 'function'
  );
}

/** True for a promise, or any thenable. */
export function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** True for what the pipeline must wait for: a promise (any thenable) or an Observable. */
export function isAsyncAnswer(v: unknown): v is PromiseLike<unknown> | Observable<unknown> {
  return isPromiseLike(v) || isObservable(v);
}
