/**
 * The canonical-text reader (what the template registry reads generated classes' schemas with) builds the
 * model the `.pdsc` parser builds from the same texts: every field of every schema, field and member state,
 * locations, defaults in stored form, properties, includes. Compared over every schema tree the repository
 * generates classes from, each named schema's text as codegen embeds it.
 */
import * as path from 'node:path';
import fc from 'fast-check';
// the modules, not the package root, which would load the whole framework for this one file
import type { NamedDataSchema } from '../../src/schema/named-schema';
import type { RecordDataSchema } from '../../src/schema/record-schema';
import { SchemaResolver } from '../../src/schema/schema-resolver';
import { schemaToJson } from '../../src/schema/schema-to-json';
import { SchemaRegistry } from '../../src/templates/schema-registry';
import { plainCanonicalScanner, setCanonicalTextScanner } from '../../src/schema/canonical-schema-reader';
import { installSchemaLocations } from '../../src/schema/schema-locations';
import { schemaText } from './schema-arbitraries';
import { ParseSession, parseSource } from '../../src/schema/schema-parser';
import { SchemaParseError } from '../../src/schema/schema-parse-error';

const ROOT = path.join(__dirname, '../..');

/** The registry as it was before the reader: the parser's sessions over the registered texts. */
class ParserRegistry {
  readonly texts = new Map<string, string>();
  readonly bindings = new Map<string, NamedDataSchema>();
  readonly #read = new Set<string>();

