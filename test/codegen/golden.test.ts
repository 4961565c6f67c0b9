/**
 * The generated code of the test trees is committed under test/golden/<tree>/. A fresh generation must
 * equal it byte for byte, so every generator change shows up as a reviewable diff: after changing the
 * generator, run `npm run generate:golden` and review `git diff test/golden`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_TREES, generateTree } from '../../scripts/generate';

const GOLDEN = path.join(__dirname, '../golden');

function readTree(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) for (const [k, v] of readTree(path.join(dir, entry.name), rel)) out.set(k, v);
    else out.set(rel, fs.readFileSync(path.join(dir, entry.name), 'utf8'));
  }
  return out;
}

describe.each(TEST_TREES.map((t) => [t.name, t] as const))('the golden tree %s', (name, tree) => {
  const fresh = new Map(generateTree(tree).map((f) => [f.path, f.text]));
  const golden = readTree(path.join(GOLDEN, name));
  const hint = 'run `npm run generate:golden` and review the diff of test/golden';

  it('has the files a fresh generation has', () => {
    expect({ missing: [...fresh.keys()].filter((p) => !golden.has(p)), hint }).toEqual({ missing: [], hint });
    expect({ stale: [...golden.keys()].filter((p) => !fresh.has(p)), hint }).toEqual({ stale: [], hint });
  });

  it('equals a fresh generation byte for byte', () => {
    const changed = [...fresh].filter(([p, text]) => golden.has(p) && golden.get(p) !== text).map(([p]) => p);
    expect({ changed, hint }).toEqual({ changed: [], hint });
  });
});
