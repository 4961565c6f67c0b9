import { DataMap } from '../../data/data-map';
import type { ArrayDataSchema } from '../../schema/array-schema';
import type { DataSchema } from '../../schema/data-schema';
import { DataSchemaType } from '../../schema/data-schema-type';
import type { EnumDataSchema } from '../../schema/enum-schema';
import type { FixedDataSchema } from '../../schema/fixed-schema';
import type { MapDataSchema } from '../../schema/map-schema';
import { NamedDataSchema } from '../../schema/named-schema';
import type { RecordDataSchema, RecordField } from '../../schema/record-schema';
import type { TyperefDataSchema } from '../../schema/typeref-schema';
import type { UnionDataSchema } from '../../schema/union-schema';
import { dataToJson } from '../../schema/value-text';

/**
 * The compatibility of two versions of a data schema, with the impacts Rest.li's schema checker
 * (`com.linkedin.data.schema.compatibility`) gives each change. "Reader" is the side that decodes data: a
 * *new reader* reads data written with the older schema, an *old reader* reads data written with the
 * newer one.
 */

/**
 * Rest.li's `CompatibilityMessage.Impact`, plus `DEFAULT_CHANGED` (Svc's: Rest.li's schema checker does
 * not report a changed default; it never breaks a reader, but readers that fill in defaults see other
 * values).
 */
export type SchemaImpact =
  | 'BREAKS_NEW_READER'
  | 'BREAKS_OLD_READER'
  | 'BREAKS_NEW_AND_OLD_READERS'
  | 'NEW_READER_IGNORES_DATA'
  | 'OLD_READER_IGNORES_DATA'
  | 'VALUES_MAY_BE_TRUNCATED_OR_OVERFLOW'
  | 'NEW_SCHEMA_ADDED'
  | 'BREAK_OLD_CLIENTS'
  | 'ENUM_SYMBOLS_ORDER_CHANGE'
  | 'ENUM_VALUE_ADDED'
  | 'DEFAULT_CHANGED';

const ERROR_IMPACTS: ReadonlySet<SchemaImpact> = new Set<SchemaImpact>([
  'BREAKS_NEW_READER',
  'BREAKS_OLD_READER',
  'BREAKS_NEW_AND_OLD_READERS',
  'BREAK_OLD_CLIENTS',
]);

/** True for the impacts Rest.li counts as errors (a reader or client breaks). */
export function isErrorImpact(impact: SchemaImpact): boolean {
  return ERROR_IMPACTS.has(impact);
}

/** What changed, one kind per rule. */
export type SchemaChangeKind =
  | 'TYPE_CHANGED'
  | 'NUMERIC_PROMOTION'
  | 'NAME_CHANGED'
  | 'FIELD_ADDED_OPTIONAL'
  | 'FIELD_ADDED_REQUIRED'
  | 'FIELD_ADDED_WITH_DEFAULT'
  | 'FIELD_REMOVED_OPTIONAL'
  | 'FIELD_REMOVED_REQUIRED'
  | 'OPTIONAL_TO_REQUIRED'
  | 'OPTIONAL_TO_REQUIRED_WITH_DEFAULT'
  | 'REQUIRED_TO_OPTIONAL'
  | 'REQUIRED_WITH_DEFAULT_TO_OPTIONAL'
  | 'DEFAULT_ADDED'
  | 'DEFAULT_REMOVED'
  | 'DEFAULT_CHANGED'
  | 'VALIDATOR_ADDED'
  | 'VALIDATOR_REMOVED'
  | 'ENUM_SYMBOLS_ADDED'
  | 'ENUM_SYMBOLS_REMOVED'
  | 'ENUM_SYMBOLS_REORDERED'
  | 'UNION_MEMBERS_ADDED'
  | 'UNION_MEMBERS_REMOVED'
  | 'UNION_ALIASES_ADDED'
  | 'UNION_ALIASES_REMOVED'
  | 'FIXED_SIZE_CHANGED'
  | 'SCHEMA_ADDED'
  | 'SCHEMA_REMOVED';

/** One change between two schema versions. */
export interface SchemaChange {
  /**
   * Where: named schemas by full name, then fields, `items`, `values`, union members (alias or member key),
   * `ref`, `symbols`, `size`, each after a `/` (`/com.example.Photo/tags/items`).
   */
  readonly path: string;
  readonly kind: SchemaChangeKind;
  readonly impact: SchemaImpact;
  /** Rest.li's wording where it has one (`new record added required fields owner`). */
  readonly message: string;
}

