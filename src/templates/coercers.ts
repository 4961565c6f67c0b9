/**
 * Conversions between the values generated classes take and return and the data they store (brief, "Type
 * mapping"), one {@link Coercer} per binding type.
 *
 * Input (`toData`, used by setters, `push`, `createWith...`) accepts the exact value or one that converts
 * without loss, and throws the data layer's {@link ClassCastException} otherwise:
 * - int: an integral number or bigint in the int32 range; long: an integral number or a bigint in the 64-bit
 *   range, handed to the data layer as a bigint, so that PSON writes the long marker even for 0 (the data
 *   layer stores it as a number inside ±(2^53-1) and marks the slot long, src/data/long-marks.ts; getters
 *   read the number); float and double: any number, NaN and
 *   ±Infinity included (the data layer holds them; JSON writes them as "NaN", "Infinity", "-Infinity"), or a
 *   bigint that a number holds exactly (a finite float also within ±3.4028235e38). A fractional number for an
 *   int or long is refused, not truncated: TypeScript types both as `number`, so truncating would hide a bug.
 * - boolean, string: only that type. bytes: a ByteString, a valid Avro string (each char U+0000..U+00FF one
 *   byte) or a Uint8Array (copied).
 * - enums: a symbol the binding knows (not `$UNKNOWN`); templates: an instance of the generated class;
 *   custom classes: an instance, converted by the registered {@link DirectCoercer}.
 *
 * Output (`fromData`, used by getters) follows validation's CoercionMode.NORMAL, as Java's output
 * coercion converts any Number: a fractional number read as an int or long is truncated, a bigint read as a
 * double becomes a number, an Avro string read as bytes becomes a ByteString, and a float or double getter
 * reads the strings "NaN", "Infinity" and "-Infinity" as those numbers (as the reference's float and double
 * coercers do, `DataTemplateUtil.NumberCoercer.isNonNumericFloat`: JSON data holds them that way). What NORMAL cannot convert
 * (another type, an int out of range, a symbol... ) throws {@link TemplateOutputCastException}. Enums return
 * `$UNKNOWN` for a symbol the binding does not know (brief, "Versioning" 3).
 */
import { ByteString } from '../data/byte-string';
import { DataList } from '../data/data-list';
import { DataMap } from '../data/data-map';
import { NULL, type DataNull } from '../data/data-null';
import type { DataPrimitive, DataValue } from '../data/data-value';
import { ClassCastException } from '../data/errors';
import { KIND_LIST, KIND_MAP } from '../data/internal';
import {
  INT_MAX,
  INT_MIN,
  isFloatValue,
  toDouble,
  toFloat,
  toInt,
  toLong,
} from '../schema/validation/coerce';
import { SvcError } from '../errors/svc-error';
import { UNKNOWN_SYMBOL, enumConstants, type EnumObject } from './enum-support';
import { IllegalArgumentException, MissingCoercerException, TemplateOutputCastException } from './errors';

/** How one binding type converts to and from data. Generated classes hold one per field, member or item type. */
export interface Coercer<T> {
  /** The binding type, for messages (`int`, `PhotoFormat`, `Exif`...). */
  readonly typeName: string;
  /** True when {@link fromData} returns values that cannot change (so a default may be converted once). */
  readonly immutableOutput: boolean;
  /** A value given to the binding, to the data to store; {@link ClassCastException} when it cannot be. */
  toData(value: unknown): DataValue;
  /** Stored data, to the binding type; {@link TemplateOutputCastException} when it cannot be. */
  fromData(data: DataValue): T;
  /**
   * Long coercers only: what {@link toData} converts, as the number a long inside ±(2^53-1) is stored as (a
   * bigint beyond), so a setter can store and mark it long without allocating the bigint `toData` returns
   * (`BigInt(n)` is ~40 ns, bench/templates.bench.ts). Same errors as `toData`.
   */
  readonly toLongData?: (value: unknown) => number | bigint;
  /**
   * For the compiled getters of {@link FieldDef} (record-template.ts): true when a value as a store holds it
   * is already what {@link fromData} returns for it (a string for a string field, a safe integer for a
   * long...). False sends the getter down the general path, which converts or throws.
   */
  readonly asIs?: (stored: unknown) => boolean;
  /**
   * For the compiled getters, template coercers: the kind of data the template wraps (the data layer's
   * `KIND_MAP` or `KIND_LIST`) and how it wraps it; a container of that kind is what {@link fromData}
   * accepts.
   */
  readonly wraps?: { readonly kind: number; readonly wrap: (data: DataMap | DataList) => T };
}

