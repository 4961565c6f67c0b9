/**
 * The `svc-framework/client` entry: the typed client, the generated data templates' runtime and the
 * resource interfaces, without a Node built-in on any import path, so that a bundler can put them in a
 * browser page (or any runtime with `fetch`, `TextEncoder` and web streams). The default transport is the
 * platform's `fetch` (see `web-platform.ts`); the package root (`svc-framework`) is the Node face and keeps
 * `node:http`. `test/client/browser-entry.test.ts` bundles this file for the browser and fails if a Node
 * built-in is reached. See README.md in this folder, "In the browser".
 */
export * from './portable';
// the typed client with the `rx` forms opt-in: `createResourceClient(options, resources, { rx: rxForms })`
export { createResourceClient, resourceClient } from './web-resource-client';
export * from '../data';
export * from '../templates';
export * from '../resources/portable';
export * from '../streams/portable';
export { SvcError, isSvcError, type ErrorCode } from '../errors';
// opt-in: the client validates what it receives with the full validator (~5 KB of a page; README.md, "Size")
export { installFullValidation } from '../schema/validation/full-validation';
// opt-in: `String(schema)` as the schema's JSON (~1.1 KB of a page; without it, a short description)
export { installSchemaText } from '../schema/schema-text';
// the schema classes generated classes name in their types (`schema(): RecordDataSchema`), as types only, so
// that generated code type-checks against this entry in a browser project (test/package/package.test.ts)
export type { DataSchema } from '../schema/data-schema';
export type { NamedDataSchema } from '../schema/named-schema';
export type { ArrayDataSchema } from '../schema/array-schema';
export type { EnumDataSchema } from '../schema/enum-schema';
export type { FixedDataSchema } from '../schema/fixed-schema';
export type { MapDataSchema } from '../schema/map-schema';
export type { RecordDataSchema, RecordField } from '../schema/record-schema';
export type { TyperefDataSchema } from '../schema/typeref-schema';
export type { UnionDataSchema } from '../schema/union-schema';