/** Options of {@link compareSchemas}. */
export interface SchemaCompatOptions {
  /**
   * `SCHEMA` (default; what the IDL checker uses) compares typerefs as types of their own: a field changed
   * from `long` to a typeref of `long` is a type change. `DATA` follows typerefs on both sides first, since
   * a typeref does not change the data.
   */
  readonly mode?: 'SCHEMA' | 'DATA';
  /**
   * Allow numeric promotions (int → long → float → double) as a non-breaking
   * `VALUES_MAY_BE_TRUNCATED_OR_OVERFLOW` change. Default `false`, as the IDL checker.
   */
  readonly allowPromotions?: boolean;
  /** Report a changed full name of a named schema (breaks both readers). Default `true`. */
  readonly checkNames?: boolean;
  /** Prefix of every path (e.g. the IDL path of the type being compared). Default `''`. */
  readonly pathPrefix?: string;
}

const PROMOTIONS: Readonly<Partial<Record<DataSchemaType, readonly DataSchemaType[]>>> = {
  LONG: ['INT'],
  FLOAT: ['INT', 'LONG'],
  DOUBLE: ['INT', 'LONG', 'FLOAT'],
};

type Modifier = 'OPTIONAL' | 'REQUIRED' | 'REQUIRED_WITH_DEFAULT';

function modifier(field: RecordField): Modifier {
  if (field.getOptional()) return 'OPTIONAL';
  return field.hasDefault() ? 'REQUIRED_WITH_DEFAULT' : 'REQUIRED';
}

/** Field-modifier transitions and their impacts, as Rest.li's record check has them. */
const MODIFIER_CHANGES: Readonly<
  Record<string, { kind: SchemaChangeKind; impact: SchemaImpact; text: string } | undefined>
> = {
  'OPTIONAL>REQUIRED': {
    kind: 'OPTIONAL_TO_REQUIRED',
    impact: 'BREAKS_NEW_READER',
    text: 'new record changed optional fields to required fields',
  },
  'OPTIONAL>REQUIRED_WITH_DEFAULT': {
    kind: 'OPTIONAL_TO_REQUIRED_WITH_DEFAULT',
    impact: 'BREAKS_NEW_AND_OLD_READERS',
    text: 'new record changed optional fields to required fields with defaults (compatible for Pegasus, not for Avro)',
  },
  'REQUIRED>OPTIONAL': {
    kind: 'REQUIRED_TO_OPTIONAL',
    impact: 'BREAKS_OLD_READER',
    text: 'new record changed required fields to optional fields',
  },
  'REQUIRED_WITH_DEFAULT>OPTIONAL': {
    kind: 'REQUIRED_WITH_DEFAULT_TO_OPTIONAL',
    impact: 'BREAKS_NEW_AND_OLD_READERS',
    text: 'new record changed required fields with defaults to optional fields (compatible for Pegasus, not for Avro)',
  },
  'REQUIRED_WITH_DEFAULT>REQUIRED': {
    kind: 'DEFAULT_REMOVED',
    impact: 'BREAKS_NEW_READER',
    text: 'new record removed default from required fields',
  },
  'REQUIRED>REQUIRED_WITH_DEFAULT': {
    kind: 'DEFAULT_ADDED',
    impact: 'BREAKS_OLD_READER',
    text: 'new record added default to required fields',
  },
};

function lower(type: DataSchemaType): string {
  return type.toLowerCase();
}

function validators(field: RecordField): readonly string[] {
  const v = field.getProperties().get('validate');
  return v instanceof DataMap ? [...v.keySet()] : [];
}

/**
 * One comparison: its changes, and the pairs of named schemas already compared (shared by every
 * {@link SchemaComparison.checkAt} call, so a named pair met twice is reported once).
 * @internal used by the resource checker
 */
export class SchemaComparison {
  readonly changes: SchemaChange[] = [];
  readonly #path: string[] = [];
  readonly #checked = new Map<DataSchema, Set<DataSchema>>();
  readonly #options: Required<SchemaCompatOptions>;
  #prefix: string;

