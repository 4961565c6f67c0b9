/**
 * Compiles a schema into a validator: one {@link Node} per (dereferenced schema, option combination), each
 * with two functions built once as closures:
 *
 * - `check(raw)`, the fast path: a boolean "valid and needs no fix" over the data layer's *stores* (the plain
 *   JSON-shaped objects and arrays behind DataMap/DataList, see `src/data/internal.ts`). It builds no message,
 *   no path and no wrapper, and allocates nothing, so validating good data costs about what checking a plain
 *   object costs (bench/validation.bench.ts: avsc's `isValid` and an ajv-compiled JSON Schema on the same
 *   record). It may say false for data that turns out valid (a required field named like an `Object.prototype`
 *   member, say): false only sends the value down the slow path, which decides.
 * - `fix(value, run)`, the diagnostic path, taken only where `check` said false: it finds every problem,
 *   records messages with their paths, applies fixes (containers in place, immutable values replaced in
 *   their parent through the DataMap/DataList API so that read-only containers are respected) and returns
 *   the value, or its replacement. Below a container it calls `check` again first, so only the bad branches
 *   of a large document are walked slowly.
 *
 * Nodes are cached per schema object in a WeakMap (STYLE.md, avsc: compile once, never per call); a record
 * that refers to itself gets one node, and its functions reach their children through the node objects so
 * that recursion needs no special case. Typerefs compile to the node of the schema they refer to.
 *
 * The `check` of a container node is then replaced by generated code on first use (check-codegen.ts, which
 * says why); the closures remain the definition and the fallback where code cannot be generated. A third,
 * generated function, `locate`, finds where a failed `check` failed, so that `validate` can run the `fix` of
 * that one value when it is the only one (located-failure.ts).
 *
 * Reading stores directly is a deliberate use of the data layer's internals (`STORE`, `KIND`, `toValue`) by
 * the layer just below it; writing always goes through the public API.
 *
 * Depth: both paths recurse, so both count nesting (data/limits.ts; the root container is depth 1). The fast
 * path says false for a container deeper than MAX_NESTING_DEPTH, and the diagnostic path reports it there as
 * a message ({@link TOO_DEEP}) and does not look below it: validation reports bad data, it never throws for it.
 */
import { ByteString, MAX_NESTING_DEPTH, type DataList, type DataMap, type DataValue } from '../../data';
import { toValue } from '../../data/data-map';
import {
  KIND,
  KIND_BYTES,
  KIND_LIST,
  KIND_MAP,
  KIND_NULL,
  SET_LONG,
  STORE,
  kindOf,
} from '../../data/internal';
import type { ArrayDataSchema } from '../array-schema';
import type { DataSchema } from '../data-schema';
import { DataSchemaType } from '../data-schema-type';
import type { EnumDataSchema } from '../enum-schema';
import type { FixedDataSchema } from '../fixed-schema';
import type { MapDataSchema } from '../map-schema';
import type { RecordDataSchema } from '../record-schema';
import type { UnionDataSchema } from '../union-schema';
import {
  generateCheck,
  generateFieldScan,
  generateLocating as generateLocatingCheck,
  SCAN_FAILED as SCAN_FAILED_UNIT,
  type FieldScan,
} from './check-codegen';
import { CoercionMode } from './coercion-mode';
import {
  isDoubleValue,
  isFloatValue,
  isIntValue,
  isLongValue,
  toBoolean,
  toDouble,
  toFloat,
  toInt,
  toLong,
} from './coerce';
import { spacedSchemaText, valueText } from './message-text';
import { RequiredMode } from './required-mode';
import { UnrecognizedFieldMode } from './unrecognized-field-mode';
import { ValidationMessage } from './validation-message';
import type { ResolvedValidationOptions } from './validation-options';

type Branded = { readonly [KIND]?: number };

/** Read once: an imported binding is a getter call under swc's CommonJS output. */
const SCAN_FAILED = SCAN_FAILED_UNIT;

