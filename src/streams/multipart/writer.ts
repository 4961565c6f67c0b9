import { concatBytes, latin1Bytes } from '../../data/bytes';

export { makeMultipartBoundary, randomBoundary } from './boundary';

/** One part to write: its headers (`Content-Type` first, by convention) and its bytes. */
export interface MultipartWriterPart {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/**
 * A whole multipart body, buffered: no preamble, parts separated by CRLF, a CRLF after the closing
 * delimiter (what javax.mail and Python's `email` write). The boundary must not occur in the parts: see
 * {@link makeMultipartBoundary}. A `Buffer` on Node, a `Uint8Array` elsewhere.
 */
export function writeMultipart(boundary: string, parts: readonly MultipartWriterPart[]): Buffer {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\n`;
    for (const [name, value] of Object.entries(part.headers)) head += `${name}: ${value}\r\n`;
    chunks.push(latin1Bytes(`${head}\r\n`));
    chunks.push(part.body);
    chunks.push(latin1Bytes('\r\n'));
  }
  chunks.push(latin1Bytes(`--${boundary}--\r\n`));
  // the Buffer type for Node callers (they get one there); in a browser, a Uint8Array of the same bytes
  return concatBytes(chunks) as Buffer;
}
