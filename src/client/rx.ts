import { Observable, type OperatorFunction, map, mergeMap, from } from 'rxjs';

/**
 * Cold Observable forms of the typed client's calls (`api.photos.rx.get(1)`): the request is sent on
 * subscribe, each subscription sends its own, and unsubscribing before the answer aborts the HTTP request.
 * A server handler can return one (piped through {@link entity} for a get), so that a client hanging up
 * upstream cancels the downstream call: the server unsubscribes its handler's Observable when `ctx.signal`
 * aborts, and that unsubscription is this module's abort. See README.md, "Observable forms".
 */

/** The promise call's options with a `signal`, as every typed-client call takes them. */
interface WithSignal {
  readonly signal?: AbortSignal;
}

/**
 * The cold Observable form of a promise-returning call whose options object is argument `optionsAt`
 * (missing arguments before it are passed as undefined). The caller's own `signal`, if any, still aborts.
 */
export function coldCall<A extends unknown[], R>(
  call: (...args: A) => Promise<R>,
  optionsAt: number,
): (...args: A) => Observable<R> {
  return (...args: A) =>
    new Observable<R>((subscriber) => {
      const controller = new AbortController();
      const given = args[optionsAt] as WithSignal | undefined;
      // a non-object is left for the call to refuse with its typed error
      const options =
        given === undefined || (typeof given === 'object' && given !== null)
          ? {
              ...given,
              signal:
                given?.signal === undefined
                  ? controller.signal
                  : AbortSignal.any([given.signal, controller.signal]),
            }
          : given;
      const callArgs = [...args];
      while (callArgs.length < optionsAt) callArgs.push(undefined);
      callArgs[optionsAt] = options;
      let settled = false;
      call(...(callArgs as A)).then(
        (value) => {
          settled = true;
          subscriber.next(value);
          subscriber.complete();
        },
        (err: unknown) => {
          settled = true;
          subscriber.error(err);
        },
      );
      return () => {
        // after the answer there is nothing to abort (and a response's attachments may still be read)
        if (!settled) controller.abort(new DOMException('The Observable was unsubscribed', 'AbortError'));
      };
    });
}

/**
 * A get's (or create's, partial_update's) response → its entity, so that a get handler can return
 * `api.photos.rx.get(id).pipe(entity())`.
 */
export function entity<T>(): OperatorFunction<{ readonly entity: T }, T> {
  return map((r) => r.entity);
}

/**
 * A finder's (or get_all's) page → its elements, one value each: a stream of entities, as a finder
 * handler's Observable may be (the framework collects them; {@link page} keeps the downstream total and
 * metadata instead).
 */
export function elements<T>(): OperatorFunction<{ readonly elements: readonly T[] }, T> {
  return mergeMap((r) => from(r.elements));
}

/** A page as a finder handler returns it (the server's `CollectionPage`). */
export interface HandlerPage<V, M> {
  readonly elements: readonly V[];
  readonly total?: number;
  readonly metadata?: M;
}

/**
 * A finder's (or get_all's) page → the page a finder handler returns: its elements, the total the
 * downstream server reported, and its metadata when that is a record (a finder declared with a `metadata`
 * class; raw metadata DataMaps are left out, as a handler's page holds records). For a proxy that pages,
 * declare the upstream finder with `paging: true` and pass `ctx.paging`'s start and count on, so that the
 * downstream page is not cut a second time.
 */
export function page<V, M>(): OperatorFunction<
  {
    readonly elements: readonly V[];
    readonly paging: { readonly total?: number | undefined } | undefined;
    readonly metadata: M | undefined;
  },
  HandlerPage<V, M extends { data(): unknown } ? M : never>
> {
  type Out = HandlerPage<V, M extends { data(): unknown } ? M : never>;
  return map((r): Out => {
    const metadata = r.metadata as { data?: unknown } | undefined;
    return {
      elements: r.elements,
      ...(r.paging?.total === undefined ? {} : { total: r.paging.total }),
      ...(metadata !== undefined && typeof metadata.data === 'function'
        ? { metadata: metadata as Out['metadata'] }
        : {}),
    };
  });
}

/** An action's response → its value, so that an action handler can return the rx call piped through this. */
export function actionValue<T>(): OperatorFunction<{ readonly value: T }, T> {
  return map((r) => r.value);
}

/**
 * What gives a typed client its Observable forms: the package root's clients always have them; a page of
 * `svc-framework/client` passes this to `createResourceClient(options, resources, { rx: rxForms })`, so that
 * a page without them carries no RxJS (README.md, "Size").
 */
export interface RxForms {
  /** The cold form of a call whose options object is argument `optionsAt` ({@link coldCall}). */
  coldCall<A extends unknown[], R>(
    call: (...args: A) => Promise<R>,
    optionsAt: number,
  ): (...args: A) => Observable<R>;
  /** The `rx` namespace of a bound resource client: each call and each group's calls, cold. */
  namespace(client: Readonly<Record<string, unknown>>, simple: boolean, finderGetAll: boolean): object;
}

/** Where each call takes its options object (the argument the rx forms add their abort signal to). */
const KEYED_OPTIONS_AT: { readonly [method: string]: number } = {
  get: 1,
  batchGet: 1,
  create: 1,
  batchCreate: 1,
  update: 2,
  batchUpdate: 1,
  partialUpdate: 2,
  batchPartialUpdate: 1,
  delete: 1,
  batchDelete: 1,
};
const SIMPLE_OPTIONS_AT: { readonly [method: string]: number } = {
  get: 0,
  update: 1,
  partialUpdate: 1,
  delete: 0,
};
const GROUP_OPTIONS_AT: { readonly [group: string]: number } = {
  finders: 1,
  actions: 1,
  entityActions: 2,
  batchFinders: 2,
};

/** The `rx` namespace of a bound client (a simple resource's or a keyed one's). */
function rxNamespace(
  client: Readonly<Record<string, unknown>>,
  simple: boolean,
  finderGetAll: boolean,
): object {
  type Call = (...args: unknown[]) => Promise<unknown>;
  const rx: Record<string, unknown> = {};
  for (const [method, at] of Object.entries(simple ? SIMPLE_OPTIONS_AT : KEYED_OPTIONS_AT)) {
    const call = client[method];
    if (typeof call === 'function') rx[method] = coldCall(call as Call, at);
  }
  if (typeof client['getAll'] === 'function')
    rx['getAll'] = coldCall(client['getAll'] as Call, finderGetAll ? 1 : 0);
  for (const [group, at] of Object.entries(GROUP_OPTIONS_AT)) {
    const calls = client[group] as Record<string, unknown> | undefined;
    if (calls === undefined) continue;
    const forms: Record<string, unknown> = {};
    for (const [name, call] of Object.entries(calls)) forms[name] = coldCall(call as Call, at);
    rx[group] = Object.freeze(forms);
  }
  return Object.freeze(rx);
}

/** The Observable forms, for `createResourceClient(options, resources, { rx: rxForms })`. */
export const rxForms: RxForms = Object.freeze({ coldCall, namespace: rxNamespace });
