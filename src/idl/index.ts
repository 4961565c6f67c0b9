/**
 * The interface description (IDL) layer: Rest.li's `.restspec.json` and `.snapshot.json` formats as types,
 * their validation against the format's own schemas, export from resource definitions and interfaces, and
 * the server's `OPTIONS` answer. (The compatibility checker, `./compat/`, has its own entry point.)
 */
export * from './restspec-model';
export { IdlFormatError, IdlImportError, type IdlProblem } from './errors';
export {
  validateRestSpec,
  validateSnapshot,
  parseRestSpec,
  parseSnapshot,
  restspecSchemas,
  type IdlValidation,
  type ParsedIdlFile,
} from './validate-restspec';
export {
  exportIdl,
  exportResource,
  idlFileTexts,
  optionsBody,
  referencedSchemas,
  snapshotModels,
  type ExportIdlOptions,
  type ExportedResource,
  type IdlExport,
} from './export';
export { idlJsonText, inlineJsonText, type IdlJsonValue } from './idl-json';
export { optionsAnswer, OPTIONS_CONTENT_TYPE, type OptionsAnswer } from './options-response';
export { RESTSPEC_NAMESPACE, RESTSPEC_PDL } from './schemas/restspec-schemas';
export {
  generateFromIdl,
  interfaceModulePath,
  readIdlSources,
  type ImportIdlOptions,
  type IdlImportResult,
  type IdlImportWarning,
  type IdlSources,
  type IdlResourceSource,
} from './import';
