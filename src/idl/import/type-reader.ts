/**
 * IDL type texts (a parameter's `type`, an action's `returns`, a key's `type`) to schemas, and schemas to
 * the value-type expressions interface modules declare parameters with (`LONG`, `recordOf(Photo)`,
 * `arrayOf(enumOf(Color))`, `mapOf(STRING)`, `dataOf(Md5)`).
 */
import type { ArrayDataSchema } from '../../schema/array-schema';
import type { DataSchema } from '../../schema/data-schema';
import type { MapDataSchema } from '../../schema/map-schema';
import type { NamedDataSchema } from '../../schema/named-schema';
import { primitiveSchema } from '../../schema/primitive-schemas';
import { type SchemaResolver } from '../../schema/schema-resolver';
import type { TyperefDataSchema } from '../../schema/typeref-schema';
import type { GeneratedClassRef } from '../../codegen/generate';
import { quote } from '../../codegen/model';
import { RUNTIME, type SourceFile } from '../../codegen/printer';
import { IdlImportError } from '../errors';

const PRIMITIVE_CONSTANTS: Readonly<Record<string, string>> = {
  INT: 'INT',
  LONG: 'LONG',
  FLOAT: 'FLOAT',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  STRING: 'STRING',
  BYTES: 'BYTES',
};

/** Where a type text was found, for errors. */
export interface TypeSite {
  readonly file: string;
  readonly path: string;
}

/** True for a union outside any typeref, or an array or map of one (a parameter type cannot name it). */
function hasUnnamedUnion(schema: DataSchema): boolean {
  switch (schema.getType()) {
    case 'UNION':
      return true;
    case 'ARRAY':
      return hasUnnamedUnion((schema as ArrayDataSchema).getItems());
    case 'MAP':
      return hasUnnamedUnion((schema as MapDataSchema).getValues());
    default:
      return false;
  }
}

/** Reads type texts against one resolver (the snapshots' models first, then the resolver path). */
export class TypeReader {
  readonly #resolver: SchemaResolver;
  readonly #cache = new Map<string, DataSchema>();
  /** Every schema read, for the templates to generate. */
  readonly used = new Set<DataSchema>();

  constructor(resolver: SchemaResolver) {
    this.#resolver = resolver;
  }

  /**
   * The schema of a type text: a primitive or full name, or the JSON of an unnamed schema (older files
   * wrote that JSON as an object: given as one, it is taken as it is).
   * @throws IdlImportError when a name resolves nowhere or the JSON is not a schema
   */
  read(type: unknown, site: TypeSite): DataSchema {
    const text = typeof type === 'string' ? type.trim() : JSON.stringify(type);
    const cached = this.#cache.get(text);
    if (cached !== undefined) return cached;
    let schema: DataSchema;
    try {
      if (text.startsWith('{') || text.startsWith('[') || text.startsWith('"')) {
        const parsed = this.#resolver.parseText(text, `${site.file}#${site.path}`);
        if (parsed.length !== 1) throw new Error('expected one schema');
        schema = parsed[0]!;
      } else {
        schema = primitiveSchema(text) ?? this.#resolver.resolve(text);
      }
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new IdlImportError(site.file, site.path, `the type ${text} cannot be read: ${reason}`, {
        cause: err,
      });
    }
    if (hasUnnamedUnion(schema))
      throw new IdlImportError(
        site.file,
        site.path,
        'an unnamed union has no class to carry it: name it with a typeref',
      );
    this.#cache.set(text, schema);
    this.used.add(schema);
    return schema;
  }
}

/** Schemas to code, in one module. */
export class ValueTypeCode {
  constructor(
    private readonly file: SourceFile,
    private readonly classOf: (schema: NamedDataSchema) => GeneratedClassRef,
  ) {}

  /** A runtime export, imported. */
  rt(name: string): string {
    return this.file.value(name, RUNTIME);
  }

  /** A generated class, imported. */
  cls(schema: NamedDataSchema): string {
    const ref = this.classOf(schema);
    return this.file.value(ref.name, { kind: 'file', path: ref.path });
  }

  /**
   * The value-type expression of a schema. Typerefs are read through (the wire carries the type they
   * name), except a typeref of a union, whose generated class is the union's.
   */
  of(schema: DataSchema, site: TypeSite): string {
    if (schema.isPrimitive()) {
      const c = PRIMITIVE_CONSTANTS[schema.getType()];
      if (c === undefined)
        throw new IdlImportError(
          site.file,
          site.path,
          `a ${schema.getType().toLowerCase()} value has no use here`,
        );
      return this.rt(c);
    }
    switch (schema.getType()) {
      case 'RECORD':
        return `${this.rt('recordOf')}(${this.cls(schema as NamedDataSchema)})`;
      case 'ENUM':
        return `${this.rt('enumOf')}(${this.cls(schema as NamedDataSchema)})`;
      case 'FIXED':
        return `${this.rt('dataOf')}(${this.cls(schema as NamedDataSchema)})`;
      case 'ARRAY':
        return `${this.rt('arrayOf')}(${this.of((schema as ArrayDataSchema).getItems(), site)})`;
      case 'MAP':
        return `${this.rt('mapOf')}(${this.of((schema as MapDataSchema).getValues(), site)})`;
      case 'TYPEREF': {
        // the typeref's generated constant carries its schema: the type keeps its name in an exported IDL
        const typeref = schema as TyperefDataSchema;
        const target = typeref.getDereferencedSchema();
        if (target.getType() === 'UNION') {
          // the union's class is named after the typeref and carries it (TYPEREF_INFO)
          const cls = this.cls(typeref);
          return `${this.rt('typerefOf')}(${cls}.TYPEREF_INFO, ${this.rt('dataOf')}(${cls}))`;
        }
        return `${this.rt('typerefOf')}(${this.cls(typeref)}, ${this.of(typeref.getRef(), site)})`;
      }
      default:
        throw new IdlImportError(
          site.file,
          site.path,
          'an unnamed union has no class to carry it: name it with a typeref',
        );
    }
  }

  /** A literal of `text` (a default as the IDL writes it) for a primitive or enum type; undefined when not one. */
  literal(schema: DataSchema, text: string): string | undefined {
    const s = schema.getType() === 'TYPEREF' ? schema.getDereferencedSchema() : schema;
    switch (s.getType()) {
      case 'STRING':
        return quote(text);
      case 'BOOLEAN':
        return text === 'true' || text === 'false' ? text : undefined;
      case 'INT':
      case 'FLOAT':
      case 'DOUBLE':
        return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) ? String(Number(text)) : undefined;
      case 'LONG':
        if (!/^-?\d+$/.test(text)) return undefined;
        return Number.isSafeInteger(Number(text)) ? String(Number(text)) : `${BigInt(text)}n`;
      case 'ENUM':
        return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) &&
          (s as unknown as { getSymbols(): string[] }).getSymbols().includes(text)
          ? `${this.cls(s as NamedDataSchema)}.${text}`
          : undefined;
      default:
        return undefined;
    }
  }
}
