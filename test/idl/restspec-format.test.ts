/**
 * The IDL format: real Rest.li files validate against our copies of the format's schemas (and print back
 * byte for byte), unknown fields are warnings, malformed files are IdlFormatErrors naming file and JSON path.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type IdlFormatError,
  idlJsonText,
  isSvcError,
  parseRestSpec,
  parseSnapshot,
  restspecSchemas,
  validateRestSpec,
  validateSnapshot,
} from '../../src';

const FIXTURES = join(__dirname, 'fixtures/rest.li');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
const MIRROR = '/work/.mirror/linkedin+rest.li/repo';

function read(file: string): string {
  return readFileSync(join(FIXTURES, file), 'utf8');
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

describe('real Rest.li files', () => {
  it.each(fixtures)('validates %s', (file) => {
    const text = read(file);
    const parsed = file.endsWith('.snapshot.json') ? parseSnapshot(text, file) : parseRestSpec(text, file);
    const legacy = file.startsWith('prev-');
    expect(parsed.warnings.length > 0).toBe(legacy);
  });

  it.each(fixtures.filter((f) => !f.startsWith('prev-')))('prints %s back byte for byte', (file) => {
    const text = read(file);
    expect(idlJsonText(JSON.parse(text))).toBe(text);
  });

  const inMirror = existsSync(MIRROR) ? it : it.skip;
  inMirror('validates every .restspec.json and .snapshot.json in the Rest.li repository', () => {
    const git = (args: string[], input?: string): Buffer =>
      execFileSync('git', [`--git-dir=${MIRROR}`, ...args], { maxBuffer: 1 << 28, input });
    const files = git(['ls-tree', '-r', 'HEAD', '--name-only'])
      .toString('utf8')
      .split('\n')
      .filter((f) => /\.(restspec|snapshot)\.json$/.test(f));
    expect(files.length).toBeGreaterThan(200);
    // one git process for every file: `<sha> blob <size>\n<bytes>\n` per file
    const batch = git(['cat-file', '--batch'], files.map((f) => `HEAD:${f}\n`).join(''));
    const failed: string[] = [];
    let at = 0;
    for (const file of files) {
      const eol = batch.indexOf(0x0a, at);
      const size = Number(batch.subarray(at, eol).toString('latin1').split(' ')[2]);
      const text = batch.subarray(eol + 1, eol + 1 + size).toString('utf8');
      at = eol + 1 + size + 1;
      try {
        if (file.endsWith('.snapshot.json')) parseSnapshot(text, file);
        else parseRestSpec(text, file);
      } catch (err) {
        failed.push((err as Error).message);
      }
    }
    expect(failed).toEqual([]);
  });

  it('reads the older spellings of hand-written files with warnings', () => {
    const as = parseRestSpec(read('prev-greetings-as.restspec.json'), 'as.json');
    expect(as.warnings).toEqual([
      { path: '/actions-set', message: "an older spelling of 'actionsSet': read as that" },
    ]);
    const coll = parseRestSpec(read('prev-greetings-coll.restspec.json'), 'coll.json');
    expect(coll.warnings.map((w) => w.path)).toContain('/collection/actions/0/parameters/3/type');
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
