/**
 * PDL: parsing the fixture tree written in PDL against the same tree in `.pdsc`, and translating a tree of
 * 500 schemas from `.pdsc` to PDL. Files are read from memory, so the disk is not measured.
 *
 * Goals (informational, as every goal): parsing PDL is at least as fast as parsing `.pdsc` (ratio ≥ 1);
 * translating 500 schemas takes seconds at most (the fact "ms per translation of 500 schemas").
 */
import * as path from 'node:path';
import { SchemaResolver, translateSchemaTree, type SchemaFileSystem } from '../src';
import { readTree, SCHEMA_TREE_ROOT } from './fixtures/schema-tree';
import { type BenchFile, keep, type Suite } from './harness';

/** A SchemaFileSystem over memory, for any tree below `root`. */
function memoryTree(root: string, files: ReadonlyMap<string, string>): SchemaFileSystem {
  const dirs = new Set<string>([root]);
  for (const f of files.keys())
    for (let d = path.dirname(f); d.startsWith(root); d = path.dirname(d)) dirs.add(d);
  return {
    readFile: (p) => {
      const text = files.get(path.resolve(p));
      if (text === undefined) throw new Error(`ENOENT: ${p}`);
      return text;
    },
    isFile: (p) => files.has(path.resolve(p)),
    isDirectory: (p) => dirs.has(path.resolve(p)),
    readDir: (p) => {
      const d = path.resolve(p);
      const names = new Set<string>();
      for (const f of [...files.keys(), ...dirs])
        if (path.dirname(f) === d && f !== d) names.add(path.basename(f));
      return [...names];
    },
  };
}

/** 500 `.pdsc` schemas: records referring to each other, with enums, unions, maps, docs and properties. */
function syntheticTree(root: string, count: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const ns = `bench.pdl.g${i % 10}`;
    const fields: object[] = [
      { name: 'id', type: 'long', doc: `The id of R${i}.` },
      { name: 'name', type: 'string', validate: { strlen: { max: 80 } } },
      { name: 'tags', type: { type: 'array', items: 'string' }, default: [] },
      { name: 'attrs', type: { type: 'map', values: 'string' }, optional: true },
      {
        name: 'kind',
        type: { type: 'enum', name: `K${i}`, symbols: ['A', 'B', 'C'], symbolDocs: { A: 'a' } },
      },
      {
        name: 'when',
        type: [
          { alias: 'at', type: 'long' },
          { alias: 'text', type: 'string' },
        ],
        optional: true,
      },
    ];
    if (i > 0) fields.push({ name: 'prev', type: `bench.pdl.g${(i - 1) % 10}.R${i - 1}`, optional: true });
    const schema = { type: 'record', name: `R${i}`, namespace: ns, doc: `Record ${i}.`, fields };
    files.set(path.join(root, ...ns.split('.'), `R${i}.pdsc`), JSON.stringify(schema, null, 2));
  }
  return files;
}

function parseTree(root: string, fileSystem: SchemaFileSystem): number {
  return new SchemaResolver({ resolverPath: [root], fileSystem }).parseDirectory(root).length;
}

function suites(): Suite[] {
  // Both trees sit in memory under short roots of about the same length (the .pdsc tree is not left at its
  // longer real path), so that the path work of the resolver and of the memory file system costs the same.
  const pdscRoot = path.resolve('/bench-pdsc-tree');
  const pdscFiles = new Map(
    [...readTree(SCHEMA_TREE_ROOT)].map(([f, text]) => [
      path.join(pdscRoot, path.relative(SCHEMA_TREE_ROOT, f)),
      text,
    ]),
  );
  const pdscFs = memoryTree(pdscRoot, pdscFiles);
  const pdlRoot = path.resolve('/bench-pdl-tree');
  const pdlFiles = new Map(
    translateSchemaTree(
      new SchemaResolver({ resolverPath: [pdscRoot], fileSystem: pdscFs }),
      pdscRoot,
      'pdl',
    ).map((f) => [path.join(pdlRoot, f.target), f.text]),
  );
  const pdlFs = memoryTree(pdlRoot, pdlFiles);
  if (parseTree(pdlRoot, pdlFs) !== parseTree(pdscRoot, pdscFs))
    throw new Error('pdl bench: the trees differ');

  const bigRoot = path.resolve('/bench-pdl-500');
  const big = syntheticTree(bigRoot, 500);
  const bigFs = memoryTree(bigRoot, big);
  const translate = (): number =>
    translateSchemaTree(new SchemaResolver({ resolverPath: [bigRoot], fileSystem: bigFs }), bigRoot, 'pdl')
      .length;
  const t0 = performance.now();
  const translated = translate();
  const oneTranslationMs = performance.now() - t0;
  const bytes = (m: ReadonlyMap<string, string>): number =>
    [...m.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);

  return [
    {
      title: `parse the fixture tree (${pdscFiles.size} files) in PDL vs the same tree in .pdsc`,
      short: 'parse tree: pdl vs pdsc',
      facts: [
        { label: 'files', value: pdscFiles.size },
        { label: 'bytes of .pdsc text', value: bytes(pdscFiles), unit: 'B' },
        { label: 'bytes of PDL text', value: bytes(pdlFiles), unit: 'B' },
      ],
      notes: [
        'the PDL tree is the .pdsc tree translated by translateSchemaTree; both parse to equal schemas',
      ],
      anchor: { name: 'parse .pdsc tree', fn: () => keep(parseTree(pdscRoot, pdscFs)) },
      candidates: [{ name: 'parse PDL tree', fn: () => keep(parseTree(pdlRoot, pdlFs)) }],
      goals: [{ task: 'parse PDL tree', min: 1 }],
    },
    {
      title: `translate ${big.size} .pdsc schemas to PDL (parse + write), vs parsing them only`,
      short: 'translate 500 schemas',
      facts: [
        { label: 'schemas translated', value: translated },
        { label: 'ms per translation of 500 schemas (first, cold run)', value: oneTranslationMs, unit: 'ms' },
      ],
      notes: [
        'goal: a translation of 500 schemas completes in seconds (see the fact above and the task mean)',
      ],
      anchor: { name: 'parse 500 .pdsc schemas', fn: () => keep(parseTree(bigRoot, bigFs)) },
      candidates: [{ name: 'translate 500 schemas to PDL', fn: () => keep(translate()) }],
      goals: [{ task: 'translate 500 schemas to PDL', min: 0.1 }],
    },
  ];
}

export const benchmark: BenchFile = {
  title: 'PDL: parsing speed against .pdsc, and translating a tree',
  suites,
};
