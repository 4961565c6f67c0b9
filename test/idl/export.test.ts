/**
 * Export of the interface description: resource definitions and interfaces → `.restspec.json` and
 * `.snapshot.json`, each validated against the format's schemas, in the shapes and order Rest.li writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { of } from 'rxjs';
import {
  BOOLEAN,
  INT,
  LONG,
  LONG_KEY,
  STRING,
  type IdlJsonObject,
  type ResourceSchema,
  type Snapshot,
  action,
  actionSpec,
  arrayOf,
  assocKey,
  association,
  batchFinder,
  BatchFinderResult,
  collection,
  collectionInterface,
  complexKey,
  criteriaOf,
  entityAction,
  enumOf,
  exportIdl,
  exportResource,
  finder,
  finderSpec,
  idlFileTexts,
  implement,
  isSvcError,
  optional,
  recordOf,
  simple,
  validateRestSpec,
  validateSnapshot,
} from '../../src';
import { Album } from '../generated/fixtures/com/example/photos/Album';
import { AlbumEntry } from '../generated/fixtures/com/example/photos/AlbumEntry';
import { Caption } from '../generated/fixtures/com/example/photos/Caption';
import { Exif } from '../generated/fixtures/com/example/photos/Exif';
import { Photo } from '../generated/fixtures/com/example/photos/Photo';
import { PhotoCriteria } from '../generated/fixtures/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../generated/fixtures/com/example/photos/PhotoFormat';
import { Locale } from '../generated/fixtures/com/example/common/Locale';
import { Money } from '../generated/fixtures/com/example/common/Money';

const REAL = join(__dirname, 'fixtures/rest.li');

function real(file: string): ResourceSchema {
  return JSON.parse(readFileSync(join(REAL, file), 'utf8')) as ResourceSchema;
}

const none = (): undefined => undefined;

const comments = collection({
  name: 'comments',
  key: LONG_KEY,
  value: Caption,
  methods: { get: none, delete: none },
});
const likes = simple({ name: 'likes', value: Caption, methods: { get: none } });

/** A collection with every kind of method. */
const photos = collection({
  name: 'photos',
  namespace: 'com.example.photos',
  doc: 'Photos.',
  key: LONG_KEY,
  value: Photo,
  methods: {
    get: none,
    create: () => ({ id: 1 }),
    batchGet: () => new Map(),
    delete: none,
    partialUpdate: none,
    update: none,
    getAll: finder({ params: { since: optional(LONG, 0) }, paging: true }, () => []),
    finders: {
      titleAndOrFormat: finder(
        { params: { title: optional(STRING), format: optional(enumOf(PhotoFormat)) }, doc: 'By title.' },
        () => [],
      ),
      byTags: finder({ params: { tags: arrayOf(STRING), exact: optional(BOOLEAN, false) } }, () => []),
    },
    batchFinders: {
      searchPhotos: batchFinder(
        {
          batchParam: 'criteria',
          params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) },
          maxBatchSize: 10,
        },
        () => new BatchFinderResult(),
      ),
    },
    actions: {
      purge: action({ params: { before: LONG }, returns: INT }, () => 0),
      archive: action({ params: { ids: arrayOf(LONG), note: optional(STRING, 'none') } }, none),
    },
    entityActions: {
      rotate: entityAction({ key: LONG_KEY, params: { degrees: INT }, returns: recordOf(Photo) }, () =>
        of(new Photo()),
      ),
    },
  },
  subresources: [likes, comments],
});

const albumEntries = association({
  name: 'albumEntries',
  namespace: 'com.example.photos',
  assocKeys: { photoId: LONG, albumId: LONG },
  value: AlbumEntry,
  methods: {
    get: none,
    batchGet: () => new Map(),
    finders: { byAlbum: finder({ params: { albumId: assocKey(LONG), q2: optional(STRING) } }, () => []) },
  },
});

const settings = simple({
  name: 'settings',
  value: Album,
  methods: {
    get: none,
    update: none,
    actions: { reset: action({ returns: BOOLEAN }, () => true) },
  },
});

const keyed = collection({
  name: 'prices',
  namespace: 'com.example.shop',
  key: complexKey(Locale, Money),
  value: Album,
  methods: { get: none },
});

const keyedNoParams = collection({
  name: 'locales',
  key: complexKey(Locale),
  value: Album,
  methods: { get: none },
});

/** Svc has no actions-only resource kind yet; the exporter describes one given this shape. */
const ops = {
  kind: 'actionsSet',
  name: 'ops',
  namespace: 'com.example',
  actions: { ping: action({}, none) },
};

function one(def: unknown): ResourceSchema {
  return exportResource(def).schema;
}

