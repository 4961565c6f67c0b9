import { COLLECTION_METHODS } from '../resources/registration';
import type { IdlJsonObject, ResourceSchema } from './restspec-model';

/**
 * Custom annotations a definition offers per method, merged into its exported `ResourceSchema`: a
 * definition (or interface) may carry a function under the registered symbol `svc.idl.methodAnnotations`,
 * `(group, name) => annotations`, where `group` is `finders`, `batchFinders`, `actions` or
 * `entityActions` for named methods and undefined for the standard ones (`name` then the definition's
 * property: `get`, `batchGet`...). Access rules (src/security/authorize.ts `secured`) use it, so a client
 * team sees in the IDL what each method needs.
 */
export const METHOD_ANNOTATIONS: unique symbol = Symbol.for('svc.idl.methodAnnotations') as never;

type AnnotationsOf = (group: string | undefined, name: string) => Record<string, IdlJsonObject> | undefined;
type Annotated = {
  readonly name?: string;
  readonly method?: string;
  readonly annotations?: Readonly<Record<string, IdlJsonObject>>;
};

const PROPERTY_OF_METHOD = new Map([...COLLECTION_METHODS].map(([prop, method]) => [method, prop] as const));

function merge<T extends Annotated>(item: T, extra: Record<string, IdlJsonObject> | undefined): T {
  if (extra === undefined || Object.keys(extra).length === 0) return item;
  return { ...item, annotations: { ...item.annotations, ...extra } };
}

function mergeList<T extends Annotated>(
  list: readonly T[] | undefined,
  of: (item: T) => Record<string, IdlJsonObject> | undefined,
): { list?: T[] } {
  return list === undefined ? {} : { list: list.map((item) => merge(item, of(item))) };
}

/** `schema` with the annotations `given` offers for its methods (and its subresources', by name). */
export function withMethodAnnotations(schema: ResourceSchema, given: unknown): ResourceSchema {
  if (typeof given !== 'object' || given === null) return schema;
  const annotationsOf = (given as { [METHOD_ANNOTATIONS]?: AnnotationsOf })[METHOD_ANNOTATIONS];
  const subs = (given as { subresources?: unknown }).subresources;
  const givenSubs = Array.isArray(subs) ? (subs as unknown[]) : [];
  if (annotationsOf === undefined && givenSubs.length === 0) return schema;
  const named = (group: string) => (item: Annotated) => annotationsOf?.(group, item.name ?? '');
  const standard = (item: Annotated): Record<string, IdlJsonObject> | undefined =>
    annotationsOf?.(undefined, PROPERTY_OF_METHOD.get(item.method as never) ?? item.method ?? '');
  const body = (schema.collection ?? schema.association ?? schema.simple) as
    (Record<string, unknown> & { entity?: Record<string, unknown> }) | undefined;
  if (body === undefined) return schema;
  const out: Record<string, unknown> = { ...body };
  for (const [key, of] of [
    ['methods', standard],
    ['finders', named('finders')],
    ['batchFinders', named('batchFinders')],
    ['actions', named('actions')],
  ] as const) {
    const merged = mergeList(body[key] as Annotated[] | undefined, of).list;
    if (merged !== undefined) out[key] = merged;
  }
  if (body.entity !== undefined) {
    const entity: Record<string, unknown> = { ...body.entity };
    const actions = mergeList(body.entity.actions as Annotated[] | undefined, named('entityActions')).list;
    if (actions !== undefined) entity.actions = actions;
    const subSchemas = body.entity.subresources as ResourceSchema[] | undefined;
    if (subSchemas !== undefined)
      entity.subresources = subSchemas.map((s) => {
        const original = givenSubs.find((g) => (g as { name?: unknown } | null)?.name === s.name);
        return original === undefined ? s : withMethodAnnotations(s, original);
      });
    out.entity = entity;
  }
  const kind =
    schema.collection !== undefined
      ? 'collection'
      : schema.association !== undefined
        ? 'association'
        : 'simple';
  return { ...schema, [kind]: out };
}
