import { DataList, DataMap, type DataValue } from '../data';
import { QueryParam } from '../protocol';
import type { RecordDataSchema } from '../schema/record-schema';
// the validation modules, not the schema barrel (file resolver, Avro): see protocol/keys.ts
import { CoercionMode, RequiredMode, type ValidationResult } from '../schema/validation';
// not `validate`: the installed validator, so that a browser page can leave the validator out
import { coerceToSchema } from '../schema/validation/type-coercion';
import { type DefinitionLocation, ParameterBindingError, ResourceDefinitionError } from './errors';
import type { AttachmentReader } from '../streams/attachment-reader';
import { ITEMS_PER_STEP, type Steps, runNow } from './slices';
import type { RecordTemplate } from '../templates';
import { type AttachmentsParam, isAttachmentsParam } from './attachments-param';
import {
  CoercionFailure,
  type RecordClass,
  type ValueType,
  isValueType,
  keyPartTypeOf,
  arrayOf,
  recordOf,
  valueText,
} from './value-types';

/**
 * Parameters of finders and actions: a spec object from parameter name to its type, optionality and
 * default, or association key part (brief, "BATCH_FINDER" 5–8, the reference's `@QueryParam`, `@Optional`,
 * `@AssocKey`). A bare type is a required parameter:
 *
 * ```ts
 * params: {
 *   title: STRING,                                  // required: 400 "Parameter 'title' is required"
 *   format: optional(enumOf(PhotoFormat)),          // PhotoFormat | undefined
 *   limit: optional(INT, 10),                       // number (without a default: number | undefined)
 *   albumId: assocKey(LONG),                        // association finders: the key part from the path
 * }
 * ```
 */

/** An optional parameter; `D` is the default's type (`undefined` when there is none). */
export interface OptionalParam<T, D> {
  readonly paramKind: 'optional';
  readonly type: ValueType<T>;
  readonly default: D;
}

/** A parameter bound to an association key part in the path (`@AssocKey`). */
export interface AssocKeyParam<T> {
  readonly paramKind: 'assocKey';
  readonly type: ValueType<T>;
  /** The key part's name; default: the parameter's name. */
  readonly part: string | undefined;
}

/**
 * The batch parameter of a batch finder (`@BatchFinder(batchParam=...)`): the list of criteria records, sent
 * as `<name>=List((...),(...))`. Made with {@link criteriaOf}; registration checks what it holds.
 */
export interface CriteriaParam<C> {
  readonly paramKind: 'criteria';
  /** What {@link criteriaOf} was given (a generated record class, or `recordOf(R)`), checked at registration. */
  readonly criteria: unknown;
  /** Type-level only: the criteria record. */
  readonly __criteria?: C;
}

/** What a parameter spec may be. */
export type ParamSpec =
  | ValueType<unknown>
  | OptionalParam<unknown, unknown>
  | AssocKeyParam<unknown>
  | CriteriaParam<unknown>
  | AttachmentsParam;

/** Parameter name → spec. */
export type ParamSpecs = { readonly [name: string]: ParamSpec };

/** The value a handler sees for one parameter spec. */
export type ParamValueOf<S> =
  S extends OptionalParam<infer T, infer D>
    ? undefined extends D
      ? T | undefined
      : T
    : S extends AssocKeyParam<infer T>
      ? T
      : S extends CriteriaParam<infer C>
        ? readonly C[]
        : S extends AttachmentsParam
          ? AttachmentReader | null
          : S extends ValueType<infer T>
            ? T
            : never;

/** The parameters object a handler receives for a spec object. */
export type ParamsOf<P> = { readonly [N in keyof P]: ParamValueOf<P[N]> };

/** The criteria record of a batch finder's parameter specs (the type its {@link criteriaOf} names). */
export type CriteriaOf<P> = {
  [N in keyof P]: P[N] extends CriteriaParam<infer C> ? C : never;
}[keyof P];

