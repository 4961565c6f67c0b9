/**
 * Writes `src/errors/error-table.ts`, the run-time copy of the error registry: each code's error class name
 * and HTTP status, without the one-line summaries of `src/errors/error-codes.ts`, in one table per module
 * that defines error classes (each registers its own, so a browser page carries only the codes of what it
 * loads: `bench/client-size.bench.ts`). `error-codes.ts` stays the one place codes are created; the tables
 * are derived from it and from the modules' texts by `npm run generate` (and jest's globalSetup);
 * test/errors/error-codes.test.ts checks that every code is in a table, and every table registered.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_CODES } from '../src/errors/error-codes';

export const ERROR_TABLE_FILE = path.join(__dirname, '../src/errors/error-table.ts');

const SRC = path.join(__dirname, '../src');

/**
 * The modules that define error classes (`extends SvcError`, or a class of one), each with the codes its
 * text names: every error is built by a class whose module names its code (a literal in `super(...)`, or
 * in the union type of a `code` parameter), so a module that registers its own codes' table has registered
 * the code of every error it can build. Sorted by path.
 */
export function errorModules(): Array<{ readonly module: string; readonly codes: readonly string[] }> {
  const out: Array<{ module: string; codes: string[] }> = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'errors' || dir !== SRC) walk(file);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const text = fs.readFileSync(file, 'utf8');
        if (!/\bextends (SvcError|[A-Za-z]+(Error|Exception))\b/.test(text) || !text.includes('SvcError'))
          continue;
        const codes = [...new Set(text.match(/'SVC_ERR_[A-Z0-9_]+'/g) ?? [])].map((c) => c.slice(1, -1));
        const known = codes.filter((c) => c in ERROR_CODES).sort();
        if (known.length > 0)
          out.push({ module: path.relative(SRC, file).replace(/\\/g, '/'), codes: known });
      }
    }
  };
  walk(SRC);
  return out.sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
}

/** The exported name of a module's table: `client/errors.ts` → `CLIENT_ERRORS_CODES`. */
export function tableName(module: string): string {
  return `${module
    .replace(/\.ts$/, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}_CODES`;
}

/** The text of `src/errors/error-table.ts` for the registry as it is. */
export function errorTableText(): string {
  const row = (code: string): string => {
    const info = ERROR_CODES[code as keyof typeof ERROR_CODES];
    return `  ${code}: [${JSON.stringify(info.errorName).replace(/"/g, "'")}, ${info.status}],`;
  };
  const tables = errorModules().flatMap(({ module, codes }) => [
    '',
    `/** The codes of \`src/${module}\`'s error classes, which it registers. */`,
    `export const ${tableName(module)}: ErrorTable = {`,
    ...codes.map(row),
    '};',
  ]);
  return [
    '// Generated from error-codes.ts by scripts/error-table.ts (npm run generate): do not edit.',
    "import type { ErrorTable } from './svc-error';",
    '',
    '/*',
    ' * Each code with its error class name and HTTP status, one table per module that defines error classes:',
    ' * what `SvcError` needs at run time, without the summaries, which only docs and tools read. Each module',
    ' * registers its own table (`registerErrorCodes`), so a browser page carries only the codes of the layers',
    ' * it loads (README.md of src/client, "Size"); the package root loads them all (see `ERROR_CODES`).',
    ' */',
    ...tables,
    '',
  ].join('\n');
}

/** Writes the table when its text changed; true when it did. */
export function writeErrorTable(): boolean {
  const text = errorTableText();
  const known = fs.existsSync(ERROR_TABLE_FILE) ? fs.readFileSync(ERROR_TABLE_FILE, 'utf8') : undefined;
  if (known === text) return false;
  fs.writeFileSync(ERROR_TABLE_FILE, text);
  return true;
}
