import { writeJson } from './codecs/json-writer';

/** JSON text of a container for `toString()`: exact longs, bytes as Avro strings. */
export function toDebugString(container: object): string {
  return writeJson(container);
}