/** The parameters a batch finder handler receives besides the criteria: every other one. */
export type OtherParamsOf<P> = {
  readonly [N in keyof P as P[N] extends CriteriaParam<unknown> ? never : N]: ParamValueOf<P[N]>;
};

/** An optional parameter without a default: the handler sees `undefined` when it is absent. */
export function optional<T>(type: ValueType<T>): OptionalParam<T, undefined>;
/** An optional parameter with a default (required for int, long, float, double and boolean). */
export function optional<T>(type: ValueType<T>, defaultValue: T): OptionalParam<T, T>;
export function optional<T>(type: ValueType<T>, defaultValue?: T): OptionalParam<T, T | undefined> {
  return Object.freeze({ paramKind: 'optional' as const, type, default: defaultValue });
}

/**
 * The batch parameter of a batch finder: a list of criteria records of the generated class `cls`. Only
 * records may be criteria (so that criteria evolve by adding fields, as in the reference); registration
 * refuses anything else, an optional batch parameter, and a name other than the finder's `batchParam`.
 *
 * @example
 * ```ts
 * params: { criteria: criteriaOf(PhotoCriteria), exif: optional(recordOf(Exif)) }
 * ```
 */
export function criteriaOf<C extends RecordTemplate>(cls: RecordClass<C> | ValueType<C>): CriteriaParam<C> {
  return Object.freeze({ paramKind: 'criteria' as const, criteria: cls });
}

/** A parameter bound to the association key part `part` (default: the parameter's name) of the path. */
export function assocKey<T>(type: ValueType<T>, part?: string): AssocKeyParam<T> {
  return Object.freeze({ paramKind: 'assocKey' as const, type, part });
}

/** Query parameter names the framework reads itself (wire facts §3.3); no finder parameter may take one. */
export const RESERVED_QUERY_PARAMS: ReadonlySet<string> = /* @__PURE__ */ new Set<string>(
  /* @__PURE__ */ Object.values(QueryParam),
);

/** Where a parameter comes from: the query (finders: URI elements) or the body (actions: decoded data). */
export type ParamSource = 'query' | 'body';

/** One compiled parameter. */
export interface CompiledParam {
  readonly name: string;
  readonly type: ValueType<unknown>;
  readonly optional: boolean;
  /** The default (typed), or undefined. */
  readonly defaultValue: unknown;
  /** Set for an association key parameter: the part it reads. */
  readonly assocPart: string | undefined;
  /** Set for a batch finder's batch parameter: its criteria record. */
  readonly criteria?: CompiledCriteria;
  /** Set for the attachments parameter (`attachmentsParam()`): it receives the request's attachment reader. */
  readonly attachments?: true;
}

/** A batch finder's batch parameter, compiled: the criteria record's class and schema. */
export interface CompiledCriteria {
  readonly recordClass: RecordClass<RecordTemplate>;
  readonly schema: RecordDataSchema;
}

/** Compiled parameters: the binder and what the validation filter and clients need. */
export interface CompiledParams {
  readonly params: readonly CompiledParam[];
  /**
   * Binds the parameters from `source` (the parsed query or the decoded body map) and the path's
   * association key parts.
   * @throws ParameterBindingError 400
   */
  bind(
    source: DataMap | undefined,
    pathKeyParts?: ReadonlyMap<string, unknown>,
    attachments?: AttachmentReader | null,
  ): Record<string, unknown>;
  /**
   * As {@link bind}, but the criteria of a batch finder are bound into their (empty) list when `items` runs,
   * so that a large batch binds in slices (slices.ts); undefined `items` when there are none to bind.
   */
  bindDeferred(
    source: DataMap | undefined,
    pathKeyParts?: ReadonlyMap<string, unknown>,
    attachments?: AttachmentReader | null,
  ): { readonly params: Record<string, unknown>; readonly items: Steps<void> | undefined };
  /** The batch parameter of a batch finder (undefined elsewhere). */
  readonly criteria: CompiledParam | undefined;
  /** The attachments parameter, when the method declares one. */
  readonly attachments: CompiledParam | undefined;
}

