/**
 * The typed client in a real browser: a page bundled with esbuild from the client entry
 * (`svc-framework/client`), the example's interfaces and generated classes (test/client/browser/page.ts),
 * run in headless Chromium against the running example on another origin (CORS through @fastify/cors, as
 * src/client/README.md documents). Beside it, on the standalone server with its own `cors` option, a
 * test-only resource (browser/probe-interface.ts) for what the example cannot show: the server seeing a
 * cancel, and a response attachment streamed to the page. One browser and these two servers for the file.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { Observable } from 'rxjs';
import { createExampleApp } from '../../examples/app';
import { PhotoFormat } from '../../examples/src/main/generated/com/example/photos/PhotoFormat';
import { Photo } from '../../examples/src/main/generated/com/example/photos/Photo';
import {
  ResponseAttachments,
  createSvcServer,
  implement,
  listenOn,
  writerFromAsyncIterable,
} from '../../src';
import { HALF_BYTES, probesInterface } from './browser/probe-interface';
import { type TestBrowser, describeWithBrowser, launchChromium } from '../support/browser';
import { bundleForBrowser } from '../support/bundle';
import path from 'node:path';

let app: FastifyInstance;
let baseUrl: string;
let browser: TestBrowser;
let page: Page;
const errors: string[] = [];

/**
 * A second loopback server: it serves the page (so the page's origin is another one than the service's,
 * and loopback, which Chromium's local-network rules require to call a loopback service), and is the
 * example's relay upstream, which takes the relayed request and neither reads nor answers it, telling the
 * test when it arrived.
 */
let upstream: http.Server;
let pageOrigin: string;
let pageCode = '';
let upstreamRequest: Promise<void>;

/** The probe server (standalone, with CORS) and what its resource saw. */
let probeServer: http.Server;
let probeUrl: string;
const probe = {
  hangSubscribed: undefined as Promise<void> | undefined,
  hangTornDown: undefined as Promise<string> | undefined,
  /** Lets the download's second half go. */
  release: undefined as (() => void) | undefined,
  /** Set once the server wrote the second half. */
  secondHalfWritten: false,
};

function startProbeServer(pageOrigin: string): Promise<{ port: number }> {
  let subscribed!: () => void;
  let tornDown!: (how: string) => void;
  probe.hangSubscribed = new Promise((resolve) => (subscribed = resolve));
  probe.hangTornDown = new Promise((resolve) => (tornDown = resolve));
  const gate = new Promise<void>((resolve) => (probe.release = resolve));
  async function* halves(): AsyncGenerator<Uint8Array> {
    yield new Uint8Array(HALF_BYTES).fill(0x41);
    await gate;
    probe.secondHalfWritten = true;
    yield new Uint8Array(HALF_BYTES).fill(0x42);
  }
  const probes = implement(probesInterface, {
    get: (_id, ctx) => {
      ctx.setResponseAttachments(
        ResponseAttachments.builder()
          .appendSingleAttachment(writerFromAsyncIterable('download', halves()))
          .build(),
      );
      return new Photo().setTitle('probe').setFormat(PhotoFormat.JPEG).setImage('cid:download');
    },
    finders: {
      hang: (_params, ctx) =>
        new Observable<never>(() => {
          subscribed();
          return () => tornDown(ctx.signal.aborted ? 'unsubscribed, signal aborted' : 'unsubscribed');
        }),
    },
  });
  // compression off: a compressed multipart response would be another test's business
  probeServer = createSvcServer({ resources: [probes], cors: { origin: [pageOrigin] }, compression: false });
  return listenOn(probeServer);
}

