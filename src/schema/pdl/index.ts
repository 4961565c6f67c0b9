/** PDL, Rest.li's schema language: parser, writer and tree translation (see src/schema/README.md). */
export { parsePdl, parsePdlWithWarnings } from './parse-pdl';
export { schemaToPdl, type SchemaPdlOptions } from './pdl-writer';
export { translateSchemaTree, type SchemaSyntax, type TranslatedSchemaFile } from './schema-tree-translation';
