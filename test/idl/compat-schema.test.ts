import { parseSchema } from '../../src/schema/schema-resolver';
import type { DataSchema } from '../../src/schema/data-schema';
import type { NamedDataSchema } from '../../src/schema/named-schema';
import {
  compareSchemas,
  compareSchemaSets,
  isErrorImpact,
  type SchemaChangeKind,
  type SchemaCompatOptions,
  type SchemaImpact,
} from '../../src/idl/compat/schema-compat';

type Json = Record<string, unknown>;

function schema(json: unknown): DataSchema {
  return parseSchema(JSON.stringify(json));
}

function photo(fields: readonly Json[], extra: Json = {}): DataSchema {
  return schema({ type: 'record', name: 'Photo', namespace: 'com.example', fields, ...extra });
}

const title = { name: 'title', type: 'string' };

interface Row {
  readonly rule: string;
  readonly older: DataSchema;
  readonly newer: DataSchema;
  readonly options?: SchemaCompatOptions;
  readonly expected: readonly {
    path: string;
    kind: SchemaChangeKind;
    impact: SchemaImpact;
    message?: string;
  }[];
}

const rows: Row[] = [
  {
    rule: 'classifies adding an optional field as compatible (old readers ignore it)',
    older: photo([title]),
    newer: photo([title, { name: 'caption', type: 'string', optional: true }]),
    expected: [
      {
        path: '/com.example.Photo',
        kind: 'FIELD_ADDED_OPTIONAL',
        impact: 'OLD_READER_IGNORES_DATA',
        message: 'new record added optional fields caption',
      },
    ],
  },
  {
    rule: 'classifies adding a required field as breaking for new readers',
    older: photo([title]),
    newer: photo([title, { name: 'owner', type: 'string' }]),
    expected: [
      {
        path: '/com.example.Photo',
        kind: 'FIELD_ADDED_REQUIRED',
        impact: 'BREAKS_NEW_READER',
        message: 'new record added required fields owner',
      },
    ],
  },
  {
    rule: 'classifies adding a required field with a default as compatible',
    older: photo([title]),
    newer: photo([title, { name: 'views', type: 'int', default: 0 }]),
    expected: [
      { path: '/com.example.Photo', kind: 'FIELD_ADDED_WITH_DEFAULT', impact: 'OLD_READER_IGNORES_DATA' },
    ],
  },
  {
    rule: 'classifies removing a required field as breaking for old readers',
    older: photo([title, { name: 'owner', type: 'string' }]),
    newer: photo([title]),
    expected: [{ path: '/com.example.Photo', kind: 'FIELD_REMOVED_REQUIRED', impact: 'BREAKS_OLD_READER' }],
  },
  {
    rule: 'classifies removing an optional field as breaking for both readers',
    older: photo([title, { name: 'caption', type: 'string', optional: true }]),
    newer: photo([title]),
    expected: [
      { path: '/com.example.Photo', kind: 'FIELD_REMOVED_OPTIONAL', impact: 'BREAKS_NEW_AND_OLD_READERS' },
    ],
  },
  {
    rule: 'classifies optional → required as breaking for new readers',
    older: photo([{ ...title, optional: true }]),
    newer: photo([title]),
    expected: [{ path: '/com.example.Photo', kind: 'OPTIONAL_TO_REQUIRED', impact: 'BREAKS_NEW_READER' }],
  },
  {
    rule: 'classifies required → optional as breaking for old readers',
    older: photo([title]),
    newer: photo([{ ...title, optional: true }]),
    expected: [{ path: '/com.example.Photo', kind: 'REQUIRED_TO_OPTIONAL', impact: 'BREAKS_OLD_READER' }],
  },
  {
    rule: 'classifies optional → required with default as breaking for both readers (Avro)',
    older: photo([{ ...title, optional: true }]),
    newer: photo([{ ...title, default: 'x' }]),
    expected: [
      {
        path: '/com.example.Photo',
        kind: 'OPTIONAL_TO_REQUIRED_WITH_DEFAULT',
        impact: 'BREAKS_NEW_AND_OLD_READERS',
      },
    ],
  },
  {
    rule: 'classifies removing a default from a required field as breaking for new readers',
    older: photo([{ ...title, default: 'x' }]),
    newer: photo([title]),
    expected: [{ path: '/com.example.Photo', kind: 'DEFAULT_REMOVED', impact: 'BREAKS_NEW_READER' }],
  },
  {
    rule: 'classifies adding a default to a required field as breaking for old readers',
    older: photo([title]),
    newer: photo([{ ...title, default: 'x' }]),
    expected: [{ path: '/com.example.Photo', kind: 'DEFAULT_ADDED', impact: 'BREAKS_OLD_READER' }],
  },
  {
    rule: 'reports a changed default as a non-breaking change',
    older: photo([{ ...title, default: 'x' }]),
    newer: photo([{ ...title, default: 'y' }]),
    expected: [
      {
        path: '/com.example.Photo/title',
        kind: 'DEFAULT_CHANGED',
        impact: 'DEFAULT_CHANGED',
        message: 'default changed from "x" to "y"',
      },
    ],
  },
  {
    rule: 'classifies a changed field type as breaking for both readers',
    older: photo([{ name: 'views', type: 'int' }]),
    newer: photo([{ name: 'views', type: 'string' }]),
    expected: [
      {
        path: '/com.example.Photo/views',
        kind: 'TYPE_CHANGED',
        impact: 'BREAKS_NEW_AND_OLD_READERS',
        message: 'schema type changed from int to string',
      },
    ],
  },
  {
    rule: 'classifies int → long as a type change without allowPromotions',
    older: photo([{ name: 'views', type: 'int' }]),
    newer: photo([{ name: 'views', type: 'long' }]),
    expected: [
      { path: '/com.example.Photo/views', kind: 'TYPE_CHANGED', impact: 'BREAKS_NEW_AND_OLD_READERS' },
    ],
  },
  {
    rule: 'classifies int → long as a promotion with allowPromotions',
    older: photo([{ name: 'views', type: 'int' }]),
    newer: photo([{ name: 'views', type: 'long' }]),
    options: { allowPromotions: true },
    expected: [
      {
        path: '/com.example.Photo/views',
        kind: 'NUMERIC_PROMOTION',
        impact: 'VALUES_MAY_BE_TRUNCATED_OR_OVERFLOW',
        message: 'numeric type promoted from int to long',
      },
    ],
  },
  {
    rule: 'refuses long → int even with allowPromotions',
    older: photo([{ name: 'views', type: 'long' }]),
    newer: photo([{ name: 'views', type: 'int' }]),
    options: { allowPromotions: true },
    expected: [
      { path: '/com.example.Photo/views', kind: 'TYPE_CHANGED', impact: 'BREAKS_NEW_AND_OLD_READERS' },
    ],
  },
  {
    rule: 'classifies an added validation rule as breaking for new readers',
    older: photo([title]),
    newer: photo([{ ...title, validate: { strlen: { max: 10 } } }]),
    expected: [{ path: '/com.example.Photo/title', kind: 'VALIDATOR_ADDED', impact: 'BREAKS_NEW_READER' }],
  },
  {
    rule: 'classifies a removed validation rule as breaking for old readers',
    older: photo([{ ...title, validate: { strlen: { max: 10 } } }]),
    newer: photo([title]),
    expected: [{ path: '/com.example.Photo/title', kind: 'VALIDATOR_REMOVED', impact: 'BREAKS_OLD_READER' }],
  },
  {
    rule: 'classifies removing an enum symbol as breaking for new readers',
    older: schema({ type: 'enum', name: 'Tone', symbols: ['FRIENDLY', 'SINCERE', 'INSULTING'] }),
    newer: schema({ type: 'enum', name: 'Tone', symbols: ['FRIENDLY', 'SINCERE'] }),
    expected: [
      {
        path: '/Tone/symbols',
        kind: 'ENUM_SYMBOLS_REMOVED',
        impact: 'BREAKS_NEW_READER',
        message: 'new enum removed symbols INSULTING',
      },
    ],
  },
  {
    rule: 'classifies adding an enum symbol as wire-compatible (ENUM_VALUE_ADDED)',
    older: schema({ type: 'enum', name: 'Tone', symbols: ['FRIENDLY'] }),
    newer: schema({ type: 'enum', name: 'Tone', symbols: ['FRIENDLY', 'SINCERE'] }),
    expected: [{ path: '/Tone/symbols', kind: 'ENUM_SYMBOLS_ADDED', impact: 'ENUM_VALUE_ADDED' }],
  },
  {
    rule: 'reports reordered enum symbols as compatible',
    older: schema({ type: 'enum', name: 'Tone', symbols: ['A', 'B'] }),
    newer: schema({ type: 'enum', name: 'Tone', symbols: ['B', 'A'] }),
    expected: [
      { path: '/Tone/symbols', kind: 'ENUM_SYMBOLS_REORDERED', impact: 'ENUM_SYMBOLS_ORDER_CHANGE' },
    ],
  },
  {
    rule: 'classifies adding a union member as breaking for old readers',
    older: photo([{ name: 'u', type: ['int'] }]),
    newer: photo([{ name: 'u', type: ['int', 'string'] }]),
    expected: [
      {
        path: '/com.example.Photo/u',
        kind: 'UNION_MEMBERS_ADDED',
        impact: 'BREAKS_OLD_READER',
        message: 'new union added members string',
      },
    ],
  },
  {
    rule: 'classifies removing a union member as breaking for new readers',
    older: photo([{ name: 'u', type: ['int', 'string'] }]),
    newer: photo([{ name: 'u', type: ['int'] }]),
    expected: [{ path: '/com.example.Photo/u', kind: 'UNION_MEMBERS_REMOVED', impact: 'BREAKS_NEW_READER' }],
  },
  {
    rule: 'classifies adding union member aliases as breaking for both readers',
    older: photo([{ name: 'u', type: ['int', 'string'] }]),
    newer: photo([
      {
        name: 'u',
        type: [
          { alias: 'count', type: 'int' },
          { alias: 'text', type: 'string' },
        ],
      },
    ]),
    expected: [
      { path: '/com.example.Photo/u', kind: 'UNION_ALIASES_ADDED', impact: 'BREAKS_NEW_AND_OLD_READERS' },
      // members are keyed by alias once aliased, so the old ones are gone and the new ones added
      { path: '/com.example.Photo/u', kind: 'UNION_MEMBERS_ADDED', impact: 'BREAKS_OLD_READER' },
      { path: '/com.example.Photo/u', kind: 'UNION_MEMBERS_REMOVED', impact: 'BREAKS_NEW_READER' },
    ],
  },
  {
    rule: 'compares array items',
    older: photo([{ name: 'tags', type: { type: 'array', items: 'string' } }]),
    newer: photo([{ name: 'tags', type: { type: 'array', items: 'int' } }]),
    expected: [
      { path: '/com.example.Photo/tags/items', kind: 'TYPE_CHANGED', impact: 'BREAKS_NEW_AND_OLD_READERS' },
    ],
  },
  {
    rule: 'compares map values',
    older: photo([{ name: 'm', type: { type: 'map', values: 'string' } }]),
    newer: photo([{ name: 'm', type: { type: 'map', values: 'long' } }]),
    expected: [
      { path: '/com.example.Photo/m/values', kind: 'TYPE_CHANGED', impact: 'BREAKS_NEW_AND_OLD_READERS' },
    ],
  },
  {
    rule: 'classifies a changed fixed size as breaking for both readers',
    older: schema({ type: 'fixed', name: 'Md5', size: 16 }),
    newer: schema({ type: 'fixed', name: 'Md5', size: 32 }),
    expected: [
      {
        path: '/Md5/size',
        kind: 'FIXED_SIZE_CHANGED',
        impact: 'BREAKS_NEW_AND_OLD_READERS',
        message: 'fixed size changed from 16 to 32',
      },
    ],
  },
  {
    rule: 'follows a typeref to its changed ref',
    older: schema({ type: 'typeref', name: 'Url', ref: 'string' }),
    newer: schema({ type: 'typeref', name: 'Url', ref: 'bytes' }),
    expected: [{ path: '/Url/ref', kind: 'TYPE_CHANGED', impact: 'BREAKS_NEW_AND_OLD_READERS' }],
  },
  {
    rule: 'classifies a typeref replacing its ref as a type change in SCHEMA mode',
    older: photo([{ name: 'url', type: 'string' }]),
    newer: photo([{ name: 'url', type: { type: 'typeref', name: 'Url', ref: 'string' } }]),
    expected: [
      {
        path: '/com.example.Photo/url/com.example.Url',
        kind: 'TYPE_CHANGED',
        impact: 'BREAKS_NEW_AND_OLD_READERS',
        message: 'schema type changed from string to typeref',
      },
    ],
  },
  {
    rule: 'sees no change when a typeref replaces its ref in DATA mode',
    older: photo([{ name: 'url', type: 'string' }]),
    newer: photo([{ name: 'url', type: { type: 'typeref', name: 'Url', ref: 'string' } }]),
    options: { mode: 'DATA' },
    expected: [],
  },
  {
    rule: 'classifies a renamed record as breaking for both readers',
    older: photo([title]),
    newer: photo([title], { name: 'Picture' }),
    expected: [
      {
        path: '/com.example.Picture',
        kind: 'NAME_CHANGED',
        impact: 'BREAKS_NEW_AND_OLD_READERS',
        message: 'name changed from com.example.Photo to com.example.Picture',
      },
    ],
  },
  {
    rule: 'classifies a changed namespace as a name change',
    older: photo([title]),
    newer: photo([title], { namespace: 'org.example' }),
    expected: [{ path: '/org.example.Photo', kind: 'NAME_CHANGED', impact: 'BREAKS_NEW_AND_OLD_READERS' }],
  },
  {
    rule: 'ignores name changes when checkNames is false',
    older: photo([title]),
    newer: photo([title], { name: 'Picture' }),
    options: { checkNames: false },
    expected: [],
  },
  {
    rule: 'reports nothing for equal schemas',
    older: photo([title, { name: 'tags', type: { type: 'array', items: 'string' } }]),
    newer: photo([title, { name: 'tags', type: { type: 'array', items: 'string' } }]),
    expected: [],
  },
];

