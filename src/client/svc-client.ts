import type { ProtocolVersion } from '../protocol';
import { type HttpRequest, buildRequest, requestKindOf } from './build-request';
import { CoreClient } from './core-client';
import { decodeResponse } from './decode-response';
import type { ClientOptions } from './options';
import type { RequestDescription } from './request-description';
import type { ResponseFor } from './responses';

export type { ExecuteOptions } from './core-client';

/**
 * The client core: builds requests from descriptions ({@link buildRequest}), sends them with fetch
 * (timeouts, abort signals, typed transport errors) and decodes every response shape
 * ({@link decodeResponse}). Promise-based; the typed facade over resource definitions sits on top.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080' });
 * const r = await client.send({ method: 'batch_get', resource: 'photos', ids: [1, 2, 3], template: Photo });
 * r.results.get(1)?.getTitle();
 * ```
 */
export class SvcClient extends CoreClient {
  /**
   * The HTTP request for `desc` with the given version (default: the configured one, or the latest under
   * `USE_LATEST_IF_AVAILABLE`). Pure; see {@link buildRequest}.
   */
  buildRequest(desc: RequestDescription, version?: ProtocolVersion): HttpRequest {
    return this.tunnel(desc, buildRequest(desc, this.options, version));
  }

  /** The HTTP request for `desc`, with the protocol version resolved as {@link send} does. */
  async prepare(desc: RequestDescription): Promise<HttpRequest> {
    return this.prepareOf(desc, requestKindOf(desc));
  }

  /**
   * Sends `desc` and decodes the response into the method's response type.
   *
   * @throws ServiceResponseError (non-2xx), RequestTimeoutError, TransportError, ResponseDecodingError,
   *   RequestBuildError; an abort rejects with the signal's reason
   */
  async send<D extends RequestDescription>(desc: D): Promise<ResponseFor<D>> {
    // one-shot iterables (generators) are read twice: to build the request, to map response keys back
    const d = snapshot(desc);
    const request = await this.prepare(d);
    const raw = await this.execute(request, d);
    return decodeResponse(d, raw, this.options, {
      method: request.resourceMethod,
      url: request.url,
    }) as ResponseFor<D>;
  }
}

/** The one factory: a client with validated options. */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}

/** The description with its iterables read into arrays, so they can be walked more than once. */
function snapshot<D extends RequestDescription>(desc: D): D {
  if (typeof desc !== 'object' || desc === null) return desc;
  const out: Record<string, unknown> = { ...desc };
  for (const f of ['ids', 'bodies', 'entities', 'patches', 'criteria'] as const) {
    const v = out[f];
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Symbol.iterator in v) {
      out[f] = [...(v as Iterable<unknown>)];
    }
  }
  return out as D;
}
