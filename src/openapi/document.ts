import { type ExportIdlOptions, type ExportedResource, exportResource } from '../idl/export';
import type {
  ActionSchema,
  AssocKeySchema,
  BatchFinderSchema,
  FinderSchema,
  IdentifierSchema,
  ParameterSchema,
  ResourceSchema,
  RestMethodSchema,
} from '../idl/restspec-model';
import { DEFAULT_HEADER_PREFIX, protocolHeaderNames } from '../protocol/headers';
import { CLIENT_PROTOCOL_VERSION } from '../protocol/headers';
import type { NamedDataSchema } from '../schema/named-schema';
import { schemaToPdl } from '../schema/pdl/pdl-writer';
import { curlLine } from './curl';
import { exampleOf, uriFormOf } from './examples';
import { JsonSchemaTranslator, SCHEMA_REF_PREFIX, idlTypeSchema, schemaRef } from './json-schema';
import type {
  JsonSchema,
  JsonValue,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiRef,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiTag,
} from './openapi-model';
import { RESTLI_GUIDE, envelopeSchemas } from './restli-envelopes';

/**
 * Resource interfaces → an OpenAPI 3.1 document: every method of every resource (subresources included)
 * with the URL it is really served at and Rest.li's query grammar, its request and response bodies in JSON
 * and PSON, `ErrorResponse` for errors, and the schemas as JSON Schema 2020-12 (./json-schema.ts).
 *
 * The resources are walked as `svc idl export` walks them (their `.restspec.json` model, src/idl/export.ts),
 * so a module of interfaces is enough: no handlers, no store.
 *
 * OpenAPI keys operations by path and HTTP method, and Rest.li serves several methods on one path (`GET
 * /photos` is get_all, a finder with `q=`, a batch finder with `bq=`, a batch get with `ids=`), so the
 * method's fixed query parameter is part of the path key: `/photos?q=byTag`, `/photos?bq=searchPhotos`,
 * `/photos?action=purge`, `/photos?ids=List({ids})` — each key is a prefix of the real URL, so tools that
 * append query parameters (`&tag=x`) produce real requests. The one method with no URL of its own, batch
 * create (a POST to `/photos` told from create by the `X-Svc-Method: batch_create` header), gets a
 * fragment: `/photos#batch_create`.
 */

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** `info.title`. Default `'Svc service'`. */
  readonly title?: string;
  /** `info.version`: the version of the service's interface. Default `'0.0.0'`. */
  readonly version?: string;
  /** Markdown put before the Rest.li guide in `info.description`. Default none. */
  readonly description?: string;
  /** `servers[0].url`, e.g. `/api` or `https://photos.example.com`. Default none (tools use the document's origin). */
  readonly serverUrl?: string;
  /** The protocol header prefix of the server (`X-Svc`, or `X-RestLi` for a Rest.li-compatible one). Default `X-Svc`. */
  readonly headerPrefix?: string;
  /** The origin and prefix the curl lines call. Default `http://localhost:8080`. */
  readonly curlBase?: string;
  /**
   * Explain the protocol in the document's Markdown (a Rest.li guide in `info.description`, the schemas as
   * PDL in each resource's tag): what a generic renderer shows. Default true.
   */
  readonly guide?: boolean;
  /** The namespace of root resources that declare none, as for `svc idl export`. Default none. */
  readonly namespace?: string;
}

const JSON_TYPE = 'application/json';
const PSON_TYPE = 'application/x-pson';
const ERROR_RESPONSE = 'com.linkedin.restli.common.ErrorResponse';
const ERROR_REF: OpenApiRef = { $ref: '#/components/responses/ErrorResponse' };
const VERSION_PARAM_REF: OpenApiRef = { $ref: '#/components/parameters/ProtocolVersion' };
const FIELDS_PARAM_REF: OpenApiRef = { $ref: '#/components/parameters/fields' };
const START_PARAM_REF: OpenApiRef = { $ref: '#/components/parameters/start' };
const COUNT_PARAM_REF: OpenApiRef = { $ref: '#/components/parameters/count' };

/** Both media types, one schema: PSON carries the same data as JSON, in binary. */
function content(schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  return { [JSON_TYPE]: { schema }, [PSON_TYPE]: { schema } };
}

function responses(
  status: number,
  description: string,
  schema?: JsonSchema,
  headers?: OpenApiResponse['headers'],
): Record<string, OpenApiResponse | OpenApiRef> {
  return {
    [String(status)]: {
      description,
      ...(headers === undefined ? {} : { headers }),
      ...(schema === undefined ? {} : { content: content(schema) }),
    },
    // Rest.li answers every failure with an ErrorResponse
    '4XX': ERROR_REF,
    '5XX': ERROR_REF,
  };
}

function body(schema: JsonSchema, description?: string, required = true): OpenApiRequestBody {
  return { ...(description === undefined ? {} : { description }), required, content: content(schema) };
}

