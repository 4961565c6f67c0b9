/**
 * Generates the data templates of the repository's schema trees: data templates only (no interface
 * descriptions or client code), before type-checking and tests (`npm run check`, and jest's globalSetup).
 *
 *   npm run generate          the shared fixture tree and the binding-test tree into test/generated/<tree>/,
 *                             and every examples/src/<sourceset>/pegasus/ into examples/src/<sourceset>/generated/
 *   npm run generate:golden   the two test trees into test/golden/<tree>/ (committed; test/codegen/golden.test.ts
 *                             fails when a fresh generation differs, so every generator change is a reviewable diff)
 *
 * Generated folders are git-ignored and owned by the generator: stale files in them are removed. Only files
 * whose text changed are written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateTemplates, writeGeneratedFiles, type GeneratedFile } from '../src/codegen';
import { generateFromIdl } from '../src/idl/import';
import { writeErrorTable } from './error-table';

const ROOT = path.join(__dirname, '..');

/** A schema tree of the repository and the options it is generated with. */
export interface SchemaTree {
  readonly name: string;
  /** Directories of schemas, relative to the repository root. */
  readonly sources: readonly string[];
  readonly resolverPath: readonly string[];
}

/** The test trees (generated into test/generated/<name> and test/golden/<name>). */
export const TEST_TREES: readonly SchemaTree[] = [
  { name: 'fixtures', sources: ['test/fixtures/pegasus'], resolverPath: ['test/fixtures/pegasus'] },
  { name: 'binding', sources: ['test/templates/pegasus'], resolverPath: ['test/templates/pegasus'] },
];

/** The files of a tree, as generated with the default options (runtime module `svc-framework`). */
export function generateTree(tree: SchemaTree): GeneratedFile[] {
  const abs = (p: string): string => path.join(ROOT, p);
  return generateTemplates({ sources: tree.sources.map(abs), resolverPath: tree.resolverPath.map(abs) });
}

/**
 * The framework's own records (the queue's `Job`, ...): generated into `src/` and committed, since the
 * package is built from them; `test/codegen/framework-records.test.ts` fails when they are stale. They
 * import the runtime from a module of their folder, not from the package index (which exports them).
 */
export const FRAMEWORK_TREES: readonly {
  readonly source: string;
  readonly out: string;
  readonly runtimeModule: string;
}[] = [{ source: 'src/queue/pegasus', out: 'src/queue/generated', runtimeModule: '../template-runtime' }];

/** The files of a framework tree, as committed. */
export function generateFrameworkTree(tree: (typeof FRAMEWORK_TREES)[number]): GeneratedFile[] {
  const source = path.join(ROOT, tree.source);
  return generateTemplates({
    sources: [source],
    resolverPath: [source],
    runtimeModule: tree.runtimeModule,
    sourceRoots: [source],
  });
}

/**
 * IDL imports the tests use (test/generated/<name>/): the typed interface modules and templates of the
 * example's exported snapshots, of Rest.li's own snapshots (test/idl/fixtures/rest.li/), and of the
 * hand-written restspecs of test/idl/fixtures/import/ (their schemas on a resolver path). Type-checking the
 * repository (`npm run typecheck`, strict) compiles them and the tests that call through them.
 */
export const IDL_TREES: readonly {
  readonly name: string;
  readonly sources: readonly string[];
  readonly resolverPath: readonly string[];
}[] = [
  { name: 'idl-example', sources: ['examples/idl/snapshot'], resolverPath: [] },
  {
    name: 'idl-restli',
    sources: [
      'com.linkedin.restli.example.photos.photos.snapshot.json',
      'com.linkedin.restli.example.photos.albumEntry.snapshot.json',
      'com.linkedin.restli.examples.greetings.client.complexKeys.snapshot.json',
      'com.linkedin.restli.examples.greetings.client.actions.snapshot.json',
    ].map((f) => `test/idl/fixtures/rest.li/${f}`),
    resolverPath: [],
  },
  {
    name: 'idl-shop',
    sources: ['test/idl/fixtures/import/idl'],
    resolverPath: ['test/idl/fixtures/import/pegasus'],
  },
];

/** The files of an IDL import tree. */
export function generateIdlTree(tree: (typeof IDL_TREES)[number]): GeneratedFile[] {
  const abs = (p: string): string => path.join(ROOT, p);
  return generateFromIdl({
    sources: tree.sources.map(abs),
    resolverPath: tree.resolverPath.map(abs),
    sourceRoots: [ROOT],
  }).files;
}

/** The `src/<sourceset>/pegasus` directories of the examples project. */
function exampleSourceSets(): string[] {
  const src = path.join(ROOT, 'examples/src');
  if (!fs.existsSync(src)) return [];
  return fs
    .readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(src, e.name, 'pegasus')))
    .map((e) => path.join(src, e.name))
    .sort();
}

function hasSchemas(dir: string): boolean {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .some((e) => (e.isDirectory() ? hasSchemas(path.join(dir, e.name)) : /\.(pdsc|pdl)$/.test(e.name)));
}

/** Generates every tree; returns one line per tree for the log. */
export function generateAll(options: { readonly golden?: boolean } = {}): string[] {
  const log: string[] = [];
  const outRoot = path.join(ROOT, options.golden === true ? 'test/golden' : 'test/generated');
  for (const tree of TEST_TREES) {
    const started = performance.now();
    const files = generateTree(tree);
    const r = writeGeneratedFiles(path.join(outRoot, tree.name), files, { clean: true });
    const ms = (performance.now() - started).toFixed(0);
    log.push(
      `${path.relative(ROOT, outRoot)}/${tree.name}: ${files.length} files (${r.written} written, ${r.removed} removed) in ${ms} ms`,
    );
  }
  if (options.golden !== true) {
    if (writeErrorTable()) log.push('src/errors/error-table.ts: written (the registry changed)');
    for (const tree of FRAMEWORK_TREES) {
      const files = generateFrameworkTree(tree);
      const r = writeGeneratedFiles(path.join(ROOT, tree.out), files, { clean: true });
      log.push(`${tree.out}: ${files.length} files (${r.written} written, ${r.removed} removed)`);
    }
    for (const tree of IDL_TREES) {
      const files = generateIdlTree(tree);
      const r = writeGeneratedFiles(path.join(outRoot, tree.name), files, { clean: true });
      log.push(
        `${path.relative(ROOT, outRoot)}/${tree.name}: ${files.length} files (${r.written} written, ${r.removed} removed)`,
      );
    }
    for (const set of exampleSourceSets()) {
      const pegasus = path.join(set, 'pegasus');
      const out = path.join(set, 'generated');
      const files = hasSchemas(pegasus)
        ? generateTemplates({ sources: [pegasus], resolverPath: [pegasus] })
        : [];
      const r = writeGeneratedFiles(out, files, { clean: true });
      log.push(
        `${path.relative(ROOT, out)}: ${files.length} files (${r.written} written, ${r.removed} removed)`,
      );
    }
  }
  return log;
}

if (require.main === module) {
  for (const line of generateAll({ golden: process.argv.includes('--golden') }))
    process.stdout.write(`${line}\n`);
}
