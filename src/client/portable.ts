/**
 * The client without its Node transport: what `svc-framework/client` (`browser.ts`) and the package root
 * share. Nothing here may import a Node built-in, directly or through another layer
 * (`test/client/browser-entry.test.ts`).
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
  ResponseTooLargeError,
  InflatedResponseTooLargeError,
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
  RESTLI_CLIENT_HEADERS,
  type ProtocolVersionChoice,
  type ResolvedClientOptions,
  isResolvedClientOptions,
  resolveClientOptions,
  versionForAnnounced,
  acceptHeaderFor,
} from './options';
export { type ClientAuth, type ClientTokenSource } from './auth';
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
// the per-method calls (modular form): `get(createCoreClient(options), photosInterface, 1)`
export { CoreClient, createCoreClient } from './core-client';
export {
  get,
  batchGet,
  create,
  batchCreate,
  update,
  batchUpdate,
  partialUpdate,
  batchPartialUpdate,
  remove,
  batchDelete,
  getAll,
  find,
  batchFind,
  callAction,
  callEntityAction,
} from './modular';
export { DEFAULT_QUERY_TUNNEL_THRESHOLD, type TunnelPolicy, tunnelRequest } from './tunnel-encode';
export { type ResourceClient, type ClientForms } from './resource-client';
export type {
  RecordClassLike,
  FinderContract,
  BatchFinderContract,
  ActionContract,
  MethodsContract,
  KeyedResourceContract,
  SimpleResourceContract,
  ActionsSetContract,
  ResourceContract,
  ResourceContracts,
  CallOptions,
  GetOptions,
  ReturnEntityOptions,
  CollectionOptions,
  PatchInput,
  EntityOf,
  KeyOfResource,
  ParamInputOf,
  ParamsInput,
  ParamsArgs,
  MetadataOf,
  ActionReturnOf,
  TypedActionResponse,
  FinderCall,
  BatchFinderCall,
  BatchFinderBuilder,
  PlainBatchFinderBuilder,
  CriteriaOfContract,
  OtherParamsOfContract,
  RxCall,
  RxClient,
  KeyedClientCalls,
  SimpleClientCalls,
  ActionCall,
  EntityActionCall,
  KeyedResourceClient,
  SimpleResourceClient,
  ResourceClientBase,
  ResourceClientOf,
  ResourceClients,
} from './resource-client-types';
export { coldCall, entity, elements, page, type HandlerPage, actionValue, type RxForms, rxForms } from './rx';
export { diffPatch } from './diff-patch';
export { RequestAttachments } from './request-attachments';
export { compressedFetch, type CompressedFetchOptions, type FetchEncoding } from './compressed-fetch';
export { type MuxCallOptions, type MuxOutcome, type MuxOutcomes, mux, muxDescriptions } from './mux';
export {
  type ClientPlatform,
  type ClientAttachments,
  type RelatedRequestBody,
  type RelatedResponseParts,
  clientPlatform,
  installClientPlatform,
} from './platform';
export { WEB_PLATFORM, webFetch } from './web-platform';
export { webAttachments } from './web-attachments';
