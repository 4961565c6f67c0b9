/**
 * The code blocks of the project's Markdown pages, for the tests that compile and run them
 * (`typescript-blocks.test.ts`, `test/package/package.test.ts`). A block is marked by the HTML comment on
 * the line right before its opening fence: `<!-- fragment -->` (an excerpt, not checked as a module: keep
 * these rare), `<!-- file: <path> -->` (a file of the getting-started project, compiled against the packed
 * package by the package test), `<!-- run -->`, `<!-- start -->` or `<!-- request -->` (shell steps the
 * package test runs in that project).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '../..');

/** One fenced block of a page. */
export interface DocBlock {
  /** The page, relative to the repository root. */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's language (`ts`, `sh`, ...). */
  readonly lang: string;
  /** The marker comment's text (`fragment`, `file: src/app.ts`, `run`...), or undefined. */
  readonly marker: string | undefined;
  readonly code: string;
}

/** The pages whose TypeScript blocks must compile: README.md, docs/, every README under src/ and examples/. */
export function documentedPages(): string[] {
  const below = (dir: string): string[] =>
    (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
      .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
      .filter((f) => f.endsWith('/README.md'));
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, ...below('src'), ...below('examples')].sort();
}

/** Every fenced block of `page` (a path relative to the repository root). */
export function blocksOf(page: string): DocBlock[] {
  const lines = readFileSync(path.join(ROOT, page), 'utf8').split('\n');
  const out: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    const before = i > 0 ? /^<!--\s*(.*?)\s*-->$/.exec(lines[i - 1]!.trim()) : null;
    out.push({
      page,
      line: i + 1,
      lang: open[1]!,
      marker: before?.[1],
      code: lines.slice(i + 1, end).join('\n') + '\n',
    });
    i = end;
  }
  return out;
}

/** Whether a block is TypeScript. */
export function isTypeScript(block: DocBlock): boolean {
  return block.lang === 'ts' || block.lang === 'typescript';
}