/** The message at a container nested deeper than the limit. */
export const TOO_DEEP = `nested deeper than the maximum depth of ${MAX_NESTING_DEPTH} (MAX_NESTING_DEPTH); not validated below this point`;

/** A container at the current path of `run` is too deep: reports it (the path length is its depth - 1). */
function tooDeep(run: Run): boolean {
  if (run.path.length < MAX_NESTING_DEPTH) return false;
  run.error(TOO_DEEP);
  return true;
}
type RawMap = Record<string, unknown>;

/** State of one diagnostic pass: messages, the path to the value at hand, fix flags, pending trims. */
export class Run {
  /** @param path the path of the value the run starts at (the root's by default) */
  constructor(readonly path: (string | number)[] = []) {}

  readonly messages: ValidationMessage[] = [];
  valid = true;
  hasFix = false;
  hasFixupReadOnlyError = false;
  /** Made on the first trim: most runs have none (one allocation less on the failure path). */
  trims: Array<readonly [DataMap, string]> | null = null;

  /** An error at the current path. */
  error(text: string): void {
    this.messages.push(new ValidationMessage(this.path.slice(), text));
    this.valid = false;
  }

  /** An error at a child of the current path (an absent field, an unknown key). */
  errorAt(child: string, text: string): void {
    this.path.push(child);
    this.error(text);
    this.path.pop();
  }

  /**
   * Puts the fixed value of the entry at the current path into `map`, unless the map is read-only. `long`:
   * the value was coerced to a long, stored marked long as the reference stores a `Long`
   * (src/data/long-marks.ts).
   */
  setInMap(map: DataMap, key: string, value: unknown, parentKey: string, long = false): void {
    this.hasFix = true;
    if (map.isReadOnly()) {
      this.hasFixupReadOnlyError = true;
      this.error(`cannot be fixed because DataMap backing ${parentKey} type is read-only`);
    } else if (long && typeof value === 'number') {
      map[SET_LONG](key, value);
    } else {
      map.put(key, value as DataValue);
    }
  }

  /** Puts the fixed value of the element at the current path into `list`, unless the list is read-only. */
  setInList(list: DataList, index: number, value: unknown, long = false): void {
    this.hasFix = true;
    if (list.isReadOnly()) {
      this.hasFixupReadOnlyError = true;
      this.error('cannot be fixed because DataList backing an array type is read-only');
    } else {
      // a bigint marks the element long (see setInMap); toLong gives a safe integer as a number
      list.set(index, (long && typeof value === 'number' ? BigInt(value) : value) as DataValue);
    }
  }
}

/** The compiled validator of one schema under one option combination. */
export class Node {
  /**
   * Fast path over raw store values: true when valid and nothing needs fixing. `depth` is the nesting depth of
   * `raw` when it is a container (default 1, the root). For containers, generated code (check-codegen.ts)
   * replaces the closure on the first call.
   */
  check: (raw: unknown, depth?: number) => boolean = never;
  /** The closure version of {@link check}, kept for the comparison tests and where code cannot be generated. */
  closureCheck: (raw: unknown, depth?: number) => boolean = never;
  /** Diagnostic path over data values: records messages, applies fixes, returns the value or its replacement. */
  fix: (value: unknown, run: Run) => unknown = identity;
  /** A long node: what its `fix` returns is stored marked long (see `Run.setInMap`). */
  long = false;
  /**
   * The check again, recording where it fails (located-failure.ts): called by `validate` when {@link check}
   * said false, so that the diagnostic path can start there. Records nothing for a primitive (its fix is all
   * there is) or where code cannot be generated.
   */
  locate: (raw: unknown, depth?: number) => boolean = never;
  /**
   * What `validate` runs first: the locating check where it is one function (as fast as {@link check} then,
   * check-codegen.ts `generateLocating`), else {@link check}. {@link firstLocates} says which.
   */
  first: (raw: unknown, depth?: number) => boolean = (raw, depth) => this.check(raw, depth);
  firstLocates = false;

