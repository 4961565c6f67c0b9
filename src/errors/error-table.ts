// Generated from error-codes.ts by scripts/error-table.ts (npm run generate): do not edit.
import type { ErrorTable } from './svc-error';

/*
 * Each code with its error class name and HTTP status, one table per module that defines error classes:
 * what `SvcError` needs at run time, without the summaries, which only docs and tools read. Each module
 * registers its own table (`registerErrorCodes`), so a browser page carries only the codes of the layers
 * it loads (README.md of src/client, "Size"); the package root loads them all (see `ERROR_CODES`).
 */

/** The codes of `src/cli/cli-error.ts`'s error classes, which it registers. */
export const CLI_CLI_ERROR_CODES: ErrorTable = {
  SVC_ERR_CLI_USAGE: ['CliUsageError', 400],
};

/** The codes of `src/client/errors.ts`'s error classes, which it registers. */
export const CLIENT_ERRORS_CODES: ErrorTable = {
  SVC_ERR_CLIENT_BAD_OPTIONS: ['ClientOptionsError', 500],
  SVC_ERR_CLIENT_BAD_REQUEST: ['RequestBuildError', 500],
  SVC_ERR_CLIENT_ERROR_RESPONSE: ['ServiceResponseError', 502],
  SVC_ERR_CLIENT_INFLATED_TOO_LARGE: ['InflatedResponseTooLargeError', 502],
  SVC_ERR_CLIENT_RESPONSE_DECODE: ['ResponseDecodingError', 502],
  SVC_ERR_CLIENT_RESPONSE_TOO_LARGE: ['ResponseTooLargeError', 502],
  SVC_ERR_CLIENT_TIMEOUT: ['RequestTimeoutError', 504],
  SVC_ERR_CLIENT_TRANSPORT: ['TransportError', 502],
  SVC_ERR_CLIENT_VERSION_UNSUPPORTED: ['UnsupportedProtocolVersionError', 500],
};

/** The codes of `src/codegen/errors.ts`'s error classes, which it registers. */
export const CODEGEN_ERRORS_CODES: ErrorTable = {
  SVC_ERR_CODEGEN_BAD_BINDING: ['CodegenError', 400],
  SVC_ERR_CODEGEN_INPUT: ['CodegenError', 400],
  SVC_ERR_CODEGEN_NAME_CONFLICT: ['CodegenError', 400],
  SVC_ERR_CODEGEN_UNSUPPORTED: ['CodegenError', 400],
};

/** The codes of `src/data/errors.ts`'s error classes, which it registers. */
export const DATA_ERRORS_CODES: ErrorTable = {
  SVC_ERR_DATA_CLASS_CAST: ['ClassCastException', 500],
  SVC_ERR_DATA_CYCLE: ['IllegalDataValueException', 500],
  SVC_ERR_DATA_ENCODE: ['DataEncodingException', 500],
  SVC_ERR_DATA_ILLEGAL_VALUE: ['IllegalDataValueException', 500],
  SVC_ERR_DATA_INDEX_OUT_OF_BOUNDS: ['IndexOutOfBoundsException', 500],
  SVC_ERR_DATA_INVALID_BYTES_STRING: ['IllegalDataValueException', 400],
  SVC_ERR_DATA_INVALID_OPTION: ['InvalidOptionException', 500],
  SVC_ERR_DATA_JSON_DECODE: ['DataDecodingException', 400],
  SVC_ERR_DATA_PSON_DECODE: ['DataDecodingException', 400],
  SVC_ERR_DATA_READ_ONLY: ['UnsupportedOperationException', 500],
  SVC_ERR_DATA_UNKNOWN_CONTENT_TYPE: ['UnsupportedContentTypeException', 415],
  SVC_ERR_DATA_UNMODIFIABLE_VIEW: ['UnsupportedOperationException', 500],
};

/** The codes of `src/idl/compat/errors.ts`'s error classes, which it registers. */
export const IDL_COMPAT_ERRORS_CODES: ErrorTable = {
  SVC_ERR_COMPAT_FAILED: ['CompatCheckFailedError', 400],
  SVC_ERR_COMPAT_INPUT: ['CompatInputError', 400],
};

