/**
 * Svc: typed HTTP resource services, wire-compatible with the Rest.li 2.0 protocol family.
 * The package root re-exports the public API of every layer.
 */
export * from './data';
export * from './schema';
export * from './templates';
export * from './codegen';
export * from './protocol';
export * from './resources';
export * from './server';
export * from './client';
export * from './idl';
export * from './openapi';
export * from './streams';
export * from './queue';
export * from './runtime';
export * from './security';
export { ERROR_CODES, SvcError, isSvcError, type ErrorCode, type ErrorCodeInfo } from './errors';
export * from './idl/compat';
export * from './replay';
export * from './runtime';
