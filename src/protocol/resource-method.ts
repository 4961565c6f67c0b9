import { MethodRoutingError } from './errors';
import { QueryParam } from './query-string';

/** The resource methods, by their wire names (lower case, as the method header carries them). */
export const ResourceMethod = {
  GET: 'get',
  BATCH_GET: 'batch_get',
  CREATE: 'create',
  BATCH_CREATE: 'batch_create',
  UPDATE: 'update',
  BATCH_UPDATE: 'batch_update',
  PARTIAL_UPDATE: 'partial_update',
  BATCH_PARTIAL_UPDATE: 'batch_partial_update',
  DELETE: 'delete',
  BATCH_DELETE: 'batch_delete',
  GET_ALL: 'get_all',
  FINDER: 'finder',
  BATCH_FINDER: 'batch_finder',
  ACTION: 'action',
} as const;

export type ResourceMethod = (typeof ResourceMethod)[keyof typeof ResourceMethod];

/** Every resource method, in the order above. */
export const RESOURCE_METHODS: readonly ResourceMethod[] = Object.values(ResourceMethod);

const BY_UPPER = /* @__PURE__ */ (() =>
  new Map<string, ResourceMethod>(RESOURCE_METHODS.map((m) => [m.toUpperCase(), m])))();

/** The resource method named `name` in any case (`BATCH_PARTIAL_UPDATE`, `batch_partial_update`), or undefined. */
export function parseResourceMethod(name: string): ResourceMethod | undefined {
  return BY_UPPER.get(name.toUpperCase());
}

/** The value a client writes in the method header: the lower-case wire name. */
export function methodHeaderValue(method: ResourceMethod): string {
  return method;
}

/** HTTP method of each resource method (create-like and partial updates and actions are POST). */
export const HTTP_METHOD_OF: Readonly<Record<ResourceMethod, 'GET' | 'POST' | 'PUT' | 'DELETE'>> = {
  get: 'GET',
  batch_get: 'GET',
  create: 'POST',
  batch_create: 'POST',
  update: 'PUT',
  batch_update: 'PUT',
  partial_update: 'POST',
  batch_partial_update: 'POST',
  delete: 'DELETE',
  batch_delete: 'DELETE',
  get_all: 'GET',
  finder: 'GET',
  batch_finder: 'GET',
  action: 'POST',
};

/** What routing looks at besides the HTTP method (wire facts §3.3). */
export interface RoutingInput {
  /** The HTTP method, any case. */
  readonly httpMethod: string;
  /** The method header value, any case; absent or empty means none. */
  readonly methodHeader?: string | undefined;
  /** The request's query parameter names (a parsed query DataMap will do). */
  readonly query: { has(name: string): boolean; readonly size?: number };
  /** Whether the path addresses one entity (a full key in the last segment). */
  readonly entity: boolean;
  /** The request URI, for error messages. */
  readonly requestUri: string;
}

/** The five flags as one small integer: an index instead of a key string built per request. */
function flagBits(
  action: boolean,
  finder: boolean,
  batchFinder: boolean,
  batch: boolean,
  entity: boolean,
): number {
  return (+action << 4) | (+finder << 3) | (+batchFinder << 2) | (+batch << 1) | +entity;
}

type Table = ReadonlyMap<string, ReadonlyMap<string, ReadonlyArray<ResourceMethod | undefined>>>;

/**
 * The routing table: HTTP method, upper-cased method header ('' when absent) and the flags action (`action`
 * param), finder (`q`), batch finder (`bq`), batch (`ids`) and entity (key in the path) → method. A table
 * rather than conditions, as the reference has it, so that no ordering subtleties creep in. The header is
 * needed only to tell `batch_create` from `create`; when given it must agree with the rest.
 */
