/**
 * Writes a data graph (containers, raw decoded nodes, bigints, ByteStrings, Data.NULL) as JSON text.
 *
 * The JSON codec writes with `JSON.stringify` and only comes here when that cannot be used: the graph holds
 * a bigint (which `JSON.stringify` refuses, and which we write digit for digit), a non-finite number (which
 * `JSON.stringify` writes as null, and which we write as the string "NaN", "Infinity" or "-Infinity", as
 * Rest.li's Jackson codec does), or is deeper than the call stack allows. Output is byte-identical to
 * `JSON.stringify` otherwise. Iterative, so any depth works.
 */
import type { ByteString } from '../byte-string';
import { DataEncodingException } from '../errors';
import { KIND, KIND_BYTES, KIND_LIST, KIND_MAP, KIND_NULL, STORE, type Store } from '../internal';

interface Frame {
  readonly isList: boolean;
  readonly store: Store | unknown[];
  readonly keys: string[] | null;
  index: number;
}

export function writeJson(root: object): string {
  let out = '';
  const stack: Frame[] = [];

  const open = (node: object): void => {
    const kind = (node as { [KIND]?: number })[KIND];
    const store: Store | unknown[] =
      kind === undefined ? (node as Store | unknown[]) : (node as { [STORE]: Store | unknown[] })[STORE];
    const isList = Array.isArray(store);
    out += isList ? '[' : '{';
    stack.push({ isList, store, keys: isList ? null : Object.keys(store), index: 0 });
  };

  /** Writes a leaf, or opens a container; returns nothing. */
  const value = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        out += JSON.stringify(v);
        return;
      case 'number':
        // JSON has no NaN or Infinity; String(v) spells them as Jackson does
        out += v - v === 0 ? String(v) : `"${String(v)}"`;
        return;
      case 'bigint':
        out += v.toString();
        return;
      case 'boolean':
        out += v ? 'true' : 'false';
        return;
      case 'object': {
        if (v === null) {
          out += 'null';
          return;
        }
        const kind = (v as { [KIND]?: number })[KIND];
        if (kind === KIND_NULL) out += 'null';
        else if (kind === KIND_BYTES) out += JSON.stringify((v as ByteString).asAvroString());
        else if (kind === undefined || kind === KIND_MAP || kind === KIND_LIST) open(v);
        else throw new DataEncodingException(`Cannot write an object of kind ${kind} as JSON`);
        return;
      }
      default:
        throw new DataEncodingException(`Cannot write a value of type ${typeof v} as JSON`);
    }
  };

  open(root);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.isList) {
      const arr = f.store as unknown[];
      if (f.index >= arr.length) {
        out += ']';
        stack.pop();
        continue;
      }
      if (f.index > 0) out += ',';
      value(arr[f.index++]);
    } else {
      const keys = f.keys!;
      if (f.index >= keys.length) {
        out += '}';
        stack.pop();
        continue;
      }
      if (f.index > 0) out += ',';
      const k = keys[f.index++]!;
      out += JSON.stringify(k) + ':';
      value((f.store as Store)[k]);
    }
  }
  return out;
}