  /** @param key the schema's union member key, which read-only messages name (`DataMap backing <key> type`) */
  constructor(readonly key: string) {}
}

function never(): boolean {
  return false;
}

function identity(value: unknown): unknown {
  return value;
}

/** Compiled nodes per schema object, indexed by option combination (`optionsIndex`). */
const CACHE = new WeakMap<DataSchema, Array<Node | undefined>>();

/** The node of `schema` (after typerefs) under `options`, compiled on first use. */
export function nodeFor(schema: DataSchema, options: ResolvedValidationOptions, index: number): Node {
  const s = schema.getDereferencedSchema();
  let nodes = CACHE.get(s);
  if (nodes === undefined) {
    nodes = [];
    CACHE.set(s, nodes);
  }
  const cached = nodes[index];
  if (cached !== undefined) return cached;
  const node = new Node(s.getUnionMemberKey());
  nodes[index] = node; // before the children: a recursive reference finds this node
  const child = (c: DataSchema): Node => nodeFor(c, options, index);
  switch (s.getType()) {
    case DataSchemaType.INT:
      primitive(node, options, isIntValue, toInt, 'Integer');
      break;
    case DataSchemaType.LONG:
      primitive(node, options, isLongValue, toLong, 'Long');
      node.long = true;
      break;
    case DataSchemaType.FLOAT:
      primitive(node, options, isFloatValue, toFloat, 'Float');
      break;
    case DataSchemaType.DOUBLE:
      primitive(node, options, isDoubleValue, toDouble, 'Double');
      break;
    case DataSchemaType.BOOLEAN:
      primitive(node, options, isBoolean, toBoolean, 'Boolean');
      break;
    case DataSchemaType.STRING:
      primitive(node, options, isString, noConversion, 'String');
      break;
    case DataSchemaType.NULL:
      nullNode(node, options);
      break;
    case DataSchemaType.BYTES:
      bytesNode(node, options, undefined);
      break;
    case DataSchemaType.FIXED:
      bytesNode(node, options, (s as FixedDataSchema).getSize());
      break;
    case DataSchemaType.ENUM:
      enumNode(node, s as EnumDataSchema);
      break;
    case DataSchemaType.ARRAY:
      arrayNode(node, child((s as ArrayDataSchema).getItems()));
      break;
    case DataSchemaType.MAP:
      mapNode(node, child((s as MapDataSchema).getValues()));
      break;
    case DataSchemaType.UNION:
      unionNode(node, s as UnionDataSchema, child);
      break;
    case DataSchemaType.RECORD:
      recordNode(node, s as RecordDataSchema, options, child);
      break;
    default:
      // TYPEREF cannot remain after dereferencing; anything else has no valid value
      node.fix = (value, run) => {
        run.error(`${valueText(value)} has no schema type to be validated against`);
        return value;
      };
  }
  const closure = node.check;
  node.closureCheck = closure;
  node.first = closure;
  if (!s.isPrimitive()) {
    // Generated on first use, not here: a large schema graph compiles only the parts data reaches, and the
    // closures of the parents find the generated function through the node. Primitive checks are single
    // expressions already, so their closures stay.
    let fast: ((raw: unknown, depth?: number) => boolean) | undefined;
    const generatedCheck = (): ((raw: unknown, depth?: number) => boolean) =>
      (fast ??= node.check = generateCheck(s, options) ?? closure);
    node.check = (raw, depth) => generatedCheck()(raw, depth);
    // Generated on first use, with `first` (see there): where code cannot be generated nothing is located.
    const generateLocating = (): void => {
      const generated = generateLocatingCheck(s, options, child);
      node.locate = generated?.locate ?? never;
      node.firstLocates = generated?.single ?? false;
      node.first = node.firstLocates ? node.locate : generatedCheck();
    };
    node.locate = (raw, depth) => {
      generateLocating();
      return node.locate(raw, depth);
    };
    node.first = (raw, depth) => {
      generateLocating();
      return node.first(raw, depth);
    };
  }
  return node;
}

