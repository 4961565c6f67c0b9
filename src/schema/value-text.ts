import { ByteString, Data, DataList, DataMap, JsonCodec, type DataValue } from '../data';

const codec = new JsonCodec();

/** JSON text of a data value (longs exact, bytes as their Avro string). */
export function dataToJson(value: DataValue): string {
  if (value === Data.NULL) return 'null';
  if (value instanceof DataMap) return codec.mapToString(value);
  if (value instanceof DataList) return codec.listToString(value);
  if (value instanceof ByteString) return JSON.stringify(value.asAvroString());
  if (typeof value === 'bigint') return value.toString();
  // as the data layer's JSON writer spells them (and as a float default may be written)
  if (typeof value === 'number' && !Number.isFinite(value)) return JSON.stringify(String(value));
  return JSON.stringify(value);
}

/** A short JSON rendering of a value for messages (long values are cut). */
export function renderValue(value: DataValue, max = 60): string {
  const text = dataToJson(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