/** A short description of a value for messages: its type and, for small values, the value. */
export function describeValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
    case 'number':
    case 'boolean':
      return `${typeof v} ${String(v)}`;
    case 'bigint':
      return `bigint ${v}n`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      if (v === null) return 'null';
      if (v === NULL) return 'Data.NULL';
      if (v instanceof DataMap) return 'a DataMap';
      if (v instanceof DataList) return 'a DataList';
      if (v instanceof ByteString) return `a ByteString of ${v.length} bytes`;
      return `an instance of ${(v as object).constructor?.name ?? 'Object'}`;
  }
}

function inputError(value: unknown, typeName: string): ClassCastException {
  return new ClassCastException(`Input ${describeValue(value)} cannot be stored as ${typeName}`);
}

function outputError(data: unknown, typeName: string): TemplateOutputCastException {
  return new TemplateOutputCastException(`Output ${describeValue(data)} cannot be coerced to ${typeName}`);
}

const SAFE_BIG_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const SAFE_BIG_MIN = BigInt(Number.MIN_SAFE_INTEGER);
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const TWO_63 = 9223372036854775808;

/** A bigint as a number when the number holds it exactly. */
function exactNumber(b: bigint): number | undefined {
  if (b >= SAFE_BIG_MIN && b <= SAFE_BIG_MAX) return Number(b);
  const n = Number(b);
  return BigInt(n) === b ? n : undefined;
}

function primitive<T>(
  typeName: string,
  toData: (v: unknown) => DataValue | undefined,
  fromData: (d: DataValue) => T | undefined,
  asIs?: (stored: unknown) => boolean,
): Coercer<T> {
  return {
    typeName,
    immutableOutput: true,
    ...(asIs === undefined ? {} : { asIs }),
    toData(value: unknown): DataValue {
      const d = toData(value);
      if (d === undefined) throw inputError(value, typeName);
      return d;
    },
    fromData(data: DataValue): T {
      const v = fromData(data);
      if (v === undefined) throw outputError(data, typeName);
      return v;
    },
  };
}

/** The coercer of an `int` field: a 32-bit integer number. */
const INT = /* @__PURE__ */ primitive<number>(
  'int',
  (v) => {
    if (typeof v === 'number') return (v | 0) === v ? v | 0 : undefined;
    if (typeof v === 'bigint') return v >= INT_MIN && v <= INT_MAX ? Number(v) : undefined;
    return undefined;
  },
  (d) => (typeof d === 'number' && (d | 0) === d ? d : toInt(d, false)),
  (v) => typeof v === 'number' && (v | 0) === v,
);

/** A long input as it is stored: a safe integer number (-0 as 0), else a bigint in range; or undefined. */
function longInput(v: unknown): number | bigint | undefined {
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return v + 0; // + 0 turns -0 into 0
    return Number.isInteger(v) && v >= -TWO_63 && v < TWO_63 ? BigInt(v) : undefined;
  }
  if (typeof v === 'bigint') return v >= LONG_MIN && v <= LONG_MAX ? v : undefined;
  return undefined;
}

/** The coercer of a `long` field: a safe integer number, or a bigint beyond 2^53 (exact). */
const LONG: Coercer<number | bigint> = {
  ...primitive<number | bigint>(
    'long',
    // a bigint: the reference's long field holds a Java Long, which PSON writes with the long marker
    (v) => {
      const n = longInput(v);
      return typeof n === 'number' ? BigInt(n) : n;
    },
    (d) =>
      typeof d === 'bigint' || (typeof d === 'number' && Number.isSafeInteger(d)) ? d : toLong(d, false),
    (v) => typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v)),
  ),
  toLongData(value: unknown): number | bigint {
    const n = longInput(value);
    if (n === undefined) throw inputError(value, 'long');
    return n;
  },
};

