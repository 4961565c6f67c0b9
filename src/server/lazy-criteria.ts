import { Observable } from 'rxjs';
import { DataMap, type JsonCodec } from '../data';
import { DEFAULT_MAX_URI_DEPTH, type UriElement, findLongList, parseElement } from '../protocol';
import { ArrayDataSchema, type DataSchema } from '../schema';
import { coerceCriterion } from '../resources/params';
import type { RecordTemplate } from '../templates';
import type { MethodModel } from '../resources/registration';
import type { RequestFilter } from '../resources/request';
import {
  ITEMS_PER_STEP,
  SLICED_BATCH_SIZE,
  SLICE_BUDGET_MS,
  type SliceOwner,
  nextSlice,
} from '../resources/slices';
import type { BoundCall } from './bind';
import { entryWriter } from './batch-finder-text';
import { type CriterionHandler, type CriterionOutcome, runCriteria } from './per-criterion';
import { type BuildOptions, batchFinderPage } from './response-builder';
import { criterionCheckOf } from './validation-filter';

/**
 * A large per-criterion batch finder served from the text of its criteria (issue 22): the criteria list is
 * never parsed as a whole. What lives across the turns of such a request is the query text and one offset
 * per criterion; each criterion is parsed, bound, run and written within one slice and then dropped.
 *
 * Why: parsed up front, 1 000 criteria (a DataMap each, its record wrapper, its outcome) lived as long as
 * the request, two requests in flight held ~2 MB, and every young-generation scavenge meanwhile copied
 * them (the gets' p99 beside tunneled batch finders was about one such scavenge: bench/batch-stall).
 *
 * Two passes over the text, so that every answer is what the whole list parsed up front gets:
 * 1. {@link checkCriteria}: each criterion parsed, bound and validated (the validation filter's own check),
 *    and dropped. Any failure, and anything this path does not do, goes back to the usual path, which
 *    parses the whole list and answers exactly as before (the same 400 or 422, in the same order of
 *    checks); no handler has run by then.
 * 2. {@link lazyBatchFinderText}: each criterion parsed and bound again when its turn to run comes, run,
 *    and its entry written as soon as it and those before it are settled.
 *
 * Taken only where nothing else sees the criteria list: a per-criterion batch finder whose batch parameter
 * is the large list, without request attachments, with no filter on its resource but the framework's
 * validation filter without output checks (so no response filter), answered in JSON, to a request whose
 * `Accept` does not allow response attachments (they would need the answers as data). There `ctx.query`
 * holds the batch parameter as an empty `List()`; everything else a handler sees is the same.
 */

/** The criteria list of a raw query, as text: item `i` is `text.slice(bounds[i], bounds[i + 1] - 1)`. */
export interface CriteriaText {
  /** The batch parameter's (decoded) name. */
  readonly name: string;
  readonly items: number;
  /** The raw query with `List()` in place of the list: what is parsed and routed. */
  readonly query: string;
  /** The raw query. */
  readonly text: string;
  /** Where each item starts, and one past the list's closing parenthesis at the end. */
  readonly bounds: Int32Array;
}

/** Items are parsed alone, one level below the list that holds them in the query. */
const ITEM_OPTIONS = { maxDepth: DEFAULT_MAX_URI_DEPTH - 1 } as const;

/**
 * The first `List(...)` value of a raw query with at least {@link SLICED_BATCH_SIZE} items, split into items
 * by a scan for `(`, `)` and `,` (structural characters are never percent-encoded); undefined when there is
 * none or its parentheses do not close at the end of the value (the usual parser then says why).
 */
export function criteriaTextOf(raw: string | undefined): CriteriaText | undefined {
  if (raw === undefined) return undefined;
  const long = findLongList(raw, SLICED_BATCH_SIZE - 1);
  if (long === undefined) return undefined;
  const { items, valueStart, valueEnd } = long;
  const close = valueEnd - 1;
  if (raw.charCodeAt(close) !== 0x29 /* ) */) return undefined;
  const bounds = new Int32Array(items + 1);
  bounds[0] = valueStart + 5;
  if (splitItems(raw, valueStart + 5, close, bounds, items) !== items - 1) return undefined;
  bounds[items] = close + 1;
  return { name: long.name, items, query: long.query, text: raw, bounds };
}

