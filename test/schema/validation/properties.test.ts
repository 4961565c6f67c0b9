/**
 * Properties over the fixture tree (test/fixtures/pegasus) and over random schemas:
 * - any value generated from a schema validates, as it is, in every mode that should accept it;
 * - after a JSON round trip (bytes become strings, big doubles become longs), NORMAL coercion restores it;
 * - garbage never makes validation throw, and the result is consistent;
 * - the fast paths (generated code and closures) agree with each other and with the diagnostic path;
 * - a second validation of fixed data fixes nothing more.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import {
  COERCION_MODES,
  Data,
  DataList,
  DataMap,
  JsonCodec,
  parseSchema,
  REQUIRED_MODES,
  RequiredMode,
  resolveValidationOptions,
  SchemaResolver,
  UNRECOGNIZED_FIELD_MODES,
  UnrecognizedFieldMode,
  validate,
  type DataSchema,
  type DataValue,
  type ValidationOptions,
} from '../../../src';
import { generateCheck, generateLocate } from '../../../src/schema/validation/check-codegen';
import { nodeFor, rawOf, Run } from '../../../src/schema/validation/compile-validator';
import { LOCATED } from '../../../src/schema/validation/located-failure';
import { diagnose } from '../../../src/schema/validation/validate';
import { optionsIndex } from '../../../src/schema/validation/validation-options';
import { dataMapArb, dataPrimitive } from '../../support/data-arbitraries';
import { schemaText } from '../schema-arbitraries';
import { valueArb } from '../../support/schema-value-arbitraries';

const ROOT = join(__dirname, '../../fixtures/pegasus');
const resolver = new SchemaResolver({ resolverPath: [ROOT] });
resolver.parseDirectory(ROOT);
const FIXTURES: ReadonlyArray<readonly [string, DataSchema]> = [...resolver.bindings().entries()];
const json = new JsonCodec();

const ALL_OPTIONS: readonly ValidationOptions[] = REQUIRED_MODES.flatMap((requiredMode) =>
  COERCION_MODES.flatMap((coercionMode) =>
    UNRECOGNIZED_FIELD_MODES.map((unrecognizedFieldMode) => ({
      requiredMode,
      coercionMode,
      unrecognizedFieldMode,
    })),
  ),
);

function expectValidAsIs(data: DataValue, schema: DataSchema, options: ValidationOptions): void {
  const result = validate(data, schema, options);
  if (result.getMessage() !== '' || result.hasFix()) {
    throw new Error(`${JSON.stringify(options)}: ${result.toString()}`);
  }
  expect(result.isValid()).toBe(true);
  expect(result.getFixed()).toBe(data);
}

/** Fast path and diagnostic path agree, for one value and one option combination. */
function expectPathsAgree(data: DataValue, schema: DataSchema, options: ValidationOptions): void {
  const resolved = resolveValidationOptions(options);
  const node = nodeFor(schema, resolved, optionsIndex(resolved));
  const generated = generateCheck(schema, resolved)!;
  const raw = rawOf(data);
  const fast = node.closureCheck(raw);
  expect(generated(raw)).toBe(fast);
  expect(node.check(raw)).toBe(fast);
  expect(generateLocate(schema, resolved)!(raw)).toBe(fast);
  if (fast) {
    // the diagnostic path on a copy finds nothing to say and nothing to fix
    const copy = data instanceof DataMap ? data.copy() : data;
    const run = new Run();
    const fixed = node.fix(copy, run);
    expect([run.messages.map(String), run.hasFix, run.trims?.length ?? 0, fixed === copy]).toEqual([
      [],
      false,
      0,
      true,
    ]);
  }
}

