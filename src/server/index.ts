/**
 * The request pipeline and its HTTP adapters (DESIGN.md, "The request path"): decode → route → bind →
 * invoke → build → encode as plain functions over immutable descriptions (pipeline.ts), the server filters
 * (validation, tunneling), and two thin adapters that run it: the fastify plugin and a standalone
 * `node:http` server. The declarative API they serve (definitions, interfaces, registration) is in
 * `resources/`. See README.md in this folder.
 */
export { ResourcePipeline, type PipelineConfig } from './pipeline';
export { type ValidationFilterOptions, validationFilter } from './validation-filter';
export {
  IS_QUERY_TUNNELED,
  TUNNELING_FILTER_NAME,
  type TunnelingFilterOptions,
  tunnelingFilter,
} from './tunneling-filter';
export {
  type SvcPluginOptions,
  type ResolvedSvcOptions,
  DEFAULT_MAX_BODY_BYTES,
  resolveSvcOptions,
  createResourcePipeline,
  svcPlugin,
  svcFrameworkErrors,
} from './fastify-plugin';
export {
  type SvcHttpServerOptions,
  type SvcRequestListener,
  type SvcServerTimeouts,
  createSvcServer,
  listenOn,
  svcRequestListener,
} from './node-http';
export { type SvcCorsOptions, type CorsHandler, corsHandler, defaultExposedHeaders } from './cors';
export {
  type SvcServerOptions,
  type SvcFastifyServerOptions,
  DEFAULT_SERVER_TIMEOUTS,
  svcServerOptions,
  svcClientErrorHandler,
} from './server-options';
export {
  type MuxOptions,
  type ResolvedMux,
  DEFAULT_MUX_CONCURRENCY,
  DEFAULT_MUX_MAX_REQUESTS,
  DEFAULT_MUX_MAX_RESPONSE_BYTES,
  MUX_PATH,
  MultiplexedRequestError,
} from './mux';
export { SvcIncomingMessage } from './incoming-headers';
export { svcQuerystringParser } from './query-string';
