import type { DataSchema } from '../data-schema';
import { type ParseSchemaOptions, type ParsedSchema, parseOneText } from '../schema-resolver';

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
  return parseOneText(options, (resolver) => resolver.parsePdlText(text, options.file));
}

/** {@link parsePdlWithWarnings} without the warnings. */
export function parsePdl(text: string, options: ParseSchemaOptions = {}): DataSchema {
  return parsePdlWithWarnings(text, options).schema;
}
