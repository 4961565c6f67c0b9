import type { ErrorCode } from './error-codes';

/** Codes with their error class name and HTTP status (the generated tables of error-table.ts). */
export type ErrorTable = { readonly [C in ErrorCode]?: readonly [errorName: string, status: number] };

/**
 * The registered codes: each module that defines error classes registers the table of its own codes when it
 * loads (`registerErrorCodes`, from error-table.ts, which `npm run generate` derives from error-codes.ts and
 * the modules), so a browser page carries only the codes of the layers it loads; the package root loads them
 * all. Every error is built by a class of a module that has registered its code
 * (test/errors/error-codes.test.ts).
 */
const REGISTERED = new Map<string, readonly [errorName: string, status: number]>();

/** Registers a module's codes (idempotent). */
export function registerErrorCodes(table: ErrorTable): void {
  for (const [code, entry] of Object.entries(table)) REGISTERED.set(code, entry);
}

/** The class name and status of a registered code; undefined for a code no loaded module registered. */
export function registeredError(code: string): readonly [errorName: string, status: number] | undefined {
  return REGISTERED.get(code);
}

/**
 * Base class of every error Svc throws on purpose.
 *
 * `name` is the stable class name from the registry and `code` the stable `SVC_ERR_*` code; check those
 * (see {@link isSvcError}) rather than `instanceof`, since two copies of the package may be loaded.
 */
export class SvcError extends Error {
  readonly code: ErrorCode;
  /** HTTP status this error maps to at the edge. */
  readonly statusCode: number;
  /**
   * True when the message is written for clients (it names no internals: no paths, no stack): it is then
   * shown even for a 5xx in production (e.g. "the queue is unavailable, retry later"). Default false.
   */
  readonly publicMessage: boolean = false;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    // never unregistered: the class that passes `code` is in a module that registered it (see REGISTERED)
    const [errorName, status] = REGISTERED.get(code) ?? ['SvcError', 500];
    this.code = code;
    this.statusCode = status;
    this.name = errorName;
  }
}

/** True when `err` is an error Svc raised with the given name (and, if given, code); survives duplicate package copies. */
export function isSvcError(err: unknown, name?: string, code?: ErrorCode): err is SvcError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown };
  if (typeof e.code !== 'string' || !e.code.startsWith('SVC_ERR_') || !REGISTERED.has(e.code)) return false;
  if (name !== undefined && e.name !== name) return false;
  if (code !== undefined && e.code !== code) return false;
  return true;
}
