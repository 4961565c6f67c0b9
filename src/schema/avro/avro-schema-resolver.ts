/**
 * Finds named Avro schemas in `.avsc` files on a path, as the reference's file resolver does for Avro: the
 * full name `a.b.Name` is looked for as `<dir>/a/b/Name.avsc` in each directory in turn. Each file is read at
 * most once per resolver.
 */
import * as nodePath from 'node:path';
import { parseJsonExact } from '../../data/codecs/json-exact-parser';
import { NODE_FILE_SYSTEM, type SchemaFileSystem } from '../schema-resolver';
import { isValidName } from '../schema-names';
import { SchemaTranslationError } from './errors';

export const AVRO_FILE_EXTENSION = '.avsc';

/** One `.avsc` file read for a name. */
export interface AvscFile {
  readonly path: string;
  /** The parsed JSON (longs beyond 2^53 as bigints). */
  readonly json: unknown;
}

export class AvroSchemaResolver {
  readonly #paths: readonly string[];
  readonly #fs: SchemaFileSystem;
  readonly #read = new Set<string>();

  constructor(paths: readonly string[], fileSystem: SchemaFileSystem = NODE_FILE_SYSTEM) {
    this.#paths = paths;
    this.#fs = fileSystem;
  }

  /** The directories searched, in order. */
  getPaths(): readonly string[] {
    return this.#paths;
  }

  /**
   * The next file not read yet that may define `fullName` (`<dir>/a/b/Name.avsc`), or undefined. The caller
   * parses it and asks again if it did not define the name.
   * @throws SchemaTranslationError `SVC_ERR_AVRO_SCHEMA_PARSE` when the file is not JSON.
   */
  nextFile(fullName: string): AvscFile | undefined {
    if (!isValidName(fullName)) return undefined;
    const relative = `${fullName.split('.').join(nodePath.sep)}${AVRO_FILE_EXTENSION}`;
    for (const dir of this.#paths) {
      const path = nodePath.join(dir, relative);
      const absolute = nodePath.resolve(path);
      if (this.#read.has(absolute) || !this.#fs.isFile(path)) continue;
      this.#read.add(absolute);
      let text: string;
      try {
        text = this.#fs.readFile(path);
      } catch (err) {
        throw new SchemaTranslationError(
          'SVC_ERR_AVRO_SCHEMA_PARSE',
          `${path}: cannot read the file: ${(err as Error).message}`,
          {
            cause: err,
          },
        );
      }
      try {
        return { path, json: parseJsonExact(text) };
      } catch (err) {
        throw new SchemaTranslationError('SVC_ERR_AVRO_SCHEMA_PARSE', `${path}: ${(err as Error).message}`, {
          cause: err,
        });
      }
    }
    return undefined;
  }

  /** The files that were (or would be) tried for `fullName`, for messages. */
  candidates(fullName: string): string[] {
    const relative = `${fullName.split('.').join(nodePath.sep)}${AVRO_FILE_EXTENSION}`;
    return this.#paths.map((dir) => nodePath.join(dir, relative));
  }
}
