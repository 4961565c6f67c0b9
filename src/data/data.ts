import { ByteString } from './byte-string';
import { DataList } from './data-list';
import { DataMap } from './data-map';
import { NULL } from './data-null';
import type { DataComplex, DataValue } from './data-value';
import { IllegalDataValueException } from './errors';
import { KIND, KIND_LIST, KIND_MAP } from './internal';

/** A plain JS value that {@link Data.fromJS} understands. */
export type JsValue =
  null | Uint8Array | DataValue | readonly JsValue[] | { readonly [key: string]: JsValue };

function isComplex(v: unknown): v is DataComplex {
  if (typeof v !== 'object' || v === null) return false;
  const k = (v as { [KIND]?: number })[KIND];
  return k === KIND_MAP || k === KIND_LIST;
}

/**
 * Builds data from plain JS: objects become DataMaps, arrays DataLists, `null` Data.NULL, `Uint8Array`
 * ByteStrings (copied). Existing containers are kept as they are. Iterative, so any depth works.
 */
function fromJS(value: JsValue): DataValue {
  const convert = (v: JsValue, pending: Array<() => void>): DataValue => {
    if (v === null) return NULL;
    if (typeof v !== 'object') return v;
    if (v instanceof Uint8Array) return ByteString.copy(v);
    if ((v as { [KIND]?: number })[KIND] !== undefined) return v as DataValue;
    if (Array.isArray(v)) {
      const list = new DataList();
      pending.push(() => {
        for (const item of v as readonly JsValue[]) list.add(convert(item, pending));
      });
      return list;
    }
    const map = new DataMap();
    pending.push(() => {
      const obj = v as { readonly [key: string]: JsValue };
      for (const k of Object.keys(obj)) {
        const item = obj[k];
        if (item === undefined) throw new IllegalDataValueException(`Data.fromJS: key '${k}' is undefined`);
        map.put(k, convert(item, pending));
      }
    });
    return map;
  };
  const pending: Array<() => void> = [];
  const root = convert(value, pending);
  while (pending.length > 0) pending.pop()!();
  return root;
}

/**
 * Plain JS view of data, for tests and debugging: DataMaps become objects, DataLists arrays, Data.NULL
 * `null`; bigints and ByteStrings stay as they are.
 */
function toJS(value: DataValue): unknown {
  if (value === NULL) return null;
  if (!isComplex(value)) return value;
  if (value instanceof DataList) return value.toArray().map(toJS);
  const out: Record<string, unknown> = {};
  for (const [k, v] of value) {
    Object.defineProperty(out, k, { value: toJS(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Constants and helpers of the data layer. */
export const Data = {
  /** Stands for a JSON null. */
  NULL,
  /** True for DataMap and DataList. */
  isComplex,
  /** True for any value a container may hold. */
  isData(v: unknown): v is DataValue {
    switch (typeof v) {
      case 'string':
        return (v as unknown as { isWellFormed(): boolean }).isWellFormed();
      case 'boolean':
      case 'number':
        return true;
      case 'bigint':
        return v >= -(2n ** 63n) && v < 2n ** 63n;
      case 'object':
        return v !== null && (v as { [KIND]?: number })[KIND] !== undefined;
      default:
        return false;
    }
  },
  fromJS,
  toJS,
} as const;