/** The coercer of a `float` field: a number a 32-bit float holds. */
const FLOAT = /* @__PURE__ */ primitive<number>(
  'float',
  (v) => {
    const n = typeof v === 'number' ? v : typeof v === 'bigint' ? exactNumber(v) : undefined;
    return n !== undefined && isFloatValue(n) ? n : undefined;
  },
  (d) => toFloat(d, false),
  (v) => typeof v === 'number' && isFloatValue(v),
);

/** The coercer of a `double` field: a number. */
const DOUBLE = /* @__PURE__ */ primitive<number>(
  'double',
  (v) => {
    if (typeof v === 'number') return v;
    return typeof v === 'bigint' ? exactNumber(v) : undefined;
  },
  (d) => (typeof d === 'number' ? d : toDouble(d, false)),
  (v) => typeof v === 'number',
);

/** The coercer of a `boolean` field. */
const BOOLEAN = /* @__PURE__ */ primitive<boolean>(
  'boolean',
  (v) => (typeof v === 'boolean' ? v : undefined),
  (d) => (typeof d === 'boolean' ? d : undefined),
  (v) => typeof v === 'boolean',
);

/** The coercer of a `string` field. */
const STRING = /* @__PURE__ */ primitive<string>(
  'string',
  (v) => (typeof v === 'string' ? v : undefined),
  (d) => (typeof d === 'string' ? d : undefined),
  (v) => typeof v === 'string',
);

/** The coercer of a `bytes` field: a ByteString (Rest.li's string form on the wire). */
const BYTES = /* @__PURE__ */ primitive<ByteString>(
  'bytes',
  (v) => {
    if (v instanceof ByteString) return v;
    if (typeof v === 'string') return ByteString.isAvroString(v) ? ByteString.fromAvroString(v) : undefined;
    if (v instanceof Uint8Array) return ByteString.copy(v);
    return undefined;
  },
  (d) => {
    if (d instanceof ByteString) return d;
    if (typeof d === 'string' && ByteString.isAvroString(d)) return ByteString.fromAvroString(d);
    return undefined;
  },
);

/** Enums of at most this many symbols are searched by compares, not hashed (see `enumOf`). */
const SMALL_ENUM = 8;

/** Coercer of a generated enum (a TypeScript string enum whose values are the symbols, plus `$UNKNOWN`). */
function enumOf<E extends string>(values: () => EnumObject<E>, typeName: string): Coercer<E> {
  let known: ReadonlyMap<string, string> | undefined;
  // An enum of a few symbols is searched by compares (a pointer compare each, for the constants that stored
  // records hold), not hashed: the example's finder reads 30 photos whose format changes 7 times, and those
  // 7 Map look-ups were ~0.5k instructions of its ~130k (callgrind over HTTP; findPhotos 3.7k → 3.3k).
  let few: readonly string[] | undefined;
  const symbols = (): ReadonlyMap<string, string> => {
    if (known === undefined) {
      known = enumConstants(values());
      if (known.size <= SMALL_ENUM) few = [...known.values()];
    }
    return known;
  };
  // The last symbol found: records of a kind mostly hold the same few symbols, and a string compare
  // (a pointer compare for the generated constants) costs a fraction of the Map's hash lookup. Measured
  // in-process: getFormat() of the example's 30 photos (25 PNG) 327 → 133 ns, against 110 ns for as many
  // `DataMap.get`s; the example's finder over them 400 → 179 ns. NUL is in no symbol: the first compare
  // misses.
  let last = '\u0000';
  /**
   * The generated constant of the symbol `v` spells (see `enumConstants`), undefined when it spells none;
   * `last` stays a constant, so that the next compare with a constant is a pointer compare.
   */
  const symbolOf = (v: unknown): string | undefined => {
    if (v === last) return last;
    if (typeof v !== 'string') return undefined;
    const map = symbols();
    if (few !== undefined) {
      for (let i = 0; i < few.length; i++) if (few[i] === v) return (last = few[i]!);
      return undefined;
    }
    const s = map.get(v);
    if (s !== undefined) last = s;
    return s;
  };
  const isSymbol = (v: unknown): boolean => symbolOf(v) !== undefined;
  return {
    typeName,
    immutableOutput: true,
    toData(value: unknown): DataValue {
      const s = symbolOf(value);
      if (s !== undefined) return s;
      throw new ClassCastException(
        value === UNKNOWN_SYMBOL
          ? `${UNKNOWN_SYMBOL} cannot be stored as ${typeName}: it stands for symbols the binding does not know`
          : `Input ${describeValue(value)} is not a symbol of ${typeName}`,
      );
    },
    fromData(data: DataValue): E {
      if (typeof data !== 'string') throw outputError(data, typeName);
      return (symbolOf(data) ?? UNKNOWN_SYMBOL) as E;
    },
    asIs: isSymbol,
  };
}

