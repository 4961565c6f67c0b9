import { DataList, DataMap, type DataValue } from '../data';
import { QueryParam } from '../protocol';
import { CoercionMode, validate } from '../schema';
import { type DefinitionLocation, ParameterBindingError, ResourceDefinitionError } from './errors';
import { CoercionFailure, type ValueType, isValueType, keyPartTypeOf, valueText } from './value-types';

/**
 * Parameters of finders and actions: a spec object from parameter name to its type, optionality and
 * default, or association key part (brief, "BATCH_FINDER" 5–8, the reference's `@QueryParam`, `@Optional`,
 * `@AssocKey`). A bare type is a required parameter:
 *
 * ```ts
 * params: {
 *   title: STRING,                                  // required: 400 "Parameter 'title' is required"
 *   format: optional(enumOf(PhotoFormat)),          // PhotoFormat | undefined
 *   limit: optional(INT, 10),                       // number; a primitive needs a default
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

/** What a parameter spec may be. */
export type ParamSpec = ValueType<unknown> | OptionalParam<unknown, unknown> | AssocKeyParam<unknown>;

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
      : S extends ValueType<infer T>
        ? T
        : never;

/** The parameters object a handler receives for a spec object. */
export type ParamsOf<P> = { readonly [N in keyof P]: ParamValueOf<P[N]> };

/** An optional parameter without a default: the handler sees `undefined` when it is absent. */
export function optional<T>(type: ValueType<T>): OptionalParam<T, undefined>;
/** An optional parameter with a default (required for int, long, float, double and boolean). */
export function optional<T>(type: ValueType<T>, defaultValue: T): OptionalParam<T, T>;
export function optional<T>(type: ValueType<T>, defaultValue?: T): OptionalParam<T, T | undefined> {
  return Object.freeze({ paramKind: 'optional' as const, type, default: defaultValue });
}

/** A parameter bound to the association key part `part` (default: the parameter's name) of the path. */
export function assocKey<T>(type: ValueType<T>, part?: string): AssocKeyParam<T> {
  return Object.freeze({ paramKind: 'assocKey' as const, type, part });
}

/** Query parameter names the framework reads itself (wire facts §3.3); no finder parameter may take one. */
export const RESERVED_QUERY_PARAMS: ReadonlySet<string> = new Set<string>(Object.values(QueryParam));

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
}

/** Compiled parameters: the binder and what the validation filter and clients need. */
export interface CompiledParams {
  readonly params: readonly CompiledParam[];
  /**
   * Binds the parameters from `source` (the parsed query or the decoded body map) and the path's
   * association key parts.
   * @throws ParameterBindingError 400
   */
  bind(source: DataMap | undefined, pathKeyParts?: ReadonlyMap<string, unknown>): Record<string, unknown>;
}

function classify(spec: unknown): {
  type: unknown;
  optional: boolean;
  dflt: unknown;
  assoc: string | undefined;
  isAssoc: boolean;
} {
  if (isValueType(spec))
    return { type: spec, optional: false, dflt: undefined, assoc: undefined, isAssoc: false };
  if (typeof spec === 'object' && spec !== null) {
    const s = spec as Partial<OptionalParam<unknown, unknown>> & Partial<AssocKeyParam<unknown>>;
    if (s.paramKind === 'optional')
      return { type: s.type, optional: true, dflt: s.default, assoc: undefined, isAssoc: false };
    if (s.paramKind === 'assocKey')
      return { type: s.type, optional: false, dflt: undefined, assoc: s.part, isAssoc: true };
  }
  return { type: undefined, optional: false, dflt: undefined, assoc: undefined, isAssoc: false };
}

/** What registration knows about the method the parameters belong to. */
export interface ParamContext {
  readonly at: DefinitionLocation;
  readonly source: ParamSource;
  /** The association's key parts and their types, when `assocKey` parameters are allowed. */
  readonly assocParts?: ReadonlyMap<string, ValueType<unknown>>;
}

/**
 * Checks a parameter spec object at registration and compiles its binder. Errors name the resource, the
 * method and the parameter: a reserved name (`q`, `start`, ...) for query parameters, a value that is not a
 * parameter type, an array of arrays in a query, an optional primitive without a default, a default that
 * is not of the type, an `assocKey` outside an association finder or naming an unknown part.
 * @throws ResourceDefinitionError
 */
export function compileParams(specs: unknown, ctx: ParamContext): CompiledParams {
  if (specs === undefined) return compiled([], ctx.source);
  if (typeof specs !== 'object' || specs === null || Array.isArray(specs)) {
    throw new ResourceDefinitionError(ctx.at, "'params' must be an object of parameter name to type");
  }
  const out: CompiledParam[] = [];
  const parts = new Set<string>();
  for (const [name, spec] of Object.entries(specs as Record<string, unknown>)) {
    const at = { ...ctx.at, parameter: name };
    const fail = (problem: string): never => {
      throw new ResourceDefinitionError(at, problem);
    };
    if (name === '') fail('a parameter name must not be empty');
    if (ctx.source === 'query' && RESERVED_QUERY_PARAMS.has(name)) {
      fail(`the name '${name}' is reserved for the framework's own query parameter`);
    }
    const c = classify(spec);
    if (!isValueType(c.type)) {
      fail(
        'not a parameter type: use STRING, BOOLEAN, INT, LONG, FLOAT, DOUBLE, BYTES, enumOf(E), recordOf(R), arrayOf(T), optional(T) or assocKey(T)',
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
    if (c.optional && c.dflt === undefined && type.primitive) {
      fail(`an optional parameter of primitive type ${type.typeName} must have a default value`);
    }
    if (c.dflt !== undefined) {
      let data: DataValue;
      try {
        data = type.toData(c.dflt);
        const r = validate(data, type.schema(), { coercionMode: CoercionMode.NORMAL });
        if (!r.isValid())
          fail(`the default value is not a valid ${type.typeName}: ${r.getMessage().trimEnd()}`);
      } catch (err) {
        if (err instanceof ResourceDefinitionError) throw err;
        fail(`the default value is not a valid ${type.typeName}: ${(err as Error).message}`);
      }
    }
    out.push(Object.freeze({ name, type, optional: c.optional, defaultValue: c.dflt, assocPart }));
  }
  return compiled(out, ctx.source);
}

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

function compiled(params: readonly CompiledParam[], source: ParamSource): CompiledParams {
  return {
    params,
    bind(data: DataMap | undefined, pathKeyParts?: ReadonlyMap<string, unknown>): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const p of params) {
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
        try {
          out[p.name] = source === 'query' ? p.type.fromUri(raw) : p.type.fromBody(raw);
        } catch (err) {
          if (err instanceof CoercionFailure) throw bindingError(p, raw, err);
          throw err;
        }
      }
      return out;
    },
  };
}
