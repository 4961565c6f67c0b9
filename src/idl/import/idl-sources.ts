/**
 * Reading what an IDL import starts from: `.restspec.json` and `.snapshot.json` files (named one by one or
 * found below directories), each validated against the format, and the named schemas snapshots carry in
 * their `models`, served to the schema resolver as if each were its own `.pdsc` file.
 *
 * Snapshots write a schema where it is first met (nested inside another) and name it afterwards, and two
 * snapshots of one service usually share schemas. Parsing their `models` lists as texts would define shared
 * schemas twice; instead every named schema, nested ones included, is lifted out into a file of its own in
 * a virtual tree (`<name path>.pdsc`) that the resolver searches before the resolver path. So each name
 * resolves once, in any order, and the first snapshot that writes a schema wins.
 */
import * as nodePath from 'node:path';
import { NODE_FILE_SYSTEM, type SchemaFileSystem } from '../../schema/schema-resolver';
import { IdlFormatError, type IdlProblem } from '../errors';
import {
  type ResourceSchema,
  RESTSPEC_SUFFIX,
  SNAPSHOT_SUFFIX,
  type SnapshotModel,
  idlFileName,
} from '../restspec-model';
import { parseRestSpec, parseSnapshot } from '../validate-restspec';

/** One root resource to import, with the file it came from. */
export interface IdlResourceSource {
  readonly resource: ResourceSchema;
  /** The file as the caller named it (or as found below a directory). */
  readonly file: string;
}

/** What {@link readIdlSources} found. */
export interface IdlSources {
  /** The root resources by their IDL file name (`<namespace>.<name>`), sorted. */
  readonly resources: readonly IdlResourceSource[];
  /** Named schemas the snapshots carry, by full name: the schema JSON with nested definitions lifted out. */
  readonly models: ReadonlyMap<string, { readonly json: object; readonly file: string }>;
  /** What validation passed over (unknown fields), per file. */
  readonly warnings: readonly { readonly file: string; readonly problem: IdlProblem }[];
}

/** IDL files below a directory, recursively, in path order. */
function listIdlFiles(fs: SchemaFileSystem, dir: string): string[] {
  const out: string[] = [];
  for (const name of [...fs.readDir(dir)].sort()) {
    const path = nodePath.join(dir, name);
    if (fs.isDirectory(path)) out.push(...listIdlFiles(fs, path));
    else if (name.endsWith(RESTSPEC_SUFFIX) || name.endsWith(SNAPSHOT_SUFFIX)) out.push(path);
  }
  return out;
}

/**
 * Reads and validates IDL files: each source is a `.restspec.json` or `.snapshot.json` file (another name
 * is read as a snapshot when it has `models`, else as a restspec) or a directory searched for both. A
 * resource found in both a restspec and a snapshot is taken from the restspec (they describe the same
 * resource); its snapshot still gives its schemas.
 *
 * @throws IdlFormatError naming the file and JSON path of what does not fit the format, or a source that
 *   is neither a file nor a directory, or two different files describing one resource
 */
export function readIdlSources(
  sources: readonly string[],
  fs: SchemaFileSystem = NODE_FILE_SYSTEM,
): IdlSources {
  const files: string[] = [];
  for (const source of sources) {
    if (fs.isDirectory(source)) files.push(...listIdlFiles(fs, source));
    else if (fs.isFile(source)) files.push(source);
    else throw new IdlFormatError(source, [{ path: '', message: 'no such file or directory' }]);
  }
  const fromRestspec = new Map<string, IdlResourceSource>();
  const fromSnapshot = new Map<string, IdlResourceSource>();
  const models = new Map<string, { json: object; file: string }>();
  const warnings: { file: string; problem: IdlProblem }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFile(file);
    } catch (err) {
      throw new IdlFormatError(file, [{ path: '', message: `cannot be read: ${(err as Error).message}` }], {
        cause: err,
      });
    }
    const snapshot =
      file.endsWith(SNAPSHOT_SUFFIX) || (!file.endsWith(RESTSPEC_SUFFIX) && /^\s*\{\s*"models"/.test(text));
    const parsed = snapshot ? parseSnapshot(text, file) : parseRestSpec(text, file);
    for (const problem of parsed.warnings) warnings.push({ file, problem });
    const resource = snapshot
      ? (parsed.value as { schema: ResourceSchema }).schema
      : (parsed.value as ResourceSchema);
    const key = idlFileName(resource, '');
    const into = snapshot ? fromSnapshot : fromRestspec;
    const earlier = into.get(key);
    if (earlier !== undefined && earlier.file !== file) {
      throw new IdlFormatError(file, [
        { path: '', message: `describes the resource ${key} again (first described by ${earlier.file})` },
      ]);
    }
    into.set(key, { resource, file });
    if (snapshot) {
      const list = (parsed.value as { models: readonly SnapshotModel[] }).models;
      list.forEach((model, i) => {
        if (typeof model === 'object') liftModels(model, '', models, file, `/models/${i}`);
      });
    }
  }
  const resources = new Map(fromSnapshot);
  for (const [key, r] of fromRestspec) resources.set(key, r);
  return {
    resources: [...resources.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r),
    models,
    warnings,
  };
}

