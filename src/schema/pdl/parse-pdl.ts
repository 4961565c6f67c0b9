import type { DataSchema } from '../data-schema';
import { SchemaResolver, type ParseSchemaOptions, type ParsedSchema } from '../schema-resolver';

/**
 * Parses PDL text and returns the schema it declares, with the warnings of the parse (as
 * {@link parseSchemaWithWarnings} does for `.pdsc` text; the same options).
 *
 * @example
 * ```ts
 * const { schema } = parsePdlWithWarnings('namespace com.example\nrecord Point { x: int, y: int }');
 * ```
 * @throws SchemaParseError with every problem found (file, line, column, what was expected).
 */
export function parsePdlWithWarnings(text: string, options: ParseSchemaOptions = {}): ParsedSchema {
  const resolver =
    options.resolver ??
    new SchemaResolver({
      resolverPath: options.resolverPath ?? [],
      strict: options.strict ?? false,
      allowForwardReferences: options.allowForwardReferences ?? false,
    });
  const before = resolver.warnings().length;
  const schemas = resolver.parsePdlText(text, options.file);
  return { schema: schemas[schemas.length - 1]!, schemas, warnings: resolver.warnings().slice(before) };
}

/** {@link parsePdlWithWarnings} without the warnings. */
export function parsePdl(text: string, options: ParseSchemaOptions = {}): DataSchema {
  return parsePdlWithWarnings(text, options).schema;
}
