/**
 * The code generator: schemas in, TypeScript classes over the typed-binding runtime (src/templates) out.
 * `svc generate` (src/cli/commands/generate-command.ts) is its command line.
 */
export {
  generateTemplates,
  generateTemplatesFromSchemas,
  planTemplates,
  withDirectoryIndexes,
  type TemplatePlan,
  type GeneratedClassRef,
  DEFAULT_RUNTIME_MODULE,
  type GenerateOptions,
  type GenerateSchemasOptions,
  type GeneratedFile,
} from './generate';
export { writeGeneratedFiles, type WriteResult } from './write-files';
export { detectModuleFormat, type ModuleFormat } from './module-format';
export { DEFAULT_JAVA_CLASSES, type CustomClassRef } from './custom-binding';
export { CodegenError } from './errors';
export { GENERATOR_NAME } from './emit';