function isDeprecated(v: { annotations?: Readonly<Record<string, unknown>> }): boolean {
  return v.annotations?.deprecated !== undefined;
}

/** A key's place in a URL: its path-key text and parameters, and how a batch lists keys. */
interface KeyForm {
  /** The path segment of one entity: `{photosId}` or `(albumId:{albumId},photoId:{photoId})`. */
  readonly segment: string;
  readonly params: OpenApiParameter[];
  /** The `ids` parameter of batch methods. */
  readonly ids: OpenApiParameter;
  /** Example path segment text, for curl lines. */
  readonly example: string;
  /** Example `ids` list items. */
  readonly exampleIds: string;
  /** The schema of a key in a batch body map's keys (for docs). */
  readonly bodyKey: string;
}

/** One resource being described: where it is mounted and what its entity path takes. */
interface Mount {
  /** Path key of the resource: `/photos`, `/photos/{photosId}/comments`. */
  readonly path: string;
  /** Example URL path, for curl lines. */
  readonly examplePath: string;
  /** Path parameters of enclosing entities. */
  readonly params: readonly OpenApiParameter[];
  /** The tag of the root resource (subresources share their root's tag). */
  readonly tag: string;
  /** Dotted name for operation ids: `photos`, `photos.comments`. */
  readonly id: string;
}

class DocumentBuilder {
  readonly translator = new JsonSchemaTranslator();
  readonly paths: Record<string, OpenApiPathItem> = {};
  readonly named = new Map<string, NamedDataSchema>();
  private readonly headers: ReturnType<typeof protocolHeaderNames>;
  private readonly curlBase: string;
  private envelopes = new Map<string, JsonSchema>();

