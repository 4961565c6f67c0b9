import type { DataMap } from '../data';
import {
  QueryParam,
  type ResourceMethod,
  decodeKeyFromPath,
  isCompoundKey,
  percentDecode,
  routeResourceMethod,
  unsupportedOperationError,
  InvalidParameterError,
} from '../protocol';
import type { KeyType } from '../resources/key-types';
import { OneKey } from './path-keys';
import { ResourceNotFoundError } from '../resources/errors';
import type { AlternativeKeyType, MethodModel, ResourceModel } from '../resources/registration';

/**
 * Routing (wire facts §3.3, the reference's `RestLiRouter`): the path walks down the resource tree (root
 * name, key, subresource name, key, ...), then the HTTP method, the method header and the query flags pick
 * the method (`routeResourceMethod`), and the finder or action name picks the handler.
 */

/** Where a request goes. */
export interface RouteResult {
  readonly resource: ResourceModel;
  readonly target: MethodModel;
  readonly method: ResourceMethod;
  /** The typed key of the addressed entity (entity-level methods of collections and associations). */
  readonly key: unknown;
  /** Keys of the path by name (`photosId`, association part names), parents included. */
  readonly pathKeys: ReadonlyMap<string, unknown>;
  /**
   * The key type of this request's keys: the resource's, or with `?altkey=<name>` that alternative key's
   * (path key, `ids`, batch bodies and response keys all read and write the alternative).
   */
  readonly keyType: KeyType<unknown> | undefined;
  /** The `altkey` name when the request uses one. */
  readonly altKey: string | undefined;
}

/** What routing reads of the request. */
export interface RoutingRequest {
  readonly httpMethod: string;
  /** Raw path below the prefix: `/photos/1`. */
  readonly path: string;
  readonly requestUri: string;
  readonly query: DataMap;
  readonly methodHeader: string | undefined;
  readonly methodHeaderName: string;
}

const EMPTY_KEYS: ReadonlyMap<string, unknown> = new Map();

/** The keys read so far as a Map that takes more (a first key read as a {@link OneKey} is copied). */
function keysSoFar(keys: Map<string, unknown> | OneKey | undefined): Map<string, unknown> {
  return keys instanceof Map ? keys : new Map(keys);
}

function segmentName(segment: string): string | undefined {
  try {
    return percentDecode(segment, true);
  } catch {
    return undefined;
  }
}

function notFound(path: string): ResourceNotFoundError {
  return new ResourceNotFoundError(`No resource defined for path '${path}'`);
}

/**
 * A map of names (the roots, a resource's finders) with the last name found in it. A request's names are
 * new strings each time, which `Map.get` hashes before its search; comparing with the last name found costs
 * a fraction of that. Measured with callgrind over HTTP: the example's finder request spent ~1.2k
 * instructions of its ~149k in the router's two lookups (root and finder), most of it hashing. The maps are
 * built at registration and never change, so a remembered entry stays right.
 */
interface LastFound<V> {
  map: ReadonlyMap<string, V> | undefined;
  name: string;
  value: V | undefined;
}

function lookUp<V>(map: ReadonlyMap<string, V>, name: string, last: LastFound<V>): V | undefined {
  if (last.map === map && last.name === name) return last.value;
  const value = map.get(name);
  if (value !== undefined) {
    last.map = map;
    last.name = name;
    last.value = value;
  }
  return value;
}

const lastRoot: LastFound<ResourceModel> = { map: undefined, name: '', value: undefined };
const lastFinder: LastFound<MethodModel> = { map: undefined, name: '', value: undefined };

/**
 * Routes a request to a resource method.
 * @throws ResourceNotFoundError 404 for an unknown resource path; InvalidKeyError 400 for a malformed key;
 *   MethodRoutingError 400 for a method the resource does not implement (`POST operation not supported for
 *   URI: '/photos' with X-Svc-Method: 'batch_create'`) or an action via GET
 */
