import type { DataMap, DataValue } from '../data';
import type { AttachmentReader } from '../streams/attachment-reader';
import type { CollectionMetadata, ErrorResponse, ResourceKey } from '../protocol';
import type { ResponseHeaders } from './errors';
import type { KeyMap } from './key-map';
import type { EntityClass, ValueClass } from './request-description';

/**
 * What {@link SvcClient.send} resolves to, one shape per method (wire facts §3.5). Entities are DataMaps,
 * or instances of the request's `template` class. Keys of batch maps are the request's own key objects
 * (compared by wire form, see {@link KeyMap}).
 *
 * Names avoid the protocol layer's envelope-reader types (`BatchGetResponse`, `BatchUpdateResponse`,
 * `CollectionResponse`), which the package root exports too.
 */

/** What every response has. */
export interface ResponseCommon {
  /** The HTTP status (2xx). */
  readonly status: number;
  /** Lower-case names; read protocol headers with `getHeader` or the client's header names. */
  readonly headers: ResponseHeaders;
  /** True when the response carried attachments (`multipart/related`, asked for with `acceptResponseAttachments`). */
  hasAttachments(): boolean;
  /** The response's attachments, read as they arrive; undefined when it carried none. */
  getAttachmentReader(): AttachmentReader | undefined;
}

/** A response shape without the attachment accessors (what decoding builds before adding them). */
export type WithoutAttachmentAccessors<R> = R extends unknown
  ? Omit<R, 'hasAttachments' | 'getAttachmentReader'>
  : never;

/** get. */
export interface EntityResponse<T = DataMap> extends ResponseCommon {
  readonly entity: T;
}

/** batch_get: all three maps are always there, possibly empty; keys the server left out are in none. */
export interface BatchEntityResponse<K = ResourceKey, T = DataMap> extends ResponseCommon {
  readonly results: KeyMap<K, T>;
  /** Only the statuses the resource set explicitly. */
  readonly statuses: KeyMap<K, number>;
  readonly errors: KeyMap<K, ErrorResponse>;
}

/** create: the new key from the id header, `Location`, and the entity when it was returned. */
export interface CreateResponse<T = DataMap, K = ResourceKey> extends ResponseCommon {
  /** The id header decoded (with the request's `keySpec`; a string without one). */
  readonly id: K | undefined;
  /** The id header as sent. */
  readonly idText: string | undefined;
  readonly location: string | undefined;
  readonly entity: T | undefined;
}

/** One item of a batch_create response (a `CreateStatus`), in request order. */
export interface BatchCreateItem<T = DataMap, K = ResourceKey> {
  readonly status: number;
  /** True for a failed item (`error` present, or a status of 400 or more). */
  readonly isError: boolean;
  readonly id: K | undefined;
  readonly idText: string | undefined;
  readonly location: string | undefined;
  readonly error: ErrorResponse | undefined;
  readonly entity: T | undefined;
}

/** batch_create. */
export interface BatchCreateResponse<T = DataMap, K = ResourceKey> extends ResponseCommon {
  readonly elements: readonly BatchCreateItem<T, K>[];
}

/** update, partial_update and delete: a status; partial_update with `returnEntity` also the entity. */
export interface UpdateResponse<T = DataMap> extends ResponseCommon {
  readonly entity: T | undefined;
}

/** The outcome of one key of a batch update, partial update or delete. */
export interface EntityStatus<T = DataMap> {
  readonly status: number;
  /** For a batch partial update with `returnEntity`. */
  readonly entity: T | undefined;
}

/** batch_update, batch_partial_update and batch_delete: every key in exactly one of the maps. */
export interface BatchStatusResponse<K = ResourceKey, T = DataMap> extends ResponseCommon {
  readonly results: KeyMap<K, EntityStatus<T>>;
  readonly errors: KeyMap<K, ErrorResponse>;
}

