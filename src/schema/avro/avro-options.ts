/**
 * Options of the Avro translation, each default in one place ({@link resolveDataToAvroOptions},
 * {@link resolveAvroToDataOptions}), as in the reference translator (restli-wire-facts §8.1).
 */
import type { SchemaFileSystem } from '../schema-resolver';
import { AvroOptionsError } from './errors';

/** How an optional field that has a default is translated to Avro. */
export const OptionalDefaultMode = {
  /** `[T, "null"]` with the translated default (the default's type first, as Avro requires). */
  TRANSLATE_DEFAULT: 'TRANSLATE_DEFAULT',
  /** `["null", T]` with default `null`; the field's own default is dropped. */
  TRANSLATE_TO_NULL: 'TRANSLATE_TO_NULL',
} as const;
export type OptionalDefaultMode = (typeof OptionalDefaultMode)[keyof typeof OptionalDefaultMode];

/** How fields with a default (required or optional) are translated to Avro. */
export const DefaultFieldTranslationMode = {
  /** Defaults are translated. */
  TRANSLATE: 'TRANSLATE',
  /** Every field that has a default, nested records included, becomes `["null", T]` with default `null`. */
  DO_NOT_TRANSLATE: 'DO_NOT_TRANSLATE',
} as const;
export type DefaultFieldTranslationMode =
  (typeof DefaultFieldTranslationMode)[keyof typeof DefaultFieldTranslationMode];

/** Whether the original schema is embedded in the Avro schema (under `"com.linkedin.data"`). */
export const EmbedSchemaMode = {
  NONE: 'NONE',
  /** The root (record, enum, fixed, array or map; never a union or primitive) carries the original schema. */
  ROOT_ONLY: 'ROOT_ONLY',
} as const;
export type EmbedSchemaMode = (typeof EmbedSchemaMode)[keyof typeof EmbedSchemaMode];

/** How the Avro JSON is laid out (the reference's `JsonBuilder.Pretty`). */
export const AvroJsonStyle = {
  /** No whitespace at all. */
  COMPACT: 'COMPACT',
  /** One line, a space inside brackets and around `:` (`{ "type" : "int" }`). */
  SPACES: 'SPACES',
  /** Objects one entry per line, indented by 2; arrays on one line (Jackson's default pretty printer). */
  INDENTED: 'INDENTED',
} as const;
export type AvroJsonStyle = (typeof AvroJsonStyle)[keyof typeof AvroJsonStyle];

/** How Avro schema text is turned into our schema. */
export const AvroToDataSchemaTranslationMode = {
  /** Always translate the Avro schema. */
  TRANSLATE: 'TRANSLATE',
  /** If the Avro schema embeds a schema (`com.linkedin.data.schema`), return it unchecked; else translate. */
  RETURN_EMBEDDED_SCHEMA: 'RETURN_EMBEDDED_SCHEMA',
  /** Like RETURN_EMBEDDED_SCHEMA, but first check that the embedded schema translates to the Avro schema. */
  VERIFY_EMBEDDED_SCHEMA: 'VERIFY_EMBEDDED_SCHEMA',
} as const;
export type AvroToDataSchemaTranslationMode =
  (typeof AvroToDataSchemaTranslationMode)[keyof typeof AvroToDataSchemaTranslationMode];

/** Options of the translation of our schemas to Avro. */
export interface DataToAvroSchemaTranslationOptions {
  /** Default TRANSLATE_DEFAULT. */
  readonly optionalDefaultMode?: OptionalDefaultMode;
  /** Default TRANSLATE. */
  readonly defaultFieldTranslationMode?: DefaultFieldTranslationMode;
  /** Default NONE. */
  readonly embedSchemaMode?: EmbedSchemaMode;
  /** Default COMPACT. */
  readonly style?: AvroJsonStyle;
  /** When true, every namespace `ns` becomes `avro.ns` (no namespace becomes `avro`). Default false. */
  readonly overrideNamespace?: boolean;
  /** Typeref property names not copied onto the fields that use the typeref (e.g. `validate`, `java`). Default none. */
  readonly typerefPropertiesExcludeSet?: Iterable<string>;
}

