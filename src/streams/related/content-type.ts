import { AttachmentStreamError } from '../errors';
import { boundaryParameters, mediaTypeEssence } from '../multipart/content-type';

/**
 * The boundary of a `multipart/*` Content-Type (quoted or not; the parameter name in any case), with the
 * reference's `multipart/related` messages for what is missing or repeated.
 */
export function boundaryOf(contentType: string): string {
  if (!mediaTypeEssence(contentType).startsWith('multipart/') || !contentType.includes(';')) {
    throw new AttachmentStreamError(
      `Malformed multipart mime request. No boundary found! (${contentType.slice(0, 100)})`,
    );
  }
  const found = boundaryParameters(contentType);
  if (found.length > 1)
    throw new AttachmentStreamError('Malformed multipart mime request. The boundary is given twice!');
  const boundary = found[0];
  if (boundary === undefined || boundary === '' || boundary.length > 200) {
    throw new AttachmentStreamError('Malformed multipart mime request. No boundary found!');
  }
  return boundary;
}
