/**
 * The migration guide's TypeScript blocks are excerpts of the example's compiled sources (`npm run
 * typecheck` compiles those), copied verbatim: a block that no longer matches the code fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const guide = readFileSync(path.join(ROOT, 'docs/migrating-from-restli.md'), 'utf8');
const sources = ['examples/interfaces.ts', 'examples/resources.ts']
  .map((f) => readFileSync(path.join(ROOT, f), 'utf8'))
  .join('\n');
const blocks = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('docs/migrating-from-restli.md', () => {
  it('has TypeScript blocks', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((b, i) => [i + 1, b]))('block %i is code of the example, verbatim', (_i, block) => {
    expect(sources).toContain(block);
  });
});
