import type { DataSchema } from '../schema/data-schema';
import type { ArrayDataSchema } from '../schema/array-schema';
import type { MapDataSchema } from '../schema/map-schema';
import type { RecordDataSchema } from '../schema/record-schema';
import type { IdlJson, IdlJsonObject } from './restspec-model';

/**
 * JSON text the way Rest.li's tools write IDL files (Jackson's default pretty printer, which the files in
 * Rest.li's repository show): objects one member a line, indented two spaces per enclosing object, `" : "`
 * between name and value; arrays on the line they open (`[ "a", "b" ]`, `[ {` ... `}, {` ... `} ]`); empty
 * ones `{ }` and `[ ]`. Writing the same value gives the same bytes, so exported files diff cleanly.
 */

/** A value of {@link idlJsonText}: JSON, where a bigint is a long written exactly. */
export type IdlJsonValue =
  IdlJson | bigint | readonly IdlJsonValue[] | { readonly [key: string]: IdlJsonValue | undefined };

/**
 * A JSON string literal as Jackson writes one: JSON.stringify's escapes, but a control character without a
 * short escape in upper-case hex (`\u000B`, not `\u000b`), as Rest.li's tool-written files show.
 */
function quoted(s: string): string {
  // escapes are matched left to right, so the `u` of an escaped backslash followed by `u` is never taken
  return JSON.stringify(s).replace(/\\(u00[01][0-9a-f]|.)/g, (m, e: string) =>
    e.length === 5 ? `\\u${e.slice(1).toUpperCase()}` : m,
  );
}

function scalar(value: string | number | boolean | bigint | null): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  return String(value);
}

function entriesOf(value: { readonly [key: string]: IdlJsonValue | undefined }): [string, IdlJsonValue][] {
  const out: [string, IdlJsonValue][] = [];
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v !== undefined) out.push([key, v]);
  }
  return out;
}

function pretty(value: IdlJsonValue, level: number, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(scalar(value));
    return;
  }
  if (Array.isArray(value)) {
    const items = value as readonly IdlJsonValue[];
    if (items.length === 0) {
      out.push('[ ]');
      return;
    }
    out.push('[ ');
    items.forEach((item, i) => {
      if (i > 0) out.push(', ');
      pretty(item, level, out);
    });
    out.push(' ]');
    return;
  }
  const entries = entriesOf(value as { readonly [key: string]: IdlJsonValue | undefined });
  if (entries.length === 0) {
    out.push('{ }');
    return;
  }
  const pad = '  '.repeat(level + 1);
  out.push('{\n');
  entries.forEach(([k, v], i) => {
    if (i > 0) out.push(',\n');
    out.push(pad, quoted(k), ' : ');
    pretty(v, level + 1, out);
  });
  out.push('\n', '  '.repeat(level), '}');
}

/** The pretty text of an IDL file (no final newline, as Rest.li writes them). */
export function idlJsonText(value: IdlJsonValue): string {
  const out: string[] = [];
  pretty(value, 0, out);
  return out.join('');
}

/**
 * One-line JSON with Jackson's spacing (`{ "type" : "array", "items" : "string" }`): how Rest.li writes an
 * unnamed type inside a parameter's `type` or an action's `returns`.
 */
export function inlineJsonText(value: IdlJsonValue): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  if (Array.isArray(value)) {
    const items = value as readonly IdlJsonValue[];
    return items.length === 0 ? '[ ]' : `[ ${items.map(inlineJsonText).join(', ')} ]`;
  }
  const entries = entriesOf(value as { readonly [key: string]: IdlJsonValue | undefined });
  if (entries.length === 0) return '{ }';
  return `{ ${entries.map(([k, v]) => `${quoted(k)} : ${inlineJsonText(v)}`).join(', ')} }`;
}

/**
 * `value` with its keys in the order of `schema`'s fields (included fields first, as the format's records
 * declare them), recursively through records, arrays and maps; keys the schema lacks keep their order after
 * the known ones. Rest.li's tools write members in field order, so this gives their key order.
 */
export function orderedBySchema(value: IdlJsonValue, schema: DataSchema): IdlJsonValue {
  const s = schema.getDereferencedSchema();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (s.getType() !== 'ARRAY') return value as readonly IdlJsonValue[];
    const items = (s as ArrayDataSchema).getItems();
    return (value as readonly IdlJsonValue[]).map((v) => orderedBySchema(v, items));
  }
  const obj = value as { readonly [key: string]: IdlJsonValue | undefined };
  if (s.getType() === 'MAP') {
    const values = (s as MapDataSchema).getValues();
    const out: { [key: string]: IdlJsonValue } = {};
    for (const [k, v] of entriesOf(obj)) out[k] = orderedBySchema(v, values);
    return out;
  }
  if (s.getType() !== 'RECORD') return value;
  const record = s as RecordDataSchema;
  const out: { [key: string]: IdlJsonValue } = {};
  for (const field of record.getFields()) {
    const v = obj[field.getName()];
    if (v !== undefined) out[field.getName()] = orderedBySchema(v, field.getType());
  }
  for (const [k, v] of entriesOf(obj)) if (!(k in out)) out[k] = v;
  return out;
}

/** Parses compact JSON text into an object (for schema JSON written by our writer). */
export function parseJsonObject(text: string): IdlJsonObject {
  return JSON.parse(text) as IdlJsonObject;
}
