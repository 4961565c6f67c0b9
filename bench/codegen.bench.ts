/**
 * Generation time for 500 schemas: 500 records synthesized in memory (in 25 namespaces, each with a nested
 * enum, a typeref, an array of another record, a map, two unions without typeref, references to two other
 * records, an included record every fifth, a fixed every tenth), generated with `generateTemplatesFromSchemas` (already parsed) and with
 * `generateTemplates` (parse + generate, files read from memory). The anchor is parsing the same texts,
 * what any generator must do first; the number to look at is the time per schema.
 */
import * as path from 'node:path';
import {
  SchemaResolver,
  generateTemplates,
  generateTemplatesFromSchemas,
  type DataSchema,
  type SchemaFileSystem,
} from '../src';
import { memoryFileSystem, readTree, SCHEMA_TREE_ROOT } from './fixtures/schema-tree';
import { type BenchFile, keep, type Suite } from './harness';

const COUNT = 500;
const ROOT = path.resolve('/bench-codegen-schemas');

function ns(i: number): string {
  return `bench.gen.ns${i % 25}`;
}

/** The text of schema `i` (a record referring to records i-1 and i-7; every fifth includes an inline record). */
function schemaText(i: number): string {
  const ref = (j: number): string => `${ns(j)}.R${j}`;
  const fields: object[] = [
    { name: 'id', type: 'long', doc: `Id of record ${i}.` },
    { name: 'name', type: 'string' },
    { name: 'score', type: 'double', optional: true },
    { name: 'count', type: 'int', default: 0 },
    { name: 'kind', type: { type: 'enum', name: `K${i}`, symbols: ['A', 'B', 'C'] }, default: 'A' },
    { name: 'when', type: { type: 'typeref', name: `T${i}`, ref: 'long' }, optional: true },
    { name: 'tags', type: { type: 'array', items: 'string' }, default: [] },
    { name: 'attrs', type: { type: 'map', values: 'long' }, optional: true },
    { name: 'choice', type: ['int', 'string', { type: 'array', items: 'boolean' }], optional: true },
    {
      name: 'aliased',
      type: [
        { alias: 'left', type: 'string' },
        { alias: 'right', type: 'string' },
      ],
      optional: true,
    },
  ];
  if (i > 0) fields.push({ name: 'previous', type: ref(i - 1), optional: true });
  if (i >= 7) fields.push({ name: 'related', type: { type: 'array', items: ref(i - 7) }, optional: true });
  if (i % 10 === 0)
    fields.push({ name: 'hash', type: { type: 'fixed', name: `H${i}`, size: 16 }, optional: true });
  const schema: Record<string, unknown> = {
    type: 'record',
    name: `R${i}`,
    namespace: ns(i),
    doc: `Record ${i}.`,
    fields,
  };
  if (i % 5 === 0) {
    schema.include = [
      {
        type: 'record',
        name: `Audit${i}`,
        fields: [
          { name: 'auditTime', type: `T${i}` },
          { name: 'auditActor', type: 'string' },
        ],
      },
    ];
  }
  return JSON.stringify(schema);
}

function memoryFiles(texts: ReadonlyMap<string, string>): SchemaFileSystem {
  return {
    readFile: (p) => {
      const t = texts.get(path.resolve(p));
      if (t === undefined) throw new Error(`ENOENT ${p}`);
      return t;
    },
    isFile: (p) => texts.has(path.resolve(p)),
    isDirectory: (p) => path.resolve(p) === ROOT,
    readDir: () => [],
  };
}

function suites(): Suite[] {
  const texts = new Map<string, string>();
  const names: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const name = `${ns(i)}.R${i}`;
    names.push(name);
    texts.set(path.join(ROOT, ...name.split('.')) + '.pdsc', schemaText(i));
  }
  const fileSystem = memoryFiles(texts);
  const parse = (): DataSchema[] => {
    const r = new SchemaResolver({ resolverPath: [ROOT], fileSystem });
    return names.map((n) => r.resolve(n));
  };
  const parsed = parse();
  const files = generateTemplatesFromSchemas(parsed);
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);

  const started = performance.now();
  let runs = 0;
  while (performance.now() - started < 1000 || runs < 2) {
    generateTemplates({ sources: names, resolverPath: [ROOT], fileSystem });
    runs++;
  }
  const usPerSchema = ((performance.now() - started) * 1000) / runs / COUNT;

  return [
    {
      title: `generate ${COUNT} schemas (records with enums, typerefs, arrays, maps, unions, includes, fixed)`,
      short: `codegen ${COUNT}`,
      facts: [
        { label: 'schemas (named records, plus nested enums, typerefs and fixed)', value: COUNT },
        { label: 'files generated', value: files.length },
        { label: 'bytes of TypeScript generated', value: bytes, unit: 'B' },
        { label: 'parse + generate, per record schema (warm-up loop)', value: usPerSchema, unit: 'µs' },
      ],
      notes: [
        'schema files are read from memory (SchemaFileSystem): the disk is not measured; nothing is written',
      ],
      anchor: {
        name: `parse the ${COUNT} schemas (SchemaResolver.resolve each)`,
        fn: () => keep(parse().length),
      },
      candidates: [
        {
          name: 'generateTemplatesFromSchemas (parsed once before)',
          fn: () => keep(generateTemplatesFromSchemas(parsed).length),
        },
        {
          name: 'generateTemplates (parse + generate)',
          fn: () => keep(generateTemplates({ sources: names, resolverPath: [ROOT], fileSystem }).length),
        },
      ],
    },
  ];
}

/**
 * The test fixture tree (test/fixtures/pegasus, 38 schemas), as test/codegen/generate-api.test.ts generates
 * it (that test counts the files read; the time is here, not asserted there).
 */
function fixtureTreeSuite(): Suite {
  const files = readTree(SCHEMA_TREE_ROOT);
  const fileSystem = memoryFileSystem(files);
  const options = { sources: [SCHEMA_TREE_ROOT], resolverPath: [SCHEMA_TREE_ROOT], fileSystem };
  const generated = generateTemplates(options).length;
  return {
    title: `generate the fixture tree (test/fixtures/pegasus, ${files.size} .pdsc files)`,
    short: `codegen fixture tree`,
    facts: [
      { label: 'schema files', value: files.size },
      { label: 'files generated', value: generated },
    ],
    notes: ['files are read from memory (SchemaFileSystem); the anchor parses the same tree'],
    anchor: {
      name: 'SchemaResolver.parseDirectory',
      fn: () =>
        keep(
          new SchemaResolver({ resolverPath: [SCHEMA_TREE_ROOT], fileSystem }).parseDirectory(
            SCHEMA_TREE_ROOT,
          ).length,
        ),
    },
    candidates: [
      { name: 'generateTemplates (parse + generate)', fn: () => keep(generateTemplates(options).length) },
    ],
  };
}

export const benchmark: BenchFile = {
  title: `Code generation: ${COUNT} schemas, time per schema`,
  suites: () => [...suites(), fixtureTreeSuite()],
};
