/**
 * Where generated classes get their schemas.
 *
 * Each generated module embeds the canonical JSON of its own named schema, with every other named schema
 * written by full name only (`schemaToJson(schema, { namedByReference: true })`), and registers it here at
 * load time. Nothing is read then: a schema is read on first use, by the canonical-text reader
 * (`schema/canonical-schema-reader.ts`: the parser's model without its checks) over the registered texts,
 * so each named schema is read once per process and shared by every class that refers to it
 * (`Photo.schema().getField('exif').getType() === new Exif().schema()`), and modules that refer to each
 * other (records that contain each other, in cycles of any length) load in any order. A generated module
 * imports the modules of the named schemas its text refers to, so that once a module is loaded every name
 * its schema needs has been registered.
 *
 * One registry per process (per copy of the package): registering the same name twice with the same text
 * is a no-op (two generated trees sharing schemas), with another text a {@link TemplateSchemaException}.
 */
import { ArrayDataSchema } from '../schema/array-schema';
import type { DataSchema } from '../schema/data-schema';
import { MapDataSchema } from '../schema/map-schema';
import type { NamedDataSchema } from '../schema/named-schema';
import { primitiveSchema, type PrimitiveDataSchema } from '../schema/primitive-schemas';
import { RecordDataSchema } from '../schema/record-schema';
import { CanonicalRead, type CanonicalReadHost, readCanonicalText } from '../schema/canonical-schema-reader';
import { UnionDataSchema } from '../schema/union-schema';
import { TemplateSchemaException } from './errors';

/**
 * Registered schema texts, read on demand.
 *
 * The texts are canonical JSON written by codegen from schemas the parser accepted, so the registry reads
 * them with the canonical-text reader, which builds the same model as the `.pdsc` parser without its checks,
 * instead of the parser or a resolver: those would bring the parser's checks and messages (and a resolver
 * the PDL parser and file lookup) into every page that uses a generated class (`svc-framework/client`; see
 * `bench/client-size.bench.ts`), and a registered name needs no search path.
 */
export class SchemaRegistry {
  readonly #texts = new Map<string, string>();
  /** Read named schemas by full name (each text is read once). */
  readonly #bindings = new Map<string, NamedDataSchema>();
  /** The names whose text the current read has taken in (a text is read once per read, as a file is). */
  readonly #read = new Set<string>();
  /** The names bound by the current read, unbound when it fails. */
  #bound: string[] = [];
  readonly #host: CanonicalReadHost;

  constructor() {
    this.#host = {
      lookup: (fullName) => this.#bindings.get(fullName),
      bind: (fullName, schema) => {
        this.#bindings.set(fullName, schema);
        this.#bound.push(fullName);
      },
      load: (fullName, read) => {
        const text = this.#texts.get(fullName);
        if (text === undefined || this.#read.has(fullName)) return undefined;
        this.#read.add(fullName);
        readCanonicalText(read, text, `${fullName} (registered)`);
        return this.#bindings.get(fullName);
      },
    };
  }

  /**
   * Registers the schema text of `fullName` (one named schema; others by name). A second registration with
   * the same text is ignored.
   * @throws TemplateSchemaException `SVC_ERR_TEMPLATE_SCHEMA_CONFLICT` when `fullName` has another text.
   */
  register(fullName: string, text: string): void {
    const known = this.#texts.get(fullName);
    if (known === text) return;
    if (known !== undefined) {
      throw new TemplateSchemaException(
        `Two generated modules define schema ${fullName} differently; generate them from the same schema files`,
        'SVC_ERR_TEMPLATE_SCHEMA_CONFLICT',
      );
    }
    this.#texts.set(fullName, text);
  }

  /** True when a text is registered for `fullName`. */
  has(fullName: string): boolean {
    return this.#texts.has(fullName);
  }

  /**
   * The schema of `fullName` (read once, with the registered schemas it refers to).
   * @throws TemplateSchemaException `SVC_ERR_TEMPLATE_SCHEMA_MISSING` when it or a schema it needs is not
   *   registered, or its text is not a canonical schema text.
   */
  resolve(fullName: string): NamedDataSchema {
    const bound = this.#bindings.get(fullName);
    if (bound !== undefined) return bound;
    try {
      const found = this.#readSchema(fullName);
      if (found !== undefined) return found;
      throw new Error(`schema "${fullName}" was not found: no generated module registered it`);
    } catch (err) {
      throw new TemplateSchemaException(
        `The schema ${fullName} of a generated class cannot be resolved from the registered schemas ` +
          `(is the module of every schema it refers to loaded?): ${(err as Error).message}`,
        'SVC_ERR_TEMPLATE_SCHEMA_MISSING',
        { cause: err },
      );
    }
  }

