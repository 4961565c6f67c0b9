import type { DataMap } from '../data';
import { schemasEqual, type DataSchema, type SchemaLocation } from './data-schema';
import { DataSchemaType } from './data-schema-type';
import { ComplexDataSchema, type ComplexState } from './complex-schema';
import { EQUALS, readOnlyProperties, STATE, type SeenPairs } from './internal';

/** What a union member is made from: its type, alias, doc and properties. */
export interface UnionMemberInit {
  readonly type: DataSchema;
  readonly alias?: string;
  readonly doc?: string;
  readonly properties?: DataMap;
  readonly declaredInline?: boolean;
}

/** @internal */
export interface MemberState {
  type: DataSchema;
  alias: string | undefined;
  doc: string;
  properties: DataMap;
  declaredInline: boolean;
  location: SchemaLocation | undefined;
}

/** A member of a union: a type, and an alias when the union's members are aliased. */
export class UnionMember {
  /** @internal */
  readonly [STATE]: MemberState;

  constructor(init: UnionMemberInit) {
    this[STATE] = {
      type: init.type,
      alias: init.alias,
      doc: init.doc ?? '',
      properties: readOnlyProperties(init.properties),
      declaredInline: init.declaredInline ?? false,
      location: undefined,
    };
  }

  getType(): DataSchema {
    return this[STATE].type;
  }

  getAlias(): string | undefined {
    return this[STATE].alias;
  }

  hasAlias(): boolean {
    return this[STATE].alias !== undefined;
  }

  /** The discriminator of this member: its alias, else the type's {@link DataSchema.getUnionMemberKey}. */
  getUnionMemberKey(): string {
    return this[STATE].alias ?? this[STATE].type.getUnionMemberKey();
  }

  /** The member's documentation (aliased members only); empty when there is none. */
  getDoc(): string {
    return this[STATE].doc;
  }

  /** The attributes of an aliased member that the parser does not interpret, read-only. */
  getProperties(): DataMap {
    return this[STATE].properties;
  }

  isDeclaredInline(): boolean {
    return this[STATE].declaredInline;
  }

  /** Where the member was defined, when it came from text. */
  getLocation(): SchemaLocation | undefined {
    return this[STATE].location;
  }

  /** Structural equality (inline-ness is not compared). */
  equals(other: unknown): boolean {
    return other instanceof UnionMember && this[EQUALS](other, new Map());
  }

  /** @internal */
  [EQUALS](other: UnionMember, seen: SeenPairs): boolean {
    const a = this[STATE];
    const b = other[STATE];
    return (
      a.alias === b.alias &&
      a.doc === b.doc &&
      a.properties.equals(b.properties) &&
      schemasEqual(a.type, b.type, seen)
    );
  }
}

/** @internal */
export interface UnionState extends ComplexState {
  members: UnionMember[];
  /** Member key to member index; built on first use (member types must be resolved by then). */
  keyIndex: Map<string, number> | undefined;
}

/**
 * A union schema. A value is Data.NULL (for a union with a null member) or a DataMap with exactly one entry
 * whose key is the member's discriminator: the alias when members are aliased, else the member's
 * {@link DataSchema.getUnionMemberKey} (a typeref member uses the key of the type it refers to).
 */
export class UnionDataSchema extends ComplexDataSchema {
  /** @internal */
  declare readonly [STATE]: UnionState;

  constructor(members: readonly UnionMember[], options: { properties?: DataMap } = {}) {
    const state: UnionState = {
      properties: readOnlyProperties(options.properties),
      hasError: false,
      members: [...members],
      keyIndex: undefined,
    };
    super(state);
  }

  getType(): DataSchemaType {
    return DataSchemaType.UNION;
  }

  getMembers(): readonly UnionMember[] {
    return this[STATE].members;
  }

  /** True when a member has the discriminator `memberKey`. */
  contains(memberKey: string): boolean {
    return this.keyIndex().has(memberKey);
  }

  /** The type of the member with discriminator `memberKey`, or undefined. */
  getTypeByMemberKey(memberKey: string): DataSchema | undefined {
    return this.getMemberByMemberKey(memberKey)?.getType();
  }

  /** The member with discriminator `memberKey`, or undefined. */
  getMemberByMemberKey(memberKey: string): UnionMember | undefined {
    const i = this.keyIndex().get(memberKey);
    return i === undefined ? undefined : this[STATE].members[i];
  }

  /** True when the (non-null) members have aliases. */
  areMembersAliased(): boolean {
    return this[STATE].members.some((m) => m.hasAlias());
  }

  /** True when one member is null (the union's value may then be Data.NULL). */
  hasNullMember(): boolean {
    return this[STATE].members.some((m) => m.getType().getDereferencedType() === DataSchemaType.NULL);
  }

  getUnionMemberKey(): string {
    return 'union';
  }

  private keyIndex(): Map<string, number> {
    const state = this[STATE];
    if (state.keyIndex === undefined) {
      const index = new Map<string, number>();
      state.members.forEach((m, i) => {
        const key = m.getUnionMemberKey();
        if (!index.has(key)) index.set(key, i);
      });
      state.keyIndex = index;
    }
    return state.keyIndex;
  }

  /** @internal */
  override [EQUALS](other: DataSchema, seen: SeenPairs): boolean {
    if (!(other instanceof UnionDataSchema) || !super[EQUALS](other, seen)) return false;
    const a = this[STATE].members;
    const b = other[STATE].members;
    return a.length === b.length && a.every((m, i) => m[EQUALS](b[i]!, seen));
  }
}
