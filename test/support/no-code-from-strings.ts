/**
 * Runs `body` as under a policy that forbids code from strings (a CSP without `unsafe-eval`): `new Function`
 * throws the EvalError V8 throws then. For the modules that compile code and must fall back to a loop.
 */
export function withoutCodeFromStrings<T>(body: () => T): T {
  const real = globalThis.Function;
  globalThis.Function = function refused(): never {
    throw new EvalError('Code generation from strings disallowed for this context');
  } as unknown as FunctionConstructor;
  try {
    return body();
  } finally {
    globalThis.Function = real;
  }
}

/**
 * Fresh copies of the modules at `paths` (`require`d together in one `jest.isolateModules`, so that they
 * share the fresh copies of what they load): their module state (what they compiled so far) starts empty.
 */
export function freshModules<T extends unknown[]>(...paths: string[]): T {
  const loaded: unknown[] = [];
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- fresh copies (isolateModules)
    for (const path of paths) loaded.push(require(path));
  });
  return loaded as T;
}
