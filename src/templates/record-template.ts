/**
 * The base class of generated record classes, and the field descriptors their accessors delegate to.
 *
 * A generated accessor is one line: `getTitle(mode) { return F.title.get(this, mode); }`, where `F.title` is
 * a {@link FieldDef} built once per class at module load. The present-value path reads the DataMap and
 * converts; the schema (optionality, default) is consulted only when the field is absent or set to null.
 */
import { DataMap } from '../data/data-map';
import { INSTRUMENTING, KIND, SET_LONG, STORE, WRAPPER } from '../data/internal';
import type { DataValue } from '../data/data-value';
import type { RecordDataSchema, RecordField } from '../schema/record-schema';
import { describeValue, type Coercer } from './coercers';
import {
  IllegalArgumentException,
  NullValueException,
  RequiredFieldNotPresentException,
  TemplateOutputCastException,
} from './errors';
import { GetMode } from './get-mode';
import { DATA } from './internal';
import { SetMode } from './set-mode';

/** What field descriptors need of a record: its DataMap and its schema (records and error records). */
export interface RecordLike {
  /** @internal */
  readonly [DATA]: DataMap;
  schema(): RecordDataSchema;
}

const NO_DEFAULT: unique symbol = Symbol('no default');

/**
 * One field of a generated record class: its name and the coercer of its type. Created by `field()`.
 */
export class FieldDef<T> {
  declare readonly name: string;
  declare readonly coercer: Coercer<T>;
  /** The schema field, looked up on first need. */
  #field: RecordField | undefined;
  /** The default converted once (immutable outputs only). */
  #default: T | typeof NO_DEFAULT | undefined;
  /** The coercer's `toLongData` (long fields), read once. */
  readonly #toLong: ((value: unknown) => number | bigint) | undefined;

  /**
   * The field's value under `mode` (default {@link GetMode.STRICT}); see {@link GetMode}. Compiled for the
   * field on its first call (`compileGetter`); the general path is {@link read}.
   */
  get: (record: RecordLike, mode?: GetMode) => T | undefined;

  constructor(name: string, coercer: Coercer<T>) {
    this.name = name;
    this.coercer = coercer;
    this.#toLong = coercer.toLongData;
    this.get = (record, mode) => {
      this.get = compileGetter(this);
      return this.get(record, mode);
    };
  }

  /** True when the field is present (Data.NULL counts as present). */
  has(record: RecordLike): boolean {
    return record[DATA].has(this.name);
  }

  /** {@link get} the general way: through `DataMap.get` and the coercer. */
  read(record: RecordLike, mode?: GetMode): T | undefined {
    const found = record[DATA].get(this.name);
    if (found !== undefined) return this.coercer.fromData(found);
    return mode === GetMode.NULL ? undefined : this.#absent(record, mode ?? GetMode.STRICT);
  }

  /** Sets the field, or handles a null value per `mode` (default {@link SetMode.DISALLOW_NULL}); returns `record`. */
  set<R extends RecordLike>(record: R, value: T | null | undefined, mode?: SetMode): R {
    if (value !== null && value !== undefined) {
      const toLong = this.#toLong;
      if (toLong === undefined) {
        record[DATA].set(this.name, this.coercer.toData(value));
      } else {
        // a long field stores a long: marked so PSON writes the long marker (src/data/long-marks.ts)
        const n = toLong(value);
        if (typeof n === 'number') record[DATA][SET_LONG](this.name, n);
        else record[DATA].set(this.name, n);
      }
      return record;
    }
    switch (mode ?? SetMode.DISALLOW_NULL) {
      case SetMode.IGNORE_NULL:
        break;
      case SetMode.REMOVE_IF_NULL:
        record[DATA].remove(this.name);
        break;
      case SetMode.REMOVE_OPTIONAL_IF_NULL:
        if (!this.#schemaField(record).getOptional()) {
          throw new IllegalArgumentException(
            `Cannot remove required field "${this.name}" of ${record.schema().getFullName()}`,
          );
        }
        record[DATA].remove(this.name);
        break;
      case SetMode.DISALLOW_NULL:
        throw new NullValueException(
          `Cannot set field "${this.name}" of ${record.schema().getFullName()} to ${String(value)}`,
        );
      default:
        throw new IllegalArgumentException(`Unknown set mode ${String(mode)}`);
    }
    return record;
  }

  /** Removes the field; returns `record`. */
  remove<R extends RecordLike>(record: R): R {
    record[DATA].remove(this.name);
    return record;
  }

  #schemaField(record: RecordLike): RecordField {
    if (this.#field === undefined) {
      const f = record.schema().getField(this.name);
      if (f === undefined) {
        throw new TemplateOutputCastException(`${record.schema().getFullName()} has no field "${this.name}"`);
      }
      this.#field = f;
    }
    return this.#field;
  }

  #absent(record: RecordLike, mode: GetMode): T | undefined {
    if (this.#default === NO_DEFAULT) return this.#required(record, mode);
    if (this.#default !== undefined) return this.#default;
    const f = this.#schemaField(record);
    const dflt: DataValue | undefined = f.getDefault();
    if (dflt === undefined) {
      this.#default = NO_DEFAULT;
      return this.#required(record, mode);
    }
    // defaults are read-only data, so a wrapped default cannot be changed through its template either
    const out = this.coercer.fromData(dflt);
    if (this.coercer.immutableOutput || typeof out !== 'object' || isReadOnlyTemplate(out))
      this.#default = out;
    return out;
  }

  #required(record: RecordLike, mode: GetMode): undefined {
    if (mode === GetMode.STRICT && !this.#schemaField(record).getOptional()) {
      throw new RequiredFieldNotPresentException(this.name, record.schema().getFullName());
    }
    return undefined;
  }
}

