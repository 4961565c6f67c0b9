import * as nodePath from 'node:path';
import { Data, MAX_NESTING_DEPTH, type DataValue, type JsValue } from '../data';
import type { RecordDataSchema } from '../schema/record-schema';
import { SchemaResolver, type SchemaFileSystem } from '../schema/schema-resolver';
import { UnrecognizedFieldMode } from '../schema/validation/unrecognized-field-mode';
import { validate } from '../schema/validation/validate';
import { isSvcError } from '../errors/svc-error';
import { IdlFormatError, type IdlProblem } from './errors';
import { RESOURCE_KINDS, type ResourceSchema, type RestSpec, type Snapshot } from './restspec-model';
import { RESTSPEC_NAMESPACE, RESTSPEC_PDL } from './schemas/restspec-schemas';

/**
 * Validation of IDL files against the format's own schemas (`./schemas/`), with our validator. What the
 * schemas require is an error ({@link IdlFormatError}, naming the file and every problem's JSON path); a
 * field the schemas do not declare (a newer Rest.li's, a tool's own) is a warning, never an error, so that
 * files from newer tools still load.
 */

/** What a successful validation found that it passed over. */
export interface IdlValidation {
  /** Unknown fields and the like, each with its JSON path (`/collection/newThing: unknown field`). */
  readonly warnings: readonly IdlProblem[];
}

const ROOT = nodePath.join(nodePath.sep, 'svc-idl-schemas');

let schemas: ReadonlyMap<string, RecordDataSchema> | undefined;

/**
 * The format's records, parsed once from `./schemas/restspec-schemas.ts` (by simple name:
 * `ResourceSchema`, `FinderSchema`, ...).
 */
export function restspecSchemas(): ReadonlyMap<string, RecordDataSchema> {
  if (schemas !== undefined) return schemas;
  const dir = nodePath.join(ROOT, ...RESTSPEC_NAMESPACE.split('.'));
  const files = new Map(
    Object.entries(RESTSPEC_PDL).map(([name, text]) => [nodePath.join(dir, `${name}.pdl`), text]),
  );
  const fileSystem: SchemaFileSystem = {
    readFile: (path) => {
      const text = files.get(path);
      if (text === undefined) throw new Error(`no such file: ${path}`);
      return text;
    },
    isFile: (path) => files.has(path),
    isDirectory: (path) => [...files.keys()].some((f) => f.startsWith(path + nodePath.sep)),
    readDir: () => [],
  };
  const resolver = new SchemaResolver({ resolverPath: [ROOT], fileSystem });
  const out = new Map<string, RecordDataSchema>();
  for (const name of Object.keys(RESTSPEC_PDL)) {
    out.set(name, resolver.resolve(`${RESTSPEC_NAMESPACE}.${name}`) as RecordDataSchema);
  }
  schemas = out;
  return out;
}

function pathText(path: readonly (string | number)[]): string {
  let s = '';
  for (const p of path) s += `/${p}`;
  return s;
}

const UNRECOGNIZED = 'unrecognized field found but not allowed';

/** Data from parsed JSON, or a problem at the root when it is not JSON-like (undefined, a function...). */
function toData(json: unknown, problems: IdlProblem[]): DataValue | undefined {
  try {
    return Data.fromJS(json as JsValue);
  } catch (err) {
    if (!isSvcError(err)) throw err;
    problems.push({ path: '', message: `not JSON data: ${err.message}` });
    return undefined;
  }
}

/** Validates `json` as a `ResourceSchema` below `prefix`, adding problems and warnings. */
function checkResource(
  json: unknown,
  prefix: readonly (string | number)[],
  problems: IdlProblem[],
  warnings: IdlProblem[],
): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    problems.push({ path: pathText(prefix), message: 'expected an object (a ResourceSchema)' });
    return;
  }
  // an 'actions-set' is read as the actionsSet it stands for, so its contents are validated as one
  const data = toData(readLegacySpelling(json), problems);
  if (data === undefined) return;
  const result = validate(data, restspecSchemas().get('ResourceSchema')!, {
    unrecognizedFieldMode: UnrecognizedFieldMode.DISALLOW,
  });
  for (const m of result.getMessages()) {
    const path = [...prefix, ...writtenPath(json, m.getPath())];
    if (m.getText() === UNRECOGNIZED) {
      // custom annotations are open records: their members are whatever the annotation declares
      if (path.length >= 3 && path[path.length - 3] === 'annotations') continue;
      if (path[path.length - 1] === LEGACY_ACTIONS_SET) continue; // reported by checkKinds
      warnings.push({ path: pathText(path), message: 'unknown field, passed over' });
    } else if (isInlineTypeSchema(json, writtenPath(json, m.getPath()))) {
      warnings.push({
        path: pathText(path),
        message: 'a schema object where the format has its JSON text (an older spelling): read as that text',
      });
    } else problems.push({ path: pathText(path), message: m.getText() });
  }
  checkKinds(json as ResourceSchema, prefix, problems, warnings);
}

