/**
 * The class model: which classes the generator emits for a set of named schemas, in which files, and how
 * every schema occurrence appears in TypeScript (its type, coercer, schema reference and path-spec class).
 * A pure function of the schemas; the emitters print it (emit-*.ts).
 *
 * One class per schema, never duplicated: named schemas and typeref'd unions are keyed by schema, unions
 * without typeref by their (identical) schema object, arrays and maps by name and location, and two
 * classes that would get the same name in one package are a {@link CodegenError}.
 */
import type { ArrayDataSchema } from '../schema/array-schema';
import type { DataSchema } from '../schema/data-schema';
import type { EnumDataSchema } from '../schema/enum-schema';
import type { FixedDataSchema } from '../schema/fixed-schema';
import type { MapDataSchema } from '../schema/map-schema';
import type { NamedDataSchema } from '../schema/named-schema';
import { RecordDataSchema, type RecordField } from '../schema/record-schema';
import { TyperefDataSchema } from '../schema/typeref-schema';
import { UnionDataSchema, type UnionMember } from '../schema/union-schema';
import {
  customBindingOf,
  unmappedJavaClasses,
  type CustomBinding,
  type CustomClassRef,
} from './custom-binding';
import { CodegenError } from './errors';
import {
  BOXED_NAMES,
  PRIMITIVE_COLLECTIONS_PACKAGE,
  capitalize,
  escapeMember,
  escapeReserved,
  joinPath,
  packageDir,
} from './names';
import { RUNTIME, type ModuleTarget, type SourceFile } from './printer';

/** Where arrays and maps of a type go. */
export type Location =
  | { readonly kind: 'runtime' }
  | { readonly kind: 'package'; readonly pkg: string }
  | { readonly kind: 'file'; readonly file: FileModel };

/** A path-spec class of a type that (transitively) contains records or unions. */
export interface FieldsInfo {
  /** The spec type (`Exif_Fields`, `ArrayPathSpec<AlbumEntry_Fields>`). */
  type(file: SourceFile): string;
  /** The spec class as a value (`Exif_Fields`, `arrayPathSpecs(AlbumEntry_Fields)`). */
  value(file: SourceFile): string;
}

/** How one schema occurrence appears in generated code; each method prints into `file`, importing as needed. */
export interface TypeInfo {
  /** Identity of the bound type (two occurrences with the same key share array and map classes). */
  readonly key: string;
  /** The type as declared: a typeref's name when declared through a typeref. */
  tsType(file: SourceFile): string;
  /** The bound type itself (typeref aliases resolved), for array items and map values. */
  valueType(file: SourceFile): string;
  /** An expression of the type's coercer. */
  coercer(file: SourceFile): string;
  /** An expression of a `SchemaRef` of the type. */
  schemaRef(file: SourceFile): string;
  readonly fields: FieldsInfo | undefined;
  /** Unwrapped (primitive, enum, custom class) rather than a template. */
  readonly direct: boolean;
  /** Base of the names of arrays and maps of this type, and where they go. */
  readonly collectionName: string;
  readonly collectionLocation: Location;
  /** Short description for docs (`long`, `record Exif`...). */
  readonly description: string;
}

export interface FieldModel {
  readonly field: RecordField;
  readonly info: TypeInfo;
  /** The field name capitalized (`getTitle`). */
  readonly accessor: string;
  /** The path-spec method name. */
  readonly pathMethod: string;
}

export interface MemberModel {
  readonly member: UnionMember;
  readonly key: string;
  /** Alias, typeref name or type name, capitalized (`isString`). */
  readonly accessor: string;
  readonly info: TypeInfo;
}

export interface RecordModel {
  readonly kind: 'record';
  readonly name: string;
  readonly file: FileModel;
  readonly schema: RecordDataSchema;
  readonly fields: FieldModel[];
}

export interface UnionModel {
  readonly kind: 'union';
  readonly name: string;
  readonly file: FileModel;
  readonly schema: UnionDataSchema;
  /** The typeref the union is named after; undefined for a union nested in a class. */
  readonly typeref: TyperefDataSchema | undefined;
  /** For a nested union: its schema reference from the enclosing class's (`Caption$schema.field('text')`). */
  readonly schemaPath: string | undefined;
  /** The field or member that holds a nested union (for docs). */
  readonly heldBy: string | undefined;
  readonly members: MemberModel[];
}