/**
 * Where each top-level item of `raw[from, close)` after the first starts (into `bounds[1..]`); answers the
 * index of the last one, or -1 when the parentheses do not balance or there are more than `items`.
 *
 * A function of its own, so that the loop is compiled with the function rather than on its own: as part
 * of {@link criteriaTextOf} the loop was compiled on the first long list ever (on-stack replacement),
 * before the code after it had run, and every later request entered that compiled loop and fell back to
 * the interpreter at its end (a deoptimization per batch finder request; V8's trace, bench/batch-stall).
 */
function splitItems(raw: string, from: number, close: number, bounds: Int32Array, items: number): number {
  let depth = 0;
  let k = 0;
  for (let i = from; i < close; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x28 /* ( */) depth++;
    else if (c === 0x29 /* ) */) {
      if (depth === 0) return -1;
      depth--;
    } else if (c === 0x2c /* , */ && depth === 0) {
      if (++k >= items) return -1;
      bounds[k] = i + 1;
    }
  }
  return depth === 0 ? k : -1;
}

/** How a routed method's criteria are checked on this path; undefined when it does not take this path. */
export interface LazyPlan {
  /** The validation filter's check of one criterion (undefined: no validation filter). */
  readonly check: ((data: DataMap, schema: DataSchema) => boolean) | undefined;
  /** The schema the validation filter checks one criterion against. */
  readonly itemSchema: DataSchema;
}

/** Whether a routed method takes this path for `list` (see the module's comment), and how it checks. */
export function lazyPlanOf(
  target: MethodModel,
  filters: readonly RequestFilter[],
  list: CriteriaText,
): LazyPlan | undefined {
  const batch = target.batch;
  const param = target.params?.criteria;
  if (target.method !== 'batch_finder' || batch === undefined || param === undefined) return undefined;
  if (batch.form !== 'perCriterion' || batch.param !== list.name || target.attachments !== undefined)
    return undefined;
  if (filters.length > 1) return undefined;
  const check = filters.length === 0 ? undefined : criterionCheckOf(filters[0]!);
  if (filters.length === 1 && check === undefined) return undefined;
  const schema = param.type.schema();
  if (!(schema instanceof ArrayDataSchema)) return undefined;
  return { check, itemSchema: schema.getItems() };
}

/** Item `i` of the list, parsed (throws as the parser does). */
function itemOf(list: CriteriaText, i: number): UriElement {
  return parseElement(list.text.slice(list.bounds[i], list.bounds[i + 1]! - 1), ITEM_OPTIONS);
}

/** Criterion `i` bound as the binder binds it (`coerceCriterion`); undefined where that fails. */
function criterionData(target: MethodModel, list: CriteriaText, i: number): DataMap | undefined {
  let item: UriElement;
  try {
    item = itemOf(list, i);
  } catch {
    return undefined;
  }
  if (!(item instanceof DataMap)) return undefined;
  const r = coerceCriterion(item, target.batch!.criteria.schema);
  return r.isValid() ? (r.getFixed() as DataMap) : undefined;
}

/**
 * Pass 1: whether every criterion parses, binds and passes the validation filter, {@link SLICE_BUDGET_MS}
 * at a time; nothing is kept. Rejects when the request is aborted meanwhile (client gone).
 */
export async function checkCriteria(
  target: MethodModel,
  plan: LazyPlan,
  list: CriteriaText,
  owner: SliceOwner,
  label: string,
): Promise<boolean> {
  let deadline = performance.now() + SLICE_BUDGET_MS;
  for (let i = 0; i < list.items; i++) {
    if ((i + 1) % ITEMS_PER_STEP === 0 && performance.now() >= deadline) {
      await nextSlice(owner, label);
      deadline = performance.now() + SLICE_BUDGET_MS;
    }
    const data = criterionData(target, list, i);
    if (data === undefined) return false;
    if (plan.check !== undefined && !plan.check(data, plan.itemSchema)) return false;
  }
  return true;
}

