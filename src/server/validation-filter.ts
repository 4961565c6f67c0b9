import { DataList, DataMap, type DataValue } from '../data';
import {
  CoercionMode,
  DataSchemaType,
  type DataSchema,
  type RecordDataSchema,
  REQUIRED_MODES,
  RequiredMode,
  type ValidationMessage,
  type ValidationPath,
  messagesToString,
  validate,
} from '../schema';
import type { FieldRules } from '../resources/field-annotations';
import { patchFieldMessages, presentFieldMessages, withoutReadOnlyAbsences } from './field-rules-check';
import { ResourceMethod } from '../protocol';
import { OutputValidationError, RequestValidationError } from '../resources/errors';
import type { RecordTemplate } from '../templates';
import type { ComplexResourceKey } from '../resources/key-types';
import { PatchRequest } from '../resources/patch';
import type { BoundInput, Invocation, RequestFilter, ResourceResponse } from '../resources/request';
import type { Context } from './bind';
import {
  ITEMS_PER_STEP,
  SLICED_BATCH_SIZE,
  type SliceOwner,
  type Steps,
  runNow,
  runSliced,
} from '../resources/slices';

/**
 * The validation filter (the reference's `RestLiValidationFilter`), on for every resource unless the server
 * (`svcPlugin` option `validation: false`) or the resource (`validation: false`) turns it off: whatever a
 * service accepts it must be able to answer later, and a record stored without its required fields or with a
 * string where an int belongs would make every later read of it fail. It validates what a request brings
 * against its schemas before the handler runs:
 *
 * - bodies of create, update, partial_update (the `$set` values and nested patches against the fields'
 *   types; `$delete` of a required field without default), and their batch forms: **422** with the
 *   message-list text (`ERROR :: /title :: field is required but not found and has no default value`),
 *   per batch item prefixed `Index: <i>, ` (batch_create) or `Key: <key>, ` (batch updates) (wire facts §9.3);
 * - the resource's read-only and create-only fields (`readOnly`, `createOnly`: field-rules-check.ts): a
 *   required read-only field may be absent from a create or update; one present in a create, batch_create or
 *   patch, or a create-only one in a patch, is a **422** `ERROR :: /id :: ReadOnly field present in a create
 *   request` (the reference's `RestLiDataValidator` messages);
 * - the patched result: `PatchRequest.applyTo(entity)` in a partial update validates the entity it returns
 *   against the entity schema (422, as the reference validates a patch against the whole record), so a patch
 *   cannot leave an entity without a required field;
 * - finder and action parameters (records: required fields too) and complex keys: **400**
 *   `Input field validation failure, reason: <messages>`;
 * - with `outputs: true` (the plugin turns it on in development mode), what handlers return: entities of
 *   get, finders, get_all, batch finders, batch_get, returned created or patched entities, and action values; a failure is a
 *   handler bug, a **500** naming the paths (hidden in production mode). Projected responses are checked
 *   without required fields, which a projection may leave out.
 *
 * Data is validated with `RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT` and `CoercionMode.NORMAL` by default
 * (the reference's `ValidationOptions()`); numbers are coerced in place.
 */

/** Options of {@link validationFilter}. */
export interface ValidationFilterOptions {
  /** Validate request bodies and patched results (422). Default true. */
  readonly bodies?: boolean;
  /** Validate finder and action parameters and complex keys (400). Default true. */
  readonly params?: boolean;
  /**
   * Validate what handlers return (500 naming the paths). Default false here; the plugin's default is true in
   * `development` mode.
   */
  readonly outputs?: boolean;
  /** Default `CAN_BE_ABSENT_IF_HAS_DEFAULT`. */
  readonly requiredMode?: RequiredMode;
}

function prefixed(messages: readonly ValidationMessage[], prefix: ValidationPath): string {
  let s = '';
  for (const m of messages) {
    let path = '';
    for (const p of [...prefix, ...m.getPath()]) path += `/${p}`;
    s += `ERROR :: ${path} :: ${m.getText()}\n`;
  }
  return s;
}