interface Classified {
  type: unknown;
  optional: boolean;
  dflt: unknown;
  assoc: string | undefined;
  isAssoc: boolean;
  /** `criteriaOf(...)`'s argument, for the batch parameter. */
  criteria?: unknown;
}

function isCriteriaParam(spec: unknown): spec is CriteriaParam<unknown> {
  return (
    typeof spec === 'object' && spec !== null && (spec as { paramKind?: unknown }).paramKind === 'criteria'
  );
}

function classify(spec: unknown): Classified {
  if (isValueType(spec))
    return { type: spec, optional: false, dflt: undefined, assoc: undefined, isAssoc: false };
  if (typeof spec === 'object' && spec !== null) {
    const s = spec as Partial<OptionalParam<unknown, unknown>> & Partial<AssocKeyParam<unknown>>;
    if (s.paramKind === 'optional') {
      return {
        type: s.type,
        optional: true,
        dflt: s.default,
        assoc: undefined,
        isAssoc: false,
        ...(isCriteriaParam(s.type) ? { criteria: s.type.criteria } : {}),
      };
    }
    if (s.paramKind === 'assocKey')
      return { type: s.type, optional: false, dflt: undefined, assoc: s.part, isAssoc: true };
    if (isCriteriaParam(spec))
      return {
        type: undefined,
        optional: false,
        dflt: undefined,
        assoc: undefined,
        isAssoc: false,
        criteria: spec.criteria,
      };
  }
  return { type: undefined, optional: false, dflt: undefined, assoc: undefined, isAssoc: false };
}

/**
 * The criteria record of `criteriaOf(x)`: a generated record class, or `recordOf(R)` (an array of it is
 * taken too, as the batch parameter is one); anything else is refused, as criteria must be records.
 */
function criteriaRecord(x: unknown, fail: (problem: string) => never): CompiledCriteria {
  const refuse = (what: string): never =>
    fail(
      `the criteria must be a generated record type, not ${what}: primitives and enums are not supported, so that criteria can evolve by adding fields`,
    );
  let cls: unknown = x;
  if (isValueType(x)) {
    const t = x.kind === 'array' ? ((x as { items?: ValueType<unknown> }).items ?? x) : x;
    if (t.kind !== 'record')
      refuse(
        `${t.kind === 'array' ? 'a list' : t.kind === 'enum' ? 'the enum' : 'the primitive'} ${t.typeName}`,
      );
    cls = (t as { recordClass?: unknown }).recordClass;
  }
  if (typeof cls !== 'function') refuse(typeof x === 'object' && x !== null ? 'an enum object' : String(x));
  let schema: unknown;
  try {
    schema = new (cls as new () => RecordTemplate)().schema();
  } catch {
    refuse((cls as { name?: string }).name ?? 'a function');
  }
  if (typeof (schema as RecordDataSchema | undefined)?.getFields !== 'function')
    refuse((cls as { name: string }).name);
  return Object.freeze({
    recordClass: cls as RecordClass<RecordTemplate>,
    schema: schema as RecordDataSchema,
  });
}

/** What registration knows about the method the parameters belong to. */
export interface ParamContext {
  readonly at: DefinitionLocation;
  readonly source: ParamSource;
  /** The association's key parts and their types, when `assocKey` parameters are allowed. */
  readonly assocParts?: ReadonlyMap<string, ValueType<unknown>>;
  /** A batch finder's: the name its `batchParam` gives (exactly one `criteriaOf` parameter, of that name). */
  readonly batchParam?: string;
}

/**
 * Checks a parameter spec object at registration and compiles its binder. Errors name the resource, the
 * method and the parameter: a reserved name (`q`, `start`, ...) for query parameters, a value that is not a
 * parameter type, an array of arrays in a query, a default that
 * is not of the type, an `assocKey` outside an association finder or naming an unknown part.
 * @throws ResourceDefinitionError
 */