export interface EnumModel {
  readonly kind: 'enum';
  readonly name: string;
  readonly file: FileModel;
  readonly schema: EnumDataSchema;
}

export interface FixedModel {
  readonly kind: 'fixed';
  readonly name: string;
  readonly file: FileModel;
  readonly schema: FixedDataSchema;
}

export interface TyperefModel {
  readonly kind: 'typeref';
  readonly name: string;
  readonly file: FileModel;
  readonly schema: TyperefDataSchema;
  /** The type the typeref stands for. */
  readonly target: TypeInfo;
  readonly custom: CustomBinding | undefined;
  /** Java classes of `java` attributes that have no TypeScript mapping (ignored). */
  readonly unmappedJava: readonly string[];
}

export interface CollectionModel {
  readonly kind: 'array' | 'map';
  readonly name: string;
  readonly file: FileModel;
  readonly items: TypeInfo;
}

export type ClassModel = RecordModel | UnionModel | EnumModel | FixedModel | TyperefModel | CollectionModel;

/** One generated file: classes in emission order (the file's own named schema first). */
export class FileModel {
  readonly classes: ClassModel[] = [];
  constructor(
    /** Output-tree path without extension. */
    readonly path: string,
    /** The binding namespace (package) of the file's classes. */
    readonly pkg: string,
    /** The named schema whose text the file registers, if any. */
    readonly named: NamedDataSchema | undefined,
    /** What the header says the file was generated from or for (`from com/example/Foo.pdsc`). */
    readonly origin: string,
  ) {}

  get target(): ModuleTarget {
    return { kind: 'file', path: this.path };
  }
}

/** The class that encloses unions without typeref: a record, a union, or a typeref of a collection. */
interface Enclosing {
  readonly name: string;
  readonly file: FileModel;
}

type Step = { field: string } | { member: string } | 'items' | 'values';

function renderSteps(base: string, steps: readonly Step[], last: string): string {
  return (
    base +
    steps
      .map((s, i) => {
        const t = i === steps.length - 1 ? `<${last}>` : '';
        if (s === 'items') return `.items${t}()`;
        if (s === 'values') return `.values${t}()`;
        return 'field' in s ? `.field${t}(${quote(s.field)})` : `.member${t}(${quote(s.member)})`;
      })
      .join('')
  );
}

