import { withAuth } from './auth';
import type { ProtocolVersion } from '../protocol';
import { type HttpRequest, type RequestKind, buildRequestOf } from './build-request';
import { ClientOptionsError, RequestBuildError, UnsupportedProtocolVersionError } from './errors';
import {
  type ClientOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
  versionForAnnounced,
} from './options';
import type { RequestDescription } from './request-description';
import { type RawResponse, sendHttp } from './transport';
import { isQueryTunnelThreshold, tunnelRequest } from './tunnel-encode';

const ANNOUNCED = Symbol('svc.client.announcedVersions');

/** Per-call settings of {@link CoreClient.execute}. */
export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * What every call needs of a client, and nothing of any one method: the validated options, the protocol
 * version choice, tunnelling, and the transport with its filters. The per-method calls (`get(client,
 * photosInterface, 1)`, `calls.ts`) take one, so that a page carries only the methods it calls;
 * {@link SvcClient} adds `send` and `buildRequest` for descriptions of every method (README.md, "Size").
 *
 * @example
 * ```ts
 * const client = createCoreClient({ baseUrl: 'http://127.0.0.1:8080' });
 * const { entity } = await get(client, photosInterface, 1);
 * ```
 */
export class CoreClient {
  /** The validated options, defaults filled in. */
  readonly options: ResolvedClientOptions;
  /** @internal resource name → the version its server announces (USE_LATEST_IF_AVAILABLE) */
  readonly [ANNOUNCED] = new Map<string, Promise<ProtocolVersion>>();

  /**
   * @throws ClientOptionsError, UnsupportedProtocolVersionError
   */
  constructor(options: ClientOptions | ResolvedClientOptions) {
    this.options = resolveClientOptions(options);
  }

  /**
   * The HTTP request for `desc`, built by its method's `kind`, with the protocol version resolved as
   * `send` does, tunnelled as it goes on the wire (`kind` undefined: the method is unknown, refused).
   */
  async prepareOf<D extends RequestDescription>(
    desc: D,
    kind: RequestKind<D> | undefined,
  ): Promise<HttpRequest> {
    return this.tunnel(
      desc,
      buildRequestOf(desc, this.options, await this.protocolVersionFor(desc.resource), kind),
    );
  }

  /**
   * The request as it goes on the wire: tunneled when `desc.forceQueryTunnel` or its query reaches the
   * threshold (the request's, else the client's). Applied here, not in a filter, so that `buildRequest`
   * and `prepare` show the wire form and filters see what is sent.
   */
  protected tunnel(desc: RequestDescription, request: HttpRequest): HttpRequest {
    const force = desc.forceQueryTunnel ?? false;
    const threshold = desc.queryTunnelThreshold ?? this.options.queryTunnelThreshold;
    if (typeof force !== 'boolean') throw new RequestBuildError(`'forceQueryTunnel' must be a boolean`);
    if (!isQueryTunnelThreshold(threshold))
      throw new RequestBuildError(
        `'queryTunnelThreshold' must be a positive integer, Infinity or false, got ${String(threshold)}`,
      );
    return tunnelRequest(request, { force, threshold });
  }

  /**
   * Sends a built request through the client's filters and returns the raw response, whatever its status
   * (the client's and the call's signals, the timeout; each filter's call of `next` is one exchange).
   *
   * @throws RequestTimeoutError, TransportError; an abort rejects with the signal's reason
   */
  async execute(request: HttpRequest, options: ExecuteOptions = {}): Promise<RawResponse> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    if (
      typeof timeoutMs !== 'number' ||
      !(
        timeoutMs === Number.POSITIVE_INFINITY ||
        (Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647)
      )
    ) {
      throw new RequestBuildError(
        `'timeoutMs' must be a positive integer or Infinity, got ${String(timeoutMs)}`,
      );
    }
    const send = (r: HttpRequest): Promise<RawResponse> =>
      sendHttp(r, {
        fetch: this.options.fetch,
        timeoutMs,
        maxResponseBytes: this.options.maxResponseBytes,
        signals: [this.options.signal, options.signal],
        ...(this.options.attachments === undefined ? {} : { platform: this.options.attachments }),
      });
    // the credential goes on next to the transport (auth.ts), so the filters never see it
    const auth = this.options.auth;
    const transport = auth === undefined ? send : withAuth(auth, send);
    const chain = this.options.filters.reduceRight<(r: HttpRequest) => Promise<RawResponse>>(
      (next, filter) => (r) => filter(r, next),
      transport,
    );
    return chain(request);
  }

  /**
   * The protocol version of requests to `resource`: the fixed one, or under `USE_LATEST_IF_AVAILABLE` the
   * one the server's announcement leads to (asked once per resource name; a failed lookup is not kept).
   *
   * @throws UnsupportedProtocolVersionError when that version cannot be encoded
   */
  async protocolVersionFor(resource: string): Promise<ProtocolVersion> {
    const choice = this.options.protocolVersion;
    if (choice.kind === 'fixed') return choice.version;
    const source = choice.source;
    if (source === undefined || typeof source === 'string') return versionForAnnounced(source);
    const name = resourceName(resource);
    const cache = this[ANNOUNCED];
    let pending = cache.get(name);
    if (pending === undefined) {
      pending = Promise.resolve()
        .then(() => source(name))
        .then((announced) => {
          if (announced !== undefined && typeof announced !== 'string') {
            throw new ClientOptionsError(
              'announcedProtocolVersion',
              `the function returned ${typeof announced} for '${name}', not a version string`,
            );
          }
          return versionForAnnounced(announced);
        });
      cache.set(name, pending);
      pending.catch((err: unknown) => {
        // an unencodable version is the server's answer, keep it; a failed lookup may succeed next time
        if (!(err instanceof UnsupportedProtocolVersionError)) cache.delete(name);
      });
    }
    return pending;
  }
}

/**
 * A client for the per-method calls (`get(client, photosInterface, 1)`): options and transport only.
 *
 * @throws ClientOptionsError, UnsupportedProtocolVersionError for bad options
 */
export function createCoreClient(options: ClientOptions): CoreClient {
  return new CoreClient(options);
}

/** The top-level resource name of a resource path (`albums/{albumId}/entries` → `albums`). */
function resourceName(resource: string): string {
  return typeof resource === 'string' ? (resource.replace(/^\/+/, '').split('/')[0] ?? '') : '';
}
