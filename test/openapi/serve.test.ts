import { type DocumentationRequest, documentationRoutesOf } from '../../src/resources/documentation-routes';
import { SvcPluginOptionsError } from '../../src/resources/errors';
import { documentationRoutes } from '../../src/openapi';
import { type TestServer, startServer } from '../resources/support/http';
import { photoService } from '../resources/support/photos';

/**
 * `GET /openapi.json` and `GET /docs` under the server's prefix, on the adapter the jest project picks
 * (fastify, and the standalone server in the node-server project); the routes' options without a server.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ resources: [photoService().resource] }, '/api');
});

afterAll(async () => {
  await server.close();
});

const context = { resources: [photoService().resource], prefix: '', headerPrefix: 'X-Svc' };
const request: DocumentationRequest = { method: 'GET', path: '/openapi.json', headers: { host: 'h:1' } };

describe('the OpenAPI document and the docs page, served', () => {
  it('serves the document under the prefix, its curl lines calling the host asked', async () => {
    const res = await server.request('GET', '/openapi.json', { headers: { host: 'photos.test:8080' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json.servers).toEqual([{ url: '/api' }]);
    const get = res.json.paths['/photos/{photosId}'].get;
    expect(get['x-codeSamples'][0].source).toBe(
      "curl -s -H 'X-Svc-Protocol-Version: 2.0.0' http://photos.test:8080/api/photos/1",
    );
  });

  it('serves the page, with its own scripts only, and its files from the package', async () => {
    const page = await server.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(page.text).toContain('data-openapi="/api/openapi.json"');
    expect(page.text).toContain('<script src="docs/swagger-ui-bundle.js">');
    const bundle = await server.request('GET', '/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.bytes.byteLength).toBeGreaterThan(100_000);
  });

  it('leaves other paths to the resources', async () => {
    expect((await server.request('GET', '/docs/nothing')).status).toBe(404);
    expect((await server.request('GET', '/photos/1')).status).toBe(200);
  });
});

describe('the routes, by their options', () => {
  it('serves nothing with openapi: false, and no page with docsPath: false', () => {
    expect(documentationRoutesOf(context, false)).toEqual([]);
    expect(documentationRoutes(context, { docsPath: false }).map((r) => r.path)).toEqual(['/openapi.json']);
  });

  it('serves at the paths given', () => {
    const paths = documentationRoutes(context, { openapiPath: '/meta/api.json', docsPath: '/meta/ui' }).map(
      (r) => r.path,
    );
    expect(paths.slice(0, 3)).toEqual(['/meta/api.json', '/meta/ui', '/meta/ui/swagger-ui.css']);
  });

  it.each([
    ['a path without its leading slash', { docsPath: 'docs' }, 'openapi.docsPath'],
    ['a path ending in a slash', { openapiPath: '/x/' }, 'openapi.openapiPath'],
    ['a path under a resource', { docsPath: '/photos/docs' }, 'openapi.docsPath'],
  ])('refuses %s', (_name, options, option) => {
    expect(() => documentationRoutes(context, options)).toThrow(SvcPluginOptionsError);
    expect(() => documentationRoutes(context, options)).toThrow(option);
  });

  it('leaves a default path to a resource of that name, and serves the rest', () => {
    const docs = { ...photoService().resource, name: 'docs' };
    const paths = documentationRoutes({ ...context, resources: [docs] }).map((r) => r.path);
    expect(paths).toEqual(['/openapi.json']);
  });

  it('lets a guard answer instead of the route, or let it answer', async () => {
    const routes = documentationRoutes(context, {
      guard: (req, next) =>
        req.headers.authorization === 'Bearer ok'
          ? next(req)
          : Promise.resolve({ status: 401, headers: { 'www-authenticate': 'Bearer' }, body: '' }),
    });
    const doc = routes[0]!;
    expect((await doc.handler(request)).status).toBe(401);
    const allowed = await doc.handler({
      ...request,
      headers: { ...request.headers, authorization: 'Bearer ok' },
    });
    expect(allowed.status).toBe(200);
  });
});
