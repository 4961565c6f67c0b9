import {
  JSON_CONTENT_TYPE,
  PSON_CONTENT_TYPE,
  parseMediaType,
  type CodecRegistry,
  type DataCodec,
} from '../data';
import { ContentNegotiationError } from './errors';
import { javaNumberText } from './uri-element-encoder';

/**
 * Content negotiation (wire facts §3.3, §3.4): the request body's codec from `Content-Type`, the response's
 * from `Accept`. JSON is the default both ways.
 */

/** The media type of attachments envelopes; alone in `Accept` it means JSON. */
export const MULTIPART_RELATED = 'multipart/related';

/** The types a default server produces, most preferred first (ties in `Accept` go to the earlier one). */
export const DEFAULT_RESPONSE_TYPES: readonly string[] = [JSON_CONTENT_TYPE, PSON_CONTENT_TYPE];

/** One media range of an `Accept` header. */
export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  /** Quality in [0, 1]; 1 when absent or not a number in range (as the reference reads it). */
  readonly q: number;
}

/**
 * Parses an `Accept` header into media ranges. Empty items are skipped; a lone `*` is `*\/*`; parameters
 * other than `q` are ignored.
 *
 * @throws ContentNegotiationError `SVC_ERR_PROTOCOL_BAD_ACCEPT` (400) `Encountered invalid MIME type '<range>'
 *   in accept header.` for an item that is not `type/subtype`
 */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const item of header.split(',')) {
    if (item.trim() === '') continue;
    const parts = item.split(';');
    let full = parts[0]!.trim();
    if (full === '*') full = '*/*';
    const slash = full.indexOf('/');
    const type = slash <= 0 ? '' : full.slice(0, slash).trim().toLowerCase();
    const subtype =
      slash <= 0
        ? ''
        : full
            .slice(slash + 1)
            .trim()
            .toLowerCase();
    if (type === '' || subtype === '' || subtype.includes('/')) {
      throw new ContentNegotiationError(
        'SVC_ERR_PROTOCOL_BAD_ACCEPT',
        `Encountered invalid MIME type '${item}' in accept header.`,
      );
    }
    let q = 1;
    for (let i = 1; i < parts.length; i++) {
      const p = parts[i]!;
      const eq = p.indexOf('=');
      if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const v = p.slice(eq + 1).trim();
      const n = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?$|^[0-9]+\.$/.test(v) ? Number(v) : Number.NaN;
      q = Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * The response media type for an `Accept` header among `supported` (most preferred first). No header, an
 * empty one, or only `multipart/related` → JSON (or the first supported type when JSON is not supported).
 * Otherwise each supported type takes the quality of the most specific range that matches it
 * (`type/subtype` over `type/*` over `*\/*`, the first such range); the highest quality above 0 wins, then
 * the more specific match, then the earlier supported type; so `*\/*` gives JSON.
 *
 * The reference ranks by specificity before quality (`application/json;q=0.1, application/*` picks JSON
 * there); Svc follows RFC 9110 and lets the quality decide. The two agree on every header a Rest.li
 * client writes (`type;q=1.0,type2;q=0.9,...`).
 *
 * @throws ContentNegotiationError 406 `None of the types in the request's 'Accept' header are supported.
 *   Supported MIME types are: [...]`, or 400 for a malformed range
 */
export function negotiateResponseType(
  accept: string | undefined,
  supported: readonly string[] = DEFAULT_RESPONSE_TYPES,
): string {
  const fallback = supported.includes(JSON_CONTENT_TYPE) ? JSON_CONTENT_TYPE : supported[0];
  if (fallback === undefined) throw notAcceptable(supported);
  if (accept === undefined || accept.trim() === '') return fallback;
  const ranges = parseAccept(accept);
  if (ranges.length === 0 || ranges.every((r) => `${r.type}/${r.subtype}` === MULTIPART_RELATED))
    return fallback;
  let best: string | undefined;
  let bestQ = 0;
  let bestFit = -1;
  for (const candidate of supported) {
    const mt = parseMediaType(candidate);
    if (mt === undefined) continue;
    let fit = -1;
    let q = 0;
    for (const r of ranges) {
      const f =
        r.type === mt.type && r.subtype === mt.subtype
          ? 2
          : r.type === mt.type && r.subtype === '*'
            ? 1
            : r.type === '*' && r.subtype === '*'
              ? 0
              : -1;
      if (f > fit) {
        fit = f;
        q = r.q;
      }
    }
    if (fit < 0 || q <= 0) continue;
    if (q > bestQ || (q === bestQ && fit > bestFit)) {
      best = candidate;
      bestQ = q;
      bestFit = fit;
    }
  }
  if (best === undefined) throw notAcceptable(supported);
  return best;
}

function notAcceptable(supported: readonly string[]): ContentNegotiationError {
  return new ContentNegotiationError(
    'SVC_ERR_PROTOCOL_NOT_ACCEPTABLE',
    `None of the types in the request's 'Accept' header are supported. Supported MIME types are: [${supported.join(', ')}]`,
  );
}

/** The negotiated response codec and the `Content-Type` to send. */
export interface ResponseCodecChoice {
  readonly contentType: string;
  readonly codec: DataCodec;
}

/**
 * {@link negotiateResponseType} over the codecs of `registry` (JSON first, then the others in registration
 * order), with the codec to write the body.
 */
export function selectResponseCodec(
  accept: string | undefined,
  registry: CodecRegistry,
): ResponseCodecChoice {
  const types = registry.contentTypes();
  const ordered = types.includes(JSON_CONTENT_TYPE)
    ? [JSON_CONTENT_TYPE, ...types.filter((t) => t !== JSON_CONTENT_TYPE)]
    : types;
  const contentType = negotiateResponseType(accept, ordered);
  return { contentType, codec: registry.get(contentType) };
}

/**
 * The codec of a request body from its `Content-Type`: JSON when absent; parameters (`charset`) ignored.
 * A `multipart/related` request is the attachments layer's business and never reaches here.
 *
 * @throws ContentNegotiationError `SVC_ERR_PROTOCOL_UNSUPPORTED_MEDIA_TYPE` (415) for a type no codec reads
 *   (the reference falls back to JSON there, with a TODO to throw; Svc throws)
 */
export function selectRequestCodec(contentType: string | undefined, registry: CodecRegistry): DataCodec {
  if (contentType === undefined || contentType.trim() === '') return registry.get(JSON_CONTENT_TYPE);
  const codec = registry.find(contentType);
  if (codec === undefined) {
    throw new ContentNegotiationError(
      'SVC_ERR_PROTOCOL_UNSUPPORTED_MEDIA_TYPE',
      `Unsupported Content-Type '${contentType}'; supported: ${registry.contentTypes().join(', ')}`,
    );
  }
  return codec;
}

/**
 * The `Accept` header a client sends for `types` (most preferred first), as the reference's client writes
 * it: one type bare; several as `type;q=1.0,type2;q=0.9,...` (q computed in floating point, so the 4th is
 * `0.7000000000000001`); with `acceptAttachments`, `multipart/related` appended with the next q. Undefined
 * when there is nothing to send.
 */
export function buildAcceptHeader(types: readonly string[], acceptAttachments = false): string | undefined {
  if (types.length === 0 && !acceptAttachments) return undefined;
  if (types.length === 1 && !acceptAttachments) return types[0];
  let q = 1.0;
  const parts: string[] = [];
  for (const t of types) {
    parts.push(`${t};q=${javaDoubleText(q)}`);
    q -= 0.1;
  }
  if (acceptAttachments) parts.push(`${MULTIPART_RELATED};q=${javaDoubleText(q)}`);
  return parts.join(',');
}

/** Java's `Double.toString` for a double in the q range (`1.0`, `0.9`). */
function javaDoubleText(d: number): string {
  const s = javaNumberText(d);
  return Number.isInteger(d) && !s.includes('.') && !s.includes('E') ? `${s}.0` : s;
}
