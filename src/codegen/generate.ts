/**
 * The generator's entry points: schemas (files, names or parsed schemas) in, TypeScript file texts out.
 * Pure apart from reading schema files; {@link writeGeneratedFiles} (write-files.ts) puts them on disk.
 */
import * as nodePath from 'node:path';
import type { DataSchema } from '../schema/data-schema';
import { NamedDataSchema } from '../schema/named-schema';
import { isValidName } from '../schema/schema-names';
import { NODE_FILE_SYSTEM, SchemaResolver, type SchemaFileSystem } from '../schema/schema-resolver';
import { DEFAULT_JAVA_CLASSES, type CustomClassRef } from './custom-binding';
import { emitFile, emitIndex } from './emit';
import { CodegenError } from './errors';
import { ClassModelBuilder } from './model';
import { compare } from './printer';

/** One generated file: its path in the output tree (posix separators) and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/** Options of {@link generateTemplatesFromSchemas}; every default is listed here. */
export interface GenerateSchemasOptions {
  /**
   * The module generated files import the runtime from. Default `'svc-framework'`. A path starting with
   * `./` or `../` is relative to the output root (each file gets the right relative path).
   */
  readonly runtimeModule?: string;
  /**
   * TypeScript classes for the brief's `java: { class }` binding attribute, by Java class name; merged over
   * {@link DEFAULT_JAVA_CLASSES} (`java.util.Date` → `Date`). Default none beyond those.
   */
  readonly javaClasses?: Readonly<Record<string, CustomClassRef>>;
  /**
   * Appended to the imports of generated files by generated files: `'.js'` for ES modules (a package with
   * `"type": "module"`), which need extensions; `''` for CommonJS. Default `''`. `svc generate` picks it
   * from the package the files are written into (`detectModuleFormat` in module-format.ts), and so should
   * a build script: `detectModuleFormat(targetDir).importExtension`.
   */
  readonly importExtension?: string;
  /**
   * Directories the header's "generated from" paths are relative to (the first that contains the file);
   * default none: paths relative to the working directory.
   */
  readonly sourceRoots?: readonly string[];
}

/** Options of {@link generateTemplates}. */
export interface GenerateOptions extends GenerateSchemasOptions {
  /**
   * Schema files (any extension), directories (every `.pdsc` below), or full schema names looked up on the
   * resolver path. Only `.pdsc` files are read to resolve names.
   */
  readonly sources: readonly string[];
  /** Directories searched for named schemas (a string is split on `:`). Default none. */
  readonly resolverPath?: readonly string[] | string;
  /** File access (default: the local file system). */
  readonly fileSystem?: SchemaFileSystem;
}

export const DEFAULT_RUNTIME_MODULE = 'svc-framework';

/**
 * Generates the classes of the schemas `options.sources` name and of every schema they refer to.
 *
 * @example
 * ```ts
 * const files = generateTemplates({ sources: ['com.example.photos.Photo'], resolverPath: 'src/main/pegasus' });
 * files.map((f) => f.path); // ['com/example/photos/Photo.ts', ..., 'com/example/photos/index.ts']
 * ```
 * @throws SchemaParseError when a schema does not parse or a name is not found; CodegenError when the
 *   schemas cannot be bound (name conflicts, unsupported bindings).
 */
export function generateTemplates(options: GenerateOptions): GeneratedFile[] {
  const fs = options.fileSystem ?? NODE_FILE_SYSTEM;
  const resolver = new SchemaResolver({ resolverPath: options.resolverPath ?? [], fileSystem: fs });
  const schemas: DataSchema[] = [];
  const roots = [...resolver.getResolverPath()];
  for (const source of options.sources) {
    if (fs.isDirectory(source)) {
      schemas.push(...resolver.parseDirectory(source));
      roots.push(source);
    } else if (fs.isFile(source)) {
      schemas.push(...resolver.parseFile(source));
    } else if (isValidName(source)) {
      schemas.push(resolver.resolve(source));
    } else {
      throw new CodegenError(
        'SVC_ERR_CODEGEN_INPUT',
        `"${source}" is neither a schema file nor a schema name (a name looks like com.example.Photo)`,
      );
    }
  }
  return generateTemplatesFromSchemas(schemas, {
    ...options,
    sourceRoots: [...roots, ...(options.sourceRoots ?? [])],
  });
}

