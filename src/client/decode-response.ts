import { DataList, DataMap, type DataValue, JSON_CONTENT_TYPE } from '../data';
import {
  fromHeaderValue,
  type ErrorResponse,
  type KeySpec,
  type ResourceKey,
  type ResourceMethod,
  decodeKeyFromBody,
  encodeKeyForBody,
  getHeader,
  isComplexKey,
  isCompoundKey,
  readActionResponse,
  readBatchCreateResponse,
  readBatchFinderResponse,
  readBatchGetResponse,
  readBatchUpdateResponse,
  readCollectionResponse,
  readErrorResponse,
} from '../protocol';
import { ResponseDecodingError, ServiceResponseError } from './errors';
import { KeyMap } from './key-map';
import type { AttachmentReader } from '../streams/attachment-reader';
import type { ResolvedClientOptions } from './options';
import type {
  ActionRequest,
  BatchCreateRequest,
  BatchDeleteRequest,
  BatchFinderRequest,
  BatchGetRequest,
  BatchPartialUpdateRequest,
  BatchUpdateRequest,
  CreateRequest,
  DeleteRequest,
  FinderRequest,
  GetAllRequest,
  GetRequest,
  PartialUpdateRequest,
  RequestDescription,
  UpdateRequest,
} from './request-description';
import type {
  ActionResponse,
  WithoutAttachmentAccessors,
  BatchCreateItem,
  BatchCreateResponse,
  BatchEntityResponse,
  BatchFinderResponse,
  BatchStatusResponse,
  CollectionPageResponse,
  CreateResponse,
  EntityResponse,
  SvcResponse,
  UpdateResponse,
} from './responses';
import type { RawResponse } from './transport';

/** Where a response came from, for error messages. */
export interface ResponseContext {
  readonly method: ResourceMethod;
  readonly url: string;
}

/**
 * Decodes a raw response for the request `desc` (wire facts §3.5, §4): a status outside 2xx becomes a
 * {@link ServiceResponseError} with the ErrorResponse when the body is one; a success body is decoded by
 * its `Content-Type` (JSON when absent; exact longs), read with the method's envelope reader, keys mapped
 * back to the request's keys, entities wrapped in the request's `template`.
 *
 * @throws ServiceResponseError for a non-2xx status
 * @throws ResponseDecodingError for a success body that cannot be read
 */
export function decodeResponse(
  desc: RequestDescription,
  raw: RawResponse,
  options: ResolvedClientOptions,
  context: ResponseContext = { method: desc.method, url: desc.resource },
): SvcResponse {
  const kind = Object.prototype.hasOwnProperty.call(RESPONSE_KINDS, desc.method)
    ? (RESPONSE_KINDS[desc.method] as ResponseKind<RequestDescription>)
    : undefined;
  if (kind === undefined) {
    if (raw.status < 200 || raw.status > 299) throw errorFromResponse(raw, options, context);
    throw new ResponseDecodingError(`Unknown resource method '${String(desc.method)}'`, raw);
  }
  return decodeResponseOf(desc, raw, options, context, kind);
}

/**
 * Reads a success response of one method kind. The per-method calls (`calls.ts`) name their kind's
 * function, so that a page calling only `get` carries no other response shape (README.md, "Size").
 */
export type ResponseKind<D extends RequestDescription> = (
  desc: D,
  r: Reader,
) => WithoutAttachmentAccessors<SvcResponse>;

/** {@link decodeResponse} with the method's kind given. */
export function decodeResponseOf<D extends RequestDescription>(
  desc: D,
  raw: RawResponse,
  options: ResolvedClientOptions,
  context: ResponseContext,
  kind: ResponseKind<D>,
): SvcResponse {
  if (raw.status < 200 || raw.status > 299) throw errorFromResponse(raw, options, context);
  return withAttachmentAccessors(kind(desc, new Reader(raw, options)), raw.attachments) as SvcResponse;
}

/**
 * Gives a response its `hasAttachments()` and `getAttachmentReader()`: accessors, not data, so that they
 * stay out of equality checks and JSON of the response (a copy made by spreading needs them again).
 */
