import type { DataMap, DataValue } from '../data';
import { schemasEqual, type DataSchema } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { EQUALS, readOnlyProperties, STATE, type SeenPairs } from './internal';
import {
  NamedDataSchema,
  namedState,
  type Deprecation,
  type NamedSchemaInit,
  type NamedState,
} from './named-schema';
import type { SchemaLocation } from './data-schema';

/** Whether a record schema was declared as `record` or `error` (an error record may be thrown in the binding). */
export const RecordType = { RECORD: 'record', ERROR: 'error' } as const;
export type RecordType = (typeof RecordType)[keyof typeof RecordType];

/** A field's sort order (an attribute inherited from the reference format; kept, not used). */
export const FieldOrder = { ASCENDING: 'ascending', DESCENDING: 'descending', IGNORE: 'ignore' } as const;
export type FieldOrder = (typeof FieldOrder)[keyof typeof FieldOrder];

/** What a record field is made from: name, type, optionality, default, doc and properties. */
export interface RecordFieldInit {
  readonly name: string;
  readonly type: DataSchema;
  readonly optional?: boolean;
  /** A data-layer value; it is made read-only. */
  readonly default?: DataValue;
  readonly doc?: string;
  readonly deprecated?: Deprecation;
  readonly order?: FieldOrder;
  readonly aliases?: readonly string[];
  readonly properties?: DataMap;
  readonly declaredInline?: boolean;
}

/** @internal */
export interface FieldState {
  name: string;
  type: DataSchema;
  optional: boolean;
  default: DataValue | undefined;
  doc: string;
  deprecated: Deprecation | undefined;
  order: FieldOrder;
  aliases: readonly string[];
  properties: DataMap;
  declaredInline: boolean;
  record: RecordDataSchema | undefined;
  location: SchemaLocation | undefined;
}

function freezeDefault(value: DataValue | undefined): DataValue | undefined {
  if (value !== null && typeof value === 'object' && 'makeReadOnly' in value) value.makeReadOnly();
  return value;
}

/**
 * A field of a record. A field is required unless `optional` is true; a default (kept as a read-only
 * data-layer value) is used by typed getters only.
 */
export class RecordField {
  /** @internal */
  readonly [STATE]: FieldState;

  constructor(init: RecordFieldInit) {
    this[STATE] = {
      name: init.name,
      type: init.type,
      optional: init.optional ?? false,
      default: freezeDefault(init.default),
      doc: init.doc ?? '',
      deprecated: init.deprecated,
      order: init.order ?? FieldOrder.ASCENDING,
      aliases: init.aliases ?? [],
      properties: readOnlyProperties(init.properties),
      declaredInline: init.declaredInline ?? false,
      record: undefined,
      location: undefined,
    };
  }

  getName(): string {
    return this[STATE].name;
  }

  getType(): DataSchema {
    return this[STATE].type;
  }

  /** True when declared `optional: true`; a union with a null member never makes a field optional. */
  getOptional(): boolean {
    return this[STATE].optional;
  }

  /** Same as {@link getOptional}. */
  isOptional(): boolean {
    return this[STATE].optional;
  }

  hasDefault(): boolean {
    return this[STATE].default !== undefined;
  }

  /**
   * The default value (read-only data: a union default is a DataMap `{discriminator: value}` or Data.NULL,
   * bytes and fixed defaults are ByteStrings), or undefined.
   */
  getDefault(): DataValue | undefined {
    return this[STATE].default;
  }

  /** The documentation; empty when there is none. */
  getDoc(): string {
    return this[STATE].doc;
  }

  getDeprecated(): Deprecation | undefined {
    return this[STATE].deprecated;
  }

  isDeprecated(): boolean {
    const d = this[STATE].deprecated;
    return d !== undefined && d !== false;
  }

  getOrder(): FieldOrder {
    return this[STATE].order;
  }

  /** Field aliases (an attribute inherited from the reference format; kept, not used). */
  getAliases(): readonly string[] {
    return this[STATE].aliases;
  }

  /** The attributes the parser does not interpret, read-only. */
  getProperties(): DataMap {
    return this[STATE].properties;
  }

  /** The record that declares the field (for an included field, the included record). */
  getRecord(): RecordDataSchema | undefined {
    return this[STATE].record;
  }

  /** True when the field's type was written inline rather than referred to by name. */
  isDeclaredInline(): boolean {
    return this[STATE].declaredInline;
  }

  /** Where the field was defined, when it came from text. */
  getLocation(): SchemaLocation | undefined {
    return this[STATE].location;
  }

  /** Structural equality (the declaring record and inline-ness are not compared). */
  equals(other: unknown): boolean {
    return other instanceof RecordField && this[EQUALS](other, new Map());
  }

  /** @internal */
  [EQUALS](other: RecordField, seen: SeenPairs): boolean {
    const a = this[STATE];
    const b = other[STATE];
    return (
      a.name === b.name &&
      a.optional === b.optional &&
      a.doc === b.doc &&
      a.deprecated === b.deprecated &&
      a.order === b.order &&
      a.aliases.length === b.aliases.length &&
      a.aliases.every((x, i) => x === b.aliases[i]) &&
      dataEquals(a.default, b.default) &&
      a.properties.equals(b.properties) &&
      schemasEqual(a.type, b.type, seen)
    );
  }
}

function dataEquals(a: DataValue | undefined, b: DataValue | undefined): boolean {
  // NaN equals NaN, as in the data layer's equals (a float default may be NaN)
  if (a === b || (typeof a === 'number' && Number.isNaN(a) && Number.isNaN(b))) return true;
  if (a === undefined || b === undefined) return false;
  if (typeof a === 'object' && 'equals' in a) return a.equals(b);
  return false;
}

