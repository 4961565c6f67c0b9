import { DataList, DataMap, type DataValue } from '../data';
import {
  CoercionMode,
  DataSchemaType,
  type RecordDataSchema,
  RequiredMode,
  type ValidationMessage,
  type ValidationPath,
  validate,
} from '../schema';
import { RequestValidationError } from './errors';
import type { RecordTemplate } from '../templates';
import type { ComplexResourceKey } from './key-types';
import type { Invocation, RequestFilter } from './request';

/**
 * The opt-in validation filter (brief, "Validation": explicit, never automatic; the reference's
 * `RestLiValidationFilter`). Turned on per server (`svcPlugin` option `validation`) or per resource
 * (`validation: true`), it validates what a request brings against its schemas before the handler runs:
 *
 * - bodies of create, update, partial_update (the `$set` values and nested patches against the fields'
 *   types; `$delete` of a required field without default), and their batch forms: **422** with the
 *   message-list text (`ERROR :: /title :: field is required but not found and has no default value`),
 *   per batch item prefixed `Index: <i>, ` (batch_create) or `Key: <key>, ` (batch updates) (wire facts §9.3);
 * - finder and action parameters (records: required fields too) and complex keys: **400**
 *   `Input field validation failure, reason: <messages>`.
 *
 * Data is validated with `RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT` and `CoercionMode.NORMAL` by default
 * (the reference's `ValidationOptions()`); numbers are coerced in place.
 */

/** Options of {@link validationFilter}. */
export interface ValidationFilterOptions {
  /** Validate request bodies (422). Default true. */
  readonly bodies?: boolean;
  /** Validate finder and action parameters and complex keys (400). Default true. */
  readonly params?: boolean;
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
): string {
  let out = '';
  const set = patch.get('$set');
  if (set instanceof DataMap) {
    // each set value against its field's type (a set record must be whole); unknown fields pass, as in data
    for (const [name, value] of set) {
      const field = schema.getField(name);
      if (field === undefined) continue;
      const r = validate(value, field.getType(), { requiredMode, coercionMode: CoercionMode.NORMAL });
      if (!r.isValid()) out += prefixed(r.getMessages(), [...path, name]);
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
      out += patchMessages(op, t as RecordDataSchema, [...path, name], requiredMode);
  }
  return out;
}

function entityMessages(data: DataMap, schema: RecordDataSchema, requiredMode: RequiredMode): string {
  const r = validate(data, schema, { requiredMode, coercionMode: CoercionMode.NORMAL });
  return r.isValid() ? '' : r.getMessage();
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
      for (const p of inv.target.params.params) {
        const value = input.params[p.name];
        if (value === undefined || p.assocPart !== undefined) continue;
        const data: DataValue = p.type.toData(value);
        const r = validate(data, p.type.schema(), { requiredMode: mode, coercionMode: CoercionMode.NORMAL });
        if (!r.isValid()) text += prefixed(r.getMessages(), [p.name]);
      }
      if (text !== '') throw paramFailure(text);
    }
  }
  if (!options.bodies) return;
  if (input.entity !== undefined) {
    const text = entityMessages(input.entity.data(), schema, mode);
    if (text !== '') throw bodyFailure(text);
  }
  if (input.patch !== undefined) {
    const text = patchMessages(input.patch, schema, [], mode);
    if (text !== '') throw bodyFailure(text);
  }
  if (input.entities !== undefined) {
    let text = '';
    input.entities.forEach((e, i) => {
      const m = entityMessages(e.data(), schema, mode);
      if (m !== '') text += `Index: ${i}, ${m}`;
    });
    if (text !== '') throw bodyFailure(text);
  }
  if (input.entitiesByKey !== undefined) {
    let text = '';
    for (const [key, e] of input.entitiesByKey) {
      const m = entityMessages(e.data(), schema, mode);
      if (m !== '') text += `Key: ${key}, ${m}`;
    }
    if (text !== '') throw bodyFailure(text);
  }
  if (input.patchesByKey !== undefined) {
    let text = '';
    for (const [key, patch] of input.patchesByKey) {
      const m = patchMessages(patch, schema, [], mode);
      if (m !== '') text += `Key: ${key}, ${m}`;
    }
    if (text !== '') throw bodyFailure(text);
  }
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
  const resolved: Required<ValidationFilterOptions> = {
    bodies: options.bodies ?? true,
    params: options.params ?? true,
    requiredMode: options.requiredMode ?? RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
  };
  return Object.freeze({
    name: 'validation',
    invocation(inv: Invocation): Invocation {
      check(inv, resolved);
      return inv;
    },
  });
}
