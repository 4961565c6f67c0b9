/**
 * A fresh generation of the test trees compiles under `tsc --strict` (the repository's settings, with
 * noUncheckedIndexedAccess) with zero errors, together with the compile-fail file
 * test/templates/type-errors.test.ts (whose `@ts-expect-error` lines must each see an error); and
 * generated code contains no `any`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_TREES, generateTree } from '../../scripts/generate';
import { writeGeneratedFiles } from '../../src';

const ROOT = path.join(__dirname, '../..');
// test/generated/fresh-<tree>: the same depth below test/ as test/golden/<tree>, so that relative custom
// binding modules (test/templates/pegasus UrnRef) resolve the same way
const OUT = path.join(ROOT, 'test/generated');

describe('a fresh generation', () => {
  const trees = TEST_TREES.map((t) => ({ name: t.name, files: generateTree(t) }));

  it('compiles with zero errors under the strict settings', () => {
    for (const t of trees) writeGeneratedFiles(path.join(OUT, `fresh-${t.name}`), t.files, { clean: true });
    const config = path.join(OUT, 'tsconfig.fresh.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noEmit: true, incremental: false },
        include: [...trees.map((t) => `fresh-${t.name}`), '../templates/type-errors.test.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', config],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect({ status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual({ status: 0, output: '' });
  }, 180_000);

  it('has no any', () => {
    for (const t of trees) {
      for (const f of t.files) {
        const code = f.text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
        expect({ file: f.path, any: /\bany\b/.test(code.replace(/'(?:[^'\\]|\\.)*'/g, "''")) }).toEqual({
          file: f.path,
          any: false,
        });
      }
    }
  });
});
