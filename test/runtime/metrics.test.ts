/**
 * The example service's metrics (`GET /metrics`, Prometheus text format): requests by resource, method
 * and status, durations, batch sizes, requests in flight, attachment bytes, jobs and their outcomes, the
 * process defaults; then read back through a real Prometheus server's query API.
 */
import type { FastifyInstance } from 'fastify';
import {
  AttachmentQueue,
  FileBlobStore,
  InProcessDriver,
  createMetrics,
  createResourceClient,
  writerFromBytes,
} from '../../src';
import { createExampleApp } from '../../examples/app';
import { exampleResources } from '../../examples/resources';
import { ImageStore } from '../../examples/images';
import { PhotoLibrary, seededLibrary } from '../../examples/store';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PrometheusServer, ensurePrometheus } from '../support/prometheus-server';
import { tempDirs } from '../support/temp-dirs';

const [photos] = exampleResources(new PhotoLibrary());
const tempDir = tempDirs('svc-metrics-');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300_000, 5)]);

/** The value of the sample `name{labels}` in a scrape (labels in any order); undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const got: Record<string, string> = {};
    for (const p of (m[3] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)) got[p[1]!] = p[2]!;
    if (
      Object.entries(labels).every(([k, v]) => got[k] === v) &&
      Object.keys(got).length === Object.keys(labels).length
    )
      return Number(m[4]);
  }
  return undefined;
}

async function until<T>(what: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the example service metrics', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  beforeAll(async () => {
    app = await createExampleApp({ library: seededLibrary(new ImageStore(tempDir())) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app.close());
  const scrape = async (): Promise<string> => {
    const res = await fetch(`${baseUrl}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('counts requests by resource, method and status, with durations and batch sizes', async () => {
    const api = createResourceClient({ baseUrl }, { photos });
    await api.photos.get(1);
    await api.photos.get(2);
    await expect(api.photos.get(999)).rejects.toMatchObject({ status: 404 });
    await api.photos.batchGet([1, 2, 3]);
    await fetch(`${baseUrl}/nowhere`);
    const text = await scrape();
    const get = { resource: 'photos', method: 'get' };
    expect(sample(text, 'svc_requests_total', { ...get, status: '200' })).toBe(2);
    expect(sample(text, 'svc_requests_total', { ...get, status: '404' })).toBe(1);
    expect(sample(text, 'svc_requests_total', { resource: '', method: '', status: '404' })).toBe(1);
    expect(sample(text, 'svc_request_duration_seconds_count', get)).toBe(3);
    expect(sample(text, 'svc_request_duration_seconds_bucket', { ...get, le: '+Inf' })).toBe(3);
    const batch = { resource: 'photos', method: 'batch_get' };
    expect(sample(text, 'svc_batch_size_count', batch)).toBe(1);
    expect(sample(text, 'svc_batch_size_sum', batch)).toBe(3);
    expect(sample(text, 'svc_batch_size_bucket', { ...batch, le: '2' })).toBe(0);
    expect(sample(text, 'svc_batch_size_bucket', { ...batch, le: '5' })).toBe(1);
    expect(sample(text, 'svc_requests_in_flight')).toBe(0);
    // the process defaults
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram/m);
  });

  it('counts attachment bytes in and out, and the upload job by state and outcome', async () => {
    const api = createResourceClient({ baseUrl }, { photos });
    const created = await api.photos.create(
      new Photo().setTitle('Counted').setFormat(PhotoFormat.JPEG).setImage('cid:counted'),
      { attachments: [writerFromBytes('counted', JPEG)] },
    );
    const text = await until(scrape, (t) => sample(t, 'svc_jobs', { state: 'COMPLETED' }) === 1);
    expect(sample(text, 'svc_jobs', { state: 'COMPLETED' })).toBe(1);
    expect(sample(text, 'svc_job_attempts_total', { name: 'photo.process', outcome: 'completed' })).toBe(1);
    expect(
      sample(text, 'svc_job_duration_seconds_count', { name: 'photo.process', outcome: 'completed' }),
    ).toBe(1);
    // a chunked upload: what Node read with the headers is not counted (streamed-bytes.ts), the rest is
    expect(sample(text, 'svc_attachment_bytes_total', { direction: 'in' })).toBeGreaterThan(
      JPEG.length - 65_536,
    );
    const got = await api.photos.get(created.id!, { acceptResponseAttachments: true });
    const reader = got.getAttachmentReader();
    expect(reader).toBeDefined();
    reader!.drainAllAttachments();
    const after = await until(
      scrape,
      (t) => (sample(t, 'svc_attachment_bytes_total', { direction: 'out' }) ?? 0) > JPEG.length,
    );
    expect(sample(after, 'svc_attachment_bytes_total', { direction: 'out' })).toBeGreaterThan(JPEG.length);
  });
});

describe('job metrics', () => {
  it('counts a failed attempt that is retried, then the success', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const queue = new AttachmentQueue({
      blobs: await FileBlobStore.open({ dir: tempDir() }),
      driver: new InProcessDriver(),
      observers: [metrics.jobObserver],
    });
    metrics.watchQueue(queue);
    let runs = 0;
    queue.process('flaky', () => {
      if (++runs === 1) throw new Error('first attempt fails');
      return { ok: true };
    });
    queue.start();
    try {
      const job = await queue.enqueue(
        'flaky',
        null,
        {},
        { attempts: 3, backoff: { type: 'fixed', delayMs: 0 } },
      );
      await until(
        () => queue.get(job.id),
        (j) => j.state === 'COMPLETED',
      );
      const { body } = await metrics.scrape();
      expect(sample(body, 'svc_job_retries_total', { name: 'flaky' })).toBe(1);
      expect(sample(body, 'svc_job_attempts_total', { name: 'flaky', outcome: 'retried' })).toBe(1);
      expect(sample(body, 'svc_job_attempts_total', { name: 'flaky', outcome: 'completed' })).toBe(1);
      expect(sample(body, 'svc_jobs', { state: 'COMPLETED' })).toBe(1);
      expect(sample(body, 'svc_jobs', { state: 'FAILED' })).toBe(0);
    } finally {
      await queue.close();
    }
  });
});

describe('excluded paths', () => {
  it('are neither counted nor timed', () => {
    const metrics = createMetrics({ processMetrics: false, exclude: ['/health/live'] });
    const request = (url: string) => ({
      method: 'GET',
      url,
      path: url,
      query: undefined,
      headers: {},
      body: undefined,
      attributes: new Map(),
    });
    expect(metrics.observer.start(request('/health/live?verbose'))).toBeUndefined();
    expect(metrics.observer.start(request('/photos/1'))).toBeDefined();
  });
});

describe('a real Prometheus server scraping the example', () => {
  const bin = ensurePrometheus();
  if (bin === undefined) {
    it.skip("needs Debian's prometheus package, which could not be installed here (apt-get install prometheus)", () =>
      undefined);
    return;
  }
  let app: FastifyInstance;
  let prometheus: PrometheusServer;
  beforeAll(async () => {
    app = await createExampleApp({ library: seededLibrary(new ImageStore(tempDir())) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    prometheus = await PrometheusServer.start(bin, [`127.0.0.1:${port}`]);
  }, 60_000);
  afterAll(async () => {
    await prometheus?.stop();
    await app?.close();
  });

  it('reads svc_requests_total back through its query API', async () => {
    const port = (app.server.address() as { port: number }).port;
    const api = createResourceClient({ baseUrl: `http://127.0.0.1:${port}` }, { photos });
    for (let i = 0; i < 7; i++) await api.photos.get(1);
    const query = 'svc_requests_total{resource="photos",method="get",status="200"}';
    const result = await until(
      () => prometheus.query(query),
      (r) => r.length === 1 && r[0]!.value === 7,
      30_000,
    );
    expect(result).toEqual([
      {
        metric: expect.objectContaining({ __name__: 'svc_requests_total', job: 'svc', status: '200' }),
        value: 7,
      },
    ]);
  }, 60_000);
});
