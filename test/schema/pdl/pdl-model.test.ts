/**
 * The PDL model builder (pdl-model.ts) against the `.pdsc` parser's generic step, which it replaces for plain
 * texts: on every text, both must give the same schemas (every attribute of the model, locations and
 * inline-ness included), the same problems and the same warnings, in the same order.
 */
import * as nodePath from 'node:path';
import fc from 'fast-check';
import { DataList, DataMap } from '../../../src/data';
import { translateSchemaTree } from '../../../src/schema/pdl/schema-tree-translation';
import { parsePdlSource } from '../../../src/schema/pdl/pdl-parser';
import { STATE } from '../../../src/schema/internal';
import type { NamedDataSchema } from '../../../src/schema/named-schema';
import { ParseSession, type ParseHost } from '../../../src/schema/schema-parser';
import { SchemaResolver } from '../../../src/schema/schema-resolver';
import { fuzzRuns } from '../../data/fuzz-runs';

const RUNS = fuzzRuns(300);

/** Everything a parse of `files[main]` gives, read through the builder or through the generic step. */
function parseAll(
  files: ReadonlyMap<string, string>,
  main: string,
  generic: boolean,
  strict = false,
): unknown {
  const bindings = new Map<string, NamedDataSchema>();
  const host: ParseHost = {
    lookup: (name) => bindings.get(name),
    bind: (name, schema, session) => {
      bindings.set(name, schema);
      session.boundNames.push(name);
    },
    load: (name, session) => {
      const file = `${name.split('.').join('/')}.pdl`;
      const text = files.get(file);
      if (text === undefined || session.files.includes(file)) return undefined;
      session.files.push(file);
      parsePdlSource(session, text, file, generic);
      return bindings.get(name);
    },
    describeSearch: () => '',
  };
  const session = new ParseSession(host, { strict });
  session.files.push(main);
  const tops = parsePdlSource(session, files.get(main)!, main, generic);
  session.resolveReferences();
  session.finalize();
  const seen = new Map<object, number>();
  return {
    problems: session.problems(),
    warnings: session.warnings(),
    tops: tops.map((s) => dump(s, seen)),
    bindings: [...bindings].map(([name, s]) => [name, dump(s, seen)]),
  };
}

/** The whole state of a model object, schemas met again written as references. */
function dump(value: unknown, seen: Map<object, number>): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint'
      ? `${value}n`
      : typeof value === 'number' && Number.isNaN(value)
        ? 'NaN'
        : value;
  }
  if (value instanceof DataMap) return { map: [...value.entries()].map(([k, v]) => [k, dump(v, seen)]) };
  if (value instanceof DataList) return { list: [...value].map((v) => dump(v, seen)) };
  if (value instanceof Map) return { Map: [...value].map(([k, v]) => [dump(k, seen), dump(v, seen)]) };
  if (value instanceof Set) return { Set: [...value].map((v) => dump(v, seen)) };
  if (Array.isArray(value)) return value.map((v) => dump(v, seen));
  const known = seen.get(value);
  if (known !== undefined) return { ref: known };
  seen.set(value, seen.size);
  const state = (value as { [STATE]?: Record<string, unknown> })[STATE];
  const fields = state ?? (value as Record<string, unknown>);
  return {
    class: value.constructor.name,
    ...Object.fromEntries(
      Object.keys(fields)
        .filter((k) => k !== 'keyIndex' && k !== 'fieldIndex' && k !== 'symbolIndex')
        .map((k) => [k, dump(fields[k], seen)]),
    ),
  };
}

function sameBothWays(files: ReadonlyMap<string, string>, main: string): void {
  for (const strict of [false, true]) {
    const generic = parseAll(files, main, true, strict);
    expect(parseAll(files, main, false, strict)).toEqual(generic);
  }
}

const one = (text: string): Map<string, string> => new Map([['T.pdl', text]]);

