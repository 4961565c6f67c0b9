/**
 * Which import extension generated files need in the project they are written into.
 *
 * Node and TypeScript (`module: node16`/`nodenext`) decide whether a `.ts` file is an ES module or
 * CommonJS by one rule: the `type` field of the nearest `package.json` above it. ES modules need explicit
 * extensions on relative imports (`./Item.js`, else TS2835); CommonJS files do not, and the loaders that
 * run TypeScript sources in CommonJS projects (jest's default resolver, `@swc-node/register`, ts-node)
 * cannot find `./Item.js` when only `Item.ts` exists. So the generator follows the same rule rather than
 * writing `.js` everywhere: `.js` in an ES-module package, none in a CommonJS one. Both compile under
 * every `moduleResolution` that package kind uses (test/codegen/consumer-projects.test.ts runs `tsc`).
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { CodegenError } from './errors';

/** What {@link detectModuleFormat} found. */
export interface ModuleFormat {
  /** `module` when the nearest package.json says `"type": "module"`, else `commonjs`. */
  readonly format: 'module' | 'commonjs';
  /** The package.json that decided it; undefined when there is none above the directory. */
  readonly packageJson: string | undefined;
  /** The extension to append to imports between generated files: `.js` for ES modules, else `''`. */
  readonly importExtension: '' | '.js';
}

/**
 * The module format of files written below `targetDir` (which need not exist yet), found the way Node
 * and TypeScript find it: the nearest `package.json` up to the file system root, not looking past a
 * `node_modules` folder.
 *
 * @example
 * ```ts
 * detectModuleFormat('src/generated').importExtension; // '.js' in a "type": "module" package, else ''
 * ```
 * @throws CodegenError (`SVC_ERR_CODEGEN_INPUT`) when that package.json is not a JSON object: the
 *   format cannot be told, and guessing would give code that fails to compile or to load.
 */
export function detectModuleFormat(targetDir: string): ModuleFormat {
  let dir = nodePath.resolve(targetDir);
  for (;;) {
    if (nodePath.basename(dir) === 'node_modules') break;
    const file = nodePath.join(dir, 'package.json');
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      text = undefined; // no package.json here (or not a file): look further up
    }
    if (text !== undefined) return formatOf(file, text);
    const parent = nodePath.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { format: 'commonjs', packageJson: undefined, importExtension: '' };
}

function formatOf(file: string, text: string): ModuleFormat {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (err) {
    throw new CodegenError(
      'SVC_ERR_CODEGEN_INPUT',
      `${file} is not JSON, so whether generated code is an ES module cannot be told; fix it, or pass the import extension (--import-extension .js, or '' for none)`,
      { cause: err },
    );
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new CodegenError(
      'SVC_ERR_CODEGEN_INPUT',
      `${file} is not a JSON object, so whether generated code is an ES module cannot be told; fix it, or pass the import extension (--import-extension .js, or '' for none)`,
    );
  }
  const esm = (manifest as { type?: unknown }).type === 'module';
  return { format: esm ? 'module' : 'commonjs', packageJson: file, importExtension: esm ? '.js' : '' };
}
