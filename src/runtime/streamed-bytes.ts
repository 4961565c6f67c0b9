import type { EncodedResponse, ResourceRequest } from '../resources';

/** The byte counters of a connection (Node's `net.Socket`). */
interface SocketCounters {
  readonly bytesRead: number;
  readonly bytesWritten: number;
}

function socketOf(o: unknown): SocketCounters | undefined {
  const s = (o as { socket?: unknown } | undefined)?.socket;
  return typeof (s as SocketCounters | null | undefined)?.bytesWritten === 'number'
    ? (s as SocketCounters)
    : undefined;
}

/**
 * Where the socket's counters stood when a streamed request (`multipart/related`: attachments) started:
 * its body is not counted anywhere else (the decoder reads it with demand, and a listener on it would
 * change its flow). Undefined for buffered bodies and connections without counters.
 */
export function markRequestStream(request: ResourceRequest): number | undefined {
  const body = request.bodyStream;
  if (body === undefined) return undefined;
  const read = socketOf(body)?.bytesRead;
  // what came with the headers and is still in the body's buffer is counted too (Node may already have
  // taken more off the socket: see streamedBytes)
  return read === undefined ? undefined : read - body.readableLength;
}

/**
 * Calls `done` with the bytes of a streamed request body and of a streamed response (the attachments
 * plus the multipart framing and the headers) once the response has been written: read from the
 * connection's socket counters. A request with a `Content-Length` counts that; a chunked one counts what
 * the socket read after it started plus what its body had buffered then (chunk framing included): body
 * bytes Node read off the socket with the headers and holds elsewhere are missed (up to 64 KiB; measured
 * with the typed client's chunked uploads). A response
 * counts exactly what was written for it: nothing of it is written before the pipeline is done.
 */
export function streamedBytes(
  request: ResourceRequest,
  readMark: number | undefined,
  response: EncodedResponse,
  done: (bytesIn: number, bytesOut: number) => void,
): void {
  const connection = request.connection as
    { once?: (e: 'close', f: () => void) => unknown; socket?: unknown } | undefined;
  const length = Number(request.headers['content-length']);
  const fixedIn = request.bodyStream !== undefined && Number.isSafeInteger(length) ? length : undefined;
  const socket = socketOf(connection) ?? socketOf(request.bodyStream);
  const writeMark = response.stream !== undefined ? socket?.bytesWritten : undefined;
  if (socket === undefined || connection?.once === undefined) {
    done(fixedIn ?? 0, 0);
    return;
  }
  connection.once('close', () => {
    const bytesIn = fixedIn ?? (readMark === undefined ? 0 : Math.max(0, socket.bytesRead - readMark));
    const bytesOut = writeMark === undefined ? 0 : Math.max(0, socket.bytesWritten - writeMark);
    done(bytesIn, bytesOut);
  });
}
