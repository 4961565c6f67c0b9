import { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes connections that have carried no traffic for `timeoutMs` (the servers' `connectionTimeout`), by a
 * sweep over the open connections rather than a timer on each socket.
 *
 * Why not `server.setTimeout(ms)`: Node then re-arms each socket's timer at every request (a new Timeout
 * and a bound callback: the keep-alive timer is set when a response ends and replaced by the server's
 * timeout when the next request begins) and refreshes it on every read and write. Measured with the
 * example's get by id at a fixed rate (CPU per request, server pinned to one core): ~1.5-2 µs of a ~45 µs
 * request, which a bare `node:http` server without a timeout does not pay. The sweep costs nothing per
 * request: it reads each connection's byte counts once per period.
 *
 * What counts as traffic: bytes read from the client, and bytes the kernel took from us (written minus
 * still queued), so a client that stops reading a response (a slow reader: its window closed, our writes
 * queue up) is idle as well. The phases Node times itself are left to it: the request head
 * (`headersTimeout`), the whole request (`requestTimeout`) and an idle keep-alive connection
 * (`keepAliveTimeout`). A connection is closed between `timeoutMs` and `timeoutMs` plus one period after
 * its last byte; the period is a quarter of the timeout, at least 100 ms and at most 5 s.
 */
export function closeIdleConnectionsAfter(server: Server, timeoutMs: number): void {
  if (timeoutMs <= 0) return;
  const periodMs = Math.min(5_000, Math.max(100, Math.floor(timeoutMs / 4)));
  const open = new Map<Socket, Traffic>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = (): void => {
    const now = performance.now();
    for (const [socket, seen] of open) {
      const bytes = trafficOf(socket);
      if (bytes !== seen.bytes) {
        seen.bytes = bytes;
        seen.at = now;
      } else if (now - seen.at >= timeoutMs) {
        open.delete(socket);
        socket.destroy();
      }
    }
  };

  server.on('connection', (socket: Socket) => {
    open.set(socket, { bytes: 0, at: performance.now() });
    socket.once('close', () => open.delete(socket));
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, periodMs);
      // a server that is otherwise done does not stay up for its sweep
      sweeper.unref();
    }
  });
  server.once('close', () => {
    if (sweeper !== undefined) clearInterval(sweeper);
    sweeper = undefined;
  });
}

const TAKEN_OVER = Symbol('svc.idleConnections');

/**
 * The plugin's side of {@link closeIdleConnectionsAfter}: fastify's `connectionTimeout` (which
 * `svcServerOptions` sets to 60 s) is Node's per-socket timer; on an HTTP/1 server the plugin turns it off
 * and sweeps with the same timeout instead, once per server. HTTP/2 and TLS servers keep their timers
 * (their sessions and TLS sockets time out by their own rules).
 */
export function takeOverConnectionTimeout(server: Server): void {
  const s = server as Server & { [TAKEN_OVER]?: true };
  // an http.Server (not node:http2's, not https', which derive from tls.Server)
  if (!(s instanceof Server) || s[TAKEN_OVER] === true) return;
  s[TAKEN_OVER] = true;
  const timeout = s.timeout;
  if (!(timeout > 0)) return;
  s.setTimeout(0);
  closeIdleConnectionsAfter(s, timeout);
}

/** What a connection had carried at the last sweep that saw it move, and when (`performance.now()`). */
interface Traffic {
  bytes: number;
  at: number;
}

/** Bytes read plus bytes the kernel took (`bytesWritten` counts what is still queued too). */
function trafficOf(socket: Socket): number {
  return socket.bytesRead + socket.bytesWritten - socket.writableLength;
}
