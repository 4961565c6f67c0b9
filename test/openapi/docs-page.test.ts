import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { createExampleApp } from '../../examples/app';
import { type TestBrowser, describeWithBrowser, launchChromium } from '../support/browser';
import { tempDirs } from '../support/temp-dirs';

/**
 * The example's docs page in headless Chromium: it loads with no console error and no failed request (all
 * its files come from the service: no CDN), lists every resource, and "Try it out" on GET /photos/1 shows
 * the photo. The screenshot goes to a temp dir removed after the test, or to SVC_SCREENSHOT_DIR when set
 * (to look at it).
 */

const tempDir = tempDirs('svc-docs-page-');

describeWithBrowser('the docs page in Chromium', () => {
  let browser: TestBrowser;
  let app: FastifyInstance;
  let base: string;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    app = await createExampleApp({ observe: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    browser = await launchChromium();
    page = await browser.browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:'))
        problems.push(`outside request: ${r.url()}`);
    });
    await page.goto(`${base}/docs`);
    await page.locator('.opblock-tag').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists every resource of the example', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { tags: { name: string }[] };
    const tags = await page.locator('.opblock-tag').all();
    const shown = await Promise.all(tags.map((t) => t.getAttribute('data-tag')));
    expect(shown.sort()).toEqual(doc.tags.map((t) => t.name).sort());
    expect(shown).toEqual(expect.arrayContaining(['photos', 'albums', 'albumEntries']));
  });

  it('shows the protocol guide: keys, batch methods, finders, batch finders and actions', async () => {
    const info = page.locator('.info');
    await info.getByText('Reading this API: the Rest.li 2.0 protocol').waitFor();
    await info.getByText('a batch finder: several searches at once').waitFor();
    await info.getByText('an action: a remote procedure').waitFor();
  });

  it('tries GET /photos/1 from the page and shows the photo', async () => {
    const expected = (await (await fetch(`${base}/photos/1`)).json()) as { title: string };
    const get = page.locator('.opblock-get', { has: page.locator('[data-path="/photos/{photosId}"]') });
    await get.locator('.opblock-summary').click();
    // its curl line, then "Try it out"
    await get.locator('code', { hasText: "curl -s -H 'X-Svc-Protocol-Version: 2.0.0'" }).first().waitFor();
    await get.locator('.try-out__btn').click();
    await get.locator('input[placeholder="photosId"]').fill('1');
    await get.locator('.execute').click();
    // the live response: its status and its body, which holds the photo
    const live = get.locator('.live-responses-table');
    await live.locator('.response-col_description').filter({ hasText: expected.title }).first().waitFor();
    expect((await live.locator('tr.response .response-col_status').first().textContent())?.trim()).toBe(
      '200',
    );
    const dir = process.env.SVC_SCREENSHOT_DIR ?? tempDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'docs-page.png');
    await get.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(1000);
  });

  it('loaded and ran with no console error and no request outside the service', () => {
    expect(problems).toEqual([]);
  });
});
