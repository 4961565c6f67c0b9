/**
 * The primitive checks and conversions of validation (see `coercion-mode.ts` for the rules and why they
 * differ from the reference where Svc's number representation forces it). Every converter returns
 * `undefined` when the value cannot be converted; none throws.
 */

export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
/** Largest finite float32. */
export const FLOAT_MAX = 3.4028234663852886e38;
/**
 * The doubles strictly between ±FLOAT_LIMIT are the ones that round to a finite float32: FLOAT_MAX plus half
 * an ulp, which ties to even, hence to Infinity. So `3.4028235e38`, the way Java prints Float.MAX_VALUE, is a
 * valid float.
 */
export const FLOAT_LIMIT = FLOAT_MAX + 2 ** 103;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** 2^63 as a double (exact). */
const TWO_63 = 9223372036854775808;

/** Decimal text as Java's `BigDecimal(String)` reads it. */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

// ---------------------------------------------------------------------------------------------------------
// What is already in stored form (the fast path uses these)

/** An int: an integral number in the int32 range. */
export function isIntValue(v: unknown): boolean {
  return typeof v === 'number' && (v | 0) === v;
}

/**
 * A long: a safe integer number, or a bigint inside the 64-bit range. Data holds a long inside ±(2^53-1) as a
 * number (a `7n` put in is stored as `7`, marked long for PSON: src/data/README.md), but `7n` is that long too.
 */
export function isLongValue(v: unknown): boolean {
  if (typeof v === 'number') return Number.isSafeInteger(v);
  return typeof v === 'bigint' && v >= LONG_MIN && v <= LONG_MAX;
}

/** A float: NaN, ±Infinity, or a finite number that rounds to a finite float32. */
export function isFloatValue(v: unknown): boolean {
  return typeof v === 'number' && ((v > -FLOAT_LIMIT && v < FLOAT_LIMIT) || v - v !== 0);
}

/** A double: any number, NaN and ±Infinity included. */
export function isDoubleValue(v: unknown): boolean {
  return typeof v === 'number';
}

/**
 * The strings that stand for the non-finite floats and doubles: how JSON writes them (Jackson, and our JSON
 * writer), and exactly the strings the reference's float and double coercers accept
 * (`DataTemplateUtil.NumberCoercer.isNonNumericFloat`: `String.valueOf(Float.NaN)` and the two infinities).
 */
const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
]);

/** The number a string stands for when it is "NaN", "Infinity" or "-Infinity", else undefined. */
export function nonFiniteOf(v: string): number | undefined {
  return NON_FINITE.get(v);
}

// ---------------------------------------------------------------------------------------------------------
// Conversions

/** The integer part of decimal text, exactly, or undefined when it is not decimal text or is beyond ±10^25. */
export function decimalIntegerPart(text: string): bigint | undefined {
  const m = DECIMAL.exec(text);
  if (m === null) return undefined;
  const intDigits = m[2] ?? '';
  const fracDigits = m[3] ?? '';
  if (intDigits === '' && fracDigits === '') return undefined; // "", ".", "+", "e5"
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  const digits = (intDigits + fracDigits).replace(/^0+/, '');
  if (digits === '') return 0n;
  // value = digits × 10^scale
  const scale = exponent - fracDigits.length;
  let magnitude: bigint;
  if (scale >= 0) {
    if (digits.length + scale > 25) return undefined; // far beyond any long; no huge BigInt for "1e999999"
    magnitude = BigInt(digits + '0'.repeat(scale));
  } else {
    const keep = digits.length + scale;
    if (keep <= 0) return 0n;
    if (keep > 25) return undefined;
    magnitude = BigInt(digits.slice(0, keep));
  }
  return m[1] === '-' ? -magnitude : magnitude;
}

/** The nearest number to decimal text, or undefined when it is not decimal text. */
function decimalNumber(text: string): number | undefined {
  const m = DECIMAL.exec(text);
  if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return undefined;
  return Number(text);
}

function intOf(n: number): number | undefined {
  const t = Math.trunc(n);
  return t >= INT_MIN && t <= INT_MAX ? t + 0 : undefined; // + 0 turns -0 into 0
}

/** `v` as an int (truncated toward zero), or undefined. */
export function toInt(v: unknown, fromStrings: boolean): number | undefined {
  if (typeof v === 'number') return intOf(v); // NaN fails both comparisons
  if (typeof v === 'bigint') return v >= INT_MIN && v <= INT_MAX ? Number(v) : undefined;
  if (typeof v === 'string' && fromStrings) {
    const b = decimalIntegerPart(v);
    return b !== undefined && b >= INT_MIN && b <= INT_MAX ? Number(b) : undefined;
  }
  return undefined;
}

function longOfBigInt(b: bigint): number | bigint | undefined {
  if (b < LONG_MIN || b > LONG_MAX) return undefined;
  return b >= SAFE_MIN && b <= SAFE_MAX ? Number(b) : b;
}

/** `v` as a long in its one representation (number within ±2^53, else bigint), truncated; or undefined. */
export function toLong(v: unknown, fromStrings: boolean): number | bigint | undefined {
  if (typeof v === 'number') {
    const t = Math.trunc(v);
    if (Number.isSafeInteger(t)) return t + 0;
    return t >= -TWO_63 && t < TWO_63 ? BigInt(t) : undefined; // NaN and ±Infinity fail too
  }
  if (typeof v === 'bigint') return longOfBigInt(v);
  if (typeof v === 'string' && fromStrings) {
    const b = decimalIntegerPart(v);
    return b === undefined ? undefined : longOfBigInt(b);
  }
  return undefined;
}

/**
 * `v` as a float, or undefined: a number that is NaN, ±Infinity or rounds to a finite float32; a bigint in the
 * float range; one of the strings {@link nonFiniteOf} reads (in every mode that converts); decimal text
 * (`fromStrings`) whose nearest number is in the float range.
 */
export function toFloat(v: unknown, fromStrings: boolean): number | undefined {
  if (typeof v === 'number') return isFloatValue(v) ? v : undefined;
  let n: number | undefined;
  if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'string') n = nonFiniteOf(v) ?? (fromStrings ? decimalNumber(v) : undefined);
  return n !== undefined && isFloatValue(n) ? n : undefined;
}

/**
 * `v` as a double, or undefined: any number; a bigint; one of the strings {@link nonFiniteOf} reads; decimal
 * text (`fromStrings`), beyond the double range ±Infinity as Java's `Double.valueOf` reads it.
 */
export function toDouble(v: unknown, fromStrings: boolean): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') return nonFiniteOf(v) ?? (fromStrings ? decimalNumber(v) : undefined);
  return undefined;
}

/** `"true"` / `"false"` in any case as a boolean (only when converting strings), or undefined. */
export function toBoolean(v: unknown, fromStrings: boolean): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && fromStrings && v.length <= 5) {
    const lower = v.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return undefined;
}
