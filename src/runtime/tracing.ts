import {
  type Context,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import type { ClientFilter, HttpRequest, RawResponse } from '../client';
import type { JobObserver, JobProbe, RunningJob } from '../queue';
import type {
  EncodedResponse,
  Invocation,
  RequestObserver,
  RequestProbe,
  ResourceRequest,
} from '../resources';
import { type ExcludeOption, excluder } from './exclude';

/**
 * Traces through `@opentelemetry/api` only: the application brings its SDK and exporter (docs/deploying.md,
 * "Tracing"). A server span per request, named after resource and method (`photos.get`,
 * `photos.finder:byTag`) once routed, with the Rest.li attributes; a client span per typed-client call
 * (the {@link tracingClientFilter}), which sends the W3C `traceparent`; a consumer span per job attempt,
 * child of the span that enqueued the job (its `traceparent` rides in the job's `data.headers`). With no
 * SDK registered every observer returns at once: one look at the global tracer provider per request, no
 * span, no context (bench/runtime-observe.bench.ts, "tracing API, no SDK").
 */

/** The instrumentation scope of our spans. */
export const TRACER_NAME = 'svc-framework';

let lastDelegate: TracerProvider | undefined;
let lastTracer: Tracer | undefined;

/**
 * The tracer of the registered SDK, or undefined when none is (the API's no-op provider). Cached per
 * provider: an SDK registered later is picked up by the next request.
 */
export function activeTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  if (!(provider instanceof ProxyTracerProvider)) return provider.getTracer(TRACER_NAME);
  const delegate = provider.getDelegate();
  if (delegate !== lastDelegate) {
    lastDelegate = delegate;
    lastTracer = provider.getDelegateTracer(TRACER_NAME);
  }
  return lastTracer;
}

/** `get`, `finder:byTag`, `action:purge` (as the metrics' `method` label). */
function methodLabel(inv: Invocation): string {
  return inv.methodName === undefined ? inv.method : `${inv.method}:${inv.methodName}`;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function recordError(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message:
      (error as { name?: unknown } | undefined)?.name === undefined
        ? undefined
        : String((error as Error).name),
  });
}

/** Options of {@link tracingObserver}. */
export interface TracingOptions {
  /** Requests not traced (health checks, the scrape): paths, or a test of the path. */
  readonly exclude?: ExcludeOption;
}

class ServerProbe implements RequestProbe {
  constructor(
    readonly span: Span,
    readonly ctx: Context,
  ) {}
  routed(invocation: Invocation, batchSize: number): void {
    const resource = invocation.resource.path;
    const method = methodLabel(invocation);
    const span = this.span;
    span.updateName(`${resource}.${method}`);
    span.setAttribute('rpc.system', 'restli');
    span.setAttribute('rpc.service', resource);
    span.setAttribute('rpc.method', method);
    span.setAttribute('svc.protocol_version', invocation.ctx.protocolVersion.toString());
    if (batchSize > 0) span.setAttribute('svc.batch_size', batchSize);
  }
  run<T>(fn: () => T): T {
    return context.with(this.ctx, fn);
  }
  finished(response: EncodedResponse, error: unknown): void {
    const span = this.span;
    span.setAttribute('http.response.status_code', response.status);
    // a server span is in error for 5xx only: a 4xx is the client's (OpenTelemetry's HTTP conventions)
    if (response.status >= 500) recordError(span, error);
    span.end();
  }
}

/** The server spans: `observers: [tracingObserver()]`. */
export function tracingObserver(options: TracingOptions = {}): RequestObserver {
  const excluded = excluder(options.exclude);
  return {
    start(request: ResourceRequest) {
      const tracer = activeTracer();
      if (tracer === undefined) return undefined;
      if (excluded !== undefined && excluded(request)) return undefined;
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const span = tracer.startSpan(
        request.method,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'url.path': pathOf(request.url) },
        },
        parent,
      );
      return new ServerProbe(span, trace.setSpan(parent, span));
    },
  };
}

/** `photos` of `photos/1?fields=id` (the root resource a call addresses). */
function resourceOf(uri: string): string {
  let end = uri.length;
  for (const c of ['/', '?']) {
    const i = uri.indexOf(c);
    if (i !== -1 && i < end) end = i;
  }
  return uri.slice(0, end);
}

/**
 * A client filter: a client span per call (`photos.get`, child of the active span, e.g. the handler's
 * server span), whose context goes out as `traceparent` (and `tracestate`). Put it first among the
 * client's filters so that the span covers the others: `createResourceClient({ baseUrl, filters:
 * [tracingClientFilter()] }, ...)`.
 */
export function tracingClientFilter(): ClientFilter {
  return (request: HttpRequest, next: (r: HttpRequest) => Promise<RawResponse>) => {
    const tracer = activeTracer();
    if (tracer === undefined) return next(request);
    const parent = context.active();
    const resource = resourceOf(request.uri);
    const span = tracer.startSpan(
      `${resource}.${request.resourceMethod}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'rpc.system': 'restli',
          'rpc.service': resource,
          'rpc.method': request.resourceMethod,
          'http.request.method': request.method,
          'url.full': request.url,
        },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    const headers: Record<string, string> = { ...request.headers };
    propagation.inject(ctx, headers);
    return context
      .with(ctx, () => next({ ...request, headers }))
      .then(
        (response) => {
          span.setAttribute('http.response.status_code', response.status);
          if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          return response;
        },
        (err: unknown) => {
          recordError(span, err);
          span.end();
          throw err;
        },
      );
  };
}

/**
 * The job spans: `new AttachmentQueue({ ..., observers: [tracingJobObserver()] })`. Enqueueing carries
 * the active context (the request's server span) in the job; each attempt runs in a consumer span that is
 * its child (`photo.process process`), whichever process or machine the worker runs in.
 */
export function tracingJobObserver(): JobObserver {
  return {
    enqueuing() {
      if (activeTracer() === undefined) return undefined;
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return Object.keys(carrier).length === 0 ? undefined : carrier;
    },
    attempt(job: RunningJob): JobProbe | undefined {
      const tracer = activeTracer();
      if (tracer === undefined) return undefined;
      const headers = job.data.headers;
      const parent = headers === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
      const span = tracer.startSpan(
        `${job.name} process`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.operation.type': 'process',
            'messaging.destination.name': job.name,
            'messaging.message.id': job.id,
            'svc.job.attempt': job.attempt,
          },
        },
        parent,
      );
      const ctx = trace.setSpan(parent, span);
      return {
        run: (fn) => context.with(ctx, fn),
        finished(error, final) {
          span.setAttribute('svc.job.final', final);
          if (error !== undefined) recordError(span, error);
          span.end();
        },
      };
    },
  };
}
