/**
 * What a client needs of the resources layer, without the server's side: the resource interfaces and their
 * key, value and parameter types, for `svc-framework/client` (`src/client/browser.ts`), which must not reach
 * a Node built-in. The package root exports all of `index.ts`.
 */
export * from './value-types';
export * from './key-types';
export * from './params';
export * from './interface';
export { type AttachmentsParam, attachmentsParam, withAttachments } from './attachments-param';