/** The codes of `src/idl/errors.ts`'s error classes, which it registers. */
export const IDL_ERRORS_CODES: ErrorTable = {
  SVC_ERR_IDL_FORMAT: ['IdlFormatError', 400],
  SVC_ERR_IDL_IMPORT: ['IdlImportError', 400],
};

/** The codes of `src/protocol/errors.ts`'s error classes, which it registers. */
export const PROTOCOL_ERRORS_CODES: ErrorTable = {
  SVC_ERR_PROTOCOL_ACTION_NOT_POST: ['MethodRoutingError', 400],
  SVC_ERR_PROTOCOL_AMBIGUOUS_METHOD: ['MethodRoutingError', 400],
  SVC_ERR_PROTOCOL_BAD_ACCEPT: ['ContentNegotiationError', 400],
  SVC_ERR_PROTOCOL_BAD_PARAMETER: ['InvalidParameterError', 400],
  SVC_ERR_PROTOCOL_BAD_RESPONSE: ['ResponseFormatError', 502],
  SVC_ERR_PROTOCOL_INVALID_KEY: ['InvalidKeyError', 400],
  SVC_ERR_PROTOCOL_MASK_SYNTAX: ['MaskSyntaxError', 400],
  SVC_ERR_PROTOCOL_METHOD_NOT_SUPPORTED: ['MethodRoutingError', 400],
  SVC_ERR_PROTOCOL_NOT_ACCEPTABLE: ['ContentNegotiationError', 406],
  SVC_ERR_PROTOCOL_QUERY_SYNTAX: ['QuerySyntaxError', 400],
  SVC_ERR_PROTOCOL_UNSUPPORTED_MEDIA_TYPE: ['ContentNegotiationError', 415],
  SVC_ERR_PROTOCOL_URI_SYNTAX: ['UriElementParseError', 400],
  SVC_ERR_PROTOCOL_VERSION_MALFORMED: ['ProtocolVersionError', 400],
  SVC_ERR_PROTOCOL_VERSION_UNSUPPORTED: ['ProtocolVersionError', 400],
};

/** The codes of `src/queue/errors.ts`'s error classes, which it registers. */
export const QUEUE_ERRORS_CODES: ErrorTable = {
  SVC_ERR_QUEUE_BAD_JOB: ['JobInputError', 400],
  SVC_ERR_QUEUE_BLOB_NOT_FOUND: ['BlobNotFoundError', 404],
  SVC_ERR_QUEUE_BLOB_WRITE: ['BlobWriteError', 507],
  SVC_ERR_QUEUE_JOB_CANCELLED: ['JobCancelledError', 409],
  SVC_ERR_QUEUE_JOB_NOT_FOUND: ['JobNotFoundError', 404],
  SVC_ERR_QUEUE_UNAVAILABLE: ['QueueUnavailableError', 503],
  SVC_ERR_QUEUE_UNRECOVERABLE: ['UnrecoverableJobError', 500],
  SVC_ERR_QUEUE_WORKER_SHUTDOWN: ['WorkerShutdownError', 503],
};

/** The codes of `src/replay/errors.ts`'s error classes, which it registers. */
export const REPLAY_ERRORS_CODES: ErrorTable = {
  SVC_ERR_REPLAY_DIFFERENT: ['ReplayMismatchError', 400],
  SVC_ERR_REPLAY_INPUT: ['ReplayInputError', 400],
};

