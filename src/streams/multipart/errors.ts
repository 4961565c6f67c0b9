import { SvcError } from '../../errors';

/**
 * A multipart envelope that does not parse, or goes over a limit. The parser is shared: tunneling maps
 * these to its answers as they are (400 / 413); attachments may add their own codes to the union.
 */
export class MultipartFormatError extends SvcError {
  constructor(
    code: 'SVC_ERR_TUNNEL_MULTIPART_MALFORMED' | 'SVC_ERR_TUNNEL_MULTIPART_TOO_LARGE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
