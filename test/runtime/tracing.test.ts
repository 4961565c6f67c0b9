/**
 * Traces across two real servers and the queue: the example's relay action (service A) creates the photo
 * on service B through its client, and B's upload enqueues a `photo.process` job that B's worker runs. With
 * an OpenTelemetry SDK registered (in-memory exporter, W3C propagator, AsyncLocalStorage context), the
 * caller's span, A's server span, A's client span, B's server span and the job's consumer span form one
 * trace, each the child of the one before. Without an SDK nothing is traced and nothing is sent.
 */
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance } from 'fastify';
import {
  type HttpRequest,
  type RawResponse,
  createResourceClient,
  tracingClientFilter,
  tracingObserver,
  writerFromBytes,
} from '../../src';
import { createExampleApp } from '../../examples/app';
import { exampleResources } from '../../examples/resources';
import { ImageStore } from '../../examples/images';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { tempDirs } from '../support/temp-dirs';

const [photos] = exampleResources(new PhotoLibrary());
const tempDir = tempDirs('svc-tracing-');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(20_000, 3)]);

async function start(upstream?: string): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const lib = seededLibrary(new ImageStore(tempDir()));
  const app = await createExampleApp({ library: lib, ...(upstream === undefined ? {} : { upstream }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, baseUrl: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

describe('tracing with an SDK registered', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let a: Awaited<ReturnType<typeof start>>;
  let b: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    b = await start();
    a = await start(b.baseUrl);
  });
  afterAll(async () => {
    await a.app.close();
    await b.app.close();
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  beforeEach(() => exporter.reset());

  /** Waits (bounded) for a span the test cannot await: the job's, which ends after the worker's attempt. */
  async function spanNamed(name: string): Promise<ReadableSpan> {
    const until = Date.now() + 20_000;
    for (;;) {
      const found = exporter.getFinishedSpans().find((s) => s.name === name);
      if (found !== undefined || Date.now() > until) {
        expect(found).toBeDefined();
        return found!;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

  it('links a request relayed through two services and the job it queued into one trace', async () => {
    const api = createResourceClient({ baseUrl: a.baseUrl, filters: [tracingClientFilter()] }, { photos });
    const tracer = trace.getTracer('test');
    const root = tracer.startSpan('caller');
    const photo = new Photo().setTitle('Traced').setFormat(PhotoFormat.JPEG).setImage('cid:traced');
    const r = await context.with(trace.setSpan(context.active(), root), () =>
      api.photos.actions.relay({ photo }, { attachments: [writerFromBytes('traced', JPEG)] }),
    );
    root.end();
    expect(typeof r.value === 'number' || typeof r.value === 'bigint').toBe(true);
    const job = await spanNamed('photo.process process');
    const spans = exporter.getFinishedSpans();
    const find = (name: string, kind: SpanKind): ReadableSpan => {
      const s = spans.find((x) => x.name === name && x.kind === kind);
      expect(s).toBeDefined();
      return s!;
    };
    const callerClient = find('photos.action', SpanKind.CLIENT);
    const aServer = find('photos.action:relay', SpanKind.SERVER);
    const aClient = find('photos.create', SpanKind.CLIENT);
    const bServer = find('photos.create', SpanKind.SERVER);
    expect(job.kind).toBe(SpanKind.CONSUMER);
    const chain = [root as unknown as ReadableSpan, callerClient, aServer, aClient, bServer, job];
    for (let i = 1; i < chain.length; i++) {
      expect({ span: chain[i]!.name, parent: parentOf(chain[i]!) }).toEqual({
        span: chain[i]!.name,
        parent: chain[i - 1]!.spanContext().spanId,
      });
      expect(chain[i]!.spanContext().traceId).toBe(root.spanContext().traceId);
    }
    expect(aServer.attributes).toMatchObject({
      'rpc.system': 'restli',
      'rpc.service': 'photos',
      'rpc.method': 'action:relay',
      'svc.protocol_version': '2.0.0',
      'http.response.status_code': 200,
    });
    expect(bServer.attributes['http.response.status_code']).toBe(201);
    expect(job.attributes).toMatchObject({
      'messaging.destination.name': 'photo.process',
      'svc.job.attempt': 1,
    });
  });

  it('names the span of a batch request after its method and records its size', async () => {
    const api = createResourceClient({ baseUrl: b.baseUrl }, { photos });
    await api.photos.batchGet([1, 2, 3]);
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.name).toBe('photos.batch_get');
    expect(server.attributes['svc.batch_size']).toBe(3);
    // a request without a traceparent starts a trace of its own
    expect(server.parentSpanContext).toBeUndefined();
  });

  it('starts a server span for a request that never routes, named after its HTTP method', async () => {
    const res = await fetch(`${b.baseUrl}/nowhere`);
    expect(res.status).toBe(404);
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.name).toBe('GET');
    expect(server.attributes['http.response.status_code']).toBe(404);
  });
});

describe('tracing without an SDK', () => {
  it('makes no probe and sends no traceparent', async () => {
    expect(
      tracingObserver().start({
        method: 'GET',
        url: '/photos/1',
        path: '/photos/1',
        query: undefined,
        headers: {},
        body: undefined,
        attributes: new Map(),
      }),
    ).toBeUndefined();
    const sent: HttpRequest[] = [];
    const next = (r: HttpRequest): Promise<RawResponse> => {
      sent.push(r);
      return Promise.resolve({ status: 200, headers: {}, body: new Uint8Array() });
    };
    const request = {
      resourceMethod: 'get',
      method: 'GET',
      url: 'http://127.0.0.1:1/photos/1',
      uri: 'photos/1',
      headers: { 'X-Svc-Protocol-Version': '2.0.0' },
      body: undefined,
      bodyData: undefined,
    } as const;
    await tracingClientFilter()(request, next);
    expect(sent[0]).toBe(request);
  });
});