  constructor(
    models: readonly NamedDataSchema[],
    private readonly options: OpenApiOptions,
  ) {
    for (const m of models) this.named.set(m.getFullName(), m);
    this.headers = protocolHeaderNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX);
    this.curlBase = (options.curlBase ?? 'http://localhost:8080').replace(/\/$/, '');
  }

  type(text: string): JsonSchema {
    return idlTypeSchema(text, this.translator, this.named);
  }

  /** The example value of a schema, resolved against the named schemas. */
  example(schema: JsonSchema): JsonValue {
    return exampleOf(schema, (ref) => {
      const name = ref.slice(ref.lastIndexOf('/') + 1);
      const named = this.named.get(name);
      return named === undefined ? undefined : new JsonSchemaTranslator().named(named);
    });
  }

  /** A per-entity envelope component (`CollectionResponse_com.example.Photo`), made once. */
  envelope(kind: string, entity: string, make: (entityRef: JsonSchema) => JsonSchema): JsonSchema {
    const name = `${kind}_${entity}`;
    if (!this.envelopes.has(name)) this.envelopes.set(name, make(schemaRef(entity)));
    return schemaRef(name);
  }

  components(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    // translating a named schema may reference more: until none is new
    const done = new Set<string>();
    for (const n of this.named.keys()) this.translator.referenced.set(n, this.named.get(n)!);
    for (;;) {
      const next = [...this.translator.referenced.entries()].filter(([n]) => !done.has(n));
      if (next.length === 0) break;
      for (const [n, schema] of next) {
        done.add(n);
        out[n] = {
          ...this.translator.named(schema),
          'x-restli-pdl': schemaToPdl(schema, { namedByReference: true }),
        };
      }
    }
    const sorted: Record<string, JsonSchema> = {};
    for (const n of Object.keys(out).sort()) sorted[n] = out[n]!;
    for (const n of [...this.envelopes.keys()].sort()) sorted[n] = this.envelopes.get(n)!;
    // the protocol's records, those the operations use (directly or through each other)
    const protocol = envelopeSchemas();
    const used = new Set<string>(['com.linkedin.restli.common.ErrorResponse']);
    for (;;) {
      const text = JSON.stringify([this.paths, sorted, [...used].map((n) => protocol[n])]);
      const more = Object.keys(protocol).filter(
        (n) => !used.has(n) && text.includes(`"${SCHEMA_REF_PREFIX}${n}"`),
      );
      if (more.length === 0) break;
      for (const n of more) used.add(n);
    }
    for (const n of Object.keys(protocol)) if (used.has(n)) sorted[n] = protocol[n]!;
    return sorted;
  }

  private add(path: string, method: 'get' | 'put' | 'post' | 'delete', op: OpenApiOperation): void {
    const item = (this.paths[path] ??= {});
    item[method] = op;
  }

  private curl(
    method: string,
    url: string,
    opts: { headers?: readonly string[]; body?: JsonValue } = {},
  ): { description: string; 'x-codeSamples': JsonValue } {
    const version = `${this.headers.protocolVersion}: ${CLIENT_PROTOCOL_VERSION}`;
    const line = curlLine(method, `${this.curlBase}${url}`, [version, ...(opts.headers ?? [])], opts.body);
    return {
      description: `\`\`\`sh\n${line}\n\`\`\``,
      'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: line }],
    };
  }

  private operation(
    mount: Mount,
    id: string,
    what: { doc?: string; annotations?: Readonly<Record<string, unknown>> },
    summary: string,
    restliMethod: string,
    curl: { description: string; 'x-codeSamples': JsonValue },
    rest: Omit<OpenApiOperation, 'operationId' | 'tags'>,
  ): OpenApiOperation {
    const doc = what.doc;
    return {
      operationId: `${mount.id}.${id}`,
      summary,
      ...rest,
      description: [doc, rest.description, curl.description]
        .filter((d) => d !== undefined && d !== '')
        .join('\n\n'),
      tags: [mount.tag],
      ...(isDeprecated(what) ? { deprecated: true } : {}),
      'x-restli-method': restliMethod,
      'x-codeSamples': curl['x-codeSamples'],
    };
  }

  /** The query parameters of a finder, batch finder, get_all (and the key parts bound from the path). */
  private queryParams(params: readonly ParameterSchema[] | undefined, skip?: string): OpenApiParameter[] {
    return (params ?? []).filter((p) => p.name !== skip).map((p) => this.queryParam(p));
  }

  private queryParam(p: ParameterSchema): OpenApiParameter {
    const valueSchema = this.type(p.type);
    const simple = isUriPrimitive(valueSchema, this.named);
    const required = p.optional !== true && p.default === undefined;
    const example = this.example(valueSchema);
    const doc = p.doc;
    const defaultNote = p.default === undefined ? undefined : `Default: \`${p.default}\`.`;
    if (simple) {
      return {
        name: p.name,
        in: 'query',
        required,
        ...(doc === undefined && defaultNote === undefined
          ? {}
          : { description: [doc, defaultNote].filter((d) => d !== undefined).join(' ') }),
        schema: valueSchema,
        ...(isDeprecated(p) ? { deprecated: true } : {}),
      };
    }
    // records, arrays, maps and unions travel in Rest.li's URI form: (a:1,b:List(x,y))
    return {
      name: p.name,
      in: 'query',
      required,
      description: [
        doc,
        `Rest.li 2.0 URI form of the value (\`(field:value,...)\`, \`List(a,b)\`; \`(\`, \`)\`, \`,\`, \`:\` and \`'\` inside strings percent-encoded).`,
        defaultNote,
      ]
        .filter((d) => d !== undefined)
        .join(' '),
      allowReserved: true,
      schema: { type: 'string' },
      example: uriFormOf(example),
      'x-restli-schema': valueSchema,
      ...(isDeprecated(p) ? { deprecated: true } : {}),
    };
  }

  private exampleQuery(params: readonly OpenApiParameter[]): string {
    return params
      .filter((p) => p.required === true)
      .map(
        (p) => `&${p.name}=${typeof p.example === 'string' ? p.example : uriFormOf(this.example(p.schema))}`,
      )
      .join('');
  }

  private keyForm(resource: ResourceSchema): KeyForm | undefined {
    const c = resource.collection;
    const a = resource.association;
    if (c !== undefined) return this.collectionKey(c.identifier);
    if (a !== undefined) return this.associationKey(a.assocKeys, a.identifier ?? `${resource.name}Id`);
    return undefined;
  }

  private collectionKey(id: IdentifierSchema): KeyForm {
    const keySchema = this.type(id.type);
    const name = id.name;
    if (id.params === undefined) {
      const example = this.example(keySchema);
      const text = uriFormOf(example);
      return {
        segment: `{${name}}`,
        params: [{ name, in: 'path', required: true, description: 'The key.', schema: keySchema, example }],
        ids: {
          name: 'ids',
          in: 'path',
          required: true,
          description: 'The keys: comma-separated (`1,2`), within `List(...)`.',
          style: 'simple',
          explode: false,
          schema: { type: 'array', items: keySchema, minItems: 1 },
          example: [example, example],
        },
        example: text,
        // two different keys
        exampleIds: typeof example === 'number' ? `${text},${example + 1}` : `${text},${text}2`,
        bodyKey: 'the key as text',
      };
    }
    // a complex key: a record (and its params record) in the URI form; one string parameter
    const paramsSchema = this.type(id.params);
    const keyExample = this.example(keySchema);
    const text = uriFormOf(
      typeof keyExample === 'object' && keyExample !== null && !Array.isArray(keyExample)
        ? { ...keyExample, $params: this.example(paramsSchema) }
        : keyExample,
    );
    const description =
      'A complex key in Rest.li 2.0 URI form: the key record as `(field:value,...)`, its parameters record as `$params:(...)`.';
    return {
      segment: `{${name}}`,
      params: [
        {
          name,
          in: 'path',
          required: true,
          description,
          schema: { type: 'string' },
          example: text,
          'x-restli-key': keySchema,
          'x-restli-key-params': paramsSchema,
        },
      ],
      ids: {
        name: 'ids',
        in: 'path',
        required: true,
        description: `The keys, comma-separated within \`List(...)\`, each ${description.slice(2)}`,
        schema: { type: 'string' },
        example: `${text},${text}`,
        'x-restli-key': keySchema,
      },
      example: text,
      exampleIds: `${text},${text}`,
      bodyKey: 'the key record in URI form without `$params`',
    };
  }

  private associationKey(parts: readonly AssocKeySchema[], _name: string): KeyForm {
    const params: OpenApiParameter[] = [];
    const segs: string[] = [];
    const examples: string[] = [];
    for (const part of parts) {
      const schema = this.type(part.type);
      const example = this.example(schema);
      params.push({
        name: part.name,
        in: 'path',
        required: true,
        description: `Key part \`${part.name}\`.`,
        schema,
        example,
      });
      segs.push(`${part.name}:{${part.name}}`);
      examples.push(`${part.name}:${uriFormOf(example)}`);
    }
    const example = `(${examples.join(',')})`;
    return {
      segment: `(${segs.join(',')})`,
      params,
      ids: {
        name: 'ids',
        in: 'path',
        required: true,
        description: `The keys, comma-separated within \`List(...)\`, each \`(${parts.map((p) => `${p.name}:...`).join(',')})\` (parts sorted by name).`,
        schema: { type: 'string' },
        example: `${example},${example}`,
      },
      example,
      exampleIds: `${example},${example}`,
      bodyKey: `\`(${parts.map((p) => `${p.name}:...`).join(',')})\``,
    };
  }

  /** Describes a resource and its subresources. */
  resource(resource: ResourceSchema, mount: Mount): void {
    const entity = resource.schema;
    const entityRef = entity === undefined ? undefined : this.type(entity);
    const key = this.keyForm(resource);
    const kind = resource.collection ?? resource.association;
    const P = mount.path;
    const E = key === undefined ? P : `${P}/${key.segment}`;
    const exP = mount.examplePath;
    const exE = key === undefined ? exP : `${exP}/${key.example}`;
    const pathParams = [...mount.params];
    const entityParams = [...pathParams, ...(key?.params ?? [])];
    const idsPath = `${P}?ids=List({ids})`;
    const idsParams = key === undefined ? pathParams : [...pathParams, key.ids];
    const exIds = key === undefined ? exP : `${exP}?ids=List(${key.exampleIds})`;
    const version = VERSION_PARAM_REF;
    const json = `Content-Type: ${JSON_TYPE}`;

    const methods: readonly RestMethodSchema[] =
      resource.collection?.methods ?? resource.association?.methods ?? resource.simple?.methods ?? [];
    for (const m of methods) {
      if (entityRef === undefined) break;
      const entityName = (entity ?? '').trim();
      const on = resource.simple !== undefined ? P : E;
      const exOn = resource.simple !== undefined ? exP : exE;
      const onParams = resource.simple !== undefined ? pathParams : entityParams;
      const bodyExample = this.example(entityRef);
      switch (m.method) {
        case 'get':
          this.add(
            on,
            'get',
            this.operation(
              mount,
              'get',
              m,
              `Get one ${resource.name} entity`,
              'get',
              this.curl('GET', exOn),
              {
                parameters: [...onParams, FIELDS_PARAM_REF, version],
                responses: responses(200, 'The entity.', entityRef),
              },
            ),
          );
          break;
        case 'batch_get':
          this.add(
            idsPath,
            'get',
            this.operation(
              mount,
              'batchGet',
              m,
              `Get several ${resource.name} entities`,
              'batch_get',
              this.curl('GET', exIds),
              {
                description: `Results, statuses and errors are maps keyed by ${key?.bodyKey ?? 'key'}; a key that failed is in \`errors\`, not in \`results\`.`,
                parameters: [...idsParams, FIELDS_PARAM_REF, version],
                responses: responses(
                  200,
                  'The entities found, and an error per key that failed.',
                  this.envelope('BatchResponse', entityName, batchResponse),
                ),
              },
            ),
          );
          break;
        case 'create':
          this.add(
            P,
            'post',
            this.operation(
              mount,
              'create',
              m,
              `Create a ${resource.name} entity`,
              'create',
              this.curl('POST', exP, { headers: [json], body: bodyExample }),
              {
                description: `The new key comes in the \`${this.headers.id}\` and \`Location\` headers; with \`$returnEntity=true\`, the entity too.`,
                parameters: [...pathParams, returnEntityParam(), version],
                requestBody: body(entityRef),
                responses: responses(201, 'Created.', entityRef, {
                  [this.headers.id]: {
                    description: 'The new key, in body form.',
                    schema: { type: 'string' },
                  },
                  Location: { description: 'The new entity URL.', schema: { type: 'string' } },
                }),
              },
            ),
          );
          break;
        case 'batch_create':
          this.add(
            `${P}#batch_create`,
            'post',
            this.operation(
              mount,
              'batchCreate',
              m,
              `Create several ${resource.name} entities`,
              'batch_create',
              this.curl('POST', exP, {
                headers: [json, `${this.headers.method}: batch_create`],
                body: { elements: [bodyExample] },
              }),
              {
                description: `A POST to the collection with \`${this.headers.method}: batch_create\`; one status per element, in order.`,
                parameters: [
                  ...pathParams,
                  methodHeaderParam(this.headers.method, 'batch_create'),
                  returnEntityParam(),
                  version,
                ],
                requestBody: body(this.envelope('BatchCreateRequest', entityName, batchCreateRequest)),
                responses: responses(
                  200,
                  'One CreateStatus per element, in request order.',
                  this.envelope('BatchCreateResponse', entityName, batchCreateResponse),
                ),
              },
            ),
          );
          break;
        case 'update':
          this.add(
            on,
            'put',
            this.operation(
              mount,
              'update',
              m,
              `Replace a ${resource.name} entity`,
              'update',
              this.curl('PUT', exOn, { headers: [json], body: bodyExample }),
              {
                parameters: [...onParams, version],
                requestBody: body(entityRef),
                responses: responses(204, 'Updated.'),
              },
            ),
          );
          break;
        case 'partial_update':
          this.add(
            on,
            'post',
            this.operation(
              mount,
              'partialUpdate',
              m,
              `Patch a ${resource.name} entity`,
              'partial_update',
              this.curl('POST', exOn, { headers: [json], body: { patch: { $set: {} } } }),
              {
                description:
                  'The body is a Rest.li patch: `{"patch":{"$set":{...},"$delete":[...],"<field>":{nested patch}}}`.',
                parameters: [...onParams, version],
                requestBody: body(schemaRef('com.linkedin.restli.common.PatchRequest')),
                responses: responses(204, 'Patched.'),
              },
            ),
          );
          break;
        case 'delete':
          this.add(
            on,
            'delete',
            this.operation(
              mount,
              'delete',
              m,
              `Delete a ${resource.name} entity`,
              'delete',
              this.curl('DELETE', exOn),
              {
                parameters: [...onParams, version],
                responses: responses(204, 'Deleted.'),
              },
            ),
          );
          break;
        case 'batch_update':
          this.add(
            idsPath,
            'put',
            this.operation(
              mount,
              'batchUpdate',
              m,
              `Replace several ${resource.name} entities`,
              'batch_update',
              this.curl('PUT', exIds, { headers: [json], body: { entities: {} } }),
              {
                description: `\`entities\` maps each key (${key?.bodyKey ?? 'key'}) to its new entity; the keys are the \`ids\`.`,
                parameters: [...idsParams, version],
                requestBody: body(this.envelope('BatchUpdateRequest', entityName, batchUpdateRequest)),
                responses: responses(
                  200,
                  'A status per key.',
                  schemaRef('com.linkedin.restli.common.BatchUpdateResponse'),
                ),
              },
            ),
          );
          break;
        case 'batch_partial_update':
          this.add(
            idsPath,
            'post',
            this.operation(
              mount,
              'batchPartialUpdate',
              m,
              `Patch several ${resource.name} entities`,
              'batch_partial_update',
              this.curl('POST', exIds, { headers: [json], body: { entities: {} } }),
              {
                description: `\`entities\` maps each key (${key?.bodyKey ?? 'key'}) to its patch; the keys are the \`ids\`.`,
                parameters: [...idsParams, version],
                requestBody: body(schemaRef('com.linkedin.restli.common.BatchPatchRequest')),
                responses: responses(
                  200,
                  'A status per key.',
                  schemaRef('com.linkedin.restli.common.BatchUpdateResponse'),
                ),
              },
            ),
          );
          break;
        case 'batch_delete':
          this.add(
            idsPath,
            'delete',
            this.operation(
              mount,
              'batchDelete',
              m,
              `Delete several ${resource.name} entities`,
              'batch_delete',
              this.curl('DELETE', exIds),
              {
                parameters: [...idsParams, version],
                responses: responses(
                  200,
                  'A status per key.',
                  schemaRef('com.linkedin.restli.common.BatchUpdateResponse'),
                ),
              },
            ),
          );
          break;
        case 'get_all': {
          const qp = this.queryParams(m.parameters);
          this.add(
            P,
            'get',
            this.operation(
              mount,
              'getAll',
              m,
              `Every ${resource.name} entity, a page at a time`,
              'get_all',
              this.curl('GET', `${exP}?start=0&count=10${this.exampleQuery(qp)}`),
              {
                parameters: [
                  ...pathParams,
                  ...qp,
                  START_PARAM_REF,
                  COUNT_PARAM_REF,
                  FIELDS_PARAM_REF,
                  version,
                ],
                responses: responses(
                  200,
                  'A page of entities.',
                  this.collection(entityName, m.metadata?.type),
                ),
              },
            ),
          );
          break;
        }
        default:
          break;
      }
    }

    for (const f of kind?.finders ?? []) if (entityRef !== undefined) this.finder(resource, mount, f, key);
    for (const f of kind?.batchFinders ?? [])
      if (entityRef !== undefined) this.batchFinder(mount, f, (entity ?? '').trim());
    const rootActions =
      resource.collection?.actions ??
      resource.association?.actions ??
      resource.simple?.actions ??
      resource.actionsSet?.actions ??
      [];
    for (const a of rootActions) this.action(mount, P, exP, pathParams, a, 'action');
    const entitySchema = kind?.entity;
    if (key !== undefined)
      for (const a of entitySchema?.actions ?? [])
        this.action(mount, E, exE, entityParams, a, 'entityAction');
    const subs = kind?.entity.subresources ?? resource.simple?.entity.subresources ?? [];
    for (const sub of subs) {
      this.resource(sub, {
        path: `${resource.simple !== undefined ? P : E}/${sub.name}`,
        examplePath: `${resource.simple !== undefined ? exP : exE}/${sub.name}`,
        params: resource.simple !== undefined ? pathParams : entityParams,
        tag: mount.tag,
        id: `${mount.id}.${sub.name}`,
      });
    }
  }

  private collection(entityName: string, metadata: string | undefined): JsonSchema {
    const base = this.envelope('CollectionResponse', entityName, collectionResponse);
    if (metadata === undefined) return base;
    return { allOf: [base, { type: 'object', properties: { metadata: this.type(metadata) } }] };
  }

  private finder(resource: ResourceSchema, mount: Mount, f: FinderSchema, key: KeyForm | undefined): void {
    const name = f.name ?? '';
    const entityName = (resource.schema ?? '').trim();
    // an association finder binds some key parts from the path: /albumEntries/(albumId:{albumId})?q=byAlbum
    const bound = f.assocKeys ?? (f.assocKey === undefined ? [] : [f.assocKey]);
    let path = mount.path;
    let exPath = mount.examplePath;
    const params: (OpenApiParameter | OpenApiRef)[] = [...mount.params];
    if (bound.length > 0 && key !== undefined) {
      const parts = key.params.filter((p) => bound.includes(p.name));
      path += `/(${parts.map((p) => `${p.name}:{${p.name}}`).join(',')})`;
      exPath += `/(${parts.map((p) => `${p.name}:${uriFormOf(p.example ?? 1)}`).join(',')})`;
      params.push(...parts);
    }
    const qp = this.queryParams(f.parameters);
    this.add(
      `${path}?q=${name}`,
      'get',
      this.operation(
        mount,
        `finder.${name}`,
        f,
        `Finder ${name}`,
        'finder',
        this.curl('GET', `${exPath}?q=${name}${this.exampleQuery(qp)}`),
        {
          description: `A finder: \`GET ${mount.path}?q=${name}\` with its parameters in the query; a page of entities (\`start\`, \`count\`).${bound.length > 0 ? ` The key parts ${bound.map((b) => `\`${b}\``).join(', ')} are given in the path.` : ''}`,
          parameters: [
            ...params,
            ...qp,
            START_PARAM_REF,
            COUNT_PARAM_REF,
            FIELDS_PARAM_REF,
            VERSION_PARAM_REF,
          ],
          responses: responses(200, 'A page of entities.', this.collection(entityName, f.metadata?.type)),
        },
      ),
    );
  }

  private batchFinder(mount: Mount, f: BatchFinderSchema, entity: string): void {
    const name = f.name ?? '';
    const qp = this.queryParams(f.parameters);
    const criteria = qp.find((p) => p.name === f.batchParam);
    const criteriaNote = `\`${f.batchParam}=List((...),(...))\`: one criterion record per item, in Rest.li's URI form`;
    this.add(
      `${mount.path}?bq=${name}`,
      'get',
      this.operation(
        mount,
        `batchFinder.${name}`,
        f,
        `Batch finder ${name}`,
        'batch_finder',
        this.curl('GET', `${mount.examplePath}?bq=${name}${this.exampleQuery(qp)}`),
        {
          description: [
            `A batch finder: several finder searches in one request. ${criteriaNote}; the answer has one page of entities per criterion, in the order sent (\`elements[i]\` answers criterion i). A criterion that failed answers \`{"elements":[],"isError":true,"error":{ErrorResponse}}\` while the others succeed.`,
            f.maxBatchSize === undefined ? '' : `At most ${f.maxBatchSize.value} criteria.`,
          ]
            .filter((d) => d !== '')
            .join(' '),
          parameters: [
            ...mount.params,
            ...qp,
            START_PARAM_REF,
            COUNT_PARAM_REF,
            FIELDS_PARAM_REF,
            VERSION_PARAM_REF,
          ],
          responses: responses(
            200,
            'One page per criterion, in request order.',
            this.envelope('BatchFinderResponse', entity, batchFinderResponse),
          ),
          'x-restli-batch-param': f.batchParam,
          ...(criteria?.example === undefined ? {} : { 'x-restli-criteria-example': criteria.example }),
        },
      ),
    );
  }

  /** Describes a root resource and its subresources. */
  resourceTree(resource: ResourceSchema): void {
    const path = `/${resource.name}`;
    this.resource(resource, { path, examplePath: path, params: [], tag: resource.name, id: resource.name });
  }

  private action(
    mount: Mount,
    on: string,
    exOn: string,
    params: readonly OpenApiParameter[],
    a: ActionSchema,
    kind: 'action' | 'entityAction',
  ): void {
    const properties: Record<string, JsonValue> = {};
    const required: string[] = [];
    for (const p of a.parameters ?? []) {
      let schema = this.type(p.type);
      if (p.default !== undefined) schema = { ...schema, default: defaultValue(p.default, schema) };
      if (p.doc !== undefined) schema = { ...schema, description: p.doc };
      properties[p.name] = schema;
      if (p.optional !== true && p.default === undefined) required.push(p.name);
    }
    const requestSchema: JsonSchema = {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
    const returns = a.returns === undefined ? undefined : this.type(a.returns);
    const exampleBody = this.example(requestSchema);
    this.add(
      `${on}?action=${a.name}`,
      'post',
      this.operation(
        mount,
        `${kind}.${a.name}`,
        a,
        `Action ${a.name}`,
        'action',
        this.curl('POST', `${exOn}?action=${a.name}`, {
          headers: [`Content-Type: ${JSON_TYPE}`],
          body: exampleBody,
        }),
        {
          description: `An action: \`POST ${on}?action=${a.name}\`, its parameters as the properties of a JSON object; ${returns === undefined ? 'it answers 200 with no body' : 'the answer is `{"value": <result>}`'}.${a.readOnly === true ? ' Read-only: it changes nothing.' : ''}`,
          parameters: [...params, VERSION_PARAM_REF],
          requestBody: body(requestSchema, 'The parameters.', required.length > 0),
          responses:
            returns === undefined
              ? responses(200, 'Done.')
              : responses(200, 'The result as `value`.', {
                  type: 'object',
                  properties: { value: returns },
                  required: ['value'],
                }),
        },
      ),
    );
  }

  /** The Markdown of a root resource's tag: its doc, what it offers and its schemas as PDL. */
  tag(resource: ResourceSchema, models: readonly NamedDataSchema[]): OpenApiTag {
    const lines: string[] = [];
    if (resource.doc !== undefined) lines.push(resource.doc);
    if (this.options.guide !== false && models.length > 0) {
      lines.push('', '<details><summary>Schemas as PDL</summary>', '');
      for (const m of models)
        lines.push('```pdl', schemaToPdl(m, { namedByReference: true }).trimEnd(), '```');
      lines.push('', '</details>');
    }
    return { name: resource.name, ...(lines.length > 0 ? { description: lines.join('\n') } : {}) };
  }
}