/**
 * The getter of one field, compiled with its name as a constant: for a present value of the field's type as
 * the store holds it (a string for a string field, a container already wrapped for a record...) it returns
 * it (or its template) straight from the store, and leaves everything else to {@link FieldDef.read}
 * (absent fields, conversions, errors, instrumented maps), so what it returns is what `read` returns.
 *
 * Why: the general path costs a `DataMap.get` (a read by a variable key, megamorphic across fields) plus a
 * call of the field's coercer (polymorphic across fields). Four getters of the bench's Photo took 100 ns
 * against 40 ns for the four `DataMap.get` they make (bench/templates.bench.ts "template get", same run);
 * compiled, each getter reads its key with an inline cache of its own and tests the type inline.
 * Where code cannot be generated from strings (a CSP), the general path serves.
 */
function compileGetter<T>(def: FieldDef<T>): (record: RecordLike, mode?: GetMode) => T | undefined {
  const slow = (record: RecordLike, mode?: GetMode): T | undefined => def.read(record, mode);
  const { asIs, wraps } = def.coercer;
  const key = JSON.stringify(def.name);
  let fast: string;
  if (asIs !== undefined) {
    fast = `const v = m[STORE][${key}]; if (asIs(v)) return v;`;
  } else if (wraps !== undefined) {
    // a container inside a store is its store; its wrapper, once one exists, hangs on it (data/adopt.ts)
    fast =
      `const v = m[STORE][${key}]; if (typeof v === "object" && v !== null) {` +
      ` const w = v[WRAPPER]; if (w !== undefined && w[KIND] === ${wraps.kind}) return wrap(w); }`;
  } else {
    return slow;
  }
  const body =
    `"use strict"; return function get(record, mode) {` +
    ` const m = record[DATA]; if (m[INSTRUMENTING] === false) { ${fast} } return slow(record, mode); };`;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see the comment: a constant key per field
    const factory = new Function(
      'DATA',
      'STORE',
      'INSTRUMENTING',
      'WRAPPER',
      'KIND',
      'asIs',
      'wrap',
      'slow',
      body,
    );
    return (factory as (...args: unknown[]) => (record: RecordLike, mode?: GetMode) => T | undefined)(
      DATA,
      STORE,
      INSTRUMENTING,
      WRAPPER,
      KIND,
      asIs,
      wraps?.wrap,
      slow,
    );
  } catch (err) {
    if (err instanceof EvalError) return slow;
    throw err;
  }
}

/** Templates over read-only data (defaults) are as immutable as primitives and may be shared. */
function isReadOnlyTemplate(v: unknown): boolean {
  const data = (v as { data?: () => unknown }).data?.();
  return typeof data === 'object' && data !== null && 'isReadOnly' in data && (data as DataMap).isReadOnly();
}

/** The descriptor of field `name` of a generated record class, converting with `coercer`. */
export function fieldDef<T>(name: string, coercer: Coercer<T>): FieldDef<T> {
  return new FieldDef(name, coercer);
}

/** Wraps `data` as a record's map, or a new empty map; anything else cannot be a record. */
export function recordData(data: DataMap | undefined, cls: { readonly name: string }): DataMap {
  if (data instanceof DataMap) return data;
  if (data === undefined) return new DataMap();
  throw new TemplateOutputCastException(`${cls.name} wraps a DataMap, not ${describeValue(data)}`);
}

/**
 * Base class of generated record classes (brief, "Record class"). A record wraps a live DataMap: the
 * constructor neither copies nor validates it, and every setter writes through to it.
 *
 * @example
 * ```ts
 * const photo = new Photo().setId(1).setTitle('Sunset');  // setters chain
 * photo.getTitle();                 // 'Sunset'
 * photo.getExif(GetMode.NULL);      // undefined: absent
 * photo.data().get('title');        // 'Sunset': the live map
 * Photo.fields().exif().iso().toString(); // '/exif/iso'
 * ```
 */
export abstract class RecordTemplate implements RecordLike {
  /** @internal */
  declare readonly [DATA]: DataMap;

  /** Wraps `data` (not copied), or a new empty map (required fields absent). */
  constructor(data?: DataMap) {
    this[DATA] = recordData(data, new.target);
  }

  /** The record schema of the class. */
  abstract schema(): RecordDataSchema;

  /** The wrapped DataMap (live, not a copy). */
  data(): DataMap {
    return this[DATA];
  }

  /** A record of the same class over a shallow clone of the data (brief, "Other generated classes" 6). */
  clone(): this {
    const C = this.constructor as new (data: DataMap) => this;
    return new C(this[DATA].clone());
  }

  /** A record of the same class over a deep copy of the data. */
  copy(): this {
    const C = this.constructor as new (data: DataMap) => this;
    return new C(this[DATA].copy());
  }

  /** True for a record template whose data is equal. */
  equals(other: unknown): boolean {
    return other instanceof RecordTemplate && other[DATA].equals(this[DATA]);
  }

  /** The JSON text of the data (same as `data().toString()`). */
  toString(): string {
    return this[DATA].toString();
  }
}
