/**
 * The example client can be handed to another team without the server: the modules `examples/client.ts`
 * imports, followed transitively (type-only imports included), reach the interfaces and the generated
 * classes, never the resources' handlers, the store, the images, the app or the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXAMPLES = path.resolve(__dirname, '../../examples');

/** The example modules a module reaches through relative imports (packages, the framework included, left out). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), fileName);
      const resolved = [`${base}.ts`, path.join(base, 'index.ts'), base].find(
        (f) => existsSync(f) && f.endsWith('.ts'),
      );
      if (resolved === undefined) throw new Error(`${file}: cannot resolve '${fileName}'`);
      pending.push(resolved);
    }
  }
  return seen;
}

const fromClient = [...reachable(path.join(EXAMPLES, 'client.ts'))].map((f) => path.relative(EXAMPLES, f));

describe('the example client', () => {
  it.each(['resources.ts', 'store.ts', 'images.ts', 'app.ts', 'server.ts'])('does not reach %s', (file) => {
    expect(fromClient).not.toContain(file);
  });

  it('reaches the interfaces and the generated classes only', () => {
    expect(fromClient).toContain('interfaces.ts');
    const others = fromClient.filter(
      (f) => f !== 'client.ts' && f !== 'interfaces.ts' && !f.startsWith('src/main/generated/'),
    );
    expect(others).toEqual([]);
  });

  it("sees the store from the server's modules (the walk itself works)", () => {
    // the server's modules do reach the store: the walk would see it
    expect([...reachable(path.join(EXAMPLES, 'app.ts'))].map((f) => path.relative(EXAMPLES, f))).toEqual(
      expect.arrayContaining(['resources.ts', 'store.ts', 'interfaces.ts']),
    );
  });
});
