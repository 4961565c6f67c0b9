import { DataMap, JSON_CONTENT_TYPE } from '../data';
import type { ProtocolVersion } from '../protocol';
import { getHeader } from '../protocol';
import { type HttpRequest, type RequestKind, buildRequestOf } from './build-request';
import { errorFromResponse } from './decode-response';
import { RequestBuildError, ResponseDecodingError } from './errors';
import type { RequestDescription } from './request-description';
import { createResourceClient } from './resource-client';
import type { ResourceClients, ResourceContracts } from './resource-client-types';
import type { ResponseFor } from './responses';
import { type ExecuteOptions, SvcClient } from './svc-client';
import type { RawResponse } from './transport';

/**
 * The client side of multiplexed requests (the server's `POST /mux`, src/server/mux.ts; the reference's
 * `MultiplexedRequestBuilder`): several typed calls sent as one HTTP request, each answered with its own
 * typed response or typed error, exactly as if it had been sent alone.
 *
 * The calls are made on a typed client (or with request descriptions) whose transport collects them instead
 * of sending them: each builds its request as usual (keys, parameters, bodies, method headers), the
 * envelope carries them as `IndividualRequest`s, and each individual response goes back through the call's
 * own decoding (envelopes, typed keys, value classes, `ServiceResponseError` for a non-2xx status). The
 * envelope goes through the client's filters, credential and timeout; headers every call shares (the
 * protocol version, the client's own headers) travel once, on the envelope, where the server's multiplexer
 * makes every individual request inherit them, as the reference's does.
 *
 * Not multiplexed: attachments (an individual body is data: such a call fails with `RequestBuildError`)
 * and query tunneling (an individual URL has no length limit inside the envelope).
 *
 * @example
 * ```ts
 * const [photo, album] = await mux(api, exampleInterfaces, (m) => [m.photos.get(1), m.albums.get(2)] as const);
 * if (photo.ok) photo.value.entity.getTitle(); // EntityResponse<Photo>
 * else photo.error; // ServiceResponseError (404...), ResponseDecodingError...
 * ```
 */

/** One call's outcome: its typed response, or what it rejected with (typed client errors). */
export type MuxOutcome<R> =
  { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

/** The outcomes of a list of calls, position by position, typed by each call's response. */
export type MuxOutcomes<T extends readonly unknown[]> = {
  -readonly [I in keyof T]: MuxOutcome<Awaited<T[I]>>;
};

/** Options of one multiplexed exchange. */
export interface MuxCallOptions extends ExecuteOptions {
  /**
   * Run the calls one after the other, in the order given (each a dependent request of the one before,
   * as the reference's `createSequentialRequest`); default false: all in parallel.
   */
  readonly sequential?: boolean;
}

/** The path of the multiplexer below the base URL. */
const MUX_URI = 'mux';

/** Headers an individual request never carries itself: the envelope's framing and content negotiation. */
const ENVELOPE_ONLY: ReadonlySet<string> = new Set(['accept', 'content-type', 'content-length']);

/** Response headers of the envelope an individual response does not inherit (as the reference's client). */
const NOT_INHERITED: ReadonlySet<string> = new Set(['content-length', 'content-type', 'content-encoding']);

interface Collected {
  readonly request: HttpRequest;
  readonly resolve: (raw: RawResponse) => void;
  readonly reject: (err: unknown) => void;
}

/** A core client whose transport collects requests for one envelope instead of sending them. */
class MuxCollector extends SvcClient {
  readonly collected: Collected[] = [];
  private onCollect: (() => void) | undefined;
  constructor(private readonly parent: SvcClient) {
    super(parent.options);
  }
  /** Built as `prepare` builds, the version resolved by the parent (its cache); never tunneled. */
  override async prepareOf<D extends RequestDescription>(
    desc: D,
    kind: RequestKind<D> | undefined,
  ): Promise<HttpRequest> {
    const version: ProtocolVersion = await this.parent.protocolVersionFor(desc.resource);
    return buildRequestOf(desc, this.options, version, kind);
  }
  override execute(request: HttpRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      this.collected.push({ request, resolve, reject });
      this.onCollect?.();
    });
  }
  /** Calls `check` whenever a request is collected. */
  watch(check: () => void): void {
    this.onCollect = check;
  }
}