export function compileParams(specs: unknown, ctx: ParamContext): CompiledParams {
  if (specs === undefined && ctx.batchParam === undefined) return compiled([], ctx.source);
  if (typeof specs !== 'object' || specs === null || Array.isArray(specs)) {
    throw new ResourceDefinitionError(ctx.at, "'params' must be an object of parameter name to type");
  }
  const out: CompiledParam[] = [];
  const parts = new Set<string>();
  let criteria: CompiledParam | undefined;
  for (const [name, spec] of Object.entries(specs as Record<string, unknown>)) {
    const at = { ...ctx.at, parameter: name };
    const fail = (problem: string): never => {
      throw new ResourceDefinitionError(at, problem);
    };
    if (name === '') fail('a parameter name must not be empty');
    if (ctx.source === 'query' && RESERVED_QUERY_PARAMS.has(name)) {
      fail(`the name '${name}' is reserved for the framework's own query parameter`);
    }
    if (isAttachmentsParam(spec)) {
      if (out.some((p) => p.attachments === true)) fail('a method has at most one attachments parameter');
      out.push(
        Object.freeze({
          name,
          type: ATTACHMENTS_TYPE,
          optional: true,
          defaultValue: undefined,
          assocPart: undefined,
          attachments: true as const,
        }),
      );
      continue;
    }
    const c = classify(spec);
    if (isAttachmentsParam(c.type)) {
      fail(
        'attachmentsParam() marks the parameter itself (an AttachmentReader): it cannot be optional(), assocKey() or in an array',
      );
    }
    if (c.criteria !== undefined || isCriteriaParam(c.type)) {
      if (ctx.batchParam === undefined)
        fail('criteriaOf(...) declares the batch parameter of a batch finder only');
      if (c.optional) fail('the batch parameter cannot be optional');
      if (c.isAssoc) fail('the batch parameter cannot be an association key');
      if (criteria !== undefined)
        fail(`a batch finder has exactly one batch parameter, and '${criteria.name}' is one already`);
      if (name !== ctx.batchParam)
        fail(`the batch parameter's name must be the batchParam '${ctx.batchParam}'`);
      const record = criteriaRecord(c.criteria, fail);
      const item = recordOf(record.recordClass);
      criteria = Object.freeze({
        name,
        type: arrayOf(item),
        optional: false,
        defaultValue: undefined,
        assocPart: undefined,
        criteria: record,
      });
      out.push(criteria);
      continue;
    }
    if (ctx.batchParam !== undefined && name === ctx.batchParam) {
      fail(`the batch parameter '${name}' must be declared with criteriaOf(CriteriaRecord)`);
    }
    if (!isValueType(c.type)) {
      fail(
        'not a parameter type: use STRING, BOOLEAN, INT, LONG, FLOAT, DOUBLE, BYTES, enumOf(E), recordOf(R), arrayOf(T), mapOf(T), dataOf(S), optional(T) or assocKey(T)',
      );
    }
    const type = c.type as ValueType<unknown>;
    if (ctx.source === 'query' && type.kind === 'array' && type.typeName.endsWith('[][]')) {
      fail(`an array of arrays (${type.typeName}) cannot be a query parameter`);
    }
    let assocPart: string | undefined;
    if (c.isAssoc) {
      if (ctx.assocParts === undefined)
        fail('assocKey parameters are allowed only in finders of association resources');
      assocPart = c.assoc ?? name;
      const partType = ctx.assocParts!.get(assocPart);
      if (partType === undefined) {
        fail(
          `assocKey names the key part '${assocPart}', which the association does not declare (it has ${[...ctx.assocParts!.keys()].join(', ')})`,
        );
      }
      if (partType!.typeName !== type.typeName || keyPartTypeOf(partType!) === undefined) {
        fail(`assocKey type ${type.typeName} differs from the key part's type ${partType!.typeName}`);
      }
      if (parts.has(assocPart)) fail(`the key part '${assocPart}' is bound by two parameters`);
      parts.add(assocPart);
    }
    // No "optional primitive needs a default" rule (Java's, for `@Optional int`): the IDL writes
    // `@Optional Integer` as an optional int without a default, and TypeScript has no primitive/boxed split,
    // so an optional number without a default is `number | undefined` to its handler.
    if (c.dflt !== undefined) {
      let data: DataValue;
      try {
        data = type.toData(c.dflt);
        const r = coerceToSchema(data, type.schema(), { coercionMode: CoercionMode.NORMAL });
        if (!r.isValid())
          fail(`the default value is not a valid ${type.typeName}: ${r.getMessage().trimEnd()}`);
      } catch (err) {
        if (err instanceof ResourceDefinitionError) throw err;
        fail(`the default value is not a valid ${type.typeName}: ${(err as Error).message}`);
      }
    }
    out.push(Object.freeze({ name, type, optional: c.optional, defaultValue: c.dflt, assocPart }));
  }
  if (ctx.batchParam !== undefined && criteria === undefined) {
    throw new ResourceDefinitionError(
      { ...ctx.at, parameter: ctx.batchParam },
      `no batch parameter: declare '${ctx.batchParam}: criteriaOf(CriteriaRecord)' in params`,
    );
  }
  return compiled(out, ctx.source, criteria);
}