function returnEntityParam(): OpenApiParameter {
  return {
    name: '$returnEntity',
    in: 'query',
    required: false,
    description: 'Answer the created entity too.',
    schema: { type: 'boolean' },
  };
}

function methodHeaderParam(name: string, method: string): OpenApiParameter {
  return {
    name,
    in: 'header',
    required: true,
    description: 'Tells this method from the one with the same URL.',
    schema: { type: 'string', enum: [method] },
  };
}

function defaultValue(text: string, schema: JsonSchema): JsonValue {
  if (schema.type === 'string') return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Whether a value's Rest.li URI form is the plain text of the value (no grammar): primitives and enums. */
function isUriPrimitive(schema: JsonSchema, named: ReadonlyMap<string, NamedDataSchema>): boolean {
  if (typeof schema.$ref === 'string') {
    const s = named.get(schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1));
    if (s === undefined) return false;
    if (s.getType() === 'ENUM') return true;
    return s.getType() === 'TYPEREF' && s.getDereferencedSchema().isPrimitive();
  }
  return schema.type !== 'array' && schema.type !== 'object' && schema.oneOf === undefined;
}

function batchResponse(entity: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description: 'A batch get answer: each map keyed by the key in body form.',
    properties: {
      results: { type: 'object', additionalProperties: entity },
      statuses: { type: 'object', additionalProperties: { type: 'integer', format: 'int32' } },
      errors: { type: 'object', additionalProperties: schemaRef(ERROR_RESPONSE) },
    },
    required: ['results', 'statuses', 'errors'],
  };
}