const TABLE: Table = /* @__PURE__ */ (() => {
  const t = new Map<string, Map<string, Array<ResourceMethod | undefined>>>();
  //      http       header                    action  finder batchF batch  entity
  const rows: Array<[string, string, boolean, boolean, boolean, boolean, boolean, ResourceMethod]> = [
    ['GET', '', false, false, false, false, true, 'get'],
    ['GET', '', false, true, false, false, false, 'finder'],
    ['PUT', '', false, false, false, false, true, 'update'],
    ['POST', '', false, false, false, false, true, 'partial_update'],
    ['DELETE', '', false, false, false, false, true, 'delete'],
    ['POST', '', true, false, false, false, true, 'action'],
    ['POST', '', true, false, false, false, false, 'action'],
    ['POST', '', false, false, false, false, false, 'create'],
    ['GET', '', false, false, false, false, false, 'get_all'],

    ['GET', 'GET', false, false, false, false, true, 'get'],
    ['GET', 'FINDER', false, true, false, false, false, 'finder'],
    ['PUT', 'UPDATE', false, false, false, false, true, 'update'],
    ['POST', 'PARTIAL_UPDATE', false, false, false, false, true, 'partial_update'],
    ['DELETE', 'DELETE', false, false, false, false, true, 'delete'],
    ['POST', 'ACTION', true, false, false, false, true, 'action'],
    ['POST', 'ACTION', true, false, false, false, false, 'action'],
    ['POST', 'CREATE', false, false, false, false, false, 'create'],
    ['GET', 'GET_ALL', false, false, false, false, false, 'get_all'],

    ['GET', '', false, false, false, true, false, 'batch_get'],
    ['GET', '', false, false, true, false, false, 'batch_finder'],
    ['DELETE', '', false, false, false, true, false, 'batch_delete'],
    ['PUT', '', false, false, false, true, false, 'batch_update'],
    ['POST', '', false, false, false, true, false, 'batch_partial_update'],

    ['GET', 'BATCH_GET', false, false, false, true, false, 'batch_get'],
    ['GET', 'BATCH_FINDER', false, false, true, false, false, 'batch_finder'],
    ['DELETE', 'BATCH_DELETE', false, false, false, true, false, 'batch_delete'],
    ['PUT', 'BATCH_UPDATE', false, false, false, true, false, 'batch_update'],
    ['POST', 'BATCH_PARTIAL_UPDATE', false, false, false, true, false, 'batch_partial_update'],

    // batch_create looks exactly like create: only the header tells them apart
    ['POST', 'BATCH_CREATE', false, false, false, false, false, 'batch_create'],
  ];
  for (const [http, header, a, f, bf, b, e, m] of rows) {
    let byHeader = t.get(http);
    if (byHeader === undefined) {
      byHeader = new Map<string, Array<ResourceMethod | undefined>>();
      t.set(http, byHeader);
    }
    let byFlags = byHeader.get(header);
    if (byFlags === undefined) {
      byFlags = new Array<ResourceMethod | undefined>(32).fill(undefined);
      byHeader.set(header, byFlags);
    }
    const bits = flagBits(a, f, bf, b, e);
    if (byFlags[bits] !== undefined) throw new Error(`routing table conflict: ${byFlags[bits]} vs ${m}`);
    byFlags[bits] = m;
  }
  return t;
})();

/** Whether a query (undefined: none) has a parameter. */
function hasParam(query: RoutingInput['query'] | undefined, name: string): boolean {
  return query !== undefined && query.has(name);
}

/**
 * The resource method a request names (wire facts §3.3). Name clashes: on GET, `q` and `bq` together are
 * refused (400, see below), either wins over `action`; on POST, `action` wins over both.
 *
 * @example
 * ```ts
 * routeResourceMethod({ httpMethod: 'POST', methodHeader: 'batch_create', query: new Set(), entity: false, requestUri: '/r' });
 * // 'batch_create'
 * ```
 * @throws MethodRoutingError 400: `Ambiguous method selection: ...` for a GET with both `q` and `bq`; `All action methods (specified via 'action' in URI) must be submitted as a
 *   POST (was GET)`, or `Method 'PATCH' is not supported for URI '/r'`
 */