/** A single-quoted string literal. */
export function quote(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what gets escaped
  const body = s.replace(/[\\'\u0000-\u001f\u2028\u2029]/g, (c) =>
    c === '\\' || c === "'" ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `'${body}'`;
}

export interface ModelOptions {
  /** Java classes with a TypeScript binding (see custom-binding.ts). */
  readonly javaClasses: Readonly<Record<string, CustomClassRef>>;
  /** The header's "generated from" of a named schema (its source file, relative). */
  readonly originOf: (schema: NamedDataSchema) => string;
}

const TS_PRIMITIVES: Readonly<Record<string, string>> = {
  INT: 'number',
  LONG: 'number | bigint',
  FLOAT: 'number',
  DOUBLE: 'number',
  BOOLEAN: 'boolean',
  STRING: 'string',
};

export class ClassModelBuilder {
  readonly #options: ModelOptions;
  readonly #files = new Map<string, FileModel>();
  readonly #claimed = new Map<string, string>();
  readonly #named = new Map<NamedDataSchema, TypeInfo>();
  readonly #namedFiles = new Map<NamedDataSchema, FileModel>();
  readonly #records = new Map<RecordDataSchema, RecordModel>();
  readonly #unions = new Map<UnionDataSchema, TypeInfo>();
  readonly #collections = new Map<string, TypeInfo>();
  readonly #pending: Array<() => void> = [];

  constructor(options: ModelOptions) {
    this.#options = options;
  }

  /** Adds the classes of `schema` and of everything it refers to. */
  add(schema: DataSchema): void {
    if (schema instanceof UnionDataSchema) {
      throw new CodegenError(
        'SVC_ERR_CODEGEN_UNSUPPORTED',
        'A top-level union has no name to give its class; declare it with a typeref',
      );
    }
    if (schema.isPrimitive()) return;
    this.#resolve(schema, undefined, '', []);
    this.#drain();
  }

  /** The files, by path. */
  files(): ReadonlyMap<string, FileModel> {
    return this.#files;
  }

  /** The file that registers the text of `schema`. */
  fileOf(schema: NamedDataSchema): FileModel {
    const f = this.#namedFiles.get(schema);
    if (f === undefined) throw new Error(`internal: no file for ${schema.getFullName()}`);
    return f;
  }

  #drain(): void {
    for (let job = this.#pending.shift(); job !== undefined; job = this.#pending.shift()) job();
  }

  #claim(pkg: string, name: string, what: string): void {
    const key = `${pkg}.${name}`;
    const known = this.#claimed.get(key);
    if (known !== undefined) {
      throw new CodegenError(
        'SVC_ERR_CODEGEN_NAME_CONFLICT',
        `Two classes would be named ${pkg === '' ? name : key}: ${known} and ${what}`,
      );
    }
    this.#claimed.set(key, what);
  }

  #file(pkg: string, name: string, named: NamedDataSchema | undefined, origin: string): FileModel {
    const path = joinPath(packageDir(pkg), name);
    let file = this.#files.get(path);
    if (file === undefined) {
      file = new FileModel(path, pkg, named, origin);
      this.#files.set(path, file);
    }
    return file;
  }

  // -------------------------------------------------------------------------------------------------------
  // Resolution of schema occurrences

  #resolve(
    schema: DataSchema,
    enc: Enclosing | undefined,
    memberName: string,
    path: readonly Step[],
  ): TypeInfo {
    if (schema.isPrimitive()) return this.#primitive(schema.getType());
    switch (schema.getType()) {
      case 'ARRAY':
        return this.#collection(
          'array',
          this.#resolve((schema as ArrayDataSchema).getItems(), enc, memberName, [...path, 'items']),
        );
      case 'MAP':
        return this.#collection(
          'map',
          this.#resolve((schema as MapDataSchema).getValues(), enc, memberName, [...path, 'values']),
        );
      case 'UNION':
        return this.#nestedUnion(schema as UnionDataSchema, enc, memberName, path);
      default:
        return this.#namedInfo(schema as NamedDataSchema);
    }
  }

  #primitive(type: string): TypeInfo {
    if (type === 'NULL') {
      throw new CodegenError(
        'SVC_ERR_CODEGEN_UNSUPPORTED',
        'The null type can only be used as a union member',
      );
    }
    const boxed = BOXED_NAMES[type]!;
    const name = type.toLowerCase();
    return {
      key: `primitive:${type}`,
      tsType: (file) => TS_PRIMITIVES[type] ?? file.type('ByteString', RUNTIME),
      valueType: (file) => TS_PRIMITIVES[type] ?? file.type('ByteString', RUNTIME),
      coercer: (file) => file.value(`${type}_COERCER`, RUNTIME),
      schemaRef: (file) => `${file.value('SchemaRef', RUNTIME)}.primitive(${quote(name)})`,
      fields: undefined,
      direct: true,
      collectionName: boxed,
      collectionLocation: { kind: 'runtime' },
      description: name,
    };
  }

  /** A class defined in `file` (or the runtime), printed by name. */
  #classRef(
    name: string,
    target: ModuleTarget,
  ): { type: (f: SourceFile) => string; value: (f: SourceFile) => string } {
    return { type: (f) => f.type(name, target), value: (f) => f.value(name, target) };
  }

  #namedRef(schema: NamedDataSchema, file: FileModel): (f: SourceFile) => string {
    return (f) => {
      f.load(file.target);
      return `${f.value('SchemaRef', RUNTIME)}.named(${quote(schema.getFullName())})`;
    };
  }

  #namedInfo(schema: NamedDataSchema): TypeInfo {
    const known = this.#named.get(schema);
    if (known !== undefined) return known;
    const pkg = schema.getBindingNamespace();
    const name = escapeReserved(schema.getName());
    const file = this.#file(pkg, name, schema, `from ${this.#options.originOf(schema)}`);
    this.#namedFiles.set(schema, file);
    const cls = this.#classRef(name, file.target);
    const location: Location = { kind: 'package', pkg };
    let info: TypeInfo;
    switch (schema.getType()) {
      case 'RECORD': {
        const record = schema as RecordDataSchema;
        this.#claim(pkg, name, `${record.getRecordType()} ${schema.getFullName()}`);
        this.#claim(pkg, `${name}_Fields`, `the path specs of ${schema.getFullName()}`);
        const model: RecordModel = { kind: 'record', name, file, schema: record, fields: [] };
        file.classes.push(model);
        this.#records.set(record, model);
        const fields = this.#classRef(`${name}_Fields`, file.target);
        info = {
          key: `named:${schema.getFullName()}`,
          tsType: cls.type,
          valueType: cls.type,
          coercer: (f) => `${f.value('recordCoercer', RUNTIME)}(() => ${cls.value(f)})`,
          schemaRef: this.#namedRef(schema, file),
          fields,
          direct: false,
          collectionName: name,
          collectionLocation: location,
          description: `${record.getRecordType()} ${name}`,
        };
        this.#named.set(schema, info);
        this.#pending.push(() => this.#fillRecord(model));
        return info;
      }
      case 'ENUM':
        this.#claim(pkg, name, `enum ${schema.getFullName()}`);
        file.classes.push({ kind: 'enum', name, file, schema: schema as EnumDataSchema });
        info = {
          key: `named:${schema.getFullName()}`,
          tsType: cls.type,
          valueType: cls.type,
          coercer: (f) => `${f.value('enumCoercer', RUNTIME)}(() => ${cls.value(f)}, ${quote(name)})`,
          schemaRef: this.#namedRef(schema, file),
          fields: undefined,
          direct: true,
          collectionName: name,
          collectionLocation: location,
          description: `enum ${name}`,
        };
        break;
      case 'FIXED':
        this.#claim(pkg, name, `fixed ${schema.getFullName()}`);
        file.classes.push({ kind: 'fixed', name, file, schema: schema as FixedDataSchema });
        info = {
          key: `named:${schema.getFullName()}`,
          tsType: cls.type,
          valueType: cls.type,
          coercer: (f) => `${f.value('fixedCoercer', RUNTIME)}(() => ${cls.value(f)})`,
          schemaRef: this.#namedRef(schema, file),
          fields: undefined,
          direct: false,
          collectionName: name,
          collectionLocation: location,
          description: `fixed ${name}`,
        };
        break;
      default:
        return this.#typeref(schema as TyperefDataSchema, file, name);
    }
    this.#named.set(schema, info);
    return info;
  }

  #typeref(schema: TyperefDataSchema, file: FileModel, name: string): TypeInfo {
    const pkg = file.pkg;
    const ref = schema.getRef();
    if (ref instanceof UnionDataSchema) {
      this.#claim(pkg, name, `union typeref ${schema.getFullName()}`);
      const info = this.#unionClass(ref, name, file, schema, undefined, undefined);
      this.#named.set(schema, info);
      return info;
    }
    this.#claim(pkg, name, `typeref ${schema.getFullName()}`);
    const binding = customBindingOf(schema, this.#options.javaClasses);
    let target: TypeInfo;
    if (binding !== undefined && binding.typeref === schema) {
      target = this.#custom(binding, file);
    } else {
      // unions without typeref inside the typeref (an array of unions) are nested in the typeref's file
      target = this.#resolve(ref, { name, file }, 'Union', []);
    }
    const model: TyperefModel = {
      kind: 'typeref',
      name,
      file,
      schema,
      target,
      custom: binding?.typeref === schema ? binding : undefined,
      unmappedJava: unmappedJavaClasses(schema, this.#options.javaClasses),
    };
    file.classes.unshift(model);
    const alias = this.#classRef(name, file.target);
    const info: TypeInfo = {
      ...target,
      description: `${target.description} (typeref ${name})`,
      tsType: (f) => {
        f.load(file.target);
        return alias.type(f);
      },
    };
    this.#named.set(schema, info);
    return info;
  }

  #custom(binding: CustomBinding, file: FileModel): TypeInfo {
    const { typeref, ref } = binding;
    const base = this.#primitive(typeref.getDereferencedType());
    const cls = (f: SourceFile, value: boolean): string => {
      if (ref.module === undefined) return f.global(ref.class);
      const target: ModuleTarget = { kind: 'module', specifier: ref.module };
      return value ? f.value(ref.class, target) : f.type(ref.class, target);
    };
    return {
      key: `custom:${typeref.getFullName()}`,
      tsType: (f) => cls(f, false),
      valueType: (f) => cls(f, false),
      coercer: (f) => `${f.value('customCoercer', RUNTIME)}(() => ${cls(f, true)}, ${base.coercer(f)})`,
      schemaRef: this.#namedRef(typeref, file),
      fields: undefined,
      direct: true,
      collectionName: capitalize(typeref.getName()),
      collectionLocation: { kind: 'package', pkg: file.pkg },
      description: `${ref.class} (custom binding of ${base.description})`,
    };
  }

  #nestedUnion(
    schema: UnionDataSchema,
    enc: Enclosing | undefined,
    memberName: string,
    path: readonly Step[],
  ): TypeInfo {
    const known = this.#unions.get(schema);
    if (known !== undefined) return known;
    if (enc === undefined) {
      throw new CodegenError(
        'SVC_ERR_CODEGEN_UNSUPPORTED',
        'A union outside any record, union or typeref has no name to give its class; declare it with a typeref',
      );
    }
    const suffix = capitalize(memberName);
    const name = `${enc.name}_${suffix === 'Fields' ? 'FieldsUnion' : suffix}`;
    this.#claim(enc.file.pkg, name, `the union held by ${enc.name}.${memberName}`);
    const schemaPath = renderSteps(`${enc.name}$schema`, path, 'UnionDataSchema');
    const info = this.#unionClass(schema, name, enc.file, undefined, schemaPath, `${enc.name}.${memberName}`);
    this.#unions.set(schema, info);
    return info;
  }

  #unionClass(
    schema: UnionDataSchema,
    name: string,
    file: FileModel,
    typeref: TyperefDataSchema | undefined,
    schemaPath: string | undefined,
    heldBy: string | undefined,
  ): TypeInfo {
    this.#claim(file.pkg, `${name}_Fields`, `the path specs of union ${name}`);
    const model: UnionModel = { kind: 'union', name, file, schema, typeref, schemaPath, heldBy, members: [] };
    file.classes.push(model);
    const cls = this.#classRef(name, file.target);
    const info: TypeInfo = {
      key: typeref === undefined ? `union:${file.path}:${name}` : `named:${typeref.getFullName()}`,
      tsType: cls.type,
      valueType: cls.type,
      coercer: (f) => `${f.value('unionCoercer', RUNTIME)}(() => ${cls.value(f)})`,
      schemaRef:
        typeref === undefined
          ? (f) => {
              if (f.path !== file.path)
                throw new Error(`internal: schema of nested union ${name} used in ${f.path}`);
              return `${name}$schema`;
            }
          : this.#namedRef(typeref, file),
      fields: this.#classRef(`${name}_Fields`, file.target),
      direct: false,
      collectionName: name,
      collectionLocation: typeref === undefined ? { kind: 'file', file } : { kind: 'package', pkg: file.pkg },
      description: `union ${name}`,
    };
    this.#pending.push(() => this.#fillUnion(model));
    return info;
  }

  #collection(kind: 'array' | 'map', items: TypeInfo): TypeInfo {
    const name = items.collectionName + (kind === 'array' ? 'Array' : 'Map');
    const loc = items.collectionLocation;
    let location: Location;
    let target: ModuleTarget;
    let file: FileModel | undefined;
    if (loc.kind === 'runtime' && items.key.startsWith('primitive:')) {
      location = loc;
      target = RUNTIME;
    } else if (loc.kind === 'file') {
      location = loc;
      file = loc.file;
      target = file.target;
    } else {
      const pkg = loc.kind === 'package' ? loc.pkg : PRIMITIVE_COLLECTIONS_PACKAGE;
      location = { kind: 'package', pkg };
      file = this.#file(
        pkg,
        name,
        undefined,
        `for ${kind === 'array' ? 'arrays' : 'maps'} of ${items.description}`,
      );
      target = file.target;
    }
    const id = `${kind}:${location.kind === 'file' ? location.file.path : location.kind === 'package' ? location.pkg : ''}:${name}`;
    const known = this.#collections.get(id);
    const key = `${kind}:${items.key}`;
    if (known !== undefined) {
      if (known.key !== key) {
        throw new CodegenError(
          'SVC_ERR_CODEGEN_NAME_CONFLICT',
          `Two collection classes would be named ${name}: ${known.description} and ${kind === 'array' ? 'array' : 'map'} of ${items.description}`,
        );
      }
      return known;
    }
    if (file !== undefined) {
      this.#claim(file.pkg, name, `${kind} of ${items.description}`);
      file.classes.push({ kind, name, file, items });
    }
    const cls = this.#classRef(name, target);
    const itemsFields = items.fields;
    const info: TypeInfo = {
      key,
      tsType: cls.type,
      valueType: cls.type,
      coercer: (f) => `${f.value(`${kind}Coercer`, RUNTIME)}(() => ${cls.value(f)})`,
      schemaRef: (f) =>
        `${f.value('SchemaRef', RUNTIME)}.${kind === 'array' ? 'arrayOf' : 'mapOf'}(${items.schemaRef(f)})`,
      fields:
        itemsFields === undefined
          ? undefined
          : kind === 'array'
            ? {
                type: (f) => `${f.type('ArrayPathSpec', RUNTIME)}<${itemsFields.type(f)}>`,
                value: (f) => `${f.value('arrayPathSpecs', RUNTIME)}(${itemsFields.value(f)})`,
              }
            : {
                type: (f) => `${f.type('MapPathSpec', RUNTIME)}<${itemsFields.type(f)}>`,
                value: (f) => `${f.value('mapPathSpecs', RUNTIME)}(${itemsFields.value(f)})`,
              },
      direct: false,
      collectionName: name,
      collectionLocation: location,
      description: `${kind} of ${items.description}`,
    };
    this.#collections.set(id, info);
    return info;
  }

  // -------------------------------------------------------------------------------------------------------
  // Filling records and unions (deferred, so that recursive schemas terminate)

  #fillRecord(model: RecordModel): void {
    const accessors = new Map<string, string>();
    for (const field of model.schema.getFields()) {
      const accessor = capitalize(field.getName());
      const clash = accessors.get(accessor);
      if (clash !== undefined) {
        throw new CodegenError(
          'SVC_ERR_CODEGEN_NAME_CONFLICT',
          `Fields "${clash}" and "${field.getName()}" of ${model.schema.getFullName()} would share the accessors get${accessor}/set${accessor}`,
        );
      }
      accessors.set(accessor, field.getName());
      const declaring = field.getRecord() ?? model.schema;
      let enc: Enclosing = model;
      if (declaring !== model.schema) {
        this.#namedInfo(declaring);
        enc = this.#records.get(declaring) ?? model;
      }
      const info = this.#resolve(field.getType(), enc, field.getName(), [{ field: field.getName() }]);
      model.fields.push({ field, info, accessor, pathMethod: escapeMember(field.getName()) });
    }
    for (const inc of model.schema.getInclude()) this.#namedInfo(inc);
  }

  #fillUnion(model: UnionModel): void {
    const accessors = new Map<string, string>();
    for (const member of model.schema.getMembers()) {
      const type = member.getType();
      if (type.getDereferencedType() === 'NULL') continue;
      const key = member.getUnionMemberKey();
      const alias = member.getAlias();
      let accessor = capitalize(
        alias ?? (type instanceof TyperefDataSchema ? type.getName() : key.slice(key.lastIndexOf('.') + 1)),
      );
      if (accessor === 'Null') accessor = 'Null_';
      const clash = accessors.get(accessor);
      if (clash !== undefined) {
        throw new CodegenError(
          'SVC_ERR_CODEGEN_NAME_CONFLICT',
          `Members "${clash}" and "${key}" of union ${model.name} would share the accessors get${accessor}/set${accessor}; give the members aliases`,
        );
      }
      accessors.set(accessor, key);
      const info = this.#resolve(type, model, accessor, [{ member: key }]);
      model.members.push({ member, key, accessor, info });
    }
  }
}

/** True for a record schema declared as `error`. */
export function isErrorRecord(schema: DataSchema): boolean {
  return schema instanceof RecordDataSchema && schema.isErrorRecord();
}