// ---------------------------------------------------------------------------------------------------------
// Shapes of raw values

/** A DataMap's store: a plain object, not a ByteString. */
function isRawMap(raw: unknown): raw is RawMap {
  return (
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) && (raw as Branded)[KIND] === undefined
  );
}

function isBoolean(v: unknown): boolean {
  return typeof v === 'boolean';
}

function isString(v: unknown): boolean {
  return typeof v === 'string';
}

function noConversion(): undefined {
  return undefined;
}

/** The raw (store) form of a data value, as a container holds it. */
export function rawOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const k = (value as Branded)[KIND];
  if (k === KIND_MAP || k === KIND_LIST) return (value as { [STORE]: unknown })[STORE];
  if (k === KIND_NULL) return null;
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Primitives

function primitive(
  node: Node,
  options: ResolvedValidationOptions,
  valid: (v: unknown) => boolean,
  convert: (v: unknown, fromStrings: boolean) => unknown,
  className: string,
): void {
  const mode = options.coercionMode;
  const fromStrings = mode === CoercionMode.STRING_TO_PRIMITIVE;
  // read once: an imported binding is a getter call under swc's CommonJS output (a profile showed it)
  const off = mode === CoercionMode.OFF;
  node.check = valid;
  node.fix = (value, run) => {
    if (valid(value)) return value;
    if (off) {
      run.error(`${valueText(value)} is not backed by a ${className}`);
      return value;
    }
    const converted = convert(value, fromStrings);
    if (converted === undefined) {
      run.error(`${valueText(value)} cannot be coerced to ${className}`);
      return value;
    }
    return converted;
  };
}

function nullNode(node: Node, options: ResolvedValidationOptions): void {
  const off = options.coercionMode === CoercionMode.OFF;
  node.check = (raw) => raw === null;
  node.fix = (value, run) => {
    if (kindOf(value) !== KIND_NULL) {
      run.error(`${valueText(value)} ${off ? 'is not backed by a' : 'cannot be coerced to'} Null`);
    }
    return value;
  };
}

/** bytes (size undefined) or fixed: a ByteString, or an Avro string that NORMAL coercion turns into one. */
function bytesNode(node: Node, options: ResolvedValidationOptions, size: number | undefined): void {
  const off = options.coercionMode === CoercionMode.OFF;
  const typeName = size === undefined ? 'bytes' : 'fixed';
  if (off) {
    // without coercion an Avro string is valid as it is
    node.check = (raw) =>
      typeof raw === 'string'
        ? (size === undefined || raw.length === size) && ByteString.isAvroString(raw)
        : kindOf(raw) === KIND_BYTES && (size === undefined || (raw as ByteString).length === size);
  } else {
    node.check = (raw) =>
      kindOf(raw) === KIND_BYTES && (size === undefined || (raw as ByteString).length === size);
  }
  node.fix = (value, run) => {
    if (typeof value === 'string') {
      if (size !== undefined && value.length !== size) {
        run.error(`"${value}" length (${value.length}) is inconsistent with expected fixed size of ${size}`);
        return value;
      }
      if (!ByteString.isAvroString(value)) {
        run.error(`"${value}" is not a valid string representation of bytes`);
        return value;
      }
      return off ? value : ByteString.fromAvroString(value);
    }
    if (kindOf(value) === KIND_BYTES) {
      const length = (value as ByteString).length;
      if (size !== undefined && length !== size) {
        run.error(
          `"${valueText(value)}" length (${length}) is inconsistent with expected fixed size of ${size}`,
        );
      }
      return value;
    }
    run.error(`${typeName} type is not backed by a String or ByteString`);
    return value;
  };
}

