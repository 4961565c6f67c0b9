/** The IDL import: interface modules and data templates from `.restspec.json` / `.snapshot.json` files. */
export {
  generateFromIdl,
  type ImportIdlOptions,
  type IdlImportResult,
  type IdlImportWarning,
} from './import-idl';
export { readIdlSources, type IdlSources, type IdlResourceSource } from './idl-sources';
export { interfaceModulePath } from './interface-module';
