import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareSnapshots, type CompatChange, type CompatKind } from '../../src/idl/compat/resource-compat';
import { CompatInputError } from '../../src/idl/compat/errors';
import type { IdlJsonObject, ResourceSchema, Snapshot } from '../../src/idl/restspec-model';
import { parseSnapshot } from '../../src/idl/validate-restspec';

type Mutable<T> = T extends readonly (infer U)[]
  ? Mutable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;
type Snap = Mutable<Snapshot>;

const photo = {
  type: 'record',
  name: 'Photo',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'title', type: 'string' },
  ],
};
const criteria = {
  type: 'record',
  name: 'PhotoCriteria',
  namespace: 'com.example',
  fields: [{ name: 'title', type: 'string' }],
};
const tone = { type: 'enum', name: 'Tone', namespace: 'com.example', symbols: ['FRIENDLY', 'SINCERE'] };

function base(): Snap {
  const resource: ResourceSchema = {
    name: 'photos',
    namespace: 'com.example',
    path: '/photos',
    schema: 'com.example.Photo',
    collection: {
      identifier: { name: 'photosId', type: 'long' },
      supports: ['create', 'get'],
      methods: [{ method: 'create' }, { method: 'get' }],
      finders: [
        {
          name: 'search',
          parameters: [
            { name: 'q', type: 'string' },
            { name: 'tone', type: 'com.example.Tone', optional: true },
          ],
        },
      ],
      batchFinders: [
        {
          name: 'searchMany',
          batchParam: 'criteria',
          parameters: [
            { name: 'criteria', type: '{ "type" : "array", "items" : "com.example.PhotoCriteria" }' },
          ],
        },
      ],
      actions: [{ name: 'purge', parameters: [{ name: 'before', type: 'long' }], returns: 'int' }],
      entity: { path: '/photos/{photosId}' },
    },
  };
  return JSON.parse(JSON.stringify({ models: [photo, criteria, tone], schema: resource })) as Snap;
}

function coll(s: Snap): Mutable<NonNullable<ResourceSchema['collection']>> {
  return s.schema.collection!;
}

function model(
  s: Snap,
  name: string,
): Mutable<IdlJsonObject> & {
  fields: { name: string; type: unknown; optional?: boolean }[];
  symbols: string[];
} {
  return s.models.find((m) => typeof m !== 'string' && m.name === name) as never;
}

interface Row {
  readonly rule: string;
  readonly change: (s: Snap) => void;
  readonly expected: readonly { path: string; kind: CompatKind; class: CompatChange['class'] }[];
  readonly directional?: boolean;
}