/** The value type of an attachments parameter: never read from the query or the body. */
const ATTACHMENTS_TYPE: ValueType<unknown> = /* @__PURE__ */ Object.freeze({
  kind: 'record' as const,
  typeName: 'AttachmentReader',
  primitive: false,
  schema: (): never => {
    throw new TypeError('an attachments parameter has no schema');
  },
  fromUri: (): never => {
    throw new TypeError('an attachments parameter is not read from the query');
  },
  fromBody: (): never => {
    throw new TypeError('an attachments parameter is not read from the body');
  },
  toData: (): never => {
    throw new TypeError('an attachments parameter has no data');
  },
});

function bindingError(p: CompiledParam, data: DataValue, failure: CoercionFailure): ParameterBindingError {
  const text = valueText(data);
  let message: string;
  if (p.type.kind === 'array') message = `Array parameter '${p.name}' value '${text}' is invalid`;
  else if (failure.kind === 'type' && p.type.kind === 'primitive') {
    message = `Argument parameter '${p.name}' value '${text}' must be of type '${p.type.typeName}'`;
  } else message = `Argument parameter '${p.name}' value '${text}' is invalid`;
  if (failure.reason !== undefined) message += `. Reason: ${failure.reason}`;
  return new ParameterBindingError('SVC_ERR_BIND_BAD_PARAMETER', p.name, message, { cause: failure });
}

/** The default; a record or array default is rebuilt per request, so a handler cannot change the shared one. */
function freshDefault(p: CompiledParam): unknown {
  if (p.defaultValue === undefined || (p.type.kind !== 'record' && p.type.kind !== 'array'))
    return p.defaultValue;
  const data = p.type.toData(p.defaultValue);
  return p.type.fromBody(data instanceof DataMap || data instanceof DataList ? data.copy() : data);
}

