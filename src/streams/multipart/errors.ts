import { SvcError } from '../../errors';
import { registerErrorCodes } from '../../errors/svc-error';
import { STREAMS_MULTIPART_ERRORS_CODES } from '../../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(STREAMS_MULTIPART_ERRORS_CODES);

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