/** get_all and finder. */
export interface CollectionPageResponse<T = DataMap, M = DataMap> extends ResponseCommon {
  readonly elements: readonly T[];
  /** `{start, count, total?, links}`; undefined when the server sent none. */
  readonly paging: CollectionMetadata | undefined;
  readonly metadata: M | undefined;
}

/** One criterion's result of a batch_finder, in request order. */
export interface CriteriaResult<T = DataMap, M = DataMap> {
  readonly elements: readonly T[];
  readonly paging: CollectionMetadata | undefined;
  readonly metadata: M | undefined;
  readonly isError: boolean;
  readonly error: ErrorResponse | undefined;
}

/** batch_finder. */
export interface BatchFinderResponse<T = DataMap, M = DataMap> extends ResponseCommon {
  readonly results: readonly CriteriaResult<T, M>[];
}

/** action: the `value`, undefined for a void action. */
export interface ActionResponse<V = DataValue> extends ResponseCommon {
  readonly value: V | undefined;
}

/** Any response. */
export type SvcResponse =
  | EntityResponse<unknown>
  | BatchEntityResponse<ResourceKey, unknown>
  | CreateResponse<unknown>
  | BatchCreateResponse<unknown>
  | UpdateResponse<unknown>
  | BatchStatusResponse<ResourceKey, unknown>
  | CollectionPageResponse<unknown, unknown>
  | BatchFinderResponse<unknown, unknown>
  | ActionResponse<unknown>;

type Or<T, D> = unknown extends T ? D : T;
/** The entity type a request's `template` gives (DataMap without one). */
export type TemplateOf<D> = D extends { readonly template?: EntityClass<infer T> } ? Or<T, DataMap> : DataMap;
type MetadataOf<D> = D extends { readonly metadataTemplate?: EntityClass<infer M> }
  ? Or<M, DataMap>
  : DataMap;
type ValueOf<D> = D extends { readonly template?: ValueClass<infer V> } ? Or<V, DataValue> : DataValue;
type IdsKeyOf<D> = D extends { readonly ids: Iterable<infer K> }
  ? K extends ResourceKey
    ? K
    : ResourceKey
  : ResourceKey;
type EntriesKeyOf<D, F extends string> = D extends {
  readonly [P in F]: Iterable<readonly [infer K, unknown]>;
}
  ? K extends ResourceKey
    ? K
    : ResourceKey
  : ResourceKey;

/** The response type of a request description, by its `method`. */
export type ResponseFor<D> = D extends { readonly method: 'get' }
  ? EntityResponse<TemplateOf<D>>
  : D extends { readonly method: 'batch_get' }
    ? BatchEntityResponse<IdsKeyOf<D>, TemplateOf<D>>
    : D extends { readonly method: 'create' }
      ? CreateResponse<TemplateOf<D>>
      : D extends { readonly method: 'batch_create' }
        ? BatchCreateResponse<TemplateOf<D>>
        : D extends { readonly method: 'update' | 'delete' }
          ? UpdateResponse<never>
          : D extends { readonly method: 'partial_update' }
            ? UpdateResponse<TemplateOf<D>>
            : D extends { readonly method: 'batch_update' }
              ? BatchStatusResponse<EntriesKeyOf<D, 'entities'>, never>
              : D extends { readonly method: 'batch_partial_update' }
                ? BatchStatusResponse<EntriesKeyOf<D, 'patches'>, TemplateOf<D>>
                : D extends { readonly method: 'batch_delete' }
                  ? BatchStatusResponse<IdsKeyOf<D>, never>
                  : D extends { readonly method: 'get_all' | 'finder' }
                    ? CollectionPageResponse<TemplateOf<D>, MetadataOf<D>>
                    : D extends { readonly method: 'batch_finder' }
                      ? BatchFinderResponse<TemplateOf<D>, MetadataOf<D>>
                      : D extends { readonly method: 'action' }
                        ? ActionResponse<ValueOf<D>>
                        : SvcResponse;
