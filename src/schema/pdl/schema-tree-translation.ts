/**
 * Translation of a schema tree between `.pdsc` and `.pdl`, file by file: each file keeps the types it
 * declares inline, and refers to the others by name (so the translated tree resolves like the original).
 */
import * as nodePath from 'node:path';
import { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import { MapDataSchema } from '../map-schema';
import { NamedDataSchema } from '../named-schema';
import { RecordDataSchema } from '../record-schema';
import { TyperefDataSchema } from '../typeref-schema';
import { UnionDataSchema } from '../union-schema';
import { SchemaParseError } from '../schema-parse-error';
import type { SchemaResolver } from '../schema-resolver';
import { schemasToJson } from '../schema-to-json';
import { schemaToPdl } from './pdl-writer';

/** The syntaxes a tree can be written in. */
export type SchemaSyntax = 'pdl' | 'pdsc';

/** One translated file. */
export interface TranslatedSchemaFile {
  /** The file read (as listed under the directory). */
  readonly source: string;
  /** Its path relative to the directory, with the extension of the target syntax. */
  readonly target: string;
  readonly text: string;
}

/**
 * Parses every schema file below `dir` with `resolver` and writes each one in `syntax`.
 * @throws SchemaParseError when the tree has problems, when a `.pdsc` file holding several top-level
 *   schemas is to become PDL (a `.pdl` file holds one), or when a PDL union with properties is to become
 *   `.pdsc` (a `.pdsc` union is a JSON array, with no place for them: refused rather than lost).
 */
export function translateSchemaTree(
  resolver: SchemaResolver,
  dir: string,
  syntax: SchemaSyntax,
): TranslatedSchemaFile[] {
  resolver.parseDirectory(dir);
  const root = nodePath.resolve(dir);
  const byFile = new Map<string, Set<DataSchema>>();
  for (const schema of resolver.bindings().values()) {
    const file = schema.getLocation()?.file;
    if (file === undefined) continue;
    const absolute = nodePath.resolve(file);
    const set = byFile.get(absolute) ?? new Set<DataSchema>();
    set.add(schema);
    byFile.set(absolute, set);
  }
  const out: TranslatedSchemaFile[] = [];
  for (const absolute of resolver.parsedFiles()) {
    if (!absolute.startsWith(root + nodePath.sep)) continue;
    const tops = resolver.parseFile(absolute);
    const inFull = byFile.get(absolute) ?? new Set<DataSchema>();
    const relative = nodePath.relative(root, absolute);
    const target = relative.replace(/\.(pdsc|pdl)$/, `.${syntax}`);
    let text: string;
    if (syntax === 'pdsc') {
      const where = unionWithProperties(tops, inFull);
      if (where !== undefined) {
        throw new SchemaParseError([
          {
            file: absolute,
            path: '',
            message: `${where} is a union with properties, which a .pdsc file cannot hold (a .pdsc union is a JSON array)`,
          },
        ]);
      }
      text = `${schemasToJson(tops, { inFull, indent: 2 })}\n`;
    } else {
      if (tops.length !== 1) {
        throw new SchemaParseError([
          {
            file: absolute,
            path: '',
            message: `a .pdl file holds one type declaration, but this file holds ${tops.length} schemas`,
          },
        ]);
      }
      text = schemaToPdl(tops[0]!, { inFull });
    }
    out.push({ source: absolute, target, text });
  }
  return out;
}

/**
 * Where a union with properties is among the types written in full in one file (`tops` and the named
 * schemas of `inFull`), as "the type of field f of a.B"; undefined when there is none.
 */
function unionWithProperties(
  tops: readonly DataSchema[],
  inFull: ReadonlySet<DataSchema>,
): string | undefined {
  const seen = new Set<DataSchema>();
  const visit = (schema: DataSchema, where: string): string | undefined => {
    if (seen.has(schema)) return undefined;
    seen.add(schema);
    if (schema instanceof NamedDataSchema) {
      if (!inFull.has(schema) && !tops.includes(schema)) return undefined;
      const name = schema.getFullName();
      if (schema instanceof RecordDataSchema) {
        for (const f of schema.getOwnFields()) {
          const found = visit(f.getType(), `the type of field ${f.getName()} of ${name}`);
          if (found !== undefined) return found;
        }
        for (const inc of schema.getInclude()) {
          const found = visit(inc, `an include of ${name}`);
          if (found !== undefined) return found;
        }
      } else if (schema instanceof TyperefDataSchema) {
        return visit(schema.getRef(), `the type ${name} refers to`);
      }
      return undefined;
    }
    if (schema instanceof ArrayDataSchema) return visit(schema.getItems(), `the items of ${where}`);
    if (schema instanceof MapDataSchema) return visit(schema.getValues(), `the values of ${where}`);
    if (schema instanceof UnionDataSchema) {
      if (!schema.getProperties().isEmpty()) return where;
      for (const m of schema.getMembers()) {
        const found = visit(m.getType(), `a member of ${where}`);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  for (const top of tops) {
    const found = visit(top, 'the top-level type');
    if (found !== undefined) return found;
  }
  return undefined;
}
