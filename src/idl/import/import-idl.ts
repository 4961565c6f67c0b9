/**
 * The IDL import: `.restspec.json` / `.snapshot.json` files of any Rest.li (or Svc) service in, TypeScript
 * out: the data templates of every schema the resources use (as `svc generate` writes them) and, beside
 * them, one interface module per root resource. `createResourceClient` over an imported interface is the
 * service's typed client; `implement` over it (collections, associations, simple resources) is a server.
 */
import * as nodePath from 'node:path';
import {
  DEFAULT_RUNTIME_MODULE,
  type GeneratedFile,
  type GenerateSchemasOptions,
  planTemplates,
  displayPath,
  withDirectoryIndexes,
} from '../../codegen/generate';
import { NODE_FILE_SYSTEM, SchemaResolver, type SchemaFileSystem } from '../../schema/schema-resolver';
import { MODELS_ROOT, modelsFileSystem, readIdlSources } from './idl-sources';
import { type ModuleContext, interfaceModule, interfaceModulePath } from './interface-module';
import { TypeReader } from './type-reader';

/** Options of {@link generateFromIdl}; every default is listed here. */
export interface ImportIdlOptions extends GenerateSchemasOptions {
  /**
   * `.restspec.json` and `.snapshot.json` files, or directories searched (recursively) for both. A snapshot
   * carries its schemas; a restspec needs them on the resolver path.
   */
  readonly sources: readonly string[];
  /** Directories searched for the named schemas restspecs refer to (a string is split on `:`). Default none. */
  readonly resolverPath?: readonly string[] | string;
  /** File access (default: the local file system). */
  readonly fileSystem?: SchemaFileSystem;
}

/** A passed-over part of an IDL file (an unknown field, a method Svc lacks), with where it is. */
export interface IdlImportWarning {
  readonly file: string;
  /** JSON path in the file, `/collection/supports/3`. */
  readonly path: string;
  readonly message: string;
}

/** What {@link generateFromIdl} gives. */
export interface IdlImportResult {
  /** Templates, interface modules and each directory's `index.ts`, sorted by path. */
  readonly files: GeneratedFile[];
  /** The interface modules' paths (`com/example/photos/photos.interface.ts`), one per root resource. */
  readonly interfaces: readonly string[];
  readonly warnings: readonly IdlImportWarning[];
}

/**
 * Generates the data templates and the interface modules of the resources the IDL files describe.
 *
 * @example
 * ```ts
 * const { files, warnings } = generateFromIdl({ sources: ['idl/'], resolverPath: 'src/main/pegasus' });
 * writeGeneratedFiles('src/generated', files);
 * // src/generated/com/example/photos/photos.interface.ts: export const photosInterface = collectionInterface({...})
 * ```
 * @throws IdlFormatError for a file that is not valid IDL (naming the file and JSON path); IdlImportError
 *   for a type that resolves nowhere or has no Svc form; SchemaParseError / CodegenError as `svc generate`
 */
export function generateFromIdl(options: ImportIdlOptions): IdlImportResult {
  const base = options.fileSystem ?? NODE_FILE_SYSTEM;
  const sources = readIdlSources(options.sources, base);
  const warnings: IdlImportWarning[] = sources.warnings.map((w) => ({
    file: w.file,
    path: w.problem.path,
    message: w.problem.message,
  }));
  const given =
    typeof options.resolverPath === 'string'
      ? SchemaResolver.parseResolverPath(options.resolverPath)
      : [...(options.resolverPath ?? [])];
  const resolver = new SchemaResolver({
    resolverPath: [MODELS_ROOT, ...given],
    fileSystem: modelsFileSystem(sources.models, base),
  });
  const reader = new TypeReader(resolver);
  const runtimeModule = options.runtimeModule ?? DEFAULT_RUNTIME_MODULE;
  const importExtension = options.importExtension ?? '';
  const roots = [...(options.sourceRoots ?? [])].map((r) => nodePath.resolve(r));
  const emit = (classOf: ModuleContext['classOf'], warn: ModuleContext['warn']): GeneratedFile[] =>
    sources.resources.map((source) =>
      interfaceModule(
        { ...source, file: displayPath(source.file, roots) },
        { reader, classOf, runtimeModule, importExtension, warn },
      ),
    );
  // The modules import the templates' classes, whose names and files are known only once every schema the
  // modules use is: a first emission reads them all (into `reader.used`) and is thrown away.
  emit(
    (schema) => ({ path: schema.getFullName().replace(/\./g, '/'), name: schema.getName() }),
    () => undefined,
  );
  const plan = planTemplates([...reader.used], {
    ...options,
    sourceRoots: [MODELS_ROOT, ...given, ...(options.sourceRoots ?? [])],
  });
  const modules = emit(
    (schema) => plan.classOf(schema),
    (file, path, message) => warnings.push({ file, path, message }),
  );
  const taken = new Set(plan.classFiles.map((f) => f.path));
  for (const m of modules) {
    if (taken.has(m.path)) throw new Error(`internal: ${m.path} generated twice`);
  }
  const files = withDirectoryIndexes([...plan.classFiles, ...modules], importExtension);
  return {
    files,
    interfaces: sources.resources.map((s) => `${interfaceModulePath(s.resource)}.ts`),
    warnings,
  };
}
