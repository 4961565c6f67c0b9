/**
 * Translation of a schema tree between `.pdsc` and `.pdl`, file by file: each file keeps the types it
 * declares inline, and refers to the others by name (so the translated tree resolves like the original).
 */
import * as nodePath from 'node:path';
import type { DataSchema } from '../data-schema';
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
 * @throws SchemaParseError when the tree has problems, or when a `.pdsc` file holding several top-level
 *   schemas is to become PDL (a `.pdl` file holds one).
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
