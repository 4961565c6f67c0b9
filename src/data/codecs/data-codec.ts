import type { DataList } from '../data-list';
import type { DataMap } from '../data-map';

/** A codec between the data layer and bytes of one content type. */
export interface DataCodec {
  /** The MIME type this codec reads and writes, e.g. `application/json`. */
  readonly contentType: string;
  mapToBytes(map: DataMap): Uint8Array;
  bytesToMap(bytes: Uint8Array): DataMap;
  listToBytes(list: DataList): Uint8Array;
  bytesToList(bytes: Uint8Array): DataList;
}
