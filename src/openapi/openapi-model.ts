/**
 * The parts of an OpenAPI 3.1 document this layer writes, as TypeScript types: loose where the format is
 * open (schemas are JSON Schema 2020-12 objects; `x-` extensions anywhere), exact where readers rely on it.
 */

/** A JSON value. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON Schema (2020-12) object. */
export type JsonSchema = { readonly [key: string]: JsonValue };

/** A parameter (`in: path | query | header`). */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description?: string;
  readonly required?: boolean;
  readonly deprecated?: boolean;
  readonly style?: string;
  readonly explode?: boolean;
  /** Reserved characters sent as they are: Rest.li's `(`, `)`, `,` and `:` structure a query value. */
  readonly allowReserved?: boolean;
  readonly schema: JsonSchema;
  readonly example?: JsonValue;
  readonly [extension: `x-${string}`]: JsonValue | undefined;
}

/** A reference (`$ref`) to a component. */
export interface OpenApiRef {
  readonly $ref: string;
}

/** A media type entry of a request or response body. */
export interface OpenApiMediaType {
  readonly schema: JsonSchema;
}

/** A response. */
export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, { readonly description?: string; readonly schema: JsonSchema }>>;
  readonly content?: Readonly<Record<string, OpenApiMediaType>>;
}

/** A request body. */
export interface OpenApiRequestBody {
  readonly description?: string;
  readonly required?: boolean;
  readonly content: Readonly<Record<string, OpenApiMediaType>>;
}

/** An operation. */
export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly deprecated?: boolean;
  readonly parameters?: readonly (OpenApiParameter | OpenApiRef)[];
  readonly requestBody?: OpenApiRequestBody;
  readonly responses: Readonly<Record<string, OpenApiResponse | OpenApiRef>>;
  readonly [extension: `x-${string}`]: JsonValue | undefined;
}

/** The operations of one path key. */
export type OpenApiPathItem = { -readonly [M in 'get' | 'put' | 'post' | 'delete']?: OpenApiOperation };

/** A tag (one per resource), its description in Markdown. */
export interface OpenApiTag {
  readonly name: string;
  readonly description?: string;
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly jsonSchemaDialect: string;
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description?: string;
  };
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
  readonly tags: readonly OpenApiTag[];
  readonly paths: Readonly<Record<string, OpenApiPathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly parameters: Readonly<Record<string, OpenApiParameter>>;
    readonly responses: Readonly<Record<string, OpenApiResponse>>;
  };
}
