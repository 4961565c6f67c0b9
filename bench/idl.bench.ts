/**
 * The interface description: export of 200 synthetic resources (collections with finders, a batch finder,
 * actions and entity actions, associations, simple resources, a subresource each tenth) to `.restspec.json`
 * and `.snapshot.json` texts, printed as the time per resource. The anchor is `JSON.stringify` of the
 * exported restspecs (the least a writer must do).
 *
 * The import half: the 200 snapshots the export wrote, read back with `generateFromIdl` (what
 * `svc generate --idl` does: validate each file, lift the snapshot models, generate the data templates and
 * one interface module per resource), from memory so that the disk is not measured. Its anchor is
 * `JSON.parse` of the same texts.
 *
 * No goal: the issue asks for "seconds" for 200 resources, which the facts show.
 */
import * as nodePath from 'node:path';
import {
  BOOLEAN,
  INT,
  LONG,
  LONG_KEY,
  STRING,
  action,
  arrayOf,
  assocKey,
  association,
  batchFinder,
  BatchFinderResult,
  collection,
  criteriaOf,
  entityAction,
  enumOf,
  exportIdl,
  finder,
  generateFromIdl,
  idlFileTexts,
  optional,
  recordOf,
  simple,
  validateRestSpec,
} from '../src';
import { Album } from '../examples/src/main/generated/com/example/photos/Album';
import { AlbumEntry } from '../examples/src/main/generated/com/example/photos/AlbumEntry';
import { Exif } from '../examples/src/main/generated/com/example/photos/Exif';
import { Photo } from '../examples/src/main/generated/com/example/photos/Photo';
import { PhotoCriteria } from '../examples/src/main/generated/com/example/photos/PhotoCriteria';
import { PhotoFormat } from '../examples/src/main/generated/com/example/photos/PhotoFormat';
import { PurgeResult } from '../examples/src/main/generated/com/example/photos/PurgeResult';
import { memoryFileSystem } from './fixtures/schema-tree';
import { type BenchFile, keep, type Suite } from './harness';

const RESOURCES = 200;
const none = (): undefined => undefined;

/** Resource `i` of the synthetic service: mostly collections, every fifth an association, every seventh simple. */
function resource(i: number): unknown {
  const name = `r${i}`;
  const namespace = `com.example.bench${i % 10}`;
  if (i % 7 === 6) {
    return simple({
      name,
      namespace,
      value: Album,
      methods: { get: none, update: none, actions: { reset: action({ returns: BOOLEAN }, () => true) } },
    });
  }
  if (i % 5 === 4) {
    return association({
      name,
      namespace,
      assocKeys: { albumId: LONG, photoId: LONG },
      value: AlbumEntry,
      methods: {
        get: none,
        batchGet: () => new Map(),
        finders: { byAlbum: finder({ params: { albumId: assocKey(LONG) } }, () => []) },
      },
    });
  }
  return collection({
    name,
    namespace,
    doc: `Synthetic resource ${i}.`,
    key: LONG_KEY,
    value: Photo,
    methods: {
      get: none,
      batchGet: () => new Map(),
      create: () => ({ id: 1 }),
      update: none,
      partialUpdate: none,
      delete: none,
      getAll: finder({ params: { since: optional(LONG, 0) } }, () => []),
      finders: {
        byTitle: finder({ params: { title: STRING, format: optional(enumOf(PhotoFormat)) } }, () => []),
        byTags: finder({ params: { tags: arrayOf(STRING) } }, () => []),
      },
      batchFinders: {
        search: batchFinder(
          {
            batchParam: 'criteria',
            params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) },
          },
          () => new BatchFinderResult(),
        ),
      },
      actions: {
        purge: action({ params: { before: LONG }, returns: recordOf(PurgeResult) }, () => new PurgeResult()),
      },
      entityActions: { rate: entityAction({ key: LONG_KEY, params: { stars: INT } }, none) },
    },
    subresources:
      i % 10 === 0 ? [simple({ name: 'cover', value: Album, methods: { get: none } })] : undefined,
  });
}

