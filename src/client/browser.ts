/**
 * The `svc-framework/client` entry: the typed client, the generated data templates' runtime and the
 * resource interfaces, without a Node built-in on any import path, so that a bundler can put them in a
 * browser page (or any runtime with `fetch`, `TextEncoder` and web streams). The default transport is the
 * platform's `fetch` (see `web-platform.ts`); the package root (`svc-framework`) is the Node face and keeps
 * `node:http`. `test/client/browser-entry.test.ts` bundles this file for the browser and fails if a Node
 * built-in is reached. See README.md in this folder, "In the browser".
 */
export * from './portable';
export * from '../data';
export * from '../templates';
export * from '../resources/portable';
export * from '../streams/portable';
export { SvcError, isSvcError, type ErrorCode } from '../errors';
