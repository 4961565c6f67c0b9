import Ajv2020 from 'ajv/dist/2020';
import { JsonSchemaTranslator, type JsonSchema, type OpenApiJsonValue as JsonValue } from '../../src/openapi';
import type { NamedDataSchema } from '../../src/schema';
import { parsePdl } from '../../src/schema';

/**
 * Pegasus → JSON Schema 2020-12, judged by Ajv's 2020-12 validator: per schema, the JSON values a Rest.li
 * service takes are valid and the ones it refuses are not.
 */

const PDL = `namespace com.example.t

/** A record of every kind of field. */
record Everything {
  /** A long: 64 bits. */
  id: long
  name: optional string
  /** Defaulted: may be left out. */
  tags: array[string] = ["a"]
  size: int = 3
  @deprecated = "use size"
  oldSize: optional int
  kind: enum Kind { A, @deprecated B }
  digest: fixed MD5 4
  blob: optional bytes
  counts: optional map[string, long]
  when: optional typeref Time = long
  value: optional union[null, int, string, Everything]
  aliased: optional union[
    /** By number. */
    num: int,
    text: string
  ]
}`;

const schema = parsePdl(PDL) as NamedDataSchema;

function componentsOf(root: NamedDataSchema): Record<string, JsonSchema> {
  const t = new JsonSchemaTranslator();
  t.use(root);
  const out: Record<string, JsonSchema> = {};
  for (;;) {
    const next = [...t.referenced].filter(([n]) => out[n] === undefined);
    if (next.length === 0) return out;
    for (const [n, s] of next) out[n] = t.named(s);
  }
}

const components = componentsOf(schema);
const ajv = new Ajv2020({ strict: false });
for (const [name, s] of Object.entries(components)) ajv.addSchema(s, `#/components/schemas/${name}`);
const validate = ajv.compile({
  $ref: '#/components/schemas/com.example.t.Everything',
  $defs: {},
});

const base = { id: 9007199254740992, kind: 'A', digest: 'abcd' };

const valid: readonly [string, Record<string, JsonValue>][] = [
  ['only the required fields', base],
  ['optional and defaulted fields', { ...base, name: 'x', tags: [], size: 1, oldSize: 2 }],
  ['bytes as code points up to U+00FF', { ...base, blob: '\u0000\u00ff' }],
  ['a map of longs', { ...base, counts: { a: 1, b: 2 } }],
  ['a typeref as its type', { ...base, when: 5 }],
  ['a union member by its key', { ...base, value: { int: 1 } }],
  ['a union null member as null', { ...base, value: null }],
  ['a union record member by its full name', { ...base, value: { 'com.example.t.Everything': base } }],
  ['an aliased union member by its alias', { ...base, aliased: { num: 3 } }],
];

const invalid: readonly [string, Record<string, JsonValue>][] = [
  ['a required field left out', { kind: 'A', digest: 'abcd' }],
  ['a long that is not an integer', { ...base, id: 1.5 }],
  ['an unknown enum symbol', { ...base, kind: 'C' }],
  ['a fixed of the wrong size', { ...base, digest: 'abc' }],
  ['bytes beyond U+00FF', { ...base, blob: '\u0100' }],
  ['a union with two members', { ...base, value: { int: 1, string: 'x' } }],
  ['an aliased union member by its type', { ...base, aliased: { int: 3 } }],
  ['a map value of the wrong type', { ...base, counts: { a: 'x' } }],
];

describe('Pegasus schemas as JSON Schema 2020-12', () => {
  it.each(valid)('takes %s', (_name, value) => {
    expect(validate(value)).toBe(true);
  });

  it.each(invalid)('refuses %s', (_name, value) => {
    expect(validate(value)).toBe(false);
  });

  it('keeps docs, defaults, formats and deprecations', () => {
    const everything = components['com.example.t.Everything']!;
    const props = everything.properties as Record<string, Record<string, JsonValue>>;
    expect(everything).toMatchObject({
      title: 'Everything',
      description: 'A record of every kind of field.',
    });
    expect(everything.required).toEqual(['id', 'kind', 'digest']);
    expect(props.id).toEqual({ type: 'integer', format: 'int64', description: 'A long: 64 bits.' });
    expect(props.tags).toMatchObject({ default: ['a'], description: 'Defaulted: may be left out.' });
    expect(props.oldSize).toMatchObject({ deprecated: true, description: 'Deprecated: use size' });
    expect(components['com.example.t.Kind']).toMatchObject({
      enum: ['A', 'B'],
      'x-deprecated-symbols': { B: true },
    });
    expect(components['com.example.t.MD5']).toMatchObject({ type: 'string', minLength: 4, maxLength: 4 });
    expect(components['com.example.t.Time']).toMatchObject({
      type: 'integer',
      format: 'int64',
      'x-restli-typeref': 'long',
    });
  });
});
