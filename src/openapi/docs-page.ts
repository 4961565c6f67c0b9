import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The documentation page: Swagger UI (the `swagger-ui-dist` package, pinned; its files served from the
 * package's own directory, so the page works offline: no CDN), started by a small script of ours that points
 * it at the service's OpenAPI document. Swagger UI renders the document's Markdown, which carries what a
 * generic renderer lacks for Rest.li (the protocol guide, batch finders and actions explained, each
 * resource's schemas as PDL, a curl line per method: see document.ts).
 *
 * Why Swagger UI: of the three maintained renderers, it is the one that tries requests from the page with
 * no service of its own (Redoc's free edition has no "try it"; Scalar's client fetches fonts and proxies by
 * default), and it ships as plain files.
 */

/** A file of the page: its name under the page's path, content type and bytes (read once, when first asked). */
export interface PageAsset {
  readonly name: string;
  readonly contentType: string;
  body(): Uint8Array | string;
}

let swaggerDir: string | undefined;
function swaggerUiDir(): string {
  swaggerDir ??= path.dirname(require.resolve('swagger-ui-dist/package.json'));
  return swaggerDir;
}

function packageFile(name: string, contentType: string): PageAsset {
  let bytes: Uint8Array | undefined;
  return {
    name,
    contentType,
    body: () => (bytes ??= readFileSync(path.join(swaggerUiDir(), name))),
  };
}

/** The page's start script: Swagger UI on the document named by the page's `data-openapi` attribute. */
const INIT_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var methods = (root.getAttribute('data-try-methods') || 'get').split(',').filter(Boolean);
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    showExtensions: true,
    showCommonExtensions: true,
    displayRequestDuration: true,
    supportedSubmitMethods: methods,
    // the online validator badge would call out to the Internet: the page must work offline
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
})();
`;

/** A few rules on top of Swagger UI's: PDL blocks readable, curl lines wrapped. */
const PAGE_CSS = `.swagger-ui .markdown pre, .swagger-ui .renderedMarkdown pre { white-space: pre-wrap; word-break: break-all; }
.swagger-ui details summary { cursor: pointer; font-weight: 600; margin: 0.5em 0; }
body { margin: 0; }
`;

/** The page's files besides the HTML, by name. */
export function pageAssets(): ReadonlyMap<string, PageAsset> {
  const assets: PageAsset[] = [
    packageFile('swagger-ui.css', 'text/css; charset=utf-8'),
    packageFile('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    packageFile('favicon-32x32.png', 'image/png'),
    { name: 'svc-docs.js', contentType: 'text/javascript; charset=utf-8', body: () => INIT_SCRIPT },
    { name: 'svc-docs.css', contentType: 'text/css; charset=utf-8', body: () => PAGE_CSS },
  ];
  return new Map(assets.map((a) => [a.name, a]));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page's HTML. `assetBase` is the page's last path segment (`docs`), so the files' relative URLs
 * (`docs/swagger-ui.css`) resolve under the page's path whatever the server's prefix; `openapiUrl` is the
 * document's absolute path (`/api/openapi.json`).
 */
export function pageHtml(
  title: string,
  assetBase: string,
  openapiUrl: string,
  tryMethods: readonly string[],
): string {
  const a = escapeHtml(assetBase);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${a}/favicon-32x32.png">
<link rel="stylesheet" href="${a}/swagger-ui.css">
<link rel="stylesheet" href="${a}/svc-docs.css">
</head>
<body>
<div id="swagger-ui" data-openapi="${escapeHtml(openapiUrl)}" data-try-methods="${escapeHtml(tryMethods.join(','))}"></div>
<script src="${a}/swagger-ui-bundle.js"></script>
<script src="${a}/svc-docs.js"></script>
</body>
</html>
`;
}

/**
 * The page's Content-Security-Policy: its own scripts only (no inline script, nothing from elsewhere);
 * Swagger UI sets inline styles and shows `data:` images, and its requests go to the service itself.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'";