/**
 * Generates the classes of parsed `schemas` and of every schema they refer to: one file per named schema
 * (records, errors, enums, fixed, typerefs; unions without typeref inside their enclosing class's file),
 * one per array or map class of a named type, and an `index.ts` per directory. Deterministic: the same
 * schemas give byte-identical files, sorted by path.
 */
export function generateTemplatesFromSchemas(
  schemas: readonly DataSchema[],
  options: GenerateSchemasOptions = {},
): GeneratedFile[] {
  return withDirectoryIndexes(planTemplates(schemas, options).classFiles, options.importExtension ?? '');
}

/** Where the class of a named schema is: its file (output-tree path without extension) and its name. */
export interface GeneratedClassRef {
  readonly path: string;
  readonly name: string;
}

/**
 * The class files of a generation (no directory indexes: {@link withDirectoryIndexes} adds them once every
 * module of the tree is known), and where each named schema's class went (for code that imports them).
 */
export interface TemplatePlan {
  readonly classFiles: GeneratedFile[];
  /** The generated class of a named schema given to (or referenced by) the generation. */
  classOf(schema: NamedDataSchema): GeneratedClassRef;
}

/**
 * {@link generateTemplatesFromSchemas}, telling also where each named schema's class is: what generators
 * of code over the templates (the IDL import's interface modules) import.
 */
export function planTemplates(
  schemas: readonly DataSchema[],
  options: GenerateSchemasOptions = {},
): TemplatePlan {
  const roots = (options.sourceRoots ?? []).map((r) => nodePath.resolve(r));
  const builder = new ClassModelBuilder({
    javaClasses: { ...DEFAULT_JAVA_CLASSES, ...(options.javaClasses ?? {}) },
    originOf: (schema) => originOf(schema, roots),
  });
  for (const schema of schemas) builder.add(schema);
  const runtimeModule = options.runtimeModule ?? DEFAULT_RUNTIME_MODULE;
  const importExtension = options.importExtension ?? '';
  const classFiles: GeneratedFile[] = [];
  for (const model of builder.files().values()) {
    classFiles.push({
      path: `${model.path}.ts`,
      text: emitFile(model, { runtimeModule, importExtension, fileOf: (s) => builder.fileOf(s) }),
    });
  }
  return {
    classFiles,
    classOf(schema: NamedDataSchema): GeneratedClassRef {
      const file = builder.fileOf(schema);
      const first = file.classes[0];
      if (first === undefined) throw new Error(`internal: no class for ${schema.getFullName()}`);
      return { path: file.path, name: first.name };
    },
  };
}

/**
 * `files` plus an `index.ts` per directory re-exporting its modules, sorted by path. A module named `index`
 * (a class called so) takes the place of its directory's index.
 */
export function withDirectoryIndexes(
  files: readonly GeneratedFile[],
  importExtension: string,
): GeneratedFile[] {
  const dirs = new Map<string, string[]>();
  for (const f of files) {
    const slash = f.path.lastIndexOf('/');
    const dir = slash < 0 ? '' : f.path.slice(0, slash);
    const list = dirs.get(dir) ?? [];
    list.push(f.path.slice(slash + 1).replace(/\.ts$/, ''));
    dirs.set(dir, list);
  }
  const out = [...files];
  for (const [dir, modules] of dirs) {
    if (modules.includes('index')) continue;
    out.push({
      path: dir === '' ? 'index.ts' : `${dir}/index.ts`,
      text: emitIndex([...modules].sort(compare), importExtension),
    });
  }
  return out.sort((a, b) => compare(a.path, b.path));
}

/** Where a named schema came from, for the header: its file relative to the first root containing it. */
function originOf(schema: NamedDataSchema, roots: readonly string[]): string {
  const file = schema.getLocation()?.file;
  return file === undefined ? `schema ${schema.getFullName()}` : displayPath(file, roots);
}

/**
 * A file as generated headers name it: relative to the first of `roots` (absolute) that contains it, else
 * to the working directory, with `/` separators.
 */
export function displayPath(file: string, roots: readonly string[]): string {
  const absolute = nodePath.resolve(file);
  for (const root of roots) {
    const rel = nodePath.relative(root, absolute);
    if (rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel))
      return rel.split(nodePath.sep).join('/');
  }
  return nodePath.relative(process.cwd(), absolute).split(nodePath.sep).join('/');
}

/** True for a named schema (what gets a file of its own). */
export function isNamed(schema: DataSchema): schema is NamedDataSchema {
  return schema instanceof NamedDataSchema;
}
