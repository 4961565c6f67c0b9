import { DataList, DataMap, type JsonCodec } from '../data';
import { batchFinderResponse } from '../protocol';
import { SLICE_BUDGET_MS } from '../resources/slices';
import type { ResourceResponse } from '../resources/request';
import type { BoundCall } from './bind';
import {
  type BuildOptions,
  type CollectionPage,
  batchFinderOutcomes,
  batchFinderPage,
  collectionBodyOf,
} from './response-builder';
import { withElementsText } from './elements-text';
import type { CriterionOutcome } from './per-criterion';

/**
 * A large batch finder's JSON body (issue 22) built and encoded as it goes: each criterion's entry is
 * written to text as soon as its page is cut, so only the compact text of earlier entries lives on across
 * the turns between slices.
 *
 * Why: building every entry first and encoding them afterwards kept all 1 000 envelopes alive across ~10
 * turns, and every young-generation scavenge in those turns copied them again (the pauses left beside a
 * batch finder were such scavenges, 7-27 ms on a loaded machine). Measured in the server process of
 * batch-stall's example (1 000 criteria, 2 in flight, 40 requests, v8.GCProfiler): new space live after a
 * scavenge ~1.4-1.7 MB before, ~0.7-0.9 MB after.
 *
 * The usual entry (a page without custom metadata, paging links or a paging projection) is written from a
 * template around its elements' JSON, without its `{elements, paging}` envelope as data (a DataMap, a
 * DataList of the elements, the paging's DataMap and links list): those were ~1 MB of the ~3.8 MB a
 * 1 000-criteria request allocated. Any other entry is built as data and encoded.
 *
 * The bytes are those of `codec.mapToString(batchFinderResponse(entries))`: `mapsToString` writes each map
 * as `mapToString` would; the template writes the envelope's keys in the order `collectionResponse` and
 * `collectionMetadataMap` put them, and its integers as `JSON.stringify` does; the body around the list is
 * written by the codec with a marker in its place.
 */

/** Criteria whose entries are encoded between two looks at the clock. */
const CRITERIA_PER_GROUP = 16;

/**
 * The JSON text of a batch finder's response body, built and encoded {@link SLICE_BUDGET_MS} at a time,
 * awaiting `between()` (the server's next turn) between slices (undefined as `withElementsText` says).
 * Throws what building an entry throws.
 */
export async function encodeBatchFinderInParts(
  call: BoundCall,
  result: unknown,
  options: BuildOptions,
  codec: JsonCodec,
  between: () => Promise<void>,
): Promise<string | undefined> {
  const outcomes = batchFinderOutcomes(call, result);
  const write = entryWriter(call, codec, batchFinderPage(call, options));
  /** The text of the current slice's entries, in pieces (commas between entries included). */
  const parts: string[] = [];
  /** Each earlier slice's entries as one flat string (see {@link flatten}). */
  const slices: string[] = [];
  let deadline = performance.now() + SLICE_BUDGET_MS;
  for (let i = 0; i < outcomes.length;) {
    const end = Math.min(outcomes.length, i + CRITERIA_PER_GROUP);
    for (; i < end; i++) write(outcomes[i]!, i, parts);
    if (performance.now() >= deadline) {
      flatten(parts, slices);
      await between();
      deadline = performance.now() + SLICE_BUDGET_MS;
    }
  }
  flatten(parts, slices);
  // joining ~180 KB and the adapter's copy of it into a Buffer (paced-body.ts) get a turn of their own: a
  // CPU profile timed against event-loop gaps found them in the turn of the last group
  await between();
  return withElementsText(codec, encodedBatchFinderResponse().body!, slices.join(','));
}

/** Where entries are written: an array of strings, or anything that takes them in order. */
export interface TextParts {
  /** 0 until something is written (since the last time it was emptied). */
  readonly length: number;
  push(...texts: string[]): unknown;
}

/**
 * Writes criterion `i`'s entry, from its outcome, to `parts` (a comma first unless `parts` is empty): a
 * plain page from the template, any other as data encoded. Throws what building the entry throws.
 */
export function entryWriter(
  call: BoundCall,
  codec: JsonCodec,
  page: (o: CriterionOutcome, i: number) => CollectionPage | { readonly error: DataMap },
): (o: CriterionOutcome, i: number, parts: TextParts) => void {
  const projected = call.invocation.ctx.pagingProjection !== undefined;
  return (o, i, parts) => {
    const p = page(o, i);
    if (parts.length > 0) parts.push(',');
    if ('error' in p) {
      const entry = (batchFinderResponse([p]).get('elements') as DataList).get(0) as DataMap;
      parts.push(codec.mapToString(entry));
    } else if (projected || p.metadata !== undefined || p.paging.links.length > 0) {
      parts.push(codec.mapToString(collectionBodyOf(call, p)));
    } else {
      pushPlainEntry(codec, p, parts);
    }
  };
}

/**
 * Moves a slice's text into `slices` as one flat string, before the turn ends, so that what lives on to
 * the end of the request is the text alone: one object per slice. An entry written as one template string
 * was a tree of ~8 concatenated strings around its elements' JSON (~450 bytes for ~180 of text), ten
 * objects per entry which every scavenge meanwhile copied (issue 22).
 */
function flatten(parts: string[], slices: string[]): void {
  if (parts.length === 0) return;
  slices.push(parts.join(''));
  parts.length = 0;
}

/**
 * Pushes `{"elements":[...],"paging":{"start":s,"count":c[,"total":t],"links":[]}}` of a page without
 * links, in pieces which {@link flatten} joins (no concatenated string per piece).
 */
function pushPlainEntry(codec: JsonCodec, p: CollectionPage, parts: TextParts): void {
  const { start, count, total } = p.paging;
  parts.push(
    '{"elements":[',
    codec.mapsToString(p.elements),
    '],"paging":{"start":',
    JSON.stringify(start),
    ',"count":',
    JSON.stringify(count),
  );
  if (total !== undefined) parts.push(',"total":', JSON.stringify(total));
  parts.push(',"links":[]}}');
}

/**
 * The response a body encoded by {@link encodeBatchFinderInParts} goes out with: status and headers as
 * the response builder gives a batch finder; its body stands for the text (the elements are not kept).
 */
export function encodedBatchFinderResponse(): ResourceResponse {
  return { status: 200, headers: NO_HEADERS, body: new DataMap([['elements', new DataList()]]) };
}

const NO_HEADERS: { readonly [name: string]: string } = Object.freeze({});