export function routeResourceMethod(input: RoutingInput): ResourceMethod {
  const m = input.httpMethod;
  // Node gives the usual methods in upper case already: skip the case conversion for them
  const http = m === 'GET' || m === 'POST' || m === 'PUT' || m === 'DELETE' ? m : m.toUpperCase();
  // no query (a get, an update, a delete by key): every flag is false, without the look-ups
  const query = input.query.size === 0 ? undefined : input.query;
  const header =
    input.methodHeader === undefined || input.methodHeader === '' ? '' : input.methodHeader.toUpperCase();
  // a GET with neither query nor method header: the table's two rows for it, without the look-ups
  if (http === 'GET' && query === undefined && header === '') return input.entity ? 'get' : 'get_all';
  let action = hasParam(query, QueryParam.ACTION);
  let finder = hasParam(query, QueryParam.FINDER);
  let batchFinder = hasParam(query, QueryParam.BATCH_FINDER);
  if (http === 'GET' && finder && batchFinder) {
    // the reference lets `q` win (then `bq` is a parameter of the finder: Rest.li since 2021), and refused
    // the request before that; Svc reserves `bq`, so no finder can take it: the request is ambiguous
    throw new MethodRoutingError(
      'SVC_ERR_PROTOCOL_AMBIGUOUS_METHOD',
      `Ambiguous method selection: a request names a finder ('${QueryParam.FINDER}') or a batch finder ('${QueryParam.BATCH_FINDER}'), not both`,
    );
  }
  if (http === 'GET' && finder) {
    action = false;
    batchFinder = false;
  } else if (http === 'GET' && batchFinder) {
    action = false;
    finder = false;
  } else if (http === 'POST' && action) {
    finder = false;
    batchFinder = false;
  }
  const found =
    TABLE.get(http)?.get(header)?.[
      flagBits(action, finder, batchFinder, hasParam(query, QueryParam.IDS), input.entity)
    ];
  if (found !== undefined) return found;
  if (hasParam(query, QueryParam.ACTION) && http !== 'POST') {
    throw new MethodRoutingError(
      'SVC_ERR_PROTOCOL_ACTION_NOT_POST',
      `All action methods (specified via '${QueryParam.ACTION}' in URI) must be submitted as a POST (was ${input.httpMethod})`,
    );
  }
  throw new MethodRoutingError(
    'SVC_ERR_PROTOCOL_METHOD_NOT_SUPPORTED',
    `Method '${input.httpMethod}' is not supported for URI '${input.requestUri}'`,
  );
}

/** What {@link unsupportedOperationError} needs. */
export interface UnsupportedOperationInput {
  readonly httpMethod: string;
  readonly requestUri: string;
  /** Name of the method header (`X-Svc-Method`) and its value ('' when absent). */
  readonly methodHeaderName: string;
  readonly methodHeader?: string | undefined;
  /** The finder, batch finder or action name, when the request named one. */
  readonly methodName?: string | undefined;
  /** The resource, for the message of a named method. */
  readonly resourceName?: string;
}

/**
 * The 400 for a request that routes to a method the resource does not implement: `POST operation not
 * supported for URI: '/r' with X-Svc-Method: 'batch_create'`, or for a named finder/action `GET operation
 * named search not supported on resource 'greetings' URI: '/r?q=search'`.
 */
export function unsupportedOperationError(input: UnsupportedOperationInput): MethodRoutingError {
  const message =
    input.methodName !== undefined
      ? `${input.httpMethod} operation named ${input.methodName} not supported on resource '${input.resourceName ?? ''}' URI: '${input.requestUri}'`
      : `${input.httpMethod} operation not supported for URI: '${input.requestUri}' with ${input.methodHeaderName}: '${input.methodHeader ?? ''}'`;
  return new MethodRoutingError('SVC_ERR_PROTOCOL_METHOD_NOT_SUPPORTED', message);
}
