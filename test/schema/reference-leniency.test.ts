/**
 * Schemas are accepted or refused as Rest.li's .pdsc parser does (rest.li 29.x, `SchemaParser.java`,
 * `AbstractSchemaParser.validateDefaults`, `EnumDataSchema.java`): what it accepts but is most likely a
 * mistake parses with a warning (refused under `strict`), and a reference to a schema defined later in the
 * same text is refused as it is there (accepted under `allowForwardReferences`).
 */
import type { DataMap } from '../../src';
import {
  isSvcError,
  SchemaTranslator,
  DataList,
  parseSchema,
  parseSchemaWithWarnings,
  SchemaResolver,
  schemaProblems,
  type EnumDataSchema,
  type RecordDataSchema,
  type SchemaProblem,
} from '../../src';

/** Line and column (1-based) where `needle` starts in `text`. */
function at(text: string, needle: string): { line: number; column: number } {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`${needle} not in ${text}`);
  const before = text.slice(0, i).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

function record(fields: string, extra = ''): string {
  return `{ "type": "record", "name": "R", "namespace": "com.ex",${extra} "fields": [\n  ${fields}\n] }`;
}

const INNER =
  '{ "type": "record", "name": "In", "fields": [ { "name": "x", "type": "int" }, { "name": "y", "type": "int", "default": 0 } ] }';

interface Tolerated {
  readonly what: string;
  readonly text: string;
  /** Where the warning points: its JSON path, and the text it points at. */
  readonly path: string;
  readonly pointsAt: string;
  readonly message: string;
  /** What the parsed schema holds. */
  readonly check: (schema: RecordDataSchema | EnumDataSchema) => void;
}

const tolerated: Tolerated[] = [
  {
    what: 'an int default written 1.5, read as 1',
    text: record('{ "name": "i", "type": "int", "default": 1.5 }'),
    path: '/fields/0/default',
    pointsAt: '1.5',
    message: 'default value 1.5 is not an integer; it is read as 1, as Rest.li truncates it for type int',
    check: (s) => expect((s as RecordDataSchema).getField('i')!.getDefault()).toBe(1),
  },
  {
    what: 'a long default written -2.75, read as -2',
    text: record('{ "name": "l", "type": "long", "default": -2.75 }'),
    path: '/fields/0/default',
    pointsAt: '-2.75',
    message: 'default value -2.75 is not an integer; it is read as -2, as Rest.li truncates it for type long',
    check: (s) => expect((s as RecordDataSchema).getField('l')!.getDefault()).toBe(-2),
  },
  {
    what: 'an int inside an array default written 2.5',
    text: record('{ "name": "a", "type": { "type": "array", "items": "int" }, "default": [ 1, 2.5 ] }'),
    path: '/fields/0/default/1',
    pointsAt: '2.5',
    message: 'default value 2.5 is not an integer; it is read as 2',
    check: (s) =>
      expect(
        ((s as RecordDataSchema).getField('a')!.getDefault() as DataList).equals(new DataList([1, 2])),
      ).toBe(true),
  },
  {
    what: 'a record default holding a field the record does not declare, kept',
    text: record(`{ "name": "r", "type": ${INNER}, "default": { "x": 1, "z": true } }`),
    path: '/fields/0/default/z',
    pointsAt: 'true }',
    message:
      'default value has field "z", which record com.ex.In does not declare; Rest.li ignores it and so it is kept',
    check: (s) => {
      const d = (s as RecordDataSchema).getField('r')!.getDefault() as DataMap;
      expect(d.get('z')).toBe(true);
      expect(d.get('x')).toBe(1);
    },
  },
  {
    what: 'deprecatedSymbols naming a symbol the enum lacks, left out of the model',
    text: '{ "type": "enum", "name": "E", "symbols": [ "A", "B" ], "deprecatedSymbols": { "B": "use A", "GONE": true } }',
    path: '/deprecatedSymbols/GONE',
    pointsAt: '"GONE"',
    message: '"GONE" symbol is referenced by deprecatedSymbols. This symbol does not exist.',
    check: (s) => expect([...(s as EnumDataSchema).getDeprecatedSymbols()]).toEqual([['B', 'use A']]),
  },
];

