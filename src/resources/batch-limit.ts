import { DataList, type DataMap, type DataValue } from '../data';
import { QueryParam, type ResourceMethod } from '../protocol';
import { ParameterBindingError } from './errors';
import type { MethodModel, ResourceModel } from './registration';

/**
 * The most items one batch request may carry (issue 22: one tunneled batch finder of 3 000 criteria held the
 * event loop for 225–423 ms, 10 000 criteria for 0.65 s). Rest.li leaves the limit to each method
 * (`@MaxBatchSize(value, validate = true)`); Svc has a server-wide default (`maxBatchSize`, 1 000), which a
 * method's own limit replaces: a batch finder's `maxBatchSize`, or a batch method's handler wrapped with
 * {@link withMaxBatchSize} (an interface's `{ batchGet: { maxBatchSize: 50 } }` does it in `implement`).
 *
 * The size is counted before anything is bound: the length of the parsed `ids` list, of the body's
 * `elements`, or of the batch finder's criteria list; no key is decoded and no record built for a batch
 * that is refused.
 */

/**
 * The default most items of one batch request, server-wide. At 1 000 the costliest batch (a batch finder)
 * holds the event loop ~10 ms in all, in slices of a few ms (bench/batch-stall.bench.ts); 3 000 criteria
 * held it 225–423 ms in one piece before the limit and the slicing (issue 22).
 */
export const DEFAULT_MAX_BATCH_SIZE = 1000;

const MAX_BATCH_SIZE = Symbol.for('svc.maxBatchSize');

/** The handler properties of the batch methods that take a `maxBatchSize` of their own. */
export const BATCH_METHOD_PROPERTIES: ReadonlySet<string> = new Set([
  'batchGet',
  'batchCreate',
  'batchUpdate',
  'batchPartialUpdate',
  'batchDelete',
]);

/**
 * Gives a batch method (batchGet, batchCreate, batchUpdate, batchPartialUpdate, batchDelete) its own limit
 * on the items of one request, instead of the server's `maxBatchSize`; a larger request is a 400 before the
 * handler runs. The limit is written to the interface description (`maxBatchSize: { value, validate: true }`).
 * The result has the handler's signature; a {@link withAttachments} handler keeps taking attachments.
 *
 * @example
 * ```ts
 * batchGet: withMaxBatchSize(100, (ids) => store.many(ids)),
 * ```
 * @see the plugin's `maxBatchSize` option
 */
export function withMaxBatchSize<P extends unknown[], R>(
  max: number,
  handler: (...args: P) => R,
): (...args: P) => R {
  if (typeof handler !== 'function') throw new TypeError('withMaxBatchSize takes a handler function');
  const marked = function (this: unknown, ...args: P): R {
    return handler.apply(this, args);
  };
  // other marks (withAttachments') stay readable on the wrapper
  for (const key of Object.getOwnPropertySymbols(handler)) {
    const d = Object.getOwnPropertyDescriptor(handler, key)!;
    Object.defineProperty(marked, key, d);
  }
  Object.defineProperty(marked, MAX_BATCH_SIZE, { value: max });
  return marked;
}

/** The limit a {@link withMaxBatchSize} handler carries (unchecked), or undefined. */
export function maxBatchSizeOf(handler: unknown): unknown {
  return typeof handler === 'function'
    ? (handler as { [MAX_BATCH_SIZE]?: unknown })[MAX_BATCH_SIZE]
    : undefined;
}

/** True for a usable limit: a positive safe integer. */
export function isBatchLimit(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

/** The number of items of a parsed list value: a list's length, 0 when absent, 1 for a single value. */
export function itemsOf(v: DataValue | undefined): number {
  if (v === undefined) return 0;
  return v instanceof DataList ? v.size : 1;
}

/** The methods whose batch size is their `ids` (their bodies, if any, must name exactly those ids). */
export function countsIds(method: ResourceMethod): boolean {
  return (
    method === 'batch_get' ||
    method === 'batch_delete' ||
    method === 'batch_update' ||
    method === 'batch_partial_update'
  );
}

/**
 * The batch size of a request, counted without binding anything: the `ids` of batch_get, batch_delete,
 * batch_update and batch_partial_update (their bodies must name exactly those ids), the body's `elements`
 * of batch_create, the criteria of a batch finder (`batchParam`). Undefined for other methods.
 */
export function batchSizeOf(
  method: ResourceMethod,
  query: DataMap,
  body: DataMap | undefined,
  batchParam: string | undefined,
): number | undefined {
  if (countsIds(method)) return itemsOf(query.get(QueryParam.IDS));
  switch (method) {
    case 'batch_create':
      return itemsOf(body?.get('elements'));
    case 'batch_finder':
      return batchParam === undefined ? undefined : itemsOf(query.get(batchParam));
    default:
      return undefined;
  }
}

/**
 * The parameter whose items a method's batch size counts (`ids`, `elements` of the body, the batch
 * finder's criteria), or undefined for a method that is not a batch method.
 */
export function batchParamOf(target: MethodModel): string | undefined {
  switch (target.method) {
    case 'batch_get':
    case 'batch_delete':
    case 'batch_update':
    case 'batch_partial_update':
      return QueryParam.IDS;
    case 'batch_create':
      return 'elements';
    case 'batch_finder':
      return target.batch?.param;
    default:
      return undefined;
  }
}

/** The limit of a method: its own, else the server's. */
export function batchLimitOf(target: MethodModel, serverMax: number): number {
  return target.batch?.maxBatchSize ?? target.maxBatchSize ?? serverMax;
}

/** The largest limit of any method of these resources (their subresources included) and the server's. */
export function largestBatchLimit(roots: Iterable<ResourceModel>, serverMax: number): number {
  let max = serverMax;
  const visit = (r: ResourceModel): void => {
    for (const m of r.methods.values()) if (m.maxBatchSize !== undefined) max = Math.max(max, m.maxBatchSize);
    for (const m of r.batchFinders.values())
      if (m.batch?.maxBatchSize !== undefined) max = Math.max(max, m.batch.maxBatchSize);
    for (const sub of r.subresources.values()) visit(sub);
  };
  for (const r of roots) visit(r);
  return max;
}

/**
 * Refuses a batch over its limit, with the reference's message (`... for method: batch_get`; a batch
 * finder is named by its name).
 * @throws ParameterBindingError 400 `SVC_ERR_BIND_BATCH_TOO_LARGE`
 */
export function checkBatchSize(size: number, max: number, methodName: string, parameter: string): void {
  if (size <= max) return;
  throw new ParameterBindingError(
    'SVC_ERR_BIND_BATCH_TOO_LARGE',
    parameter,
    `The request batch size: ${size} is larger than the allowed max batch size: ${max} for method: ${methodName}`,
  );
}
