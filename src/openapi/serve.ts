import {
  type DocumentationAnswer,
  type DocumentationContext,
  type DocumentationGuard,
  type DocumentationHandler,
  type DocumentationOptions,
  type DocumentationRequest,
  type DocumentationRoute,
  provideDocumentationRoutes,
} from '../resources/documentation-routes';
import { SvcPluginOptionsError } from '../resources/errors';
import { openApiDocument } from './document';
import { PAGE_CSP, pageAssets, pageHtml } from './docs-page';

/**
 * The routes that serve the OpenAPI document and the docs page, under both adapters: `svcPlugin` and
 * `createSvcServer` call {@link documentationRoutes} through the seam in src/resources/documentation-routes.ts
 * (this module hands it in when it loads), with their `openapi` option.
 *
 * The document is made on the first request (never if nobody asks) and kept, one per `Host` the curl lines
 * name (a few: a service is reached under a handful of names; beyond 16 the oldest is dropped).
 */

/** The default paths. */
export const DEFAULT_OPENAPI_PATH = '/openapi.json';
/** Where the documentation page is served by default, `/docs`. */
export const DEFAULT_DOCS_PATH = '/docs';
const MAX_CACHED_HOSTS = 16;

function checkPath(name: string, value: unknown): string | false {
  if (value === false) return false;
  if (
    typeof value !== 'string' ||
    !/^\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~-]$/.test(value) ||
    value.includes('//')
  )
    throw new SvcPluginOptionsError(
      `openapi.${name}`,
      "must be a path like '/docs' (no trailing '/'), or false",
    );
  return value;
}

function headerText(v: string | readonly string[] | undefined): string | undefined {
  return typeof v === 'string' ? v : v?.[0];
}

function answer(
  status: number,
  contentType: string,
  body: string | Uint8Array,
  extra: Record<string, string> = {},
): DocumentationAnswer {
  return { status, headers: { 'content-type': contentType, ...extra }, body };
}

/** Wraps each route's handler in `guard`: the way an authentication check guards the routes. */
export function guardDocumentationRoutes(
  routes: readonly DocumentationRoute[],
  guard: DocumentationGuard,
): DocumentationRoute[] {
  return routes.map((r) => ({
    path: r.path,
    handler: (request: DocumentationRequest) => guard(request, r.handler),
  }));
}

/**
 * The document and page routes of a server: `GET <openapiPath>`, `GET <docsPath>` and the page's files under
 * `<docsPath>/`, each wrapped in `options.guard` when there is one.
 * @throws SvcPluginOptionsError for a bad path, or one a resource already has
 */
export function documentationRoutes(
  context: DocumentationContext,
  options: DocumentationOptions = {},
): DocumentationRoute[] {
  const names = new Set(
    context.resources
      .map((r) => (r as { name?: unknown }).name)
      .filter((n): n is string => typeof n === 'string'),
  );
  // a path under a resource: refused when given, left to the resource when it is the default (a service
  // with a resource named `docs` keeps it, and goes without the page)
  const pathOf = (option: 'openapiPath' | 'docsPath', fallback: string): string | false => {
    const given = options[option];
    const p = checkPath(option, given ?? fallback);
    if (p === false || !names.has(p.slice(1).split('/')[0]!)) return p;
    if (given === undefined) return false;
    throw new SvcPluginOptionsError(
      `openapi.${option}`,
      `'${p}' is under the resource '${p.slice(1).split('/')[0]!}': choose another path, or openapi: false`,
    );
  };
  const openapiPath = pathOf('openapiPath', DEFAULT_OPENAPI_PATH);
  const docsPath = openapiPath === false ? false : pathOf('docsPath', DEFAULT_DOCS_PATH);
  if (openapiPath === false) return [];

  const title = options.title ?? 'Svc service';
  const cache = new Map<string, string>();
  const documentText = (host: string | undefined): string => {
    const curlBase = options.curlBase ?? `http://${host ?? 'localhost'}${context.prefix}`;
    let text = cache.get(curlBase);
    if (text === undefined) {
      text = JSON.stringify(
        openApiDocument(context.resources, {
          title,
          ...(options.version === undefined ? {} : { version: options.version }),
          ...(options.description === undefined ? {} : { description: options.description }),
          serverUrl: context.prefix === '' ? '/' : context.prefix,
          headerPrefix: context.headerPrefix,
          curlBase,
        }),
      );
      if (cache.size >= MAX_CACHED_HOSTS) cache.delete(cache.keys().next().value!);
      cache.set(curlBase, text);
    }
    return text;
  };

  const routes: DocumentationRoute[] = [
    {
      path: openapiPath,
      handler: (request) =>
        Promise.resolve(
          answer(200, 'application/json; charset=utf-8', documentText(headerText(request.headers.host)), {
            'cache-control': 'no-cache',
          }),
        ),
    },
  ];
  if (docsPath !== false) {
    const assetBase = docsPath.slice(docsPath.lastIndexOf('/') + 1);
    const html = pageHtml(title, assetBase, `${context.prefix}${openapiPath}`, options.tryMethods ?? ['get']);
    routes.push({
      path: docsPath,
      handler: () =>
        Promise.resolve(
          answer(200, 'text/html; charset=utf-8', html, {
            'content-security-policy': PAGE_CSP,
            'x-content-type-options': 'nosniff',
            'cache-control': 'no-cache',
          }),
        ),
    });
    for (const asset of pageAssets().values()) {
      const handler: DocumentationHandler = () =>
        Promise.resolve(
          answer(200, asset.contentType, asset.body(), {
            'x-content-type-options': 'nosniff',
            'cache-control': 'public, max-age=3600',
          }),
        );
      routes.push({ path: `${docsPath}/${asset.name}`, handler });
    }
  }
  return options.guard === undefined ? routes : guardDocumentationRoutes(routes, options.guard);
}

provideDocumentationRoutes(documentationRoutes);
