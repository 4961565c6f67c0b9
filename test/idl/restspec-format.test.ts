/**
 * The IDL format: files in Rest.li's format validate against our copies of the format's schemas (and print
 * back byte for byte), unknown fields are warnings, malformed files are IdlFormatErrors naming file and JSON
 * path.
 *
 * In every run, the files are a corpus of our own (test/idl/fixtures/restli-format/, hand-written in the
 * format; no file of Rest.li's is copied), which uses every field of every record of the format and every
 * construct that Rest.li's own files use. Rest.li's own `.restspec.json` and `.snapshot.json` files are
 * checked on request: point SVC_RESTLI_GIT_DIR at a git directory of https://github.com/linkedin/rest.li
 * (a bare clone, or a work tree's `.git`), e.g.
 *
 *   SVC_RESTLI_GIT_DIR=~/src/rest.li/.git npx jest test/idl/restspec-format
 *
 * Then every file of its HEAD must validate, every file its tools wrote (under `src/main/`) must print back
 * byte for byte, and the corpus must hold every construct those files use (so that the corpus is extended
 * when Rest.li's files grow a construct).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  ArrayDataSchema,
  type DataSchema,
  type IdlFormatError,
  idlJsonText,
  isSvcError,
  MapDataSchema,
  parseRestSpec,
  parseSnapshot,
  RecordDataSchema,
  restspecSchemas,
  validateRestSpec,
  validateSnapshot,
} from '../../src';

const CORPUS = join(__dirname, 'fixtures/restli-format');
const corpus = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort();
/** Hand-written inputs in older spellings, read with warnings (and not printed back). */
const isLegacy = (file: string): boolean => file.startsWith('prev-');
const RESTLI_GIT_DIR = process.env.SVC_RESTLI_GIT_DIR;

function read(file: string): string {
  return readFileSync(join(CORPUS, file), 'utf8');
}