/** A generated template class as coercers see it. */
interface TemplateInstance<D> {
  data(): D;
}
type TemplateClass<T, D> = new (data: D) => T;

function template<T extends TemplateInstance<unknown>, D>(
  cls: () => TemplateClass<T, D>,
  isData: (d: DataValue) => d is DataValue & D,
  immutableOutput: boolean,
  wrapsKind?: number,
): Coercer<T> {
  return {
    ...(wrapsKind === undefined
      ? {}
      : { wraps: { kind: wrapsKind, wrap: (data: DataMap | DataList) => new (cls())(data as D) } }),
    get typeName(): string {
      return cls().name;
    },
    immutableOutput,
    toData(value: unknown): DataValue {
      if (value instanceof cls()) return value.data() as DataValue;
      throw new ClassCastException(`Input ${describeValue(value)} should be a ${cls().name}`);
    },
    fromData(data: DataValue): T {
      if (!isData(data)) throw outputError(data, cls().name);
      const C = cls();
      return new C(data);
    },
  };
}

const isMap = (d: DataValue): d is DataMap => d instanceof DataMap;
const isList = (d: DataValue): d is DataList => d instanceof DataList;
const isUnionData = (d: DataValue): d is DataMap | DataNull => d === NULL || d instanceof DataMap;
const isBytes = (d: DataValue): d is ByteString | string => typeof d === 'string' || d instanceof ByteString;

// ---------------------------------------------------------------------------------------------------------
// Custom classes (brief, "Custom binding for primitive types")

/**
 * Converts a custom class to and from the primitive data it is stored as (Java's DirectCoercer).
 * `coerceOutput` should throw {@link TemplateOutputCastException} for data it cannot convert; any other
 * error it throws is wrapped into one.
 */
export interface DirectCoercer<T> {
  /** The custom value to the primitive data (number, bigint, string, boolean or ByteString). */
  coerceInput(value: T): DataPrimitive;
  /** The primitive data (already of the typeref's primitive type) to the custom value. */
  coerceOutput(data: DataPrimitive): T;
}

/** A class a typeref binds to: anything `instanceof` can test. */
export type CustomClass<T> = abstract new (...args: never[]) => T;

const CUSTOM_COERCERS = new Map<CustomClass<unknown>, DirectCoercer<unknown>>();

/**
 * Registers the coercer of a custom class with the data template framework. Generated code only names the
 * class; the coercer must be registered before the first value is converted (module load of the class's
 * module is the usual place). Registering the same coercer again is a no-op.
 * @throws IllegalArgumentException when another coercer is registered for `cls`.
 */
export function registerCoercer<T>(cls: CustomClass<T>, coercer: DirectCoercer<T>): void {
  const known = CUSTOM_COERCERS.get(cls);
  if (known === coercer) return;
  if (known !== undefined)
    throw new IllegalArgumentException(`A coercer is already registered for ${cls.name}`);
  CUSTOM_COERCERS.set(cls, coercer);
}

/** The coercer registered for `cls`, or undefined. */
export function getCoercer<T>(cls: CustomClass<T>): DirectCoercer<T> | undefined {
  return CUSTOM_COERCERS.get(cls) as DirectCoercer<T> | undefined;
}