/** Validates a patch against a record schema; returns the message-list text ('' when valid). */
function patchMessages(
  patch: DataMap,
  schema: RecordDataSchema,
  path: ValidationPath,
  requiredMode: RequiredMode,
  rules?: FieldRules,
): string {
  let out = '';
  const set = patch.get('$set');
  if (set instanceof DataMap) {
    // each set value against its field's type (a set record must be whole); unknown fields pass, as in data
    for (const [name, value] of set) {
      const field = schema.getField(name);
      if (field === undefined) continue;
      const r = validate(value, field.getType(), { requiredMode, coercionMode: CoercionMode.NORMAL });
      if (r.isValid()) continue;
      // a record set whole may leave its read-only fields out, as a create may
      const messages =
        rules === undefined
          ? r.getMessages()
          : withoutReadOnlyAbsences(r.getMessages(), rules, [...path, name]);
      out += prefixed(messages, [...path, name]);
    }
  }
  const deleted = patch.get('$delete');
  if (deleted instanceof DataList) {
    for (const name of deleted) {
      const field = schema.getField(name as string);
      if (field !== undefined && !field.getOptional() && field.getDefault() === undefined) {
        out += `ERROR :: ${[...path, name as string].map((p) => `/${p}`).join('')} :: cannot delete a required field\n`;
      }
    }
  }
  for (const [name, op] of patch) {
    if (name.startsWith('$') || !(op instanceof DataMap)) continue;
    const field = schema.getField(name);
    if (field === undefined) continue;
    const t = field.getType().getDereferencedSchema();
    if (t.getType() === DataSchemaType.RECORD)
      out += patchMessages(op, t as RecordDataSchema, [...path, name], requiredMode, rules);
  }
  return out;
}

/**
 * Validates an entity; with the resource's read-only and create-only fields (`rules`), those read-only are
 * optional and, for a `method` that may not set them, refused (field-rules-check.ts).
 */
function entityMessages(
  data: DataValue,
  schema: DataSchema,
  requiredMode: RequiredMode,
  rules?: FieldRules,
  method?: string,
): string {
  const r = validate(data, schema, { requiredMode, coercionMode: CoercionMode.NORMAL });
  if (rules === undefined) return r.isValid() ? '' : r.getMessage();
  const text = r.isValid() ? '' : messagesToString(withoutReadOnlyAbsences(r.getMessages(), rules));
  return method === undefined ? text : text + presentFieldMessages(data, rules, method);
}

/** A patch's messages: its values against the schema, then the read-only and create-only rules. */
function allPatchMessages(
  patch: DataMap,
  schema: RecordDataSchema,
  requiredMode: RequiredMode,
  rules: FieldRules | undefined,
  method: string,
): string {
  const text = patchMessages(patch, schema, [], requiredMode, rules);
  return rules === undefined ? text : text + patchFieldMessages(patch, rules, method);
}

function bodyFailure(text: string): RequestValidationError {
  return new RequestValidationError('SVC_ERR_BIND_INPUT_VALIDATION', text.trimEnd());
}

function paramFailure(text: string): RequestValidationError {
  return new RequestValidationError(
    'SVC_ERR_BIND_PARAMETER_VALIDATION',
    `Input field validation failure, reason: ${text.trimEnd()}`,
  );
}

function isComplexTyped(k: unknown): k is ComplexResourceKey<RecordTemplate, RecordTemplate> {
  return (
    typeof k === 'object' &&
    k !== null &&
    'key' in k &&
    typeof (k as { key?: { data?: unknown } }).key?.data === 'function'
  );
}

function keyMessages(key: unknown, requiredMode: RequiredMode): string {
  if (!isComplexTyped(key)) return '';
  let out = '';
  const k = validate(key.key.data(), key.key.schema(), { requiredMode, coercionMode: CoercionMode.NORMAL });
  if (!k.isValid()) out += k.getMessage();
  if (key.params !== undefined) {
    const p = validate(key.params.data(), key.params.schema(), {
      requiredMode,
      coercionMode: CoercionMode.NORMAL,
    });
    if (!p.isValid()) out += prefixed(p.getMessages(), ['$params']);
  }
  return out;
}

