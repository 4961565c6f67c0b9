import { nodeBuiltin } from '../data/node-builtin';

/** The path operations the schema resolver uses. */
export interface PathOps {
  resolve(...paths: string[]): string;
  join(...paths: string[]): string;
  readonly sep: string;
}

/**
 * `/`-separated paths for runtimes without `node:path` (a browser, where the resolver only reads the
 * template registry's in-memory files): `resolve` makes a path absolute from `/` and normalises it.
 */
const POSIX_PATHS: PathOps = {
  sep: '/',
  join: (...paths) => normalize(paths.filter((p) => p !== '').join('/'), false),
  resolve: (...paths) => {
    let out = '';
    for (const p of paths) out = p.startsWith('/') ? p : `${out}/${p}`;
    return normalize(out.startsWith('/') ? out : `/${out}`, true);
  },
};

function normalize(path: string, absolute: boolean): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  const joined = out.join('/');
  return absolute || path.startsWith('/') ? `/${joined}` : joined === '' ? '.' : joined;
}

/** `node:path` on Node (so file paths are the platform's), else `/`-separated paths. */
export const PATHS: PathOps = nodeBuiltin<PathOps>('node:path') ?? POSIX_PATHS;