export function withAttachmentAccessors<T extends object>(
  response: T,
  reader: AttachmentReader | undefined,
): T {
  Object.defineProperties(response, {
    hasAttachments: { value: (): boolean => reader !== undefined, configurable: true },
    getAttachmentReader: { value: (): AttachmentReader | undefined => reader, configurable: true },
  });
  return response;
}

// ---------------------------------------------------------------------------------------------------------
// Method kinds: each reads its own response shape (one function each, so that a bundler keeps only those
// called)

export const getResponseKind: ResponseKind<GetRequest<unknown>> = (desc, r) => {
  const body = r.body();
  if (body === undefined) throw r.fail('A get response has no entity');
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    entity: r.wrap(body, desc.template, ''),
  } satisfies WithoutAttachmentAccessors<EntityResponse<unknown>>;
};

export const batchGetResponseKind: ResponseKind<BatchGetRequest<ResourceKey, unknown>> = (desc, r) => {
  const b = r.read(() => readBatchGetResponse(r.body()));
  const keys = new KeyDecoder(desc.ids, desc.keySpec, r);
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    results: keys.map(b.results, (v, k) => r.wrap(v, desc.template, `/results/${k}`)),
    statuses: keys.map(b.statuses, (v) => v),
    errors: keys.map(b.errors, (v) => v),
  } satisfies WithoutAttachmentAccessors<BatchEntityResponse<ResourceKey, unknown>>;
};

export const createResponseKind: ResponseKind<CreateRequest<unknown>> = (desc, r) => {
  const { status, headers } = r.raw;
  const rawId = getHeader(headers, r.options.headerNames.id);
  const idText = rawId === undefined ? undefined : fromHeaderValue(rawId);
  const body = r.body();
  return {
    status,
    headers,
    id: idText === undefined ? undefined : new KeyDecoder([], desc.keySpec, r).decode(idText),
    idText,
    location: getHeader(headers, 'location'),
    entity: body === undefined ? undefined : r.wrap(body, desc.template, ''),
  } satisfies WithoutAttachmentAccessors<CreateResponse<unknown>>;
};

export const batchCreateResponseKind: ResponseKind<BatchCreateRequest<unknown>> = (desc, r) => {
  const items = r.read(() => readBatchCreateResponse(r.body()));
  const keys = new KeyDecoder([], desc.keySpec, r);
  const elements = items.map((s, i): BatchCreateItem<unknown> => ({
    status: s.status,
    isError: s.error !== undefined || s.status >= 400,
    id: s.id === undefined ? undefined : keys.decode(s.id),
    idText: s.id,
    location: s.location,
    error: s.error,
    entity: s.entity === undefined ? undefined : r.wrap(s.entity, desc.template, `/elements/${i}/entity`),
  }));
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    elements,
  } satisfies WithoutAttachmentAccessors<BatchCreateResponse<unknown>>;
};

/** update and delete: no body is read. */
export const noEntityResponseKind: ResponseKind<UpdateRequest | DeleteRequest> = (_desc, r) =>
  ({ status: r.raw.status, headers: r.raw.headers, entity: undefined }) satisfies WithoutAttachmentAccessors<
    UpdateResponse<unknown>
  >;

export const partialUpdateResponseKind: ResponseKind<PartialUpdateRequest<unknown>> = (desc, r) => {
  const body = r.body();
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    entity: body === undefined ? undefined : r.wrap(body, desc.template, ''),
  } satisfies WithoutAttachmentAccessors<UpdateResponse<unknown>>;
};

/** batch_update, batch_partial_update and batch_delete. */
export const batchStatusResponseKind: ResponseKind<
  BatchUpdateRequest | BatchPartialUpdateRequest<ResourceKey, unknown> | BatchDeleteRequest
> = (desc, r) => {
  const b = r.read(() => readBatchUpdateResponse(r.body()));
  const requested =
    desc.method === 'batch_delete'
      ? desc.ids
      : [...(desc.method === 'batch_update' ? desc.entities : desc.patches)].map(([k]) => k);
  const template = desc.method === 'batch_partial_update' ? desc.template : undefined;
  const keys = new KeyDecoder(requested, desc.keySpec, r);
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    results: keys.map(b.results, (s, k) => ({
      status: s.status,
      entity: s.entity === undefined ? undefined : r.wrap(s.entity, template, `/results/${k}/entity`),
    })),
    errors: keys.map(b.errors, (v) => v),
  } satisfies WithoutAttachmentAccessors<BatchStatusResponse<ResourceKey, unknown>>;
};

