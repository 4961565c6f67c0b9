export { ByteString } from './byte-string';
export { MAX_NESTING_DEPTH } from './limits';
export { Data, type JsValue } from './data';
export { DataList } from './data-list';
export { DataMap, type DataMapInit } from './data-map';
export { DataNull } from './data-null';
export type { DataComplex, DataPrimitive, DataValue } from './data-value';
export {
  ClassCastException,
  DataDecodingException,
  DataEncodingException,
  IllegalDataValueException,
  IndexOutOfBoundsException,
  InvalidOptionException,
  UnsupportedContentTypeException,
  UnsupportedOperationException,
} from './errors';
export type { InstrumentedEntry } from './graph';
export { ReadonlyCollectionView, ReadonlySetView } from './views';
export type { DataCodec } from './codecs/data-codec';
export { JsonCodec, JSON_CONTENT_TYPE, type JsonCodecOptions } from './codecs/json-codec';
export { PsonCodec, PSON_CONTENT_TYPE, type PsonCodecOptions } from './codecs/pson-codec';
export { CodecRegistry } from './codecs/codec-registry';
export { createDefaultCodecRegistry } from './codecs/default-codecs';
export { parseMediaType, type MediaType } from './codecs/media-type';
