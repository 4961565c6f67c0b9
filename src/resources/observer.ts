import type { EncodedResponse, Invocation, ResourceRequest } from './request';

/**
 * The seam through which a service is observed (metrics, traces, access logs: `src/runtime/`) without this
 * layer knowing any of them. The pipeline asks each observer for a probe when a request starts and tells
 * the probe what it learns; an observer that has nothing to watch for a request (an excluded path, no
 * tracing SDK registered) returns undefined, and the request then costs nothing more. With no observer
 * configured, each point below is one branch.
 *
 * Points, in order: `start` (before anything, request filters included), `run` (around everything after,
 * so that the handler and what it calls run in the probe's context, e.g. its trace span), `routed` (once
 * the request is bound to a method), `finished` (the encoded response, or the error response, is ready).
 * `finished` is called exactly once per started request; `routed` at most once.
 */
export interface RequestObserver {
  /** A probe for this request, or undefined to leave it alone. Must not throw. */
  start(request: ResourceRequest): RequestProbe | undefined;
  /**
   * The request header (lower case) this observer keeps each request's id in, once `start` ran
   * (`requestIds`): a server's own logger (the `logger` option) then writes it as `reqId` in the request's
   * lines. Leave it out otherwise.
   */
  readonly requestIdHeader?: string;
}

/** What an observer follows of one request. No method may throw (a failure would fail the request). */
export interface RequestProbe {
  /**
   * The request was bound: its resource and method are in `invocation` (`resource.path`, `method`,
   * `methodName`, `ctx.protocolVersion`); `batchSize` counts ids, entities or criteria (0 for others).
   */
  routed(invocation: Invocation, batchSize: number): void;
  /**
   * Runs the rest of the request path inside the probe's context (a trace span, say); returns fn's value.
   * Leave it out when the probe has no context to set: the pipeline then calls the rest directly, without
   * the closure a call through `run` takes per request.
   */
  run?<T>(fn: () => T): T;
  /**
   * The response is ready to be written (`response.stream` is still to be sent); `error` is what an error
   * response stands for (undefined for a success).
   */
  finished(response: EncodedResponse, error: unknown): void;
}

/** Several observers as one (undefined for none), so that the pipeline holds at most one. */
export function composeRequestObservers(
  observers: readonly RequestObserver[] | undefined,
): RequestObserver | undefined {
  if (observers === undefined || observers.length === 0) return undefined;
  if (observers.length === 1) return observers[0];
  const list = [...observers];
  return {
    start(request) {
      // the common outcome, one probe (request ids make none, the access log one), makes no array
      let first: RequestProbe | undefined;
      let probes: RequestProbe[] | undefined;
      for (const o of list) {
        const p = o.start(request);
        if (p === undefined) continue;
        if (first === undefined) first = p;
        else if (probes === undefined) probes = [first, p];
        else probes.push(p);
      }
      if (probes === undefined) return first;
      const all = probes;
      // only the probes that set a context run the rest (none: no `run`, so no closure per request)
      const runners = all.filter((p) => p.run !== undefined);
      return {
        routed(invocation, batchSize) {
          for (const p of all) p.routed(invocation, batchSize);
        },
        ...(runners.length === 0
          ? {}
          : {
              run<T>(fn: () => T): T {
                // the first probe's context outermost, as the observers were listed
                let f = fn;
                for (let i = runners.length - 1; i >= 0; i--) {
                  const inner = f;
                  const p = runners[i]!;
                  f = () => p.run!(inner);
                }
                return f();
              },
            }),
        finished(response, error) {
          for (const p of all) p.finished(response, error);
        },
      };
    },
  };
}

/**
 * Tells the probe the response once it is ready; an observer failing cannot change the response. `outcome`
 * holds the error an error response stands for (read once the response is ready).
 */
export function observeResponse(
  probe: RequestProbe,
  out: EncodedResponse | Promise<EncodedResponse>,
  outcome: { readonly error: unknown },
): EncodedResponse | Promise<EncodedResponse> {
  // a synchronous answer makes no closure
  return out instanceof Promise ? out.then((r) => finish(probe, r, outcome)) : finish(probe, out, outcome);
}

function finish(
  probe: RequestProbe,
  response: EncodedResponse,
  outcome: { readonly error: unknown },
): EncodedResponse {
  try {
    probe.finished(response, outcome.error);
  } catch {
    // an observer's bug must not turn a response into a failure
  }
  return response;
}
