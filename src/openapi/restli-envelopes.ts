import type { ProtocolHeaderNames } from '../protocol/headers';
import { schemaRef } from './json-schema';
import type { JsonSchema } from './openapi-model';

/**
 * The protocol's own records (com.linkedin.restli.common) as JSON Schemas, and the Markdown guide to the
 * protocol that the document's description carries: what a reader who knows OpenAPI but not Rest.li needs
 * to read the operations (src/protocol/envelopes.ts and error-response.ts are the facts).
 */

const INT32: JsonSchema = { type: 'integer', format: 'int32' };
const ERROR_RESPONSE = 'com.linkedin.restli.common.ErrorResponse';

/** The envelope schemas every document has, by component name. */
export function envelopeSchemas(): Record<string, JsonSchema> {
  return {
    [ERROR_RESPONSE]: {
      title: 'ErrorResponse',
      type: 'object',
      description: 'What a failed request (or a failed key of a batch) answers. Every field may be absent.',
      properties: {
        status: { ...INT32, description: 'The HTTP status.' },
        serviceErrorCode: { ...INT32, deprecated: true, description: 'Deprecated: use `code`.' },
        code: { type: 'string', description: 'The canonical error code, e.g. `INPUT_VALIDATION_FAILED`.' },
        message: { type: 'string' },
        docUrl: { type: 'string' },
        requestId: { type: 'string' },
        exceptionClass: { type: 'string', description: 'Development mode only.' },
        stackTrace: { type: 'string', description: 'Development mode only.' },
        errorDetailType: { type: 'string', description: 'The full name of the record in `errorDetails`.' },
        errorDetails: { type: 'object' },
      },
    },
    'com.linkedin.restli.common.Link': {
      title: 'Link',
      type: 'object',
      properties: {
        rel: { type: 'string', description: '`prev` or `next`.' },
        href: { type: 'string' },
        type: { type: 'string' },
      },
      required: ['rel', 'href', 'type'],
    },
    'com.linkedin.restli.common.CollectionMetadata': {
      title: 'CollectionMetadata',
      type: 'object',
      description: 'Where a page is in its collection.',
      properties: {
        start: INT32,
        count: INT32,
        total: { ...INT32, description: 'Present when the resource knows it.' },
        links: { type: 'array', items: schemaRef('com.linkedin.restli.common.Link') },
      },
      required: ['start', 'count', 'links'],
    },
    'com.linkedin.restli.common.PatchRequest': {
      title: 'PatchRequest',
      type: 'object',
      description:
        'A partial update: `$set` sets fields, `$delete` removes them, a field name holds the patch of a nested record.',
      properties: {
        patch: {
          type: 'object',
          properties: {
            $set: { type: 'object' },
            $delete: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      required: ['patch'],
    },
    'com.linkedin.restli.common.BatchPatchRequest': {
      title: 'BatchPatchRequest',
      type: 'object',
      properties: {
        entities: {
          type: 'object',
          additionalProperties: schemaRef('com.linkedin.restli.common.PatchRequest'),
        },
      },
      required: ['entities'],
    },
    'com.linkedin.restli.common.BatchUpdateResponse': {
      title: 'BatchUpdateResponse',
      type: 'object',
      description: 'A status per key (keys in body form); a key that failed is in `errors`.',
      properties: {
        results: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { status: INT32, entity: { type: 'object' } },
            required: ['status'],
          },
        },
        errors: { type: 'object', additionalProperties: schemaRef(ERROR_RESPONSE) },
      },
      required: ['results'],
    },
  };
}

/** The guide put into `info.description`. */
export function RESTLI_GUIDE(headers: ProtocolHeaderNames): string {
  return `## Reading this API: the Rest.li 2.0 protocol

This service speaks Rest.li 2.0. Its URLs carry structured values in one small grammar:
a record is \`(field:value,...)\` (fields sorted by name), a list is \`List(a,b)\`, the empty string is \`''\`,
and the characters \`( ) , : '\` inside a string are percent-encoded (\`%28 %29 %2C %3A %27\`).

| what | URL |
|---|---|
| an entity | \`GET /photos/1\`; an association's key is its parts: \`/albumEntries/(albumId:1,photoId:2)\` |
| several entities (batch get, update, delete) | \`GET /photos?ids=List(1,2)\`; answers \`{"results":{...},"statuses":{...},"errors":{...}}\` keyed by id |
| a finder: a search | \`GET /photos?q=byTag&tag=bay&start=0&count=10\`; answers a page: \`{"elements":[...],"paging":{...}}\` |
| a batch finder: several searches at once | \`GET /photos?bq=searchPhotos&criteria=List((format:JPEG),(format:PNG))\`; answers one page per criterion, **in the order sent**: \`{"elements":[{page of criterion 0},{page of criterion 1}]}\`; a criterion that failed is \`{"isError":true,"error":{...}}\` in its place while the others succeed |
| an action: a remote procedure | \`POST /photos?action=purge\` with its parameters as a JSON object \`{"takenBefore":0}\`; answers \`{"value":...}\`; an entity action acts on one entity: \`POST /photos/1?action=addTag\` |
| a projection | \`fields=title,exif:(camera)\` answers only those fields |

Bodies are JSON (\`application/json\`) or PSON (\`application/x-pson\`, the same data in a binary form): ask
with \`Accept\`, send with \`Content-Type\`. Longs are exact 64-bit integers in the JSON. The header
\`${headers.protocolVersion}: 2.0.0\` names the protocol version; \`${headers.method}\` tells batch create (a POST to the
collection) from create. A failure answers its status, \`${headers.errorResponse}: true\` and an **ErrorResponse**
body; a batch answers per-key errors inside its body with 200.

Each operation below shows a curl line; its \`x-restli-method\` says which Rest.li method it is.
Each resource lists the schemas it uses as PDL, Rest.li's schema language.`;
}