/** get_all and finder. */
export const collectionResponseKind: ResponseKind<
  GetAllRequest<unknown, unknown> | FinderRequest<unknown, unknown>
> = (desc, r) => {
  const c = r.read(() => readCollectionResponse(r.body()));
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    elements: c.elements.map((e, i) => r.wrap(e, desc.template, `/elements/${i}`)),
    paging: c.paging,
    metadata: c.metadata === undefined ? undefined : r.wrap(c.metadata, desc.metadataTemplate, '/metadata'),
  } satisfies WithoutAttachmentAccessors<CollectionPageResponse<unknown, unknown>>;
};

export const batchFinderResponseKind: ResponseKind<BatchFinderRequest<unknown, unknown>> = (desc, r) => {
  const items = r.read(() => readBatchFinderResponse(r.body()));
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    results: items.map((c, i) => ({
      elements: c.elements.map((e, j) => r.wrap(e, desc.template, `/elements/${i}/elements/${j}`)),
      paging: c.paging,
      metadata:
        c.metadata === undefined
          ? undefined
          : r.wrap(c.metadata, desc.metadataTemplate, `/elements/${i}/metadata`),
      isError: c.isError,
      error: c.error,
    })),
  } satisfies WithoutAttachmentAccessors<BatchFinderResponse<unknown, unknown>>;
};

export const actionResponseKind: ResponseKind<ActionRequest<unknown>> = (desc, r) => {
  const value = r.read(() => readActionResponse(r.body()));
  return {
    status: r.raw.status,
    headers: r.raw.headers,
    value: value === undefined ? undefined : r.wrapValue(value, desc.template, '/value'),
  } satisfies WithoutAttachmentAccessors<ActionResponse<unknown>>;
};

/** Every kind by method name, for {@link decodeResponse}, which takes any description. */
const RESPONSE_KINDS: {
  readonly [M in ResourceMethod]: ResponseKind<Extract<RequestDescription, { method: M }>>;
} = {
  get: getResponseKind,
  batch_get: batchGetResponseKind,
  create: createResponseKind,
  batch_create: batchCreateResponseKind,
  update: noEntityResponseKind,
  batch_update: batchStatusResponseKind,
  partial_update: partialUpdateResponseKind,
  batch_partial_update: batchStatusResponseKind,
  delete: noEntityResponseKind,
  batch_delete: batchStatusResponseKind,
  get_all: collectionResponseKind,
  finder: collectionResponseKind,
  batch_finder: batchFinderResponseKind,
  action: actionResponseKind,
};

/**
 * The {@link ServiceResponseError} for a non-2xx response: the body decoded (by its `Content-Type`) and read
 * as an ErrorResponse when it can be; otherwise (an HTML page from a proxy, an empty body) the error still
 * carries the status, headers and raw body, and the decoding problem as `cause`.
 */