export interface RecordSchemaInit extends NamedSchemaInit {
  readonly recordType?: RecordType;
  /** Included records (or typerefs of records); their fields come first unless `fieldsBeforeIncludes`. */
  readonly include?: readonly NamedDataSchema[];
  /** The record's own fields. */
  readonly fields?: readonly RecordField[];
  /**
   * The record's own fields come before the included ones (default false). The `.pdsc` parser sets it when
   * the `fields` key precedes `include` in the text, as the reference's does.
   */
  readonly fieldsBeforeIncludes?: boolean;
}

/** @internal */
export interface RecordState extends NamedState {
  recordType: RecordType;
  include: NamedDataSchema[];
  includesDeclaredInline: Set<NamedDataSchema>;
  ownFields: RecordField[];
  fieldsBeforeIncludes: boolean;
  /** Included fields (in include order, transitively) and own fields, in the order `fieldsBeforeIncludes` says. */
  fields: RecordField[];
  fieldIndex: Map<string, number>;
}

/**
 * A record (or error) schema: an ordered list of fields, the fields of included records first.
 *
 * @example
 * ```ts
 * const photo = resolver.resolve('com.example.photos.Photo') as RecordDataSchema;
 * photo.getField('title')?.getType().getType(); // 'STRING'
 * photo.index('title');                           // position among all fields, -1 when absent
 * ```
 */
export class RecordDataSchema extends NamedDataSchema {
  /** @internal */
  declare readonly [STATE]: RecordState;

  constructor(init: RecordSchemaInit) {
    const own = [...(init.fields ?? [])];
    // Object.assign, not a spread: spreading the named state into a literal cost ~25 µs per schema on Node 20
    const state: RecordState = Object.assign(namedState(init), {
      recordType: init.recordType ?? RecordType.RECORD,
      include: [...(init.include ?? [])],
      includesDeclaredInline: new Set<NamedDataSchema>(),
      ownFields: own,
      fieldsBeforeIncludes: init.fieldsBeforeIncludes ?? false,
      fields: [] as RecordField[],
      fieldIndex: new Map<string, number>(),
    });
    super(state);
    for (const f of own) f[STATE].record ??= this;
    const included: RecordField[] = [];
    for (const inc of this[STATE].include) {
      const target = inc.getDereferencedSchema();
      if (target instanceof RecordDataSchema) included.push(...target.getFields());
    }
    setRecordFields(this, this[STATE].fieldsBeforeIncludes ? [...own, ...included] : [...included, ...own]);
  }

  getType(): DataSchemaType {
    return DataSchemaType.RECORD;
  }

  /** `record` or `error`. */
  getRecordType(): RecordType {
    return this[STATE].recordType;
  }

  isErrorRecord(): boolean {
    return this[STATE].recordType === RecordType.ERROR;
  }

  /** All fields: included ones first, then the record's own (the other way round with {@link isFieldsBeforeIncludes}). */
  getFields(): readonly RecordField[] {
    return this[STATE].fields;
  }

  /** The fields the record declares itself (not included ones). */
  getOwnFields(): readonly RecordField[] {
    return this[STATE].ownFields;
  }

  /** The field named `name`, or undefined. */
  getField(name: string): RecordField | undefined {
    const i = this[STATE].fieldIndex.get(name);
    return i === undefined ? undefined : this[STATE].fields[i];
  }

  /** Position of the field named `name` among {@link getFields}, or -1. */
  index(name: string): number {
    return this[STATE].fieldIndex.get(name) ?? -1;
  }

  contains(name: string): boolean {
    return this[STATE].fieldIndex.has(name);
  }

  /** The included schemas as declared (records or typerefs of records). */
  getInclude(): readonly NamedDataSchema[] {
    return this[STATE].include;
  }

  /** True when `schema` was written inline in the include list. */
  isIncludeDeclaredInline(schema: NamedDataSchema): boolean {
    return this[STATE].includesDeclaredInline.has(schema);
  }

  /**
   * True when the record's own fields come before the included ones (in {@link getFields}, canonical JSON and
   * the Avro translation): the `.pdsc` text had `fields` before `include`. Rest.li's flag of the same name.
   */
  isFieldsBeforeIncludes(): boolean {
    return this[STATE].fieldsBeforeIncludes;
  }

  /** True when `field` came from an included record. */
  isFieldFromIncludes(field: RecordField): boolean {
    return field.getRecord() !== this;
  }

  /** @internal */
  override [EQUALS](other: DataSchema, seen: SeenPairs): boolean {
    if (!(other instanceof RecordDataSchema) || !super[EQUALS](other, seen)) return false;
    const tracked = seen.get(this);
    if (tracked !== undefined) return tracked === other;
    seen.set(this, other);
    const a = this[STATE];
    const b = other[STATE];
    return (
      a.recordType === b.recordType &&
      a.include.length === b.include.length &&
      a.include.every((s, i) => s.getFullName() === b.include[i]!.getFullName()) &&
      a.fields.length === b.fields.length &&
      a.fields.every((f, i) => f[EQUALS](b.fields[i]!, seen))
    );
  }
}

/** Sets the complete field list and its index. Duplicate names keep the first. @internal */
export function setRecordFields(record: RecordDataSchema, fields: RecordField[]): void {
  const state = record[STATE];
  state.fields = fields;
  const index = new Map<string, number>();
  fields.forEach((f, i) => {
    if (!index.has(f.getName())) index.set(f.getName(), i);
  });
  state.fieldIndex = index;
}
