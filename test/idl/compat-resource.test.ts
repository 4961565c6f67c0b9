import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareSnapshots, type CompatChange, type CompatKind } from '../../src/idl/compat/resource-compat';
import { CompatInputError } from '../../src/idl/compat/errors';
import type { ActionSchema, IdlJsonObject, ResourceSchema, Snapshot } from '../../src/idl/restspec-model';
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

/** A change as the tables below state it: `[path, kind, class]`. */
type Seen = readonly [string, CompatKind, CompatChange['class']];

interface PairRow {
  readonly rule: string;
  readonly older: (s: Snap) => void;
  readonly newer: (s: Snap) => void;
  readonly expected: readonly Seen[];
}

function judge(row: PairRow): Seen[] {
  const older = base();
  const newer = base();
  row.older(older);
  row.newer(newer);
  return compareSnapshots(older, newer).changes.map((c) => [c.path, c.kind, c.class] as const);
}

function purge(s: Snap): Mutable<ActionSchema> {
  return coll(s).actions![0]!;
}

const legacyParameters: PairRow[] = [
  {
    rule: 'finds an action parameter written in the legacy form and with an inline schema text the same parameter',
    older: (s) => purge(s).parameters!.push({ name: 'flags', type: 'array', items: 'boolean' }),
    newer: (s) =>
      purge(s).parameters!.push({ name: 'flags', type: '{ "type" : "array", "items" : "boolean" }' }),
    expected: [['/photos/collection/actions/purge/parameters/flags', 'DEPRECATED', 'compatible']],
  },
  {
    rule: 'finds the inline schema text and the legacy form the same parameter the other way round',
    older: (s) =>
      purge(s).parameters!.push({ name: 'flags', type: '{ "type" : "array", "items" : "boolean" }' }),
    newer: (s) => purge(s).parameters!.push({ name: 'flags', type: 'array', items: 'boolean' }),
    expected: [['/photos/collection/actions/purge/parameters/flags', 'DEPRECATED', 'compatible']],
  },
  {
    rule: 'finds the legacy form and an inline schema written as a JSON object (older files) the same parameter',
    older: (s) => purge(s).parameters!.push({ name: 'flags', type: 'array', items: 'boolean' }),
    newer: (s) =>
      purge(s).parameters!.push({ name: 'flags', type: { type: 'array', items: 'boolean' } as never }),
    expected: [['/photos/collection/actions/purge/parameters/flags', 'DEPRECATED', 'compatible']],
  },
  {
    rule: 'finds a finder parameter of named items the same in both spellings',
    older: (s) =>
      coll(s).finders![0]!.parameters!.push({ name: 'tones', type: 'array', items: 'com.example.Tone' }),
    newer: (s) =>
      coll(s).finders![0]!.parameters!.push({
        name: 'tones',
        type: '{ "type" : "array", "items" : "com.example.Tone" }',
      }),
    expected: [['/photos/collection/finders/search/parameters/tones', 'DEPRECATED', 'compatible']],
  },
  {
    rule: 'still compares the item types across the two spellings',
    older: (s) => purge(s).parameters!.push({ name: 'flags', type: 'array', items: 'boolean' }),
    newer: (s) => purge(s).parameters!.push({ name: 'flags', type: '{ "type" : "array", "items" : "int" }' }),
    expected: [
      ['/photos/collection/actions/purge/parameters/flags', 'DEPRECATED', 'compatible'],
      [
        '/photos/collection/actions/purge/parameters/flags/items',
        'TYPE_BREAKS_NEW_AND_OLD_READERS',
        'breaking',
      ],
    ],
  },
  {
    rule: 'reports a legacy array parameter that becomes a non-array type as a TYPE_ERROR',
    older: (s) => purge(s).parameters!.push({ name: 'flags', type: 'array', items: 'boolean' }),
    newer: (s) => purge(s).parameters!.push({ name: 'flags', type: 'boolean' }),
    expected: [
      ['/photos/collection/actions/purge/parameters/flags', 'DEPRECATED', 'compatible'],
      ['/photos/collection/actions/purge/parameters/flags/type', 'TYPE_ERROR', 'breaking'],
    ],
  },
];