function collectionResponse(entity: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description: 'A page of entities.',
    properties: {
      elements: { type: 'array', items: entity },
      paging: schemaRef('com.linkedin.restli.common.CollectionMetadata'),
      metadata: { type: 'object', description: 'The method metadata, when it has some.' },
    },
    required: ['elements'],
  };
}

function batchFinderResponse(entity: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description: 'One result per criterion, in request order.',
    properties: {
      elements: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            elements: { type: 'array', items: entity },
            paging: schemaRef('com.linkedin.restli.common.CollectionMetadata'),
            metadata: { type: 'object' },
            isError: { type: 'boolean', description: 'True when this criterion failed (`error` says why).' },
            error: schemaRef(ERROR_RESPONSE),
          },
          required: ['elements'],
        },
      },
    },
    required: ['elements'],
  };
}

function batchCreateRequest(entity: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { elements: { type: 'array', items: entity } },
    required: ['elements'],
  };
}

function batchCreateResponse(entity: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      elements: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            status: { type: 'integer', format: 'int32' },
            id: { type: 'string', description: 'The new key in body form.' },
            location: { type: 'string' },
            error: schemaRef(ERROR_RESPONSE),
            entity,
          },
          required: ['status'],
        },
      },
    },
    required: ['elements'],
  };
}