function suites(): Suite[] {
  const resources = Array.from({ length: RESOURCES }, (_, i) => resource(i));
  const exportAll = (): Map<string, string> => idlFileTexts(exportIdl(resources));
  const files = exportAll();
  const restspecs = [...exportIdl(resources).restspecs.values()];
  for (const r of restspecs) validateRestSpec(r, r.name);

  // a rough time per resource for the facts (the timed tasks below are the measurement)
  const t0 = performance.now();
  let runs = 0;
  while (performance.now() - t0 < 500) {
    exportAll();
    runs++;
  }
  const perResourceUs = ((performance.now() - t0) * 1e3) / runs / RESOURCES;

  const dir = nodePath.resolve('/bench-idl');
  const snapshots = new Map(
    [...files]
      .filter(([p]) => p.startsWith('snapshot/'))
      .map(([p, text]) => [p.slice('snapshot/'.length), text]),
  );
  const memory = memoryFileSystem(
    new Map([...snapshots].map(([name, text]) => [nodePath.join(dir, name), text])),
    dir,
  );
  const importAll = () => generateFromIdl({ sources: [dir], fileSystem: memory });
  const imported = importAll();
  const i0 = performance.now();
  let importRuns = 0;
  while (performance.now() - i0 < 1000) {
    importAll();
    importRuns++;
  }
  const importPerResourceUs = ((performance.now() - i0) * 1e3) / importRuns / RESOURCES;
  const snapshotTexts = [...snapshots.values()];

  return [
    {
      title: `idl: import ${RESOURCES} snapshots (templates and interface modules)`,
      short: 'idl import',
      facts: [
        { label: 'resources', value: RESOURCES },
        { label: 'interface modules', value: imported.interfaces.length },
        { label: 'files generated', value: imported.files.length },
        { label: 'rough time per resource (warm-up loop)', value: importPerResourceUs, unit: 'µs' },
        {
          label: 'rough time for all resources',
          value: (importPerResourceUs * RESOURCES) / 1000,
          unit: 'ms',
        },
      ],
      notes: [
        'a task imports every snapshot from memory: validation, schema resolution, templates, interface modules',
        'JSON.parse of the snapshot texts is the floor for reading them, not a rival',
      ],
      anchor: {
        name: 'JSON.parse of the 200 snapshots',
        fn: () => {
          let n = 0;
          for (const t of snapshotTexts) n += (JSON.parse(t) as { models: unknown[] }).models.length;
          keep(n);
        },
      },
      candidates: [{ name: 'generateFromIdl (200 snapshots)', fn: () => keep(importAll().files.length) }],
    },
    {
      title: `idl: export ${RESOURCES} resources to .restspec.json and .snapshot.json texts`,
      short: 'idl export',
      facts: [
        { label: 'resources', value: RESOURCES },
        { label: 'files written', value: files.size },
        {
          label: 'bytes written',
          value: [...files.values()].reduce((n, t) => n + Buffer.byteLength(t), 0),
          unit: 'B',
        },
        { label: 'rough time per resource (warm-up loop)', value: perResourceUs, unit: 'µs' },
        { label: 'rough time for all resources', value: (perResourceUs * RESOURCES) / 1000, unit: 'ms' },
      ],
      notes: [
        'per resource = the mean of a task / 200; a task exports every resource (restspec + snapshot texts)',
        'JSON.stringify of the exported restspecs is the floor for writing them, not a rival',
      ],
      anchor: {
        name: 'JSON.stringify of the 200 restspecs',
        fn: () => {
          let n = 0;
          for (const r of restspecs) n += JSON.stringify(r).length;
          keep(n);
        },
      },
      candidates: [
        { name: 'exportIdl (objects)', fn: () => keep(exportIdl(resources).restspecs.size) },
        { name: 'exportIdl + idlFileTexts (files)', fn: () => keep(exportAll().size) },
        {
          name: 'validateRestSpec of the 200 restspecs',
          fn: () => {
            for (const r of restspecs) keep(validateRestSpec(r, r.name).warnings.length);
          },
        },
      ],
    },
  ];
}

export const benchmark: BenchFile = {
  title: 'IDL: export and import of 200 resources, time per resource',
  suites,
};
