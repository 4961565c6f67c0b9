/**
 * A Node built-in module loaded at run time (`process.getBuiltinModule`, Node ≥ 20.16), or undefined where
 * there is none (a browser). For the few modules that serve both the server and the browser client and
 * need Node only on Node (the schema resolver reads files there): a static `import 'node:fs'` would be
 * followed by every bundler and fail the browser bundle (`test/client/browser-entry.test.ts`).
 */
export function nodeBuiltin<T>(name: `node:${string}`): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.(name) as T | undefined;
}
