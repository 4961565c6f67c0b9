/**
 * Fuzzing the `.pdsc` parser: whatever text it is given (random text, schema-shaped JSON, mutations of valid
 * schemas, texts nested past the limit), parsing either succeeds or throws SchemaParseError, never another
 * error (a stack overflow included), and returns: a hang fails the test at jest's timeout. How long hostile
 * texts take is measured, not asserted here: `npm run bench -- schema-parse` (the "hostile texts" suites).
 * Bounded in the normal suite; `SVC_FUZZ_RUNS=100000 npx jest test/schema/schema-fuzz` for a long session.
 */
import fc from 'fast-check';
import { MAX_NESTING_DEPTH, parseSchema, SchemaParseError, type ParseSchemaOptions } from '../../src';
import { fuzzRuns } from '../data/fuzz-runs';
import { schemaText } from './schema-arbitraries';

const RUNS = fuzzRuns(200);

const OPTIONS: readonly ParseSchemaOptions[] = [
  {},
  { strict: true },
  { allowForwardReferences: true, file: 'fuzz/Fuzz.pdsc' },
];

/** Parses `text` under every option set; anything but success or SchemaParseError fails the property. */
function parsesOrRefuses(text: string): void {
  for (const options of OPTIONS) {
    try {
      parseSchema(text, options);
    } catch (err) {
      if (!(err instanceof SchemaParseError)) {
        throw new Error(`${String(err)} (not a SchemaParseError) for ${JSON.stringify(text).slice(0, 500)}`, {
          cause: err,
        });
      }
      expect(err.problems.length).toBeGreaterThan(0);
      for (const p of err.problems) expect(typeof p.message).toBe('string');
    }
  }
}

// ---- schema-shaped JSON: the parser's own vocabulary, in random places ----

const KEYS = [
  'type',
  'name',
  'namespace',
  'package',
  'doc',
  'fields',
  'include',
  'items',
  'values',
  'symbols',
  'symbolDocs',
  'deprecatedSymbols',
  'ref',
  'size',
  'default',
  'optional',
  'alias',
  'aliases',
  'deprecated',
  'order',
  'java',
  'class',
  'coercerClass',
  'avro',
  '__proto__',
  'constructor',
];
const WORDS = [
  'record',
  'error',
  'enum',
  'fixed',
  'typeref',
  'array',
  'map',
  'null',
  'int',
  'long',
  'float',
  'double',
  'boolean',
  'string',
  'bytes',
  'A',
  'B',
  'a.B',
  'Foo',
  'com.ex.Foo',
  'fieldDiscriminator',
  'NaN',
  'Infinity',
  '-Infinity',
  'ascending',
  'DESCENDING',
  '',
  '\u0000',
  '☃',
  'a..b',
];

const jsonish = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 5, depthSize: 'small' },
    fc.constantFrom(...WORDS),
    fc.constantFrom(null, true, false, 0, -1, 1.5, 2147483648, 1e39, -0, 9007199254740993n),
    fc.string({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), tie('value')), {
        maxLength: 7,
      })
      .map((entries) => ({ entries })),
  ),
})).value;

/** JSON text of a `jsonish` value; objects keep duplicate keys, bigints are written exactly. */
function text(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(text).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = (v as { entries: [string, unknown][] }).entries;
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${text(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

// ---- mutations of valid schema texts ----

type Mutation = (s: string) => string;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.nat(20)).map(([at, n]): Mutation => (s) => {
    const i = at % (s.length + 1);
    return s.slice(0, i) + s.slice(i + n);
  }),
  fc
    .tuple(
      fc.nat(),
      fc.oneof(
        fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '//', '/*', ...WORDS.map((w) => `"${w}"`)),
        fc.string({ maxLength: 4 }),
      ),
    )
    .map(([at, piece]): Mutation => (s) => {
      const i = at % (s.length + 1);
      return s.slice(0, i) + piece + s.slice(i);
    }),
  fc.tuple(fc.nat(), fc.nat(), fc.nat(40)).map(([from, to, n]): Mutation => (s) => {
    const a = from % (s.length + 1);
    const b = to % (s.length + 1);
    return s.slice(0, b) + s.slice(a, a + n) + s.slice(b);
  }),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(
    ([a, b]): Mutation =>
      (s) =>
        s.replace(`"${a}"`, `"${b}"`),
  ),
  fc.nat().map(
    (at): Mutation =>
      (s) =>
        s.slice(0, at % (s.length + 1)),
  ),
);

/** A valid schema's JSON with one value somewhere replaced by a random schema-shaped value. */
function replaceSomewhere(schema: string, pick: number, replacement: unknown): string {
  const value = JSON.parse(schema) as unknown;
  const spots: Array<(v: unknown) => void> = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        spots.push((v) => (node[i] = v));
        visit(child);
      });
    } else if (node !== null && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        spots.push((v) => (obj[k] = v));
        spots.push(() => delete obj[k]);
        visit(obj[k]);
      }
    }
  };
  visit(value);
  if (spots.length > 0) spots[pick % spots.length]!(replacement);
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && 'entries' in v && Array.isArray(v.entries)
      ? Object.fromEntries((v as { entries: [string, unknown][] }).entries)
      : typeof v === 'bigint'
        ? Number(v)
        : v,
  );
}

describe('the .pdsc parser, fuzzed', () => {
  it('throws only SchemaParseError for random text', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json()), parsesOrRefuses), {
      numRuns: RUNS,
    });
  });

  it('throws only SchemaParseError for schema-shaped JSON', () => {
    fc.assert(
      fc.property(jsonish, fc.boolean(), (v, twice) =>
        parsesOrRefuses(twice ? `${text(v)} ${text(v)}` : text(v)),
      ),
      { numRuns: RUNS },
    );
  });

  it('throws only SchemaParseError for text mutations of valid schemas', () => {
    fc.assert(
      fc.property(schemaText, fc.array(mutation, { minLength: 1, maxLength: 3 }), (schema, edits) =>
        parsesOrRefuses(edits.reduce((s, edit) => edit(s), schema)),
      ),
      { numRuns: RUNS },
    );
  });

  it('throws only SchemaParseError for valid schemas with one value replaced or removed', () => {
    fc.assert(
      fc.property(schemaText, fc.nat(), jsonish, (schema, pick, replacement) =>
        parsesOrRefuses(replaceSomewhere(schema, pick, replacement)),
      ),
      { numRuns: RUNS },
    );
  });

  it('throws only SchemaParseError for texts nested around the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_NESTING_DEPTH - 2, max: MAX_NESTING_DEPTH + 2 }),
        fc.constantFrom('[', '{"type":', '{"type":"array","items":', '{"a":'),
        fc.boolean(),
        (levels, open, close) => {
          const inner = '"int"';
          const closer = open.startsWith('[') ? ']' : '}';
          parsesOrRefuses(open.repeat(levels) + inner + (close ? closer.repeat(levels) : ''));
        },
      ),
      { numRuns: Math.min(RUNS, 20) },
    );
  });
});
