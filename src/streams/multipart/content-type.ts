import { MultipartFormatError } from './errors';

/** The longest boundary RFC 2046 allows. */
const MAX_BOUNDARY = 70;

/**
 * The `boundary` parameter of a `multipart/*` Content-Type, quoted (`"..."`, backslash escapes) or not, the
 * parameter name in any case; undefined when there is none, {@link MultipartFormatError} when it is given
 * twice, empty or longer than 70 characters.
 */
export function multipartBoundary(contentType: string): string | undefined {
  const found = boundaryParameters(contentType);
  if (found.length > 1)
    throw new MultipartFormatError(
      'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
      'the boundary parameter is given twice',
    );
  const boundary = found[0];
  if (boundary !== undefined && (boundary === '' || boundary.length > MAX_BOUNDARY))
    throw new MultipartFormatError(
      'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
      `the boundary must have 1 to ${MAX_BOUNDARY} characters`,
    );
  return boundary;
}

/**
 * Every `boundary` parameter of a Content-Type value, in order, unquoted (`"..."` with backslash escapes);
 * the parameter name in any case. Callers decide what a missing, repeated or odd boundary means.
 */
export function boundaryParameters(contentType: string): string[] {
  const out: string[] = [];
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (let m = re.exec(contentType); m !== null; m = re.exec(contentType)) {
    if (m[1]!.toLowerCase() !== 'boundary') continue;
    const raw = m[2]!.trim();
    out.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return out;
}

/** The media type of a Content-Type value: lower case, without parameters. */
export function mediaTypeEssence(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
