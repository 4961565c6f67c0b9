/**
 * Writes `src/errors/error-table.ts`, the browser's copy of the error registry: each code's error class name
 * and HTTP status, without the one-line summaries of `src/errors/error-codes.ts` (a third of the size of a
 * browser page that uses the client: `bench/client-size.bench.ts`). `error-codes.ts` stays the one place
 * codes are created; this table is derived from it by `npm run generate` (and jest's globalSetup), and
 * `npm run typecheck` fails while it lacks a code (its type is keyed by `ErrorCode`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_CODES } from '../src/errors/error-codes';

export const ERROR_TABLE_FILE = path.join(__dirname, '../src/errors/error-table.ts');

/** The text of `src/errors/error-table.ts` for the registry as it is. */
export function errorTableText(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, info]) => `  ${code}: [${JSON.stringify(info.errorName).replace(/"/g, "'")}, ${info.status}],`,
  );
  return [
    '// Generated from error-codes.ts by scripts/error-table.ts (npm run generate): do not edit.',
    "import type { ErrorCode } from './error-codes';",
    '',
    '/**',
    ' * Each code with its error class name and HTTP status: what `SvcError` needs at run time, without the',
    ' * summaries, which only docs and tools read (so a browser page does not carry them; see `ERROR_CODES`).',
    ' */',
    'export const ERROR_TABLE: { readonly [C in ErrorCode]: readonly [errorName: string, status: number] } = {',
    ...rows,
    '};',
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