function coreOf(client: SvcClient | { readonly $client: SvcClient }): SvcClient {
  return client instanceof SvcClient ? client : client.$client;
}

/**
 * Sends the calls `build` makes on a typed client of `resources` as one `POST /mux`, and gives each call's
 * outcome in order (the calls' own promises settle the same way).
 *
 * @throws RequestBuildError when `build` makes no call; otherwise never rejects: a failed envelope (a
 *   transport error, a refused envelope) is every call's error
 */
export async function mux<const R extends ResourceContracts, const T extends readonly Promise<unknown>[]>(
  client: SvcClient | { readonly $client: SvcClient },
  resources: R,
  build: (api: ResourceClients<R>) => T,
  options: MuxCallOptions = {},
): Promise<MuxOutcomes<T>> {
  const collector = new MuxCollector(coreOf(client));
  const api = createResourceClient(collector, resources) as unknown as ResourceClients<R>;
  return run(coreOf(client), collector, () => build(api), options) as Promise<MuxOutcomes<T>>;
}

/**
 * {@link mux} over request descriptions (`client.send`'s): each outcome typed by its description.
 *
 * @throws RequestBuildError when `descriptions` is empty
 */
export async function muxDescriptions<const D extends readonly RequestDescription[]>(
  client: SvcClient | { readonly $client: SvcClient },
  descriptions: D,
  options: MuxCallOptions = {},
): Promise<{ -readonly [I in keyof D]: MuxOutcome<ResponseFor<D[I]>> }> {
  const collector = new MuxCollector(coreOf(client));
  return run(
    coreOf(client),
    collector,
    () => descriptions.map((d) => collector.send(d)),
    options,
  ) as Promise<{
    -readonly [I in keyof D]: MuxOutcome<ResponseFor<D[I]>>;
  }>;
}

async function run(
  core: SvcClient,
  collector: MuxCollector,
  makeCalls: () => readonly Promise<unknown>[],
  options: MuxCallOptions,
): Promise<MuxOutcome<unknown>[]> {
  const calls = makeCalls();
  if (calls.length === 0) throw new RequestBuildError('No requests provided for multiplexing');
  // every call either reaches the transport (collected) or fails before (a key that cannot be encoded):
  // the envelope is complete once the two counts add up to the number of calls
  let failedEarly = 0;
  let ready!: () => void;
  const complete = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const check = (): void => {
    if (collector.collected.length + failedEarly === calls.length) ready();
  };
  collector.watch(check);
  const outcomes = calls.map((call) =>
    call.then(
      (value): MuxOutcome<unknown> => ({ ok: true, value }),
      (error: unknown): MuxOutcome<unknown> => ({ ok: false, error }),
    ),
  );
  let sent = false;
  for (const call of calls)
    call.catch(() => {
      if (!sent) {
        failedEarly++;
        check();
      }
    });
  check();
  await complete;
  sent = true;
  const collected = collector.collected.filter((c) => {
    if (c.request.attachments === undefined) return true;
    c.reject(new RequestBuildError('A multiplexed request cannot carry attachments'));
    return false;
  });
  if (collected.length > 0) await exchange(core, collected, options);
  return Promise.all(outcomes);
}

