/**
 * How values and schemas appear inside validation messages, following the reference's wording so that
 * messages read the same as Rest.li's (restli-wire-facts §9.2).
 */
import type { DataSchema } from '../data-schema';
import { schemaToJson } from '../schema-to-json';

/**
 * A value as the reference prints it with `String.valueOf`: a string as is (no quotes), numbers, longs and
 * booleans as digits and words, Data.NULL as `null`, containers as their JSON text, a ByteString as
 * `ByteString(length=..., bytes=...)`. Numbers print the JavaScript way (`1.5`, `1e+21`; Java would print
 * `1.5`, `1.0E21`). Never throws, whatever it is given (garbage passed to `validate`).
 */
export function valueText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'undefined':
    case 'symbol':
      return String(value);
    default:
      try {
        return String(value);
      } catch {
        return Object.prototype.toString.call(value);
      }
  }
}

/**
 * A schema as the reference's `DataSchema.toString()` prints it: its JSON with a space inside brackets and
 * braces and around colons (`[ "int", "string" ]`, `{ "type" : "enum", ... }`), which is how union messages
 * name the union. Key order is Svc's canonical order, which may differ from the reference's.
 */
export function spacedSchemaText(schema: DataSchema): string {
  return spacedJson(schemaToJson(schema));
}

/** Re-spaces compact JSON text token by token (no parsing, so long literals stay exact). */
export function spacedJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    switch (c) {
      case '"': {
        let j = i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        out += text.slice(i, j + 1);
        i = j;
        break;
      }
      case '{':
      case '[':
        out += `${c} `;
        break;
      case '}':
      case ']':
        out += ` ${c}`;
        break;
      case ',':
        out += ', ';
        break;
      case ':':
        out += ' : ';
        break;
      default:
        out += c;
    }
  }
  return out;
}
