/**
 * Seen from outside: resource interfaces → an OpenAPI 3.1 document (schemas as JSON Schema 2020-12), and
 * the `/openapi.json` and `/docs` routes that serve it under both adapters.
 */
export { openApiDocument, openApiFromExports, type OpenApiOptions } from './document';
export {
  JsonSchemaTranslator,
  idlTypeSchema,
  primitiveJsonSchema,
  schemaRef,
  SCHEMA_REF_PREFIX,
} from './json-schema';
export { curlLine, shellQuote } from './curl';
export { exampleOf, uriFormOf } from './examples';
export type {
  JsonSchema,
  JsonValue as OpenApiJsonValue,
  OpenApiDocument,
  OpenApiMediaType,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiRef,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiTag,
} from './openapi-model';
export {
  documentationRoutes,
  guardDocumentationRoutes,
  DEFAULT_DOCS_PATH,
  DEFAULT_OPENAPI_PATH,
} from './serve';
export { pageAssets, pageHtml, PAGE_CSP, type PageAsset } from './docs-page';
