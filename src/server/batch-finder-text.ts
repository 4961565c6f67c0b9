import { DataList, DataMap, type JsonCodec } from '../data';
import { batchFinderResponse } from '../protocol';
import { SLICE_BUDGET_MS } from '../resources/slices';
import type { ResourceResponse } from '../resources/request';
import type { BoundCall } from './bind';
import { type BuildOptions, batchFinderEntry, batchFinderOutcomes } from './response-builder';
import { withElementsText } from './elements-text';

/**
 * A large batch finder's JSON body (issue 22) built and encoded a group of criteria at a time: each group's
 * entries (`{elements, paging}` envelopes, their DataMaps and lists) are written to text as soon as they
 * are built, so only the compact text of earlier groups lives on across the turns between slices.
 *
 * Why: building every entry first and encoding them afterwards kept all 1 000 envelopes alive across ~10
 * turns, and every young-generation scavenge in those turns copied them again (the pauses left beside a
 * batch finder were such scavenges, 7-27 ms on a loaded machine). Measured in the server process of
 * batch-stall's example (1 000 criteria, 2 in flight, 40 requests, v8.GCProfiler): new space live after a
 * scavenge ~1.4-1.7 MB before, ~0.7-0.9 MB after; allocation per request unchanged (~4.4 MB).
 *
 * The bytes are those of `codec.mapToString(batchFinderResponse(entries))`: `mapsToString` writes each map
 * as `mapToString` would, and the body around the list is written by the codec with a marker in its place.
 */

/** Criteria whose entries are built and encoded together between two looks at the clock. */
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
  const entry = batchFinderEntry(call, options);
  const parts: string[] = [];
  let deadline = performance.now() + SLICE_BUDGET_MS;
  for (let i = 0; i < outcomes.length;) {
    const end = Math.min(outcomes.length, i + CRITERIA_PER_GROUP);
    const items = [];
    for (; i < end; i++) items.push(entry(outcomes[i]!, i));
    const list = batchFinderResponse(items).get('elements') as DataList;
    parts.push(codec.mapsToString(list.toArray() as DataMap[]));
    if (performance.now() >= deadline) {
      await between();
      deadline = performance.now() + SLICE_BUDGET_MS;
    }
  }
  // joining ~180 KB and the adapter's copy of it into a Buffer (paced-body.ts) get a turn of their own: a
  // CPU profile timed against event-loop gaps found them in the turn of the last group
  await between();
  return withElementsText(codec, encodedBatchFinderResponse().body!, parts.join(','));
}

/**
 * The response a body encoded by {@link encodeBatchFinderInParts} goes out with: status and headers as
 * the response builder gives a batch finder; its body stands for the text (the elements are not kept).
 */
export function encodedBatchFinderResponse(): ResourceResponse {
  return { status: 200, headers: NO_HEADERS, body: new DataMap([['elements', new DataList()]]) };
}

const NO_HEADERS: { readonly [name: string]: string } = Object.freeze({});