  resolve(fullName: string): NamedDataSchema {
    const bound = this.bindings.get(fullName);
    if (bound !== undefined) return bound;
    const host = {
      lookup: (n: string) => this.bindings.get(n),
      bind: (n: string, s: NamedDataSchema, session: ParseSession) => {
        this.bindings.set(n, s);
        session.boundNames.push(n);
      },
      load: (n: string, session: ParseSession) => {
        const text = this.texts.get(n);
        if (text === undefined || this.#read.has(n)) return undefined;
        this.#read.add(n);
        parseSource(session, text, `${n} (registered)`);
        return this.bindings.get(n);
      },
      describeSearch: () => '',
    };
    const session = new ParseSession(host);
    try {
      const found = host.load(fullName, session);
      session.resolveReferences();
      session.finalize();
      if (session.problemCount > 0) throw new SchemaParseError(session.problems());
      return found!;
    } finally {
      this.#read.clear();
    }
  }
}

/**
 * The first difference between two object graphs, or undefined: same prototypes, same own keys (symbols
 * included: the schema model keeps its state on a symbol), equal primitives, Maps and Sets entry by entry;
 * each pair of objects is compared once, so cycles (recursive records) end.
 */
function difference(a: unknown, b: unknown, at: string, seen: Map<object, object>): string | undefined {
  if (Object.is(a, b)) return undefined;
  // the page's reader keeps no locations (plainCanonicalScanner): only they may differ then
  if (withoutLocations && at.endsWith('.location') && a === undefined) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return `${at}: ${String(a)} ≠ ${String(b)}`;
  if (seen.get(a) === b) return undefined;
  if (seen.has(a)) return `${at}: one object read as two`;
  seen.set(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at}: another class`;
  if (a instanceof Map || a instanceof Set) {
    const ea = [...(a as Map<unknown, unknown>).entries()];
    const eb = [...(b as Map<unknown, unknown>).entries()];
    if (ea.length !== eb.length) return `${at}: ${ea.length} entries ≠ ${eb.length}`;
    for (let i = 0; i < ea.length; i++) {
      const d = difference(ea[i], eb[i], `${at}[${i}]`, seen);
      if (d !== undefined) return d;
    }
  }
  const keys = (o: object): (string | symbol)[] => Reflect.ownKeys(o);
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i]))
    return `${at}: keys ${ka.map(String).join(',')} ≠ ${kb.map(String).join(',')}`;
  for (const k of ka) {
    const d = difference(
      (a as Record<string | symbol, unknown>)[k],
      (b as Record<string | symbol, unknown>)[k],
      `${at}.${String(k)}`,
      seen,
    );
    if (d !== undefined) return d;
  }
  return undefined;
}

/** Every named schema of a tree (or of texts), by full name, with the text codegen registers for it. */
function registeredTexts(dir: string, ...texts: string[]): Map<string, string> {
  const resolver = new SchemaResolver({ resolverPath: dir === '' ? [] : [path.join(ROOT, dir)] });
  if (dir !== '') resolver.parseDirectory(path.join(ROOT, dir));
  for (const text of texts) resolver.parseText(text);
  return canonicalTexts(resolver);
}

function canonicalTexts(resolver: SchemaResolver): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [name, schema] of resolver.bindings())
    texts.set(name, schemaToJson(schema, { namedByReference: true }));
  return texts;
}

let withoutLocations = false;

const TREES = [
  'test/fixtures/pegasus',
  'test/templates/pegasus',
  'examples/src/main/pegasus',
  'src/queue/pegasus',
];

/** Reads `texts` with both registries, in their order and in reverse; the first difference, if any. */
function compare(texts: ReadonlyMap<string, string>): string | undefined {
  // in reverse too, so that each schema is also read first from its own text
  for (const names of [[...texts.keys()], [...texts.keys()].reverse()]) {
    const a = new ParserRegistry();
    const b = new SchemaRegistry();
    for (const [name, text] of texts) {
      a.texts.set(name, text);
      b.register(name, text);
    }
    const seen = new Map<object, object>();
    for (const name of names) {
      const d = difference(b.resolve(name), a.resolve(name), name, seen);
      if (d !== undefined) return d;
    }
  }
  return undefined;
}

/** What the trees have little of: inline includes, boolean deprecations, Java bindings, orders, aliases. */
const CORNERS = [
  `{"type":"record","name":"Base","namespace":"c.x","package":"p.x","fields":[{"name":"b","type":"int","default":1}]}`,
  `{"type":"record","name":"Corners","namespace":"c.x","doc":"d","deprecated":true,"aliases":["Old","o.Older"],
    "fields":[
      {"name":"f","type":"float","default":"NaN","order":"DESCENDING","aliases":["g"],"deprecated":"no","p":{"q":[1]}},
      {"name":"l","type":"long","default":9007199254740993},
      {"name":"d","type":"double","default":1e18},
      {"name":"y","type":"bytes","default":"\\u00ff\\u0000"},
      {"name":"u","type":[{"alias":"a","type":"int","doc":"an int","x":1},{"alias":"s","type":"string"}],"default":{"a":2}},
      {"name":"n","type":["null",{"type":"fixed","name":"Two","size":2}],"default":null},
      {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"],"symbolDocs":{"B":"b"},"deprecatedSymbols":{"A":true,"B":"x"}},"default":"A"},
      {"name":"t","type":{"type":"typeref","name":"T","ref":{"type":"map","values":{"type":"array","items":"long","k":"v"}},"java":{"class":"java.util.Map","coercerClass":"C"}},"optional":true},
      {"name":"r","type":{"type":"error","name":"Err","fields":[]},"order":"ignore"}
    ],
    "include":[{"type":"record","name":"Inline","fields":[{"name":"i","type":"c.x.Base","default":{"b":3}}]},"Base"],
    "custom":{"k":"v"}}`,
];

describe('the canonical-text reader', () => {
  it.each(TREES)('reads every schema of %s as the parser does', (dir) => {
    const texts = registeredTexts(dir);
    expect(texts.size).toBeGreaterThan(0);
    expect(compare(texts)).toBeUndefined();
  });

  it('reads inline includes, deprecations, bindings, orders, aliases and defaults of every kind as the parser does', () => {
    const texts = registeredTexts('', ...CORNERS);
    expect([...texts.keys()].sort()).toEqual([
      'c.x.Base',
      'c.x.Corners',
      'c.x.E',
      'c.x.Err',
      'c.x.Inline',
      'c.x.T',
      'c.x.Two',
    ]);
    expect(compare(texts)).toBeUndefined();
  });

  it('reads every text as the parser does but for locations with the exact JSON parser (a browser page’s reader)', () => {
    setCanonicalTextScanner(plainCanonicalScanner);
    withoutLocations = true;
    try {
      for (const texts of [...TREES.map((dir) => registeredTexts(dir)), registeredTexts('', ...CORNERS)])
        expect(compare(texts)).toBeUndefined();
      // a long default beyond 2^53 stays exact (CORNERS' "l"), and nothing has a location
      const registry = new SchemaRegistry();
      for (const [name, text] of registeredTexts('', ...CORNERS)) registry.register(name, text);
      const corners = registry.resolve('c.x.Corners') as RecordDataSchema;
      expect(corners.getField('l')?.getDefault()).toBe(9007199254740993n);
      expect(corners.getLocation()).toBeUndefined();
    } finally {
      withoutLocations = false;
      installSchemaLocations();
    }
  });

  it('reads generated schema texts as the parser does (property)', () => {
    fc.assert(
      fc.property(schemaText, (text) => {
        const resolver = new SchemaResolver();
        try {
          resolver.parseText(text);
        } catch {
          return; // the arbitrary's few texts the parser refuses are not canonical texts
        }
        expect(compare(canonicalTexts(resolver))).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });
});