function batchUpdateRequest(entity: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { entities: { type: 'object', additionalProperties: entity } },
    required: ['entities'],
  };
}

/**
 * The OpenAPI document of already exported resources (`exportResource` of src/idl/export.ts): what
 * {@link openApiDocument} does after the export.
 */
export function openApiFromExports(
  exported: readonly ExportedResource[],
  options: OpenApiOptions = {},
): OpenApiDocument {
  const models = new Map<string, NamedDataSchema>();
  for (const e of exported) for (const m of e.models) models.set(m.getFullName(), m);
  const builder = new DocumentBuilder([...models.values()], options);
  const tags: OpenApiTag[] = [];
  // by name, so that the document does not depend on the order a module exports its resources in
  const roots = [...exported].sort((a, b) =>
    a.schema.name < b.schema.name ? -1 : a.schema.name > b.schema.name ? 1 : 0,
  );
  for (const e of roots) {
    builder.resourceTree(e.schema);
    tags.push(builder.tag(e.schema, e.models));
  }
  const componentSchemas = builder.components();
  const headerNames = protocolHeaderNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX);
  const description = [options.description, options.guide === false ? undefined : RESTLI_GUIDE(headerNames)]
    .filter((d) => d !== undefined && d !== '')
    .join('\n\n');
  const sortedPaths: Record<string, OpenApiPathItem> = {};
  for (const p of Object.keys(builder.paths).sort()) sortedPaths[p] = builder.paths[p]!;
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: options.title ?? 'Svc service',
      version: options.version ?? '0.0.0',
      ...(description === '' ? {} : { description }),
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags,
    paths: sortedPaths,
    components: {
      schemas: componentSchemas,
      parameters: {
        ProtocolVersion: {
          name: headerNames.protocolVersion,
          in: 'header',
          required: true,
          description: `The Rest.li protocol version of the request's URL and body syntax: ${CLIENT_PROTOCOL_VERSION}, the one described here (a request without it is read as 1.0.0, whose syntax differs).`,
          schema: { type: 'string', enum: [CLIENT_PROTOCOL_VERSION], default: CLIENT_PROTOCOL_VERSION },
        },
        fields: {
          name: 'fields',
          in: 'query',
          required: false,
          description: 'A projection: the fields to answer, e.g. `title,exif:(camera)`; `-f` leaves `f` out.',
          allowReserved: true,
          schema: { type: 'string' },
        },
        start: {
          name: 'start',
          in: 'query',
          required: false,
          description: 'Index of the first element of the page.',
          schema: { type: 'integer', format: 'int32', minimum: 0, default: 0 },
        },
        count: {
          name: 'count',
          in: 'query',
          required: false,
          description: 'Number of elements of the page.',
          schema: { type: 'integer', format: 'int32', minimum: 0, default: 10 },
        },
      },
      responses: {
        ErrorResponse: {
          description: `An error: a 4xx or 5xx status, the \`${headerNames.errorResponse}: true\` header and an ErrorResponse body.`,
          content: content(schemaRef(ERROR_RESPONSE)),
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of root resources: resource definitions or interfaces, as `svc idl export` and
 * `svcPlugin` take them.
 *
 * @example
 * ```ts
 * const doc = openApiDocument([photosInterface, albumsInterface], { title: 'Photos', version: '1.0.0' });
 * doc.paths['/photos/{photosId}'].get; // the get method
 * ```
 * @throws ResourceDefinitionError for a definition that cannot be described (as `exportIdl`)
 */
export function openApiDocument(
  resources: readonly unknown[],
  options: OpenApiOptions = {},
): OpenApiDocument {
  const exportOptions: ExportIdlOptions =
    options.namespace === undefined ? {} : { namespace: options.namespace };
  return openApiFromExports(
    resources.map((r) => exportResource(r, exportOptions)),
    options,
  );
}