/** The coercer of a typeref with a custom class (`cls`), over the coercer of its base type. */
function custom<T>(cls: () => CustomClass<T>, base: Coercer<DataPrimitive>): Coercer<T> {
  const coercer = (): DirectCoercer<T> => {
    const c = getCoercer(cls());
    if (c === undefined) {
      throw new MissingCoercerException(
        `No coercer is registered for custom class ${cls().name}; call registerCoercer(${cls().name}, ...) first`,
      );
    }
    return c;
  };
  return {
    get typeName(): string {
      return cls().name;
    },
    immutableOutput: false,
    toData(value: unknown): DataValue {
      const C = cls();
      if (!(value instanceof C))
        throw new ClassCastException(`Input ${describeValue(value)} should be a ${C.name}`);
      let data: DataPrimitive;
      try {
        data = coercer().coerceInput(value);
      } catch (err) {
        if (err instanceof SvcError) throw err;
        throw new ClassCastException(
          `The coercer of ${C.name} refused ${describeValue(value)}: ${String(err)}`,
        );
      }
      return base.toData(data);
    },
    fromData(data: DataValue): T {
      const C = cls();
      const primitive = base.fromData(data);
      let out: unknown;
      try {
        out = coercer().coerceOutput(primitive);
      } catch (err) {
        if (err instanceof SvcError) throw err;
        throw new TemplateOutputCastException(
          `Output ${describeValue(data)} cannot be coerced to ${C.name}`,
          {
            cause: err,
          },
        );
      }
      if (!(out instanceof C)) {
        throw new TemplateOutputCastException(
          `The coercer of ${C.name} returned ${describeValue(out)} for ${describeValue(data)}`,
        );
      }
      return out;
    },
  };
}

/** A generated record or error class's coercer (wraps a DataMap). */
export const recordCoercer = <T extends TemplateInstance<DataMap>>(
  cls: () => TemplateClass<T, DataMap>,
): Coercer<T> => template(cls, isMap, false, KIND_MAP);
/** A generated union class's coercer (wraps a DataMap or Data.NULL). */
export const unionCoercer = <T extends TemplateInstance<DataMap | DataNull>>(
  cls: () => TemplateClass<T, DataMap | DataNull>,
): Coercer<T> => template(cls, isUnionData, false, KIND_MAP);
/** A generated or built-in array class's coercer (wraps a DataList). */
export const arrayCoercer = <T extends TemplateInstance<DataList>>(
  cls: () => TemplateClass<T, DataList>,
): Coercer<T> => template(cls, isList, false, KIND_LIST);
/** A generated or built-in map class's coercer (wraps a DataMap). */
export const mapCoercer = <T extends TemplateInstance<DataMap>>(
  cls: () => TemplateClass<T, DataMap>,
): Coercer<T> => template(cls, isMap, false, KIND_MAP);
/** A generated fixed class's coercer (holds a ByteString; immutable). */
export const fixedCoercer = <T extends TemplateInstance<ByteString>>(
  cls: () => TemplateClass<T, ByteString | string>,
): Coercer<T> => template(cls, isBytes, true);

/**
 * The coercers generated classes use, each by its own export (`LONG_COERCER`, `recordCoercer(() => Exif)`),
 * so that a bundler keeps only those a page's classes name (README.md of src/client, "Size"). Class
 * arguments are thunks (`() => Exif`), so that modules that refer to each other load in any order.
 */
export {
  INT as INT_COERCER,
  LONG as LONG_COERCER,
  FLOAT as FLOAT_COERCER,
  DOUBLE as DOUBLE_COERCER,
  BOOLEAN as BOOLEAN_COERCER,
  STRING as STRING_COERCER,
  BYTES as BYTES_COERCER,
  enumOf as enumCoercer,
  custom as customCoercer,
};

/**
 * All the coercers as one object, as generated classes named them before each had its own export (code
 * generated then still compiles and runs; a page using it carries every coercer).
 */
export const Coercers = {
  INT,
  LONG,
  FLOAT,
  DOUBLE,
  BOOLEAN,
  STRING,
  BYTES,
  /** A generated enum (`Coercers.enumOf(() => PhotoFormat, 'PhotoFormat')`). */
  enumOf,
  /** A generated record or error class (wraps a DataMap). */
  record: recordCoercer,
  /** A generated union class (wraps a DataMap or Data.NULL). */
  union: unionCoercer,
  /** A generated or built-in array class (wraps a DataList). */
  array: arrayCoercer,
  /** A generated or built-in map class (wraps a DataMap). */
  map: mapCoercer,
  /** A generated fixed class (holds a ByteString; immutable). */
  fixed: fixedCoercer,
  /** A custom class bound by a typeref of the primitive `base`, through its registered {@link DirectCoercer}. */
  custom,
} as const;