  constructor(options: SchemaCompatOptions) {
    this.#options = {
      mode: options.mode ?? 'SCHEMA',
      allowPromotions: options.allowPromotions ?? false,
      checkNames: options.checkNames ?? true,
      pathPrefix: options.pathPrefix ?? '',
    };
    this.#prefix = this.#options.pathPrefix;
  }

  /** Compares `older` and `newer` with paths below `prefix`; returns the changes this call found. */
  checkAt(prefix: string, older: DataSchema, newer: DataSchema): SchemaChange[] {
    const start = this.changes.length;
    const saved = this.#prefix;
    this.#prefix = prefix;
    try {
      this.check(older, newer);
    } finally {
      this.#prefix = saved;
    }
    return this.changes.slice(start);
  }

  add(kind: SchemaChangeKind, impact: SchemaImpact, message: string): void {
    const path = this.#prefix + this.#path.map((p) => `/${p}`).join('');
    this.changes.push({ path, kind, impact, message });
  }

  /** Runs `fn` with `segment` pushed on the path. */
  #at(segment: string, fn: () => void): void {
    this.#path.push(segment);
    try {
      fn();
    } finally {
      this.#path.pop();
    }
  }

  check(older: DataSchema, newer: DataSchema): void {
    if (older === newer) return;
    // A pair of named schemas is compared once: recursive schemas end, and a named type used at several
    // sites is reported once (under `/models` by the IDL checker). Unnamed pairs (`string` → `int`, an
    // array's items) are compared at every site, as Rest.li compares each site afresh: they cannot
    // recurse without a name, and a change at a second site must not go unreported.
    if (older instanceof NamedDataSchema || newer instanceof NamedDataSchema) {
      let seen = this.#checked.get(older);
      if (seen === undefined) this.#checked.set(older, (seen = new Set()));
      if (seen.has(newer)) return;
      seen.add(newer);
    }

    if (this.#options.mode === 'DATA') {
      const o = older.getDereferencedSchema();
      const n = newer.getDereferencedSchema();
      if (o !== older || n !== newer) {
        this.check(o, n);
        return;
      }
    }
    const named = newer instanceof NamedDataSchema;
    const run = (): void => this.#checkSame(older, newer);
    if (named) this.#at(newer.getFullName(), run);
    else run();
  }

  #sameType(older: DataSchema, newer: DataSchema): boolean {
    if (older.getType() === newer.getType()) return true;
    this.#typeChanged(older.getType(), newer.getType());
    return false;
  }

  #typeChanged(older: DataSchemaType, newer: DataSchemaType): void {
    this.add(
      'TYPE_CHANGED',
      'BREAKS_NEW_AND_OLD_READERS',
      `schema type changed from ${lower(older)} to ${lower(newer)}`,
    );
  }

  #checkSame(older: DataSchema, newer: DataSchema): void {
    const type = newer.getType();
    if (newer.isPrimitive()) {
      this.#checkPrimitive(older.getType(), type);
      return;
    }
    if (!this.#sameType(older, newer)) return;
    switch (type) {
      case DataSchemaType.RECORD:
        this.#checkRecord(older as RecordDataSchema, newer as RecordDataSchema);
        break;
      case DataSchemaType.ENUM:
        this.#checkEnum(older as EnumDataSchema, newer as EnumDataSchema);
        break;
      case DataSchemaType.FIXED:
        this.#checkName(older as FixedDataSchema, newer as FixedDataSchema);
        if ((older as FixedDataSchema).getSize() !== (newer as FixedDataSchema).getSize()) {
          this.#at('size', () =>
            this.add(
              'FIXED_SIZE_CHANGED',
              'BREAKS_NEW_AND_OLD_READERS',
              `fixed size changed from ${(older as FixedDataSchema).getSize()} to ${(newer as FixedDataSchema).getSize()}`,
            ),
          );
        }
        break;
      case DataSchemaType.TYPEREF:
        this.#checkName(older as TyperefDataSchema, newer as TyperefDataSchema);
        this.#at('ref', () => this.check(older.getDereferencedSchema(), newer.getDereferencedSchema()));
        break;
      case DataSchemaType.ARRAY:
        this.#at('items', () =>
          this.check((older as ArrayDataSchema).getItems(), (newer as ArrayDataSchema).getItems()),
        );
        break;
      case DataSchemaType.MAP:
        this.#at('values', () =>
          this.check((older as MapDataSchema).getValues(), (newer as MapDataSchema).getValues()),
        );
        break;
      case DataSchemaType.UNION:
        this.#checkUnion(older as UnionDataSchema, newer as UnionDataSchema);
        break;
      default:
        break;
    }
  }

  #checkPrimitive(older: DataSchemaType, newer: DataSchemaType): void {
    if (older === newer) return;
    const allowed = PROMOTIONS[newer];
    if (this.#options.allowPromotions && allowed?.includes(older) === true) {
      this.add(
        'NUMERIC_PROMOTION',
        'VALUES_MAY_BE_TRUNCATED_OR_OVERFLOW',
        `numeric type promoted from ${lower(older)} to ${lower(newer)}`,
      );
      return;
    }
    this.#typeChanged(older, newer);
  }

  #checkName(older: NamedDataSchema, newer: NamedDataSchema): void {
    if (!this.#options.checkNames || older.getFullName() === newer.getFullName()) return;
    this.add(
      'NAME_CHANGED',
      'BREAKS_NEW_AND_OLD_READERS',
      `name changed from ${older.getFullName()} to ${newer.getFullName()}`,
    );
  }

  #checkRecord(older: RecordDataSchema, newer: RecordDataSchema): void {
    this.#checkName(older, newer);
    const common: [RecordField, RecordField][] = [];
    const groups = new Map<
      string,
      { kind: SchemaChangeKind; impact: SchemaImpact; text: string; names: string[] }
    >();
    const group = (kind: SchemaChangeKind, impact: SchemaImpact, text: string, name: string): void => {
      let g = groups.get(kind);
      if (g === undefined) groups.set(kind, (g = { kind, impact, text, names: [] }));
      g.names.push(name);
    };
    for (const field of newer.getFields()) {
      const name = field.getName();
      const old = older.getField(name);
      const now = modifier(field);
      if (old === undefined) {
        if (now === 'OPTIONAL')
          group('FIELD_ADDED_OPTIONAL', 'OLD_READER_IGNORES_DATA', 'new record added optional fields', name);
        else if (now === 'REQUIRED')
          group('FIELD_ADDED_REQUIRED', 'BREAKS_NEW_READER', 'new record added required fields', name);
        else
          group(
            'FIELD_ADDED_WITH_DEFAULT',
            'OLD_READER_IGNORES_DATA',
            'new record added required with default fields',
            name,
          );
        continue;
      }
      common.push([old, field]);
      for (const key of validators(field).filter((k) => !validators(old).includes(k)))
        this.#at(name, () =>
          this.add('VALIDATOR_ADDED', 'BREAKS_NEW_READER', `added new validation rule "${key}"`),
        );
      for (const key of validators(old).filter((k) => !validators(field).includes(k)))
        this.#at(name, () =>
          this.add('VALIDATOR_REMOVED', 'BREAKS_OLD_READER', `removed old validation rule "${key}"`),
        );
      const change = MODIFIER_CHANGES[`${modifier(old)}>${now}`];
      if (change !== undefined) group(change.kind, change.impact, change.text, name);
    }
    for (const field of older.getFields()) {
      if (newer.getField(field.getName()) !== undefined) continue;
      if (field.getOptional())
        group(
          'FIELD_REMOVED_OPTIONAL',
          'BREAKS_NEW_AND_OLD_READERS',
          'new record removed optional fields',
          field.getName(),
        );
      else
        group(
          'FIELD_REMOVED_REQUIRED',
          'BREAKS_OLD_READER',
          'new record removed required fields',
          field.getName(),
        );
    }
    for (const g of groups.values()) this.add(g.kind, g.impact, `${g.text} ${g.names.join(', ')}`);
    for (const [old, field] of common) {
      this.#at(field.getName(), () => {
        const before = old.getDefault();
        const after = field.getDefault();
        if (before !== undefined && after !== undefined) {
          const a = dataToJson(before);
          const b = dataToJson(after);
          if (a !== b) this.add('DEFAULT_CHANGED', 'DEFAULT_CHANGED', `default changed from ${a} to ${b}`);
        }
        this.check(old.getType(), field.getType());
      });
    }
  }

  #checkEnum(older: EnumDataSchema, newer: EnumDataSchema): void {
    this.#checkName(older, newer);
    this.#at('symbols', () => {
      const was = older.getSymbols();
      const now = newer.getSymbols();
      const added = now.filter((s) => !was.includes(s));
      const removed = was.filter((s) => !now.includes(s));
      if (added.length > 0)
        this.add('ENUM_SYMBOLS_ADDED', 'ENUM_VALUE_ADDED', `new enum added symbols ${added.join(', ')}`);
      if (removed.length > 0)
        this.add(
          'ENUM_SYMBOLS_REMOVED',
          'BREAKS_NEW_READER',
          `new enum removed symbols ${removed.join(', ')}`,
        );
      if (added.length === 0 && removed.length === 0) {
        const at = now.findIndex((s, i) => s !== was[i]);
        if (at >= 0)
          this.add(
            'ENUM_SYMBOLS_REORDERED',
            'ENUM_SYMBOLS_ORDER_CHANGE',
            `enum symbols order changed at symbol ${now[at]}`,
          );
      }
    });
  }

  #checkUnion(older: UnionDataSchema, newer: UnionDataSchema): void {
    if (older.areMembersAliased() !== newer.areMembersAliased()) {
      const added = newer.areMembersAliased();
      this.add(
        added ? 'UNION_ALIASES_ADDED' : 'UNION_ALIASES_REMOVED',
        'BREAKS_NEW_AND_OLD_READERS',
        `new union ${added ? 'added' : 'removed'} member aliases`,
      );
    }
    const added = newer
      .getMembers()
      .filter((m) => older.getTypeByMemberKey(m.getUnionMemberKey()) === undefined);
    const removed = older
      .getMembers()
      .filter((m) => newer.getTypeByMemberKey(m.getUnionMemberKey()) === undefined);
    if (added.length > 0)
      this.add(
        'UNION_MEMBERS_ADDED',
        'BREAKS_OLD_READER',
        `new union added members ${added.map((m) => m.getUnionMemberKey()).join(', ')}`,
      );
    if (removed.length > 0)
      this.add(
        'UNION_MEMBERS_REMOVED',
        'BREAKS_NEW_READER',
        `new union removed members ${removed.map((m) => m.getUnionMemberKey()).join(', ')}`,
      );
    for (const member of newer.getMembers()) {
      const old = older.getTypeByMemberKey(member.getUnionMemberKey());
      if (old === undefined) continue;
      const alias = member.getAlias();
      if (alias !== undefined) this.#at(alias, () => this.check(old, member.getType()));
      else this.check(old, member.getType());
    }
  }
}

