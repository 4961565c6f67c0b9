import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { isSvcError } from '../../errors/svc-error';
import type { NamedDataSchema } from '../../schema/named-schema';
import { SchemaResolver } from '../../schema/schema-resolver';
import { IdlFormatError } from '../errors';
import { RESTSPEC_SUFFIX, SNAPSHOT_SUFFIX, type Snapshot } from '../restspec-model';
import { parseRestSpec, parseSnapshot } from '../validate-restspec';
import { failingCount, type CompatLevel } from './compat-level';
import { CompatInputError } from './errors';
import {
  COMPAT_KINDS,
  compareSnapshots,
  schemaChangeToCompat,
  type CompatChange,
  type CompatClass,
  type ResourceCompatOptions,
} from './resource-compat';
import { compareSchemaSets } from './schema-compat';

/** What `svc compat` compared and found. */
export interface CompatReport {
  /** `snapshot` (two IDL files or directories of them) or `schema` (two schema trees). */
  readonly input: 'snapshot' | 'schema';
  readonly older: string;
  readonly newer: string;
  /** Every change, resource walk order first, then data types. */
  readonly changes: readonly CompatChange[];
}

/** Options of {@link compareInputs}: those of the resource checker. */
export type CompareInputsOptions = Omit<ResourceCompatOptions, 'files'>;

function isIdlFile(name: string): boolean {
  return name.endsWith(SNAPSHOT_SUFFIX) || name.endsWith(RESTSPEC_SUFFIX);
}

function isSchemaFile(name: string): boolean {
  return name.endsWith('.pdsc') || name.endsWith('.pdl');
}

function stat(path: string): 'file' | 'dir' {
  try {
    const s = statSync(path);
    if (s.isDirectory()) return 'dir';
    if (s.isFile()) return 'file';
  } catch (err) {
    throw new CompatInputError(path, `cannot be read: ${(err as Error).message}`, { cause: err });
  }
  throw new CompatInputError(path, 'is neither a file nor a directory');
}

/** Reads one IDL file as a snapshot (a `.restspec.json` has no models). */
function readIdl(file: string): Pick<Snapshot, 'schema'> & { models?: Snapshot['models'] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CompatInputError(file, `cannot be read: ${(err as Error).message}`, { cause: err });
  }
  try {
    if (file.endsWith(RESTSPEC_SUFFIX)) return { schema: parseRestSpec(text, file).value };
    return parseSnapshot(text, file).value;
  } catch (err) {
    if (err instanceof IdlFormatError) {
      const first = err.problems[0];
      const rest = err.problems.length > 1 ? ` (and ${err.problems.length - 1} more problems)` : '';
      throw new CompatInputError(file, `${first?.message ?? 'not a valid IDL file'}${rest}`, {
        path: first?.path === '' ? '/' : first?.path,
        cause: err,
      });
    }
    throw err;
  }
}

function listDir(dir: string, keep: (name: string) => boolean, recursive: boolean): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (err) {
      throw new CompatInputError(d, `cannot be read: ${(err as Error).message}`, { cause: err });
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const relName = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory() && recursive) walk(nodePath.join(d, e.name), relName);
      else if (e.isFile() && keep(e.name)) out.push(relName);
    }
  };
  walk(dir, '');
  return out;
}

/** Two IDL files. */
export function compareIdlFiles(
  older: string,
  newer: string,
  options: CompareInputsOptions = {},
): CompatReport {
  const result = compareSnapshots(readIdl(older), readIdl(newer), { ...options, files: { older, newer } });
  return { input: 'snapshot', older, newer, changes: result.changes };
}

/**
 * Two directories of IDL files, paired by file name: a file only in `older` is a resource that is no
 * longer released (`RESOURCE_MISSING`, breaking), one only in `newer` a new resource (`RESOURCE_NEW`).
 */
export function compareIdlDirectories(
  older: string,
  newer: string,
  options: CompareInputsOptions = {},
): CompatReport {
  const before = listDir(older, isIdlFile, false);
  const after = listDir(newer, isIdlFile, false);
  const changes: CompatChange[] = [];
  for (const name of before) {
    if (!after.includes(name)) {
      changes.push({
        path: `/${name}`,
        kind: 'RESOURCE_MISSING',
        class: COMPAT_KINDS.RESOURCE_MISSING,
        message: `Resource for "${name}" is not found in ${newer}: this endpoint will not be released`,
      });
      continue;
    }
    const a = nodePath.join(older, name);
    const b = nodePath.join(newer, name);
    const result = compareSnapshots(readIdl(a), readIdl(b), { ...options, files: { older: a, newer: b } });
    for (const c of result.changes) changes.push({ ...c, path: `/${name}${c.path}` });
  }
  for (const name of after) {
    if (before.includes(name)) continue;
    changes.push({
      path: `/${name}`,
      kind: 'RESOURCE_NEW',
      class: COMPAT_KINDS.RESOURCE_NEW,
      message: `New resource is created in "${name}"`,
    });
  }
  return { input: 'snapshot', older, newer, changes };
}

