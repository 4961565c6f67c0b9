import type * as fs from 'node:fs';
import { nodeBuiltin } from '../data/node-builtin';
import { PATHS as nodePath } from './paths';
import type { DataSchema } from './data-schema';
import type { NamedDataSchema } from './named-schema';
import { SchemaParseError, type SchemaProblem } from './schema-parse-error';
import { isValidName, schemaFilePath } from './schema-names';
import { ParseSession, parseSource, type ParseHost, type ParseSessionOptions } from './schema-parser';
import { parsePdlSource } from './pdl/pdl-parser';

/** The file access the resolver needs; the default reads the local file system synchronously. */
export interface SchemaFileSystem {
  /** The text of a file (UTF-8). */
  readFile(path: string): string;
  /** True when `path` is an existing regular file. */
  isFile(path: string): boolean;
  /** True when `path` is an existing directory. */
  isDirectory(path: string): boolean;
  /** The names of the entries of a directory. */
  readDir(path: string): string[];
}

/**
 * `node:fs`, loaded when a file is first read: not imported, so that the template registry (which reads
 * only registered texts) can use the resolver in a browser (`svc-framework/client`).
 */
function nodeFs(): typeof fs {
  const m = nodeBuiltin<typeof fs>('node:fs');
  if (m === undefined) throw new Error('reading schema files needs Node (node:fs); pass a SchemaFileSystem');
  return m;
}

/** The local file system, synchronously (`fs.readFileSync`, `fs.statSync`). */
export const NODE_FILE_SYSTEM: SchemaFileSystem = {
  readFile: (path) => nodeFs().readFileSync(path, 'utf8'),
  isFile: (path) => stat(path)?.isFile() ?? false,
  isDirectory: (path) => stat(path)?.isDirectory() ?? false,
  readDir: (path) => nodeFs().readdirSync(path),
};