const SEEDS = [
  'namespace a.b\nimport c.D\n/** doc */\n@p.q = 1\nrecord R includes D { f: optional int = 1, g: union[x: int, y: string] }',
  'enum E { /** a */ A, @deprecated B, @x.y = [1, {"a": null}] C }',
  '{ namespace n package p typeref T = map[string, array[fixed F 4]] }',
  'record R { f: record S { g: enum E { X } } = {"g": "X"} }',
  'namespace n\n@aliases = ["A", "x.B", 1, "-"]\n@deprecated = 3\nrecord R { @aliases = ["a", 2] @order = "up" @deprecated = "no" f: int, g: long = "x" }',
  'record R { e: enum E { A, A, `b-c`, /** d */ `d-e` @deprecated = 1 F @deprecated = "x" G } }',
  'record `a-b` { f: { namespace `x-y` package `p-q` record S {} } `g-h`: int }',
  'fixed F -1',
  'fixed F 1.5',
  'fixed F 99999999999999999999',
  '@java = 1\ntyperef T = int',
  '@java.class = 2\n@java.coercerClass = "c"\ntyperef T = record R { t: T }',
  'record R { u: union[`a-b`: int, fieldDiscriminator: string, c: null, null, int, int] }',
  'record R { u: union[int, a: string] v: union[null, null] w: union[union[int]] }',
  'record R { f: int, f: long } includes S',
  'record R { a: record S {} } includes R',
  'namespace n\nrecord R { f: Later, g: record Later {} }',
  'record int {}',
  'namespace n\nrecord R { f: array[@p = 1 @q.r = [1] map[string, @s int]] }',
  'record R { @p.q = 1 @p.r = 2 f: union[/** d */ @x = {"a": [1]} a: int, @y b: string] }',
  'record R { f: union[a: @p = 1 record S {} b: array[int]] }',
  'record R { m: map[int, record K {}] }',
  '@doc = 1\nrecord R {}',
  '/** d */\n@doc = "e"\nrecord R {}',
  'record R { @doc = "x" f: int }',
  '@symbolDocs = { "A": 1, "Z": "z" }\n@deprecatedSymbols = { "B": 2 }\nenum E { A, B }',
  '@symbolDocs = 1\nenum E { /** a */ A }',
  '@items = 1\n@values.x = 2\n@symbolDocs = {}\nrecord R {}',
  'record R { f: @name = "n" @alias = "a" array[int] }',
  'record R { u: union[@alias = "x" record S {}] }',
  'record R { e: enum E {\n  /** a */ X\n  /** b */ X } }',
  'record R { @deprecated.why = "x" f: int }',
  'record R { d: double = 1e400, l: long = 9223372036854775808, i: int = 2147483648, f: float = "NaN" }',
  'record R { a: array[int] = {"x": 1}, b: bytes = "\\u0100", e: enum E { A } = "B", u: union[int] = 1 }',
  'namespace n\nimport n.X\nimport a.Y\nimport b.Y\nrecord R { y: Y }',
  'typeref T = T',
  'record R { u: @b.c = [2] @a = 1 union[int, string], v: array[@z union[null, int]] }',
  '@a = 1\n@a = 2\n@b\nunion[int, string]',
  'typeref T = @p = {"x": 1} union[a: int, b: @q union[int]]',
  'typeref A = union[int, B]\ntyperef B = A',
];

describe('PDL model builder against the generic step', () => {
  it.each(SEEDS)('builds %s the same', (text) => sameBothWays(one(text), 'T.pdl'));

  const trees = ['test/fixtures/pegasus', 'examples/src/main/pegasus'].map(
    (tree) =>
      new Map(
        translateSchemaTree(new SchemaResolver({ resolverPath: [tree] }), tree, 'pdl').map((f) => [
          f.target.split(nodePath.sep).join('/'),
          f.text,
        ]),
      ),
  );

  it('builds the fixture tree and the example tree the same, file by file with its references', () => {
    for (const files of trees) {
      expect(files.size).toBeGreaterThan(5);
      for (const main of files.keys()) sameBothWays(files, main);
    }
  });

  it('builds mutations of the tree files the same', () => {
    const all = trees.flatMap((files) => [...files.keys()].map((main) => ({ files, main })));
    fc.assert(
      fc.property(
        fc.constantFrom(...all),
        fc.nat(),
        fc.nat({ max: 8 }),
        fc.string({ maxLength: 4 }),
        ({ files, main }, at, cut, insert) => {
          const text = files.get(main)!;
          const i = at % (text.length + 1);
          const mutated = new Map(files).set(main, text.slice(0, i) + insert + text.slice(i + cut));
          sameBothWays(mutated, main);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('builds mutations of the seeds the same', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEEDS),
        fc.nat(),
        fc.nat({ max: 8 }),
        fc.string({ maxLength: 4 }),
        (text, at, cut, insert) => {
          const i = at % (text.length + 1);
          sameBothWays(one(text.slice(0, i) + insert + text.slice(i + cut)), 'T.pdl');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('builds PDL-shaped token soup the same', () => {
    const tokens = [
      'record',
      'enum',
      'fixed',
      'typeref',
      'union',
      'array',
      'map',
      'includes',
      'optional',
      'namespace',
      'package',
      '{',
      '}',
      '[',
      ']',
      ':',
      '=',
      '@',
      '.',
      'null',
      'int',
      'string',
      'A',
      'B',
      'x',
      'a.B',
      '1',
      '"s"',
      '/** d */',
      '@deprecated',
      '@aliases = ["q"]',
      '@order = "x"',
      '@p.q',
      '@java.class = "c"',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 40 }), (t) =>
        sameBothWays(one(t.join(' ')), 'T.pdl'),
      ),
      { numRuns: RUNS },
    );
  });
});