/**
 * Pass 2: runs the criteria as `runPerCriterion` does (at most the method's `concurrency` pending, a slice
 * at a time), each made from the text as it starts, and writes each criterion's entry as soon as it and
 * every one before it are settled. One value: the entries' text, UTF-8 bytes per slice (joined by
 * {@link batchFinderJson}). Fails with what building an entry throws.
 */
export function lazyBatchFinderText(
  call: BoundCall,
  list: CriteriaText,
  codec: JsonCodec,
  options: BuildOptions,
  path: string,
): Observable<Buffer[]> {
  const inv = call.invocation;
  const target = inv.target;
  const batch = target.batch!;
  const write = entryWriter(
    call,
    codec,
    batchFinderPage(call, options, { criterion: (i) => itemOf(list, i), path }),
  );
  return new Observable<Buffer[]>((subscriber) => {
    const n = list.items;
    const parts = new SliceBytes();
    const slices: Buffer[] = [];
    /** Outcomes settled before an earlier criterion's (async answers), until their turn to be written. */
    const early = new Map<number, CriterionOutcome>();
    let written = 0;
    const criterionAt = (i: number): RecordTemplate => {
      const data = criterionData(target, list, i);
      // pass 1 bound every criterion; the text has not changed since
      if (data === undefined) throw new Error(`criterion ${i} no longer binds`);
      return new batch.criteria.recordClass(data);
    };
    const handler = target.handler as CriterionHandler;
    return runCriteria(handler, n, criterionAt, inv.args[1], inv.ctx, batch.concurrency, {
      settle: (i, outcome) => {
        if (i !== written) {
          early.set(i, outcome);
          return;
        }
        write(outcome, written++, parts);
        for (let o = early.get(written); o !== undefined; o = early.get(written)) {
          early.delete(written);
          write(o, written++, parts);
        }
      },
      beforeTurn: () => slices.push(parts.take()),
    }).subscribe({
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        slices.push(parts.take());
        subscriber.next(slices);
        subscriber.complete();
      },
    });
  });
}

/** Texts up to this long are copied char by char while they are ASCII (see `SliceBytes#write`). */
const SHORT_TEXT = 32;

/**
 * A slice's entries written as UTF-8 into one Buffer of the request's, then copied out as a Buffer of
 * their own: Buffers of more than 4 KiB live outside the JavaScript heap, so that the scavenges of the
 * turns until the response is complete neither scan nor copy the text (~180 KB per request of 1 000
 * entries), and no joined string nor growing array of pieces is made per slice. (Not one Buffer for all
 * requests: a slice waiting for asynchronous answers keeps what it wrote across turns.)
 */
class SliceBytes {
  /** Bytes written since the last {@link take}. */
  length = 0;
  private buffer = Buffer.allocUnsafeSlow(64 * 1024);

  push(...texts: string[]): number {
    for (const text of texts) this.write(text);
    return this.length;
  }

  private write(text: string): void {
    const n = text.length;
    // a UTF-16 unit is at most 3 bytes of UTF-8
    if (this.length + 3 * n > this.buffer.byteLength) this.grow(3 * n);
    const buffer = this.buffer;
    if (n <= SHORT_TEXT) {
      // the template's pieces and numbers (all but the elements' JSON) copied char by char: an ASCII char
      // is its own byte, where Buffer#write is a call into C++ per piece. Measured on the bench's entries'
      // ten pieces: ~0.3 ms per 1 000 entries from ~0.7
      let at = this.length;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) break;
        buffer[at++] = c;
      }
      if (i === n) {
        this.length = at;
        return;
      }
    }
    this.length += buffer.write(text, this.length, 'utf8');
  }

  /** The bytes written, as a Buffer of their own; empties this. */
  take(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.length);
    this.buffer.copy(out, 0, 0, this.length);
    this.length = 0;
    return out;
  }

  private grow(more: number): void {
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.buffer.byteLength, this.length + more));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }
}

const OPEN = Buffer.from('{"elements":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/** The response body of a batch finder from its entries (what `withElementsText` makes of them). */
export function batchFinderJson(slices: readonly Buffer[]): Buffer {
  const all: Buffer[] = [OPEN];
  for (const s of slices) {
    if (s.byteLength === 0) continue;
    if (all.length > 1) all.push(COMMA);
    all.push(s);
  }
  all.push(CLOSE);
  return Buffer.concat(all);
}