  /** One read, as a parse session: structure, names, includes and defaults; undone on any failure. */
  #readSchema(fullName: string): NamedDataSchema | undefined {
    const read = new CanonicalRead(this.#host);
    try {
      const found = this.#host.load(fullName, read);
      read.finish();
      return found;
    } catch (err) {
      for (const name of this.#bound) this.#bindings.delete(name);
      throw err;
    } finally {
      this.#read.clear();
      this.#bound = [];
    }
  }
}

/** The registry generated modules register with. */
export const SCHEMA_REGISTRY: SchemaRegistry = new SchemaRegistry();

function missing(what: string): TemplateSchemaException {
  return new TemplateSchemaException(what, 'SVC_ERR_TEMPLATE_SCHEMA_MISSING');
}

/**
 * A schema computed on first use and kept: generated classes hold one per class, so that `schema()` is a
 * field read after the first call. Navigation methods (`field`, `member`, `items`...) follow typerefs.
 *
 * @example
 * ```ts
 * const PHOTO = registerSchema<RecordDataSchema>('com.example.photos.Photo', '{"type":"record",...}');
 * const CAPTION_TEXT = SchemaRef.named('com.example.photos.Caption').field<UnionDataSchema>('text');
 * PHOTO.get().getFullName(); // 'com.example.photos.Photo'
 * ```
 */
export class SchemaRef<S extends DataSchema = DataSchema> {
  #value: S | undefined;
  readonly #compute: () => DataSchema;

  constructor(compute: () => DataSchema) {
    this.#compute = compute;
  }

  /** The schema (computed once). */
  get(): S {
    return (this.#value ??= this.#compute() as S);
  }

  /** The registered named schema `fullName`. */
  static named<S extends NamedDataSchema = NamedDataSchema>(
    fullName: string,
    registry: SchemaRegistry = SCHEMA_REGISTRY,
  ): SchemaRef<S> {
    return new SchemaRef<S>(() => registry.resolve(fullName));
  }

  /** The primitive schema `name` (`int`, `string`...). */
  static primitive(name: string): SchemaRef<PrimitiveDataSchema> {
    return new SchemaRef<PrimitiveDataSchema>(() => {
      const s = primitiveSchema(name);
      if (s === undefined) throw missing(`${name} is not a primitive type`);
      return s;
    });
  }

  /** An array schema of `items`. */
  static arrayOf(items: SchemaRef): SchemaRef<ArrayDataSchema> {
    return new SchemaRef<ArrayDataSchema>(() => new ArrayDataSchema(items.get()));
  }

  /** A map schema of `values`. */
  static mapOf(values: SchemaRef): SchemaRef<MapDataSchema> {
    return new SchemaRef<MapDataSchema>(() => new MapDataSchema(values.get()));
  }

  /** The type of field `name` of this record schema. */
  field<T extends DataSchema = DataSchema>(name: string): SchemaRef<T> {
    return new SchemaRef<T>(() => {
      const record = this.get().getDereferencedSchema();
      const field = record instanceof RecordDataSchema ? record.getField(name) : undefined;
      if (field === undefined) throw missing(`${String(record)} has no field "${name}"`);
      return field.getType();
    });
  }

  /** The type of member `key` of this union schema. */
  member<T extends DataSchema = DataSchema>(key: string): SchemaRef<T> {
    return new SchemaRef<T>(() => {
      const union = this.get().getDereferencedSchema();
      const type = union instanceof UnionDataSchema ? union.getTypeByMemberKey(key) : undefined;
      if (type === undefined) throw missing(`${String(union)} has no member "${key}"`);
      return type;
    });
  }

  /** The items of this array schema. */
  items<T extends DataSchema = DataSchema>(): SchemaRef<T> {
    return new SchemaRef<T>(() => {
      const array = this.get().getDereferencedSchema();
      if (!(array instanceof ArrayDataSchema)) throw missing(`${String(array)} is not an array schema`);
      return array.getItems();
    });
  }

  /** The values of this map schema. */
  values<T extends DataSchema = DataSchema>(): SchemaRef<T> {
    return new SchemaRef<T>(() => {
      const map = this.get().getDereferencedSchema();
      if (!(map instanceof MapDataSchema)) throw missing(`${String(map)} is not a map schema`);
      return map.getValues();
    });
  }

  /** This schema after following typerefs. */
  dereferenced<T extends DataSchema = DataSchema>(): SchemaRef<T> {
    return new SchemaRef<T>(() => this.get().getDereferencedSchema());
  }
}

/**
 * Registers the schema text of the named schema `fullName` with the process-wide registry and returns a
 * reference that parses it on first use. Generated modules call this once at load time.
 */
export function registerSchema<S extends NamedDataSchema = NamedDataSchema>(
  fullName: string,
  text: string,
): SchemaRef<S> {
  SCHEMA_REGISTRY.register(fullName, text);
  return SchemaRef.named<S>(fullName);
}
