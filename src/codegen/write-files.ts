import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { GeneratedFile } from './generate';

/** What {@link writeGeneratedFiles} did. */
export interface WriteResult {
  /** Files written (new or changed). */
  readonly written: number;
  /** Files left alone because their text was already right. */
  readonly unchanged: number;
  /** Stale `.ts` files removed (only with `clean`). */
  readonly removed: number;
}

/**
 * Writes generated files below `targetDir`, touching only files whose text changed (so a generation that
 * changes nothing writes nothing, and concurrent runs over the same tree do not disturb each other). With
 * `clean`, `.ts` files below `targetDir` that were not generated are removed, and emptied directories too:
 * use it only on directories the generator owns.
 */
export function writeGeneratedFiles(
  targetDir: string,
  files: readonly GeneratedFile[],
  options: { readonly clean?: boolean } = {},
): WriteResult {
  let written = 0;
  let unchanged = 0;
  let removed = 0;
  const keep = new Set<string>();
  for (const f of files) {
    const path = nodePath.join(targetDir, ...f.path.split('/'));
    keep.add(nodePath.resolve(path));
    let current: string | undefined;
    try {
      current = fs.readFileSync(path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === f.text) {
      unchanged++;
      continue;
    }
    fs.mkdirSync(nodePath.dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    fs.writeFileSync(temp, f.text);
    fs.renameSync(temp, path); // atomic: a reader never sees half a file
    written++;
  }
  if (options.clean === true && fs.existsSync(targetDir)) {
    const walk = (dir: string): boolean => {
      let empty = true;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = nodePath.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (walk(p)) fs.rmdirSync(p);
          else empty = false;
        } else if (entry.name.endsWith('.ts') && !keep.has(nodePath.resolve(p))) {
          fs.rmSync(p, { force: true });
          removed++;
        } else {
          empty = false;
        }
      }
      return empty;
    };
    walk(targetDir);
  }
  return { written, unchanged, removed };
}
