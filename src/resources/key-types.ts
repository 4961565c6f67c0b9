import type { DataMap } from '../data';
import {
  ComplexKey,
  CompoundKey,
  InvalidKeyError,
  type KeyPartType,
  type KeySpec,
  type ResourceKey,
  type SimpleKey,
  isComplexKey,
  isCompoundKey,
} from '../protocol';
import type { DataSchema } from '../schema/data-schema';
// the validation modules, not the schema barrel (file resolver, Avro): see protocol/keys.ts
import { CoercionMode, RequiredMode } from '../schema/validation';
// not `validate`: the installed validator, so that a browser page can leave the validator out
import { coerceToSchema } from '../schema/validation/type-coercion';
import type { RecordTemplate } from '../templates';
import {
  INT,
  LONG,
  STRING,
  type RecordClass,
  type ValueOf,
  type ValueType,
  isValueType,
  keyPartTypeOf,
} from './value-types';

/**
 * Key types of resources: what handlers receive for the protocol's simple, compound (association) and
 * complex keys (wire facts §2.5). The protocol layer decodes the wire form (`protocol/keys.ts`); a key type
 * turns the decoded key into the typed value handlers see, and back for batch response maps and the id
 * header:
 *
 * | key type | handlers see |
 * |---|---|
 * | `LONG_KEY`, `simpleKey(enumOf(E))` | `number \| bigint`, `E` |
 * | association `assocKeys: { a: LONG, b: STRING }` | `{ readonly a: number \| bigint; readonly b: string }` |
 * | `complexKey(Key, Params)` | `{ readonly key: Key; readonly params: Params \| undefined }` |
 */
export interface KeyType<K> {
  readonly kind: 'simple' | 'compound' | 'complex';
  /** For messages and clients: `long`, `(followerId,followeeId)`, `PhotoKey`. */
  readonly typeName: string;
  /** How the protocol layer decodes the wire form. */
  readonly spec: KeySpec;
  /**
   * The typed key of a decoded key. A compound key may be partial (association finders take the parts
   * present in the path).
   * @throws InvalidKeyError when a complex key's record does not coerce to its class
   */
  fromProtocol(key: ResourceKey): K;
  /** The protocol key of a typed key (for body map keys, the id header, `Location`). */
  toProtocol(key: K): ResourceKey;
}

/** The TypeScript type of keys of a {@link KeyType}. */
export type KeyOf<KT> = KT extends KeyType<infer K> ? K : never;

/** Parts of an association key: part name → part type (primitive or enum). */
export type AssocKeyParts = { readonly [part: string]: ValueType<unknown> };

/** The typed key of an association: part name → value. */
export type AssocKeyOf<P extends AssocKeyParts> = { readonly [N in keyof P]: ValueOf<P[N]> };

/** A complex key as handlers see it: the key record and its optional params record. */
export interface ComplexResourceKey<KR extends RecordTemplate, PR extends RecordTemplate> {
  readonly key: KR;
  readonly params: PR | undefined;
}

/**
 * The conversion of simple key types, both ways: handlers see the protocol's simple key values as they are.
 * Shared, so that callers can tell it apart and skip calling it per key (a batch's ids).
 */
export function keyAsIs<T>(key: T): T {
  return key;
}

/**
 * A simple key of a primitive or enum type (`simpleKey(LONG)`, `simpleKey(enumOf(Color))`).
 * @throws TypeError for a record or array type (use {@link complexKey})
 */
export function simpleKey<T extends SimpleKey>(type: ValueType<T>): KeyType<T> {
  const part = isValueType(type) ? keyPartTypeOf(type) : undefined;
  if (part === undefined) {
    throw new TypeError('simpleKey takes a primitive or enum type; records are complex keys (complexKey)');
  }
  return Object.freeze({
    kind: 'simple' as const,
    typeName: type.typeName,
    /** The value type the key was made from (the IDL writes its schema: a typeref keeps its name). */
    valueType: type,
    spec: { kind: 'simple', type: part } as const,
    fromProtocol: keyAsIs as (key: ResourceKey) => T,
    toProtocol: keyAsIs,
  });
}

/** A `long` key: `/photos/42`. */
export const LONG_KEY: KeyType<number | bigint> = /* @__PURE__ */ simpleKey(LONG);
/** An `int` key. */
export const INT_KEY: KeyType<number> = /* @__PURE__ */ simpleKey(INT);
/** A `string` key: `/tags/a%20b`. */
export const STRING_KEY: KeyType<string> = /* @__PURE__ */ simpleKey(STRING);

