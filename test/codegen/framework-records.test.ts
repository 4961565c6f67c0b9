import * as fs from 'node:fs';
import * as path from 'node:path';
import { FRAMEWORK_TREES, generateFrameworkTree } from '../../scripts/generate';

const ROOT = path.join(__dirname, '../..');

describe('the framework records committed in src/', () => {
  it.each(FRAMEWORK_TREES.map((t) => [t.out, t] as const))(
    '%s is what the generator writes',
    (_out, tree) => {
      const files = generateFrameworkTree(tree);
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        const committed = fs.readFileSync(path.join(ROOT, tree.out, f.path), 'utf8');
        expect({ path: f.path, text: committed }).toEqual({ path: f.path, text: f.text });
      }
      const listed = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) =>
            e.isDirectory() ? listed(path.join(dir, e.name)).map((p) => `${e.name}/${p}`) : [e.name],
          );
      expect(listed(path.join(ROOT, tree.out)).sort()).toEqual(files.map((f) => f.path).sort());
    },
  );
});