const throwsLists: PairRow[] = [
  {
    rule: 'classifies an exception no longer listed in throws as compatible',
    older: (s) => (purge(s).throws = ['com.example.PurgeFailed', 'java.io.IOException']),
    newer: (s) => (purge(s).throws = ['com.example.PurgeFailed']),
    expected: [['/photos/collection/actions/purge/throws', 'SUPERSET', 'compatible']],
  },
  {
    rule: 'classifies a dropped throws list as compatible',
    older: (s) => (purge(s).throws = ['com.example.PurgeFailed']),
    newer: () => undefined,
    expected: [['/photos/collection/actions/purge/throws', 'OPTIONAL_VALUE', 'compatible']],
  },
  {
    rule: 'classifies a newly listed exception as breaking, as Rest.li does',
    older: (s) => (purge(s).throws = ['com.example.PurgeFailed']),
    newer: (s) => (purge(s).throws = ['com.example.PurgeFailed', 'java.io.IOException']),
    expected: [['/photos/collection/actions/purge/throws', 'ARRAY_NOT_CONTAIN', 'breaking']],
  },
  {
    rule: 'classifies a throws list where there was none as breaking, as Rest.li does',
    older: () => undefined,
    newer: (s) => (purge(s).throws = ['java.io.IOException']),
    expected: [['/photos/collection/actions/purge/throws', 'VALUE_WRONG_OPTIONALITY', 'breaking']],
  },
  {
    rule: 'sees no change in a reordered throws list or an empty one',
    older: (s) => {
      purge(s).throws = ['a.A', 'b.B'];
      coll(s).entity.actions = [{ name: 'touch', throws: [] }];
    },
    newer: (s) => {
      purge(s).throws = ['b.B', 'a.A'];
      coll(s).entity.actions = [{ name: 'touch' }];
    },
    expected: [],
  },
];

