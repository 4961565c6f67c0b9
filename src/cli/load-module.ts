import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliUsageError } from './cli-error';

/**
 * TypeScript loaders a project may have installed, tried in this order: the package itself ships none (a
 * compiler at run time is the application's choice, not the framework's), so the CLI borrows the one the
 * project uses. Each registers a `require` hook for `.ts`.
 */
export const TYPESCRIPT_LOADERS = [
  '@swc-node/register',
  'tsx/cjs',
  'ts-node/register/transpile-only',
  'esbuild-register',
] as const;

/** What `--help` says about `.ts` modules. */
export const TYPESCRIPT_MODULES_HELP =
  `A .ts module is loaded through a TypeScript loader installed in the project (the first found of ` +
  `${TYPESCRIPT_LOADERS.join(', ')}), e.g. \`npm install -D @swc-node/register\`; or point the command ` +
  `at the compiled .js.`;

/**
 * Registers a TypeScript loader when `file` is TypeScript and none is registered yet (this process may
 * already run under one: `node -r @swc-node/register`, `tsx`, jest).
 * @throws CliUsageError naming the loaders looked for, when none is installed
 */
export function ensureTypeScriptLoader(file: string, flag: string): void {
  if (!/\.[cm]?tsx?$/.test(file) || require.extensions?.['.ts'] !== undefined) return;
  const from = [process.cwd(), path.dirname(path.resolve(file))];
  const failures: string[] = [];
  for (const loader of TYPESCRIPT_LOADERS) {
    let resolved: string;
    try {
      // the project's loader, not one that happens to sit beside the framework
      resolved = require.resolve(loader, { paths: from });
    } catch {
      continue;
    }
    try {
      // (a runtime with a module system of its own, such as jest, compiles TypeScript itself: the hook it
      // installs is not on this `require`, so success is judged by loading the module, which names what failed)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(resolved);
      return;
    } catch (err) {
      failures.push(`${loader}: ${(err as Error).message}`);
    }
  }
  throw new CliUsageError(
    `${flag} ${file}: a TypeScript module needs a TypeScript loader and none is installed` +
      (failures.length === 0 ? '' : ` (${failures.join('; ')})`) +
      `: install one (npm install -D @swc-node/register; also found: ${TYPESCRIPT_LOADERS.slice(1).join(', ')}), ` +
      `or use the compiled .js`,
  );
}

/**
 * Loads a user's module by path (`--processors`, `svc serve <module>`): CommonJS through `require`, an ES
 * module through `import()`, TypeScript through the project's loader ({@link ensureTypeScriptLoader}).
 * Resolves with the module object.
 * @throws CliUsageError when there is no such file, or it is TypeScript and no loader is installed
 */
export async function loadUserModule(specifier: string, flag: string): Promise<unknown> {
  const file = path.resolve(specifier);
  ensureTypeScriptLoader(file, flag);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file) as unknown;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') {
      // an ES module: import() kept out of reach of the CommonJS compilation, which would make it require()
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      const load = new Function('u', 'return import(u)') as (u: string) => Promise<unknown>;
      return load(pathToFileURL(file).href);
    }
    if (code === 'MODULE_NOT_FOUND' && (err as Error).message.includes(file))
      throw new CliUsageError(`${flag} ${specifier}: no such module (${file})`, { cause: err });
    throw err;
  }
}
