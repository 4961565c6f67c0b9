/**
 * The base class of generated union classes, and the member descriptors their accessors delegate to.
 *
 * A union wraps a DataMap with exactly one entry `{ memberKey: value }`, or is null (data `Data.NULL`).
 * State rules (brief, "States and transitions"): a null union stays null — setting a member throws
 * {@link NullUnionUnsupportedOperationException}; a non-null union cannot be set to null — member setters
 * refuse null with {@link NullValueException}.
 */
import { DataMap } from '../data/data-map';
import { NULL, type DataNull } from '../data/data-null';
import type { DataSchema } from '../schema/data-schema';
import { NullDataSchema } from '../schema/primitive-schemas';
import type { UnionDataSchema } from '../schema/union-schema';
import { describeValue, type Coercer } from './coercers';
import {
  NullUnionUnsupportedOperationException,
  NullValueException,
  TemplateOutputCastException,
} from './errors';
import { DATA } from './internal';

/** What member descriptors need of a union. */
interface UnionLike {
  /** @internal */
  readonly [DATA]: DataMap | undefined;
  schema(): UnionDataSchema;
}

/** One member of a generated union class: its key (alias or type key) and the coercer of its type. */
export class MemberDef<T> {
  declare readonly key: string;
  declare readonly coercer: Coercer<T>;

  constructor(key: string, coercer: Coercer<T>) {
    this.key = key;
    this.coercer = coercer;
  }

  /** True when the union holds this member (and only it). */
  is(union: UnionLike): boolean {
    const map = union[DATA];
    return map !== undefined && map.has(this.key) && map.size === 1;
  }

  /** The member's value; {@link TemplateOutputCastException} when the union holds another member or is null. */
  get(union: UnionLike): T {
    const map = union[DATA];
    const found = map?.get(this.key);
    if (found === undefined) {
      throw new TemplateOutputCastException(
        `The union holds ${map === undefined ? 'null' : describeMembers(map)}, not member "${this.key}"`,
      );
    }
    return this.coercer.fromData(found);
  }

  /** Makes this member the union's value; returns `union`. */
  set<U extends UnionLike>(union: U, value: T): U {
    const map = union[DATA];
    if (map === undefined) {
      throw new NullUnionUnsupportedOperationException(
        `Cannot set member "${this.key}" of a null union: a null union stays null`,
      );
    }
    if (value === null || value === undefined) {
      throw new NullValueException(`Cannot set member "${this.key}" of a union to ${String(value)}`);
    }
    const data = this.coercer.toData(value);
    map.clear();
    map.put(this.key, data);
    return union;
  }
}

function describeMembers(map: DataMap): string {
  const keys = [...map.keys()];
  if (keys.length === 0) return 'no member';
  return keys.length === 1 ? `member "${keys[0]!}"` : `${keys.length} entries (${keys.join(', ')})`;
}

/** The descriptor of member `key` of a generated union class, converting with `coercer`. */
export function memberDef<T>(key: string, coercer: Coercer<T>): MemberDef<T> {
  return new MemberDef(key, coercer);
}

/**
 * Base class of generated union classes (brief, "Other generated classes" 5).
 *
 * @example
 * ```ts
 * const text = Caption_Text.createWithString('hello');
 * text.isString();        // true
 * text.getString();       // 'hello'
 * text.memberType();      // the string schema
 * new Caption_Text().isNull(); // true: a null union, and it stays null
 * ```
 */
export abstract class UnionTemplate {
  /** @internal the member map, undefined for a null union */
  declare readonly [DATA]: DataMap | undefined;

  /** Wraps `data` (not copied); without data, or with Data.NULL, the union is null. */
  constructor(data?: DataMap | DataNull | null) {
    if (data === undefined || data === null || data === NULL) this[DATA] = undefined;
    else if (data instanceof DataMap) this[DATA] = data;
    else
      throw new TemplateOutputCastException(
        `A union wraps a DataMap or Data.NULL, not ${describeValue(data)}`,
      );
  }

  /** The union schema of the class. */
  abstract schema(): UnionDataSchema;

  /** The wrapped DataMap (live), or Data.NULL for a null union. */
  data(): DataMap | DataNull {
    return this[DATA] ?? NULL;
  }

  /** True for a null union. */
  isNull(): boolean {
    return this[DATA] === undefined;
  }

  /**
   * The schema of the member the union holds: the null schema for a null union.
   * @throws TemplateOutputCastException when the data does not have exactly one entry, or its key is not a member.
   */
  memberType(): DataSchema {
    const map = this[DATA];
    if (map === undefined) return NullDataSchema.INSTANCE;
    const key = this.memberKeyName();
    const type = this.schema().getTypeByMemberKey(key);
    if (type === undefined) throw new TemplateOutputCastException(`"${key}" is not a member of the union`);
    return type;
  }

  /**
   * The key of the member the union holds.
   * @throws NullUnionUnsupportedOperationException for a null union; TemplateOutputCastException when the
   *   data does not have exactly one entry.
   */
  memberKeyName(): string {
    const map = this[DATA];
    if (map === undefined) throw new NullUnionUnsupportedOperationException('A null union has no member key');
    if (map.size !== 1) {
      throw new TemplateOutputCastException(
        `The DataMap of a union does not have exactly one entry: ${map.toString()}`,
      );
    }
    const [key] = map.keys();
    return key!;
  }

  /** True when the union holds exactly the member `key`. */
  memberIs(key: string): boolean {
    const map = this[DATA];
    return map !== undefined && map.has(key) && map.size === 1;
  }

  /** A union of the same class over a shallow clone of the data (a null union stays null). */
  clone(): this {
    const C = this.constructor as new (data?: DataMap) => this;
    return new C(this[DATA]?.clone());
  }

  /** A union of the same class over a deep copy of the data. */
  copy(): this {
    const C = this.constructor as new (data?: DataMap) => this;
    return new C(this[DATA]?.copy());
  }

  /** True for a union template whose data is equal. */
  equals(other: unknown): boolean {
    if (!(other instanceof UnionTemplate)) return false;
    const a = this[DATA];
    const b = other[DATA];
    return a === undefined || b === undefined ? a === b : a.equals(b);
  }

  /** The JSON text of the data (`null` for a null union). */
  toString(): string {
    return this.data().toString();
  }
}