const NAMED_KINDS: ReadonlySet<unknown> = new Set(['record', 'error', 'enum', 'fixed', 'typeref']);

type Json = unknown;

function isObject(v: Json): v is { readonly [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Lifts every named schema of `node` (a schema JSON value inside namespace `scope`) into `out`, returning
 * the node with each named definition replaced by its full name. Malformed pieces are left as they are:
 * the snapshot was validated, and the schema parser reports anything else where the schema is used.
 */
function liftModels(
  node: Json,
  scope: string,
  out: Map<string, { json: object; file: string }>,
  file: string,
  path: string,
): Json {
  if (Array.isArray(node)) {
    return node.map((m: Json, i) =>
      isObject(m) && typeof m.alias === 'string'
        ? { ...m, type: liftModels(m.type, scope, out, file, `${path}/${i}/type`) }
        : liftModels(m, scope, out, file, `${path}/${i}`),
    );
  }
  if (!isObject(node)) return node;
  const kind = node.type;
  if (kind === 'array') return { ...node, items: liftModels(node.items, scope, out, file, `${path}/items`) };
  if (kind === 'map') return { ...node, values: liftModels(node.values, scope, out, file, `${path}/values`) };
  if (!NAMED_KINDS.has(kind) || typeof node.name !== 'string') return node;
  const name = node.name;
  const namespace =
    typeof node.namespace === 'string'
      ? node.namespace
      : name.includes('.')
        ? name.slice(0, name.lastIndexOf('.'))
        : scope;
  const simple = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  const fullName = namespace === '' ? simple : `${namespace}.${simple}`;
  const own: Record<string, Json> = { ...node, name: simple };
  if (namespace !== '') own.namespace = namespace;
  else delete own.namespace;
  if (kind === 'typeref') own.ref = liftModels(node.ref, namespace, out, file, `${path}/ref`);
  if (kind === 'record' || kind === 'error') {
    if (Array.isArray(node.include))
      own.include = node.include.map((inc: Json, i) =>
        liftModels(inc, namespace, out, file, `${path}/include/${i}`),
      );
    if (Array.isArray(node.fields))
      own.fields = node.fields.map((f: Json, i) =>
        isObject(f)
          ? { ...f, type: liftModels(f.type, namespace, out, file, `${path}/fields/${i}/type`) }
          : f,
      );
  }
  if (!out.has(fullName)) out.set(fullName, { json: own, file: `${file}#${path}` });
  return fullName;
}

/**
 * The root of the virtual tree that holds snapshot models (named so that messages say where a schema came
 * from; the overlay answers for it before the disk is asked).
 */
export const MODELS_ROOT = nodePath.resolve('/snapshot-models');

/**
 * A file system that serves `models` as `<MODELS_ROOT>/<a>/<b>/<Name>.pdsc` and everything else from
 * `base`: put {@link MODELS_ROOT} first on the resolver path.
 */
export function modelsFileSystem(
  models: IdlSources['models'],
  base: SchemaFileSystem = NODE_FILE_SYSTEM,
): SchemaFileSystem {
  const files = new Map<string, string>();
  const dirs = new Set<string>([MODELS_ROOT]);
  for (const [fullName, { json }] of models) {
    const path = nodePath.join(MODELS_ROOT, ...fullName.split('.')) + '.pdsc';
    files.set(path, JSON.stringify(json));
    for (let d = nodePath.dirname(path); d.startsWith(MODELS_ROOT); d = nodePath.dirname(d)) dirs.add(d);
  }
  const inside = (p: string): boolean => p === MODELS_ROOT || p.startsWith(MODELS_ROOT + nodePath.sep);
  return {
    readFile: (p) => {
      const r = nodePath.resolve(p);
      if (!inside(r)) return base.readFile(p);
      const text = files.get(r);
      if (text === undefined) throw new Error(`ENOENT: ${p}`);
      return text;
    },
    isFile: (p) => (inside(nodePath.resolve(p)) ? files.has(nodePath.resolve(p)) : base.isFile(p)),
    isDirectory: (p) => (inside(nodePath.resolve(p)) ? dirs.has(nodePath.resolve(p)) : base.isDirectory(p)),
    readDir: (p) => {
      const r = nodePath.resolve(p);
      if (!inside(r)) return base.readDir(p);
      const names = new Set<string>();
      for (const f of [...files.keys(), ...dirs])
        if (f !== r && nodePath.dirname(f) === r) names.add(nodePath.basename(f));
      return [...names];
    },
  };
}