describe('compareSchemas', () => {
  it.each(rows.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
    const changes = compareSchemas(row.older, row.newer, row.options);
    expect(changes.map((c) => ({ path: c.path, kind: c.kind, impact: c.impact }))).toEqual(
      row.expected.map((e) => ({ path: e.path, kind: e.kind, impact: e.impact })),
    );
    row.expected.forEach((e, i) => {
      if (e.message !== undefined) expect(changes[i]!.message).toBe(e.message);
    });
  });

  it('ends on recursive schemas', () => {
    const node = (extra: Json[]): DataSchema =>
      schema({
        type: 'record',
        name: 'Node',
        fields: [{ name: 'children', type: { type: 'array', items: 'Node' } }, ...extra],
      });
    const changes = compareSchemas(node([]), node([{ name: 'v', type: 'int', optional: true }]));
    expect(changes.map((c) => c.kind)).toEqual(['FIELD_ADDED_OPTIONAL']);
  });

  it('counts only reader- and client-breaking impacts as errors', () => {
    const errors: SchemaImpact[] = [
      'BREAKS_NEW_READER',
      'BREAKS_OLD_READER',
      'BREAKS_NEW_AND_OLD_READERS',
      'BREAK_OLD_CLIENTS',
    ];
    const others: SchemaImpact[] = [
      'OLD_READER_IGNORES_DATA',
      'NEW_READER_IGNORES_DATA',
      'VALUES_MAY_BE_TRUNCATED_OR_OVERFLOW',
      'ENUM_VALUE_ADDED',
      'ENUM_SYMBOLS_ORDER_CHANGE',
      'NEW_SCHEMA_ADDED',
      'DEFAULT_CHANGED',
    ];
    expect(errors.map(isErrorImpact)).toEqual(errors.map(() => true));
    expect(others.map(isErrorImpact)).toEqual(others.map(() => false));
  });
});

