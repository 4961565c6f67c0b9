/**
 * Parsing the whole fixture tree (test/fixtures/pegasus) with a fresh SchemaResolver each time, from an
 * in-memory copy of the files (so the disk is not measured), against `JSON.parse` of the same texts (the
 * least any parser must do) and avsc's `Type.forSchema` over Avro versions of the same schemas, for scale.
 *
 * No goal: parsing happens once per schema and process. The number to look at is the time per schema.
 *
 * Hostile texts (the timing test/schema/schema-fuzz.test.ts leaves out): valid schemas cut or spliced at a
 * fixed spot against the same schemas whole, and texts nested just past MAX_NESTING_DEPTH against the same
 * nesting just within it. Goal (informational): a refusal costs no more than 4× a parse of the same text.
 */
import avro from 'avsc';
import fc from 'fast-check';
import { MAX_NESTING_DEPTH, parseSchema, SchemaParseError, SchemaResolver } from '../src';
import { schemaText } from '../test/schema/schema-arbitraries';
import { memoryFileSystem, readTree, SCHEMA_TREE_ROOT } from './fixtures/schema-tree';
import { type BenchFile, keep, type Suite } from './harness';

const ROOT = SCHEMA_TREE_ROOT;

/** Avro schemas of about the same size and nesting as the fixture tree, for avsc. */
function avroSchemas(count: number): object[] {
  const out: object[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      type: 'record',
      name: `bench.avro.R${i}`,
      fields: [
        { name: 'id', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'tags', type: { type: 'array', items: 'string' } },
        { name: 'attrs', type: { type: 'map', values: 'string' } },
        { name: 'kind', type: { type: 'enum', name: `bench.avro.K${i}`, symbols: ['A', 'B', 'C'] } },
        { name: 'when', type: ['null', 'long'], default: null },
        {
          name: 'inner',
          type: { type: 'record', name: `bench.avro.I${i}`, fields: [{ name: 'x', type: 'double' }] },
        },
      ],
    });
  }
  return out;
}

function suites(): Suite[] {
  const files = readTree(ROOT);
  const texts = [...files.values()];
  const fileSystem = memoryFileSystem(files);
  const parseTree = (): number =>
    new SchemaResolver({ resolverPath: [ROOT], fileSystem }).parseDirectory(ROOT).length;
  const schemaCount = parseTree();
  if (schemaCount !== files.size)
    throw new Error(`schema-parse bench: ${schemaCount} schemas from ${files.size} files`);
  const named = new SchemaResolver({ resolverPath: [ROOT], fileSystem });
  named.parseDirectory(ROOT);
  const names = [...named.bindings().keys()];
  const avroDefs = avroSchemas(files.size);

  // a rough per-schema time for the facts (the timed tasks below are the measurement)
  const t0 = performance.now();
  let runs = 0;
  while (performance.now() - t0 < 300) {
    parseTree();
    runs++;
  }
  const perSchemaNs = ((performance.now() - t0) * 1e6) / runs / schemaCount;

  return [
    {
      title: `parse the fixture tree (${files.size} .pdsc files) with a fresh SchemaResolver`,
      short: 'parse fixture tree',
      facts: [
        { label: 'files (one top-level schema each)', value: files.size },
        { label: 'named schemas bound', value: names.length },
        {
          label: 'bytes of schema text',
          value: texts.reduce((n, t) => n + Buffer.byteLength(t), 0),
          unit: 'B',
        },
        { label: 'rough time per schema (warm-up loop)', value: perSchemaNs, unit: 'ns' },
      ],
      notes: [
        'files are read from memory (SchemaFileSystem), so the disk is not measured',
        `per schema = the mean of a task / ${files.size}`,
        'avsc forSchema parses the same number of Avro records of about the same size (for scale, not the same schemas)',
      ],
      anchor: {
        name: 'JSON.parse of every file',
        fn: () => {
          let n = 0;
          for (const t of texts) n += Object.keys(JSON.parse(t) as object).length;
          keep(n);
        },
      },
      candidates: [
        { name: 'SchemaResolver.parseDirectory', fn: () => keep(parseTree()) },
        {
          name: 'SchemaResolver.resolve each name',
          fn: () => {
            const r = new SchemaResolver({ resolverPath: [ROOT], fileSystem });
            for (const name of names) keep(r.resolve(name).getFullName().length);
          },
        },
        {
          name: 'avsc Type.forSchema (Avro twins)',
          fn: () => {
            for (const def of avroDefs) keep(avro.Type.forSchema(def as avro.Schema).typeName.length);
          },
        },
      ],
    },
  ];
}

/** Parses `text`; a SchemaParseError counts as a refusal, anything else crashes the bench. */
function parseOrRefuse(text: string): number {
  try {
    return parseSchema(text).getType().length;
  } catch (err) {
    if (!(err instanceof SchemaParseError)) throw err;
    return -err.problems.length;
  }
}

function hostileSuites(): Suite[] {
  const COUNT = 200;
  const valid = fc.sample(schemaText, { seed: 22, numRuns: COUNT });
  // each text cut at a spot that depends on its index, and a slice of it spliced in after the cut
  const broken = valid.map((t, i) => {
    const at = (i * 7919) % t.length;
    return t.slice(0, at) + t.slice(at / 2, at) + (i % 2 === 0 ? '' : t.slice(at));
  });
  const refused = broken.filter((t) => parseOrRefuse(t) < 0).length;
  const nested = (levels: number): string[] =>
    ['[', '{"type":', '{"type":"array","items":', '{"a":'].map((open) => {
      const closer = open.startsWith('[') ? ']' : '}';
      return open.repeat(levels) + '"int"' + closer.repeat(levels);
    });
  const within = nested(MAX_NESTING_DEPTH - 1);
  const past = nested(MAX_NESTING_DEPTH + 1);
  const each = (texts: readonly string[]) => (): void => {
    for (const t of texts) keep(parseOrRefuse(t));
  };
  return [
    {
      title: `hostile texts: ${COUNT} valid schemas (fast-check, seed 22) cut and spliced, vs the same whole`,
      short: 'parse hostile: mutated',
      facts: [
        { label: 'texts', value: COUNT },
        { label: 'refused after the change', value: refused },
      ],
      anchor: { name: 'parseSchema, the valid texts', fn: each(valid) },
      candidates: [{ name: 'parseSchema, the changed texts', fn: each(broken) }],
      goals: [{ task: 'parseSchema, the changed texts', min: 1 / 4 }],
    },
    {
      title: `hostile texts: 4 shapes nested ${MAX_NESTING_DEPTH + 1} deep (refused) vs ${MAX_NESTING_DEPTH - 1} deep`,
      short: 'parse hostile: nested',
      anchor: { name: `nested ${MAX_NESTING_DEPTH - 1} deep`, fn: each(within) },
      candidates: [{ name: `nested ${MAX_NESTING_DEPTH + 1} deep`, fn: each(past) }],
      goals: [{ task: `nested ${MAX_NESTING_DEPTH + 1} deep`, min: 1 / 4 }],
    },
  ];
}

export const benchmark: BenchFile = {
  title: 'Schema parsing: the whole fixture tree per run, time per schema',
  suites: () => [...suites(), ...hostileSuites()],
};