/** The named schemas defined by the `.pdsc` / `.pdl` files below `dir` (nested ones included). */
function schemaTree(dir: string, resolverPath: readonly string[]): ReadonlyMap<string, NamedDataSchema> {
  const resolver = new SchemaResolver({ resolverPath: [dir, ...resolverPath] });
  try {
    resolver.parseDirectory(dir);
  } catch (err) {
    if (!isSvcError(err)) throw err;
    throw new CompatInputError(dir, `the schemas do not parse: ${err.message}`, { cause: err });
  }
  const root = nodePath.resolve(dir) + nodePath.sep;
  const out = new Map<string, NamedDataSchema>();
  for (const [name, schema] of resolver.bindings()) {
    const file = schema.getLocation()?.file;
    if (file === undefined || nodePath.resolve(file).startsWith(root)) out.set(name, schema);
  }
  return out;
}

/**
 * Two schema trees: every named schema present in both is compared; one removed is breaking
 * (`BREAK_OLD_CLIENTS`), one added compatible.
 */
export function compareSchemaTrees(
  older: string,
  newer: string,
  options: CompareInputsOptions = {},
): CompatReport {
  const path = options.resolverPath ?? [];
  const changes = compareSchemaSets(schemaTree(older, path), schemaTree(newer, path), {
    allowPromotions: options.allowPromotions ?? false,
  }).map((c) => schemaChangeToCompat(c));
  return { input: 'schema', older, newer, changes };
}

/**
 * What `svc compat <old> <new>` compares: two IDL files (`.snapshot.json` or `.restspec.json`), two
 * directories of IDL files, or two schema trees (directories of `.pdsc` / `.pdl` files, when neither
 * holds IDL files).
 *
 * @throws CompatInputError for a missing or unreadable input, a malformed file, or a file and a directory
 */
export function compareInputs(
  older: string,
  newer: string,
  options: CompareInputsOptions = {},
): CompatReport {
  const a = stat(older);
  const b = stat(newer);
  if (a !== b)
    throw new CompatInputError(
      newer,
      `cannot compare a ${a === 'dir' ? 'directory' : 'file'} with a ${b === 'dir' ? 'directory' : 'file'} (${older})`,
    );
  if (a === 'file') {
    for (const f of [older, newer])
      if (!isIdlFile(f))
        throw new CompatInputError(
          f,
          `expected a ${SNAPSHOT_SUFFIX} or ${RESTSPEC_SUFFIX} file, or a directory`,
        );
    return compareIdlFiles(older, newer, options);
  }
  const idl = listDir(older, isIdlFile, false).length + listDir(newer, isIdlFile, false).length;
  if (idl > 0) return compareIdlDirectories(older, newer, options);
  const schemas = listDir(older, isSchemaFile, true).length + listDir(newer, isSchemaFile, true).length;
  if (schemas === 0)
    throw new CompatInputError(
      older,
      `neither ${older} nor ${newer} holds ${SNAPSHOT_SUFFIX}, ${RESTSPEC_SUFFIX}, .pdsc or .pdl files`,
    );
  return compareSchemaTrees(older, newer, options);
}

const CLASS_TITLES: readonly [CompatClass, string][] = [
  ['breaking', 'Breaking changes'],
  ['wire-compatible', 'Wire-compatible changes (not binding-compatible)'],
  ['compatible', 'Compatible changes'],
];

/** Counts of changes per class. */
export function countByClass(changes: readonly CompatChange[]): Record<CompatClass, number> {
  const out: Record<CompatClass, number> = { breaking: 0, 'wire-compatible': 0, compatible: 0 };
  for (const c of changes) out[c.class]++;
  return out;
}

/** The report for people: changes grouped by class, then a summary line naming the level's verdict. */
export function formatCompatReport(report: CompatReport, level: CompatLevel): string {
  const lines: string[] = [`Compared ${report.older} with ${report.newer}`];
  for (const [cls, title] of CLASS_TITLES) {
    const group = report.changes.filter((c) => c.class === cls);
    if (group.length === 0) continue;
    lines.push('', `${title} (${group.length}):`);
    for (const c of group) lines.push(`  ${c.path}: ${c.message} [${c.kind}]`);
  }
  const n = countByClass(report.changes);
  const failing = failingCount(report.changes, level);
  const verdict =
    level === 'ignore'
      ? 'not gated (level ignore)'
      : failing === 0
        ? `check passed at level ${level}`
        : `check FAILED at level ${level}`;
  lines.push(
    '',
    report.changes.length === 0
      ? `No changes: ${verdict}.`
      : `${n.breaking} breaking, ${n['wire-compatible']} wire-compatible, ${n.compatible} compatible: ${verdict}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report as JSON for machines (`--json`). */
export function compatReportJson(report: CompatReport, level: CompatLevel): string {
  const failing = failingCount(report.changes, level);
  return `${JSON.stringify(
    {
      input: report.input,
      older: report.older,
      newer: report.newer,
      level,
      passed: failing === 0 || level === 'ignore' || level === 'off',
      counts: countByClass(report.changes),
      changes: report.changes,
    },
    null,
    2,
  )}\n`;
}
