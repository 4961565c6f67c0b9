import { setSchemaText } from './data-schema';
import { schemaToJson } from './schema-to-json';

/**
 * Makes `DataSchema.toString()` (and `String(schema)`) the schema's canonical JSON (`schemaToJson`). The
 * package root and the schema layer's modules that parse or write schemas install it; a browser page
 * (`svc-framework/client`) carries the JSON writer (~1.1 KB gzipped) only when it calls this, as nothing in
 * the client needs a schema's text (README.md of src/client, "Size"). Without it, `String(schema)` is a
 * short description such as `RECORD com.example.photos.Photo`, not JSON. Idempotent.
 *
 * @example
 * ```ts
 * import { installSchemaText } from 'svc-framework/client';
 * installSchemaText();
 * String(Photo.SCHEMA); // '{"type":"record","name":"Photo",...}'
 * ```
 */
export function installSchemaText(): void {
  setSchemaText(schemaToJson);
}