describe('schemas Rest.li accepts but we warn about', () => {
  describe.each(tolerated)('$what', ({ text, path, pointsAt, message, check }) => {
    it('parses, with one warning located by file, JSON path, line and column', () => {
      const { schema, warnings } = parseSchemaWithWarnings(text, { file: 'com/ex/R.pdsc' });
      expect(warnings).toEqual<SchemaProblem[]>([
        {
          file: 'com/ex/R.pdsc',
          path,
          ...at(text, pointsAt),
          message: expect.stringContaining(message) as string,
        },
      ]);
      check(schema as RecordDataSchema);
    });

    it('is refused by strict parsing, at the same place', () => {
      const problems = schemaProblems(() => parseSchema(text, { strict: true }));
      expect(problems).toEqual([
        {
          path,
          ...at(text, pointsAt),
          message: expect.stringMatching(/ \(refused by strict parsing\)$/) as string,
        },
      ]);
      expect(problems[0]!.message).toContain(message);
    });

    it('adds its warning to the resolver that parsed it, once', () => {
      const resolver = new SchemaResolver();
      resolver.parseText(text);
      expect(resolver.warnings()).toHaveLength(1);
      expect(() => resolver.parseText('{ "type": "fixed", "name": "Other", "size": 1 }')).not.toThrow();
      expect(resolver.warnings()).toHaveLength(1);
    });
  });

  it('keeps no warnings of a parse that fails', () => {
    const resolver = new SchemaResolver();
    const text = record('{ "name": "i", "type": "int", "default": 1.5 }, { "name": "j", "type": "Nope" }');
    expect(schemaProblems(() => resolver.parseText(text))).toHaveLength(1);
    expect(resolver.warnings()).toEqual([]);
  });

  it.each([
    ['float', 'NaN', NaN],
    ['double', 'Infinity', Infinity],
    ['double', '-Infinity', -Infinity],
  ])(
    'accepts the %s default "%s" as that number, without a warning, and writes it back',
    (type, text, value) => {
      const schema = parseSchemaWithWarnings(
        record(`{ "name": "n", "type": "${type}", "default": "${text}" }`),
      );
      expect(schema.warnings).toEqual([]);
      const field = (schema.schema as RecordDataSchema).getField('n')!;
      expect(field.getDefault()).toBe(value);
      expect(schema.schema.toString()).toContain(`"default":"${text}"`);
      expect(parseSchema(schema.schema.toString()).equals(schema.schema)).toBe(true);
      // Avro's JSON has no such number: a typed translation error, not a TypeError
      let err: unknown;
      try {
        SchemaTranslator.dataToAvroSchemaJson(schema.schema);
      } catch (e) {
        err = e;
      }
      expect(isSvcError(err, 'SchemaTranslationError', 'SVC_ERR_AVRO_SCHEMA_TRANSLATION')).toBe(true);
      expect((err as Error).message).toBe(
        `ERROR :: /com.ex.R/n :: ${String(value)} cannot be an Avro default: Avro JSON has no NaN or Infinity`,
      );
    },
  );

  it('still refuses a string default for a float that is not one of those three', () => {
    expect(
      schemaProblems(() => parseSchema(record('{ "name": "n", "type": "float", "default": "nan" }'))),
    ).toEqual([expect.objectContaining({ message: 'default value "nan" does not match type float' })]);
  });

  it('still refuses an int default out of the int32 range, fractional or not', () => {
    expect(
      schemaProblems(() => parseSchema(record('{ "name": "i", "type": "int", "default": 2147483648.5 }'))),
    ).toEqual([
      expect.objectContaining({ message: expect.stringContaining('is out of range for type int') }),
    ]);
  });
});

interface Forward {
  readonly what: string;
  readonly text: string;
  /** The reference that cannot be resolved, and where the schema it names is defined. */
  readonly reference: string;
  readonly definition: string;
  readonly message: string;
}