/** The spelling of `actionsSet` in some old hand-written files (Rest.li's compatibility checker's inputs). */
const LEGACY_ACTIONS_SET = 'actions-set';

/** True when `v` is a resource (or subresource) written with 'actions-set' and no 'actionsSet'. */
function hasLegacyActionsSet(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    LEGACY_ACTIONS_SET in v &&
    !('actionsSet' in v)
  );
}

/**
 * `resource` with each 'actions-set' (its subresources' too) spelt 'actionsSet', in the same place; the
 * same object where there is none. Below MAX_NESTING_DEPTH only (the validator reports what is deeper).
 */
function readLegacySpelling(resource: unknown, depth = 0): unknown {
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) return resource;
  if (depth > MAX_NESTING_DEPTH) return resource;
  const legacy = hasLegacyActionsSet(resource);
  let changed = legacy;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resource as Record<string, unknown>)) {
    const key = legacy && k === LEGACY_ACTIONS_SET ? 'actionsSet' : k;
    const entity = (v as { entity?: { subresources?: unknown } } | null)?.entity;
    out[key] = v;
    if ((RESOURCE_KINDS as readonly string[]).includes(key) && Array.isArray(entity?.subresources)) {
      const before: unknown[] = entity.subresources;
      const subresources = before.map((sub) => readLegacySpelling(sub, depth + 1));
      if (subresources.some((sub, i) => sub !== before[i])) {
        changed = true;
        out[key] = { ...(v as object), entity: { ...entity, subresources } };
      }
    }
  }
  return changed ? out : resource;
}

/** A path into {@link readLegacySpelling}'s output as the file spells it ('actions-set' where it was). */
function writtenPath(json: unknown, path: readonly (string | number)[]): (string | number)[] {
  const out: (string | number)[] = [];
  let v: unknown = json;
  for (const p of path) {
    const step = p === 'actionsSet' && hasLegacyActionsSet(v) ? LEGACY_ACTIONS_SET : p;
    out.push(step);
    v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[step] : undefined;
  }
  return out;
}

const TYPE_FIELDS: ReadonlySet<unknown> = new Set(['type', 'returns', 'items', 'params']);

/**
 * True when the value at `path` is a type written as a schema object (`"type" : { "type" : "array", ... }`)
 * rather than as the JSON text of one: old hand-written files do that, and the text is implied.
 */
function isInlineTypeSchema(json: unknown, path: readonly (string | number)[]): boolean {
  if (!TYPE_FIELDS.has(path[path.length - 1])) return false;
  let v: unknown = json;
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return false;
    v = (v as Record<string | number, unknown>)[p];
  }
  return typeof v === 'object' && v !== null;
}

/** Each resource, subresources too, has at most one kind (the schema cannot say so). */
function checkKinds(
  resource: ResourceSchema,
  prefix: readonly (string | number)[],
  problems: IdlProblem[],
  warnings: IdlProblem[],
): void {
  // the validator reports data nested beyond MAX_NESTING_DEPTH already; stop before the stack would
  if (prefix.length > MAX_NESTING_DEPTH) return;
  const legacy = (resource as { [LEGACY_ACTIONS_SET]?: unknown })[LEGACY_ACTIONS_SET] !== undefined;
  if (legacy)
    warnings.push({
      path: pathText([...prefix, LEGACY_ACTIONS_SET]),
      message: "an older spelling of 'actionsSet': read as that",
    });
  const kinds: string[] = RESOURCE_KINDS.filter((k) => resource[k] !== undefined);
  if (legacy) kinds.push(LEGACY_ACTIONS_SET);
  // the format's schema allows a resource of no kind (nothing to call): a warning; two kinds contradict
  if (kinds.length === 0) {
    warnings.push({
      path: pathText(prefix),
      message: `a resource with none of ${RESOURCE_KINDS.join(', ')}: it has nothing to call`,
    });
  } else if (kinds.length > 1) {
    problems.push({ path: pathText(prefix), message: `a resource has one kind, not ${kinds.join(' and ')}` });
  }
  for (const kind of RESOURCE_KINDS) {
    const entity = (resource[kind] as { entity?: { subresources?: unknown } } | undefined)?.entity;
    const subs = entity?.subresources;
    if (!Array.isArray(subs)) continue;
    subs.forEach((sub: unknown, i) => {
      if (typeof sub === 'object' && sub !== null)
        checkKinds(sub as ResourceSchema, [...prefix, kind, 'entity', 'subresources', i], problems, warnings);
    });
  }
}