/** The codes of `src/resources/errors.ts`'s error classes, which it registers. */
export const RESOURCES_ERRORS_CODES: ErrorTable = {
  SVC_ERR_ATTACH_BAD_PAYLOAD: ['RequestBodyError', 400],
  SVC_ERR_ATTACH_NOT_ACCEPTED: ['RequestBodyError', 400],
  SVC_ERR_ATTACH_UNKNOWN_PAYLOAD_TYPE: ['RequestBodyError', 415],
  SVC_ERR_BIND_BAD_BODY: ['RequestBodyError', 400],
  SVC_ERR_BIND_BAD_PARAMETER: ['ParameterBindingError', 400],
  SVC_ERR_BIND_BAD_PATCH: ['PatchError', 400],
  SVC_ERR_BIND_BATCH_TOO_LARGE: ['ParameterBindingError', 400],
  SVC_ERR_BIND_BODY_TOO_LARGE: ['RequestBodyError', 413],
  SVC_ERR_BIND_INPUT_VALIDATION: ['RequestValidationError', 422],
  SVC_ERR_BIND_MISSING_PARAMETER: ['ParameterBindingError', 400],
  SVC_ERR_BIND_PARAMETER_VALIDATION: ['RequestValidationError', 400],
  SVC_ERR_INVOKE_BAD_RESULT: ['InvalidResultError', 500],
  SVC_ERR_INVOKE_CLIENT_CLOSED: ['ClientClosedError', 499],
  SVC_ERR_INVOKE_NULL_RESULT: ['NullResultError', 500],
  SVC_ERR_INVOKE_OUTPUT_VALIDATION: ['OutputValidationError', 500],
  SVC_ERR_INVOKE_TIMEOUT: ['HandlerTimeoutError', 504],
  SVC_ERR_PROTOCOL_HEADERS_TOO_LARGE: ['HttpClientError', 431],
  SVC_ERR_PROTOCOL_MALFORMED_HTTP: ['HttpClientError', 400],
  SVC_ERR_PROTOCOL_REQUEST_TIMEOUT: ['HttpClientError', 408],
  SVC_ERR_ROUTE_BAD_DEFINITION: ['ResourceDefinitionError', 500],
  SVC_ERR_ROUTE_BAD_OPTIONS: ['SvcPluginOptionsError', 500],
  SVC_ERR_ROUTE_NOT_FOUND: ['ResourceNotFoundError', 404],
  SVC_ERR_TUNNEL_BAD_OVERRIDE: ['TunnelingError', 400],
  SVC_ERR_TUNNEL_MALFORMED: ['TunnelingError', 400],
  SVC_ERR_TUNNEL_TOO_LARGE: ['TunnelingError', 413],
  SVC_ERR_TUNNEL_UNSUPPORTED_TYPE: ['TunnelingError', 415],
};

/** The codes of `src/runtime/errors.ts`'s error classes, which it registers. */
export const RUNTIME_ERRORS_CODES: ErrorTable = {
  SVC_ERR_RUNTIME_CRASH_LOOP: ['CrashLoopError', 500],
  SVC_ERR_RUNTIME_OVERLOADED: ['ServiceOverloadedError', 503],
  SVC_ERR_RUNTIME_SHUTTING_DOWN: ['ShuttingDownError', 503],
};

/** The codes of `src/schema/avro/errors.ts`'s error classes, which it registers. */
export const SCHEMA_AVRO_ERRORS_CODES: ErrorTable = {
  SVC_ERR_AVRO_BAD_OPTIONS: ['AvroOptionsError', 500],
  SVC_ERR_AVRO_DATA_TRANSLATION: ['DataTranslationError', 400],
  SVC_ERR_AVRO_EMBEDDED_SCHEMA: ['SchemaTranslationError', 400],
  SVC_ERR_AVRO_SCHEMA_PARSE: ['SchemaTranslationError', 400],
  SVC_ERR_AVRO_SCHEMA_TRANSLATION: ['SchemaTranslationError', 400],
};

/** The codes of `src/schema/nesting-depth-error.ts`'s error classes, which it registers. */
export const SCHEMA_NESTING_DEPTH_ERROR_CODES: ErrorTable = {
  SVC_ERR_AVRO_DATA_TOO_DEEP: ['NestingDepthError', 400],
  SVC_ERR_SCHEMA_DATA_TOO_DEEP: ['NestingDepthError', 500],
};

/** The codes of `src/schema/schema-parse-error.ts`'s error classes, which it registers. */
export const SCHEMA_SCHEMA_PARSE_ERROR_CODES: ErrorTable = {
  SVC_ERR_SCHEMA_NOT_FOUND: ['SchemaParseError', 404],
  SVC_ERR_SCHEMA_PARSE: ['SchemaParseError', 400],
};

