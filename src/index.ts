/**
 * Svc: typed HTTP resource services, wire-compatible with the Rest.li 2.0 protocol family.
 * The package root re-exports the public API of every layer.
 */
// every error code is known here (isSvcError, names, statuses), the CLI's too, though the root does not
// export the CLI: each module registers its own codes (src/errors/error-table.ts)
import './cli/cli-error';
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
