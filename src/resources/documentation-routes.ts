/**
 * The routes a server serves about itself (`GET /openapi.json`, `GET /docs` and the page's files), which the
 * OpenAPI layer makes (src/openapi/serve.ts). That layer sits below this one (it reads resource interfaces
 * through the IDL export), so it hands its routes in when it loads instead of being imported from here
 * (as the OPTIONS answers do: options-answers.ts); without it, a server has none of these routes.
 */

/** A request to one of the routes: its path within the server's prefix and its headers. */
export interface DocumentationRequest {
  readonly method: string;
  /** The path within the server's prefix, e.g. `/docs`. */
  readonly path: string;
  /** Node's headers (lower-case names). */
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
}

/** What a route answers. */
export interface DocumentationAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

/** Answers one request. */
export type DocumentationHandler = (request: DocumentationRequest) => Promise<DocumentationAnswer>;

/** One GET route: its path within the server's prefix and its handler. */
export interface DocumentationRoute {
  readonly path: string;
  readonly handler: DocumentationHandler;
}

/**
 * Wraps a route's handler: answer (say 401) without calling `next`, or call it. An authentication guard
 * goes here (`svcPlugin({ openapi: { guard } })`).
 */
export type DocumentationGuard = (
  request: DocumentationRequest,
  next: DocumentationHandler,
) => Promise<DocumentationAnswer>;

/**
 * The `openapi` option of `svcPlugin` and `createSvcServer`: where the document and the docs page are served.
 * `openapi: false` serves neither.
 */
export interface DocumentationOptions {
  /** The OpenAPI document's path. Default `/openapi.json`; `false` serves no document (and no page). */
  readonly openapiPath?: string | false;
  /** The documentation page's path (its files under it). Default `/docs`; `false` serves no page. */
  readonly docsPath?: string | false;
  /** `info.title`. Default `'Svc service'`. */
  readonly title?: string;
  /** `info.version`. Default `'0.0.0'`. */
  readonly version?: string;
  /** Markdown before the protocol guide in `info.description`. Default none. */
  readonly description?: string;
  /**
   * The origin (and prefix) the curl lines call. Default: `http://` + the request's `Host` + the prefix.
   */
  readonly curlBase?: string;
  /** HTTP methods the page may send ("Try it out"). Default `['get']`: trying a method changes nothing. */
  readonly tryMethods?: readonly ('get' | 'put' | 'post' | 'delete')[];
  /** Wraps every route (an authentication check). Default none. */
  readonly guard?: DocumentationGuard;
}

/** What the adapters hand the provider. */
export interface DocumentationContext {
  readonly resources: readonly object[];
  /** The server's path prefix (`''` or `/api`). */
  readonly prefix: string;
  readonly headerPrefix: string;
}

/** Makes the routes of a server (the OpenAPI layer's). */
export type DocumentationRoutesProvider = (
  context: DocumentationContext,
  options: DocumentationOptions,
) => readonly DocumentationRoute[];

let provider: DocumentationRoutesProvider | undefined;

/** Sets how the routes are made (the OpenAPI layer calls it when it loads). */
export function provideDocumentationRoutes(make: DocumentationRoutesProvider): void {
  provider = make;
}

/**
 * The routes of a server: none with `options === false` or when no provider is loaded.
 * @throws whatever the provider throws for bad options (a `SvcPluginOptionsError`)
 */
export function documentationRoutesOf(
  context: DocumentationContext,
  options: DocumentationOptions | false | undefined,
): readonly DocumentationRoute[] {
  if (options === false || provider === undefined) return [];
  return provider(context, options ?? {});
}
