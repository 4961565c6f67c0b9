/**
 * avsc types for translated schemas.
 *
 * avsc's own `long` holds JS numbers and refuses anything beyond ±2^53; our longs are exact (a `bigint`
 * beyond ±2^53, a `number` within), so {@link avroTypeForSchema} builds types whose `long` is
 * {@link AVRO_LONG_TYPE}, a custom long (avsc's `LongType.__with`) that reads and writes exactly that
 * representation. It also sets `wrapUnions: true`: union values are `null` or `{ <branch name>: value }`,
 * the shape the data translator produces and expects.
 *
 * @example
 * ```ts
 * const type = avroTypeForSchema(SchemaTranslator.dataToAvroSchemaJson(schema));
 * const record = DataTranslator.dataMapToGenericRecord(map, schema, type);
 * const bytes = type.toBuffer(record);
 * const back = DataTranslator.genericRecordToDataMap(type.fromBuffer(bytes), schema, type);
 * ```
 */
import { Type, types, type Schema } from 'avsc';
import { parseJsonExact } from '../../data/codecs/json-exact-parser';
import { SchemaTranslationError } from './errors';

const TWO_32 = 2 ** 32;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** A long as the data layer holds it: a number when it is a safe integer, else a bigint. */
export function normalizeLong(value: bigint): number | bigint {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

function isLong(value: unknown): value is number | bigint {
  return typeof value === 'bigint' ? value >= LONG_MIN && value <= LONG_MAX : Number.isSafeInteger(value);
}

// One scratch buffer: avsc copies the eight bytes into its output before asking for the next long.
const scratch = Buffer.alloc(8);

/**
 * avsc's custom long for exact 64-bit values: reads a number when the value is a safe integer and a bigint
 * otherwise; writes either (a number only when it is a safe integer, so no imprecise double slips through).
 */
export const AVRO_LONG_TYPE: Type = types.LongType.__with({
  fromBuffer(buf: Buffer): number | bigint {
    const v = buf.readInt32LE(4) * TWO_32 + buf.readUInt32LE(0);
    // every integer of magnitude up to 2^53 is exact in a double, so a safe result is the right one
    return Number.isSafeInteger(v) ? v : buf.readBigInt64LE(0);
  },
  toBuffer(value: number | bigint): Buffer {
    if (typeof value === 'number') {
      const hi = Math.floor(value / TWO_32);
      scratch.writeUInt32LE(value - hi * TWO_32, 0);
      scratch.writeInt32LE(hi, 4);
    } else {
      scratch.writeBigInt64LE(value, 0);
    }
    return scratch;
  },
  fromJSON(json: unknown): number | bigint {
    if (typeof json === 'number' && Number.isSafeInteger(json)) return json;
    if (typeof json === 'bigint' || typeof json === 'string' || typeof json === 'number') {
      const b = BigInt(json);
      if (b >= LONG_MIN && b <= LONG_MAX) return normalizeLong(b);
    }
    throw new TypeError(`${String(json)} is not a long`);
  },
  toJSON(value: number | bigint): number | string {
    // JSON has no exact form for a long beyond 2^53 in a JS number; the digits keep it exact
    return typeof value === 'number' ? value : value.toString();
  },
  isValid: isLong,
  compare(a: number | bigint, b: number | bigint): number {
    if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  },
});

/** Uses {@link AVRO_LONG_TYPE} for every `long`, written `"long"` or `{"type": "long", ...}`. */
function longHook(schema: unknown): Type | undefined {
  if (schema === 'long') return AVRO_LONG_TYPE;
  if (typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'long') {
    return AVRO_LONG_TYPE;
  }
  return undefined;
}

const byObject = new WeakMap<object, Type>();
const byText = new Map<string, Type>();
const MAX_CACHED_TEXTS = 256;

/**
 * The avsc type for Avro schema JSON (text or parsed), with `wrapUnions: true` and exact longs. Types are
 * cached per schema object and per text, so calling this for every record costs a lookup.
 * @throws SchemaTranslationError `SVC_ERR_AVRO_SCHEMA_PARSE` when avsc refuses the schema.
 */
export function avroTypeForSchema(schema: string | object): Type {
  if (typeof schema === 'string') {
    let type = byText.get(schema);
    if (type === undefined) {
      let json: unknown;
      try {
        json = parseJsonExact(schema);
      } catch (err) {
        throw new SchemaTranslationError(
          'SVC_ERR_AVRO_SCHEMA_PARSE',
          `the Avro schema is not JSON: ${(err as Error).message}`,
          {
            cause: err,
          },
        );
      }
      type = build(json);
      if (byText.size >= MAX_CACHED_TEXTS) byText.delete(byText.keys().next().value!);
      byText.set(schema, type);
    }
    return type;
  }
  if (Type.isType(schema)) return schema as Type;
  let type = byObject.get(schema);
  if (type === undefined) {
    type = build(schema);
    byObject.set(schema, type);
  }
  return type;
}

function build(json: unknown): Type {
  try {
    return Type.forSchema(json as Schema, { wrapUnions: true, typeHook: longHook, registry: {} });
  } catch (err) {
    throw new SchemaTranslationError(
      'SVC_ERR_AVRO_SCHEMA_PARSE',
      `avsc refuses the Avro schema: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}