function compiled(
  params: readonly CompiledParam[],
  source: ParamSource,
  criteria?: CompiledParam,
): CompiledParams {
  const attachments = params.find((p) => p.attachments === true);
  const bindDeferred = (
    data: DataMap | undefined,
    pathKeyParts?: ReadonlyMap<string, unknown>,
    reader: AttachmentReader | null = null,
  ): { params: Record<string, unknown>; items: Steps<void> | undefined } => {
    let items: Steps<void> | undefined;
    const out = bindInto(data, pathKeyParts, reader, (p, c, raw) => {
      const list: RecordTemplate[] = [];
      items = bindCriteria(p, c, raw, list);
      return list;
    });
    return { params: out, items };
  };
  const bindNow = (p: CompiledParam, c: CompiledCriteria, raw: DataValue): RecordTemplate[] => {
    const list: RecordTemplate[] = [];
    runNow(bindCriteria(p, c, raw, list));
    return list;
  };
  return {
    params,
    criteria,
    attachments,
    bind: (data, pathKeyParts, reader = null) => bindInto(data, pathKeyParts, reader, bindNow),
    bindDeferred,
  };

  function bindInto(
    data: DataMap | undefined,
    pathKeyParts: ReadonlyMap<string, unknown> | undefined,
    reader: AttachmentReader | null,
    criteriaOf: (p: CompiledParam, c: CompiledCriteria, raw: DataValue) => RecordTemplate[],
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of params) {
      if (p.attachments === true) {
        out[p.name] = reader;
        continue;
      }
      if (p.assocPart !== undefined) {
        const v = pathKeyParts?.get(p.assocPart);
        if (v === undefined) {
          throw new ParameterBindingError(
            'SVC_ERR_BIND_MISSING_PARAMETER',
            p.name,
            `Association key '${p.assocPart}' is required`,
          );
        }
        out[p.name] = v;
        continue;
      }
      const raw = data instanceof DataMap ? data.get(p.name) : undefined;
      if (raw === undefined) {
        if (!p.optional) {
          throw new ParameterBindingError(
            'SVC_ERR_BIND_MISSING_PARAMETER',
            p.name,
            `Parameter '${p.name}' is required`,
          );
        }
        out[p.name] = freshDefault(p);
        continue;
      }
      if (p.criteria !== undefined) {
        out[p.name] = criteriaOf(p, p.criteria, raw);
        continue;
      }
      try {
        out[p.name] = source === 'query' ? p.type.fromUri(raw) : p.type.fromBody(raw);
      } catch (err) {
        if (err instanceof CoercionFailure) throw bindingError(p, raw, err);
        throw err;
      }
    }
    return out;
  }
}

// frozen: resolved once, not per criterion (validation-options.ts)
const CRITERION_COERCION = Object.freeze({
  coercionMode: CoercionMode.STRING_TO_PRIMITIVE,
  requiredMode: RequiredMode.CAN_BE_ABSENT_IF_HAS_DEFAULT,
} as const);

/**
 * One batch finder criterion, parsed from the query, coerced to its record's schema as the binder does it
 * (strings to the primitives the schema names; absent fields with defaults allowed). The binder and the
 * large batch finder's path that binds criteria one at a time (server/lazy-criteria.ts) both use it, so that
 * both bind alike.
 */
export function coerceCriterion(item: DataMap, schema: RecordDataSchema): ValidationResult {
  return coerceToSchema(item, schema, CRITERION_COERCION);
}

/**
 * The criteria of a batch finder from `List((...),(...))`: each record's string leaves coerced to its fields'
 * types (STRING_TO_PRIMITIVE, as for any record in a query), unknown fields kept (they cannot make two
 * criteria differ: see criteria-key.ts), required fields required. A malformed or invalid criterion is a 400
 * naming its index and field.
 */
function* bindCriteria(
  p: CompiledParam,
  c: CompiledCriteria,
  raw: DataValue,
  out: RecordTemplate[],
): Steps<void> {
  if (!(raw instanceof DataList)) {
    throw new ParameterBindingError(
      'SVC_ERR_BIND_BAD_PARAMETER',
      p.name,
      `Batch parameter '${p.name}' value '${valueText(raw)}' is invalid. Reason: expected a list of criteria \`List((field:value,...),...)\``,
    );
  }
  let i = 0;
  for (const item of raw) {
    if ((i + 1) % ITEMS_PER_STEP === 0) yield;
    if (!(item instanceof DataMap)) {
      throw new ParameterBindingError(
        'SVC_ERR_BIND_BAD_PARAMETER',
        p.name,
        `Batch parameter '${p.name}' criterion ${i} '${valueText(item)}' is invalid. Reason: expected a record \`(field:value,...)\``,
      );
    }
    const r = coerceCriterion(item, c.schema);
    if (!r.isValid()) {
      throw new ParameterBindingError(
        'SVC_ERR_BIND_BAD_PARAMETER',
        p.name,
        `Batch parameter '${p.name}' criterion ${i} is invalid: ${r.getMessage().trimEnd()}`,
      );
    }
    out.push(new c.recordClass(r.getFixed() as DataMap));
    i++;
  }
}
