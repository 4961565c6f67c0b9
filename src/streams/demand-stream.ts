import { NEVER, Observable, Subject, type Subscription, concat, of } from 'rxjs';

/**
 * A source of values with explicit demand: it emits only what `demand$` asked for (each value `n` of
 * `demand$` asks for `n` more), and stops (its teardown runs) on unsubscribe. The `(demand$) => chunks$`
 * shape of the attachment streams (README, "The RxJS face"), for any value: a database cursor's rows.
 */
export type DemandSource<T> = (demand$: Observable<number>) => Observable<T>;

// a registered symbol: two copies of the framework loaded side by side still recognise each other's streams
const SOURCE = Symbol.for('svc-framework.demandSource');

/**
 * An Observable of a demand source: subscribed as any Observable, it asks for everything at once; a consumer
 * that knows the mark ({@link demandSourceOf}: the server writing a finder's or get_all's response) pulls
 * with demand instead, asking for more only as the response is written. Operators (`pipe`) make a plain
 * Observable again, which the server collects before answering.
 *
 * @example
 * ```ts
 * getAll: (ctx) => withDemand((demand$) => rowsOfACursor(demand$))
 * ```
 */
export function withDemand<T>(source: DemandSource<T>): Observable<T> {
  const out = new Observable<T>((subscriber) =>
    source(concat(of(Number.POSITIVE_INFINITY), NEVER)).subscribe(subscriber),
  );
  Object.defineProperty(out, SOURCE, { value: source });
  return out;
}

/** The demand source behind an Observable made by {@link withDemand}, else undefined. */
export function demandSourceOf<T = unknown>(value: unknown): DemandSource<T> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const source = (value as { [SOURCE]?: unknown })[SOURCE];
  return typeof source === 'function' ? (source as DemandSource<T>) : undefined;
}

/**
 * Pulls a demand source in batches: {@link next} asks for `window` values (or fewer) and resolves with them
 * once they have all arrived (fewer at the end; undefined once the source completed), so at most `window`
 * values are ever fetched ahead of what the consumer took. {@link cancel} unsubscribes at once, also while a batch is
 * on its way (its `next()` then rejects with the reason): a database cursor's teardown runs now, not after
 * its current fetch.
 */
export class DemandPuller<T> {
  readonly window: number;
  readonly #demand = new Subject<number>();
  readonly #subscription: Subscription;
  #batch: T[] = [];
  #outstanding = 0;
  #done = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(source: DemandSource<T>, window: number) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError('window must be a positive integer');
    this.window = window;
    this.#subscription = source(this.#demand).subscribe({
      next: (v) => {
        this.#batch.push(v);
        if (--this.#outstanding === 0) this.#wake?.();
      },
      error: (error: unknown) => this.#end({ error }),
      complete: () => this.#end(undefined),
    });
  }

  #end(failure: { error: unknown } | undefined): void {
    if (this.#done) return;
    this.#done = true;
    this.#failure = failure;
    this.#wake?.();
  }

  /**
   * The next batch (at most `count` values, by default and at most `window`), or undefined at the end;
   * rejects with the source's error. A writer sizes its batches with `count` (a small first one for an early
   * first byte, then what fills a socket write).
   */
  async next(count: number = this.window): Promise<T[] | undefined> {
    if (!Number.isInteger(count) || count < 1 || count > this.window)
      throw new RangeError(`count must be an integer from 1 to the window (${this.window})`);
    if (!this.#done && this.#batch.length === 0) {
      this.#outstanding = count;
      const arrived = new Promise<void>((resolve) => (this.#wake = resolve));
      this.#demand.next(count);
      if (this.#outstanding > 0 && !this.#done) await arrived;
      this.#wake = undefined;
    }
    if (this.#batch.length > 0) {
      const out = this.#batch;
      this.#batch = [];
      return out;
    }
    if (this.#failure !== undefined) throw this.#failure.error;
    return undefined;
  }

  /** Unsubscribes the source now; a pending {@link next} rejects with `reason`. */
  cancel(reason: unknown = new Error('cancelled')): void {
    this.#subscription.unsubscribe();
    this.#demand.complete();
    this.#batch = [];
    this.#end({ error: reason });
  }
}
