import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type DocumentationAnswer,
  type DocumentationOptions,
  type DocumentationRoute,
  documentationRoutesOf,
} from '../resources/documentation-routes';
import type { ResourceDefinition } from '../resources/definition';

/**
 * The adapter's admission check (the server filters' `guard` stage: an authentication filter's), run before
 * a documentation route unless the options bring a guard of their own: once authentication is configured,
 * `/openapi.json` and `/docs` need a credential like `OPTIONS` does. True when it answered (refused).
 */
export type DocumentationAdmission<Req, Res> = (request: Req, response: Res) => boolean | Promise<boolean>;

/**
 * The documentation routes (`/openapi.json`, `/docs`: src/resources/documentation-routes.ts) on each
 * adapter: fastify routes in the plugin's context, and a check in front of the standalone server's pipeline.
 */

function routesFor(
  resources: readonly ResourceDefinition[],
  prefix: string,
  headerPrefix: string,
  options: DocumentationOptions | false | undefined,
): readonly DocumentationRoute[] {
  return documentationRoutesOf({ resources, prefix, headerPrefix }, options);
}

function failed(err: unknown): DocumentationAnswer {
  return {
    status: 500,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `cannot describe the service: ${err instanceof Error ? err.message : String(err)}`,
  };
}

/** Adds the documentation routes to the plugin's fastify context (its prefix applies). */
export function addFastifyDocumentationRoutes(
  instance: FastifyInstance,
  resources: readonly ResourceDefinition[],
  headerPrefix: string,
  options: DocumentationOptions | false | undefined,
  admit?: DocumentationAdmission<FastifyRequest, FastifyReply>,
): void {
  const admitted =
    admit !== undefined && (options === undefined || options === false || options.guard === undefined);
  for (const route of routesFor(resources, instance.prefix, headerPrefix, options)) {
    instance.get(route.path, async (request: FastifyRequest, reply: FastifyReply) => {
      if (admitted && (await admit(request, reply))) return reply;
      const answer = await route
        .handler({ method: request.method, path: route.path, headers: request.headers })
        .catch(failed);
      reply.code(answer.status).headers(answer.headers);
      return typeof answer.body === 'string'
        ? reply.send(answer.body)
        : reply.send(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
    });
  }
}

/**
 * A check for the standalone server: answers a GET or HEAD of a documentation route and says true, or
 * says false (the pipeline serves the request). `admit` is the adapter's admission check (see
 * {@link DocumentationAdmission}), true when it answered.
 */
export function nodeDocumentationHandler(
  resources: readonly ResourceDefinition[],
  prefix: string,
  headerPrefix: string,
  options: DocumentationOptions | false | undefined,
): NodeDocumentationHandler {
  const routes = new Map(routesFor(resources, prefix, headerPrefix, options).map((r) => [r.path, r]));
  const ownGuard = options !== undefined && options !== false && options.guard !== undefined;
  const answers = (method: string, path: string): boolean =>
    routes.size > 0 && (method === 'GET' || method === 'HEAD') && routes.has(path);
  const handler = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    admit?: () => boolean | Promise<boolean>,
  ): boolean => {
    const admitted = admit !== undefined && !ownGuard;
    if (routes.size === 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const route = routes.get(path);
    if (route === undefined) return false;
    req.resume();
    Promise.resolve(admitted ? admit() : false)
      .then((answered) =>
        answered
          ? undefined
          : route
              .handler({ method: req.method ?? 'GET', path, headers: req.headers })
              .catch(failed)
              .then((answer) => {
                res.writeHead(answer.status, {
                  ...answer.headers,
                  'content-length': String(
                    typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength,
                  ),
                });
                res.end(answer.body);
              }),
      )
      .catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`cannot describe the service: ${err instanceof Error ? err.message : String(err)}`);
      });
    return true;
  };
  return Object.assign(handler, { answers });
}

/**
 * The standalone server's documentation check (see {@link nodeDocumentationHandler}), with `answers`: whether
 * a request of that method and path is one of its routes, which the listener asks first so that every
 * other request makes no admission closure (~0.3 µs per request under load).
 */
export interface NodeDocumentationHandler {
  (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    admit?: () => boolean | Promise<boolean>,
  ): boolean;
  answers(method: string, path: string): boolean;
}