describe('compareSchemaSets', () => {
  function set(...schemas: DataSchema[]): Map<string, NamedDataSchema> {
    return new Map(schemas.map((s) => [(s as NamedDataSchema).getFullName(), s as NamedDataSchema]));
  }

  it('classifies a removed schema as breaking old clients and an added one as new', () => {
    const tone = schema({ type: 'enum', name: 'Tone', symbols: ['A'] });
    const md5 = schema({ type: 'fixed', name: 'Md5', size: 16 });
    const changes = compareSchemaSets(set(tone), set(md5));
    expect(changes.map((c) => [c.path, c.kind, c.impact])).toEqual([
      ['/Md5', 'SCHEMA_ADDED', 'NEW_SCHEMA_ADDED'],
      ['/Tone', 'SCHEMA_REMOVED', 'BREAK_OLD_CLIENTS'],
    ]);
  });

  it('reports a change of a schema nested in another once', () => {
    const v1 = parseSchema(
      JSON.stringify({
        type: 'record',
        name: 'A',
        fields: [{ name: 't', type: { type: 'enum', name: 'T', symbols: ['X', 'Y'] } }],
      }),
    ) as NamedDataSchema;
    const v2 = parseSchema(
      JSON.stringify({
        type: 'record',
        name: 'A',
        fields: [{ name: 't', type: { type: 'enum', name: 'T', symbols: ['X'] } }],
      }),
    ) as NamedDataSchema;
    const t1 = (v1 as unknown as { getField(n: string): { getType(): NamedDataSchema } })
      .getField('t')
      .getType();
    const t2 = (v2 as unknown as { getField(n: string): { getType(): NamedDataSchema } })
      .getField('t')
      .getType();
    const changes = compareSchemaSets(set(v1, t1), set(v2, t2));
    expect(changes.map((c) => [c.path, c.kind])).toEqual([['/A/t/T/symbols', 'ENUM_SYMBOLS_REMOVED']]);
  });
});