const rows: Row[] = [
  {
    rule: 'classifies adding an optional field to a model as compatible',
    change: (s) => model(s, 'Photo').fields.push({ name: 'caption', type: 'string', optional: true }),
    expected: [{ path: '/models/com.example.Photo', kind: 'TYPE_INFO', class: 'compatible' }],
  },
  {
    rule: 'classifies adding a required field to a model as breaking (new readers)',
    change: (s) => model(s, 'Photo').fields.push({ name: 'owner', type: 'string' }),
    expected: [{ path: '/models/com.example.Photo', kind: 'TYPE_BREAKS_NEW_READER', class: 'breaking' }],
  },
  {
    rule: 'classifies removing an enum symbol as breaking (new readers)',
    change: (s) => model(s, 'Tone').symbols.pop(),
    expected: [
      { path: '/models/com.example.Tone/symbols', kind: 'TYPE_BREAKS_NEW_READER', class: 'breaking' },
    ],
  },
  {
    rule: 'classifies adding an enum symbol as wire-compatible but not binding-compatible',
    change: (s) => model(s, 'Tone').symbols.push('INSULTING'),
    expected: [
      { path: '/models/com.example.Tone/symbols', kind: 'ENUM_VALUE_ADDED', class: 'wire-compatible' },
    ],
  },
  {
    rule: 'classifies removing a finder as breaking',
    change: (s) => (coll(s).finders = []),
    expected: [{ path: '/photos/collection/finders', kind: 'ARRAY_MISSING_ELEMENT', class: 'breaking' }],
  },
  {
    rule: 'classifies adding a finder as compatible',
    change: (s) => coll(s).finders!.push({ name: 'byTone', parameters: [] }),
    expected: [{ path: '/photos/collection/finders', kind: 'SUPERSET', class: 'compatible' }],
  },
  {
    rule: 'classifies removing an action parameter as breaking',
    change: (s) => (coll(s).actions![0]!.parameters = []),
    expected: [
      {
        path: '/photos/collection/actions/purge/parameters',
        kind: 'ARRAY_MISSING_ELEMENT',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies adding a required finder parameter as breaking (old clients do not send it)',
    change: (s) => coll(s).finders![0]!.parameters!.push({ name: 'owner', type: 'string' }),
    expected: [
      {
        path: '/photos/collection/finders/search/parameters/owner',
        kind: 'PARAMETER_NEW_REQUIRED',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies adding an optional finder parameter as compatible',
    change: (s) => coll(s).finders![0]!.parameters!.push({ name: 'owner', type: 'string', optional: true }),
    expected: [
      {
        path: '/photos/collection/finders/search/parameters/owner',
        kind: 'PARAMETER_NEW_OPTIONAL',
        class: 'compatible',
      },
    ],
  },
  {
    rule: 'classifies adding a parameter with a default as compatible',
    change: (s) => coll(s).finders![0]!.parameters!.push({ name: 'count', type: 'int', default: '10' }),
    expected: [
      {
        path: '/photos/collection/finders/search/parameters/count',
        kind: 'PARAMETER_NEW_OPTIONAL',
        class: 'compatible',
      },
    ],
  },
  {
    rule: 'classifies an optional parameter made required as breaking',
    change: (s) => (coll(s).finders![0]!.parameters![1]!.optional = false),
    expected: [
      {
        path: '/photos/collection/finders/search/parameters/tone/optional',
        kind: 'PARAMETER_WRONG_OPTIONALITY',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies a required parameter made optional as compatible',
    change: (s) => (coll(s).finders![0]!.parameters![0]!.optional = true),
    expected: [
      {
        path: '/photos/collection/finders/search/parameters/q',
        kind: 'OPTIONAL_PARAMETER',
        class: 'compatible',
      },
    ],
  },
  {
    rule: 'classifies a changed parameter type as breaking',
    change: (s) => (coll(s).finders![0]!.parameters![0]!.type = 'int'),
    expected: [
      {
        path: '/photos/collection/finders/search/parameters/q/type',
        kind: 'TYPE_BREAKS_NEW_AND_OLD_READERS',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies adding an optional batch-finder criteria field as compatible (the evolution path)',
    change: (s) =>
      model(s, 'PhotoCriteria').fields.push({ name: 'tone', type: 'com.example.Tone', optional: true }),
    expected: [{ path: '/models/com.example.PhotoCriteria', kind: 'TYPE_INFO', class: 'compatible' }],
  },
  {
    rule: 'classifies adding a required batch-finder criteria field as breaking',
    change: (s) => model(s, 'PhotoCriteria').fields.push({ name: 'owner', type: 'string' }),
    expected: [
      { path: '/models/com.example.PhotoCriteria', kind: 'TYPE_BREAKS_NEW_READER', class: 'breaking' },
    ],
  },
  {
    rule: 'classifies a removed supported method as breaking and an added one as compatible',
    change: (s) => {
      coll(s).supports = ['create', 'delete'];
      coll(s).methods = [{ method: 'create' }, { method: 'delete' }];
    },
    expected: [
      { path: '/photos/collection/supports', kind: 'ARRAY_NOT_CONTAIN', class: 'breaking' },
      { path: '/photos/collection/supports', kind: 'SUPERSET', class: 'compatible' },
      { path: '/photos/collection/methods', kind: 'ARRAY_MISSING_ELEMENT', class: 'breaking' },
      { path: '/photos/collection/methods', kind: 'SUPERSET', class: 'compatible' },
    ],
  },
  {
    rule: 'classifies a changed key type as breaking',
    change: (s) => (coll(s).identifier.type = 'string'),
    expected: [
      {
        path: '/photos/collection/identifier/type',
        kind: 'TYPE_BREAKS_NEW_AND_OLD_READERS',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies a changed resource kind as breaking',
    change: (s) => {
      const c = coll(s);
      delete (s.schema as { collection?: unknown }).collection;
      s.schema.simple = { supports: c.supports, methods: c.methods, entity: { path: '/photos' } };
    },
    expected: [{ path: '/photos/collection', kind: 'VALUE_WRONG_OPTIONALITY', class: 'breaking' }],
  },
  {
    rule: 'classifies a changed action return type as breaking',
    change: (s) => (coll(s).actions![0]!.returns = 'string'),
    expected: [
      {
        path: '/photos/collection/actions/purge/returns',
        kind: 'TYPE_BREAKS_NEW_AND_OLD_READERS',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies adding paging support as compatible',
    change: (s) => {
      coll(s).finders![0]!.pagingSupported = true;
    },
    expected: [{ path: '/photos/collection/finders/search', kind: 'PAGING_ADDED', class: 'compatible' }],
  },
  {
    rule: 'classifies a new service error as breaking',
    change: (s) => (coll(s).finders![0]!.serviceErrors = [{ status: 400, code: 'BAD_QUERY' }]),
    expected: [
      {
        path: '/photos/collection/finders/search/serviceErrors/BAD_QUERY',
        kind: 'SERVICE_ERROR_ADDED',
        class: 'breaking',
      },
    ],
  },
  {
    rule: 'classifies a changed doc as compatible',
    change: (s) => (s.schema.doc = 'Photos.'),
    expected: [{ path: '/photos/doc', kind: 'DOC_NOT_EQUAL', class: 'compatible' }],
  },
  {
    rule: 'sees no change when an empty subresource list is written',
    change: (s) => {
      coll(s).entity.subresources = [];
    },
    expected: [],
  },
  {
    rule: 'compares entity subresources recursively',
    change: (s) => {
      coll(s).entity.subresources = [
        {
          name: 'albums',
          path: '/photos/{photosId}/albums',
          actionsSet: { actions: [{ name: 'sync', parameters: [{ name: 'x', type: 'int' }] }] },
        },
      ];
    },
    expected: [{ path: '/photos/collection/entity/subresources', kind: 'SUPERSET', class: 'compatible' }],
  },
  {
    rule: 'judges a response-only model change by its reader when directional',
    change: (s) => {
      coll(s).supports = ['get'];
      coll(s).methods = [{ method: 'get' }];
      model(s, 'Photo').fields.push({ name: 'owner', type: 'string' });
    },
    directional: true,
    expected: [
      { path: '/photos/collection/supports', kind: 'ARRAY_NOT_CONTAIN', class: 'breaking' },
      { path: '/photos/collection/methods', kind: 'ARRAY_MISSING_ELEMENT', class: 'breaking' },
      { path: '/models/com.example.Photo', kind: 'TYPE_INFO', class: 'compatible' },
    ],
  },
  {
    rule: 'still counts a required field added to request data as breaking when directional',
    change: (s) => model(s, 'PhotoCriteria').fields.push({ name: 'owner', type: 'string' }),
    directional: true,
    expected: [
      { path: '/models/com.example.PhotoCriteria', kind: 'TYPE_BREAKS_NEW_READER', class: 'breaking' },
    ],
  },
];

describe('compareSnapshots', () => {
  it('finds no change between equal snapshots', () => {
    expect(compareSnapshots(base(), base()).changes).toEqual([]);
  });

  it.each(rows.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
    const older = base();
    const newer = base();
    row.change(newer);
    const changes = compareSnapshots(older, newer, { directional: row.directional ?? false }).changes;
    expect(changes.map((c) => ({ path: c.path, kind: c.kind, class: c.class }))).toEqual(row.expected);
  });

  it('classifies a removed subresource as breaking', () => {
    const older = base();
    coll(older).entity.subresources = [
      { name: 'albums', path: '/photos/{photosId}/albums', actionsSet: { actions: [] } },
    ];
    const changes = compareSnapshots(older, base()).changes;
    expect(changes.map((c) => [c.path, c.kind, c.class])).toEqual([
      ['/photos/collection/entity/subresources', 'ARRAY_MISSING_ELEMENT', 'breaking'],
    ]);
  });

  it('classifies removing paging support as breaking', () => {
    const older = base();
    coll(older).finders![0]!.pagingSupported = true;
    expect(compareSnapshots(older, base()).changes.map((c) => [c.path, c.kind, c.class])).toEqual([
      ['/photos/collection/finders/search', 'PAGING_REMOVED', 'breaking'],
    ]);
  });

  it('notes who reads the data of a changed type', () => {
    const newer = base();
    model(newer, 'PhotoCriteria').fields.push({ name: 'x', type: 'int', optional: true });
    expect(compareSnapshots(base(), newer).changes[0]!.usage).toBe('request');
  });

  it('reports a type that cannot be resolved as TYPE_UNKNOWN', () => {
    const newer = base();
    coll(newer).finders![0]!.parameters![0]!.type = 'com.example.Missing';
    const changes = compareSnapshots(base(), newer).changes;
    expect(changes.map((c) => [c.path, c.kind])).toEqual([
      ['/photos/collection/finders/search/parameters/q/type', 'TYPE_UNKNOWN'],
    ]);
  });

  it('rejects models that do not parse with a CompatInputError naming the file', () => {
    const newer = base();
    newer.models.push({ type: 'record', name: 'Bad', fields: [{ name: 'x', type: 'nope' }] });
    expect(() =>
      compareSnapshots(base(), newer, { files: { older: 'a.snapshot.json', newer: 'b.snapshot.json' } }),
    ).toThrow(
      expect.objectContaining({
        name: 'CompatInputError',
        code: 'SVC_ERR_COMPAT_INPUT',
        file: 'b.snapshot.json',
        path: '/models',
      }),
    );
    expect(CompatInputError).toBeDefined();
  });
});

describe('compareSnapshots over Rest.li snapshot pairs', () => {
  const dir = join(__dirname, 'fixtures/compat/restli');
  const read = (name: string): Snapshot => parseSnapshot(readFileSync(join(dir, name), 'utf8'), name).value;

  it('finds the twitter statuses snapshot equal to itself', () => {
    const s = read('twitter-statuses.snapshot.json');
    expect(compareSnapshots(s, s).changes).toEqual([]);
  });

  it('classifies the changes Rest.li finds between the statuses snapshot and its incompatible IDL', () => {
    const older = read('twitter-statuses.snapshot.json');
    const newer = JSON.parse(
      readFileSync(join(dir, 'twitter-statuses-incompatible.restspec.json'), 'utf8'),
    ) as ResourceSchema;
    const changes = compareSnapshots(older, { schema: newer }).changes;
    expect(changes.map((c) => [c.path, c.kind, c.class])).toEqual(
      expect.arrayContaining([
        ['/statuses/collection/identifier/type', 'TYPE_BREAKS_NEW_AND_OLD_READERS', 'breaking'],
        ['/statuses/collection/supports', 'ARRAY_NOT_CONTAIN', 'breaking'],
        ['/statuses/collection/alternativeKeys', 'ARRAY_MISSING_ELEMENT', 'breaking'],
        ['/statuses/collection/alternativeKeys', 'SUPERSET', 'compatible'],
        ['/statuses/collection/alternativeKeys/alt/type', 'VALUE_NOT_EQUAL', 'breaking'],
        ['/statuses/collection/alternativeKeys/alt/keyCoercer', 'VALUE_NOT_EQUAL', 'breaking'],
      ]),
    );
  });

  it('classifies the ReadOnly / CreateOnly annotation changes of the failing validation-demos pair', () => {
    const changes = compareSnapshots(
      read('prev-validationdemos.snapshot.json'),
      read('curr-validationdemos-fail.snapshot.json'),
    ).changes;
    const annotations = changes
      .filter((c) => c.kind.startsWith('ANNOTATION_CHANGE_'))
      .map((c) => [c.path, c.kind, c.class]);
    expect(annotations).toEqual([
      ['/validationDemos/annotations/intB', 'ANNOTATION_CHANGE_BREAKS_OLD_CLIENT', 'breaking'],
      ['/validationDemos/annotations/intA', 'ANNOTATION_CHANGE_MAY_REQUIRE_CLIENT_CODE_CHANGE', 'breaking'],
      [
        '/validationDemos/annotations/validationDemoNext/stringB',
        'ANNOTATION_CHANGE_BREAKS_NEW_SERVER',
        'breaking',
      ],
      [
        '/validationDemos/annotations/validationDemoNext/intA',
        'ANNOTATION_CHANGE_BREAKS_OLD_CLIENT',
        'breaking',
      ],
      [
        '/validationDemos/annotations/stringB',
        'ANNOTATION_CHANGE_MAY_REQUIRE_CLIENT_CODE_CHANGE',
        'breaking',
      ],
      ['/validationDemos/annotations/intB', 'ANNOTATION_CHANGE_MAY_REQUIRE_CLIENT_CODE_CHANGE', 'breaking'],
    ]);
  });

  it('passes the validation-demos pair Rest.li calls compatible, with no breaking change', () => {
    const changes = compareSnapshots(
      read('prev-validationdemos.snapshot.json'),
      read('curr-validationdemos-pass.snapshot.json'),
    ).changes;
    expect(changes.filter((c) => c.class === 'breaking')).toEqual([]);
  });
});