beforeAll(async () => {
  let arrived!: () => void;
  upstreamRequest = new Promise((resolve) => (arrived = resolve));
  upstream = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>svc client</title><script>${pageCode}</script>`);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(204).end(); // the page's favicon.ico
      return;
    }
    arrived(); // neither read nor answered: the relay (and so the browser's call) waits on it
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  const [{ code }, launched] = await Promise.all([
    bundleForBrowser(path.join(__dirname, 'browser/page.ts')),
    launchChromium(),
  ]);
  browser = launched;
  pageCode = code.replace(/<\/script/gi, '<\\/script');
  app = await createExampleApp({
    observe: false,
    upstream: pageOrigin,
    // the example's server-wide limit is 1,000 items; the 5,000-id batch get is about tunnelling
    svc: { maxBatchSize: 5000 },
  });
  // what a service called from web pages of other origins adds (src/client/README.md, "CORS")
  await app.register(cors, {
    origin: [pageOrigin],
    exposedHeaders: ['X-Svc-Id', 'X-Svc-Protocol-Version', 'Location', 'X-Svc-Error-Response'],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });

  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  probeUrl = `http://127.0.0.1:${(await startProbeServer(pageOrigin)).port}`;

  page = await browser.browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${pageOrigin}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  probe.release?.();
  probeServer?.closeAllConnections();
  await new Promise((resolve) => probeServer?.close(resolve));
  upstream?.closeAllConnections();
  await app?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

/** The page's functions (test/client/browser/page.ts), as page.evaluate sees them. */
interface PageApi {
  calls(baseUrl: string): Promise<Record<string, unknown>>;
  startRelay(baseUrl: string): void;
  relayOutcome(): Promise<string>;
  abortRelay(): Promise<string>;
  startHang(probeUrl: string): void;
  abortHang(): Promise<string>;
  startDownload(probeUrl: string): Promise<{ title: string; id: string; early: number }>;
  finishDownload(): Promise<{ total: number; last: number }>;
}
/** The page's global (the functions given to page.evaluate run there, so they name it themselves). */
type PageGlobal = { svcPage: PageApi };

describeWithBrowser('the typed client in Chromium, against the running example', () => {
  it('gets, finds with paging, batch-finds, creates, batch-gets 5,000 ids tunnelled, speaks PSON and uploads a Blob', async () => {
    const out = await page
      .evaluate((url) => (globalThis as unknown as PageGlobal).svcPage.calls(url), baseUrl)
      .catch((err: Error) => ({ failed: err.message, console: errors }));
    expect(out).toEqual({
      get: 'Sunrise over the bay',
      rx: 'Sunrise over the bay',
      finder: { titles: expect.any(Array), paging: [1, 2, expect.any(Number)] },
      modular: expect.any(Array),
      modularGet: 'Sunrise over the bay',
      batchFinder: [1, 404],
      create: [201, 'From the browser'],
      batchGet: {
        found: 7,
        missing: 0, // the example's batch get leaves unknown ids out
        // the query of 5,000 ids is over the threshold: POST with the method override, the query as the body
        wire: [
          {
            method: 'POST',
            override: 'GET',
            contentType: 'application/x-www-form-urlencoded',
            answered: 'application/json',
          },
        ],
      },
      pson: { title: expect.any(String), wire: [{ method: 'GET', answered: 'application/x-pson' }] },
      upload: { status: 201, downloads: [['the image', 300_000, 0xd8]] },
      // attachments are opt-in in the browser entry: a typed error saying which option, nothing sent
      withoutAttachments: [
        'rejected: ClientOptionsError (attachments)',
        'rejected: ClientOptionsError (attachments)',
      ],
    });
    // the per-method `find` got the page the facade's finder got
    const got = out as { modular: string[]; finder: { titles: string[] } };
    expect(got.modular).toEqual(got.finder.titles);
    expect(got.modular.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('cancels a call in flight at the server with an AbortController: the promise rejects with the AbortError', async () => {
    await page.evaluate((url) => (globalThis as unknown as PageGlobal).svcPage.startRelay(url), baseUrl);
    // the example is relaying the upload upstream, so the browser's request is open at the server
    const ended = page.evaluate(() => (globalThis as unknown as PageGlobal).svcPage.relayOutcome());
    expect(await Promise.race([upstreamRequest.then(() => 'relaying'), ended])).toBe('relaying');
    const outcome = await page.evaluate(() => (globalThis as unknown as PageGlobal).svcPage.abortRelay());
    expect(outcome).toBe('rejected: AbortError');
    // Not asserted here: that the server sees this upload end. Chromium 156 keeps the HTTP/1.1 connection of
    // an upload aborted mid-body open (seen with a plain fetch too), so the server learns of it only when the
    // browser closes; an aborted GET is seen (the next test). See src/client/README.md, "In the browser".
  });

  it('cancels a call with an AbortController and the server sees it: the handler is unsubscribed', async () => {
    await page.evaluate((url) => (globalThis as unknown as PageGlobal).svcPage.startHang(url), probeUrl);
    await probe.hangSubscribed; // the finder's Observable is subscribed: the request is open at the server
    const outcome = await page.evaluate(() => (globalThis as unknown as PageGlobal).svcPage.abortHang());
    expect(outcome).toBe('rejected: AbortError');
    // the browser closes the connection of the aborted GET; the server unsubscribes the handler
    expect(await probe.hangTornDown).toBe('unsubscribed, signal aborted');
  });

  it('reads a response attachment as a web stream while the server is still writing it', async () => {
    const started = await page.evaluate(
      (url) => (globalThis as unknown as PageGlobal).svcPage.startDownload(url),
      probeUrl,
    );
    // the page has the first half, and the server has not written the second: nothing was buffered whole
    expect([started, probe.secondHalfWritten]).toEqual([
      { title: 'probe', id: 'download', early: HALF_BYTES },
      false,
    ]);
    probe.release!();
    const finished = await page.evaluate(() =>
      (globalThis as unknown as PageGlobal).svcPage.finishDownload(),
    );
    expect([finished, probe.secondHalfWritten]).toEqual([{ total: 2 * HALF_BYTES, last: 0x42 }, true]);
    expect(errors).toEqual([]);
  });
});