/** Validates the invocation's inputs; throws the first failure. */
function check(inv: Invocation, options: Required<ValidationFilterOptions>): void {
  const { input } = inv;
  const schema = inv.resource.valueSchema;
  const mode = options.requiredMode;
  if (options.params) {
    let keys = '';
    if (input.key !== undefined) keys += keyMessages(input.key, mode);
    for (const k of input.keys ?? []) keys += keyMessages(k, mode);
    if (keys !== '') throw paramFailure(keys);
    if (input.params !== undefined && inv.target.params !== undefined) {
      let text = '';
      // the binder's own parameters: a value of a type valid when bound was checked as it was read
      const bound = (inv.ctx as Partial<Context>).boundParams === input.params;
      for (const p of inv.target.params.params) {
        if (p.assocPart !== undefined || p.attachments === true) continue;
        // before the value's read: `params[name]` by a variable name is a megamorphic load (~0.3k
        // instructions of the example's finder, callgrind over HTTP) that a parameter skipped here never needs
        if (bound && p.type.validWhenBound === true) continue;
        const value = input.params[p.name];
        if (value === undefined) continue;
        const data: DataValue = p.type.toData(value);
        const r = validate(data, p.type.schema(), { requiredMode: mode, coercionMode: CoercionMode.NORMAL });
        if (!r.isValid()) text += prefixed(r.getMessages(), [p.name]);
      }
      if (text !== '') throw paramFailure(text);
    }
  }
  if (!options.bodies) return;
  const rules = inv.resource.fieldRules;
  if (input.entity !== undefined) {
    const text = entityMessages(input.entity.data(), schema, mode, rules, inv.method);
    if (text !== '') throw bodyFailure(text);
  }
  if (input.patch !== undefined) {
    const text = allPatchMessages(input.patch, schema, mode, rules, inv.method);
    if (text !== '') throw bodyFailure(text);
  }
}

/**
 * The checks of a batch's bodies (batch_create's entities, batch_update's, batch_partial_update's patches),
 * as steps that yield between groups of items (a large batch is checked in slices: slices.ts); undefined
 * for other requests. Throws the failure of all items at the end, as one message.
 */
function* batchBodySteps(
  input: BoundInput,
  schema: RecordDataSchema,
  mode: RequiredMode,
  rules: FieldRules | undefined,
  method: string,
): Steps<void> {
  let text = '';
  let n = 0;
  if (input.entities !== undefined) {
    for (let i = 0; i < input.entities.length; i++) {
      if (++n % ITEMS_PER_STEP === 0) yield;
      const m = entityMessages(input.entities[i]!.data(), schema, mode, rules, method);
      if (m !== '') text += `Index: ${i}, ${m}`;
    }
  } else if (input.entitiesByKey !== undefined) {
    for (const [key, e] of input.entitiesByKey) {
      if (++n % ITEMS_PER_STEP === 0) yield;
      const m = entityMessages(e.data(), schema, mode, rules, method);
      if (m !== '') text += `Key: ${key}, ${m}`;
    }
  } else if (input.patchesByKey !== undefined) {
    for (const [key, patch] of input.patchesByKey) {
      if (++n % ITEMS_PER_STEP === 0) yield;
      const m = allPatchMessages(patch, schema, mode, rules, method);
      if (m !== '') text += `Key: ${key}, ${m}`;
    }
  }
  if (text !== '') throw bodyFailure(text);
}

/**
 * Whether an invocation has no input this filter looks at: no complex key, no batch keys, parameters,
 * bodies or patches. Saves the checks' calls on the commonest small request (~0.25 µs of a get under load).
 */
function hasNothingToCheck(input: BoundInput): boolean {
  return (
    (input.key === undefined || typeof input.key !== 'object') &&
    input.keys === undefined &&
    input.params === undefined &&
    input.entity === undefined &&
    input.entities === undefined &&
    input.entitiesByKey === undefined &&
    input.patch === undefined &&
    input.patchesByKey === undefined
  );
}