export function route(roots: ReadonlyMap<string, ResourceModel>, req: RoutingRequest): RouteResult {
  const path = req.path;
  // '/photos/1' → 'photos', then '1' (segments found with indexOf, no array); a trailing slash is ignored
  const end = path.length > 1 && path.endsWith('/') ? path.length - 1 : path.length;
  let from = path.startsWith('/') ? 1 : 0;
  let to = path.indexOf('/', from);
  if (to === -1 || to > end) to = end;
  const rootSegment = path.slice(from, to);
  const rootName = segmentName(rootSegment);
  const root = rootName === undefined ? undefined : lookUp(roots, rootName, lastRoot);
  if (root === undefined) {
    throw new ResourceNotFoundError(`No root resource defined for path '/${rootSegment}'`);
  }
  const altName = req.query.isEmpty() ? undefined : req.query.get(QueryParam.ALT_KEY);
  let resource: ResourceModel = root;
  let entity = resource.kind === 'simple';
  let key: unknown = undefined;
  let pathKeys: Map<string, unknown> | OneKey | undefined;
  while (to < end) {
    from = to + 1;
    to = path.indexOf('/', from);
    if (to === -1 || to > end) to = end;
    const segment = path.slice(from, to);
    if (entity) {
      const name = segmentName(segment);
      const sub: ResourceModel | undefined = name === undefined ? undefined : resource.subresources.get(name);
      if (sub === undefined) throw notFound(path);
      resource = sub;
      entity = sub.kind === 'simple';
      key = undefined;
      continue;
    }
    // collection level: the segment is a key (only collections and associations are at this level)
    let keyType = resource.keyType;
    if (keyType === undefined || segment === '') throw notFound(path);
    // an alternative key names the addressed entity: the last key of the path (parents keep theirs)
    if (altName !== undefined && to >= end) keyType = alternativeKeyOf(resource, altName);
    const decoded = decodeKeyFromPath(segment, keyType.spec);
    const typed = keyType.fromProtocol(decoded);
    if (resource.kind === 'association') {
      pathKeys = keysSoFar(pathKeys);
      // an association's typed key is its parts, read from the path or converted from an alternative key
      for (const [part, value] of Object.entries(typed as Record<string, unknown>)) pathKeys.set(part, value);
      // a partial key (an association finder's) keeps the request at the collection level
      if (isCompoundKey(decoded) && !decoded.hasAllParts(resource.assocParts!.keys())) continue;
    } else if (pathKeys === undefined) {
      // the first key of the path: one entry, no Map (the common case; path-keys.ts)
      pathKeys = new OneKey(resource.keyName!, typed);
    } else {
      pathKeys = keysSoFar(pathKeys);
      pathKeys.set(resource.keyName!, typed);
    }
    key = typed;
    entity = true;
  }

  const method = routeResourceMethod({
    httpMethod: req.httpMethod,
    methodHeader: req.methodHeader,
    query: req.query,
    entity,
    requestUri: req.requestUri,
  });
  let target: MethodModel | undefined;
  let methodName: string | undefined;
  if (method === 'finder' || method === 'action' || method === 'batch_finder') {
    const param =
      method === 'finder'
        ? QueryParam.FINDER
        : method === 'action'
          ? QueryParam.ACTION
          : QueryParam.BATCH_FINDER;
    const raw = req.query.get(param);
    methodName = typeof raw === 'string' ? raw : String(raw);
    if (typeof raw === 'string') {
      if (method === 'finder') target = lookUp(resource.finders, raw, lastFinder);
      else if (method === 'action') {
        target =
          entity && resource.kind !== 'simple' ? resource.entityActions.get(raw) : resource.actions.get(raw);
      } else target = resource.batchFinders.get(raw);
    }
  } else {
    target = resource.methods.get(method);
  }
  if (target === undefined) {
    throw unsupportedOperationError({
      httpMethod: req.httpMethod,
      requestUri: req.requestUri,
      methodHeaderName: req.methodHeaderName,
      methodHeader: req.methodHeader,
      methodName,
      resourceName: resource.name,
    });
  }
  // the methods whose keys an alternative key names: entity-level ones, batch ones and create
  const alt =
    altName !== undefined &&
    resource.keyType !== undefined &&
    (entity || method === 'create' || method.startsWith('batch_'))
      ? alternativeKeyOf(resource, altName)
      : undefined;
  return {
    resource,
    target,
    method,
    key,
    pathKeys: pathKeys ?? EMPTY_KEYS,
    keyType: alt ?? resource.keyType,
    altKey: alt?.altName,
  };
}

/**
 * {@link route} for the commonest request, a GET of `/<collection>/<key>` with neither query nor method
 * header, when the root's name needs no decoding: the same result without the general walk (its query
 * flags, method table and path loop). Undefined for any other request, which {@link route} then routes
 * (and refuses with its errors: an unknown root, a collection without get...). Measured: the general
 * routing was ~1 µs of a get's ~10 µs of pipeline time in a server under load (CPU profile).
 * @throws InvalidKeyError 400 for a malformed key, as {@link route}
 */
export function routeEntityGet(
  roots: ReadonlyMap<string, ResourceModel>,
  path: string,
): RouteResult | undefined {
  const slash = path.indexOf('/', 1);
  // exactly `/<root>/<key>`: one more segment, not empty, no trailing slash, nothing below it
  if (slash <= 1 || path.charCodeAt(0) !== 47 || slash === path.length - 1) return undefined;
  if (path.indexOf('/', slash + 1) !== -1) return undefined;
  // a name with an escape misses here (no root's name has a '%') and is decoded by route()
  const resource = lookUp(roots, path.slice(1, slash), lastRoot);
  if (resource === undefined || resource.kind !== 'collection') return undefined;
  const target = resource.methods.get('get');
  const keyType = resource.keyType;
  if (target === undefined || keyType === undefined) return undefined;
  const key = keyType.fromProtocol(decodeKeyFromPath(path.slice(slash + 1), keyType.spec));
  return {
    resource,
    target,
    method: 'get',
    key,
    pathKeys: new OneKey(resource.keyName!, key),
    keyType,
    altKey: undefined,
  };
}

/**
 * The key type of `?altkey=<name>` on `resource`.
 * @throws InvalidParameterError 400 for a name the resource does not declare
 */
function alternativeKeyOf(resource: ResourceModel, name: unknown): AlternativeKeyType {
  const alt = typeof name === 'string' ? resource.alternativeKeys.get(name) : undefined;
  if (alt === undefined) {
    throw new InvalidParameterError(
      QueryParam.ALT_KEY,
      `Resource '${resource.name}' does not have an alternative key named '${typeof name === 'string' ? name : String(name)}'`,
    );
  }
  return alt;
}