function parse(file: string, text: string): { readonly warnings: readonly unknown[] } {
  return file.endsWith('.snapshot.json') ? parseSnapshot(text, file) : parseRestSpec(text, file);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The resource of a file: a restspec is one, a snapshot holds one as `schema`. */
function resourceOf(json: Json): Json {
  return json !== null && typeof json === 'object' && !Array.isArray(json) && 'models' in json
    ? json.schema!
    : json;
}

/**
 * The constructs a resource uses, as JSON paths with array indexes left out (`/collection/finders[]/name`):
 * a path into a subresource starts at `SUB` (whatever its depth), a custom annotation's content is `*`,
 * and an empty object or list counts as a construct of its own.
 */
function constructs(json: Json, path = '', out = new Set<string>()): Set<string> {
  if (json !== null && typeof json === 'object') {
    const entries: [string, Json][] = Array.isArray(json)
      ? json.map((v): [string, Json] => ['[]', v])
      : Object.entries(json).map(([k, v]): [string, Json] => [`/${k}`, v]);
    if (entries.length === 0) out.add(path);
    for (const [step, v] of entries) {
      const next = (path + step).replace(/^.*\/subresources\[\]/, 'SUB');
      if (/\/annotations$/.test(path)) out.add(`${next.replace(/\/[^/]*$/, '')}/*`);
      else constructs(v, next, out);
    }
  } else out.add(path);
  return out;
}

/** The `.pdsc` keywords the models of a snapshot use (the values of defaults, docs and validation aside). */
const MODEL_KEYWORDS = new Set(
  'type name namespace package doc fields include items values symbols symbolDocs deprecatedSymbols ref size default optional alias aliases deprecated order java validate'.split(
    ' ',
  ),
);
function modelKeywords(json: Json, out = new Set<string>()): Set<string> {
  if (Array.isArray(json)) {
    out.add(json.some((m) => typeof m === 'string') ? 'a model by name' : 'models');
    for (const v of json) {
      if (Array.isArray(v)) out.add('a union');
      modelKeywords(v, out);
    }
  } else if (json !== null && typeof json === 'object') {
    for (const [k, v] of Object.entries(json)) {
      if (!MODEL_KEYWORDS.has(k)) continue;
      out.add(
        k === 'type' && typeof v === 'string' && /^(record|enum|typeref|fixed|array|map)$/.test(v) ? v : k,
      );
      if (Array.isArray(v) && k === 'type') out.add('a union');
      if (!['default', 'symbolDocs', 'validate', 'java'].includes(k)) modelKeywords(v, out);
    }
  }
  return out;
}

/** `Record.field` for each field of a format record that `json` (read as `schema`) holds. */
function fieldsUsed(json: Json, schema: DataSchema, out = new Set<string>()): Set<string> {
  const s = schema.getDereferencedSchema();
  if (s instanceof RecordDataSchema && json !== null && typeof json === 'object' && !Array.isArray(json)) {
    for (const f of s.getFields()) {
      const v = json[f.getName()];
      if (v === undefined) continue;
      out.add(`${s.getName()}.${f.getName()}`);
      fieldsUsed(v, f.getType(), out);
    }
  } else if (s instanceof ArrayDataSchema && Array.isArray(json)) {
    for (const v of json) fieldsUsed(v, s.getItems(), out);
  } else if (
    s instanceof MapDataSchema &&
    json !== null &&
    typeof json === 'object' &&
    !Array.isArray(json)
  ) {
    for (const v of Object.values(json)) fieldsUsed(v, s.getValues(), out);
  }
  return out;
}

/** `Record.field` for each field of each record the format reaches from ResourceSchema. */
function formatFields(schema: DataSchema, out = new Set<string>()): Set<string> {
  const s = schema.getDereferencedSchema();
  if (s instanceof RecordDataSchema) {
    for (const f of s.getFields()) {
      const key = `${s.getName()}.${f.getName()}`;
      if (out.has(key)) continue;
      out.add(key);
      formatFields(f.getType(), out);
    }
  } else if (s instanceof ArrayDataSchema) formatFields(s.getItems(), out);
  else if (s instanceof MapDataSchema) formatFields(s.getValues(), out);
  return out;
}

function problemsOf(fn: () => unknown): { file: string; problems: { path: string; message: string }[] } {
  try {
    fn();
  } catch (err) {
    expect(isSvcError(err, 'IdlFormatError', 'SVC_ERR_IDL_FORMAT')).toBe(true);
    const e = err as IdlFormatError;
    return { file: e.file, problems: [...e.problems] };
  }
  throw new Error('expected an IdlFormatError');
}

/** A small valid collection, changed by each malformed case. */
function photos(): Record<string, unknown> {
  return {
    name: 'photos',
    namespace: 'com.example',
    path: '/photos',
    schema: 'com.example.Photo',
    collection: {
      identifier: { name: 'photosId', type: 'long' },
      supports: ['get'],
      methods: [{ method: 'get' }],
      finders: [{ name: 'byTitle', parameters: [{ name: 'title', type: 'string' }] }],
      entity: {
        path: '/photos/{photosId}',
        subresources: [
          {
            name: 'comments',
            path: '/photos/{photosId}/comments',
            schema: 'com.example.Comment',
            simple: { supports: ['get'], entity: { path: '/photos/{photosId}/comments' } },
          },
        ],
      },
    },
  };
}

describe('the format schemas', () => {
  it('hold every record of com.linkedin.restli.restspec with its fields in Rest.li order', () => {
    const schemas = restspecSchemas();
    expect([...schemas.keys()].sort()).toEqual(
      [
        'ActionSchema',
        'ActionsSetSchema',
        'AlternativeKeySchema',
        'AssocKeySchema',
        'AssociationSchema',
        'BatchFinderSchema',
        'CollectionSchema',
        'CustomAnnotationContentSchema',
        'CustomAnnotationSchema',
        'EntitySchema',
        'FinderSchema',
        'IdentifierSchema',
        'MaxBatchSizeSchema',
        'MetadataSchema',
        'ParameterSchema',
        'ResourceSchema',
        'RestMethodSchema',
        'ServiceErrorSchema',
        'ServiceErrorsSchema',
        'SimpleSchema',
        'SuccessStatusesSchema',
      ].sort(),
    );
    const fields = (name: string): string[] =>
      schemas
        .get(name)!
        .getFields()
        .map((f) => f.getName());
    expect(fields('ResourceSchema')).toEqual([
      'annotations',
      'name',
      'namespace',
      'd2ServiceName',
      'path',
      'schema',
      'entityType',
      'doc',
      'resourceClass',
      'collection',
      'association',
      'actionsSet',
      'simple',
    ]);
    expect(fields('BatchFinderSchema')).toEqual([
      'annotations',
      'serviceErrors',
      'success',
      'name',
      'javaMethodName',
      'doc',
      'parameters',
      'metadata',
      'assocKey',
      'assocKeys',
      'pagingSupported',
      'linkedBatchFinderName',
      'batchParam',
      'maxBatchSize',
    ]);
  });
});

describe('the corpus in the format (test/idl/fixtures/restli-format)', () => {
  it.each(corpus)('validates %s', (file) => {
    expect(parse(file, read(file)).warnings.length > 0).toBe(isLegacy(file));
  });

  it.each(corpus.filter((f) => !isLegacy(f)))('prints %s back byte for byte', (file) => {
    const text = read(file);
    expect(idlJsonText(JSON.parse(text) as Json)).toBe(text);
  });

  it('holds resources of every kind, subresources, snapshots and inputs in older spellings', () => {
    const kinds = corpus.map((f) => Object.keys(resourceOf(JSON.parse(read(f)) as Json) as object));
    for (const kind of ['collection', 'association', 'simple', 'actionsSet', 'actions-set'])
      expect({ kind, files: kinds.filter((k) => k.includes(kind)).length }).toEqual({
        kind,
        files: expect.any(Number) as number,
      });
    expect(kinds.filter((k) => k.includes('actions-set'))).toHaveLength(1);
    expect(corpus.filter((f) => f.endsWith('.snapshot.json')).length).toBeGreaterThanOrEqual(4);
    expect(corpus.filter(isLegacy).length).toBeGreaterThanOrEqual(3);
  });

  it('uses every field of every record of the format', () => {
    const resource = restspecSchemas().get('ResourceSchema')!;
    const used = new Set<string>();
    for (const file of corpus) fieldsUsed(resourceOf(JSON.parse(read(file)) as Json), resource, used);
    expect([...formatFields(resource)].filter((f) => !used.has(f))).toEqual([]);
  });

  it('uses every kind of model: records, enums, typerefs, fixed, arrays, maps, unions, names of earlier ones', () => {
    const used = new Set<string>();
    for (const file of corpus.filter((f) => f.endsWith('.snapshot.json')))
      modelKeywords((JSON.parse(read(file)) as { models: Json }).models, used);
    expect([...used].sort()).toEqual(
      expect.arrayContaining([
        'record',
        'enum',
        'typeref',
        'fixed',
        'array',
        'map',
        'a union',
        'a model by name',
      ]),
    );
  });

  it('reads the older spellings of hand-written files with warnings', () => {
    expect(parseRestSpec(read('prev-upkeep-as.restspec.json'), 'as.json').warnings).toEqual([
      {
        path: '/actions-set/actions/0/parameters/0/type',
        message: 'a schema object where the format has its JSON text (an older spelling): read as that text',
      },
      { path: '/actions-set', message: "an older spelling of 'actionsSet': read as that" },
    ]);
    const coll = parseRestSpec(read('prev-books-coll.restspec.json'), 'coll.json');
    expect(coll.warnings.map((w) => w.path)).toEqual(
      expect.arrayContaining([
        '/collection/actions/0/parameters/1/type',
        '/collection/methods/1/metadata/type',
        '/collection/entity/actions/0/parameters/0/type',
      ]),
    );
    expect(
      coll.warnings.filter((w) => w.message === 'unknown field, passed over').map((w) => w.path),
    ).toEqual(['/collection/finders/0/default', '/collection/actions/0/return']);
  });
});

// Opt-in (see the header): Rest.li's own files, from the git directory SVC_RESTLI_GIT_DIR names.
(RESTLI_GIT_DIR ? describe : describe.skip)("Rest.li's own files (SVC_RESTLI_GIT_DIR)", () => {
  let files: { file: string; text: string }[] = [];

  beforeAll(() => {
    const git = (args: string[], input?: string): Buffer =>
      execFileSync('git', [`--git-dir=${RESTLI_GIT_DIR!}`, ...args], { maxBuffer: 1 << 28, input });
    const names = git(['ls-tree', '-r', 'HEAD', '--name-only'])
      .toString('utf8')
      .split('\n')
      .filter((f) => /\.(restspec|snapshot)\.json$/.test(f));
    // one git process for every file: `<sha> blob <size>\n<bytes>\n` per file
    const batch = git(['cat-file', '--batch'], names.map((f) => `HEAD:${f}\n`).join(''));
    let at = 0;
    files = names.map((file) => {
      const eol = batch.indexOf(0x0a, at);
      const size = Number(batch.subarray(at, eol).toString('latin1').split(' ')[2]);
      const text = batch.subarray(eol + 1, eol + 1 + size).toString('utf8');
      at = eol + 1 + size + 1;
      return { file, text };
    });
  });

  it('validates every .restspec.json and .snapshot.json', () => {
    expect(files.length).toBeGreaterThan(200);
    const failed: string[] = [];
    for (const { file, text } of files) {
      try {
        parse(file, text);
      } catch (err) {
        failed.push((err as Error).message);
      }
    }
    expect(failed).toEqual([]);
  });

  it('prints every file its tools wrote (under src/main/) back byte for byte', () => {
    const written = files.filter((f) => f.file.includes('/src/main/'));
    expect(written.length).toBeGreaterThan(100);
    expect(
      written.filter(({ text }) => idlJsonText(JSON.parse(text) as Json) !== text).map((f) => f.file),
    ).toEqual([]);
  });

  it('uses no construct that the corpus lacks', () => {
    const ours = new Set<string>();
    const oursInModels = new Set<string>();
    for (const file of corpus) {
      const json = JSON.parse(read(file)) as Json;
      constructs(resourceOf(json), '', ours);
      if (file.endsWith('.snapshot.json')) modelKeywords((json as { models: Json }).models, oursInModels);
    }
    const missing = new Set<string>();
    for (const { text } of files) {
      const json = JSON.parse(text) as Json;
      for (const c of constructs(resourceOf(json))) if (!ours.has(c)) missing.add(c);
      if (/"models"/.test(text))
        for (const k of modelKeywords((json as { models: Json }).models))
          if (!oursInModels.has(k)) missing.add(`models: ${k}`);
    }
    expect([...missing].sort()).toEqual([]);
  });
});

describe('validateRestSpec', () => {
  it('accepts a valid resource without warnings', () => {
    expect(validateRestSpec(photos(), 'photos.restspec.json').warnings).toEqual([]);
  });

  it('passes over unknown (newer) fields with a warning naming their path', () => {
    const r = photos();
    r.newerThing = { x: 1 };
    (r.collection as Record<string, unknown>).shinyOption = true;
    const out = validateRestSpec(r, 'photos.restspec.json');
    expect(out.warnings).toEqual([
      { path: '/collection/shinyOption', message: 'unknown field, passed over' },
      { path: '/newerThing', message: 'unknown field, passed over' },
    ]);
  });

  it('takes any members in custom annotations', () => {
    const r = { ...photos(), annotations: { deprecated: { doc: 'use albums' }, custom: { a: [1, 2] } } };
    expect(validateRestSpec(r, 'f').warnings).toEqual([]);
  });

  const malformed: [string, (r: Record<string, unknown>) => unknown, string, RegExp][] = [
    ['a missing name', (r) => delete r.name, '/name', /required/],
    ['a path that is not a string', (r) => (r.path = 42), '/path', /cannot be coerced|not backed/],
    [
      'supports that is not a list',
      (r) => ((r.collection as Record<string, unknown>).supports = 'get'),
      '/collection/supports',
      /./,
    ],
    [
      'a finder parameter without a type',
      (r) => {
        const f = (r.collection as { finders: { parameters: Record<string, unknown>[] }[] }).finders[0]!;
        delete f.parameters[0]!.type;
      },
      '/collection/finders/0/parameters/0/type',
      /required/,
    ],
    [
      'a collection without an identifier',
      (r) => delete (r.collection as Record<string, unknown>).identifier,
      '/collection/identifier',
      /required/,
    ],
    [
      'a subresource without a path',
      (r) => {
        const sub = (r.collection as { entity: { subresources: Record<string, unknown>[] } }).entity
          .subresources[0]!;
        delete sub.path;
      },
      '/collection/entity/subresources/0/path',
      /required/,
    ],
    [
      'a resource of two kinds',
      (r) => (r.simple = { supports: [], entity: { path: '/photos' } }),
      '',
      /one kind, not collection and simple/,
    ],
    ['an unknown entityType', (r) => (r.entityType = 'BINARY'), '/entityType', /enum symbol/],
    [
      "an action without a name in an 'actions-set' (the older spelling is validated as actionsSet)",
      (r) => {
        delete r.collection;
        r['actions-set'] = { actions: [{ parameters: [] }] };
      },
      '/actions-set/actions/0/name',
      /required/,
    ],
  ];

  it.each(malformed)('rejects %s, naming the file and the JSON path', (_what, change, path, message) => {
    const r = photos();
    change(r);
    const { file, problems } = problemsOf(() => validateRestSpec(r, 'idl/photos.restspec.json'));
    expect(file).toBe('idl/photos.restspec.json');
    expect(problems.map((p) => p.path)).toContain(path);
    expect(problems.find((p) => p.path === path)!.message).toMatch(message);
  });

  it('names the file and every problem in the message', () => {
    const r = photos();
    delete r.name;
    delete r.path;
    expect(() => validateRestSpec(r, 'x.restspec.json')).toThrow(
      /^x\.restspec\.json is not a valid IDL file \(2 problems\):\n {2}\/name: .*\n {2}\/path: /,
    );
  });

  it('rejects resources nested deeper than the maximum depth without exhausting the stack', () => {
    let r: Record<string, unknown> = {
      name: 'leaf',
      path: '/leaf',
      simple: { supports: [], entity: { path: '/' } },
    };
    for (let i = 0; i < 5000; i++) {
      r = { name: `r${i}`, path: '/r', simple: { supports: [], entity: { path: '/r', subresources: [r] } } };
    }
    const { problems } = problemsOf(() => validateRestSpec(r, 'deep.restspec.json'));
    expect(problems.some((p) => /deeper than the maximum depth/.test(p.message))).toBe(true);
  });

  it.each([
    ['a list', []],
    ['a string', 'photos'],
    ['null', null],
  ])('rejects %s at the root', (_what, json) => {
    expect(problemsOf(() => validateRestSpec(json, 'f')).problems[0]!.path).toBe('');
  });
});

describe('parseRestSpec and parseSnapshot', () => {
  it('rejects text that is not JSON, naming the file', () => {
    const { file, problems } = problemsOf(() => parseRestSpec('{ "name" : ', 'broken.restspec.json'));
    expect(file).toBe('broken.restspec.json');
    expect(problems[0]!.message).toMatch(/^not JSON/);
  });

  const snapshots: [string, unknown, string][] = [
    ['no models', { schema: photos() }, '/models'],
    ['models that are not a list', { models: {}, schema: photos() }, '/models'],
    ['a model that is neither a schema nor a name', { models: [3], schema: photos() }, '/models/0'],
    [
      'a model that is not a valid schema',
      {
        models: [{ type: 'record', name: 'Photo', fields: [{ name: 'x', type: 'nope' }] }],
        schema: photos(),
      },
      '/models',
    ],
    ['no schema', { models: [] }, '/schema'],
    ['a schema with a problem', { models: [], schema: { ...photos(), path: 7 } }, '/schema/path'],
  ];

  it.each(snapshots)('rejects a snapshot with %s, naming the path', (_what, json, path) => {
    const { problems } = problemsOf(() => validateSnapshot(json, 'photos.snapshot.json'));
    expect(problems.map((p) => p.path)).toContain(path);
  });

  it('reads a snapshot whose models refer to schemas written before them', () => {
    const json = {
      models: [
        { type: 'enum', name: 'Format', namespace: 'com.example', symbols: ['A'] },
        {
          type: 'record',
          name: 'Photo',
          namespace: 'com.example',
          fields: [{ name: 'format', type: 'com.example.Format' }],
        },
        'com.example.Format',
      ],
      schema: photos(),
    };
    expect(validateSnapshot(json, 'f').warnings).toEqual([]);
  });
});
