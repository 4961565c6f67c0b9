/**
 * The one nesting rule (src/data/limits.ts) in every recursive walk of the schema layer: `.pdsc` parsing,
 * validation (both paths), filling in defaults, and the Avro data translation in both directions. Each works
 * at exactly MAX_NESTING_DEPTH levels and refuses anything deeper with its typed error or message, never a
 * RangeError, with jest's normal stack.
 */
import {
  DataList,
  DataMap,
  DataTranslator,
  fillInDefaults,
  isSvcError,
  MAX_NESTING_DEPTH,
  parseSchema,
  SchemaParseError,
  SchemaTranslator,
  avroTypeForSchema,
  validate,
  type DataSchema,
  type GenericRecord,
  type RecordDataSchema,
} from '../../src';
import { nodeFor, rawOf } from '../../src/schema/validation/compile-validator';
import { DEFAULT_VALIDATION_OPTIONS, optionsIndex } from '../../src/schema/validation/validation-options';

const MAX = MAX_NESTING_DEPTH;
const TOO_DEEP = [MAX + 1, MAX + 2, 100_000];

const TOO_DEEP_MESSAGE = `nested deeper than the maximum depth of ${MAX} (MAX_NESTING_DEPTH); not validated below this point`;

/** Applies `wrap` to `inner` until `levels` containers nest (`inner` counts as one). */
function nest<T>(inner: T, levels: number, wrap: (v: T, level: number) => T): T {
  let v = inner;
  for (let level = 2; level <= levels; level++) v = wrap(v, level);
  return v;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

// ---- schemas, and data nested exactly `depth` levels deep ----

/** Records only: `{ next: { next: ... } }`. */
const NODE = parseSchema(
  '{ "type": "record", "name": "Node", "fields": [ { "name": "next", "type": "Node", "optional": true } ] }',
) as RecordDataSchema;
const node = (depth: number): DataMap => nest(new DataMap(), depth, (v) => new DataMap([['next', v]]));

/** Records and arrays, alternating; the innermost container is an empty list. */
const LIST = parseSchema(
  '{ "type": "record", "name": "L", "fields": [ { "name": "kids", "type": { "type": "array", "items": "L" } } ] }',
) as RecordDataSchema;
function list(depth: number): DataMap {
  // even depths end in a list, so the root is a record
  const d = depth % 2 === 0 ? depth : depth + 1;
  return nest<DataMap | DataList>(new DataList(), d, (v, level) =>
    level % 2 === 0 ? new DataMap([['kids', v]]) : new DataList([v]),
  ) as DataMap;
}

/** Records and unions, alternating; the innermost container is a union holding an int. */
const UNION = parseSchema(
  '{ "type": "record", "name": "U", "fields": [ { "name": "u", "type": [ "int", "U" ] } ] }',
) as RecordDataSchema;
function union(depth: number): DataMap {
  const d = depth % 2 === 0 ? depth : depth + 1;
  return nest(new DataMap([['int', 1]]), d, (v, level) =>
    level % 2 === 0 ? new DataMap([['u', v]]) : new DataMap([['U', v]]),
  );
}

/** MAX arrays of arrays, finite: the deepest schema a .pdsc can hold. */
function arraysText(levels: number): string {
  return nest('{ "type": "array", "items": "int" }', levels, (v) => `{ "type": "array", "items": ${v} }`);
}
const ARRAYS = parseSchema(arraysText(MAX));
const arrays = (depth: number): DataList => nest(new DataList([1]), depth, (v) => new DataList([v]));

interface Shape {
  readonly what: string;
  readonly schema: DataSchema;
  readonly data: (depth: number) => DataMap | DataList;
}

const SHAPES: Shape[] = [
  { what: 'a chain of records', schema: NODE, data: node },
  { what: 'records and arrays', schema: LIST, data: list },
  { what: 'records and unions', schema: UNION, data: union },
];

describe('.pdsc parsing', () => {
  it('parses a schema nested exactly MAX_NESTING_DEPTH levels deep', () => {
    expect(ARRAYS.toString()).toContain('"items"');
  });

  it.each(TOO_DEEP)(
    'refuses a schema nested %i levels deep with SchemaParseError naming the limit',
    (levels) => {
      const text = levels > MAX + 2 ? '['.repeat(levels) : arraysText(levels);
      const err = thrown(() => parseSchema(text));
      expect(err).toBeInstanceOf(SchemaParseError);
      expect((err as SchemaParseError).problems).toEqual([
        expect.objectContaining({
          message: `invalid JSON: Nesting deeper than the maximum depth of ${MAX} (MAX_NESTING_DEPTH)`,
        }),
      ]);
    },
  );
});

describe('validation', () => {
  describe.each(SHAPES)('of $what', ({ schema, data }) => {
    it('accepts data nested exactly MAX_NESTING_DEPTH levels deep', () => {
      const result = validate(data(MAX), schema);
      expect(result.getMessage()).toBe('');
      expect(result.isValid()).toBe(true);
    });

    it.each(TOO_DEEP)(
      'reports data nested %i levels deep with one message, at the first container too deep',
      (depth) => {
        const result = validate(data(depth), schema);
        expect(result.isValid()).toBe(false);
        const messages = result.getMessages();
        expect(messages).toHaveLength(1);
        expect(messages[0]!.getPath()).toHaveLength(MAX);
        expect(result.getMessage()).toMatch(
          new RegExp(` :: ${TOO_DEEP_MESSAGE.replace(/[()]/g, '\\$&')}\n$`),
        );
      },
    );

    it('stops the fast path of the closures too (used where code cannot be generated)', () => {
      const n = nodeFor(schema, DEFAULT_VALIDATION_OPTIONS, optionsIndex(DEFAULT_VALIDATION_OPTIONS));
      expect(n.closureCheck(rawOf(data(MAX)))).toBe(true);
      expect(n.closureCheck(rawOf(data(MAX + 2)))).toBe(false);
      expect(n.closureCheck(rawOf(data(100_000)))).toBe(false);
    });
  });

  it('accepts MAX_NESTING_DEPTH nested arrays against the deepest .pdsc schema', () => {
    expect(validate(arrays(MAX), ARRAYS).isValid()).toBe(true);
  });

  it('applies the limit under every option combination (each compiles its own validator)', () => {
    const options = {
      requiredMode: 'MUST_BE_PRESENT',
      coercionMode: 'OFF',
      unrecognizedFieldMode: 'DISALLOW',
    } as const;
    expect(validate(node(MAX), NODE, options).isValid()).toBe(true);
    expect(validate(node(MAX + 1), NODE, options).getMessage()).toContain(TOO_DEEP_MESSAGE);
  });
});

describe('fillInDefaults', () => {
  const WITH_DEFAULT = parseSchema(
    '{ "type": "record", "name": "D", "fields": [ { "name": "next", "type": "D", "optional": true }, { "name": "x", "type": "int", "default": 1 }, { "name": "kids", "type": { "type": "array", "items": "D" }, "optional": true } ] }',
  ) as RecordDataSchema;

  it.each([
    ['a chain of records', node],
    ['records and arrays', list],
  ] as const)('fills %s nested exactly MAX_NESTING_DEPTH levels deep', (_what, data) => {
    let filled: DataMap | undefined = fillInDefaults(WITH_DEFAULT, data(MAX));
    let records = 0;
    while (filled !== undefined) {
      expect(filled.get('x')).toBe(1);
      records++;
      const kids = filled.get('kids') as DataList | undefined;
      filled = (filled.get('next') ?? (kids?.size === 1 ? kids.get(0) : undefined)) as DataMap | undefined;
    }
    expect(records).toBeGreaterThanOrEqual(MAX / 2);
  });

  it.each(TOO_DEEP)('refuses data nested %i levels deep with NestingDepthError', (depth) => {
    const err = thrown(() => fillInDefaults(WITH_DEFAULT, node(depth)));
    expect(isSvcError(err, 'NestingDepthError', 'SVC_ERR_SCHEMA_DATA_TOO_DEEP')).toBe(true);
    expect((err as Error).message).toBe(
      `filling in defaults: the data is nested deeper than the maximum depth of ${MAX} (MAX_NESTING_DEPTH)`,
    );
  });
});

describe('the Avro data translation', () => {
  const cases = [
    { what: 'a chain of records (optional fields: wrapped union branches)', schema: NODE, data: node },
    { what: 'records and arrays', schema: LIST, data: list },
  ];

  describe.each(cases)('of $what', ({ schema, data }) => {
    const type = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(schema));

    it('round-trips data nested exactly MAX_NESTING_DEPTH levels deep through avsc', () => {
      const map = data(MAX);
      const record = DataTranslator.dataMapToGenericRecord(map, schema, type);
      const decoded = type.fromBuffer(type.toBuffer(record)) as GenericRecord;
      expect(DataTranslator.genericRecordToDataMap(decoded, schema, type).equals(map)).toBe(true);
    });

    it.each(TOO_DEEP)('refuses a DataMap nested %i levels deep with NestingDepthError', (depth) => {
      const err = thrown(() => DataTranslator.dataMapToGenericRecord(data(depth), schema, type));
      expect(isSvcError(err, 'NestingDepthError', 'SVC_ERR_AVRO_DATA_TOO_DEEP')).toBe(true);
      expect((err as Error).message).toContain(`maximum depth of ${MAX} (MAX_NESTING_DEPTH)`);
    });
  });

  it.each(TOO_DEEP)('refuses a generic record nested %i levels deep with NestingDepthError', (depth) => {
    const type = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(NODE));
    const record = nest<GenericRecord>({ next: null }, depth, (v) => ({ next: { Node: v } }));
    const err = thrown(() => DataTranslator.genericRecordToDataMap(record, NODE, type));
    expect(isSvcError(err, 'NestingDepthError', 'SVC_ERR_AVRO_DATA_TOO_DEEP')).toBe(true);
  });

  it('names a too-deep union value in a translation error without walking all of it', () => {
    const type = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(UNION));
    // a union value with two entries is refused before any depth is reached; its text is cut, not overflowed
    const bad = new DataMap([
      [
        'u',
        new DataMap([
          ['int', 1],
          ['U', union(100_000)],
        ]),
      ],
    ]);
    const err = thrown(() => DataTranslator.dataMapToGenericRecord(bad, UNION, type));
    expect(isSvcError(err, 'DataTranslationError')).toBe(true);
    expect((err as Error).message.length).toBeLessThan(400);
  });
});
