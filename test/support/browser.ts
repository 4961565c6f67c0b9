/**
 * A real headless Chromium for browser tests: Debian's `chromium` package (installed with apt-get when
 * missing and possible), driven by `playwright-core` (which downloads no browser of its own). One browser
 * per test file: launch it in `beforeAll` and close it in `afterAll`.
 *
 * Where Chromium cannot be had (no root, no mirror), {@link launchChromium} returns the reason instead of a
 * browser, and the test skips with that message (`describeWithBrowser`), so a machine without it says why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { ensureDebianCommand } from './debian-package';

export const CHROMIUM_PACKAGE = "Debian package 'chromium' (tested with Chromium 156)";

let cached: { path: string } | { reason: string } | undefined;

/** The Chromium executable, installing Debian's package when missing; or why there is none. */
export function chromiumExecutable(): { path: string } | { reason: string } {
  if (cached !== undefined) return cached;
  const found = ensureDebianCommand('chromium', 'chromium');
  cached =
    found !== undefined
      ? { path: found }
      : { reason: `no Chromium here and installing the ${CHROMIUM_PACKAGE} failed: sudo apt-get install -y chromium` };
  return cached;
}

/** A launched browser and the cleanup of its profile directory. */
export interface TestBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a throwaway profile in the temp dir (removed by `close()`); the sandbox is
 * off because CI runs as root, where Chromium refuses it.
 */
export async function launchChromium(): Promise<TestBrowser> {
  const exe = chromiumExecutable();
  if ('reason' in exe) throw new Error(exe.reason);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'svc-chromium-'));
  const browser = await chromium.launch({
    executablePath: exe.path,
    headless: true,
    args: ['--no-sandbox', `--crash-dumps-dir=${profile}`, '--disable-gpu', '--disable-dev-shm-usage'],
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile },
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** `describe` when Chromium is available, else `describe.skip` with the reason printed once. */
export function describeWithBrowser(name: string, fn: () => void): void {
  const exe = chromiumExecutable();
  if ('reason' in exe) {
    console.warn(`skipping "${name}": ${exe.reason}`);
    describe.skip(name, fn);
    return;
  }
  describe(name, fn);
}