/**
 * Every change from `older` to `newer`, in Rest.li's order (per record: the field-set changes, then each
 * common field in turn).
 *
 * @example
 * ```ts
 * compareSchemas(parseSchema(v1), parseSchema(v2));
 * // [{ path: '/com.example.Photo', kind: 'FIELD_ADDED_REQUIRED', impact: 'BREAKS_NEW_READER',
 * //    message: 'new record added required fields owner' }]
 * ```
 */
export function compareSchemas(
  older: DataSchema,
  newer: DataSchema,
  options: SchemaCompatOptions = {},
): SchemaChange[] {
  const comparison = new SchemaComparison(options);
  comparison.check(older, newer);
  return comparison.changes;
}

/**
 * Compares two sets of named schemas by full name (two schema trees, or the models of two snapshots):
 * each name in both is compared as by {@link compareSchemas}, a name only in `older` is removed
 * (`BREAK_OLD_CLIENTS`), a name only in `newer` is added (`NEW_SCHEMA_ADDED`). Each pair of schemas is
 * compared once: a named schema met inside another (in name order) is reported there.
 */
export function compareSchemaSets(
  older: ReadonlyMap<string, NamedDataSchema>,
  newer: ReadonlyMap<string, NamedDataSchema>,
  options: SchemaCompatOptions = {},
): SchemaChange[] {
  const prefix = options.pathPrefix ?? '';
  // One comparison for all names: a pair already compared inside another schema is not compared again.
  const comparison = new SchemaComparison(options);
  const out = comparison.changes;
  const names = [...new Set([...older.keys(), ...newer.keys()])].sort();
  for (const name of names) {
    const o = older.get(name);
    const n = newer.get(name);
    if (o !== undefined && n !== undefined) {
      comparison.check(o, n);
    } else if (o !== undefined) {
      out.push({
        path: `${prefix}/${name}`,
        kind: 'SCHEMA_REMOVED',
        impact: 'BREAK_OLD_CLIENTS',
        message: 'deleting a schema is an incompatible change: it breaks old clients',
      });
    } else {
      out.push({
        path: `${prefix}/${name}`,
        kind: 'SCHEMA_ADDED',
        impact: 'NEW_SCHEMA_ADDED',
        message: 'new schema added',
      });
    }
  }
  return dedupe(out);
}

/** Drops repeated changes (same path, kind and message), keeping the first. */
export function dedupe<T extends { readonly path: string; readonly kind: string; readonly message: string }>(
  changes: readonly T[],
): T[] {
  const seen = new Set<string>();
  return changes.filter((c) => {
    const key = `${c.path}\u0000${c.kind}\u0000${c.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
