/**
 * Who is calling: what authentication found, on the request for later filters and on the handler's
 * context (`identityOf(ctx)`).
 */

/** A verified caller. */
export interface Identity {
  /** The JWT's `sub`, or the client certificate's subject common name. */
  readonly subject: string;
  /** How it was verified. */
  readonly via: 'jwt' | 'mtls';
  /** Granted scopes (the JWT's `scope`, space-separated, or `scp` list; a certificate's from `mtls.identity`). */
  readonly scopes: readonly string[];
  /** Roles (the JWT's `roles` claim by default). */
  readonly roles: readonly string[];
  /** Every claim of the token (the certificate's fields for mTLS), for rule functions and handlers. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** The request attribute that holds the {@link Identity} (a registered symbol: two package copies agree). */
export const IDENTITY: unique symbol = Symbol.for('svc.security.identity') as never;

/**
 * The caller of a request: from a handler's context, an invocation's `ctx`, or a raw request's
 * attributes; undefined for an anonymous request (authentication optional, or not configured).
 *
 * ```ts
 * get: (id, ctx) => store.get(id, identityOf(ctx)?.subject)
 * ```
 */
export function identityOf(holder: {
  readonly attributes: ReadonlyMap<string | symbol, unknown>;
}): Identity | undefined {
  return holder.attributes.get(IDENTITY) as Identity | undefined;
}

/** `attributes` with the identity added (a new map: request attributes are never changed in place). */
export function withIdentity(
  attributes: ReadonlyMap<string | symbol, unknown>,
  identity: Identity,
): ReadonlyMap<string | symbol, unknown> {
  const out = new Map(attributes);
  out.set(IDENTITY, identity);
  return out;
}

/** A claim as a list of strings: a space-separated string (OAuth's `scope`) or an array of strings. */
export function stringList(v: unknown): readonly string[] {
  if (typeof v === 'string') return v.split(' ').filter((s) => s !== '');
  if (Array.isArray(v)) return v.filter((s): s is string => typeof s === 'string');
  return [];
}