/** The compound key type of an association's parts. */
export function compoundKey<P extends AssocKeyParts>(parts: P): KeyType<AssocKeyOf<P>> {
  const types: { [name: string]: KeyPartType } = {};
  for (const [name, type] of Object.entries(parts)) {
    const part = isValueType(type) ? keyPartTypeOf(type) : undefined;
    if (part === undefined)
      throw new TypeError(`association key part '${name}' must be a primitive or enum type`);
    types[name] = part;
  }
  const names = Object.keys(parts);
  return Object.freeze({
    kind: 'compound' as const,
    typeName: `(${names.join(',')})`,
    spec: { kind: 'compound', parts: Object.freeze(types) } as const,
    fromProtocol(key: ResourceKey): AssocKeyOf<P> {
      if (!isCompoundKey(key)) throw new InvalidKeyError('not a compound key');
      const out: { [name: string]: unknown } = {};
      for (const [name, value] of key.entries()) out[name] = value;
      return Object.freeze(out) as AssocKeyOf<P>;
    },
    toProtocol(key: AssocKeyOf<P>): ResourceKey {
      if (isCompoundKey(key)) return key;
      const ck = new CompoundKey();
      for (const name of Object.keys(key)) {
        const v = (key as { readonly [n: string]: unknown })[name];
        if (v !== undefined) ck.append(name, v as SimpleKey);
      }
      return ck;
    },
  });
}

function coerceRecord(data: DataMap, schema: DataSchema): DataMap {
  const r = coerceToSchema(data, schema, {
    coercionMode: CoercionMode.STRING_TO_PRIMITIVE,
    requiredMode: RequiredMode.IGNORE,
  });
  if (!r.isValid()) throw new InvalidKeyError(`Input field validation failure, reason: ${r.getMessage()}`);
  return r.getFixed() as DataMap;
}

/**
 * A complex key: a key record and an optional params record, both generated classes
 * (`complexKey(PhotoKey, PhotoKeyParams)`). String leaves from the URI are coerced to the fields' types
 * (STRING_TO_PRIMITIVE); required fields are checked only by the validation filter.
 */
export function complexKey<KR extends RecordTemplate, PR extends RecordTemplate = RecordTemplate>(
  keyClass: RecordClass<KR>,
  paramsClass?: RecordClass<PR>,
): KeyType<ComplexResourceKey<KR, PR>> & {
  readonly keyClass: RecordClass<KR>;
  readonly paramsClass?: RecordClass<PR>;
} {
  let keySchema: DataSchema | undefined;
  let paramsSchema: DataSchema | undefined;
  return Object.freeze({
    kind: 'complex' as const,
    typeName: keyClass.name,
    keyClass,
    ...(paramsClass === undefined ? {} : { paramsClass }),
    spec: { kind: 'complex' } as const,
    fromProtocol(key: ResourceKey): ComplexResourceKey<KR, PR> {
      if (!isComplexKey(key)) throw new InvalidKeyError('not a complex key');
      keySchema ??= new keyClass().schema();
      const k = new keyClass(coerceRecord(key.key, keySchema));
      let params: PR | undefined;
      if (key.params !== undefined && paramsClass !== undefined) {
        paramsSchema ??= new paramsClass().schema();
        params = new paramsClass(coerceRecord(key.params, paramsSchema));
      }
      return Object.freeze({ key: k, params });
    },
    toProtocol(key: ComplexResourceKey<KR, PR>): ResourceKey {
      if (isComplexKey(key)) return key;
      return new ComplexKey(key.key.data(), key.params?.data());
    },
  });
}

/** True for a {@link KeyType} (by shape). */
export function isKeyType(v: unknown): v is KeyType<unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const k = v as Partial<KeyType<unknown>>;
  return (
    (k.kind === 'simple' || k.kind === 'compound' || k.kind === 'complex') &&
    typeof k.fromProtocol === 'function' &&
    typeof k.toProtocol === 'function'
  );
}

/**
 * An alternative key of a collection or association (the reference's `@AlternativeKey`): another way to name
 * an entity, e.g. by URN instead of by id. A request picks it with `?altkey=<name>`; its key in the path or
 * in `ids` is then read with `key` and turned into the resource's own key with `toKey` before any handler
 * sees it, and keys the response names (batch maps, the id header, `Location`) are turned back with
 * `fromKey`.
 *
 * @example
 * ```ts
 * alternativeKeys: {
 *   urn: alternativeKey({
 *     key: STRING_KEY,
 *     toKey: (urn: string) => Number(/^urn:li:photo:(\d+)$/.exec(urn)?.[1] ?? NaN),
 *     fromKey: (id: number | bigint) => `urn:li:photo:${id}`,
 *   }),
 * }
 * ```
 */
export interface AlternativeKey<K, A> {
  readonly kind: 'alternativeKey';
  /** How the alternative key reads on the wire (a simple key type, usually). */
  readonly key: KeyType<A>;
  /**
   * The resource's key for an alternative key. Throw `ServiceError` for a chosen status (404 for a URN that
   * names nothing); any other throw, or NaN, is a 400.
   */
  toKey(alt: A): K;
  /** The alternative key of a resource key (for response keys). */
  fromKey(key: K): A;
}

/** Declares an {@link AlternativeKey}. */
export function alternativeKey<K, A>(spec: {
  readonly key: KeyType<A>;
  toKey(alt: A): K;
  fromKey(key: K): A;
}): AlternativeKey<K, A> {
  return Object.freeze({
    kind: 'alternativeKey' as const,
    key: spec.key,
    toKey: (alt: A): K => spec.toKey(alt),
    fromKey: (key: K): A => spec.fromKey(key),
  });
}
