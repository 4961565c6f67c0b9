/**
 * The one registry of Svc error codes (see `docs/errors.md`, kept in step by a test).
 *
 * Each code names the area (`SVC_ERR_<AREA>_<WHAT>`), the error class that carries it, the HTTP status
 * it maps to at the edge, and a one-line summary. Codes are stable: never reuse or rename one.
 */
export interface ErrorCodeInfo {
  /** The `name` of the error class thrown with this code. */
  readonly errorName: string;
  /** HTTP status used when this error reaches the HTTP edge. */
  readonly status: number;
  /** One line for `docs/errors.md`. */
  readonly summary: string;
}

/** Every stable `SVC_ERR_*` code, with the error class name and HTTP status it goes with (docs/errors.md). */
export const ERROR_CODES = {
  SVC_ERR_DATA_READ_ONLY: {
    errorName: 'UnsupportedOperationException',
    status: 500,
    summary: 'A read-only DataMap or DataList was mutated.',
  },
  SVC_ERR_DATA_UNMODIFIABLE_VIEW: {
    errorName: 'UnsupportedOperationException',
    status: 500,
    summary: 'An unmodifiable view (keySet, entrySet, values) was mutated.',
  },
  SVC_ERR_DATA_ILLEGAL_VALUE: {
    errorName: 'IllegalDataValueException',
    status: 500,
    summary:
      'A value that the data layer cannot hold (undefined, null, a function, a plain object, a long out of range, a string with a lone surrogate, a key with U+0000...) was inserted.',
  },
  SVC_ERR_DATA_CYCLE: {
    errorName: 'IllegalDataValueException',
    status: 500,
    summary: 'Inserting the container would make the object graph cyclic.',
  },
  SVC_ERR_DATA_INDEX_OUT_OF_BOUNDS: {
    errorName: 'IndexOutOfBoundsException',
    status: 500,
    summary: 'A DataList or ByteString index is outside its bounds.',
  },
  SVC_ERR_DATA_CLASS_CAST: {
    errorName: 'ClassCastException',
    status: 500,
    summary: 'A typed accessor found a value of another type.',
  },
  SVC_ERR_DATA_INVALID_BYTES_STRING: {
    errorName: 'IllegalDataValueException',
    status: 400,
    summary: 'A string meant to hold bytes has a character above U+00FF.',
  },
  SVC_ERR_DATA_JSON_DECODE: {
    errorName: 'DataDecodingException',
    status: 400,
    summary:
      'Malformed or hostile JSON input (too deep, a lone surrogate, U+0000 in a key...); the message names the byte offset.',
  },
  SVC_ERR_DATA_PSON_DECODE: {
    errorName: 'DataDecodingException',
    status: 400,
    summary: 'Malformed, truncated or hostile PSON input; the message names the byte offset.',
  },
  SVC_ERR_DATA_ENCODE: {
    errorName: 'DataEncodingException',
    status: 500,
    summary: 'A value could not be encoded.',
  },
  SVC_ERR_DATA_INVALID_OPTION: {
    errorName: 'InvalidOptionException',
    status: 500,
    summary:
      'A codec was configured with an option value it cannot use (e.g. a maxDepth that is not a positive integer).',
  },
  SVC_ERR_DATA_UNKNOWN_CONTENT_TYPE: {
    errorName: 'UnsupportedContentTypeException',
    status: 415,
    summary: 'No codec is registered for the content type.',
  },
  SVC_ERR_CLI_USAGE: {
    errorName: 'CliUsageError',
    status: 400,
    summary: 'The svc command was called with a bad argument or an unreadable input.',
  },
  SVC_ERR_SCHEMA_PARSE: {
    errorName: 'SchemaParseError',
    status: 400,
    summary:
      'Schema text or a schema file has problems; the error lists every problem with its file, JSON path, line and column.',
  },
  SVC_ERR_SCHEMA_NOT_FOUND: {
    errorName: 'SchemaParseError',
    status: 404,
    summary: 'A named schema was not found on the resolver path; the message lists the files tried.',
  },
  SVC_ERR_SCHEMA_DATA_TOO_DEEP: {
    errorName: 'NestingDepthError',
    status: 500,
    summary:
      'Filling in defaults met data nested deeper than MAX_NESTING_DEPTH (1000) levels; the message names the limit.',
  },
  SVC_ERR_VALIDATE_BAD_OPTIONS: {
    errorName: 'ValidationOptionsError',
    status: 500,
    summary: 'Validation options name an unknown required, coercion or unrecognized-field mode.',
  },
  SVC_ERR_VALIDATE_INVALID: {
    errorName: 'DataValidationError',
    status: 422,
    summary:
      'Data does not conform to its schema; the message lists every validation message (`ERROR :: /path :: text`).',
  },
  SVC_ERR_AVRO_SCHEMA_TRANSLATION: {
    errorName: 'SchemaTranslationError',
    status: 400,
    summary:
      'A schema cannot be translated to the Avro format (e.g. a union default that is not of the first member); the message names the schema and field path (`ERROR :: /com.ex.D/u :: ...`).',
  },
  SVC_ERR_AVRO_SCHEMA_PARSE: {
    errorName: 'SchemaTranslationError',
    status: 400,
    summary:
      'Avro schema text is malformed, refers to a name that no .avsc file on the path defines, or has a default that does not fit; the message says where.',
  },
  SVC_ERR_AVRO_EMBEDDED_SCHEMA: {
    errorName: 'SchemaTranslationError',
    status: 400,
    summary:
      'The schema embedded in an Avro schema (`com.linkedin.data`) is invalid, or does not translate back to that Avro schema (VERIFY_EMBEDDED_SCHEMA).',
  },
  SVC_ERR_AVRO_DATA_TRANSLATION: {
    errorName: 'DataTranslationError',
    status: 400,
    summary:
      'Data does not fit the schema pair while translating between a DataMap and an Avro generic record; the message names the path.',
  },
  SVC_ERR_AVRO_BAD_OPTIONS: {
    errorName: 'AvroOptionsError',
    status: 500,
    summary: 'Avro translation options name an unknown mode or JSON style.',
  },
  SVC_ERR_AVRO_DATA_TOO_DEEP: {
    errorName: 'NestingDepthError',
    status: 400,
    summary:
      'Data translated between a DataMap and an Avro generic record is nested deeper than MAX_NESTING_DEPTH (1000) levels; the message names the limit.',
  },
  SVC_ERR_TEMPLATE_OUTPUT_CAST: {
    errorName: 'TemplateOutputCastException',
    status: 500,
    summary:
      'Stored data cannot be wrapped, cast or coerced to the binding type (also a union whose member cannot be determined, or a getter of another union member).',
  },
  SVC_ERR_TEMPLATE_REQUIRED_FIELD_MISSING: {
    errorName: 'RequiredFieldNotPresentException',
    status: 500,
    summary: 'A strict getter found a required field absent and without a default.',
  },
  SVC_ERR_TEMPLATE_ILLEGAL_ARGUMENT: {
    errorName: 'IllegalArgumentException',
    status: 500,
    summary:
      'A template operation got an argument it cannot accept (null for a required field in REMOVE_OPTIONAL_IF_NULL mode, a second coercer for a custom class).',
  },
  SVC_ERR_TEMPLATE_NULL_VALUE: {
    errorName: 'NullValueException',
    status: 500,
    summary: 'null or undefined was set in DISALLOW_NULL mode or as a union member value.',
  },
  SVC_ERR_TEMPLATE_NULL_UNION: {
    errorName: 'NullUnionUnsupportedOperationException',
    status: 500,
    summary: 'A member was set on a null union; a null union stays null.',
  },
  SVC_ERR_TEMPLATE_SCHEMA_CONFLICT: {
    errorName: 'TemplateSchemaException',
    status: 500,
    summary: 'Two generated modules registered different schemas under the same name.',
  },
  SVC_ERR_TEMPLATE_SCHEMA_MISSING: {
    errorName: 'TemplateSchemaException',
    status: 500,
    summary:
      'A generated class needs a schema that no loaded generated module registered, or that does not parse.',
  },
  SVC_ERR_TEMPLATE_NO_COERCER: {
    errorName: 'MissingCoercerException',
    status: 500,
    summary: 'A custom-bound value was converted before a coercer was registered for its class.',
  },
  SVC_ERR_CODEGEN_INPUT: {
    errorName: 'CodegenError',
    status: 400,
    summary: 'A schema argument of the generator is neither a readable file nor a valid schema name.',
  },
  SVC_ERR_CODEGEN_NAME_CONFLICT: {
    errorName: 'CodegenError',
    status: 400,
    summary: 'Two generated classes or accessors would get the same name; the message names both schemas.',
  },
  SVC_ERR_CODEGEN_UNSUPPORTED: {
    errorName: 'CodegenError',
    status: 400,
    summary:
      'A schema cannot be bound to a class (a top-level union without typeref, a custom binding on a non-primitive type).',
  },
  SVC_ERR_CODEGEN_BAD_BINDING: {
    errorName: 'CodegenError',
    status: 400,
    summary: 'A typescript or java binding attribute of a typeref is malformed.',
  },
  SVC_ERR_PROTOCOL_URI_SYNTAX: {
    errorName: 'UriElementParseError',
    status: 400,
    summary:
      "A value in the Rest.li 2.0 URI grammar (`List(...)`, `(k:v)`, `''`, percent-escapes) is malformed; the message names the offending token and its column.",
  },
  SVC_ERR_PROTOCOL_QUERY_SYNTAX: {
    errorName: 'QuerySyntaxError',
    status: 400,
    summary:
      'The query string cannot be read: a repeated parameter, a parameter value that is not in the URI grammar, or a bad escape in a parameter name.',
  },
  SVC_ERR_PROTOCOL_INVALID_KEY: {
    errorName: 'InvalidKeyError',
    status: 400,
    summary:
      "A resource key in the path, in `ids` or in a body map is malformed or does not fit the resource's key type.",
  },
  SVC_ERR_PROTOCOL_MASK_SYNTAX: {
    errorName: 'MaskSyntaxError',
    status: 400,
    summary: 'A projection mask (`fields`, `metadataFields`, `pagingFields`) is malformed.',
  },
  SVC_ERR_PROTOCOL_VERSION_MALFORMED: {
    errorName: 'ProtocolVersionError',
    status: 400,
    summary: 'The protocol version header is not three dot-separated integers.',
  },
  SVC_ERR_PROTOCOL_VERSION_UNSUPPORTED: {
    errorName: 'ProtocolVersionError',
    status: 400,
    summary: 'The protocol version the client used is outside the supported range [1.0.0, 2.0.0].',
  },
  SVC_ERR_PROTOCOL_METHOD_NOT_SUPPORTED: {
    errorName: 'MethodRoutingError',
    status: 400,
    summary:
      'The HTTP method, the method header and the URI together name no resource method (e.g. POST with a finder).',
  },
  SVC_ERR_PROTOCOL_AMBIGUOUS_METHOD: {
    errorName: 'MethodRoutingError',
    status: 400,
    summary:
      'A GET names both a finder (`q`) and a batch finder (`bq`); the reference lets `q` win, Svc (which reserves `bq` as a parameter name) refuses it.',
  },
  SVC_ERR_PROTOCOL_ACTION_NOT_POST: {
    errorName: 'MethodRoutingError',
    status: 400,
    summary: 'An action (`?action=`) was sent with an HTTP method other than POST.',
  },
  SVC_ERR_PROTOCOL_BAD_ACCEPT: {
    errorName: 'ContentNegotiationError',
    status: 400,
    summary: 'The Accept header holds a media range that is not a media type.',
  },
  SVC_ERR_PROTOCOL_NOT_ACCEPTABLE: {
    errorName: 'ContentNegotiationError',
    status: 406,
    summary: 'None of the types in the Accept header can be produced.',
  },
  SVC_ERR_PROTOCOL_UNSUPPORTED_MEDIA_TYPE: {
    errorName: 'ContentNegotiationError',
    status: 415,
    summary: 'The request Content-Type names a body format the server does not read.',
  },
  SVC_ERR_PROTOCOL_BAD_PARAMETER: {
    errorName: 'InvalidParameterError',
    status: 400,
    summary:
      'A framework query parameter has a bad value (non-integer or negative `start`/`count`, `$returnEntity` other than true/false).',
  },
  SVC_ERR_PROTOCOL_BAD_RESPONSE: {
    errorName: 'ResponseFormatError',
    status: 502,
    summary:
      "A response body does not have the shape of its method's envelope (a client reading a peer's response).",
  },
  SVC_ERR_TUNNEL_BAD_OVERRIDE: {
    errorName: 'TunnelingError',
    status: 400,
    summary:
      'A tunneled request has an X-HTTP-Method-Override other than exactly one of GET, POST, PUT, DELETE, OPTIONS (case-sensitive, one header), or the override is on a method other than POST.',
  },
  SVC_ERR_TUNNEL_MALFORMED: {
    errorName: 'TunnelingError',
    status: 400,
    summary:
      'A tunneled request cannot be restored: a `multipart/mixed` body without a boundary, without a form-urlencoded query part, or with more than two parts.',
  },
  SVC_ERR_TUNNEL_UNSUPPORTED_TYPE: {
    errorName: 'TunnelingError',
    status: 415,
    summary:
      'A tunneled request body is neither `application/x-www-form-urlencoded` nor `multipart/mixed`, has no Content-Type, or one of its parts has none.',
  },
  SVC_ERR_TUNNEL_TOO_LARGE: {
    errorName: 'TunnelingError',
    status: 413,
    summary: "A tunneled request's query or body part is larger than the tunneling filter's `maxBodyBytes`.",
  },
  SVC_ERR_TUNNEL_MULTIPART_MALFORMED: {
    errorName: 'MultipartFormatError',
    status: 400,
    summary:
      'A multipart envelope does not parse: no opening or closing delimiter, a part cut short, more parts than `maxParts`.',
  },
  SVC_ERR_TUNNEL_MULTIPART_TOO_LARGE: {
    errorName: 'MultipartFormatError',
    status: 413,
    summary: 'A part of a buffered multipart envelope is larger than `maxPartBytes`.',
  },
  SVC_ERR_PROTOCOL_MALFORMED_HTTP: {
    errorName: 'HttpClientError',
    status: 400,
    summary:
      "Node's HTTP parser refused the request (malformed framing, an unknown method such as BREW); answered by `svcClientErrorHandler`.",
  },
  SVC_ERR_PROTOCOL_HEADERS_TOO_LARGE: {
    errorName: 'HttpClientError',
    status: 431,
    summary: "The request headers exceed Node's limit (16 KiB by default).",
  },
  SVC_ERR_PROTOCOL_REQUEST_TIMEOUT: {
    errorName: 'HttpClientError',
    status: 408,
    summary:
      "The request did not arrive in full within the server's `requestTimeout` (see `svcServerOptions`).",
  },
  SVC_ERR_CLIENT_BAD_OPTIONS: {
    errorName: 'ClientOptionsError',
    status: 500,
    summary:
      'A client was created with an option it cannot use (a bad baseUrl, header prefix, content type, accept type, timeout, header or fetch).',
  },
  SVC_ERR_CLIENT_VERSION_UNSUPPORTED: {
    errorName: 'UnsupportedProtocolVersionError',
    status: 500,
    summary:
      'The protocol version a client was configured with, or the one the server announces, cannot be encoded: the client writes 2.0.0 only.',
  },
  SVC_ERR_CLIENT_BAD_REQUEST: {
    errorName: 'RequestBuildError',
    status: 500,
    summary:
      'A client request description cannot be built (a missing or unused path key, a reserved query parameter name, a duplicate batch key, an unencodable body).',
  },
  SVC_ERR_CLIENT_ERROR_RESPONSE: {
    errorName: 'ServiceResponseError',
    status: 502,
    summary:
      'A server answered a client request with a non-2xx status; the error carries the status, the headers and the decoded ErrorResponse.',
  },
  SVC_ERR_CLIENT_TIMEOUT: {
    errorName: 'RequestTimeoutError',
    status: 504,
    summary: 'A client request got no complete response within its timeout.',
  },
  SVC_ERR_CLIENT_TRANSPORT: {
    errorName: 'TransportError',
    status: 502,
    summary:
      'A client request could not be sent or its response not read (connection refused or reset, DNS failure); the cause is chained.',
  },
  SVC_ERR_CLIENT_RESPONSE_TOO_LARGE: {
    errorName: 'ResponseTooLargeError',
    status: 502,
    summary:
      "A response body is larger than the client's maxResponseBytes (default 64 MiB); the client stops reading and drops the connection.",
  },
  SVC_ERR_CLIENT_INFLATED_TOO_LARGE: {
    errorName: 'InflatedResponseTooLargeError',
    status: 502,
    summary:
      "A compressed response inflates past compressedFetch's maxInflatedBytes (default 64 MiB); inflating stops there and the body is not read further.",
  },
  SVC_ERR_CLIENT_RESPONSE_DECODE: {
    errorName: 'ResponseDecodingError',
    status: 502,
    summary:
      "A success response body cannot be read by the client: malformed JSON or PSON, an unknown Content-Type, or a body not shaped like its method's envelope.",
  },
  SVC_ERR_ROUTE_BAD_DEFINITION: {
    errorName: 'ResourceDefinitionError',
    status: 500,
    summary:
      'A resource definition is invalid (a duplicate or reserved name, a bad parameter type, a default of the wrong type...); the message names the resource, the method and the parameter.',
  },
  SVC_ERR_ROUTE_BAD_OPTIONS: {
    errorName: 'SvcPluginOptionsError',
    status: 500,
    summary:
      'The options of the resource server plugin (`svcPlugin`) are invalid; the message names the option.',
  },
  SVC_ERR_ROUTE_NOT_FOUND: {
    errorName: 'ResourceNotFoundError',
    status: 404,
    summary:
      "No resource is defined for the request path (`No root resource defined for path '/x'`), or the path goes deeper than the resource.",
  },
  SVC_ERR_BIND_MISSING_PARAMETER: {
    errorName: 'ParameterBindingError',
    status: 400,
    summary: "A required query or action parameter is absent (`Parameter 'x' is required`).",
  },
  SVC_ERR_BIND_BAD_PARAMETER: {
    errorName: 'ParameterBindingError',
    status: 400,
    summary:
      'A query, action or association-key parameter cannot be coerced to its declared type; the message names the parameter and its value.',
  },
  SVC_ERR_BIND_BATCH_TOO_LARGE: {
    errorName: 'ParameterBindingError',
    status: 400,
    summary:
      "A batch request carries more items (ids, elements, criteria) than its method's `maxBatchSize`, or the server's (default 1 000): `The request batch size: N is larger than the allowed max batch size: M for method: batch_get` (a batch finder by its name).",
  },
  SVC_ERR_BIND_BAD_BODY: {
    errorName: 'RequestBodyError',
    status: 400,
    summary:
      'The request body is missing, does not decode, or does not have the shape the method takes (an entity map, `{"elements":[...]}`, `{"entities":{...}}`, `{"patch":{...}}`); or batch body keys do not match `ids`.',
  },
  SVC_ERR_BIND_BODY_TOO_LARGE: {
    errorName: 'RequestBodyError',
    status: 413,
    summary: "The request body is larger than the server's `maxBodyBytes`.",
  },
  SVC_ERR_BIND_BAD_PATCH: {
    errorName: 'PatchError',
    status: 400,
    summary:
      'A partial update patch is malformed (`$set` not a map, `$delete` not a list, a field in two operations) or does not fit the entity it is applied to.',
  },
  SVC_ERR_BIND_INPUT_VALIDATION: {
    errorName: 'RequestValidationError',
    status: 422,
    summary:
      'The opt-in validation filter found the request body invalid against its schema; the message lists the validation messages (`Key: k, ...` or `Index: i, ...` per batch item).',
  },
  SVC_ERR_BIND_PARAMETER_VALIDATION: {
    errorName: 'RequestValidationError',
    status: 400,
    summary:
      'The opt-in validation filter found a query parameter or key invalid against its schema (`Input field validation failure, reason: ...`).',
  },
  SVC_ERR_INVOKE_NULL_RESULT: {
    errorName: 'NullResultError',
    status: 500,
    summary:
      'A resource handler returned null or undefined (or an Observable that completed empty) where a result is required (`Unexpected null encountered. Null returned by the resource method: ...`).',
  },
  SVC_ERR_INVOKE_BAD_RESULT: {
    errorName: 'InvalidResultError',
    status: 500,
    summary:
      "A resource handler returned a value of the wrong shape (not an entity of the resource's class, a bad status, an unknown batch key...).",
  },
  SVC_ERR_INVOKE_TIMEOUT: {
    errorName: 'HandlerTimeoutError',
    status: 504,
    summary:
      "A request took longer than its resource's (or the server's) `timeout`: answered 504, `ctx.signal` aborted and every handler Observable unsubscribed.",
  },
  SVC_ERR_INVOKE_CLIENT_CLOSED: {
    errorName: 'ClientClosedError',
    status: 499,
    summary:
      'The client closed the connection before the response was ready: `ctx.signal` aborts with it and every handler Observable is unsubscribed (nothing is sent).',
  },
  SVC_ERR_INVOKE_OUTPUT_VALIDATION: {
    errorName: 'OutputValidationError',
    status: 500,
    summary:
      "What a resource handler returned does not fit its schema (the validation filter's `outputs` option, on in development mode); the message names every failing path.",
  },
  SVC_ERR_ATTACH_NOT_ACCEPTED: {
    errorName: 'RequestBodyError',
    status: 400,
    summary:
      'The request carries attachments but its method declares no attachments parameter (`Resource method endpoint invoked does not accept any request attachments.`); the attachments are drained.',
  },
  SVC_ERR_ATTACH_BAD_PAYLOAD: {
    errorName: 'RequestBodyError',
    status: 400,
    summary:
      'A `multipart/related` request whose first part has no Content-Type, or whose envelope is malformed or empty.',
  },
  SVC_ERR_ATTACH_UNKNOWN_PAYLOAD_TYPE: {
    errorName: 'RequestBodyError',
    status: 415,
    summary: 'The first part of a `multipart/related` request has a Content-Type no codec reads.',
  },
  SVC_ERR_ATTACH_ILLEGAL_STATE: {
    errorName: 'AttachmentStateError',
    status: 500,
    summary:
      'An attachment write handle or reader used against its contract: a write with no remaining capacity or after done()/error(), a second reader callback, a read with one outstanding or after the end.',
  },
  SVC_ERR_ATTACH_STREAM: {
    errorName: 'AttachmentStreamError',
    status: 400,
    summary:
      'An attachment stream ended abnormally: a writer failed, a part broke off, or an attachment part has no Content-ID.',
  },
  SVC_ERR_ATTACH_ABORTED: {
    errorName: 'AttachmentAbortedError',
    status: 500,
    summary:
      'The reason writers and readers get when their exchange is abandoned (an error elsewhere in the request, a consumer that unsubscribed or hung up).',
  },
  SVC_ERR_QUEUE_BLOB_NOT_FOUND: {
    errorName: 'BlobNotFoundError',
    status: 404,
    summary: 'A blob id names no blob in the blob store (never stored, deleted, or not an id).',
  },
  SVC_ERR_QUEUE_BLOB_WRITE: {
    errorName: 'BlobWriteError',
    status: 507,
    summary:
      'A blob could not be stored (disk full, directory unwritable, the source failed); nothing of it is visible.',
  },
  SVC_ERR_QUEUE_UNAVAILABLE: {
    errorName: 'QueueUnavailableError',
    status: 503,
    summary:
      'The job queue cannot take a job now (Redis unreachable); the blobs stored for it are removed, and a later request may succeed.',
  },
  SVC_ERR_QUEUE_JOB_NOT_FOUND: {
    errorName: 'JobNotFoundError',
    status: 404,
    summary: 'A job id names no job (never enqueued, or forgotten after its retention).',
  },
  SVC_ERR_QUEUE_JOB_CANCELLED: {
    errorName: 'JobCancelledError',
    status: 409,
    summary:
      "The reason a cancelled job's processor sees on its signal, and the job's error once it is CANCELLED.",
  },
  SVC_ERR_QUEUE_UNRECOVERABLE: {
    errorName: 'UnrecoverableJobError',
    status: 500,
    summary:
      'A processor failed in a way retrying cannot fix (or no processor is registered for the job name): the job fails at once, without further attempts.',
  },
  SVC_ERR_QUEUE_WORKER_SHUTDOWN: {
    errorName: 'WorkerShutdownError',
    status: 503,
    summary:
      "The reason a running job's signal is aborted when its worker shuts down: the attempt is released to another worker, not failed.",
  },
  SVC_ERR_QUEUE_BAD_JOB: {
    errorName: 'JobInputError',
    status: 400,
    summary: 'An enqueue with a bad job name, payload, options or blob id (names the field and the reason).',
  },
  SVC_ERR_IDL_FORMAT: {
    errorName: 'IdlFormatError',
    status: 400,
    summary:
      'A .restspec.json or .snapshot.json file (or an IDL object) does not fit the format: the message names the file and the JSON path of each problem.',
  },
  SVC_ERR_IDL_IMPORT: {
    errorName: 'IdlImportError',
    status: 400,
    summary:
      'An IDL file cannot be turned into an interface module: a type that names no schema on the resolver path or in the snapshots, a key or criteria type Svc cannot express; names the file, the JSON path and the reason.',
  },
  SVC_ERR_COMPAT_INPUT: {
    errorName: 'CompatInputError',
    status: 400,
    summary:
      'An input of the compatibility checker is unreadable or malformed (a missing file, bad JSON, an invalid snapshot, a schema that does not parse): names the file and the JSON path.',
  },
  SVC_ERR_COMPAT_FAILED: {
    errorName: 'CompatCheckFailedError',
    status: 400,
    summary:
      'The compatibility check found changes that the requested level does not allow (backwards: breaking or wire-compatible changes; equivalent: any change).',
  },
  SVC_ERR_PROTOCOL_UNSUPPORTED_ENCODING: {
    errorName: 'UnsupportedEncodingError',
    status: 415,
    summary:
      "A request's Content-Encoding is one the server does not read (or *), or a compressed multipart/related body: `Unsupported encoding referenced: x`.",
  },
  SVC_ERR_PROTOCOL_BAD_ENCODED_BODY: {
    errorName: 'BadEncodedBodyError',
    status: 400,
    summary:
      'A request body sent with a Content-Encoding does not decode with it: `Cannot properly decode stream: gzip`.',
  },
  SVC_ERR_PROTOCOL_MUX_BAD_REQUEST: {
    errorName: 'MultiplexedRequestError',
    status: 400,
    summary:
      'A /mux request is refused: not a MultiplexedRequestContent, no requests, more than maxRequests, a header not allowed, a nested /mux (the message says which).',
  },
  SVC_ERR_PROTOCOL_MUX_METHOD: {
    errorName: 'MultiplexedRequestError',
    status: 405,
    summary: 'A request to /mux is not a POST: `Invalid method`.',
  },
  SVC_ERR_PROTOCOL_MUX_MEDIA_TYPE: {
    errorName: 'MultiplexedRequestError',
    status: 415,
    summary:
      'A /mux envelope or an individual request names a Content-Type no codec reads, or multipart (attachments cannot be multiplexed).',
  },
  SVC_ERR_REPLAY_INPUT: {
    errorName: 'ReplayInputError',
    status: 400,
    summary:
      'A recording given to svc replay is unreadable: a missing file, text that is neither a HAR file nor a request log, an entry without a method or path; names the file and the entry.',
  },
  SVC_ERR_REPLAY_DIFFERENT: {
    errorName: 'ReplayMismatchError',
    status: 400,
    summary:
      'svc replay found exchanges whose status, protocol headers or bodies differ between the old and the new service (the report lists them).',
  },
  SVC_ERR_RUNTIME_OVERLOADED: {
    errorName: 'ServiceOverloadedError',
    status: 503,
    summary:
      'The service is over its load-shedding thresholds (event-loop delay or heap): the request was refused before any work, with Retry-After.',
  },
  SVC_ERR_RUNTIME_SHUTTING_DOWN: {
    errorName: 'ShuttingDownError',
    status: 503,
    summary:
      'The process is shutting down: a request that arrived on an open connection after the signal was refused (Connection: close); retry on another instance.',
  },
  SVC_ERR_RUNTIME_CRASH_LOOP: {
    errorName: 'CrashLoopError',
    status: 500,
    summary:
      'Workers of the multi-process runner kept dying (more restarts within the window than allowed): the runner stopped the rest and exited non-zero.',
  },
  SVC_ERR_AUTH_UNAUTHENTICATED: {
    errorName: 'AuthenticationError',
    status: 401,
    summary:
      'The request carries no credential, or one that does not verify (a bearer token that is expired, for another issuer or audience, badly signed; an untrusted client certificate): 401 with WWW-Authenticate, naming no failed check.',
  },
  SVC_ERR_AUTH_MALFORMED: {
    errorName: 'AuthenticationError',
    status: 400,
    summary:
      'The Authorization header is malformed (a Bearer scheme without a token, more than one Authorization header): 400 with WWW-Authenticate error="invalid_request" (RFC 6750 §3.1).',
  },
  SVC_ERR_AUTH_FORBIDDEN: {
    errorName: 'AccessDeniedError',
    status: 403,
    summary:
      'The caller is authenticated but the access rule of the method does not admit it (scopes, roles or a rule function): 403 with WWW-Authenticate error="insufficient_scope".',
  },
  SVC_ERR_AUTH_RATE_LIMITED: {
    errorName: 'RateLimitedError',
    status: 429,
    summary:
      'The caller (its identity, or its address when anonymous) made more requests than its rate limit allows: 429 with Retry-After.',
  },
  SVC_ERR_AUTH_OPTIONS: {
    errorName: 'SecurityOptionsError',
    status: 500,
    summary:
      'Bad options for an authentication, authorization, rate limit or TLS setting (src/security/): names the option.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** One of the stable error codes of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The error class names that carry the given code. */
export type ErrorNameOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]['errorName'];
