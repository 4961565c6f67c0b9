import { DataMap, type JsonCodec } from '../data';

/**
 * A large body's `elements` list written apart from the rest (issue 22: the list is encoded a group at a
 * time, between turns of the event loop, by pipeline.ts `encodeElementsSliced` and batch-finder-text.ts),
 * then put in its place: the rest of the body is encoded with a marker where the list goes. A JSON object's
 * text is its entries' texts in order, so the bytes are those of one encode of the whole body.
 */

/** Stands for the elements in the encoded rest of the body (a text no data holds by chance). */
const MARKER = `svc-elements-${Math.random().toString(36).slice(2)}-${Date.now()}`;

/**
 * The JSON text of `body` with `elements` (its list's items' JSON, comma-separated, as `mapsToString`
 * writes them) in place of its `elements` entry; undefined when the marker is not found exactly once (some
 * data of the body holds its text), and the caller encodes the body whole.
 */
export function withElementsText(codec: JsonCodec, body: DataMap, elements: string): string | undefined {
  const shell = new DataMap();
  for (const [k, v] of body) shell.put(k, k === 'elements' ? MARKER : v);
  const text = codec.mapToString(shell);
  const marker = JSON.stringify(MARKER);
  const at = text.indexOf(marker);
  if (at === -1 || text.indexOf(marker, at + 1) !== -1) return undefined;
  return `${text.slice(0, at)}[${elements}]${text.slice(at + marker.length)}`;
}
