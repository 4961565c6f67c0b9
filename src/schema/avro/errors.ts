/**
 * Errors of the Avro translation, and the reference's message shapes they carry.
 *
 * Schema translation errors read like the reference's (`ERROR :: /com.ex.D/u :: cannot translate union value
 * {string=abc} because its type is not the 1st member type of the union [ "int", "string" ]`): the path is
 * the schema traversal path (named schemas by full name, fields by name), the values are written the way
 * Java prints them (`{key=value}`), schemas as spaced JSON. Data translation errors use the same
 * `ERROR :: <path> :: <text>` shape with the path in the data.
 */
import { ByteString, Data, DataList, DataMap, type DataValue } from '../../data';
import { SvcError, registerErrorCodes } from '../../errors/svc-error';
import { SCHEMA_AVRO_ERRORS_CODES } from '../../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(SCHEMA_AVRO_ERRORS_CODES);

/** The codes a {@link SchemaTranslationError} carries. */
export type SchemaTranslationErrorCode =
  'SVC_ERR_AVRO_SCHEMA_TRANSLATION' | 'SVC_ERR_AVRO_SCHEMA_PARSE' | 'SVC_ERR_AVRO_EMBEDDED_SCHEMA';

/**
 * A schema could not be translated, in either direction. `code` says which way it failed:
 * `SVC_ERR_AVRO_SCHEMA_TRANSLATION` (ours → Avro), `SVC_ERR_AVRO_SCHEMA_PARSE` (Avro text → ours),
 * `SVC_ERR_AVRO_EMBEDDED_SCHEMA` (the embedded schema is invalid or does not match).
 */
export class SchemaTranslationError extends SvcError {
  constructor(code: SchemaTranslationErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Data did not fit its schema pair while translating between a DataMap and an Avro generic record. */
export class DataTranslationError extends SvcError {
  /** Where in the data (field names, map keys, list indexes, union member keys). */
  readonly path: readonly (string | number)[];

  constructor(path: readonly (string | number)[], text: string, options?: { cause?: unknown }) {
    super('SVC_ERR_AVRO_DATA_TRANSLATION', formatMessage(path, text), options);
    this.path = path;
  }
}

/** Options named an unknown mode or style. */
export class AvroOptionsError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_AVRO_BAD_OPTIONS', message);
  }
}

/** `ERROR :: /a/b :: text` (an empty path gives `ERROR ::  :: text`, as in the reference). */
export function formatMessage(path: readonly (string | number)[], text: string): string {
  let p = '';
  for (const c of path) p += `/${String(c)}`;
  return `ERROR :: ${p} :: ${text}`;
}

/**
 * A data value the way Java's `toString` prints it: maps as `{k=v, k2=v2}`, lists as `[a, b]`, strings and
 * bytes bare, null as `null`. Long texts are cut.
 */
export function javaString(value: DataValue | undefined, max = 200): string {
  const out = { text: '' };
  javaText(value, out, max);
  return out.text.length > max ? `${out.text.slice(0, max - 3)}...` : out.text;
}

/**
 * Appends until the text is longer than `max`: each level adds a bracket, so the recursion stays within `max`
 * levels whatever the depth of the value (it may be the value that was too deep to translate).
 */
function javaText(value: DataValue | undefined, out: { text: string }, max: number): void {
  if (value === undefined || value === Data.NULL) {
    out.text += 'null';
  } else if (value instanceof DataMap) {
    out.text += '{';
    let first = true;
    for (const [k, v] of value) {
      if (out.text.length > max) break;
      out.text += `${first ? '' : ', '}${k}=`;
      first = false;
      javaText(v, out, max);
    }
    out.text += '}';
  } else if (value instanceof DataList) {
    out.text += '[';
    for (let i = 0; i < value.size && out.text.length <= max; i++) {
      if (i > 0) out.text += ', ';
      javaText(value.get(i), out, max);
    }
    out.text += ']';
  } else if (value instanceof ByteString) {
    out.text += value.asAvroString();
  } else {
    out.text += String(value);
  }
}