/** Sends the envelope and hands each collected call its individual response. */
async function exchange(
  core: SvcClient,
  collected: readonly Collected[],
  options: MuxCallOptions,
): Promise<void> {
  const o = core.options;
  // headers every individual request has alike go once, on the envelope (the server's individual requests inherit them)
  const shared = new Map<string, [string, string]>();
  const first = collected[0]!.request.headers;
  for (const [name, value] of Object.entries(first)) {
    const lower = name.toLowerCase();
    if (ENVELOPE_ONLY.has(lower)) continue;
    if (collected.every((c) => getHeader(c.request.headers, lower) === value))
      shared.set(lower, [name, value]);
  }
  let requests: DataMap | undefined;
  const individuals = collected.map((c, i) => {
    const headers = new DataMap();
    for (const [name, value] of Object.entries(c.request.headers)) {
      const lower = name.toLowerCase();
      if (!ENVELOPE_ONLY.has(lower) && !shared.has(lower)) headers.put(name, value);
    }
    const individual = new DataMap({
      method: c.request.method,
      relativeUrl: `/${c.request.uri}`,
      headers,
    });
    if (c.request.bodyData !== undefined) individual.put('body', c.request.bodyData);
    return [String(i), individual] as const;
  });
  if (options.sequential === true) {
    // each after the one before: a chain of dependent requests, built from the last
    for (let i = individuals.length - 1; i >= 0; i--) {
      const [id, individual] = individuals[i]!;
      if (requests !== undefined) individual.put('dependentRequests', requests);
      requests = new DataMap({ [id]: individual });
    }
  } else requests = new DataMap(Object.fromEntries(individuals));
  const bodyData = new DataMap({ requests: requests! });
  const json = o.codecs.get(JSON_CONTENT_TYPE);
  const headers: Record<string, string> = {};
  for (const [name, value] of shared.values()) headers[name] = value;
  headers['content-type'] = JSON_CONTENT_TYPE;
  headers['accept'] = JSON_CONTENT_TYPE;
  const envelope: HttpRequest = {
    resourceMethod: 'action',
    method: 'POST',
    url: `${o.baseUrl}/${MUX_URI}`,
    uri: MUX_URI,
    headers,
    body: json.mapToBytes(bodyData),
    bodyData,
  };
  let raw: RawResponse;
  try {
    raw = await core.execute(envelope, options);
  } catch (err) {
    for (const c of collected) c.reject(err);
    return;
  }
  if (raw.status < 200 || raw.status >= 300) {
    const error = errorFromResponse(raw, o, { method: 'action', url: envelope.url });
    for (const c of collected) c.reject(error);
    return;
  }
  let responses: DataMap;
  try {
    const type = getHeader(raw.headers, 'content-type');
    const content = (type === undefined ? json : o.codecs.get(type)).bytesToMap(raw.body);
    const r = content.get('responses');
    if (!(r instanceof DataMap)) throw new TypeError("no 'responses' map");
    responses = r;
  } catch (cause) {
    const error = new ResponseDecodingError('The multiplexed response is not a MultiplexedResponseContent', {
      status: raw.status,
      headers: raw.headers,
      body: raw.body,
      cause,
    });
    for (const c of collected) c.reject(error);
    return;
  }
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw.headers))
    if (!NOT_INHERITED.has(name.toLowerCase())) inherited[name.toLowerCase()] = value;
  collected.forEach((c, i) => {
    const individual = responses.get(String(i));
    const status = individual instanceof DataMap ? individual.get('status') : undefined;
    if (!(individual instanceof DataMap) || typeof status !== 'number') {
      c.reject(
        new ResponseDecodingError(`The multiplexed response has no response for request id=${i}`, {
          status: raw.status,
          headers: raw.headers,
          body: raw.body,
        }),
      );
      return;
    }
    const headers: Record<string, string> = { ...inherited };
    const own = individual.get('headers');
    if (own instanceof DataMap)
      for (const [name, value] of own) if (typeof value === 'string') headers[name.toLowerCase()] = value;
    const body = individual.get('body');
    let bytes: Uint8Array = new Uint8Array(0);
    if (body instanceof DataMap) {
      bytes = json.mapToBytes(body);
      headers['content-type'] = JSON_CONTENT_TYPE;
    }
    c.resolve({ status, headers, body: bytes });
  });
}