const forward: Forward[] = [
  {
    what: 'a field type naming a record defined inline in a later field',
    text: record(
      '{ "name": "a", "type": "Later" },\n  { "name": "b", "type": { "type": "record", "name": "Later", "fields": [] } }',
    ),
    reference: '"Later" }',
    definition: '{ "type": "record", "name": "Later"',
    message: '"Later" or "com.ex.Later" cannot be resolved (com.ex.Later is defined later in the same text',
  },
  {
    what: 'a record naming a record of a later JSON value of the text',
    text: '{ "type": "record", "name": "A", "fields": [ { "name": "b", "type": "B" } ] }\n{ "type": "record", "name": "B", "fields": [] }',
    reference: '"B" }',
    definition: '{ "type": "record", "name": "B"',
    message: '"B" cannot be resolved (B is defined later in the same text',
  },
  {
    what: 'an include naming a record defined inline in the fields that follow it',
    text: record(
      '{ "name": "b1", "type": { "type": "record", "name": "Bar", "fields": [] } }',
      ' "include": [ "Bar" ],',
    ),
    reference: '"Bar" ]',
    definition: '{ "type": "record", "name": "Bar"',
    message: '"Bar" or "com.ex.Bar" cannot be resolved (com.ex.Bar is defined later in the same text',
  },
  {
    what: 'a typeref naming an enum defined in a later JSON value',
    text: '{ "type": "typeref", "name": "T", "ref": "E" } { "type": "enum", "name": "E", "symbols": [ "A" ] }',
    reference: '"E" }',
    definition: '{ "type": "enum"',
    message: '"E" cannot be resolved (E is defined later in the same text',
  },
];

describe('references to a schema defined later in the same text', () => {
  describe.each(forward)('$what', ({ text, reference, definition, message }) => {
    it("is refused with the reference's message, pointing at the reference and naming the definition", () => {
      const problems = schemaProblems(() => parseSchema(text));
      const def = at(text, definition);
      expect(problems).toEqual([expect.objectContaining(at(text, reference))]);
      expect(problems[0]!.message).toContain(message);
      expect(problems[0]!.message).toContain(`at line ${def.line}, column ${def.column}`);
      expect(problems[0]!.message).toContain('allowForwardReferences');
    });

    it('is accepted with allowForwardReferences, and then writes a text Rest.li accepts', () => {
      const schema = parseSchema(text, { allowForwardReferences: true });
      expect(parseSchema(schema.toString()).equals(schema)).toBe(true);
    });
  });

  it('resolves a simple name to the schema outside the namespace when the namespaced one comes later', () => {
    const text =
      '{ "type": "fixed", "name": "F", "size": 1 }\n' +
      '{ "type": "record", "name": "a.R", "fields": [ { "name": "f", "type": "F" } ] }\n' +
      '{ "type": "fixed", "name": "a.F", "size": 2 }';
    const resolver = new SchemaResolver();
    const [, r] = resolver.parseText(text) as [unknown, RecordDataSchema];
    expect(r.getField('f')!.getType().toString()).toContain('"size":1');
  });

  it('allows a record to refer to itself and to the records enclosing it', () => {
    const text = record(
      `{ "name": "self", "type": "R", "optional": true },\n  { "name": "in", "type": { "type": "record", "name": "In", "fields": [ { "name": "up", "type": "R", "optional": true } ] } }`,
    );
    expect(schemaProblems(() => parseSchema(text))).toEqual([]);
  });

  it('allows names defined in other files on the resolver path, whatever the order', () => {
    const files = new Map([
      [
        '/p/com/ex/A.pdsc',
        '{ "type": "record", "name": "com.ex.A", "fields": [ { "name": "b", "type": "B" } ] }',
      ],
      [
        '/p/com/ex/B.pdsc',
        '{ "type": "record", "name": "com.ex.B", "fields": [ { "name": "a", "type": "A", "optional": true } ] }',
      ],
    ]);
    const resolver = new SchemaResolver({
      resolverPath: ['/p'],
      fileSystem: {
        readFile: (p) => files.get(p)!,
        isFile: (p) => files.has(p),
        isDirectory: () => false,
        readDir: () => [],
      },
    });
    expect(resolver.resolve('com.ex.A').getFullName()).toBe('com.ex.A');
  });
});