export function errorFromResponse(
  raw: RawResponse,
  options: ResolvedClientOptions,
  context: ResponseContext,
): ServiceResponseError {
  let data: DataMap | undefined;
  let errorResponse: ErrorResponse | undefined;
  let cause: unknown;
  if (raw.body.length > 0) {
    try {
      data = decodeBody(raw, options);
      errorResponse = readErrorResponse(data);
    } catch (err) {
      cause = err;
    }
  }
  const flag = getHeader(raw.headers, options.headerNames.errorResponse);
  return new ServiceResponseError({
    status: raw.status,
    headers: raw.headers,
    errorResponse,
    body: raw.body,
    data,
    isErrorResponse: flag !== undefined && flag.toLowerCase() === 'true',
    method: context.method,
    url: context.url,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The body as a DataMap, by `Content-Type` (JSON when absent).
 *
 * @throws UnsupportedContentTypeException, DataDecodingException
 */
function decodeBody(raw: RawResponse, options: ResolvedClientOptions): DataMap {
  const contentType = getHeader(raw.headers, 'content-type');
  const codec = options.codecs.get(
    contentType === undefined || contentType.trim() === '' ? JSON_CONTENT_TYPE : contentType,
  );
  return codec.bytesToMap(raw.body);
}

/** Reads a success body once, and wraps entities; every failure is a {@link ResponseDecodingError}. */
export class Reader {
  private decoded: { value: DataMap | undefined } | undefined;
  constructor(
    readonly raw: RawResponse,
    readonly options: ResolvedClientOptions,
  ) {}

  /** The body as a map; undefined when empty. */
  body(): DataMap | undefined {
    if (this.decoded === undefined) {
      if (this.raw.body.length === 0) {
        this.decoded = { value: undefined };
      } else {
        try {
          this.decoded = { value: decodeBody(this.raw, this.options) };
        } catch (err) {
          throw this.fail('The response body cannot be decoded', err);
        }
      }
    }
    return this.decoded.value;
  }

  /** Runs an envelope reader, turning its ResponseFormatError into a ResponseDecodingError. */
  read<T>(f: () => T): T {
    try {
      return f();
    } catch (err) {
      if (err instanceof ResponseDecodingError) throw err;
      throw this.fail('The response body is not shaped as expected', err);
    }
  }

  wrap<T>(data: DataMap, template: (new (data: DataMap) => T) | undefined, path: string): T | DataMap {
    if (template === undefined) return data;
    try {
      return new template(data);
    } catch (err) {
      throw this.fail(`Cannot wrap the entity at ${path === '' ? '/' : path} in ${template.name}`, err);
    }
  }

  wrapValue(value: DataValue, template: (new (data: never) => unknown) | undefined, path: string): unknown {
    if (template === undefined) return value;
    if (!(value instanceof DataMap) && !(value instanceof DataList)) {
      throw this.fail(
        `The value at ${path} is a ${typeof value}, not a record, array or map for ${template.name}`,
      );
    }
    try {
      return new (template as unknown as new (data: DataValue) => unknown)(value);
    } catch (err) {
      throw this.fail(`Cannot wrap the value at ${path} in ${template.name}`, err);
    }
  }

  fail(message: string, cause?: unknown): ResponseDecodingError {
    return new ResponseDecodingError(message, { ...this.raw, ...(cause === undefined ? {} : { cause }) });
  }
}

/**
 * Maps the key texts of a response (body form) to keys: the request's own key objects when they match by
 * wire form, else decoded with the key spec (given, or guessed from the request's keys: compound keys with
 * string parts, complex keys as data, simple keys as strings).
 */
class KeyDecoder {
  private readonly requested = new Map<string, ResourceKey>();
  private readonly spec: KeySpec;
  constructor(
    requested: Iterable<ResourceKey>,
    spec: KeySpec | undefined,
    private readonly reader: Reader,
  ) {
    let first: ResourceKey | undefined;
    for (const k of requested) {
      first ??= k;
      this.requested.set(encodeKeyForBody(k), k);
    }
    this.spec = spec ?? guessSpec(first);
  }

  decode(text: string): ResourceKey {
    const known = this.requested.get(text);
    if (known !== undefined) return known;
    try {
      return decodeKeyFromBody(text, this.spec);
    } catch (err) {
      throw this.reader.fail(`The response names a key that cannot be decoded: '${text}'`, err);
    }
  }

  map<A, B>(entries: Map<string, A>, f: (v: A, text: string) => B): KeyMap<ResourceKey, B> {
    const out: Array<[ResourceKey, B]> = [];
    for (const [text, v] of entries) out.push([this.decode(text), f(v, text)]);
    return new KeyMap(out);
  }
}

function guessSpec(key: ResourceKey | undefined): KeySpec {
  if (key !== undefined && isCompoundKey(key)) {
    return { kind: 'compound', parts: Object.fromEntries(key.partNames().map((n) => [n, undefined])) };
  }
  if (key !== undefined && isComplexKey(key)) return { kind: 'complex' };
  return { kind: 'simple' };
}