const notFound = { status: 404, code: 'NO_PHOTO', message: 'No such photo' };
const serviceErrors: PairRow[] = [
  {
    rule: 'sees no change for a method that keeps an error moved from its resource onto itself',
    older: (s) => (coll(s).serviceErrors = [notFound]),
    newer: (s) => (coll(s).methods![1]!.serviceErrors = [notFound]),
    expected: [
      // `get` has NO_PHOTO either way; every other method of the resource no longer does.
      ['/photos/collection/methods/create/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_REMOVED', 'compatible'],
      [
        '/photos/collection/batchFinders/searchMany/serviceErrors/NO_PHOTO',
        'SERVICE_ERROR_REMOVED',
        'compatible',
      ],
      ['/photos/collection/finders/search/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_REMOVED', 'compatible'],
      ['/photos/collection/actions/purge/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_REMOVED', 'compatible'],
    ],
  },
  {
    rule: 'classifies an error moved from a method to its resource as added for the other methods only',
    older: (s) => (coll(s).methods![1]!.serviceErrors = [notFound]),
    newer: (s) => {
      coll(s).serviceErrors = [notFound];
      coll(s).entity.actions = [{ name: 'touch' }];
    },
    expected: [
      ['/photos/collection/methods/create/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
      [
        '/photos/collection/batchFinders/searchMany/serviceErrors/NO_PHOTO',
        'SERVICE_ERROR_ADDED',
        'breaking',
      ],
      ['/photos/collection/finders/search/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
      ['/photos/collection/actions/purge/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
      ['/photos/collection/entity/actions', 'SUPERSET', 'compatible'],
    ],
  },
  {
    rule: 'applies resource-level errors to entity actions, and compares a changed one at each method',
    older: (s) => {
      coll(s).serviceErrors = [notFound];
      coll(s).supports = ['get'];
      coll(s).methods = [{ method: 'get' }];
      coll(s).finders = [];
      coll(s).batchFinders = [];
      coll(s).actions = [];
      coll(s).entity.actions = [{ name: 'touch' }];
    },
    newer: (s) => {
      coll(s).serviceErrors = [{ ...notFound, status: 410 }];
      coll(s).supports = ['get'];
      coll(s).methods = [{ method: 'get' }];
      coll(s).finders = [];
      coll(s).batchFinders = [];
      coll(s).actions = [];
      coll(s).entity.actions = [{ name: 'touch', serviceErrors: [{ status: 409, code: 'BUSY' }] }];
    },
    expected: [
      ['/photos/collection/methods/get/serviceErrors/NO_PHOTO/status', 'VALUE_NOT_EQUAL', 'breaking'],
      [
        '/photos/collection/entity/actions/touch/serviceErrors/NO_PHOTO/status',
        'VALUE_NOT_EQUAL',
        'breaking',
      ],
      ['/photos/collection/entity/actions/touch/serviceErrors/BUSY', 'SERVICE_ERROR_ADDED', 'breaking'],
    ],
  },
  {
    rule: "does not apply a resource's errors to its subresources' methods",
    older: (s) => {
      coll(s).entity.subresources = [
        { name: 'albums', path: '/photos/{photosId}/albums', actionsSet: { actions: [{ name: 'sync' }] } },
      ];
    },
    newer: (s) => {
      coll(s).serviceErrors = [notFound];
      coll(s).entity.subresources = [
        { name: 'albums', path: '/photos/{photosId}/albums', actionsSet: { actions: [{ name: 'sync' }] } },
      ];
    },
    expected: [
      // Every method of `photos` newly carries NO_PHOTO; `albums/sync` does not.
      ['/photos/collection/methods/create/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
      ['/photos/collection/methods/get/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
      [
        '/photos/collection/batchFinders/searchMany/serviceErrors/NO_PHOTO',
        'SERVICE_ERROR_ADDED',
        'breaking',
      ],
      ['/photos/collection/finders/search/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
      ['/photos/collection/actions/purge/serviceErrors/NO_PHOTO', 'SERVICE_ERROR_ADDED', 'breaking'],
    ],
  },
];

const siteByEachSite: PairRow[] = [
  {
    rule: 'reports the same unnamed type change at every site it is made',
    older: (s) => {
      coll(s).finders![0]!.parameters!.push({ name: 'limit', type: 'string' });
      purge(s).parameters!.push({ name: 'limit', type: 'string' });
    },
    newer: (s) => {
      coll(s).finders![0]!.parameters!.push({ name: 'limit', type: 'int' });
      purge(s).parameters!.push({ name: 'limit', type: 'int' });
    },
    expected: [
      [
        '/photos/collection/finders/search/parameters/limit/type',
        'TYPE_BREAKS_NEW_AND_OLD_READERS',
        'breaking',
      ],
      [
        '/photos/collection/actions/purge/parameters/limit/type',
        'TYPE_BREAKS_NEW_AND_OLD_READERS',
        'breaking',
      ],
    ],
  },
  {
    rule: 'reports a batch size whose validation is turned on as that one change, whatever the value did',
    older: (s) => (coll(s).batchFinders![0]!.maxBatchSize = { value: 10, validate: false }),
    newer: (s) => (coll(s).batchFinders![0]!.maxBatchSize = { value: 20, validate: true }),
    expected: [
      ['/photos/collection/batchFinders/searchMany', 'MAX_BATCH_SIZE_TURN_ON_VALIDATION', 'breaking'],
    ],
  },
];

describe('compareSnapshots judges as Rest.li does (issue 26)', () => {
  describe('legacy `items` parameters', () => {
    it.each(legacyParameters.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
      expect(judge(row)).toEqual(row.expected);
    });
  });
  describe('throws lists', () => {
    it.each(throwsLists.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
      expect(judge(row)).toEqual(row.expected);
    });
  });
  describe('service errors, resource-level ones applying to each method', () => {
    it.each(serviceErrors.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
      expect(judge(row)).toEqual(row.expected);
    });
  });
  describe('type sites and batch sizes', () => {
    it.each(siteByEachSite.map((r) => [r.rule, r] as const))('%s', (_rule, row) => {
      expect(judge(row)).toEqual(row.expected);
    });
  });
});
