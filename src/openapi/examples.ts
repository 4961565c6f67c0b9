import { encodeUriString } from '../protocol/uri-element-encoder';
import type { JsonSchema, JsonValue } from './openapi-model';
import { SCHEMA_REF_PREFIX } from './json-schema';

/**
 * Example values made from JSON Schemas, for the curl lines and parameter examples: the smallest value a
 * server takes (required properties only, the first enum symbol, the first union member, `1`, `"x"`), and
 * its Rest.li 2.0 URI form.
 */

/** Looks a component schema up by `$ref`. */
export type SchemaLookup = (ref: string) => JsonSchema | undefined;

/** The smallest value `schema` describes (depth-limited, for recursive schemas). */
export function exampleOf(schema: JsonSchema, lookup: SchemaLookup, depth = 0): JsonValue {
  if (depth > 8) return null;
  if (schema.default !== undefined) return schema.default;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = lookup(ref);
    return target === undefined ? null : exampleOf(target, lookup, depth + 1);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (Array.isArray(schema.oneOf)) {
    const members = schema.oneOf as JsonSchema[];
    const first = members.find((m) => m.type !== 'null') ?? members[0];
    return first === undefined ? null : exampleOf(first, lookup, depth + 1);
  }
  switch (schema.type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'string':
      return typeof schema.minLength === 'number' ? 'x'.repeat(schema.minLength) : 'x';
    case 'array': {
      const items = schema.items;
      return typeof items === 'object' && items !== null && !Array.isArray(items)
        ? [exampleOf(items as JsonSchema, lookup, depth + 1)]
        : [];
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      const out: Record<string, JsonValue> = {};
      for (const name of required) {
        const p = props[name];
        if (p !== undefined) out[name] = exampleOf(p, lookup, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}

/** A value in Rest.li's 2.0 URI form, as a query parameter carries it (`(a:1,b:List(x))`). */
export function uriFormOf(value: JsonValue): string {
  if (value === null) return '';
  if (Array.isArray(value)) return `List(${value.map(uriFormOf).join(',')})`;
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${encodeUriString(k, 'query')}:${uriFormOf((value as Record<string, JsonValue>)[k]!)}`);
    return `(${entries.join(',')})`;
  }
  return encodeUriString(String(value), 'query');
}

/** A lookup over a document's component schemas. */
export function componentLookup(schemas: Readonly<Record<string, JsonSchema>>): SchemaLookup {
  return (ref) =>
    ref.startsWith(SCHEMA_REF_PREFIX) ? schemas[ref.slice(SCHEMA_REF_PREFIX.length)] : undefined;
}
