import { setCanonicalTextScanner } from './canonical-schema-reader';
import { LineIndex, scanJson } from './json-locations';

/**
 * Makes the canonical reader (generated classes' schema texts, templates/schema-registry.ts) keep where each
 * schema, field and union member is in its text, as the `.pdsc` parser does, through the locating JSON
 * scanner. Installed by the schema layer's barrel (so the package root) and the parser; a browser page
 * (`svc-framework/client`) reads the texts without locations (README.md of src/client, "Size"). Idempotent.
 */
export function installSchemaLocations(): void {
  setCanonicalTextScanner((text) => {
    const scan = scanJson(text);
    if (scan.error !== undefined) throw new Error(`invalid JSON: ${scan.error.message}`);
    const lines = new LineIndex(text);
    return { values: scan.values, position: (offset) => lines.position(offset) };
  });
}