describe('exportIdl', () => {
  it.each([['a table of small resources', [photos, albumEntries, settings, keyed, keyedNoParams, ops]]])(
    'exports %s to files that validate against the format schemas',
    (_what, resources) => {
      const out = exportIdl(resources);
      expect(out.restspecs.size).toBe(resources.length);
      for (const [file, spec] of out.restspecs) expect(validateRestSpec(spec, file).warnings).toEqual([]);
      for (const [file, snap] of out.snapshots) expect(validateSnapshot(snap, file).warnings).toEqual([]);
      for (const [file, text] of idlFileTexts(out)) {
        const json: unknown = JSON.parse(text);
        if (file.startsWith('idl/')) validateRestSpec(json, file);
        else validateSnapshot(json, file);
      }
    },
  );

  it('names the files as Rest.li does: <namespace>.<name>, or <name> without a namespace', () => {
    const out = exportIdl([photos, settings]);
    expect([...out.restspecs.keys()]).toEqual([
      'com.example.photos.photos.restspec.json',
      'settings.restspec.json',
    ]);
    expect([...out.snapshots.keys()]).toEqual([
      'com.example.photos.photos.snapshot.json',
      'settings.snapshot.json',
    ]);
    expect([...idlFileTexts(out).keys()]).toEqual([
      'idl/com.example.photos.photos.restspec.json',
      'idl/settings.restspec.json',
      'snapshot/com.example.photos.photos.snapshot.json',
      'snapshot/settings.snapshot.json',
    ]);
    expect([...exportIdl([settings], { namespace: 'com.acme' }).restspecs.keys()]).toEqual([
      'com.acme.settings.restspec.json',
    ]);
  });

  it('refuses two root resources that would be written to one file', () => {
    expect(() => exportIdl([settings, settings])).toThrow(
      /two root resources would be written to settings\.restspec\.json/,
    );
  });

  it('describes a collection: identifier, supports sorted, methods in Rest.li order, get_all with its parameters', () => {
    const c = one(photos).collection!;
    expect(c.identifier).toEqual({ name: 'photosId', type: 'long' });
    expect(c.supports).toEqual([
      'batch_get',
      'create',
      'delete',
      'get',
      'get_all',
      'partial_update',
      'update',
    ]);
    expect(c.methods!.map((m) => m.method)).toEqual([
      'create',
      'get',
      'update',
      'partial_update',
      'delete',
      'batch_get',
      'get_all',
    ]);
    expect(c.methods![6]).toEqual({
      method: 'get_all',
      parameters: [{ name: 'since', type: 'long', default: '0' }],
      pagingSupported: true,
    });
  });

  it('writes finders by name, optional flags, defaults as text and unnamed types as one-line schema JSON', () => {
    const c = one(photos).collection!;
    expect(c.finders).toEqual([
      {
        name: 'byTags',
        parameters: [
          { name: 'tags', type: '{ "type" : "array", "items" : "string" }' },
          { name: 'exact', type: 'boolean', default: 'false' },
        ],
        pagingSupported: true,
      },
      {
        name: 'titleAndOrFormat',
        doc: 'By title.',
        parameters: [
          { name: 'title', type: 'string', optional: true },
          { name: 'format', type: 'com.example.photos.PhotoFormat', optional: true },
        ],
        pagingSupported: true,
      },
    ]);
  });

  it('writes batch finders with the criteria parameter, batchParam and a validated maxBatchSize', () => {
    expect(one(photos).collection!.batchFinders).toEqual([
      {
        name: 'searchPhotos',
        parameters: [
          { name: 'criteria', type: '{ "type" : "array", "items" : "com.example.photos.PhotoCriteria" }' },
          { name: 'exif', type: 'com.example.photos.Exif', optional: true },
        ],
        pagingSupported: true,
        batchParam: 'criteria',
        maxBatchSize: { value: 10, validate: true },
      },
    ]);
  });

  it('writes actions by name with their returns, and entity actions and subresources under entity', () => {
    const c = one(photos).collection!;
    expect(c.actions).toEqual([
      {
        name: 'archive',
        parameters: [
          { name: 'ids', type: '{ "type" : "array", "items" : "long" }' },
          { name: 'note', type: 'string', default: 'none' },
        ],
      },
      { name: 'purge', parameters: [{ name: 'before', type: 'long' }], returns: 'int' },
    ]);
    expect(c.entity.path).toBe('/photos/{photosId}');
    expect(c.entity.actions).toEqual([
      {
        name: 'rotate',
        parameters: [{ name: 'degrees', type: 'int' }],
        returns: 'com.example.photos.Photo',
      },
    ]);
    const subs = c.entity.subresources!;
    expect(subs.map((s) => [s.name, s.namespace, s.path])).toEqual([
      ['comments', 'com.example.photos', '/photos/{photosId}/comments'],
      ['likes', 'com.example.photos', '/photos/{photosId}/likes'],
    ]);
    expect(subs[0]!.collection!.entity.path).toBe('/photos/{photosId}/comments/{commentsId}');
    expect(subs[1]!.simple!.entity.path).toBe('/photos/{photosId}/likes');
  });

  it('writes the metadata record of finders and get_all', () => {
    const withMetadata = collection({
      name: 'shots',
      key: LONG_KEY,
      value: Photo,
      methods: {
        getAll: finder({ metadata: Exif }, () => []),
        finders: { recent: finder({ metadata: Exif }, () => []) },
      },
    });
    const c = one(withMetadata).collection!;
    expect(c.methods).toEqual([
      { method: 'get_all', metadata: { type: 'com.example.photos.Exif' }, pagingSupported: true },
    ]);
    expect(c.finders).toEqual([
      { name: 'recent', metadata: { type: 'com.example.photos.Exif' }, pagingSupported: true },
    ]);
    expect(exportResource(withMetadata).models.map((m) => m.getFullName())).toContain(
      'com.example.photos.Exif',
    );
  });

  it('describes an association: <name>Id, key parts by name, finder association keys', () => {
    const a = one(albumEntries).association!;
    expect(a.identifier).toBe('albumEntriesId');
    expect(a.assocKeys).toEqual([
      { name: 'albumId', type: 'long' },
      { name: 'photoId', type: 'long' },
    ]);
    expect(a.supports).toEqual(['batch_get', 'get']);
    expect(a.finders).toEqual([
      {
        name: 'byAlbum',
        parameters: [{ name: 'q2', type: 'string', optional: true }],
        assocKeys: ['albumId'],
        pagingSupported: true,
      },
    ]);
    expect(a.entity).toEqual({ path: '/albumEntries/{albumEntriesId}' });
  });

  it('describes a simple resource: its actions beside its methods, its entity at its own path', () => {
    expect(one(settings)).toEqual({
      name: 'settings',
      path: '/settings',
      schema: 'com.example.photos.Album',
      simple: {
        supports: ['get', 'update'],
        methods: [{ method: 'get' }, { method: 'update' }],
        actions: [{ name: 'reset', returns: 'boolean' }],
        entity: { path: '/settings' },
      },
    });
  });

  it('describes an actions-only resource as an actionsSet', () => {
    expect(one(ops)).toEqual({
      name: 'ops',
      namespace: 'com.example',
      path: '/ops',
      actionsSet: { actions: [{ name: 'ping' }] },
    });
  });

  it('describes complex keys by their key and params records (EmptyRecord when there are none)', () => {
    expect(one(keyed).collection!.identifier).toEqual({
      name: 'pricesId',
      type: 'com.example.common.Locale',
      params: 'com.example.common.Money',
    });
    const { schema, models } = exportResource(keyedNoParams);
    expect(schema.collection!.identifier.params).toBe('com.linkedin.restli.common.EmptyRecord');
    expect(models.map((m) => m.getFullName())).toContain('com.linkedin.restli.common.EmptyRecord');
  });

  it('describes an implementation through its interface (docs and specs from the interface)', () => {
    const api = collectionInterface({
      name: 'notes',
      namespace: 'com.example',
      doc: 'Notes.',
      key: LONG_KEY,
      value: Album,
      methods: { get: { doc: 'One note.' } },
      finders: { recent: finderSpec({ params: { days: optional(INT, 7) }, doc: 'Recent notes.' }) },
      actions: { clear: actionSpec({ returns: INT }) },
    });
    const impl = implement(api, {
      get: none,
      finders: { recent: () => [] },
      actions: { clear: () => 0 },
    });
    expect(one(impl)).toEqual(one(api));
    expect(one(impl).collection!.methods).toEqual([{ method: 'get', doc: 'One note.' }]);
    expect(one(impl).collection!.finders![0]!.doc).toBe('Recent notes.');
  });

  it('writes members in the order Rest.li writes them (as in its own files)', () => {
    const keysOf = (v: unknown): string[] => Object.keys(v as object);
    /** The keys both write come in the same order. */
    const sameOrder = (ours: unknown, theirs: unknown): void => {
      const mine = keysOf(ours).filter((k) => keysOf(theirs).includes(k));
      expect(mine.length).toBeGreaterThan(1);
      expect(keysOf(theirs).filter((k) => mine.includes(k))).toEqual(mine);
    };
    const ours = one(photos);
    const theirs = real('com.linkedin.restli.example.photos.photos.restspec.json');
    sameOrder(ours, theirs);
    sameOrder(ours.collection, theirs.collection);
    sameOrder(ours.collection!.identifier, theirs.collection!.identifier);
    sameOrder(ours.collection!.finders![1], theirs.collection!.finders![0]);
    sameOrder(ours.collection!.finders![1]!.parameters![0], theirs.collection!.finders![0]!.parameters![0]);
    sameOrder(ours.collection!.batchFinders![0], theirs.collection!.batchFinders![0]);
    const assoc = real('com.linkedin.restli.example.photos.albumEntry.restspec.json');
    sameOrder(one(albumEntries).association, assoc.association);
  });

  it('writes the same shapes as Rest.li for the same resource (its photos example)', () => {
    const theirs = real('com.linkedin.restli.example.photos.photos.restspec.json');
    const strip = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'javaMethodName' ? undefined : x)));
    const c = strip(theirs.collection) as NonNullable<ResourceSchema['collection']>;
    // the same batch finder written by Rest.li and by Svc
    const svc = collection({
      name: 'photos',
      key: LONG_KEY,
      value: Photo,
      methods: {
        batchFinders: {
          searchPhotos: batchFinder(
            {
              batchParam: 'criteria',
              params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) },
            },
            () => new BatchFinderResult(),
          ),
        },
        actions: { purge: action({ returns: INT }, () => 0) },
      },
    });
    const ours = one(svc).collection!;
    const rename = (s: string): string =>
      s.replace(/com\.example\.photos/g, 'com.linkedin.restli.example').replace(/Exif/g, 'EXIF');
    expect(JSON.parse(rename(JSON.stringify(ours.batchFinders)))).toEqual(c.batchFinders);
    expect(ours.actions).toEqual(c.actions);
    expect(ours.identifier).toEqual(c.identifier);
    expect(ours.entity).toEqual(c.entity);
  });

  it('prints files as Rest.li does: " : ", two-space indents, arrays inline, no final newline', () => {
    const text = idlFileTexts(exportIdl([settings])).get('idl/settings.restspec.json');
    expect(text).toBe(
      [
        '{',
        '  "name" : "settings",',
        '  "path" : "/settings",',
        '  "schema" : "com.example.photos.Album",',
        '  "simple" : {',
        '    "supports" : [ "get", "update" ],',
        '    "methods" : [ {',
        '      "method" : "get"',
        '    }, {',
        '      "method" : "update"',
        '    } ],',
        '    "actions" : [ {',
        '      "name" : "reset",',
        '      "returns" : "boolean"',
        '    } ],',
        '    "entity" : {',
        '      "path" : "/settings"',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    );
  });

  it('writes every named schema once in the snapshot, sorted by full name, nested ones by name afterwards', () => {
    const snap = exportIdl([photos]).snapshots.get('com.example.photos.photos.snapshot.json') as Snapshot;
    const names = snap.models.map((m) =>
      typeof m === 'string' ? m : `${m.namespace as string}.${m.name as string}`,
    );
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const n of [
      'com.example.photos.Photo',
      'com.example.photos.PhotoCriteria',
      'com.example.photos.Exif',
      'com.example.photos.Caption',
      'com.example.photos.PhotoFormat',
      'com.example.common.Locale',
    ])
      expect(names).toContain(n);
    // PhotoFormat is first written inside an earlier model, so it stands by name at its own place
    expect(snap.models).toContain('com.example.photos.PhotoFormat');
    expect(snap.schema).toEqual(one(photos));
    // references within the model's namespace by simple name, as Rest.li writes them
    const photo = snap.models.find((m) => typeof m !== 'string' && m.name === 'Photo') as IdlJsonObject;
    const types = (photo.fields as readonly { type: unknown }[]).map((f) => f.type);
    expect(types.filter((t) => typeof t === 'string' && t.startsWith('com.example.photos.'))).toEqual([]);
  });

  it.each([
    ['not a resource', 42, /not a resource definition or interface/],
    ['an unknown kind', { name: 'x', kind: 'bag', value: Album, methods: {} }, /unknown resource kind 'bag'/],
    [
      'a collection without a key type',
      { name: 'x', kind: 'collection', value: Album, methods: {} },
      /'key' must be a key type/,
    ],
    [
      'a value that is not a record class',
      { name: 'x', kind: 'simple', value: 3, methods: {} },
      /'value' must be a generated record class/,
    ],
  ])('refuses %s with a ResourceDefinitionError', (_what, def, message) => {
    let caught: unknown;
    try {
      exportIdl([def]);
    } catch (err) {
      caught = err;
    }
    expect(isSvcError(caught, 'ResourceDefinitionError')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});