/** Items of a batch body (0 for other requests). */
function batchBodySize(input: BoundInput): number {
  return input.entities?.length ?? input.entitiesByKey?.size ?? input.patchesByKey?.size ?? 0;
}

/**
 * Per filter made by {@link validationFilter}: whether one batch finder criterion (its bound record data)
 * passes what the filter checks of the criteria list, item by item (lazy-criteria.ts checks criteria one
 * at a time and keeps none). A list's schema has no checks of its own beyond its items'.
 */
const criterionChecks = new WeakMap<RequestFilter, (data: DataMap, schema: DataSchema) => boolean>();

/** The criterion check of a filter made by {@link validationFilter}; undefined for any other filter. */
export function criterionCheckOf(
  filter: RequestFilter,
): ((data: DataMap, schema: DataSchema) => boolean) | undefined {
  return criterionChecks.get(filter);
}

/**
 * The validation filter. Give it to the server (`svcPlugin` `filters`, or `validation: true`) or to a resource
 * (`validation: true`).
 *
 * @example
 * ```ts
 * app.register(svcPlugin, { resources: [photos], validation: true });
 * // POST /photos {"title": 5} → 422 "ERROR :: /title :: 5 cannot be coerced to String\n..."
 * ```
 */
export function validationFilter(options: ValidationFilterOptions = {}): RequestFilter {
  for (const name of ['bodies', 'params', 'outputs'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean')
      throw new TypeError(`validation option '${name}' must be a boolean`);
  }
  if (options.requiredMode !== undefined && !REQUIRED_MODES.includes(options.requiredMode))
    throw new TypeError(`validation option 'requiredMode' must be one of ${REQUIRED_MODES.join(', ')}`);
  const resolved: Required<ValidationFilterOptions> = {
    bodies: options.bodies ?? true,
    params: options.params ?? true,
    outputs: options.outputs ?? false,
    requiredMode: options.requiredMode ?? RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
  };
  const invocation = (inv: Invocation): Invocation | Promise<Invocation> => {
    // nothing to check (a get or delete by a simple key: the key was checked as it was read)
    if (hasNothingToCheck(inv.input)) return inv;
    check(inv, resolved);
    if (!resolved.bodies) return inv;
    const size = batchBodySize(inv.input);
    if (size === 0) return withPatchedResultCheck(inv, resolved.requiredMode);
    const steps = batchBodySteps(
      inv.input,
      inv.resource.valueSchema,
      resolved.requiredMode,
      inv.resource.fieldRules,
      inv.method,
    );
    if (size < SLICED_BATCH_SIZE) {
      runNow(steps);
      return withPatchedResultCheck(inv, resolved.requiredMode);
    }
    // the request's context carries its abort controller (binder.ts Context)
    const owner = inv.ctx as unknown as SliceOwner;
    return runSliced(steps, owner, `${inv.resource.path} ${inv.target.label}`).then(() =>
      withPatchedResultCheck(inv, resolved.requiredMode),
    );
  };
  // one frozen options object, resolved once (validation-options.ts), not one per criterion checked
  const criterionOptions = Object.freeze({
    requiredMode: resolved.requiredMode,
    coercionMode: CoercionMode.NORMAL,
  });
  const criterionCheck = (data: DataMap, schema: DataSchema): boolean =>
    !resolved.params || validate(data, schema, criterionOptions).isValid();
  if (!resolved.outputs) {
    const filter: RequestFilter = Object.freeze({ name: 'validation', invocation });
    criterionChecks.set(filter, criterionCheck);
    return filter;
  }
  return Object.freeze({
    name: 'validation',
    invocation,
    response(response: ResourceResponse, _request: unknown, inv: Invocation | undefined): ResourceResponse {
      if (inv !== undefined && response.error === undefined && response.body !== undefined)
        checkOutput(inv, response, resolved.requiredMode);
      return response;
    },
  });
}

/** The invocation with its patches validating the entity they produce (`PatchRequest.applyTo`). */
function withPatchedResultCheck(inv: Invocation, requiredMode: RequiredMode): Invocation {
  if (inv.input.patch === undefined && inv.input.patchesByKey === undefined) return inv;
  const schema = inv.resource.valueSchema;
  const rules = inv.resource.fieldRules;
  const checked = (p: PatchRequest<RecordTemplate>, key: string | undefined): PatchRequest<RecordTemplate> =>
    p.withResultCheck((data) => {
      // read-only fields optional: an entity created without its server-assigned fields can still be patched
      const m = entityMessages(data, schema, requiredMode, rules);
      if (m !== '') throw bodyFailure(key === undefined ? m : `Key: ${key}, ${m}`);
    });
  const args = inv.args.map((a) => {
    if (a instanceof PatchRequest) return checked(a as PatchRequest<RecordTemplate>, undefined);
    if (a instanceof Map) {
      let changed = false;
      const out = new Map<unknown, unknown>();
      for (const [k, v] of a as Map<unknown, unknown>) {
        if (v instanceof PatchRequest) {
          changed = true;
          out.set(k, checked(v as PatchRequest<RecordTemplate>, keyText(k)));
        } else out.set(k, v);
      }
      return changed ? out : a;
    }
    return a;
  });
  return { ...inv, args };
}

function keyText(k: unknown): string {
  return typeof k === 'object' && k !== null
    ? JSON.stringify(k, (_n, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    : String(k);
}

/** What a handler returned, as the response body holds it, against its schema (a 500 when it does not fit). */
function checkOutput(inv: Invocation, response: ResourceResponse, requiredMode: RequiredMode): void {
  const body = response.body!;
  // a projection may leave required fields out
  const mode = inv.ctx.projection === undefined ? requiredMode : RequiredMode.IGNORE;
  const schema = inv.resource.valueSchema;
  let text = '';
  const each = (items: DataValue | undefined, at: (i: number | string) => string, pick?: string): void => {
    if (items instanceof DataList) {
      items.forEach((v, i) => {
        const e = pick === undefined ? v : v instanceof DataMap ? v.get(pick) : undefined;
        if (e !== undefined) {
          const m = entityMessages(e, schema, mode);
          if (m !== '') text += `${at(i)}${m}`;
        }
      });
    } else if (items instanceof DataMap) {
      for (const [k, v] of items) {
        const e = pick === undefined ? v : v instanceof DataMap ? v.get(pick) : undefined;
        if (e !== undefined) {
          const m = entityMessages(e, schema, mode);
          if (m !== '') text += `${at(k)}${m}`;
        }
      }
    }
  };
  switch (inv.method) {
    case ResourceMethod.GET:
    case ResourceMethod.CREATE:
    case ResourceMethod.PARTIAL_UPDATE:
      text = entityMessages(body, schema, mode);
      break;
    case ResourceMethod.FINDER:
    case ResourceMethod.GET_ALL:
      each(body.get('elements'), (i) => `Index: ${i}, `);
      break;
    case ResourceMethod.BATCH_GET:
      each(body.get('results'), (k) => `Key: ${k}, `);
      break;
    case ResourceMethod.BATCH_FINDER: {
      const criteria = body.get('elements');
      if (criteria instanceof DataList) {
        criteria.forEach((c, i) => {
          if (c instanceof DataMap) each(c.get('elements'), (j) => `Criteria: ${i}, Index: ${j}, `);
        });
      }
      break;
    }
    case ResourceMethod.BATCH_CREATE:
      each(body.get('elements'), (i) => `Index: ${i}, `, 'entity');
      break;
    case ResourceMethod.BATCH_PARTIAL_UPDATE:
      each(body.get('results'), (k) => `Key: ${k}, `, 'entity');
      break;
    case ResourceMethod.ACTION: {
      const returns = inv.target.returns;
      const value = body.get('value');
      if (returns !== undefined && value !== undefined) {
        const m = entityMessages(value, returns.schema(), mode);
        if (m !== '') text = m;
      }
      break;
    }
    default:
      break;
  }
  if (text !== '')
    throw new OutputValidationError(inv.ctx.resource, inv.methodName ?? inv.method, text.trimEnd());
}
