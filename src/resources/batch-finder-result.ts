import type { RecordTemplate } from '../templates';
import type { CollectionReturn } from './definition';

/**
 * What a whole-batch batch finder handler returns (the reference's `BatchFinderResult`): for each criterion
 * it answers, either its page of entities (`putResult`) or its error (`putError`). Criteria are matched to
 * the request's by record equality that field order, int vs long, number vs bigint and unknown fields cannot
 * break (criteria-key.ts), so a handler may put the criterion objects it was given or new ones with the same
 * fields. A criterion of the request in neither map gets a 404 entry the framework makes up; one put in both
 * is answered with its result.
 *
 * @example
 * ```ts
 * searchPhotos: batchFinder({ batchParam: 'criteria', params: { criteria: criteriaOf(PhotoCriteria) } },
 *   (criteria) => {
 *     const out = new BatchFinderResult<PhotoCriteria, Photo>();
 *     for (const c of criteria) {
 *       const found = store.search(c);
 *       if (found.length > 0) out.putResult(c, found);   // criteria left out get a 404 entry
 *     }
 *     return out;
 *   }),
 * ```
 */
export class BatchFinderResult<C, V, M extends RecordTemplate = RecordTemplate> {
  /** Criterion → its page, in the order put. */
  readonly results: Array<readonly [C, CollectionReturn<V, M>]> = [];
  /** Criterion → its error (a `ServiceError` for a chosen status; anything else is a 500 entry). */
  readonly errors: Array<readonly [C, unknown]> = [];

  /** The entities found for `criterion`: a list (framework paging) or a page with total and metadata. */
  putResult(criterion: C, result: CollectionReturn<V, M>): this {
    this.results.push([criterion, result]);
    return this;
  }

  /** The error of `criterion`; its entry is `{"elements":[],"isError":true,"error":{...}}`. */
  putError(criterion: C, error: unknown): this {
    this.errors.push([criterion, error]);
    return this;
  }
}

/** True for a {@link BatchFinderResult} (by shape, so that two loaded copies of the package agree). */
export function isBatchFinderResult(v: unknown): v is BatchFinderResult<unknown, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as { results?: unknown }).results) &&
    Array.isArray((v as { errors?: unknown }).errors) &&
    typeof (v as { putResult?: unknown }).putResult === 'function'
  );
}