/** The file's status, or undefined when it does not exist or cannot be reached (ENOTDIR, EACCES...). */
function stat(path: string): fs.Stats | undefined {
  try {
    return nodeFs().statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Options of `SchemaResolver`. */
export interface SchemaResolverOptions {
  /**
   * Directories searched for named schemas, in order; a string is split on `:`. The full name `a.b.Name`
   * is looked for as `<dir>/a/b/Name.pdl`, then `<dir>/a/b/Name.pdsc` (so `.pdl` wins when both exist in
   * one directory, as Rest.li's resolver tries PDL first), before the next directory. Archives are not
   * searched.
   */
  readonly resolverPath?: readonly string[] | string;
  /** File access (default: the local file system); tests count reads through it. */
  readonly fileSystem?: SchemaFileSystem;
  /**
   * Refuse what the reference accepts but is most likely a mistake, instead of warning about it (default
   * false): an int or long default with a fraction, a record default with a field the record does not
   * declare, `deprecatedSymbols` naming a symbol the enum lacks. See {@link SchemaResolver.warnings}.
   */
  readonly strict?: boolean;
  /**
   * Let a name refer to a schema defined later in the same text (default false). The reference refuses it
   * (`"B" cannot be resolved`): it resolves each name where it reads it. Only for schema trees written for
   * Svc before this rule; texts that use it do not parse with Rest.li's tools.
   */
  readonly allowForwardReferences?: boolean;
}

/**
 * Parses schema texts and files and finds named schemas on a resolver path. It keeps every schema it has
 * parsed bound to its full name, and reads each file once: later lookups, includes and references use the
 * bound schemas. A parse that finds problems throws a {@link SchemaParseError} listing all of them and
 * leaves the resolver as it was before that parse; a parse that succeeds adds its warnings (what the
 * reference accepts but is most likely a mistake, see {@link SchemaResolverOptions.strict}) to
 * {@link warnings}.
 *
 * @example
 * ```ts
 * const resolver = new SchemaResolver({ resolverPath: ['src/main/pegasus'] });
 * const photo = resolver.resolve('com.example.photos.Photo') as RecordDataSchema;
 * resolver.parseDirectory('src/main/pegasus'); // every .pdsc below, in one go
 * ```
 * @see parseSchema
 */
export class SchemaResolver {
  readonly #path: readonly string[];
  readonly #fs: SchemaFileSystem;
  readonly #bindings = new Map<string, NamedDataSchema>();
  /** Absolute path to the top-level schemas of the file. */
  readonly #files = new Map<string, DataSchema[]>();
  readonly #host: ParseHost;
  readonly #leniency: ParseSessionOptions;
  readonly #warnings: SchemaProblem[] = [];

  constructor(options: SchemaResolverOptions = {}) {
    const path = options.resolverPath ?? [];
    this.#path = typeof path === 'string' ? SchemaResolver.parseResolverPath(path) : [...path];
    this.#fs = options.fileSystem ?? NODE_FILE_SYSTEM;
    this.#leniency = {
      strict: options.strict ?? false,
      allowForwardReferences: options.allowForwardReferences ?? false,
    };
    this.#host = {
      lookup: (fullName) => this.#bindings.get(fullName),
      bind: (fullName, schema, session) => {
        this.#bindings.set(fullName, schema);
        session.boundNames.push(fullName);
      },
      load: (fullName, session) => this.#load(fullName, session).found,
      describeSearch: (candidates) => this.#describeSearch(candidates),
    };
  }

  /** Splits a resolver path written as text (`a:b:c`); empty entries are dropped. */
  static parseResolverPath(text: string): string[] {
    return text.split(':').filter((entry) => entry !== '');
  }

  /**
   * The warnings of every successful parse so far, in the order found (same locations as problems: file,
   * JSON path, line, column). A file is parsed once, so its warnings appear once.
   */
  warnings(): readonly SchemaProblem[] {
    return this.#warnings;
  }

  /** The directories searched, in order. */
  getResolverPath(): readonly string[] {
    return this.#path;
  }

  /**
   * The named schema with this full name: one already parsed, or else the first file
   * `<dir>/a/b/Name.pdsc` on the resolver path that defines it.
   * @throws SchemaParseError `SVC_ERR_SCHEMA_NOT_FOUND` naming the files tried, or `SVC_ERR_SCHEMA_PARSE`
   *   when a file read on the way has problems.
   */
  resolve(fullName: string): NamedDataSchema {
    const bound = this.#bindings.get(fullName);
    if (bound !== undefined) return bound;
    let search: SearchResult = { found: undefined, tried: [], notes: [] };
    this.#session((session) => {
      search = this.#load(fullName, session);
    });
    if (search.found !== undefined) return search.found;
    throw new SchemaParseError(
      [{ path: '', message: this.#notFoundMessage(fullName, search) }],
      'SVC_ERR_SCHEMA_NOT_FOUND',
    );
  }

  /** The schema bound to `fullName` without reading any file, or undefined. */
  getBinding(fullName: string): NamedDataSchema | undefined {
    return this.#bindings.get(fullName);
  }

  /** Every named schema parsed so far, by full name. */
  bindings(): ReadonlyMap<string, NamedDataSchema> {
    return this.#bindings;
  }

  /** The absolute paths of the files parsed so far, in the order they were read. */
  parsedFiles(): string[] {
    return [...this.#files.keys()];
  }

  /**
   * Parses a schema file (any extension) and returns its top-level schemas; a file already parsed is not
   * read again. Names it refers to are found on the resolver path.
   */
  parseFile(path: string): DataSchema[] {
    const absolute = nodePath.resolve(path);
    const cached = this.#files.get(absolute);
    if (cached !== undefined) return [...cached];
    return this.#session((session) => this.#parseFileInto(session, path, absolute));
  }

  /**
   * Parses schema text (one or more JSON values) and returns its top-level schemas. `file` only names the
   * text in problem locations.
   */
  parseText(text: string, file?: string): DataSchema[] {
    return this.#session((session) => parseAny(session, text, file));
  }

  /** Parses PDL text (whatever `file` is called) and returns its top-level schema. */
  parsePdlText(text: string, file?: string): DataSchema[] {
    return this.#session((session) => parsePdlSource(session, text, file));
  }

  /**
   * Parses every `.pdsc` and `.pdl` file below `dir` (recursively, in path order) in one session, so that the files may
   * refer to each other in any order, and returns their top-level schemas.
   */
  parseDirectory(dir: string): DataSchema[] {
    const files = this.#listSchemaFiles(dir);
    return this.#session((session) => {
      const tops: DataSchema[][] = [];
      for (const file of files) {
        const absolute = nodePath.resolve(file);
        tops.push(this.#files.get(absolute) ?? this.#parseFileInto(session, file, absolute));
      }
      return tops;
    }).flat();
  }

  /** Runs one parse session: structure, then names, then checks; undoes it and throws on any problem. */
  #session<T>(parse: (session: ParseSession) => T): T {
    const session = new ParseSession(this.#host, this.#leniency);
    try {
      const result = parse(session);
      session.resolveReferences();
      session.finalize();
      if (session.problemCount > 0) throw new SchemaParseError(session.problems());
      this.#warnings.push(...session.warnings());
      return result;
    } catch (err) {
      for (const name of session.boundNames) this.#bindings.delete(name);
      for (const file of session.files) this.#files.delete(file);
      throw err;
    }
  }

  #parseFileInto(session: ParseSession, path: string, absolute: string): DataSchema[] {
    const tops: DataSchema[] = [];
    this.#files.set(absolute, tops);
    session.files.push(absolute);
    let text: string;
    try {
      text = this.#fs.readFile(path);
    } catch (err) {
      session.report(undefined, `cannot read the file: ${(err as Error).message}`, undefined, path);
      return tops;
    }
    tops.push(...parseAny(session, text, path));
    return tops;
  }

  /** Reads the resolver-path files that may define `fullName`, in path order, until one does. */
  #load(fullName: string, session: ParseSession): SearchResult {
    const result: SearchResult = { found: undefined, tried: [], notes: [] };
    if (!isValidName(fullName)) return result;
    const relative = schemaFilePath(fullName, nodePath.sep);
    const relatives = [`${relative.slice(0, -'.pdsc'.length)}.pdl`, relative];
    for (const dir of this.#path) {
      for (const rel of relatives) {
        const file = nodePath.join(dir, rel);
        result.tried.push(file);
        const absolute = nodePath.resolve(file);
        if (this.#files.has(absolute) || !this.#fs.isFile(file)) continue;
        this.#parseFileInto(session, file, absolute);
        result.found = this.#bindings.get(fullName);
        if (result.found !== undefined) return result;
        result.notes.push(`${file} was read but does not define ${fullName}`);
      }
    }
    return result;
  }

  #describeSearch(candidates: readonly string[]): string {
    if (this.#path.length === 0) return ' (no resolver path is set)';
    const files = candidates
      .filter(isValidName)
      .map((c) => `${schemaFilePath(c).slice(0, -'.pdsc'.length)}.{pdl,pdsc}`);
    if (files.length === 0) return '';
    return ` (looked for ${files.join(' and ')} in ${this.#path.join(', ')})`;
  }

  #notFoundMessage(fullName: string, search: SearchResult): string {
    if (!isValidName(fullName))
      return `schema "${fullName}" was not found: "${fullName}" is not a valid name`;
    if (this.#path.length === 0) return `schema "${fullName}" was not found: the resolver path is empty`;
    const notes = search.notes.length === 0 ? '' : `; ${search.notes.join('; ')}`;
    const dirs = this.#path.filter((d) => !this.#fs.isDirectory(d));
    const missing = dirs.length === 0 ? '' : `; not a directory: ${dirs.join(', ')}`;
    return `schema "${fullName}" was not found: tried ${search.tried.join(', ')}${notes}${missing}`;
  }

  #listSchemaFiles(dir: string): string[] {
    if (!this.#fs.isDirectory(dir)) {
      throw new SchemaParseError([{ file: dir, path: '', message: 'not a directory' }]);
    }
    const out: string[] = [];
    const walk = (d: string): void => {
      for (const name of [...this.#fs.readDir(d)].sort()) {
        const p = nodePath.join(d, name);
        if (this.#fs.isDirectory(p)) walk(p);
        else if ((name.endsWith('.pdsc') || name.endsWith('.pdl')) && this.#fs.isFile(p)) out.push(p);
      }
    };
    walk(dir);
    return out;
  }
}

/** `.pdl` files are PDL; any other text is `.pdsc` JSON. */
function parseAny(session: ParseSession, text: string, file: string | undefined): DataSchema[] {
  return file !== undefined && file.endsWith('.pdl')
    ? parsePdlSource(session, text, file)
    : parseSource(session, text, file);
}

interface SearchResult {
  found: NamedDataSchema | undefined;
  tried: string[];
  notes: string[];
}

/** Options of `parseSchema`. */
export interface ParseSchemaOptions {
  /** Directories searched for named schemas the text refers to (a string is split on `:`). */
  readonly resolverPath?: readonly string[] | string;
  /** Names the text in problem locations. */
  readonly file?: string;
  /** Parse with this resolver (its bindings, path and leniency) instead of a fresh one. */
  readonly resolver?: SchemaResolver;
  /** See {@link SchemaResolverOptions.strict}; ignored with `resolver`. */
  readonly strict?: boolean;
  /** See {@link SchemaResolverOptions.allowForwardReferences}; ignored with `resolver`. */
  readonly allowForwardReferences?: boolean;
}

/** What {@link parseSchemaWithWarnings} returns. */
export interface ParsedSchema {
  /** The schema the text defines (the last one, for several JSON values). */
  readonly schema: DataSchema;
  /** The top-level schemas of the text, in order. */
  readonly schemas: readonly DataSchema[];
  /** What the reference accepts but is most likely a mistake (empty under `strict`, which refuses it). */
  readonly warnings: readonly SchemaProblem[];
}

/**
 * Parses schema text and returns the schema it defines (the last one when the text holds several JSON
 * values, each of which may use the ones before it).
 *
 * @example
 * ```ts
 * const schema = parseSchema('{ "type": "record", "name": "Point", "fields": [ { "name": "x", "type": "int" } ] }');
 * (schema as RecordDataSchema).getField('x')?.getType().getType(); // 'INT'
 * ```
 * @throws SchemaParseError with every problem found (file, JSON path, line and column each).
 */
export function parseSchema(text: string, options: ParseSchemaOptions = {}): DataSchema {
  return parseSchemaWithWarnings(text, options).schema;
}

/**
 * {@link parseSchema}, also returning the warnings of the parse.
 *
 * @example
 * ```ts
 * const { schema, warnings } = parseSchemaWithWarnings(text, { file: 'Foo.pdsc' });
 * for (const w of warnings) console.warn(`WARNING ${formatSchemaProblem(w)}`);
 * ```
 * @throws SchemaParseError with every problem found.
 */
export function parseSchemaWithWarnings(text: string, options: ParseSchemaOptions = {}): ParsedSchema {
  return parseOneText(options, (resolver) => resolver.parseText(text, options.file));
}

/**
 * A parse of one text (`.pdsc` or PDL) with the resolver the options give or make, and the warnings that
 * parse added.
 * @internal
 */
export function parseOneText(
  options: ParseSchemaOptions,
  parse: (resolver: SchemaResolver) => DataSchema[],
): ParsedSchema {
  const resolver =
    options.resolver ??
    new SchemaResolver({
      resolverPath: options.resolverPath ?? [],
      strict: options.strict ?? false,
      allowForwardReferences: options.allowForwardReferences ?? false,
    });
  const before = resolver.warnings().length;
  const schemas = parse(resolver);
  return { schema: schemas[schemas.length - 1]!, schemas, warnings: resolver.warnings().slice(before) };
}

/** The problems of a failed parse, or an empty list when `fn` succeeds (handy in tests and tools). */
export function schemaProblems(fn: () => unknown): SchemaProblem[] {
  try {
    fn();
    return [];
  } catch (err) {
    if (err instanceof SchemaParseError) return [...err.problems];
    throw err;
  }
}
