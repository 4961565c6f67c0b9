import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { SchemaResolver } from '../../../src/schema/schema-resolver';
import { schemaToJson } from '../../../src/schema/schema-to-json';
import { translateSchemaTree, type SchemaSyntax } from '../../../src/schema/pdl/schema-tree-translation';

const TREES = ['test/fixtures/pegasus', 'examples/src/main/pegasus'];

/** Canonical JSON by name; `error` reads as `record`, as PDL has no `error` keyword (see pdl-writer.ts). */
function canonical(resolver: SchemaResolver): Map<string, string> {
  return new Map(
    [...resolver.bindings()].map(([name, s]) => [
      name,
      schemaToJson(s, { namedByReference: true }).replace(/^\{"type":"error"/, '{"type":"record"'),
    ]),
  );
}

function writeTree(files: readonly { target: string; text: string }[]): string {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'svc-pdl-'));
  for (const f of files) {
    const p = nodePath.join(dir, f.target);
    fs.mkdirSync(nodePath.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.text);
  }
  return dir;
}

function translate(dir: string, syntax: SchemaSyntax): { dir: string; resolver: SchemaResolver } {
  const resolver = new SchemaResolver({ resolverPath: [dir] });
  return { dir: writeTree(translateSchemaTree(resolver, dir, syntax)), resolver };
}

describe('PDL translation of schema trees', () => {
  it.each(TREES)('keeps every schema of %s equal through .pdsc -> .pdl -> .pdsc', (tree) => {
    const first = translate(tree, 'pdl');
    const original = canonical(first.resolver);
    const back = translate(first.dir, 'pdsc');
    expect(canonical(back.resolver)).toEqual(original);
    const again = new SchemaResolver({ resolverPath: [back.dir] });
    again.parseDirectory(back.dir);
    expect(canonical(again)).toEqual(original);
    for (const d of [first.dir, back.dir]) fs.rmSync(d, { recursive: true, force: true });
  });

  it.each(TREES)('writes the PDL of %s the same way twice (.pdl -> .pdl)', (tree) => {
    const first = translate(tree, 'pdl');
    const pdlFiles = translateSchemaTree(new SchemaResolver({ resolverPath: [first.dir] }), first.dir, 'pdl');
    const firstFiles = translateSchemaTree(new SchemaResolver({ resolverPath: [tree] }), tree, 'pdl');
    expect(pdlFiles.map((f) => [f.target, f.text])).toEqual(firstFiles.map((f) => [f.target, f.text]));
    fs.rmSync(first.dir, { recursive: true, force: true });
  });

  it('keeps union properties through .pdl -> .pdl, and refuses to lose them in .pdsc', () => {
    const dir = writeTree([
      { target: 'a/R.pdl', text: 'namespace a\nrecord R { u: map[string, @p = 1 union[int, S]] }\n' },
      { target: 'a/S.pdl', text: 'namespace a\nrecord S {}\n' },
    ]);
    const { dir: again, resolver } = translate(dir, 'pdl');
    const back = new SchemaResolver({ resolverPath: [again] });
    back.parseDirectory(again);
    expect(canonical(back)).toEqual(canonical(resolver));
    expect(back.resolve('a.R').equals(resolver.resolve('a.R'))).toBe(true);
    expect(() => translate(dir, 'pdsc')).toThrow(
      /R\.pdl: the values of the type of field u of a\.R is a union with properties, which a \.pdsc file cannot hold/,
    );
    for (const d of [dir, again]) fs.rmSync(d, { recursive: true, force: true });
  });
});
