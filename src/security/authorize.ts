import type { ResourceDefinition } from '../resources/definition';
import { IMPLEMENTS } from '../resources/interface';
import type { Invocation, RequestFilter } from '../resources/request';
import { AccessDeniedError, AuthenticationError, SecurityOptionsError, toWireError } from './errors';
import { type Identity, identityOf } from './identity';
import { addRefusalHeaders } from './authenticate';

/**
 * Authorization declared next to the resource: per method, a rule over the caller's identity. The rules
 * run as the resource's invocation filter, after binding and before the handler, once per request (a
 * batch method is judged once, for the whole batch; a batch finder's criteria reach no handler before
 * the check). A denied call is a 403 ErrorResponse; an anonymous call to a method that needs a caller is
 * a 401 with the challenge.
 *
 * ```ts
 * const photos = secured(collection({ ... }), {
 *   default: 'public',                              // reads
 *   create: { scopes: ['photos:write'] },
 *   actions: { purge: { roles: ['admin'] } },
 * });
 * ```
 */

/**
 * A rule: `public` (anyone, anonymous included), `authenticated` (any caller), scopes (all of them) and/or
 * roles (any of them), or a function of the identity (undefined when anonymous) and the invocation.
 */
export type AccessRule = 'public' | 'authenticated' | ScopeRule | AccessFunction;

/** An access rule by token contents: every scope listed, and at least one role listed. */
export interface ScopeRule {
  /** Every one of these scopes. */
  readonly scopes?: readonly string[];
  /** At least one of these roles. */
  readonly roles?: readonly string[];
}

/** A rule as a function; `doc` is what the IDL annotation says of it. */
export type AccessFunction = ((
  identity: Identity | undefined,
  invocation: Invocation,
) => boolean | PromiseLike<boolean>) & { readonly doc?: string };

/** The rules of a resource, by the method names of its definition. */
export interface AccessRules {
  /** For every method not listed. Default `authenticated`. */
  readonly default?: AccessRule;
  readonly get?: AccessRule;
  readonly batchGet?: AccessRule;
  readonly create?: AccessRule;
  readonly batchCreate?: AccessRule;
  readonly update?: AccessRule;
  readonly batchUpdate?: AccessRule;
  readonly partialUpdate?: AccessRule;
  readonly batchPartialUpdate?: AccessRule;
  readonly delete?: AccessRule;
  readonly batchDelete?: AccessRule;
  readonly getAll?: AccessRule;
  readonly finders?: Readonly<Record<string, AccessRule>>;
  readonly batchFinders?: Readonly<Record<string, AccessRule>>;
  readonly actions?: Readonly<Record<string, AccessRule>>;
  readonly entityActions?: Readonly<Record<string, AccessRule>>;
}

/** Rest.li method name → the definition's property. */
const PROPERTY_OF: Readonly<Record<string, keyof AccessRules>> = {
  get: 'get',
  batch_get: 'batchGet',
  create: 'create',
  batch_create: 'batchCreate',
  update: 'update',
  batch_update: 'batchUpdate',
  partial_update: 'partialUpdate',
  batch_partial_update: 'batchPartialUpdate',
  delete: 'delete',
  batch_delete: 'batchDelete',
  get_all: 'getAll',
};
const GROUPS = ['finders', 'batchFinders', 'actions', 'entityActions'] as const;
type Group = (typeof GROUPS)[number];

/**
 * The symbol under which a definition offers the IDL exporter custom annotations per method
 * (src/idl/export.ts reads it: `(group, name) => annotations`).
 */
export const IDL_METHOD_ANNOTATIONS: unique symbol = Symbol.for('svc.idl.methodAnnotations') as never;

/** The rule of a method (`group` undefined for the standard methods, `name` their definition property). */
function ruleOf(rules: AccessRules, group: Group | undefined, name: string): AccessRule {
  const own = group === undefined ? rules[name as keyof AccessRules] : rules[group]?.[name];
  return own ?? rules.default ?? 'authenticated';
}

function checkRule(rule: unknown, at: string): void {
  if (rule === 'public' || rule === 'authenticated' || typeof rule === 'function') return;
  if (typeof rule === 'object' && rule !== null) {
    const r = rule as ScopeRule;
    const ok = (v: unknown): boolean =>
      v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== ''));
    if (ok(r.scopes) && ok(r.roles) && (r.scopes !== undefined || r.roles !== undefined)) return;
  }
  throw new SecurityOptionsError(
    at,
    "a rule is 'public', 'authenticated', { scopes?, roles? } with lists of names, or a function",
  );
}