/** {@link DataToAvroSchemaTranslationOptions} with every default applied. */
export interface ResolvedDataToAvroOptions {
  readonly optionalDefaultMode: OptionalDefaultMode;
  readonly defaultFieldTranslationMode: DefaultFieldTranslationMode;
  readonly embedSchemaMode: EmbedSchemaMode;
  readonly style: AvroJsonStyle;
  readonly overrideNamespace: boolean;
  readonly typerefPropertiesExcludeSet: ReadonlySet<string>;
}

/** Options of the translation of Avro schemas to ours. */
export interface AvroToDataSchemaTranslationOptions {
  /** Default RETURN_EMBEDDED_SCHEMA. */
  readonly translationMode?: AvroToDataSchemaTranslationMode;
  /**
   * Directories searched for named Avro schemas the text refers to but does not define: `a.b.Name` is looked
   * for as `<dir>/a/b/Name.avsc`. A string is split on `:`. Default none.
   */
  readonly fileResolutionPaths?: readonly string[] | string;
  /** File access for the `.avsc` lookup (default: the local file system). */
  readonly fileSystem?: SchemaFileSystem;
}

/** {@link AvroToDataSchemaTranslationOptions} with every default applied. */
export interface ResolvedAvroToDataOptions {
  readonly translationMode: AvroToDataSchemaTranslationMode;
  readonly fileResolutionPaths: readonly string[];
  readonly fileSystem: SchemaFileSystem | undefined;
}

function checkEnum<T extends string>(
  what: string,
  values: Readonly<Record<string, T>>,
  value: T | undefined,
  fallback: T,
): T {
  if (value === undefined) return fallback;
  const known = Object.values(values);
  if (!known.includes(value)) {
    throw new AvroOptionsError(
      `unknown ${what} ${JSON.stringify(value)}; expected one of ${known.join(', ')}`,
    );
  }
  return value;
}

/** Applies the defaults and checks every value. @throws AvroOptionsError for an unknown mode or style. */
export function resolveDataToAvroOptions(
  options: DataToAvroSchemaTranslationOptions = {},
): ResolvedDataToAvroOptions {
  return {
    optionalDefaultMode: checkEnum(
      'optional default mode',
      OptionalDefaultMode,
      options.optionalDefaultMode,
      OptionalDefaultMode.TRANSLATE_DEFAULT,
    ),
    defaultFieldTranslationMode: checkEnum(
      'default field translation mode',
      DefaultFieldTranslationMode,
      options.defaultFieldTranslationMode,
      DefaultFieldTranslationMode.TRANSLATE,
    ),
    embedSchemaMode: checkEnum(
      'embed schema mode',
      EmbedSchemaMode,
      options.embedSchemaMode,
      EmbedSchemaMode.NONE,
    ),
    style: checkEnum('JSON style', AvroJsonStyle, options.style, AvroJsonStyle.COMPACT),
    overrideNamespace: options.overrideNamespace ?? false,
    typerefPropertiesExcludeSet: new Set(options.typerefPropertiesExcludeSet ?? []),
  };
}

/** Applies the defaults and checks every value. @throws AvroOptionsError for an unknown mode. */
export function resolveAvroToDataOptions(
  options: AvroToDataSchemaTranslationOptions = {},
): ResolvedAvroToDataOptions {
  const paths = options.fileResolutionPaths ?? [];
  return {
    translationMode: checkEnum(
      'Avro to data schema translation mode',
      AvroToDataSchemaTranslationMode,
      options.translationMode,
      AvroToDataSchemaTranslationMode.RETURN_EMBEDDED_SCHEMA,
    ),
    fileResolutionPaths: typeof paths === 'string' ? paths.split(':').filter((p) => p !== '') : [...paths],
    fileSystem: options.fileSystem,
  };
}
