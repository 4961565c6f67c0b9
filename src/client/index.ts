/**
 * The client core: request descriptions → HTTP requests (pure), a fetch transport with timeouts and abort
 * signals, and typed decoding of every response shape. See README.md in this folder.
 */
export {
  type ResponseHeaders,
  ClientOptionsError,
  UnsupportedProtocolVersionError,
  RequestBuildError,
  type ServiceResponseErrorInit,
  ServiceResponseError,
  RequestTimeoutError,
  TransportError,
  ResponseDecodingError,
} from './errors';
export {
  ProtocolVersionOption,
  type AnnouncedVersionSource,
  type FetchResponseLike,
  type FetchInit,
  type FetchLike,
  type ClientFilter,
  type MethodHeaderMode,
  type ClientOptions,
  type ClientDefaults,
  DEFAULT_CLIENT_OPTIONS,
  type ProtocolVersionChoice,
  type ResolvedClientOptions,
  isResolvedClientOptions,
  resolveClientOptions,
  versionForAnnounced,
  acceptHeaderFor,
} from './options';
export type {
  Entity,
  EntityClass,
  ValueClass,
  ParamValue,
  ParamsInit,
  Projection,
  PageRequest,
  RequestCommon,
  WithTemplate,
  WithKeySpec,
  GetRequest,
  BatchGetRequest,
  CreateRequest,
  BatchCreateRequest,
  UpdateRequest,
  BatchUpdateRequest,
  PartialUpdateRequest,
  BatchPartialUpdateRequest,
  DeleteRequest,
  BatchDeleteRequest,
  CollectionRequestCommon,
  GetAllRequest,
  FinderRequest,
  BatchFinderRequest,
  ActionRequest,
  RequestDescription,
} from './request-description';
export { KeyMap } from './key-map';
export type {
  ResponseCommon,
  EntityResponse,
  BatchEntityResponse,
  CreateResponse,
  BatchCreateItem,
  BatchCreateResponse,
  UpdateResponse,
  EntityStatus,
  BatchStatusResponse,
  CollectionPageResponse,
  CriteriaResult,
  BatchFinderResponse,
  ActionResponse,
  SvcResponse,
  TemplateOf,
  ResponseFor,
} from './responses';
export { type HttpRequest, buildRequest, expandResourcePath } from './build-request';
export { type RawResponse, type TransportOptions, sendHttp } from './transport';
export { type ResponseContext, decodeResponse, errorFromResponse } from './decode-response';
export { type ExecuteOptions, SvcClient, createClient } from './svc-client';
