import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { JsonCodec } from '../data';
import {
  BASELINE_PROTOCOL_VERSION,
  type ErrorMode,
  buildErrorResponse,
  protocolHeaderNames,
} from '../protocol';
import { ServiceOverloadedError, ShuttingDownError } from './errors';
import type { Health } from './health';
import type { LoadShedder } from './load-shedding';
import type { GracefulShutdown } from './shutdown';

/**
 * The front door: the first thing every request meets, before fastify (or the standalone `node:http`
 * server) sees it. It answers health probes, refuses requests while the process shuts down (`stop` mode)
 * and sheds load, each as cheaply as possible, and counts the requests it passes on as in flight.
 *
 * It sits on the `node:http` server's `request` event rather than in a fastify hook so that it works for
 * any server built on `node:http`, runs before routing, parsing and logging (a probe is not logged and not
 * counted as a request; a shed request costs no routing), and needs nothing from inside the resource layer.
 */

/** Options of {@link createFrontDoor}. */
export interface FrontDoorOptions {
  readonly health: Health;
  readonly shutdown: GracefulShutdown;
  /** Load shedding; none when absent. */
  readonly shedder?: Pick<LoadShedder, 'shouldShed'>;
  /** Prefix of the protocol headers on refusals (as svcPlugin's `headerPrefix`). Default `X-Svc`. */
  readonly headerPrefix?: string;
  /** Error mode of the refusals' ErrorResponse bodies (as svcPlugin's `mode`). Default `production`. */
  readonly mode?: ErrorMode;
}

/** Answers `req` and returns true, or returns false to let the app serve it (counted as in flight then). */
export type FrontDoor = (req: IncomingMessage, res: ServerResponse, server?: Server) => boolean;

/** The front door over `health`, `shutdown` and `shedder`. */
export function createFrontDoor(options: FrontDoorOptions): FrontDoor {
  const { health, shutdown, shedder } = options;
  const names = protocolHeaderNames(options.headerPrefix);
  const json = new JsonCodec();
  const mode = options.mode ?? 'production';
  const refuse = (
    res: ServerResponse,
    req: IncomingMessage,
    error: Error,
    extra: Record<string, string>,
  ): void => {
    const built = buildErrorResponse(error, { mode });
    const body = built.body === undefined ? '' : json.mapToString(built.body);
    // a request body we do not read would have to be read and thrown away to keep the connection: close it
    const hasBody =
      req.headers['content-length'] !== undefined
        ? req.headers['content-length'] !== '0'
        : req.headers['transfer-encoding'] !== undefined;
    res.writeHead(built.status, {
      [names.protocolVersion]: BASELINE_PROTOCOL_VERSION.toString(),
      ...(built.errorHeader ? { [names.errorResponse]: 'true' } : {}),
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      ...(hasBody ? connectionClose(req) : {}),
      ...extra,
    });
    res.end(body);
  };
  return (req, res, server) => {
    if (health.handle(req, res)) return true;
    if (shutdown.state !== 'running' && shutdown.mode === 'stop') {
      refuse(res, req, new ShuttingDownError(), connectionClose(req));
      return true;
    }
    const shed = shedder?.shouldShed();
    if (shed !== undefined) {
      refuse(res, req, new ServiceOverloadedError(shed.detail, shed.retryAfterSeconds), {
        'Retry-After': String(shed.retryAfterSeconds),
      });
      return true;
    }
    shutdown.track(req, res, server);
    return false;
  };
}

/**
 * Puts `frontDoor` in front of the `request` listeners `server` has (fastify's, a standalone handler), and
 * registers the server with the shutdown. Call it before the server listens.
 */
export function installFrontDoor(server: Server, frontDoor: FrontDoor, shutdown: GracefulShutdown): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (frontDoor(req, res, server)) return;
    for (const listener of listeners) listener.call(server, req, res);
  });
  shutdown.addServer(server);
}

/**
 * `Connection: close` for an HTTP/1 request, nothing for HTTP/2: there the header is forbidden (Node's
 * compatibility response throws on it) and a stream ends without its connection, which the server's
 * `close()` winds down with GOAWAY at shutdown.
 */
export function connectionClose(req: { readonly httpVersionMajor: number }): { Connection?: 'close' } {
  return req.httpVersionMajor >= 2 ? {} : { Connection: 'close' };
}
