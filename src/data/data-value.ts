import type { ByteString } from './byte-string';
import type { DataList } from './data-list';
import type { DataMap } from './data-map';
import type { DataNull } from './data-null';

/**
 * A value the data layer holds: int, long, float and double as `number` (a long outside ±2^53 as `bigint`,
 * so no long ever loses precision), boolean, string, bytes as {@link ByteString}, {@link Data.NULL}, or a
 * container.
 */
export type DataPrimitive = number | bigint | boolean | string | ByteString | DataNull;
/** The container data values: maps and lists. */
export type DataComplex = DataMap | DataList;
/** Any value a `DataMap` or `DataList` holds: a primitive or a container. */
export type DataValue = DataPrimitive | DataComplex;
