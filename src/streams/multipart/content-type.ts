import { MultipartFormatError } from './errors';

/** The longest boundary RFC 2046 allows. */
const MAX_BOUNDARY = 70;

/**
 * The `boundary` parameter of a `multipart/*` Content-Type, quoted (`"..."`, backslash escapes) or not, the
 * parameter name in any case; undefined when there is none, {@link MultipartFormatError} when it is given
 * twice, empty or longer than 70 characters.
 */
export function multipartBoundary(contentType: string): string | undefined {
  let boundary: string | undefined;
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (let m = re.exec(contentType); m !== null; m = re.exec(contentType)) {
    if (m[1]!.toLowerCase() !== 'boundary') continue;
    if (boundary !== undefined)
      throw new MultipartFormatError(
        'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
        'the boundary parameter is given twice',
      );
    const raw = m[2]!.trim();
    boundary = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  if (boundary !== undefined && (boundary === '' || boundary.length > MAX_BOUNDARY))
    throw new MultipartFormatError(
      'SVC_ERR_TUNNEL_MULTIPART_MALFORMED',
      `the boundary must have 1 to ${MAX_BOUNDARY} characters`,
    );
  return boundary;
}

/** The media type of a Content-Type value: lower case, without parameters. */
export function mediaTypeEssence(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