describe('values generated from the fixture schemas', () => {
  it('are generated for every fixture schema', () => {
    const without = FIXTURES.filter(([, s]) => valueArb(s) === undefined).map(([n]) => n);
    expect(without).toEqual([]);
  });

  it.each(FIXTURES)('validate as they are: %s', (_name, schema) => {
    const arb = valueArb(schema)!;
    const strictArb = valueArb(schema, { omitDefaulted: false, unknownFields: false })!;
    fc.assert(
      fc.property(arb, strictArb, (value, strict) => {
        for (const coercionMode of COERCION_MODES) {
          for (const requiredMode of [RequiredMode.IGNORE, RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT]) {
            expectValidAsIs(value, schema, { coercionMode, requiredMode });
          }
          for (const requiredMode of REQUIRED_MODES) {
            for (const unrecognizedFieldMode of UNRECOGNIZED_FIELD_MODES) {
              expectValidAsIs(strict, schema, { coercionMode, requiredMode, unrecognizedFieldMode });
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  // The JSON codec reads objects (and arrays) only: the table holds the schemas whose values are maps; an
  // enum, fixed, long or string comes back from JSON inside the records that hold one.
  const MAP_VALUED = FIXTURES.filter(([, s]) =>
    ['RECORD', 'MAP', 'UNION'].includes(s.getDereferencedSchema().getType()),
  );

  it('have records, maps and unions among them, so the JSON round trip has something to read', () => {
    expect(MAP_VALUED.map(([, s]) => s.getDereferencedSchema().getType()).sort()).toEqual(
      expect.arrayContaining(['MAP', 'RECORD', 'UNION']),
    );
    expect(MAP_VALUED.length).toBeGreaterThan(30);
  });

  it.each(MAP_VALUED)('come back from JSON through NORMAL coercion: %s', (_name, schema) => {
    const arb = valueArb(schema, { unknownFields: false })!;
    fc.assert(
      fc.property(arb, (value) => {
        fc.pre(value instanceof DataMap); // a union with a null member is null now and then
        const decoded = json.stringToMap(json.mapToString(value));
        const result = validate(decoded, schema);
        expect(result.getMessage()).toBe('');
        expect(decoded.equals(value)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('values generated from random schemas', () => {
  it('validate as they are, and the fast paths agree with the diagnostic path', () => {
    fc.assert(
      fc.property(
        // the schemas that have a value at all (one in eight does not: a required field of its own type)
        schemaText
          .map((text) => {
            const schema = parseSchema(text);
            return { schema, arb: valueArb(schema) };
          })
          .filter((s): s is { schema: DataSchema; arb: fc.Arbitrary<DataValue> } => s.arb !== undefined)
          .chain(({ schema, arb }) => arb.map((value) => ({ schema, value }))),
        ({ schema, value }) => {
          expectValidAsIs(value, schema, {});
          expectValidAsIs(value, schema, { requiredMode: RequiredMode.IGNORE, coercionMode: 'OFF' });
          expectPathsAgree(value, schema, {});
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Every place a value sits in a data tree: its container and its key there. */
function places(root: DataMap | DataList): Array<readonly [DataMap | DataList, string | number]> {
  const out: Array<readonly [DataMap | DataList, string | number]> = [];
  const walk = (c: DataMap | DataList): void => {
    const keys: Array<string | number> = c instanceof DataMap ? [...c.keys()] : [...Array(c.size).keys()];
    for (const k of keys) {
      out.push([c, k]);
      const v = c instanceof DataMap ? c.get(k as string) : c.get(k as number);
      if (v instanceof DataMap || v instanceof DataList) walk(v);
    }
  };
  walk(root);
  return out;
}

describe('one bad value in valid data', () => {
  const MAPS = FIXTURES.filter(([, s]) =>
    ['RECORD', 'MAP', 'UNION'].includes(s.getDereferencedSchema().getType()),
  );
  const bad: fc.Arbitrary<DataValue | undefined> = fc.oneof(
    dataPrimitive,
    fc.constantFrom<DataValue | undefined>(undefined, Data.NULL, '12', '1.5', 'NaN', 'A', 2 ** 60, 1.5),
    // made fresh each time: validation fixes and trims them in place
    fc.constant(0).map(() => new DataMap([['x', 1]])),
    fc.constant(0).map(() => new DataList([1, 'a'])),
  );
  const located = { yes: 0, all: 0 };

  // The check records the one value it refused (located-failure.ts) and validate() runs that value's fix
  // alone; the walk from the root (diagnose) must say and fix exactly the same.
  it.each(MAPS)('gets the same result from where the check failed as from the root: %s', (_n, schema) => {
    // data valid in every mode, and data with unknown fields and absent defaulted fields (more than one
    // failure in the stricter modes: the walk from the root then)
    const arb = fc.oneof(
      valueArb(schema, { maxDepth: 2, omitDefaulted: false, unknownFields: false })!,
      valueArb(schema, { maxDepth: 2 })!,
    );
    fc.assert(
      fc.property(
        arb,
        fc.nat(),
        bad,
        fc.constantFrom(...ALL_OPTIONS),
        fc.boolean(),
        (generated, at, replacement, options, readOnly) => {
          fc.pre(generated instanceof DataMap);
          const value = generated.copy(); // fast-check shrinks from the generated value
          const all = places(value);
          fc.pre(all.length > 0);
          const [container, key] = all[at % all.length]!;
          if (replacement === undefined) {
            if (container instanceof DataMap) container.remove(key as string);
            else return;
          } else if (container instanceof DataMap) container.put(key as string, replacement);
          else container.set(key as number, replacement);
          const a = value;
          const b = value.copy();
          if (readOnly) {
            a.makeReadOnly();
            b.makeReadOnly();
          }
          const resolved = resolveValidationOptions(options);
          const node = nodeFor(schema, resolved, optionsIndex(resolved));
          if (!node.check(rawOf(a), 1)) {
            located.all++;
            LOCATED.n = 0;
            expect(node.locate(rawOf(a), 1)).toBe(false);
            if (LOCATED.n === 1 && LOCATED.depth > 0) located.yes++;
          }
          const fast = validate(a, schema, options);
          const walked = diagnose(node, b);
          expect(fast.toString()).toBe(walked.toString());
          expect(fast.getMessages().map((m) => m.getPath())).toEqual(
            walked.getMessages().map((m) => m.getPath()),
          );
          expect(a.equals(b)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('took the located path for most of them', () => {
    expect(located.all).toBeGreaterThan(100);
    expect(located.yes / located.all).toBeGreaterThan(0.5);
  });
});

describe('garbage', () => {
  const garbage = dataMapArb({ maxDepth: 4 });
  /** Garbage that shares the field names of the schema, so that it gets past the first check more often. */
  const nearMiss = (schema: DataSchema): fc.Arbitrary<DataMap> => {
    const s = schema.getDereferencedSchema() as unknown as {
      getFields?: () => ReadonlyArray<{ getName(): string }>;
    };
    const names = s.getFields?.().map((f) => f.getName()) ?? ['x'];
    return fc
      .tuple(
        fc.subarray(names),
        // a fresh empty map each time: one shared constant was made read-only and fixed by earlier runs
        fc.array(
          fc.oneof(
            garbage,
            fc.constant(0).map(() => new DataMap()),
          ),
          {
            minLength: names.length,
            maxLength: names.length,
          },
        ),
        garbage,
      )
      .map(([keys, values, extra]) => {
        const m = new DataMap();
        keys.forEach((k, i) =>
          m.put(k, values[i]!.size % 3 === 0 ? values[i]! : ([...values[i]!.values()][0] ?? 1)),
        );
        for (const [k, v] of extra) if (!m.has(k)) m.put(k, v);
        return m;
      });
  };

  it.each(FIXTURES)('never makes validation throw, and gives consistent results: %s', (_name, schema) => {
    fc.assert(
      fc.property(
        fc.oneof(garbage, nearMiss(schema)),
        fc.constantFrom(...ALL_OPTIONS),
        fc.boolean(),
        (data, options, readOnly) => {
          const copy = data.copy();
          if (readOnly) {
            data.makeReadOnly();
            copy.makeReadOnly();
          }
          expectPathsAgree(data, schema, options);
          const result = validate(data, schema, options);
          // where the check failed or from the root, the same result
          const resolved = resolveValidationOptions(options);
          expect(result.toString()).toBe(
            diagnose(nodeFor(schema, resolved, optionsIndex(resolved)), copy).toString(),
          );
          expect(result.getFixed()).toBe(data);
          expect(result.isValid()).toBe(result.getMessages().length === 0);
          if (result.hasFixupReadOnlyError()) expect(result.isValid()).toBe(false);
          if (readOnly && result.hasFix() && options.unrecognizedFieldMode !== UnrecognizedFieldMode.TRIM)
            expect(result.hasFixupReadOnlyError()).toBe(true);
          // what could be fixed was fixed: a second pass fixes nothing and says the same. Except that with
          // FIXUP_ABSENT_WITH_DEFAULT a default put in is read-only and is not itself fixed up (as in the
          // reference), so a record default that leaves out a defaulted field of its own cannot be completed.
          const again = validate(data, schema, options);
          if (options.requiredMode === RequiredMode.FIXUP_ABSENT_WITH_DEFAULT) {
            if (again.hasFix()) expect(again.hasFixupReadOnlyError()).toBe(true);
          } else {
            expect(again.hasFix()).toBe(readOnly && result.hasFix());
            if (!readOnly) expect(again.getMessage()).toBe(result.getMessage());
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('never makes validation throw with any root value', () => {
    const schemas = FIXTURES.map(([, s]) => s);
    const roots: fc.Arbitrary<unknown> = fc.oneof(
      fc.anything(),
      garbage,
      fc.constantFrom(
        undefined,
        null,
        NaN,
        Infinity,
        -0,
        2n ** 70n,
        Symbol('x'),
        () => 1,
        Object.create(null),
      ),
    );
    fc.assert(
      fc.property(
        roots,
        fc.constantFrom(...schemas),
        fc.constantFrom(...ALL_OPTIONS),
        (root, schema, options) => {
          const result = validate(root as DataValue, schema, options);
          expect(typeof result.isValid()).toBe('boolean');
          expect(typeof result.toString()).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
