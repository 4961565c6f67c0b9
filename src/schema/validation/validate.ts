import type { DataList, DataMap, DataValue } from '../../data';
import { toValue } from '../../data/data-map';
import { KIND, KIND_BYTES, KIND_LIST, KIND_MAP, KIND_NULL, STORE } from '../../data/internal';
import type { DataSchema } from '../data-schema';
import { nodeFor, Run, type Node } from './compile-validator';
import { LOCATED as LOCATED_STATE } from './located-failure';
import {
  DEFAULT_VALIDATION_OPTIONS,
  optionsIndex,
  resolveValidationOptions,
  type ResolvedValidationOptions,
  type ValidationOptions,
} from './validation-options';
import { ValidationResult } from './validation-result';

const DEFAULT_INDEX = optionsIndex(DEFAULT_VALIDATION_OPTIONS);
/** Read once: an imported binding is a getter call under swc's CommonJS output (compile-validator.ts). */
const LOCATED = LOCATED_STATE;

/** Stands for a root value that is not data at all (`null`, `undefined`, a plain object): no check accepts it. */
const NOT_DATA = Symbol('not data');

/** The raw form of a root value for the fast path (see compile-validator.ts). */
function rootRaw(value: unknown): unknown {
  if (value === undefined) return NOT_DATA;
  if (typeof value !== 'object') return value;
  if (value === null) return NOT_DATA;
  const k = (value as { readonly [KIND]?: number })[KIND];
  if (k === KIND_MAP || k === KIND_LIST) return (value as { [STORE]: unknown })[STORE];
  if (k === KIND_NULL) return null;
  if (k === KIND_BYTES) return value;
  return NOT_DATA;
}

/**
 * The fast check (or the locating one, where it is as fast: `Node.first`), then, on failure, the locating
 * check if it has not run yet, then the diagnostic path from where it failed or from the root.
 */
function run(node: Node, data: DataValue): ValidationResult {
  // Both paths stop at MAX_NESTING_DEPTH (compile-validator.ts), so no depth of data runs out of stack.
  const raw = rootRaw(data);
  LOCATED.n = 0;
  if (node.first(raw, 1)) return new ValidationResult(data, true, false, false);
  if (!node.firstLocates) {
    LOCATED.n = 0;
    try {
      node.locate(raw, 1);
    } catch (err) {
      // its frames are larger than the fast check's: on data nested near the depth limit (a restspec's
      // subresources 5 000 deep) it can run out of stack where the fast check did not; the diagnostic path
      // from the root is iterative and reports the depth
      if (!(err instanceof RangeError)) throw err;
      LOCATED.n = 0;
    }
  }
  if (LOCATED.n === 1 && LOCATED.depth !== 0) return runAtFailure(data);
  return diagnose(node, data);
}

/**
 * The diagnostic path from the root: every value whose check fails is walked (compile-validator.ts). Exported
 * for the tests that hold {@link runAtFailure} to it.
 */
export function diagnose(node: Node, data: DataValue): ValidationResult {
  const state = new Run();
  const fixed = node.fix(data, state);
  if (fixed !== data) state.hasFix = true;
  return result(fixed as DataValue, state);
}

function result(fixed: DataValue, state: Run): ValidationResult {
  if (state.trims !== null) for (const [map, key] of state.trims) map.remove(key);
  return new ValidationResult(fixed, state.valid, state.hasFix, state.hasFixupReadOnlyError, state.messages);
}

/**
 * The diagnostic path when the check refused exactly one value below the root (located-failure.ts says why
 * that value's own `fix` gives every message): that `fix` at that path, its replacement (a coerced
 * primitive) put into the container holding it as {@link diagnose} would. Measured on the bad ~1 KB record of
 * bench/validation.bench.ts ("invalid 1KB", in a loop, with `getMessage()`): ~390-440 ns from the root (which
 * re-checked every record on the path field by field), ~160-260 ns from where the check failed (the rest is
 * the locating walk itself, the fix, the result and the message text).
 */
function runAtFailure(data: DataValue): ValidationResult {
  const at = LOCATED;
  const leaf = at.node as Node;
  const state = new Run(at.path());
  const value = toValue(at.value);
  const fixed = leaf.fix(value, state);
  if (fixed !== value) {
    // Only primitives are replaced, and the check always sees their container (its parent is set). The
    // root's store has no link to its wrapper (src/data/adopt.ts): the root is `data` itself.
    const parent = state.path.length === 1 ? data : toValue(at.parent);
    if (at.parentKey === null) state.setInList(parent as DataList, at.key as number, fixed, leaf.long);
    else state.setInMap(parent as DataMap, at.key as string, fixed, at.parentKey, leaf.long);
  }
  return result(data, state);
}

/**
 * Validates `data` against `schema` and applies the fixes the options allow (coercions, defaults of absent
 * required fields, trims of unknown fields); see {@link ValidationResult}. Validation is explicit: nothing in
 * Svc validates data on its own when it is decoded.
 *
 * The schema is compiled once per option combination and cached on the schema object, so the first call
 * costs a compile and later ones only the walk of the data. Never throws for bad data, only for bad options:
 * data nested deeper than `MAX_NESTING_DEPTH` (1000) gets the message `nested deeper than the maximum depth
 * of 1000 (MAX_NESTING_DEPTH); not validated below this point` at the first container too deep.
 *
 * @example
 * ```ts
 * const result = validate(new JsonCodec().stringToMap('{"id":"12"}'), photoSchema, {
 *   coercionMode: CoercionMode.STRING_TO_PRIMITIVE,
 * });
 * result.isValid();     // false: title is required...
 * result.getMessage();  // 'ERROR :: /title :: field is required but not found and has no default value\n'
 * ```
 * @throws ValidationOptionsError `SVC_ERR_VALIDATE_BAD_OPTIONS` for an unknown mode
 * @see compileValidator to hold on to a compiled validator
 */
export function validate(data: DataValue, schema: DataSchema, options?: ValidationOptions): ValidationResult {
  if (options === undefined) {
    // One-entry memo of the default-options node: a loop over one schema skips the WeakMap lookup, a third
    // of the call on a ~1 KB record (bench/validation.bench.ts: ~105 ns → ~75 ns).
    if (schema !== lastSchema) {
      lastNode = nodeFor(schema, DEFAULT_VALIDATION_OPTIONS, DEFAULT_INDEX);
      lastSchema = schema;
    }
    return run(lastNode!, data);
  }
  const resolved = resolveValidationOptions(options);
  return run(nodeFor(schema, resolved, optionsIndex(resolved)), data);
}

let lastSchema: DataSchema | undefined;
let lastNode: Node | undefined;

/** A schema compiled for one option combination; {@link validate} without the per-call cache lookup. */
export interface Validator {
  readonly schema: DataSchema;
  readonly options: ResolvedValidationOptions;
  /** Same as `validate(data, schema, options)`. */
  validate(data: DataValue): ValidationResult;
}

/**
 * Compiles `schema` for `options` (or fetches the cached compilation) and returns a reusable validator.
 *
 * @example
 * ```ts
 * const validatePhoto = compileValidator(photoSchema, { requiredMode: RequiredMode.MUST_BE_PRESENT });
 * for (const photo of photos) if (!validatePhoto.validate(photo).isValid()) reject(photo);
 * ```
 */
export function compileValidator(schema: DataSchema, options?: ValidationOptions): Validator {
  const resolved = resolveValidationOptions(options);
  const node = nodeFor(schema, resolved, optionsIndex(resolved));
  return {
    schema,
    options: resolved,
    validate: (data) => run(node, data),
  };
}