function enumNode(node: Node, schema: EnumDataSchema): void {
  const symbols = new Set(schema.getSymbols());
  node.check = (raw) => typeof raw === 'string' && symbols.has(raw);
  node.fix = (value, run) => {
    if (typeof value !== 'string') run.error('enum type is not backed by a String');
    else if (!symbols.has(value)) run.error(`"${value}" is not an enum symbol`);
    return value;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Containers

function arrayNode(node: Node, items: Node): void {
  node.check = (raw, depth = 1) => {
    if (!Array.isArray(raw) || depth > MAX_NESTING_DEPTH) return false;
    for (let i = 0; i < raw.length; i++) if (!items.check(raw[i], depth + 1)) return false;
    return true;
  };
  node.fix = (value, run) => {
    if (kindOf(value) !== KIND_LIST) {
      run.error('array type is not backed by a DataList');
      return value;
    }
    if (tooDeep(run)) return value;
    const list = value as DataList;
    const store = list[STORE];
    const below = run.path.length + 2;
    for (let i = 0; i < store.length; i++) {
      const raw = store[i];
      if (items.check(raw, below)) continue;
      const element = toValue(raw);
      run.path.push(i);
      const fixed = items.fix(element, run);
      if (fixed !== element) run.setInList(list, i, fixed, items.long);
      run.path.pop();
    }
    return value;
  };
}

function mapNode(node: Node, values: Node): void {
  node.check = (raw, depth = 1) => {
    if (!isRawMap(raw) || depth > MAX_NESTING_DEPTH) return false;
    for (const k in raw) if (!values.check(raw[k], depth + 1)) return false;
    return true;
  };
  node.fix = (value, run) => {
    if (kindOf(value) !== KIND_MAP) {
      run.error('map type is not backed by a DataMap');
      return value;
    }
    if (tooDeep(run)) return value;
    const map = value as DataMap;
    const store = map[STORE];
    const below = run.path.length + 2;
    for (const k of Object.keys(store)) {
      const raw = store[k];
      if (values.check(raw, below)) continue;
      const entry = toValue(raw);
      run.path.push(k);
      const fixed = values.fix(entry, run);
      if (fixed !== entry) run.setInMap(map, k, fixed, 'map', values.long);
      run.path.pop();
    }
    return value;
  };
}

function unionNode(node: Node, schema: UnionDataSchema, child: (s: DataSchema) => Node): void {
  const members = new Map<string, Node>();
  for (const m of schema.getMembers()) {
    const key = m.getUnionMemberKey();
    if (!members.has(key)) members.set(key, child(m.getType()));
  }
  const hasNull = schema.getTypeByMemberKey('null') !== undefined;
  let text: string | undefined;
  const unionText = (): string => (text ??= spacedSchemaText(schema));

  node.check = (raw, depth = 1) => {
    if (raw === null) return hasNull;
    if (!isRawMap(raw) || depth > MAX_NESTING_DEPTH) return false;
    let key: string | undefined;
    for (const k in raw) {
      if (key !== undefined) return false;
      key = k;
    }
    if (key === undefined) return false;
    const member = members.get(key);
    return member !== undefined && member.check(raw[key], depth + 1);
  };
  node.fix = (value, run) => {
    const kind = kindOf(value);
    if (kind === KIND_NULL) {
      if (!hasNull) run.error(`null is not a member type of union ${unionText()}`);
      return value;
    }
    if (kind !== KIND_MAP) {
      run.error('union type is not backed by a DataMap or null');
      return value;
    }
    if (tooDeep(run)) return value;
    const map = value as DataMap;
    const store = map[STORE];
    const keys = Object.keys(store);
    if (keys.length > 1) {
      run.error('DataMap should have no more than one entry for a union type');
    } else if (keys.length === 0) {
      run.error('DataMap should have at least one entry for a union type');
    } else {
      const key = keys[0]!;
      const member = members.get(key);
      if (member === undefined) {
        run.error(`"${key}" is not a member type of union ${unionText()}`);
      } else if (!member.check(store[key], run.path.length + 2)) {
        const entry = toValue(store[key]);
        run.path.push(key);
        const fixed = member.fix(entry, run);
        if (fixed !== entry) run.setInMap(map, key, fixed, 'union', member.long);
        run.path.pop();
      }
    }
    return value;
  };
}

/** A field's default as FIXUP_ABSENT_WITH_DEFAULT puts it: a read-only copy for containers (never shared with the schema). */
function readOnlyDefault(value: DataValue): DataValue {
  const kind = kindOf(value);
  if (kind === KIND_MAP || kind === KIND_LIST) {
    const copy = (value as DataMap | DataList).copy();
    copy.makeReadOnly();
    return copy;
  }
  return value;
}

function recordNode(
  node: Node,
  schema: RecordDataSchema,
  options: ResolvedValidationOptions,
  child: (s: DataSchema) => Node,
): void {
  const fields = schema.getFields();
  const n = fields.length;
  const names = fields.map((f) => f.getName());
  const nodes = fields.map((f) => child(f.getType()));
  const optional = fields.map((f) => f.getOptional());
  const defaults = fields.map((f) => f.getDefault());
  const requiredMode = options.requiredMode;
  // Whether the fast path may accept the field's absence; everything else goes to the slow path, which
  // reports it or (FIXUP_ABSENT_WITH_DEFAULT) puts the default in.
  const absentOk = fields.map(
    (f) =>
      f.getOptional() ||
      requiredMode === RequiredMode.IGNORE ||
      (requiredMode === RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT && f.hasDefault()),
  );
  // Names an Object.prototype member has ("constructor", "__proto__"...) are read as own properties only.
  const ownOnly = names.map((name) => name in Object.prototype);
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  const unrecognized = options.unrecognizedFieldMode;
  const countKeys = unrecognized !== UnrecognizedFieldMode.IGNORE;
  const recordKey = node.key;

  node.check = (raw, depth = 1) => {
    if (!isRawMap(raw) || depth > MAX_NESTING_DEPTH) return false;
    let present = 0;
    for (let i = 0; i < n; i++) {
      const name = names[i]!;
      const v = ownOnly[i]
        ? Object.prototype.hasOwnProperty.call(raw, name)
          ? raw[name]
          : undefined
        : raw[name];
      if (v === undefined) {
        if (!absentOk[i]) return false;
        continue;
      }
      present++;
      if (!nodes[i]!.check(v, depth + 1)) return false;
    }
    if (countKeys) {
      let total = 0;
      for (const _ in raw) total++;
      return total === present;
    }
    return true;
  };

  const uniqueNames = index.size === n;
  /** The field's value in the store: own entries only for names Object.prototype has. */
  const read = (store: RawMap, i: number): unknown => {
    const name = names[i]!;
    return ownOnly[i]
      ? Object.prototype.hasOwnProperty.call(store, name)
        ? store[name]
        : undefined
      : store[name];
  };

  /** Fixes the present field `i` that failed its check: messages, and its fix put into the map. */
  const fixField = (map: DataMap, store: RawMap, i: number, run: Run): void => {
    const name = names[i]!;
    const fieldNode = nodes[i]!;
    const field = toValue(store[name]);
    run.path.push(name);
    const fixed = fieldNode.fix(field, run);
    if (fixed !== field) run.setInMap(map, name, fixed, recordKey, fieldNode.long);
    run.path.pop();
  };

  /** Reports (or, FIXUP_ABSENT_WITH_DEFAULT, fills in) the required fields the map lacks, in schema order. */
  const fixMissing = (map: DataMap, store: RawMap, run: Run): void => {
    if (requiredMode === RequiredMode.IGNORE) return;
    for (let i = 0; i < n; i++) {
      if (optional[i] || read(store, i) !== undefined) continue;
      const name = names[i]!;
      const fallback = defaults[i];
      if (requiredMode === RequiredMode.MUST_BE_PRESENT) {
        run.errorAt(name, 'field is required but not found');
      } else if (fallback === undefined) {
        run.errorAt(name, 'field is required but not found and has no default value');
      } else if (requiredMode === RequiredMode.FIXUP_ABSENT_WITH_DEFAULT) {
        run.hasFix = true;
        if (map.isReadOnly()) {
          run.hasFixupReadOnlyError = true;
          run.errorAt(
            name,
            'field is required and has default value but not found and cannot be fixed because DataMap of record is read-only',
          );
        } else {
          map.put(name, readOnlyDefault(fallback));
        }
      }
    }
  };

  /** The general diagnostic walk: the map's entries in key order (the order of their messages). */
  const fixInKeyOrder = (map: DataMap, store: RawMap, run: Run, below: number): void => {
    for (const k of Object.keys(store)) {
      const i = index.get(k);
      if (i === undefined) {
        if (unrecognized === UnrecognizedFieldMode.DISALLOW) {
          run.errorAt(k, 'unrecognized field found but not allowed');
        } else if (unrecognized === UnrecognizedFieldMode.TRIM) {
          if (map.isReadOnly()) {
            run.hasFixupReadOnlyError = true;
            run.errorAt(k, 'unrecognized field cannot be trimmed because DataMap backing it is read-only');
          } else {
            (run.trims ??= []).push([map, k]);
          }
        }
        continue;
      }
      if (nodes[i]!.check(store[k], below)) continue;
      fixField(map, store, i, run);
    }
    fixMissing(map, store, run);
  };

  /** The field scan where code cannot be generated: the same, with the fields' closure checks. */
  const closureScan: FieldScan = (store, depth, bad) => {
    let present = 0;
    let failures = 0;
    for (let i = 0; i < n; i++) {
      const v = read(store, i);
      if (v === undefined) {
        if (!absentOk[i]) bad[failures++] = i;
      } else {
        present++;
        if (!nodes[i]!.check(v, depth + 1)) bad[failures++] = i;
      }
    }
    return present + failures * SCAN_FAILED;
  };
  let scan: FieldScan | undefined;
  const failed: number[] = [];

  node.fix = (value, run) => {
    if (kindOf(value) !== KIND_MAP) {
      run.error('record type is not backed by a DataMap');
      return value;
    }
    if (tooDeep(run)) return value;
    const map = value as DataMap;
    const store = map[STORE];
    const below = run.path.length + 2;
    if (!uniqueNames) {
      fixInKeyOrder(map, store, run, below);
      return value;
    }
    // The usual bad record has one bad field: find the bad fields with the generated field scan (reads by
    // constant key, check-codegen.ts) and, when one present field is bad, fix it alone; messages then come
    // out in the same order as from the walk in key order, which the general case (two bad present fields,
    // unknown keys) still takes. Measured on the bad ~1 KB record of bench/validation.bench.ts: the walk in
    // key order (Object.keys, a Map lookup and a closure check per key, a Uint8Array of the fields seen) was
    // most of the time of a failed validation.
    scan ??= generateFieldScan(schema, options, child) ?? closureScan;
    // one array per record node: it is read below before any fix can recurse into this node
    const scanned = scan(store, below - 1, failed);
    const present = scanned % SCAN_FAILED;
    const failures = (scanned - present) / SCAN_FAILED;
    if (countKeys) {
      let total = 0;
      for (const _ in store) total++;
      if (total !== present) {
        fixInKeyOrder(map, store, run, below);
        return value;
      }
    }
    let bad = -1;
    let missing = false;
    for (let j = 0; j < failures; j++) {
      const i = failed[j]!;
      if (read(store, i) === undefined) {
        missing = true;
      } else if (bad === -1) {
        bad = i;
      } else {
        fixInKeyOrder(map, store, run, below);
        return value;
      }
    }
    if (bad !== -1) fixField(map, store, bad, run);
    if (missing) fixMissing(map, store, run);
    return value;
  };
}
