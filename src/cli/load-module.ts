import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliUsageError } from './cli-error';

/**
 * Loads a user's module by path (`--processors`, `svc serve <module>`): CommonJS through `require`, an ES
 * module through `import()`. Resolves with the module object.
 * @throws CliUsageError when there is no such file
 */
export async function loadUserModule(specifier: string, flag: string): Promise<unknown> {
  const file = path.resolve(specifier);
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
