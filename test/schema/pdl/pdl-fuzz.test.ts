/**
 * Fuzzing the PDL parser: whatever text it is given (random text, PDL-shaped token soup, mutations of valid
 * PDL), parsing either succeeds or throws SchemaParseError, never another error. Bounded in the normal
 * suite; `SVC_FUZZ_RUNS=100000 npx jest test/schema/pdl/pdl-fuzz` for a long session.
 */
import fc from 'fast-check';
import { parsePdl, SchemaParseError, type ParseSchemaOptions } from '../../../src';
import { fuzzRuns } from '../../data/fuzz-runs';

const RUNS = fuzzRuns(200);
const OPTIONS: readonly ParseSchemaOptions[] = [{}, { strict: true, file: 'fuzz/Fuzz.pdl' }];

function parsesOrRefuses(text: string): void {
  for (const options of OPTIONS) {
    try {
      parsePdl(text, options);
    } catch (err) {
      if (!(err instanceof SchemaParseError)) {
        throw new Error(`${String(err)} (not a SchemaParseError) for ${JSON.stringify(text).slice(0, 500)}`, {
          cause: err,
        });
      }
      expect(err.problems.length).toBeGreaterThan(0);
    }
  }
}

const TOKENS = [
  'namespace',
  'package',
  'import',
  'record',
  'enum',
  'fixed',
  'typeref',
  'union',
  'array',
  'map',
  'includes',
  'optional',
  'null',
  'true',
  'false',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '@',
  ':',
  '.',
  '=',
  ',',
  '`',
  '`x`',
  '/**',
  '*/',
  '/*',
  '//',
  '\n',
  ' ',
  '"s"',
  '"',
  '1',
  '-2.5e3',
  '99999999999999999999',
  'int',
  'string',
  'A',
  'a.B',
  'x',
  'deprecated',
  'aliases',
  'order',
  'symbolDocs',
  '@deprecated',
  '@aliases = ["q"]',
];

const VALID = [
  'namespace a.b\nimport c.D\n/** doc */\n@p.q = 1\nrecord R includes D { f: optional int = 1, g: union[x: int, y: string] }',
  'enum E { /** a */ A, @deprecated B, @x.y = [1, {"a": null}] C }',
  '{ namespace n package p typeref T = map[string, array[fixed F 4]] }',
  'record R { f: record S { g: enum E { X } } = {"g": "X"} }',
];

describe('PDL parser fuzzing', () => {
  it('never fails with anything but SchemaParseError on random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), parsesOrRefuses), { numRuns: RUNS });
  });

  it('never fails with anything but SchemaParseError on PDL-shaped token soup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }), (tokens) =>
        parsesOrRefuses(tokens.join(' ')),
      ),
      { numRuns: RUNS },
    );
  });

  it('never fails with anything but SchemaParseError on mutations of valid PDL', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID),
        fc.nat(),
        fc.nat({ max: 8 }),
        fc.string({ maxLength: 4 }),
        (text, at, cut, insert) => {
          const i = at % (text.length + 1);
          parsesOrRefuses(text.slice(0, i) + insert + text.slice(i + cut));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('parses each valid seed', () => {
    for (const text of VALID.slice(1)) expect(() => parsePdl(text)).not.toThrow();
  });
});