/** The codes of `src/schema/validation/validation-error.ts`'s error classes, which it registers. */
export const SCHEMA_VALIDATION_VALIDATION_ERROR_CODES: ErrorTable = {
  SVC_ERR_VALIDATE_INVALID: ['DataValidationError', 422],
};

/** The codes of `src/schema/validation/validation-options.ts`'s error classes, which it registers. */
export const SCHEMA_VALIDATION_VALIDATION_OPTIONS_CODES: ErrorTable = {
  SVC_ERR_VALIDATE_BAD_OPTIONS: ['ValidationOptionsError', 500],
};

/** The codes of `src/security/errors.ts`'s error classes, which it registers. */
export const SECURITY_ERRORS_CODES: ErrorTable = {
  SVC_ERR_AUTH_FORBIDDEN: ['AccessDeniedError', 403],
  SVC_ERR_AUTH_MALFORMED: ['AuthenticationError', 400],
  SVC_ERR_AUTH_OPTIONS: ['SecurityOptionsError', 500],
  SVC_ERR_AUTH_RATE_LIMITED: ['RateLimitedError', 429],
  SVC_ERR_AUTH_UNAUTHENTICATED: ['AuthenticationError', 401],
};

/** The codes of `src/server/compression.ts`'s error classes, which it registers. */
export const SERVER_COMPRESSION_CODES: ErrorTable = {
  SVC_ERR_BIND_BODY_TOO_LARGE: ['RequestBodyError', 413],
  SVC_ERR_PROTOCOL_BAD_ENCODED_BODY: ['BadEncodedBodyError', 400],
  SVC_ERR_PROTOCOL_UNSUPPORTED_ENCODING: ['UnsupportedEncodingError', 415],
};

/** The codes of `src/server/mux.ts`'s error classes, which it registers. */
export const SERVER_MUX_CODES: ErrorTable = {
  SVC_ERR_BIND_BODY_TOO_LARGE: ['RequestBodyError', 413],
  SVC_ERR_PROTOCOL_MUX_BAD_REQUEST: ['MultiplexedRequestError', 400],
  SVC_ERR_PROTOCOL_MUX_MEDIA_TYPE: ['MultiplexedRequestError', 415],
  SVC_ERR_PROTOCOL_MUX_METHOD: ['MultiplexedRequestError', 405],
};

/** The codes of `src/streams/errors.ts`'s error classes, which it registers. */
export const STREAMS_ERRORS_CODES: ErrorTable = {
  SVC_ERR_ATTACH_ABORTED: ['AttachmentAbortedError', 500],
  SVC_ERR_ATTACH_ILLEGAL_STATE: ['AttachmentStateError', 500],
  SVC_ERR_ATTACH_STREAM: ['AttachmentStreamError', 400],
};

/** The codes of `src/streams/multipart/errors.ts`'s error classes, which it registers. */
export const STREAMS_MULTIPART_ERRORS_CODES: ErrorTable = {
  SVC_ERR_TUNNEL_MULTIPART_MALFORMED: ['MultipartFormatError', 400],
  SVC_ERR_TUNNEL_MULTIPART_TOO_LARGE: ['MultipartFormatError', 413],
};

/** The codes of `src/templates/errors.ts`'s error classes, which it registers. */
export const TEMPLATES_ERRORS_CODES: ErrorTable = {
  SVC_ERR_TEMPLATE_ILLEGAL_ARGUMENT: ['IllegalArgumentException', 500],
  SVC_ERR_TEMPLATE_NO_COERCER: ['MissingCoercerException', 500],
  SVC_ERR_TEMPLATE_NULL_UNION: ['NullUnionUnsupportedOperationException', 500],
  SVC_ERR_TEMPLATE_NULL_VALUE: ['NullValueException', 500],
  SVC_ERR_TEMPLATE_OUTPUT_CAST: ['TemplateOutputCastException', 500],
  SVC_ERR_TEMPLATE_REQUIRED_FIELD_MISSING: ['RequiredFieldNotPresentException', 500],
  SVC_ERR_TEMPLATE_SCHEMA_CONFLICT: ['TemplateSchemaException', 500],
  SVC_ERR_TEMPLATE_SCHEMA_MISSING: ['TemplateSchemaException', 500],
};
