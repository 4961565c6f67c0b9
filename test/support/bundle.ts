/**
 * esbuild for the browser tests and the client-size bench: bundles for `platform: 'browser'` with no Node
 * polyfills, `svc-framework` (what generated data templates import) mapped to the client entry
 * (`src/client/browser.ts`, the `svc-framework/client` of the package), and every Node built-in reached
 * recorded instead of resolved, so that a caller can fail on it and name the import chain.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { type BuildOptions, type Metafile, build } from 'esbuild';

export const REPO_ROOT = path.join(__dirname, '../..');
export const CLIENT_ENTRY = path.join(REPO_ROOT, 'src/client/browser.ts');

const BUILTINS = new Set(builtinModules);
const isBuiltin = (spec: string): boolean => spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!);

/** A bundle, the Node built-ins its import graph reached (each with the chain that got there) and its metafile. */
export interface BrowserBundle {
  readonly code: string;
  readonly builtins: readonly string[];
  readonly metafile: Metafile;
}

/**
 * Bundles `entry` (a file, or `{ contents }` resolved from the repository root) for the browser. Built-ins
 * are left external and reported, not failed on, so a test can say which chain reached them.
 */
export async function bundleForBrowser(
  entry: string | { readonly contents: string },
  options: Pick<BuildOptions, 'minify' | 'format' | 'globalName'> = {},
): Promise<BrowserBundle> {
  const reached: Array<{ spec: string; importer: string }> = [];
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: REPO_ROOT, loader: 'ts', sourcefile: 'page.ts' } }),
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: options.format ?? 'iife',
    ...(options.globalName === undefined ? {} : { globalName: options.globalName }),
    minify: options.minify ?? false,
    write: false,
    metafile: true,
    logLevel: 'silent',
    alias: { 'svc-framework': CLIENT_ENTRY, 'svc-framework/client': CLIENT_ENTRY },
    plugins: [
      {
        name: 'report-node-builtins',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (!isBuiltin(args.path)) return undefined;
            reached.push({ spec: args.path, importer: args.importer });
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const metafile = result.metafile;
  const builtins = reached.map(({ spec, importer }) => `${spec} ← ${chainTo(metafile, importer)}`);
  return { code: result.outputFiles[0]!.text, builtins: [...new Set(builtins)].sort(), metafile };
}

/** `a.ts ← b.ts ← ... ← entry`: one import chain from the entry to `file`. */
function chainTo(metafile: Metafile, file: string): string {
  const rel = path.relative(REPO_ROOT, file);
  const importers = new Map<string, string>();
  for (const [f, input] of Object.entries(metafile.inputs)) {
    for (const imp of input.imports) if (!importers.has(imp.path)) importers.set(imp.path, f);
  }
  const chain = [rel];
  for (let at = importers.get(rel); at !== undefined && chain.length < 30; at = importers.get(at)) {
    if (chain.includes(at)) break;
    chain.push(at);
  }
  return chain.join(' ← ');
}