/**
 * Validates a parsed `.restspec.json` (a `ResourceSchema`) against the format's schemas.
 *
 * @param json the parsed file (`JSON.parse` output)
 * @param file names the file in the error and warnings
 * @returns the warnings (unknown fields, passed over)
 * @throws IdlFormatError listing every problem with its JSON path
 * @example
 * ```ts
 * const { warnings } = validateRestSpec(JSON.parse(text), 'idl/com.example.photos.restspec.json');
 * ```
 */
export function validateRestSpec(json: unknown, file: string): IdlValidation {
  const problems: IdlProblem[] = [];
  const warnings: IdlProblem[] = [];
  checkResource(json, [], problems, warnings);
  if (problems.length > 0) throw new IdlFormatError(file, problems);
  return { warnings };
}

/**
 * Validates a parsed `.snapshot.json`: `models` a list of schemas (each object parsed with our schema
 * parser, in order, as one text: a name stands for a schema written earlier) and `schema` a
 * `ResourceSchema`.
 * @throws IdlFormatError listing every problem with its JSON path
 */
export function validateSnapshot(json: unknown, file: string): IdlValidation {
  const problems: IdlProblem[] = [];
  const warnings: IdlProblem[] = [];
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new IdlFormatError(file, [{ path: '', message: 'expected an object with "models" and "schema"' }]);
  }
  const snapshot = json as { readonly [key: string]: unknown };
  for (const key of Object.keys(snapshot)) {
    if (key !== 'models' && key !== 'schema')
      warnings.push({ path: `/${key}`, message: 'unknown field, passed over' });
  }
  const models = snapshot.models;
  if (models === undefined) problems.push({ path: '/models', message: 'field is required but not found' });
  else if (!Array.isArray(models)) problems.push({ path: '/models', message: 'expected a list of schemas' });
  else {
    const texts: string[] = [];
    models.forEach((m: unknown, i) => {
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) texts.push(JSON.stringify(m));
      else if (typeof m !== 'string')
        problems.push({ path: `/models/${i}`, message: 'expected a schema or the name of one' });
    });
    if (texts.length > 0) {
      try {
        new SchemaResolver().parseText(texts.join('\n'), `${file}#/models`);
      } catch (err) {
        if (!isSvcError(err)) throw err;
        problems.push({ path: '/models', message: err.message });
      }
    }
  }
  if (snapshot.schema === undefined)
    problems.push({ path: '/schema', message: 'field is required but not found' });
  else checkResource(snapshot.schema, ['schema'], problems, warnings);
  if (problems.length > 0) throw new IdlFormatError(file, problems);
  return { warnings };
}

/** A parsed IDL file and what validation passed over. */
export interface ParsedIdlFile<T> {
  readonly value: T;
  readonly warnings: readonly IdlProblem[];
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text.replace(/^\ufeff/, ''));
  } catch (err) {
    throw new IdlFormatError(file, [{ path: '', message: `not JSON: ${(err as Error).message}` }], {
      cause: err,
    });
  }
}

/**
 * Parses and validates the text of a `.restspec.json`.
 * @throws IdlFormatError when it is not JSON or not a valid `ResourceSchema`
 */
export function parseRestSpec(text: string, file: string): ParsedIdlFile<RestSpec> {
  const json = parseJson(text, file);
  return { value: json as RestSpec, warnings: validateRestSpec(json, file).warnings };
}

/**
 * Parses and validates the text of a `.snapshot.json`.
 * @throws IdlFormatError when it is not JSON or not a valid snapshot
 */
export function parseSnapshot(text: string, file: string): ParsedIdlFile<Snapshot> {
  const json = parseJson(text, file);
  return { value: json as Snapshot, warnings: validateSnapshot(json, file).warnings };
}