/** The IDL annotation of a rule: what a client team needs to know. */
export function describeRule(rule: AccessRule): Record<string, string | readonly string[]> {
  if (rule === 'public') return { access: 'public' };
  if (rule === 'authenticated') return { access: 'authenticated' };
  if (typeof rule === 'function')
    return { access: 'custom', ...(rule.doc === undefined ? {} : { doc: rule.doc }) };
  return {
    access: 'authenticated',
    ...(rule.scopes === undefined ? {} : { scopes: [...rule.scopes] }),
    ...(rule.roles === undefined ? {} : { roles: [...rule.roles] }),
  };
}

/** The resource definition with these access rules: an authorization filter and its IDL annotations. */
export function secured<D extends ResourceDefinition>(definition: D, rules: AccessRules, realm = 'svc'): D {
  const def = definition as unknown as {
    readonly name?: unknown;
    readonly methods?: Record<string, unknown>;
    readonly filters?: readonly RequestFilter[];
  };
  if (typeof rules !== 'object' || rules === null)
    throw new SecurityOptionsError('rules', 'must be an object');
  const methods = def.methods ?? {};
  for (const [key, value] of Object.entries(rules)) {
    if ((GROUPS as readonly string[]).includes(key)) {
      const declared = methods[key] as Record<string, unknown> | undefined;
      for (const [name, rule] of Object.entries(value as Record<string, unknown>)) {
        // a rule for a method the resource does not have is a typo that would leave the real one unguarded
        if (declared?.[name] === undefined)
          throw new SecurityOptionsError(`rules.${key}.${name}`, `the resource has no such method`);
        checkRule(rule, `rules.${key}.${name}`);
      }
    } else if (key === 'default') checkRule(value, 'rules.default');
    else if (Object.values(PROPERTY_OF).includes(key as keyof AccessRules)) {
      if (methods[key] === undefined)
        throw new SecurityOptionsError(`rules.${key}`, 'the resource has no such method');
      checkRule(value, `rules.${key}`);
    } else throw new SecurityOptionsError(`rules.${key}`, 'not a method of a resource');
  }
  const filter = authorizationFilter(rules, realm);
  const annotations = (group: string | undefined, name: string): Record<string, unknown> => ({
    authorization: describeRule(ruleOf(rules, group as Group | undefined, name)),
  });
  const out: Record<string | symbol, unknown> = {
    ...(definition as object),
    filters: [...(def.filters ?? []), filter],
  };
  // the implementation record (implement()) is not enumerable: carried over by hand
  const record = (definition as { [IMPLEMENTS]?: unknown })[IMPLEMENTS];
  if (record !== undefined) Object.defineProperty(out, IMPLEMENTS, { value: record });
  Object.defineProperty(out, IDL_METHOD_ANNOTATIONS, { value: annotations });
  return Object.freeze(out) as unknown as D;
}

/** The invocation filter that applies `rules` (what {@link secured} adds). */
export function authorizationFilter(rules: AccessRules, realm = 'svc'): RequestFilter {
  const judge = (inv: Invocation): Invocation | Promise<Invocation> => {
    const method = inv.method;
    let rule: AccessRule;
    if (method === 'finder') rule = ruleOf(rules, 'finders', inv.methodName ?? '');
    else if (method === 'batch_finder') rule = ruleOf(rules, 'batchFinders', inv.methodName ?? '');
    else if (method === 'action')
      rule = ruleOf(
        rules,
        inv.resource.entityActions.get(inv.methodName ?? '') === inv.target ? 'entityActions' : 'actions',
        inv.methodName ?? '',
      );
    else rule = ruleOf(rules, undefined, PROPERTY_OF[method] ?? method);
    if (rule === 'public') return inv;
    const identity = identityOf(inv.ctx);
    if (typeof rule === 'function') {
      // a function judges anonymous callers too; refused, they are asked to authenticate (401)
      const allowed = rule(identity, inv);
      if (typeof allowed === 'boolean') return admit(allowed, inv, undefined, realm, identity);
      return Promise.resolve(allowed).then((a) => admit(a, inv, undefined, realm, identity));
    }
    if (identity === undefined) throw toWireError(new AuthenticationError({}), realm);
    if (rule === 'authenticated') return inv;
    const hasScopes = (rule.scopes ?? []).every((s) => identity.scopes.includes(s));
    const hasRole = rule.roles === undefined || rule.roles.some((r) => identity.roles.includes(r));
    return admit(hasScopes && hasRole, inv, rule.scopes, realm, identity);
  };
  return Object.freeze({ name: 'authorization', invocation: judge, response: addRefusalHeaders });
}

function admit(
  allowed: boolean,
  inv: Invocation,
  scope: readonly string[] | undefined,
  realm: string,
  identity: Identity | undefined,
): Invocation {
  if (allowed === true) return inv;
  throw toWireError(
    identity === undefined ? new AuthenticationError({}) : new AccessDeniedError(scope),
    realm,
  );
}
