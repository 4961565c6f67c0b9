import { AttachmentStreamError } from '../errors';

/** The boundary of a `multipart/*` Content-Type (quoted or not; the parameter name in any case). */
export function boundaryOf(contentType: string): string {
  const semi = contentType.indexOf(';');
  const base = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (!base.startsWith('multipart/') || semi === -1) {
    throw new AttachmentStreamError(
      `Malformed multipart mime request. No boundary found! (${contentType.slice(0, 100)})`,
    );
  }
  let boundary: string | undefined;
  // parameters: name=token or name="quoted"
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (let m = re.exec(contentType); m !== null; m = re.exec(contentType)) {
    if (m[1]!.toLowerCase() !== 'boundary') continue;
    if (boundary !== undefined)
      throw new AttachmentStreamError('Malformed multipart mime request. The boundary is given twice!');
    const raw = m[2]!.trim();
    boundary = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  if (boundary === undefined || boundary === '' || boundary.length > 200) {
    throw new AttachmentStreamError('Malformed multipart mime request. No boundary found!');
  }
  return boundary;
}

/** The media type of a Content-Type value, lower case, parameters removed. */
export function mediaTypeOf(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
